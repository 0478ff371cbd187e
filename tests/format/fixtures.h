// Shared helpers of the format tests: sample records, a canonical text form of a record for
// comparisons, temporary files.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "test_files.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"

namespace xnt::format::test {

// A path in $TMPDIR unique to this process and `name`; removed by the destructor.
struct TempFile {
  explicit TempFile(const std::string& name) {
    const char* dir = std::getenv("TMPDIR");
    path = std::string(dir && *dir ? dir : "/tmp") + "/xnt_format_test_" + std::to_string(::getpid()) + "_" + name;
  }
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};

using ::xnt::test::ReadFileBytes;
using ::xnt::test::WriteFileBytes;

// Deterministic pseudo-random bytes (xorshift), so tests need no fixtures on disk.
inline std::vector<uint8_t> Bytes(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = uint8_t(x >> 24);
  }
  return v;
}

// Canonical text of a record: two records are equal iff their texts are.
inline std::string Describe(const Record& r) {
  std::ostringstream o;
  auto words = [&](const std::vector<uint32_t>& v) {
    o << '[';
    for (uint32_t w : v) o << w << ',';
    o << ']';
  };
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Submission>) {
          o << "sub " << int(x.kind) << ' ' << x.guest_address << ' ';
          words(x.dwords);
        } else if constexpr (std::is_same_v<T, MemoryEvent>) {
          o << "mem " << int(x.kind) << ' ' << x.guest_address << ' ' << x.bytes.size() << ' ';
          for (uint8_t b : x.bytes) o << char('a' + (b & 15)) << char('a' + (b >> 4));
        } else if constexpr (std::is_same_v<T, RegisterSnapshot>) {
          o << "regs " << x.first_register << ' ';
          words(x.values);
        } else if constexpr (std::is_same_v<T, EdramSnapshot>) {
          uint64_t sum = 0;
          for (size_t i = 0; i < x.bytes.size(); ++i) sum = sum * 31 + x.bytes[i];
          o << "edram " << x.bytes.size() << ' ' << sum;
        } else if constexpr (std::is_same_v<T, GammaRamp>) {
          o << "gamma " << int(x.rw_component) << ' ';
          words(x.table);
          words(x.pwl);
        } else if constexpr (std::is_same_v<T, FrameMarker>) {
          o << "frame " << x.frame_index << ' ' << x.front_buffer_address << ' ' << x.width << 'x'
            << x.height << ' ' << x.format;
        } else if constexpr (std::is_same_v<T, Annotation>) {
          o << "note " << x.label << '=' << x.text;
        }
      },
      r);
  return o.str();
}

inline TraceInfo SampleInfo() {
  TraceInfo info;
  info.title_id = 0x4D5307E6;
  info.capture_source = "xnt-format-test";
  info.creation_time_unix = 1700000000;
  info.guest_memory_size = kGuestPhysicalSize;
  return info;
}

// A small trace of `frames` frames touching every record kind (EDRAM optional: it is 10 MiB).
inline std::vector<Record> SampleRecords(uint32_t frames, bool with_edram, size_t texture_bytes = 8192) {
  std::vector<Record> out;
  out.push_back(MemoryEvent{MemoryEventKind::kInitialSnapshot, 0x00100000, Bytes(3 * kPageSize, 1)});
  out.push_back(RegisterSnapshot{0x2000, {1, 2, 3, 0xFFFFFFFF}});
  out.push_back(GammaRamp{std::vector<uint32_t>(256, 0x3FF), std::vector<uint32_t>(384, 7), 2});
  out.push_back(Annotation{"title", "sample trace"});
  auto texture = Bytes(texture_bytes, 99);  // the same texture every frame: dedup fodder
  for (uint32_t f = 0; f < frames; ++f) {
    out.push_back(MemoryEvent{MemoryEventKind::kCpuWrite, 0x00200010 + f * 3, Bytes(100 + f * 37, 1000 + f)});
    out.push_back(MemoryEvent{MemoryEventKind::kGpuRead, 0x01000000, texture});
    out.push_back(Submission{SubmissionKind::kRingBuffer, 0x1F000000 + f * 64,
                             {0xC0012D00u, f, 0x80000000u | f, 0xDEADBEEF}});
    out.push_back(Submission{SubmissionKind::kIndirectBuffer, 0x1E000000, {0xC0003B00u + f, 1, 2, 3, 4, 5}});
    out.push_back(MemoryEvent{MemoryEventKind::kGpuWrite, 0x00300000 + f * kPageSize, {}});
    if (with_edram && f == 1) {
      EdramSnapshot e;
      e.bytes = Bytes(kEdramSizeBytes, 5);
      out.push_back(std::move(e));
    }
    out.push_back(FrameMarker{f, 0x1C000000, 1280, 720, 6});
  }
  out.push_back(Annotation{"tail", "records after the last frame"});
  out.push_back(Submission{SubmissionKind::kRingBuffer, 0x1F100000, {0x80000000u}});
  return out;
}

inline void WriteTrace(const std::string& path, const std::vector<Record>& records, WriterOptions options = {},
                       bool finish = true) {
  auto w = Writer::Create(path, SampleInfo(), options);
  for (const auto& r : records) w->Write(r);
  if (finish) w->Finish();
}

inline std::vector<std::string> ReadAll(Reader& r, uint64_t first = 0, std::optional<uint64_t> last = std::nullopt) {
  std::vector<std::string> out;
  r.ForEachRecord([&](const Record& rec) { out.push_back(Describe(rec)); return true; }, first, last);
  return out;
}

inline std::vector<std::string> DescribeAll(const std::vector<Record>& records) {
  std::vector<std::string> out;
  for (const auto& r : records) out.push_back(Describe(r));
  return out;
}

}  // namespace xnt::format::test
