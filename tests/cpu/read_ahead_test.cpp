// Replay with the trace read ahead (format::Reader with worker threads: chunks decoded ahead of
// the replay in a bounded window, each freed once replayed) against the reader on the replay
// thread alone, on the cpu path: every frame of the multi-frame EDRAM scenarios is the same,
// with the trace cut into many small chunks so the read-ahead is really ahead; and a damaged chunk
// gives the same error (message and byte offset) after the same frames.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "edram_scenarios.h"
#include "xnt/base/error.h"
#include "xnt/cpu/cpu_backend.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"

namespace xnt::cpu {
namespace {

namespace fs = std::filesystem;

const fs::path kWork = fs::path(XNT_BINARY_DIR) / "tests" / "cpu";
constexpr uint32_t kChunkHeaderBytes = 40;  // docs/format.md: the fixed chunk header

struct Played {
  std::vector<gpu::SwapImage> frames;
  std::string error;  // what() of the xnt::Error the replay ended with, if any
  uint64_t error_offset = Error::kNoOffset;
};

Played Play(const std::string& path, unsigned reader_threads) {
  Played out;
  CpuBackendOptions o;
  o.threads = 1;
  o.on_swap = [&](uint64_t, const gpu::SwapImage& image) { out.frames.push_back(image); };
  CpuBackend backend(o);
  replay::TracePlayer player(backend);
  backend.Attach(&player.memory(), &player.registers());
  format::ReaderOptions ro;
  ro.threads = reader_threads;
  ro.allow_recovery = false;
  try {
    player.Play(*format::Reader::Open(path, ro));
  } catch (const Error& e) {
    out.error = e.what();
    out.error_offset = e.offset();
  }
  return out;
}

// The same records, written again with chunks of about `chunk_bytes` raw bytes.
void Rechunk(const std::string& from, const std::string& to, size_t chunk_bytes) {
  auto reader = format::Reader::Open(from);
  format::WriterOptions wo;
  wo.chunk_target_bytes = chunk_bytes;
  wo.threads = 1;
  auto writer = format::Writer::Create(to, reader->info(), wo);
  reader->ForEachRecord([&](const format::Record& r) {
    writer->Write(r);
    return true;
  });
  writer->Finish();
}

void ExpectSameFrames(const Played& a, const Played& b, const std::string& what) {
  ASSERT_EQ(a.frames.size(), b.frames.size()) << what;
  for (size_t f = 0; f < a.frames.size(); ++f) {
    EXPECT_EQ(a.frames[f].width, b.frames[f].width) << what << " frame " << f;
    EXPECT_EQ(a.frames[f].height, b.frames[f].height) << what << " frame " << f;
    EXPECT_TRUE(a.frames[f].rgba == b.frames[f].rgba) << what << " frame " << f;
  }
}

// The scenarios with more than one frame, each as written and cut into small chunks. The files
// are named after the test writing them: ctest runs the tests of this file as processes side by
// side, and one test rewriting a trace the other is replaying would be read half-written.
std::string TestFilePrefix() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "_" + info->name() + "_";
}

std::vector<std::pair<std::string, std::string>> MultiFrameTraces() {
  std::vector<std::pair<std::string, std::string>> out;
  fs::create_directories(kWork);
  const std::string prefix = TestFilePrefix();
  for (const samples::EdramScenario& sc : samples::EdramScenarios()) {
    if (sc.expected_frames().size() < 2) continue;
    const std::string whole = (kWork / (prefix + sc.sample.name + "_ra.xnt")).string();
    const std::string small = (kWork / (prefix + sc.sample.name + "_ra_small.xnt")).string();
    samples::WriteSample(sc.sample, whole);
    Rechunk(whole, small, 4096);  // the writer's smallest chunk
    out.emplace_back(whole, small);
  }
  return out;
}

TEST(ReadAhead, SameFramesAsReadingOnTheReplayThread) {
  const auto traces = MultiFrameTraces();
  ASSERT_GE(traces.size(), 3u);
  for (const auto& [whole, small] : traces) {
    EXPECT_GT(format::Reader::Open(small)->chunks().size(), 4u) << small;
    const Played reference = Play(whole, 1);
    ASSERT_TRUE(reference.error.empty()) << reference.error;
    ASSERT_GE(reference.frames.size(), 2u) << whole;
    for (unsigned threads : {1u, 2u, 4u}) {
      const Played p = Play(small, threads);
      EXPECT_TRUE(p.error.empty()) << p.error;
      ExpectSameFrames(reference, p, small + " with " + std::to_string(threads) + " threads");
    }
  }
}

TEST(ReadAhead, DamageGivesTheSameErrorAfterTheSameFrames) {
  const auto traces = MultiFrameTraces();
  ASSERT_FALSE(traces.empty());
  const std::string small = traces.front().second;
  const std::vector<format::ChunkSummary> chunks = format::Reader::Open(small)->chunks();
  // The last commands chunk: the frames before it are replayed, then the damage is met.
  size_t victim = chunks.size();
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (chunks[i].type == format::ChunkType::kCommands) victim = i;
  }
  ASSERT_LT(victim, chunks.size());
  std::ifstream in(small, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  bytes[chunks[victim].file_offset + kChunkHeaderBytes + chunks[victim].stored_size / 2] ^= 0x10;
  const std::string damaged = (kWork / (TestFilePrefix() + "damaged.xnt")).string();
  std::ofstream(damaged, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));

  const Played alone = Play(damaged, 1);
  // The error names the damaged chunk: an offset inside it, and its kind.
  const uint64_t begin = chunks[victim].file_offset;
  EXPECT_GE(alone.error_offset, begin) << alone.error;
  EXPECT_LT(alone.error_offset, begin + kChunkHeaderBytes + chunks[victim].stored_size);
  EXPECT_NE(alone.error.find("at byte offset " + std::to_string(alone.error_offset) +
                             ": commands chunk"),
            std::string::npos)
      << alone.error;
  EXPECT_GE(alone.frames.size(), 1u) << "the frames before the damaged chunk are replayed";
  for (unsigned threads : {2u, 4u}) {
    const Played ahead = Play(damaged, threads);
    EXPECT_EQ(ahead.error, alone.error) << threads << " threads";
    EXPECT_EQ(ahead.error_offset, alone.error_offset);
    ExpectSameFrames(alone, ahead, "frames before the damage");
  }
}

}  // namespace
}  // namespace xnt::cpu
