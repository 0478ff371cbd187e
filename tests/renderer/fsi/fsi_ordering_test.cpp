// Lost-update check of the fsi path's read-modify-write of the EDRAM buffer within one draw:
// 48 triangles of one draw all cover the same pixels, blended additively (ONE, ONE, ADD) with a
// flat colour of 3/255 per channel onto a black target, so every pixel they all cover must end at
// exactly 48 * 3 = 144. Two fragments of one pixel reading the buffer before either wrote it would
// lose a step. On lavapipe this is the `unordered` test mode (no interlock: docs/fsi.md explains
// why llvmpipe still serializes a pixel's fragments), on a device with interlock the real mode.
#include <gtest/gtest.h>

#include <filesystem>

#include "flat_scene.h"
#include "replay_helpers.h"
#include "test_env.h"
#include "xnt/base/error.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"
#include "xnt/xenos/registers.h"
#include "test_files.h"

namespace xnt::vk {
namespace {

// Forwards everything, with RB_BLENDCONTROL0 set to ONE + ONE (colour and alpha) for each draw.
class AdditiveBlend final : public replay::Backend {
 public:
  explicit AdditiveBlend(replay::Backend& inner) : inner_(inner) {}
  void OnDraw(const replay::DrawCall& call) override {
    registers_ = *call.registers;
    const xenos::reg::RB_BLENDCONTROL blend{xenos::BlendFactor::kOne, xenos::BlendOp::kAdd,
                                            xenos::BlendFactor::kOne, xenos::BlendFactor::kOne,
                                            xenos::BlendOp::kAdd, xenos::BlendFactor::kOne};
    // Only the scene's draw (colour writes on); the resolve's clear and copies are left alone.
    if (call.edram_mode == xenos::ModeControl::kColorDepth) {
      registers_.Set(xenos::Reg::RB_BLENDCONTROL0, blend.Encode());
    }
    replay::DrawCall copy = call;
    copy.registers = &registers_;
    inner_.OnDraw(copy);
  }
  void OnResolve(const replay::ResolveCall& c) override { inner_.OnResolve(c); }
  void OnMemExport(const replay::MemExportCall& c) override { inner_.OnMemExport(c); }
  void OnSwap(const replay::SwapCall& c) override { inner_.OnSwap(c); }
  void OnEvent(const replay::EventCall& c) override { inner_.OnEvent(c); }
  void OnMemoryWritten(uint32_t a, uint32_t s) override { inner_.OnMemoryWritten(a, s); }
  void OnFrameEnd(const replay::FrameEndCall& f) override { inner_.OnFrameEnd(f); }

 private:
  replay::Backend& inner_;
  replay::RegisterFile registers_;
};

gpu::SwapImage ReplayBlended(const std::string& file, renderer::Path path) {
  gpu::SwapImage last;
  renderer::SessionOptions options;
  options.path = path;
  options.threads = 1;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { last = image; };
  std::unique_ptr<renderer::Session> session;
  if (path == renderer::Path::kFsi) {
    test::UseLavapipe();
    options.validate = true;
    options.synchronization_validation = true;
    try {
      session = renderer::Session::Create(options);
    } catch (const Error&) {
      options.fsi_unordered = true;  // no interlock (lavapipe): the named test mode
      session = renderer::Session::Create(options);
    }
  } else {
    session = renderer::Session::Create(options);
  }
  AdditiveBlend blend(session->backend());
  replay::TracePlayer player(blend);
  session->Attach(player);
  format::Reader::Open(file)->ForEachRecord([&](const format::Record& r) {
    player.Apply(r);
    return true;
  });
  session->Flush();
  EXPECT_EQ(session->validation_message_count(), 0u) << test::ValidationReport(*session);
  return last;
}

TEST(FsiOrdering, OverlappingBlendedTrianglesOfOneDrawLoseNoUpdate) {
  samples::FlatScene scene;
  scene.width = 160;
  scene.height = 120;
  scene.clear_rgba = {0, 0, 0, 0};
  samples::FlatDraw draw;
  draw.primitive = xenos::PrimitiveType::kTriangleList;
  // 48 triangles, each a different shape (corners moved by 0..7 pixels), all covering the box
  // x 10..60, y 10..60 and more of the 160x120 target.
  std::vector<samples::Vec2> vertices;
  for (int k = 0; k < 48; ++k) {
    const float d = float(k % 8);
    vertices.push_back({10.75f - d, 10.75f});
    vertices.push_back({250.75f + d, 10.75f});
    vertices.push_back({10.75f, 200.75f + d});
  }
  draw.vertices = vertices;
  draw.rgba = {3, 3, 3, 3};
  scene.draws.push_back(draw);
  const auto file = ::xnt::test::TestWorkDir("renderer/fsi") / "ordering_additive.xnt";
  std::filesystem::create_directories(file.parent_path());
  {
    format::WriterOptions writer_options;
    writer_options.threads = 1;
    auto writer = format::Writer::Create(file.string(), samples::SampleTraceInfo(), writer_options);
    samples::AuthorFlatScene(scene, *writer);
    writer->Finish();
  }
  const gpu::SwapImage cpu = ReplayBlended(file.string(), renderer::Path::kCpu);
  const gpu::SwapImage fsi = ReplayBlended(file.string(), renderer::Path::kFsi);
  ASSERT_EQ(cpu.width, 160u);
  ASSERT_EQ(fsi.width, 160u);
  ASSERT_EQ(fsi.rgba.size(), cpu.rgba.size());
  // Pixel (60, 50) lies inside all 48 triangles: 48 x 3 = 144 in R, G and B (the front buffer
  // read shows alpha as opaque).
  const size_t at = (50 * 160 + 60) * 4;
  EXPECT_EQ(int(cpu.rgba[at]), 144);
  EXPECT_EQ(int(fsi.rgba[at]), 144);
  size_t differ = 0;
  for (size_t i = 0; i < cpu.rgba.size(); ++i) differ += cpu.rgba[i] != fsi.rgba[i];
  EXPECT_EQ(differ, 0u);
}

}  // namespace
}  // namespace xnt::vk
