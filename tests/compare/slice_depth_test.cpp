// A slice cut between a depth pre-pass and its EQUAL pass (edram_depth_prepass_kdepth, events
// 0.9-0.17: the clear and the eight pre-pass draws before the cut). The state at the cut is the
// cpu path's EDRAM, so the EQUAL pass compares each path's depth of the triangles drawn again
// with the cpu path's depth of the pre-pass. cpu and fsi compute depth alike and give their full
// replay's frame (cpu: in SliceEventsSample, fsi here). fbo's pixel shader writes the cpu path's
// depth too (the plane through the snapped vertices in double, rounded to the guest format):
// its pre-pass leaves the cpu path's 24 bits at every pixel, though these steep triangles'
// host-interpolated depth differs from it (on lavapipe at 1,023 of the top row's 1,024 pixels,
// by up to 106 units of 2^-24, before fbo wrote the exact depth), and the slice gives the full
// replay's frame with no note.
#include <gtest/gtest.h>

#include "slice_test_helpers.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::slice_depth_test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSample = "edram_depth_prepass_kdepth";
constexpr uint32_t kWidth = 64, kHeight = 32, kCell = 16;
constexpr uint32_t kLastPrepassEvent = 8, kLastEvent = 17;
// The sample's depth target (edram_depth_prepass.cpp ColorDepthTarget: kD24S8 at tile 2).
gpu::edram::Surface DepthSurface() {
  gpu::edram::Surface s;
  s.base_tiles = 2;
  s.pitch_pixels = kWidth;
  s.is_depth = true;
  s.format = uint32_t(xenos::DepthRenderTargetFormat::kD24S8);
  return s;
}

// A replay that also reads the 24 depth bits of every pixel right after the pre-pass.
struct PrepassRun {
  std::vector<uint32_t> depth;
  std::vector<gpu::SwapImage> frames;
};

PrepassRun ReplayReadingPrepassDepth(const std::string& file, renderer::Path path) {
  PrepassRun run;
  std::unique_ptr<renderer::Session> session;
  renderer::SessionOptions options;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { run.frames.push_back(image); };
  options.on_draw_event = [&](const renderer::DrawEvent& e) {
    if (!e.after || e.draw->frame != 0 || e.draw->draw_index != kLastPrepassEvent) return;
    const gpu::edram::Surface surface = DepthSurface();
    const gpu::edram::Edram& edram = session->SnapshotEdram(surface, kHeight);
    for (uint32_t y = 0; y < kHeight; ++y) {
      for (uint32_t x = 0; x < kWidth; ++x) {
        run.depth.push_back(uint32_t(edram.Load(surface, x, y, 0)) >> 8);
      }
    }
  };
  session = test::MakeSession(options, path);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Play(*format::Reader::Open(file));
  session->Flush();
  return run;
}

TEST(SliceDepth, PrepassCutBeforeItsEqualPass) {
  const fs::path dir = test::TempDir("prepass_depth");
  const std::string source = test::WriteSampleFile(kSample, dir);
  const std::string out = (dir / "slice.xnt").string();
  compare::WriteSlice(source, out, {0, 0, kLastPrepassEvent + 1, kLastEvent});
  // cpu: the same cut in SliceEventsSample (every sample's middle event).
  {
    const auto fsi = renderer::Path::kFsi;
    const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, fsi, 1, false);
    const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, fsi, 1, false);
    test::ExpectSameFrames(full, 0, slice, "slice on fsi");
  }

  const PrepassRun cpu = ReplayReadingPrepassDepth(source, renderer::Path::kCpu);
  const PrepassRun fbo = ReplayReadingPrepassDepth(source, renderer::Path::kFbo);
  ASSERT_EQ(cpu.depth.size(), size_t(kWidth) * kHeight);
  ASSERT_EQ(fbo.depth.size(), cpu.depth.size());
  uint32_t differing = 0, drawn = 0;
  for (size_t i = 0; i < cpu.depth.size(); ++i) {
    differing += cpu.depth[i] != fbo.depth[i];
    drawn += cpu.depth[i] != 0xFFFFFFu;  // cleared to 1.0
  }
  EXPECT_EQ(differing, 0u) << "pre-pass depth elements where fbo's differ from the cpu path's";
  EXPECT_GE(drawn, kWidth * kCell) << "the pre-pass covers at least the top row of cells";
  const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, renderer::Path::kFbo, 1, false);
  EXPECT_EQ(slice.validation_messages, 0u) << slice.validation_report;
  ASSERT_EQ(fbo.frames.size(), 1u);
  ASSERT_EQ(cpu.frames.size(), 1u);
  ASSERT_EQ(slice.frames.size(), 1u);
  EXPECT_TRUE(slice.frames[0].rgba == fbo.frames[0].rgba) << "the slice's frame on fbo";
  EXPECT_TRUE(fbo.frames[0].rgba == cpu.frames[0].rgba) << "the full fbo replay's frame";
  for (const auto& [what, n] : slice.notes) {
    EXPECT_EQ(what.find("EDRAM snapshot"), std::string::npos) << what;
  }
  fs::remove_all(dir);
}

// edram_float24_prepass_equal cut at its resolve 0.3, which copies the depth area (kD24FS8 at
// tile 2) as k_8_8_8_8 colour: in the slice the colour target loads those tiles from the
// snapshot and draws 0.4-0.5 test against depth moved from that colour target, never from the
// snapshot owner directly. The depth there is the cpu path's 20e4 values, which are what fbo's
// pixel shader wrote in the full replay too: the slice's frame is the full replay's, and the
// cpu path's.
TEST(SliceDepth, SnapshotDepthMovedThroughAColourTarget) {
  const fs::path dir = test::TempDir("float24_through_colour");
  const std::string source = test::WriteSampleFile("edram_float24_prepass_equal", dir);
  const std::string out = (dir / "slice.xnt").string();
  compare::WriteSlice(source, out, {0, 0, 3, 6});
  const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, renderer::Path::kFbo, 1, false);
  EXPECT_EQ(slice.validation_messages, 0u) << slice.validation_report;
  const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, renderer::Path::kFbo, 1, false);
  const vk::test::TraceRun cpu = vk::test::ReplayTraceFile(source, renderer::Path::kCpu, 1, false);
  ASSERT_EQ(slice.frames.size(), 1u);
  ASSERT_EQ(full.frames.size(), 1u);
  ASSERT_EQ(cpu.frames.size(), 1u);
  EXPECT_TRUE(slice.frames[0].rgba == full.frames[0].rgba) << "the slice's frame on fbo";
  EXPECT_TRUE(full.frames[0].rgba == cpu.frames[0].rgba) << "the full fbo replay's frame";
  for (const auto& [what, n] : slice.notes) {
    EXPECT_EQ(what.find("EDRAM snapshot"), std::string::npos) << what;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace xnt::slice_depth_test
