// Writes a trace's first frames as one input of fuzz_cpu_replay (its layout is described there):
// memory events as memory records, submissions as PM4 records, a frame marker as bit 30 of the
// submission before it, register and EDRAM snapshots as their records (gamma ramps and
// annotations are left out).
// Usage: make_cpu_replay_seed TRACE.xnt OUT [MAX_BYTES]; stops before the record that would pass
// MAX_BYTES (default 256 KiB) and exits 1 when nothing fits.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "xnt/base/error.h"
#include "xnt/format/reader.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s TRACE.xnt OUT [MAX_BYTES]\n", argv[0]);
    return 2;
  }
  const size_t max_bytes = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 256 * 1024;
  std::vector<uint8_t> out(4, 0);  // options: 1x1
  size_t last_submission_word = 0;
  bool any = false;
  auto put = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
  };
  try {
    auto reader = xnt::format::Reader::Open(argv[1]);
    reader->ForEachRecord([&](const xnt::format::Record& record) {
      return std::visit(
          [&](const auto& r) -> bool {
            using T = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<T, xnt::format::Submission>) {
              if (out.size() + 8 + r.dwords.size() * 4 > max_bytes) return false;
              last_submission_word = out.size();
              put(0x80000000u);
              put(uint32_t(r.dwords.size()));
              for (uint32_t d : r.dwords) put(d);
              any = true;
            } else if constexpr (std::is_same_v<T, xnt::format::MemoryEvent>) {
              if (r.kind == xnt::format::MemoryEventKind::kGpuWrite) return true;
              if (out.size() + 8 + r.bytes.size() > max_bytes) return false;
              put(r.guest_address & 0x1FFFFFFFu);
              put(uint32_t(r.bytes.size()));
              out.insert(out.end(), r.bytes.begin(), r.bytes.end());
            } else if constexpr (std::is_same_v<T, xnt::format::RegisterSnapshot>) {
              if (out.size() + 8 + r.values.size() * 4 > max_bytes) return false;
              put(0x20000000u | (r.first_register & 0xFFFFu));
              put(uint32_t(r.values.size()));
              for (uint32_t v : r.values) put(v);
            } else if constexpr (std::is_same_v<T, xnt::format::EdramSnapshot>) {
              // Trailing zeros are implied.
              size_t n = r.bytes.size();
              while (n > 0 && r.bytes[n - 1] == 0) --n;
              if (out.size() + 8 + n > max_bytes) return false;
              put(0x40000000u);
              put(uint32_t(n));
              out.insert(out.end(), r.bytes.begin(), r.bytes.begin() + std::ptrdiff_t(n));
            } else if constexpr (std::is_same_v<T, xnt::format::FrameMarker>) {
              if (any) out[last_submission_word + 3] |= 0x40;
            }
            return true;
          },
          record);
    });
  } catch (const xnt::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  if (!any) return 1;
  std::ofstream(argv[2], std::ios::binary).write(reinterpret_cast<const char*>(out.data()),
                                                 std::streamsize(out.size()));
  return 0;
}
