// `xenotrace slice` (compare/slice.h): a slice of frames A..B replays those frames byte-identical
// to the same frames of the whole trace, with the same EDRAM at its end; bad ranges and damaged
// sources leave no file behind; `info` names the source; an .xtr round trip changes nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "replay_helpers.h"
#include "slice_test_helpers.h"
#include "test_files.h"
#include "xnt/compare/bisect.h"
#include "xnt/compare/repro.h"
#include "xnt/compare/slice.h"
#include "xnt/samples/samples.h"

namespace xnt {
namespace {

namespace fs = std::filesystem;
using test::ExpectSameFrames;
using test::TempDir;
using test::WriteSampleFile;

// Every sample on the cpu path at 1x1, cut at every frame boundary: [A, last] keeps every later
// frame and the EDRAM at the end, [A, A] the one frame.
class SliceSample : public ::testing::TestWithParam<std::string> {};

TEST_P(SliceSample, EveryFrameBoundaryOnCpu) {
  const fs::path dir = TempDir(GetParam());
  const std::string source = WriteSampleFile(GetParam(), dir);
  const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, renderer::Path::kCpu, 1, false);
  const uint64_t frames = full.frames.size();
  ASSERT_GT(frames, 0u);
  for (uint64_t a = 0; a < frames; ++a) {
    // The last frame's [A, A] is [A, last]: replayed once.
    for (uint64_t b : std::set<uint64_t>{a, frames - 1}) {
      const std::string what = GetParam() + " frames " + std::to_string(a) + "-" + std::to_string(b);
      const std::string out = (dir / ("slice_" + std::to_string(a) + "_" + std::to_string(b) + ".xnt")).string();
      const compare::SliceReport report = compare::WriteSlice(source, out, {a, b});
      EXPECT_EQ(report.frames, b - a + 1) << what;
      const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, renderer::Path::kCpu, 1, false);
      vk::test::TraceRun kept = full;
      kept.frames.resize(b + 1);
      ExpectSameFrames(kept, a, slice, what);
      if (b == frames - 1) {
        EXPECT_TRUE(slice.edram == full.edram) << what << ": EDRAM at the end";
      }
    }
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(AllSamples, SliceSample, ::testing::ValuesIn(samples::Names()),
                         [](const auto& info) { return info.param; });

// The multi-frame samples cut at every frame boundary on fbo (lavapipe, validation on) and fsi: the kept
// frame as in the full replay on that path. edram_float24_equal_within_20e4_step's EQUAL pass
// tests against depths its frame 0 left less than a 20e4 step apart: fbo's pixel shader writes
// them rounded to 20e4 (the cpu path's values), so the snapshot's guest bits are what the full
// fbo replay holds.
class SliceVulkan : public ::testing::TestWithParam<std::tuple<std::string, renderer::Path>> {};

TEST_P(SliceVulkan, FramesAfterTheCutAsInTheFullReplay) {
  const auto& [name, path] = GetParam();
  const fs::path dir = TempDir(name + renderer::PathName(path));
  const std::string source = WriteSampleFile(name, dir);
  const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, path, 1, false);
  for (uint64_t a = 1; a < full.frames.size(); ++a) {
    const std::string out = (dir / ("slice_" + std::to_string(a) + ".xnt")).string();
    compare::WriteSlice(source, out, {a, full.frames.size() - 1});
    const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, path, 1, false);
    EXPECT_EQ(slice.validation_messages, 0u) << slice.validation_report;
    ExpectSameFrames(full, a, slice, name + " from frame " + std::to_string(a));
  }
  fs::remove_all(dir);
}

const std::vector<std::string> kMultiFrame = {"slice_resolve_chain_5_frames",
                                             "edram_snapshot_restore",
                                             "edram_shadow_map_three_pass",
                                             "edram_depth_evict_8888", "edram_7e3_exact_bits",
                                             "edram_float24_equal_within_20e4_step"};

