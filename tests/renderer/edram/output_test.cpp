// Colour export conversion per host render-target format, drawn on lavapipe with validation: a
// translated pixel shader writes a constant; the target's guest bits (EdramCache::Snapshot) must
// equal the guest encoding of that constant (gpu::edram::PackColor) — 16_16 / 16_16_16_16 through
// SNORM with the -32..32 scale, 7e3 through the half-float stand-in, PWL gamma encoded before
// blending in the exact gamma mode, the sRGB approximation in the srgb mode.
#include <gtest/gtest.h>

#include <bit>
#include <cstdlib>
#include <memory>
#include <string>

#include "../fake_guest.h"
#include "../test_env.h"
#include "glsl_prelude.h"
#include "sample_shaders.h"
#include "xnt/vk/translator/shader_compiler.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/ucode.h"
#include "xnt/gpu/edram.h"
#include "xnt/vk/translator/shader_translator.h"
#include "xnt/vk/fbo/xenos_renderer.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

using xenos::ColorRenderTargetFormat;
using xenos::Reg;

// A full-screen triangle; the guest vertex shader does not matter here.
constexpr char kFullScreen[] = R"(
layout(location = 0) out vec4 xe_interpolators[16];
void main() {
  for (int i = 0; i < 16; ++i) { xe_interpolators[i] = vec4(0.0); }
  vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
)";

constexpr uint32_t kWidth = 80, kHeight = 16;
// RB_BLENDCONTROL: colour src 0-4, op 5-7, dst 8-12; alpha src 16-20, op 21-23, dst 24-28.
constexpr uint32_t kNoBlend = 0x00010001u;
constexpr uint32_t kAlphaBlend = 0x00010706u;  // src alpha / one minus src alpha; alpha kept

struct OutputRig {
  std::unique_ptr<VulkanContext> ctx;
  std::unique_ptr<XenosRenderer> renderer;
  test::FakeGuest guest;
  std::vector<uint32_t> regs = std::vector<uint32_t>(xenos::kRegisterCount, 0);
  VkShaderModule vs = VK_NULL_HANDLE, ps = VK_NULL_HANDLE;
  uint32_t ps_mask = 0;

