// A slice cut between a depth pre-pass and its EQUAL pass (edram_depth_prepass_kdepth, events
// 0.9-0.17: the clear and the eight pre-pass draws before the cut). The state at the cut is the
// cpu path's EDRAM, so the EQUAL pass compares each path's depth of the triangles drawn again
// with the cpu path's depth of the pre-pass. cpu and fsi compute depth alike and give their full
// replay's frame (cpu: in SliceEventsSample, fsi here). fbo loads the guest bits exactly (kD24S8
// in D24_UNORM_S8_UINT where the device has it, lavapipe included), but its host rasterizer's
// depth for the same triangles differs from the cpu path's in the low bits: EQUAL passes exactly
// where the two agree, so the slice shows a pixel of the EQUAL pass where fbo's own pre-pass
// depth equals the cpu path's and the background elsewhere, and the replay says so in a note.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

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
  const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, renderer::Path::kFbo, 1, false);
  EXPECT_EQ(slice.validation_messages, 0u) << slice.validation_report;
  ASSERT_EQ(fbo.frames.size(), 1u);
  ASSERT_EQ(slice.frames.size(), 1u);
  const auto& f = fbo.frames[0].rgba;
  const auto& s = slice.frames[0].rgba;
  // The background where EQUAL fails: the bottom row's pixels in the full replay (its pre-pass
  // left no depth, so EQUAL fails there on every path).
  const size_t background = 4 * (size_t(kHeight - 1) * kWidth);
  uint32_t agree = 0, shown = 0, max_difference = 0;
  for (uint32_t y = 0; y < kHeight; ++y) {
    for (uint32_t x = 0; x < kWidth; ++x) {
      const size_t i = size_t(y) * kWidth + x;
      const uint32_t a = cpu.depth[i], b = fbo.depth[i];
      max_difference = std::max(max_difference, a > b ? a - b : b - a);
      const size_t from = a == b ? 4 * i : background;
      EXPECT_TRUE(std::equal(s.begin() + 4 * i, s.begin() + 4 * i + 4, f.begin() + from))
          << "pixel (" << x << ", " << y << "): depth cpu 0x" << std::hex << a << " fbo 0x" << b;
      if (y < kCell) {
        agree += a == b;
        shown += std::equal(s.begin() + 4 * i, s.begin() + 4 * i + 4, f.begin() + 4 * i);
      }
    }
  }
  std::printf("top row: fbo's pre-pass depth equals the cpu path's at %u of %u pixels (largest "
              "difference %u units of 2^-24); the slice shows %u of them as the full replay\n",
              agree, kWidth * kCell, max_difference, shown);
  bool noted = false;
  for (const auto& [what, n] : slice.notes) {
    noted |= what.find("EDRAM snapshot") != std::string::npos;
  }
  EXPECT_TRUE(noted) << "the fbo replay of the slice names the snapshot's depth in a note";
  fs::remove_all(dir);
}

// edram_float24_prepass_equal cut at its resolve 0.3, which copies the depth area (kD24FS8 at
// tile 2) as k_8_8_8_8 colour: in the slice the colour target loads those tiles from the
// snapshot and draws 0.4-0.5 test against depth moved from that colour target, never from the
// snapshot owner directly. The depth is still the cpu path's, and the full fbo replay's float host
// depth beside each word (which makes its own EQUAL and LESS tests exact) is not in a snapshot,
// so the slice's frame is neither the full fbo replay's nor the cpu path's; the note must name
// it all the same.
TEST(SliceDepth, SnapshotDepthMovedThroughAColourTargetIsNoted) {
  const fs::path dir = test::TempDir("float24_through_colour");
  const std::string source = test::WriteSampleFile("edram_float24_prepass_equal", dir);
  const std::string out = (dir / "slice.xnt").string();
  compare::WriteSlice(source, out, {0, 0, 3, 6});
  const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, renderer::Path::kFbo, 1, false);
  EXPECT_EQ(slice.validation_messages, 0u) << slice.validation_report;
  ASSERT_EQ(slice.frames.size(), 1u);
  bool noted = false;
  for (const auto& [what, n] : slice.notes) {
    noted |= what.find("depth loaded from an EDRAM snapshot") != std::string::npos;
  }
  EXPECT_TRUE(noted) << "the depth came from the snapshot through a colour target";
  // The same trace from its start: no snapshot, no note.
  const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, renderer::Path::kFbo, 1, false);
  for (const auto& [what, n] : full.notes) {
    EXPECT_EQ(what.find("EDRAM snapshot"), std::string::npos) << what;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace xnt::slice_depth_test
