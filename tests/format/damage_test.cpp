// Damaged files: truncation at every byte, single-bit flips, a writer that never finished or was
// killed, absurd size fields. The reader must answer each with a clean xnt::Error or a recovered
// prefix of the original records, never a crash (this suite runs under ASan+UBSan in CI).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "fixtures.h"
#include "layout.h"
#include "xnt/base/error.h"

// The largest single operator-new request since the last reset: proves that absurd size fields
// are rejected before anything is allocated for them (the reader's buffers all come from new).
static std::atomic<size_t> g_largest_allocation{0};

namespace xnt::format::test {
namespace {

// A trace of a few KB with many small chunks, so that every kind of boundary is crossed.
std::vector<uint8_t> SmallTrace(std::vector<std::string>* expected) {
  TempFile file("small.xnt");
  std::vector<Record> records;
  records.push_back(MemoryEvent{MemoryEventKind::kInitialSnapshot, 0x1000, Bytes(600, 1)});
  records.push_back(RegisterSnapshot{0x2000, {1, 2, 3}});
  std::vector<uint8_t> texture(kPageSize + 10, 0x5A);  // compressible; dedups across frames
  for (uint32_t f = 0; f < 3; ++f) {
    records.push_back(MemoryEvent{MemoryEventKind::kGpuRead, 0x10000, texture});
    records.push_back(MemoryEvent{MemoryEventKind::kCpuWrite, 0x20000 + f, Bytes(40, f)});
    records.push_back(Submission{SubmissionKind::kRingBuffer, 0x1F000000, {0xC0012D00u, f, 0xDEADBEEF}});
    records.push_back(FrameMarker{f, 0x1C000000, 1280, 720, 6});
  }
  records.push_back(Annotation{"tail", "after the last frame"});
  WriterOptions options;
  options.chunk_target_bytes = 4096;
  options.threads = 1;
  WriteTrace(file.path, records, options);
  if (expected) *expected = DescribeAll(records);
  return ReadFileBytes(file.path);
}

ReaderOptions OneThread() {
  ReaderOptions o;
  o.threads = 1;
  return o;
}

bool IsPrefix(const std::vector<std::string>& got, const std::vector<std::string>& all) {
  if (got.size() > all.size()) return false;
  return std::equal(got.begin(), got.end(), all.begin());
}

TEST(FormatDamage, TruncatedAtEveryOffset) {
  std::vector<std::string> expected;
  auto bytes = SmallTrace(&expected);
  ASSERT_LT(bytes.size(), 8u * 1024);
  size_t opened = 0, whole_frames_seen = 0;
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::unique_ptr<Reader> r;
    try {
      r = Reader::OpenMemory({bytes.data(), len}, OneThread());
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("offset"), std::string::npos) << e.what();
      continue;
    }
    ++opened;
    ASSERT_TRUE(r->recovered()) << len;
    EXPECT_NE(r->recovery_note().find("offset"), std::string::npos);
    auto got = ReadAll(*r);
    ASSERT_TRUE(IsPrefix(got, expected)) << "truncated at " << len;
    whole_frames_seen = std::max<size_t>(whole_frames_seen, r->frame_count());
    EXPECT_FALSE(r->Validate().empty()) << len;
  }
  EXPECT_GT(opened, bytes.size() / 2);
  EXPECT_EQ(whole_frames_seen, 3u);
  // Without the last 16 bytes (the trailer) every record is still there.
  auto r = Reader::OpenMemory({bytes.data(), bytes.size() - layout::kTrailerSize}, OneThread());
  EXPECT_EQ(ReadAll(*r), expected);
  // And recovery can be refused.
  ReaderOptions strict = OneThread();
  strict.allow_recovery = false;
  EXPECT_THROW(Reader::OpenMemory({bytes.data(), bytes.size() - 1}, strict), Error);
}

TEST(FormatDamage, EverySingleBitFlipIsCaught) {
  std::vector<std::string> expected;
  auto bytes = SmallTrace(&expected);
  {
    auto r = Reader::OpenMemory(bytes, OneThread());
    ASSERT_TRUE(r->Validate().empty());
  }
  size_t caught_at_open = 0, caught_by_validate = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    auto damaged = bytes;
    damaged[i] ^= uint8_t(1u << (i % 8));
    std::unique_ptr<Reader> r;
    try {
      r = Reader::OpenMemory(damaged, OneThread());
    } catch (const Error&) {
      ++caught_at_open;
      continue;
    }
    auto problems = r->Validate();
    EXPECT_FALSE(problems.empty()) << "bit flip at byte " << i << " went unnoticed";
    if (!problems.empty()) ++caught_by_validate;
    // Reading must not crash either; it may stop with an error.
    try {
      auto got = ReadAll(*r);
      EXPECT_TRUE(IsPrefix(got, expected) || got.size() == expected.size()) << i;
    } catch (const Error&) {
    }
  }
  EXPECT_EQ(caught_at_open + caught_by_validate, bytes.size());
}

TEST(FormatDamage, TrailerPointingAnywhereFallsBackToScanning) {
  std::vector<std::string> expected;
  auto bytes = SmallTrace(&expected);
  // A well-formed trailer (its checksum is no secret) whose offset would wrap or miss the footer.
  for (uint64_t target : {~uint64_t(0), ~uint64_t(0) - 20, uint64_t(0), uint64_t(64), uint64_t(bytes.size() - 20)}) {
    auto damaged = bytes;
    layout::EncodeTrailer(target, damaged.data() + damaged.size() - layout::kTrailerSize);
    auto r = Reader::OpenMemory(damaged, OneThread());
    EXPECT_TRUE(r->recovered()) << target;
    EXPECT_EQ(ReadAll(*r), expected) << target;
  }
}

