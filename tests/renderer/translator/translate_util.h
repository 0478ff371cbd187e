// Helpers shared by the translator tests: assemble/decode/analyse/translate a shader, and a
// fixture with a validating lavapipe context plus the draw harness.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../test_env.h"
#include "draw_harness.h"
#include "glsl_prelude.h"
#include "xnt/vk/translator/shader_compiler.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/ucode.h"
#include "xnt/vk/translator/shader_translator.h"

namespace xnt::vk::test {

struct Translated {
  ucode::Shader shader;
  ucode::Analysis analysis;
  TranslatedShader result;
};

inline Translated TranslateMicrocode(const std::vector<uint32_t>& microcode, ucode::ShaderType type,
                                     const TranslationOptions& options = {}) {
  Translated t;
  t.shader = ucode::Decode(microcode, type);
  t.analysis = ucode::Analyze(t.shader);
  t.result = Translate(t.shader, t.analysis, options);
  return t;
}

inline Translated TranslateAssembly(const std::string& text, const TranslationOptions& options = {}) {
  ucode::ShaderType type = ucode::ShaderType::kPixel;
  std::vector<uint32_t> microcode = ucode::Assemble(text, &type);
  return TranslateMicrocode(microcode, type, options);
}

// Full-screen triangle; interpolator i = (i, i + 0.5, -i, 1) so pixel shaders have inputs.
inline std::vector<uint32_t> FullScreenVertexShader() {
  std::string text = GlslPrelude(GlslShaderKind::kVertex);
  text += R"(
layout(location = 0) out vec4 xe_interpolators[16];
void main() {
  for (int i = 0; i < 16; ++i) { xe_interpolators[i] = vec4(float(i), float(i) + 0.5, -float(i), 1.0); }
  vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
)";
  return CompileGlsl(text, GlslStage::kVertex, "fullscreen_vs");
}

// Pixel shader that outputs interpolator 0.
inline std::vector<uint32_t> PassThroughPixelShader() {
  std::string text = GlslPrelude(GlslShaderKind::kPixel);
  text += R"(
layout(location = 0) in vec4 xe_interpolators[16];
layout(location = 0) out vec4 xe_color_0;
void main() { xe_color_0 = xe_interpolators[0]; }
)";
  return CompileGlsl(text, GlslStage::kFragment, "passthrough_ps");
}

inline uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

class DrawFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = MakeLavapipeContext();
    // "Zero validation messages" only means something with the layer loaded.
    ASSERT_TRUE(context_->validation_enabled()) << "VK_LAYER_KHRONOS_validation is not available";
    harness_ = std::make_unique<DrawHarness>(*context_);
  }
  void TearDown() override {
    harness_.reset();
    if (context_) {
      EXPECT_EQ(context_->validation_message_count(), 0u) << ValidationReport(*context_);
    }
  }
  // Pixel shader float constant c# (the pixel half of the constant file).
  void SetPsConstant(uint32_t index, float x, float y, float z, float w) {
    float* c = harness_->constants.float_constants[kPixelShaderFloatConstantBase + index];
    c[0] = x;
    c[1] = y;
    c[2] = z;
    c[3] = w;
  }
  void SetVsConstant(uint32_t index, float x, float y, float z, float w) {
    float* c = harness_->constants.float_constants[index];
    c[0] = x;
    c[1] = y;
    c[2] = z;
    c[3] = w;
  }
  // Runs a translated pixel shader over a 1x1 target; returns oC0.
  std::vector<float> RunPixelShader(const Translated& ps) {
    if (fullscreen_vs_.empty()) fullscreen_vs_ = FullScreenVertexShader();
    return harness_->Draw(fullscreen_vs_, ps.result.spirv, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 3,
                          1, 1);
  }
  std::unique_ptr<VulkanContext> context_;
  std::unique_ptr<DrawHarness> harness_;
  std::vector<uint32_t> fullscreen_vs_;
};

}  // namespace xnt::vk::test
