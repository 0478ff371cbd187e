// The fbo path's UNORM / SNORM output rounding (XeSystemConstants::color_output_modes bits 16 + 2i,
// glsl_output_merger.cpp xe_quantize_unorm): the translated pixel shader rounds oC0 as the cpu
// path stores a UNORM target (gpu::edram Unorm: v * (2^n - 1) + 0.5 truncated, in float) and
// writes the float nearest k / (2^n - 1), so a driver's float -> UNORM store has an exact integer
// to keep. Inputs sit on and one float below rounding boundaries; the RGBA32F harness target
// shows the shader's floats bit for bit (lavapipe, validation on).
#include <cmath>
#include <limits>

#include "translate_util.h"

namespace xnt::vk::test {
namespace {

class ColorOutputTest : public DrawFixture {
 protected:
  // Target 0: output mode `mode` (render_targets.h ColorOutputMode), rounding `quantize`, read
  // from the system constants; then the same modes as the pipeline's specialization (the fbo
  // path's pipelines) over system constants that say none: the two give the same bits.
  std::vector<float> Run(uint32_t quantize, uint32_t mode = 0) {
    const Translated ps =
        TranslateAssembly("xps_3_0\n    alloc colors\n    exece\n    mov oC0, c0\n");
    harness_->system.color_output_modes = (quantize << 16) | mode;
    harness_->color_output_modes_specialization.reset();
    const std::vector<float> from_constants = RunPixelShader(ps);
    harness_->color_output_modes_specialization = harness_->system.color_output_modes;
    harness_->system.color_output_modes = 0;
    const std::vector<float> specialized = RunPixelShader(ps);
    harness_->color_output_modes_specialization.reset();
    EXPECT_EQ(Words(specialized), Words(from_constants)) << "quantize " << quantize << " mode " << mode;
    return from_constants;
  }
  static std::vector<uint32_t> Words(const std::vector<float>& v) {
    std::vector<uint32_t> w;
    for (float f : v) w.push_back(Bits(f));
    return w;
  }
};

float Below(float v) { return std::nextafter(v, 0.0f); }

TEST_F(ColorOutputTest, EightBitOutputsAreExactStepsEitherSideOfABoundary) {
  // 0.5 * 255 = 127.5, + 0.5 = 128 -> 128; one float below: 127.4999924 + 0.5 < 128 -> 127.
  // 2.5 / 255 (0.00980392) * 255 rounds to 2.5 in float -> 3; 0.0098039 one float lower -> 2.
  float b = 2.5f / 255.0f;
  ASSERT_EQ(b * 255.0f + 0.5f, 3.0f);
  ASSERT_LT(Below(b) * 255.0f + 0.5f, 3.0f);
  SetPsConstant(0, 0.5f, Below(0.5f), b, Below(b));
  auto p = Run(1);
  EXPECT_EQ(Bits(p[0]), Bits(128.0f / 255.0f));
  EXPECT_EQ(Bits(p[1]), Bits(127.0f / 255.0f));
  EXPECT_EQ(Bits(p[2]), Bits(3.0f / 255.0f));
  EXPECT_EQ(Bits(p[3]), Bits(2.0f / 255.0f));
  // Each is a float whose product with 255 is the integer itself.
  EXPECT_EQ(p[0] * 255.0f, 128.0f);
  EXPECT_EQ(p[1] * 255.0f, 127.0f);
  // Out of range and NaN: 0 below 0 and for NaN, 255 at 1 and above.
  SetPsConstant(0, -0.25f, std::numeric_limits<float>::quiet_NaN(), 1.0f, 7.0f);
  p = Run(1);
  EXPECT_EQ(Bits(p[0]), 0u);
  EXPECT_EQ(Bits(p[1]), 0u);
  EXPECT_EQ(p[2], 1.0f);
  EXPECT_EQ(p[3], 1.0f);
}

TEST_F(ColorOutputTest, TenTenTenTwoOutputsUseTheirOwnSteps) {
  // RGB in 1023 steps: 0.5 -> 511.5 + 0.5 = 512; one float below -> 511.99997 -> 511.
  // 1 / 1023 -> 1; alpha in 3 steps: 0.5 -> 1.5 + 0.5 = 2; one float below -> 1.
  SetPsConstant(0, 0.5f, Below(0.5f), 1.0f / 1023.0f, 0.5f);
  auto p = Run(2);
  EXPECT_EQ(Bits(p[0]), Bits(512.0f / 1023.0f));
  EXPECT_EQ(Bits(p[1]), Bits(511.0f / 1023.0f));
  EXPECT_EQ(Bits(p[2]), Bits(1.0f / 1023.0f));
  EXPECT_EQ(Bits(p[3]), Bits(2.0f / 3.0f));
  SetPsConstant(0, 0.0f, 0.0f, 0.0f, Below(0.5f));
  p = Run(2);
  EXPECT_EQ(Bits(p[3]), Bits(1.0f / 3.0f));
}

TEST_F(ColorOutputTest, Fixed16InAnSnormTargetRoundsLikeTheCpuPath) {
  // Output mode 1 gives c / 32; the cpu path stores round-half-away(c * 32767 / 32).
  // 16 -> 16383.5 -> 16384; -16 -> -16384; 40 clamps to 32 -> 32767 (1.0);
  // 2^-10 -> 32767 / 32768 = 0.99997 -> 1; 2^-11 -> 0.499985 -> 0.
  SetPsConstant(0, 16.0f, -16.0f, 40.0f, 0.0009765625f);
  auto p = Run(3, 1);
  EXPECT_EQ(Bits(p[0]), Bits(16384.0f / 32767.0f));
  EXPECT_EQ(Bits(p[1]), Bits(-16384.0f / 32767.0f));
  EXPECT_EQ(p[2], 1.0f);
  EXPECT_EQ(Bits(p[3]), Bits(1.0f / 32767.0f));
  EXPECT_EQ(p[0] * 32767.0f, 16384.0f);
  SetPsConstant(0, 0.00048828125f, -0.00048828125f, 0.0f, -40.0f);
  p = Run(3, 1);
  EXPECT_EQ(Bits(p[0]), 0u);
  EXPECT_EQ(std::fabs(p[1]), 0.0f);
  EXPECT_EQ(Bits(p[2]), 0u);
  EXPECT_EQ(p[3], -1.0f);
}

TEST_F(ColorOutputTest, NoQuantizationKeepsTheFloat) {
  SetPsConstant(0, Below(0.5f), 0.3f, -0.25f, 2.0f);
  auto p = Run(0);
  EXPECT_EQ(p[0], Below(0.5f));
  EXPECT_EQ(p[1], 0.3f);
  EXPECT_EQ(p[2], -0.25f);
  EXPECT_EQ(p[3], 2.0f);
}

// Only the colour attachments the draw binds (TranslationOptions::ps_color_attachments) are
// outputs: oC0 and oC2 written, attachment 2 alone bound (oC0 still feeds the alpha test).
TEST(ColorAttachmentOutputs, AnExportWithoutItsAttachmentIsNoOutput) {
  const char* shader = "xps_3_0\n    alloc colors\n    exece\n    mov oC0, c0\n    mov oC2, c1\n";
  TranslationOptions options;
  const Translated all = TranslateAssembly(shader, options);
  EXPECT_NE(all.result.glsl.find("out vec4 xe_color_0;"), std::string::npos);
  EXPECT_NE(all.result.glsl.find("out vec4 xe_color_2;"), std::string::npos);
  options.ps_color_attachments = 0x4;
  const Translated one = TranslateAssembly(shader, options);
  EXPECT_EQ(one.result.glsl.find("xe_color_0"), std::string::npos);
  EXPECT_NE(one.result.glsl.find("out vec4 xe_color_2;"), std::string::npos);
  EXPECT_NE(one.result.glsl.find("xe_o_color[0].a"), std::string::npos);
  EXPECT_EQ(one.result.reflection.color_targets_written, 0x5u);
  EXPECT_EQ(ValidateSpirv(one.result.spirv), "");
  options.ps_color_attachments = 0;
  const Translated none = TranslateAssembly(shader, options);
  EXPECT_EQ(none.result.glsl.find("out vec4 xe_color_"), std::string::npos);
  EXPECT_EQ(ValidateSpirv(none.result.spirv), "");
}

}  // namespace
}  // namespace xnt::vk::test