TEST(FormatDamage, WriterDestroyedWithoutFinishLeavesReadableChunks) {
  TempFile file("unfinished.xnt");
  auto records = SampleRecords(3, false);
  WriteTrace(file.path, records, {}, /*finish=*/false);
  auto r = Reader::Open(file.path);
  EXPECT_TRUE(r->recovered());
  EXPECT_NE(r->recovery_note().find("reached the end of the file"), std::string::npos) << r->recovery_note();
  EXPECT_EQ(r->frame_count(), 3u);
  EXPECT_EQ(ReadAll(*r), DescribeAll(records));
  auto problems = r->Validate();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("no valid footer"), std::string::npos);
}

TEST(FormatDamage, ProcessKilledMidWriteLeavesAReadablePrefix) {
  TempFile file("killed.xnt");
  auto records = SampleRecords(8, false, 64 * 1024);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto w = Writer::Create(file.path, SampleInfo());
    int markers = 0;
    for (const auto& r : records) {
      w->Write(r);
      if (std::holds_alternative<FrameMarker>(r) && ++markers == 5) {
        // Half of frame 5, then die without Finish() or destructors.
        w->Write(Submission{SubmissionKind::kRingBuffer, 0, {1, 2, 3}});
        ::_exit(0);
      }
    }
    ::_exit(1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto r = Reader::Open(file.path);
  EXPECT_TRUE(r->recovered());
  EXPECT_EQ(r->frame_count(), 5u);
  auto got = ReadAll(*r);
  auto all = DescribeAll(records);
  ASSERT_TRUE(IsPrefix(got, all));
  EXPECT_EQ(got.back().rfind("frame 4 ", 0), 0u);
  EXPECT_EQ(ReadAll(*r, 2, 2).back().rfind("frame 2 ", 0), 0u);
}

// Builds header + one chunk whose header fields are chosen by the test (with a valid header
// checksum, so only the size checks stand between the field and an allocation).
std::vector<uint8_t> CraftedFile(uint8_t codec, uint32_t stored, uint32_t raw, size_t payload_bytes) {
  std::vector<uint8_t> f(layout::kFileHeaderSize + layout::kChunkHeaderSize + payload_bytes, 0);
  layout::FileHeader fh;
  fh.writer_name = "crafted";
  layout::EncodeFileHeader(fh, f.data());
  layout::ChunkHeader h;
  h.type = ChunkType::kInfo;
  h.codec = codec;
  h.stored_size = stored;
  h.raw_size = raw;
  const uint8_t* payload = f.data() + layout::kFileHeaderSize + layout::kChunkHeaderSize;
  h.stored_hash = XXH3_64bits(payload, payload_bytes);
  layout::EncodeChunkHeader(h, f.data() + layout::kFileHeaderSize);
  return f;
}

std::string OpenError(const std::vector<uint8_t>& bytes) {
  try {
    auto r = Reader::OpenMemory(bytes, OneThread());
    return "opened (recovered=" + std::to_string(r->recovered()) + ")";
  } catch (const Error& e) {
    return e.what();
  }
}

TEST(FormatDamage, AbsurdSizeFieldsAreRejectedBeforeAllocating) {
  g_largest_allocation = 0;
  // raw size far beyond the chunk limit
  auto e1 = OpenError(CraftedFile(layout::kCodecZstd, 16, 0xFFFFFFF0u, 16));
  EXPECT_NE(e1.find("exceeds"), std::string::npos) << e1;
  // stored size beyond the end of the file
  auto e2 = OpenError(CraftedFile(layout::kCodecStored, 0x7FFFFFFF, 0x7FFFFFFF, 16));
  EXPECT_NE(e2.find("chunk limit"), std::string::npos) << e2;
  auto e3 = OpenError(CraftedFile(layout::kCodecZstd, 0x100000, 1000, 16));
  EXPECT_NE(e3.find("runs past the end of the file"), std::string::npos) << e3;
  // a raw size within the limit but impossible for the stored bytes (no 200 MiB allocation)
  auto e4 = OpenError(CraftedFile(layout::kCodecZstd, 100, 200u << 20, 100));
  EXPECT_NE(e4.find("impossible"), std::string::npos) << e4;
  // a plausible header over a payload that is no zstd frame
  auto e5 = OpenError(CraftedFile(layout::kCodecZstd, 64, 1000, 64));
  EXPECT_NE(e5.find("zstd"), std::string::npos) << e5;
  for (const auto& e : {e1, e2, e3, e4, e5}) {
    EXPECT_NE(e.find("byte offset"), std::string::npos) << e;
  }
  // Shorter than a header, wrong magic.
  EXPECT_NE(OpenError({}).find("shorter"), std::string::npos);
  std::vector<uint8_t> junk(200, 'x');
  EXPECT_NE(OpenError(junk).find("magic"), std::string::npos);
  EXPECT_LT(g_largest_allocation.load(), size_t(1) << 20);
}

TEST(FormatDamage, WriterRejectsOversizedInput) {
  TempFile file("oversized.xnt");
  auto w = Writer::Create(file.path, SampleInfo());
  std::vector<uint8_t> one(16);
  EXPECT_THROW(w->WriteMemory(MemoryEventKind::kCpuWrite, 0xFFFFFFF8u, one), Error);
  WriterOptions bad;
  bad.zstd_level = -1;
  EXPECT_THROW(Writer::Create(file.path, SampleInfo(), bad), Error);
}

}  // namespace
}  // namespace xnt::format::test

// Replacing the global allocation functions is allowed by the standard; these only record sizes.
// (gcc's mismatched-new-delete check does not know that these are the replacements.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(size_t n) {
  size_t seen = g_largest_allocation.load();
  while (n > seen && !g_largest_allocation.compare_exchange_weak(seen, n)) {
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