  explicit OutputRig(gpu::GammaMode gamma = gpu::GammaMode::kExact) {
    ctx = test::MakeLavapipeContext();
    gpu::RendererOptions options;
    options.gamma = gamma;
    renderer = std::make_unique<XenosRenderer>(*ctx, options);
    vs = renderer->ShaderModule(
        1, CompileGlsl(GlslPrelude(GlslShaderKind::kVertex) + kFullScreen, GlslStage::kVertex,
                       "fullscreen_vs"));
    ucode::ShaderType type = ucode::ShaderType::kPixel;
    std::vector<uint32_t> microcode = ucode::Assemble(samples::kConstantColorPixelShader, &type);
    ucode::Shader shader = ucode::Decode(microcode, type);
    TranslatedShader t = Translate(shader, ucode::Analyze(shader), {});
    ps = renderer->ShaderModule(2, t.spirv);
    ps_mask = t.reflection.color_targets_written;
    Set(Reg::RB_SURFACE_INFO, kWidth);
    Set(Reg::RB_COLOR_MASK, 0xF);
    Set(Reg::PA_SC_WINDOW_SCISSOR_BR, kWidth | (kHeight << 16));
    Set(Reg::PA_SC_SCREEN_SCISSOR_BR, kWidth | (kHeight << 16));
    Set(Reg::PA_SU_VTX_CNTL, 1);
  }
  void Set(Reg r, uint32_t v) { regs[xenos::RegIndex(r)] = v; }
  void Draw(ColorRenderTargetFormat format, std::array<float, 4> c, uint32_t blend = kNoBlend) {
    for (uint32_t i = 0; i < 4; ++i) {
      regs[xenos::AluConstantIndex(256, i)] = std::bit_cast<uint32_t>(c[i]);
    }
    Set(Reg::RB_COLOR_INFO, uint32_t(format) << 16);
    Set(Reg::RB_BLENDCONTROL0, blend);
    Set(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
    DrawInput d;
    d.regs = regs;
    d.vertex_shader = vs;
    d.pixel_shader = ps;
    d.pixel_shader_color_mask = ps_mask;
    d.primitives.type = xenos::PrimitiveType::kTriangleList;
    d.primitives.vertex_count = 3;
    ASSERT_TRUE(renderer->Draw(d, guest.Access()));
  }
  uint64_t Bits(ColorRenderTargetFormat format, uint32_t x = 17, uint32_t y = 5) {
    gpu::edram::Surface s;
    s.pitch_pixels = kWidth;
    s.format = uint32_t(format);
    return renderer->edram().Snapshot(s, kHeight).Load(s, x, y, 0);
  }
};

TEST(ColourOutput, EveryFormatStoresTheGuestEncodingOfTheShaderOutput) {
  OutputRig r;
  ASSERT_EQ(r.ps_mask, 1u);
  struct Case {
    ColorRenderTargetFormat format;
    std::array<float, 4> colour;
  };
  const Case cases[] = {
      {ColorRenderTargetFormat::k_8_8_8_8, {0.25f, 128.0f / 255.0f, 1.5f, -1.0f}},
      {ColorRenderTargetFormat::k_8_8_8_8_GAMMA, {0.5f, 0.1f, 0.9f, 128.0f / 255.0f}},
      {ColorRenderTargetFormat::k_2_10_10_10, {0.25f, 0.75f, 0.125f, 2.0f / 3.0f}},
      {ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10, {1.0f, 0.0f, 0.5f, 1.0f / 3.0f}},
      {ColorRenderTargetFormat::k_2_10_10_10_FLOAT, {0.3f, 40.0f, -1.0f, 0.7f}},
      {ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16, {1.0f, 2.5f, 0.0625f, 0.0f}},
      {ColorRenderTargetFormat::k_16_16, {-20.5f, 31.0f, 0.0f, 0.0f}},
      {ColorRenderTargetFormat::k_16_16_16_16, {1.5f, -32.0f, 33.0f, 0.25f}},
      {ColorRenderTargetFormat::k_16_16_FLOAT, {-3.25f, 65504.0f, 0.0f, 0.0f}},
      {ColorRenderTargetFormat::k_16_16_16_16_FLOAT, {0.1f, -0.5f, 1000.0f, 1.0f}},
      {ColorRenderTargetFormat::k_32_FLOAT, {1234.5678f, 0.0f, 0.0f, 0.0f}},
      {ColorRenderTargetFormat::k_32_32_FLOAT, {-1.0e-3f, 3.0e30f, 0.0f, 0.0f}},
  };
  for (const Case& c : cases) {
    r.Draw(c.format, c.colour);
    std::array<float, 4> expect = c.colour;
    // Channels a format lacks are not stored.
    uint64_t want = gpu::edram::PackColor(c.format, expect);
    uint64_t got = r.Bits(c.format);
    EXPECT_EQ(got, want) << xenos::ColorRenderTargetFormatName(uint32_t(c.format)) << std::hex
                         << " got " << got << " want " << want;
    if (c.format == ColorRenderTargetFormat::k_16_16) {
      // -32..32 fixed point (-20.5 * 32767 / 32), not the -1..1 SNORM range.
      EXPECT_EQ(uint32_t(got) & 0xFFFFu, uint32_t(int32_t(-20991)) & 0xFFFFu);
    }
  }
  EXPECT_EQ(r.ctx->validation_message_count(), 0u) << test::ValidationReport(*r.ctx);
}

TEST(ColourOutput, GammaExactBlendsGammaBitsAndSrgbBlendsLinear) {
  // Black, then white at 50% alpha over it.
  auto run = [](gpu::GammaMode mode, std::string* notes) {
    OutputRig r(mode);
    r.Draw(ColorRenderTargetFormat::k_8_8_8_8_GAMMA, {0.0f, 0.0f, 0.0f, 1.0f});
    r.Draw(ColorRenderTargetFormat::k_8_8_8_8_GAMMA, {1.0f, 1.0f, 1.0f, 128.0f / 255.0f},
           kAlphaBlend);
    EXPECT_EQ(r.ctx->validation_message_count(), 0u) << test::ValidationReport(*r.ctx);
    for (auto& [what, n] : r.renderer->notes()) *notes += what + "\n";
    return r.Bits(ColorRenderTargetFormat::k_8_8_8_8_GAMMA);
  };
  std::string exact_notes, srgb_notes;
  uint64_t exact = run(gpu::GammaMode::kExact, &exact_notes);
  uint64_t srgb = run(gpu::GammaMode::kSrgb, &srgb_notes);
  // Exact: the PWL-encoded 1.0 (255) blended with 0 in gamma space: 255 * 128/255 = 128.
  EXPECT_EQ(exact & 0xFF, 128u) << std::hex << exact;
  // sRGB: blended in linear space (0.502 linear), stored as sRGB, re-encoded with the PWL curve
  // on the way to the EDRAM: 0.502 linear is PWL gamma 192-193.
  uint32_t pwl_half = uint32_t(gpu::edram::PackColor(ColorRenderTargetFormat::k_8_8_8_8_GAMMA,
                                                {128.0f / 255.0f, 0, 0, 0}) & 0xFF);
  EXPECT_LE(std::abs(int(srgb & 0xFF) - int(pwl_half)), 2) << std::hex << srgb;
  EXPECT_EQ(srgb >> 24, 128u);  // alpha: src one, dst zero
  EXPECT_EQ(exact >> 24, 128u);
  EXPECT_EQ(exact_notes.find("sRGB"), std::string::npos) << exact_notes;
  EXPECT_NE(srgb_notes.find("k_8_8_8_8_GAMMA as sRGB"), std::string::npos) << srgb_notes;
}

}  // namespace
}  // namespace xnt::vk
