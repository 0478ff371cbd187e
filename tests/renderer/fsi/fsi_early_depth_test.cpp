// Early depth/stencil on the fsi path (TranslationOptions::fsi_early_depth, docs/fsi.md): a scene
// worked by hand where a later draw fails the depth test behind an earlier one, with stencil ops
// on depth pass and depth fail, and a third draw with alpha test on (which must keep the late
// order). The fsi path with early depth, the fsi path forced late and the cpu path must give the
// same front buffer and the same whole EDRAM, at 1x and 4x MSAA, and the early variant must
// have been used exactly for the two draws where it is legal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "edram_scene_builder.h"
#include "test_env.h"
#include "xnt/base/error.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/vk/fsi/fsi_backend.h"
#include "xnt/xenos/registers.h"
#include "test_files.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::vk::fsi_early_depth_test {
namespace {

using namespace samples::edram_scene;
using xenos::StencilOp;

// The three draws (pixels whose centre lies inside; edges at k + 0.75).
const Rect kA{7.75f, 3.75f, 39.75f, 27.75f, 0.25f, C8(255, 0, 0)};   // x 8..39, y 4..27
const Rect kB{23.75f, 7.75f, 55.75f, 23.75f, 0.75f, C8(0, 255, 0)};  // x 24..55, y 8..23
const Rect kC{-0.25f, -0.25f, 15.75f, 7.75f, 0.5f, C8(0, 0, 255)};   // x 0..15, y 0..7
constexpr uint32_t kWidth = 64, kHeight = 32, kDepthBase = 8;
constexpr uint32_t kStencilRef = 0x80;

// RB_DEPTHCONTROL with z test LESS and write, and stencil ALWAYS with the given ops.
uint32_t DepthStencil(bool stencil, StencilOp zpass, StencilOp zfail) {
  xenos::reg::RB_DEPTHCONTROL d{};
  d.z_enable = true;
  d.z_write_enable = true;
  d.zfunc = CompareFunction::kLess;
  d.stencil_enable = stencil;
  d.stencilfunc = CompareFunction::kAlways;
  d.stencilfail = StencilOp::kKeep;
  d.stencilzpass = zpass;
  d.stencilzfail = zfail;
  return d.Encode();
}

// Forwards everything; the scene's k-th colour/depth draw gets its depth/stencil state (the
// scene builder only sets the z test) and, for C, alpha test GREATER 0.5 (C's alpha is 1: it
// passes, but the draw's coverage depends on the shader).
class DrawState final : public replay::Backend {
 public:
  explicit DrawState(replay::Backend& inner) : inner_(inner) {}
  void OnDraw(const replay::DrawCall& call) override {
    if (call.edram_mode != xenos::ModeControl::kColorDepth) {
      inner_.OnDraw(call);
      return;
    }
    registers_ = *call.registers;
    const uint32_t k = draws_++;
    registers_.Set(xenos::Reg::RB_STENCILREFMASK,
                   xenos::reg::RB_STENCILREFMASK{kStencilRef, 0xFF, 0xFF}.Encode());
    if (k == 0) {
      registers_.Set(xenos::Reg::RB_DEPTHCONTROL,
                     DepthStencil(true, StencilOp::kIncrementClamp, StencilOp::kKeep));
    } else if (k == 1) {
      registers_.Set(xenos::Reg::RB_DEPTHCONTROL,
                     DepthStencil(true, StencilOp::kIncrementClamp, StencilOp::kReplace));
    } else {
      registers_.Set(xenos::Reg::RB_DEPTHCONTROL,
                     DepthStencil(false, StencilOp::kKeep, StencilOp::kKeep));
      // RB_COLORCONTROL: alpha_func GREATER (bits 0-2), alpha_test_enable (bit 3).
      registers_.Set(xenos::Reg::RB_COLORCONTROL, uint32_t(CompareFunction::kGreater) | 8u);
      registers_.Set(xenos::Reg::RB_ALPHA_REF, std::bit_cast<uint32_t>(0.5f));
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
  uint32_t draws_ = 0;
};

std::string WriteScene(xenos::MsaaSamples msaa) {
  const auto file = ::xnt::test::TestWorkDir("renderer/fsi") / ("early_depth_" + std::to_string(1u << uint32_t(msaa)) + "x.xnt");
  std::filesystem::create_directories(file.parent_path());
  SceneBuilder s;
  RenderTargetSetup rt;
  rt.surface_pitch = kWidth;
  rt.msaa = msaa;
  rt.depth = true;
  rt.depth_base_tiles = kDepthBase;
  s.Target(rt, kWidth, kHeight);
  ResolveOpts clear;
  clear.width = kWidth;
  clear.height = kHeight;
  clear.clear_color = true;
  clear.clear_color_value = Packed8888(kDark);
  clear.clear_depth = true;
  clear.clear_depth_value = 0xFFFFFF00u;  // depth 1.0, stencil 0
  s.Resolve(clear);
  s.Depth(true, true, CompareFunction::kLess);
  s.Draw(kA);
  s.Draw(kB);
  s.Draw(kC);
  s.Present(kFrontA, kWidth, kHeight);
  format::WriterOptions options;
  options.threads = 1;
  auto writer = format::Writer::Create(file.string(), samples::SampleTraceInfo(), options);
  s.Write(*writer);
  writer->Finish();
  return file.string();
}

struct Outcome {
  gpu::SwapImage image;
  std::vector<uint8_t> edram;
  uint64_t draws = 0, early_draws = 0;
};

void Play(const std::string& file, replay::Backend& backend,
          const std::function<void(replay::TracePlayer&)>& attach) {
  DrawState state(backend);
  replay::TracePlayer player(state);
  attach(player);
  format::Reader::Open(file)->ForEachRecord([&](const format::Record& r) {
    player.Apply(r);
    return true;
  });
}

Outcome OnCpu(const std::string& file) {
  Outcome out;
  renderer::SessionOptions options;
  options.path = renderer::Path::kCpu;
  options.threads = 1;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { out.image = image; };
  auto session = renderer::Session::Create(options);
  Play(file, session->backend(), [&](replay::TracePlayer& p) { session->Attach(p); });
  session->Flush();
  const std::span<const uint8_t> edram = session->SnapshotEdram(gpu::edram::Surface{}, 0).bytes();
  out.edram.assign(edram.begin(), edram.end());
  out.draws = session->stats().draws;
  return out;
}

Outcome OnFsi(const std::string& file, bool early_depth) {
  Outcome out;
  auto context = test::MakeLavapipeContext();
  fsi::FsiBackendOptions options;
  // lavapipe has no interlock: the named unordered test mode (docs/fsi.md), else the real one.
  options.ordering = context->capabilities().fragment_shader_interlock
                         ? fsi::FsiOrdering::kInterlock
                         : fsi::FsiOrdering::kUnordered;
  options.fsi.late_depth = !early_depth;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { out.image = image; };
  fsi::FsiBackend backend(*context, options);
  Play(file, backend, [&](replay::TracePlayer& p) { backend.Attach(&p.memory(), &p.registers()); });
  backend.renderer().Flush();
  const std::span<const uint8_t> edram = backend.renderer().Snapshot().bytes();
  out.edram.assign(edram.begin(), edram.end());
  out.draws = backend.renderer().stats().draws;
  out.early_draws = backend.early_depth_draws();
  EXPECT_EQ(context->validation_message_count(), 0u) << test::ValidationReport(*context);
  return out;
}

// The hand-worked colour and depth/stencil dword of a pixel inside or outside the rectangles.
struct Expected {
  std::array<uint8_t, 4> color;
  uint32_t depth_stencil;
};
Expected Expect(uint32_t x, uint32_t y) {
  // A first (depth 0.25 -> 0x400000, stencil 0 -> 1 by INCR on pass). B behind A fails depth
  // there: colour stays A's, stencil REPLACE on zfail -> 0x80; elsewhere B passes (0.75 ->
  // 0xBFFFFF, stencil 1). C (alpha test, stencil off) passes outside A (0.5 -> 0x800000, stencil
  // stays 0) and fails behind A.
  if (kA.Covers(x, y)) return {U8(kA.color), 0x40000000u | (kB.Covers(x, y) ? kStencilRef : 1u)};
  if (kB.Covers(x, y)) return {U8(kB.color), 0xBFFFFF00u | 1u};
  if (kC.Covers(x, y)) return {U8(kC.color), 0x80000000u};
  return {kDark, 0xFFFFFF00u};
}

void CheckScene(xenos::MsaaSamples msaa) {
  const std::string file = WriteScene(msaa);
  const Outcome cpu = OnCpu(file);
  const Outcome early = OnFsi(file, true);
  const Outcome late = OnFsi(file, false);

  EXPECT_EQ(cpu.draws, 3u);
  EXPECT_EQ(early.draws, 3u);
  EXPECT_EQ(late.draws, 3u);
  // A and B qualify; C has alpha test on, so its coverage depends on the shader: late order.
  EXPECT_EQ(early.early_draws, 2u);
  EXPECT_EQ(late.early_draws, 0u);

  // Hand-worked values at pixels away from every edge (every sample inside or outside).
  gpu::edram::Surface color;
  color.pitch_pixels = kWidth;
  color.msaa = msaa;
  color.format = uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  gpu::edram::Surface depth = color;
  depth.base_tiles = kDepthBase;
  depth.is_depth = true;
  depth.format = uint32_t(xenos::DepthRenderTargetFormat::kD24S8);
  const uint32_t points[][2] = {{20, 15}, {30, 15}, {50, 15}, {2, 2}, {60, 30}, {12, 2}, {12, 6}};
  for (const Outcome* o : {&cpu, &early, &late}) {
    gpu::edram::Edram edram;
    ASSERT_EQ(o->edram.size(), edram.bytes().size());
    std::copy(o->edram.begin(), o->edram.end(), edram.bytes().begin());
    ASSERT_EQ(o->image.width, kWidth);
    ASSERT_EQ(o->image.height, kHeight);
    for (const auto& p : points) {
      const Expected e = Expect(p[0], p[1]);
      for (uint32_t s = 0; s < color.sample_count(); ++s) {
        EXPECT_EQ(edram.Load(depth, p[0], p[1], s), e.depth_stencil)
            << "pixel " << p[0] << "," << p[1] << " sample " << s;
        EXPECT_EQ(edram.Load(color, p[0], p[1], s), Packed8888(e.color))
            << "pixel " << p[0] << "," << p[1] << " sample " << s;
      }
      const uint8_t* px = o->image.rgba.data() + 4 * (size_t(p[1]) * kWidth + p[0]);
      EXPECT_EQ((std::array<uint8_t, 4>{px[0], px[1], px[2], px[3]}), e.color)
          << "front buffer pixel " << p[0] << "," << p[1];
    }
  }

  // The same bits everywhere (edges, partly covered MSAA pixels included).
  EXPECT_TRUE(early.edram == cpu.edram) << "fsi early depth EDRAM differs from cpu";
  EXPECT_TRUE(late.edram == cpu.edram) << "fsi late depth EDRAM differs from cpu";
  EXPECT_EQ(early.image.rgba, cpu.image.rgba);
  EXPECT_EQ(late.image.rgba, cpu.image.rgba);
}

TEST(FsiEarlyDepth, DepthFailBehindEarlierDrawKeepsColourAndAppliesZfailStencil1x) {
  CheckScene(xenos::MsaaSamples::k1X);
}

TEST(FsiEarlyDepth, DepthFailBehindEarlierDrawKeepsColourAndAppliesZfailStencil4x) {
  CheckScene(xenos::MsaaSamples::k4X);
}

// SessionOptions::fsi.late_depth reaches the backend (the device name says so, for bench and
// replay output); unset: early depth.
TEST(FsiEarlyDepth, SessionOptionForcesTheLateOrder) {
  test::UseLavapipe();
  auto name = [](bool late_option) {
    renderer::SessionOptions options;
    options.path = renderer::Path::kFsi;
    options.fsi.late_depth = late_option;
    std::unique_ptr<renderer::Session> session;
    try {
      session = renderer::Session::Create(options);
    } catch (const Error&) {
      options.fsi_unordered = true;  // no interlock (lavapipe): the named test mode
      session = renderer::Session::Create(options);
    }
    return session->device_name();
  };
  EXPECT_EQ(name(false).find("late depth forced"), std::string::npos) << name(false);
  EXPECT_NE(name(true).find("late depth forced"), std::string::npos) << name(true);
}

}  // namespace
}  // namespace xnt::vk::fsi_early_depth_test