INSTANTIATE_TEST_SUITE_P(
    MultiFrame, SliceVulkan,
    ::testing::Combine(::testing::ValuesIn(kMultiFrame),
                       ::testing::Values(renderer::Path::kFbo, renderer::Path::kFsi)),
    [](const auto& info) {
      return std::get<0>(info.param) + "_" + std::string(renderer::PathName(std::get<1>(info.param)));
    });

// At 2x2 the state at the cut is the 1x state (the EDRAM snapshot replicates each guest sample to
// its host block, gpu/edram_snapshot.h; resolved memory is its 1x bytes), so a kept frame equals
// the full 2x2 replay's when what it reads from before the cut is uniform over each guest pixel,
// as in these samples (flat rectangles, clears, resolves of them). Edges drawn before the cut and
// read after it, or a scaled resolve copy made before the cut and sampled after it, show their
// 1x picture instead.
TEST_P(SliceVulkan, AtTwoByTwoWhereTheCutStateIsWholeGuestPixels) {
  const auto& [name, path] = GetParam();
  const fs::path dir = TempDir(name + renderer::PathName(path) + "_2x2");
  const std::string source = WriteSampleFile(name, dir);
  const std::string out = (dir / "slice.xnt").string();
  const uint64_t frames = format::Reader::Open(source)->frame_count();
  compare::WriteSlice(source, out, {1, frames - 1});
  for (renderer::Path p : {path, renderer::Path::kCpu}) {
    const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, p, 2, false);
    const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, p, 2, false);
    ExpectSameFrames(full, 1, slice, name + " at 2x2 on " + renderer::PathName(p));
  }
  fs::remove_all(dir);
}

// slice_resolve_chain_5_frames at 2x2 on fbo and fsi: the frame boundaries after frame 1 (frame
// 1's is AtTwoByTwoWhereTheCutStateIsWholeGuestPixels'), and in frame 3 the cut before its
// textured draw and the one before its resolve to the texture, kept through the last event. Each frame draws the texture the frame before resolved
// (at 2x2 a scaled copy in the full replay, its 1x bytes in a slice that starts after the
// resolve), and the stripes' edges and the textured quad cover whole guest pixels, so every
// kept frame is the full 2x2 replay's, the last one too: its swap reads texture fetch constant 0
// as the source's does, so it scans out the scaled front buffer at 128x64.
class SliceChainScaled : public ::testing::TestWithParam<renderer::Path> {};

TEST_P(SliceChainScaled, EveryCutAtTwoByTwo) {
  const renderer::Path path = GetParam();
  const std::string name = "slice_resolve_chain_5_frames";
  const fs::path dir = TempDir(name + renderer::PathName(path) + "_2x2_cuts");
  const std::string source = WriteSampleFile(name, dir);
  const std::string out = (dir / "slice.xnt").string();
  const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, path, 2, false);
  ASSERT_EQ(full.frames.size(), 5u);
  std::vector<std::pair<compare::SliceRange, std::string>> cuts;
  for (uint64_t a = 2; a < 5; ++a) cuts.push_back({{a, 4}, "frames " + std::to_string(a) + "-4"});
  for (uint32_t k : {1u, 3u}) {
    cuts.push_back({{3, 4, k, 4}, "events 3." + std::to_string(k) + "-4.4"});
  }
  for (const auto& [range, what] : cuts) {
    compare::WriteSlice(source, out, range);
    const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, path, 2, false);
    EXPECT_EQ(slice.validation_messages, 0u) << slice.validation_report;
    ExpectSameFrames(full, range.first_frame, slice, name + " " + what + " at 2x2");
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Chain, SliceChainScaled,
                         ::testing::Values(renderer::Path::kFbo, renderer::Path::kFsi),
                         [](const auto& info) {
                           return std::string(renderer::PathName(info.param));
                         });

