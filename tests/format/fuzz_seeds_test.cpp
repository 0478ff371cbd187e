// The seed corpus of fuzz_reader (tests/fuzz/corpus/reader/): small traces written by the Writer.
// This test checks that the committed seeds are still valid traces of the current format; run
// with XNT_WRITE_FUZZ_SEEDS=1 to regenerate them after a format change.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "fixtures.h"

namespace xnt::format::test {
namespace {

const std::string kSeedDir = std::string(XNT_SOURCE_DIR) + "/tests/fuzz/corpus/reader";

std::vector<Record> SeedRecords(uint32_t frames) {
  std::vector<Record> r;
  r.push_back(MemoryEvent{MemoryEventKind::kInitialSnapshot, 0x1000, Bytes(300, 1)});
  r.push_back(RegisterSnapshot{0x2000, {1, 2, 3}});
  r.push_back(GammaRamp{{1, 2, 3, 4}, {5, 6}, 1});
  r.push_back(Annotation{"seed", "fuzz"});
  r.push_back(EdramSnapshot{Bytes(256, 4)});  // short: a real one is 10 MiB
  for (uint32_t f = 0; f < frames; ++f) {
    r.push_back(MemoryEvent{MemoryEventKind::kGpuRead, 0x10000 - 8, std::vector<uint8_t>(kPageSize + 16, 0x5A)});
    r.push_back(MemoryEvent{MemoryEventKind::kCpuWrite, 0x20000 + f, Bytes(24, f)});
    r.push_back(Submission{SubmissionKind::kIndirectBuffer, 0x1E000000, {0xC0012D00u, f}});
    r.push_back(FrameMarker{f, 0x1C000000, 64, 32, 6});
  }
  return r;
}

struct Seed {
  const char* name;
  uint32_t frames;
  int level;
  bool finish;
};
const Seed kSeeds[] = {
    {"stored.xnt", 2, 0, true},
    {"zstd.xnt", 2, 3, true},
    {"unfinished.xnt", 2, 0, false},
    {"frames.xnt", 5, 0, true},
};

TEST(FuzzSeeds, CommittedReaderSeedsAreValidTraces) {
  const char* write = std::getenv("XNT_WRITE_FUZZ_SEEDS");
  for (const Seed& s : kSeeds) {
    std::string path = kSeedDir + "/" + s.name;
    if (write && *write == '1') {
      std::filesystem::create_directories(kSeedDir);
      WriterOptions o;
      o.zstd_level = s.level;
      o.chunk_target_bytes = 4096;
      o.threads = 1;
      o.writer_version = "seed";
      WriteTrace(path, SeedRecords(s.frames), o, s.finish);
    }
    ASSERT_TRUE(std::filesystem::exists(path)) << path << " (run with XNT_WRITE_FUZZ_SEEDS=1)";
    EXPECT_LT(std::filesystem::file_size(path), 50u * 1024);
    auto r = Reader::Open(path);
    EXPECT_EQ(r->recovered(), !s.finish) << path;
    EXPECT_EQ(r->frame_count(), s.frames) << path;
    EXPECT_EQ(ReadAll(*r), DescribeAll(SeedRecords(s.frames))) << path;
    if (s.finish) {
      EXPECT_TRUE(r->Validate().empty()) << path;
    }
  }
}

}  // namespace
}  // namespace xnt::format::test