// The 20e4 EQUAL pass on fbo: the full replay's frames are the cpu path's (EQUAL passes at
// depths a float32 host depth would keep apart), and so are its slice's from frame 1.
TEST(SliceVulkan, Float24EqualPassAsOnTheCpuPath) {
  const fs::path dir = TempDir("host_depth");
  const std::string source = WriteSampleFile("edram_float24_equal_within_20e4_step", dir);
  const std::string out = (dir / "slice.xnt").string();
  compare::WriteSlice(source, out, {1, 1});
  const vk::test::TraceRun cpu = vk::test::ReplayTraceFile(source, renderer::Path::kCpu, 1, false);
  const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, renderer::Path::kFbo, 1, false);
  const vk::test::TraceRun fbo = vk::test::ReplayTraceFile(out, renderer::Path::kFbo, 1, false);
  ASSERT_EQ(full.frames.size(), cpu.frames.size());
  for (size_t f = 0; f < cpu.frames.size(); ++f) {
    EXPECT_TRUE(full.frames[f].rgba == cpu.frames[f].rgba) << "fbo frame " << f;
  }
  ExpectSameFrames(cpu, 1, fbo, "fbo slice against the cpu path's full replay");
  fs::remove_all(dir);
}

// Xenia's oracle traces (one frame each), imported, sliced to their frame, on every path: the
// slice's state prefix (a register snapshot, memory, the EDRAM, the shaders' reload) changes
// nothing.
class SliceOracle : public ::testing::TestWithParam<std::tuple<std::string, renderer::Path>> {};

TEST_P(SliceOracle, SliceReplaysAsTheImportedTrace) {
  const auto& [name, path] = GetParam();
  const fs::path dir = TempDir("oracle_" + name + renderer::PathName(path));
  const fs::path xtr = fs::path(XNT_SHARED_DIR) / "xenia-oracle" / (name + ".xtr");
  const std::string source = (dir / "source.xnt").string(), out = (dir / "slice.xnt").string();
  ASSERT_EQ(test::RunShell(test::XenotraceCli() + " import-xenia " + xtr.string() + " -o " +
                           source + " >/dev/null").code, 0);
  compare::WriteSlice(source, out, {0, 0});
  const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, path, 1, false);
  const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, path, 1, false);
  ExpectSameFrames(full, 0, slice, name);
  EXPECT_TRUE(slice.edram == full.edram) << name << ": EDRAM at the end";
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    XeniaOracle, SliceOracle,
    ::testing::Combine(::testing::Values("clear_resolve_tiled", "msaa_4x",
                                         "textured_quad_8888_tiled", "triangle_flat"),
                       ::testing::Values(renderer::Path::kCpu, renderer::Path::kFbo,
                                         renderer::Path::kFsi)),
    [](const auto& info) {
      return std::get<0>(info.param) + "_" + std::string(renderer::PathName(std::get<1>(info.param)));
    });

// compare --repro on a planted difference: draw 3.2 (frame 3's stripe) skipped on fbo. Bisection
// finds 3.2 and, in frame 4, the resolve that copies the texture frame 3 left wrong; the slice of
// events 3.0-3.2 (three events and the swap) reproduces 0.2; the slice of frame 4 starts from
// the cpu path's (right) texture and so shows no difference, which the repro says.
TEST(SliceRepro, PlantedDifferenceReproducedAtTheSameEvent) {
  vk::test::UseLavapipe();
  const fs::path dir = TempDir("repro");
  compare::CompareOptions o;
  o.traces = {WriteSampleFile("slice_resolve_chain_5_frames", dir)};
  o.combinations = compare::ParseCombinations("fbo", "1x1");
  o.reference = compare::ParseCombination("cpu@1x1");
  o.validate = true;
  o.threads = 1;
  o.test_fault = compare::TestFault{compare::ParseCombination("fbo@1x1"), {3, 2}};
  const compare::RunResults run = compare::RunCompare(o);
  ASSERT_EQ(run.ExitCode(), 1) << compare::ToText(run);
  const std::vector<compare::Repro> repros = compare::WriteRepros(run, o, (dir / "repro").string());
  ASSERT_EQ(repros.size(), 2u) << compare::ReprosToJson(repros);
  EXPECT_EQ(repros[0].event, "3.2");
  EXPECT_TRUE(repros[0].reproduced) << repros[0].detail;
  EXPECT_EQ(repros[0].slice_event, "0.2");
  EXPECT_TRUE(fs::exists(repros[0].file));
  EXPECT_EQ(format::Reader::Open(repros[0].file)->frame_count(), 1u);
  const vk::test::TraceRun slice =
      vk::test::ReplayTraceFile(repros[0].file, renderer::Path::kCpu, 1, false);
  EXPECT_EQ(slice.stats.draws + slice.stats.draws_skipped + slice.stats.resolves, 3u);
  EXPECT_EQ(slice.stats.swaps, 1u);
  EXPECT_EQ(repros[1].event, "4.0");
  EXPECT_FALSE(repros[1].reproduced);
  EXPECT_NE(repros[1].detail.find("comes from before frame 4"), std::string::npos)
      << repros[1].detail;
  fs::remove_all(dir);
}

// compare --repro --minimize on two planted differences in slice_resolve_chain_5_frames. Draw 3.2
// (the stripe) skipped on fbo differs whatever ran before it in the frame, so the clear 3.0 and
// the textured quad 3.1 go: kept 3.2 alone. Resolve 0.3 (the copy to the front buffer) written
// with a wrong format on fbo differs only where the EDRAM it copies is not zero, and frame 0
// starts from a zero EDRAM: dropping every earlier event hides it, keeping the clear 0.0 (which
// fills the target with 0xFF201810) alone shows it, so ddmin keeps 0.0 and 0.3 and drops the
// stripe 0.1 and the resolve 0.2. With no time the search stops at once and says so.
compare::CompareOptions PlantedFault(const std::string& trace, compare::TestFault::Kind kind,
                                     uint64_t frame, uint32_t draw) {
  compare::CompareOptions o;
  o.traces = {trace};
  o.combinations = compare::ParseCombinations("fbo", "1x1");
  o.reference = compare::ParseCombination("cpu@1x1");
  o.validate = true;
  o.threads = 1;
  o.frames = FrameSet::One(frame);
  o.test_fault = compare::TestFault{compare::ParseCombination("fbo@1x1"), {frame, draw}};
  o.test_fault->kind = kind;
  return o;
}

std::vector<compare::Repro> MinimizedRepros(const compare::CompareOptions& o, const fs::path& dir,
                                            double seconds) {
  const compare::RunResults run = compare::RunCompare(o);
  EXPECT_EQ(run.ExitCode(), 1) << compare::ToText(run);
  return compare::WriteRepros(run, o, (dir / "repro").string(), seconds);
}

TEST(SliceRepro, MinimizeKeepsOnlyTheEventsTheDifferenceNeeds) {
  vk::test::UseLavapipe();
  const fs::path dir = TempDir("minimize");
  const std::string trace = WriteSampleFile("slice_resolve_chain_5_frames", dir);
  std::vector<compare::Repro> r = MinimizedRepros(
      PlantedFault(trace, compare::TestFault::Kind::kSkipDraw, 3, 2), dir, 60);
  ASSERT_EQ(r.size(), 1u) << compare::ReprosToJson(r);
  ASSERT_TRUE(r[0].minimized) << compare::ReprosToJson(r);
  EXPECT_EQ(compare::KeptIds(r[0], *r[0].minimized), (std::vector<std::string>{"3.2"}));
  EXPECT_EQ(r[0].minimized->removed, 2u);
  EXPECT_FALSE(r[0].minimized->cut_short);
  // The minimized slice: one draw, the planted one, now event 0.0, and bisection finds it there.
  const vk::test::TraceRun min =
      vk::test::ReplayTraceFile(r[0].minimized->file, renderer::Path::kCpu, 1, false);
  EXPECT_EQ(min.stats.draws + min.stats.resolves, 1u);
  compare::CompareOptions o = PlantedFault(r[0].minimized->file, compare::TestFault::Kind::kSkipDraw, 0, 0);
  const compare::Bisection b = compare::BisectFrame(r[0].minimized->file, 0, o.reference, o.combinations[0], o);
  EXPECT_TRUE(b.found && b.draw == 0) << b.summary;

  r = MinimizedRepros(PlantedFault(trace, compare::TestFault::Kind::kResolveFormat, 0, 3), dir, 60);
  ASSERT_EQ(r.size(), 1u) << compare::ReprosToJson(r);
  ASSERT_TRUE(r[0].minimized) << compare::ReprosToJson(r);
  EXPECT_EQ(compare::KeptIds(r[0], *r[0].minimized), (std::vector<std::string>{"0.0", "0.3"}));
  EXPECT_EQ(r[0].minimized->removed, 2u);
  EXPECT_EQ(r[0].minimized->trials, 3u);  // none kept; 0.0-0.1 kept; 0.0 kept

  r = MinimizedRepros(PlantedFault(trace, compare::TestFault::Kind::kResolveFormat, 0, 3), dir, 0);
  ASSERT_EQ(r.size(), 1u);
  ASSERT_TRUE(r[0].minimized);
  EXPECT_TRUE(r[0].minimized->cut_short);
  EXPECT_EQ(r[0].minimized->removed, 0u);
  EXPECT_EQ(r[0].minimized->kept.size(), 4u);
  // --minimize needs --repro: a usage error.
  EXPECT_EQ(test::RunShell(test::XenotraceCli() + " compare " + trace + " --minimize 2>/dev/null").code, 2);
  fs::remove_all(dir);
}

// Bad ranges and damaged sources: an error naming the problem, no output and no temporary file.
TEST(Slice, BadInputLeavesNoFile) {
  const fs::path dir = TempDir("bad");
  const std::string source = WriteSampleFile("edram_shadow_map_three_pass", dir);
  const std::string out = (dir / "out.xnt").string();
  auto expect_error = [&](const std::string& in, compare::SliceRange range, const char* words) {
    test::ExpectSliceError(in, out, range, words);
  };
  expect_error(source, {1, 0}, "inverted");
  expect_error(source, {0, 2}, "frame 2 is not in");
  std::vector<uint8_t> bytes = test::ReadFileBytes(source);
  ASSERT_GT(bytes.size(), 40u);
  bytes.erase(bytes.end() - 40, bytes.end());  // the footer lost
  const std::string damaged = (dir / "damaged.xnt").string();
  test::WriteFileBytes(damaged, bytes);
  expect_error(damaged, {0, 0}, "footer");
  // The command: exit 2 for the range, 1 for the damaged source, nothing written either way.
  const std::string cli = test::XenotraceCli();
  EXPECT_EQ(test::RunShell(cli + " slice " + source + " -o " + out + " --frames 3-4 2>/dev/null").code, 2);
  EXPECT_EQ(test::RunShell(cli + " slice " + damaged + " -o " + out + " --frames 0 2>/dev/null").code, 1);
  EXPECT_FALSE(fs::exists(out));
  fs::remove_all(dir);
}

// `info` names the source; the slice through .xtr and back replays the same frames.
TEST(Slice, InfoNamesTheSourceAndXtrRoundTripKeepsTheFrames) {
  const fs::path dir = TempDir("xtr");
  const std::string source = WriteSampleFile("edram_snapshot_restore", dir);
  const std::string out = (dir / "slice.xnt").string();
  const compare::SliceReport report = compare::WriteSlice(source, out, {1, 1});
  char hash[17];
  std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(report.source_hash));
  const std::string source_text = format::Reader::Open(out)->info().capture_source;
  EXPECT_NE(source_text.find(std::string("slice of frames 1-1 of xxh3:") + hash), std::string::npos)
      << source_text;
  const std::string cli = test::XenotraceCli();
  const std::string xtr = (dir / "slice.xtr").string(), back = (dir / "back.xnt").string();
  ASSERT_EQ(test::RunShell(cli + " export-xenia " + out + " -o " + xtr + " >/dev/null").code, 0);
  ASSERT_EQ(test::RunShell(cli + " import-xenia " + xtr + " -o " + back + " >/dev/null").code, 0);
  const vk::test::TraceRun a = vk::test::ReplayTraceFile(out, renderer::Path::kCpu, 1, false);
  const vk::test::TraceRun b = vk::test::ReplayTraceFile(back, renderer::Path::kCpu, 1, false);
  ExpectSameFrames(a, 0, b, "after .xtr");
  EXPECT_TRUE(a.edram == b.edram);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace xnt
