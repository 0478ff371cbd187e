// Vertex fetch decoding (glsl_prelude.cpp GlslVertexFetch) for every Xenos vertex format, endian
// mode, signedness/normalisation mode, exp_adjust and the out-of-range rule, run in a real draw on
// lavapipe: a vertex shader fetches element i and writes it to an interpolator, one point per
// pixel, and the test reads the pixels back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../test_env.h"
#include "draw_harness.h"
#include "glsl_prelude.h"
#include "translate_util.h"
#include "xnt/vk/translator/shader_compiler.h"

namespace xnt::vk::test {
namespace {

// `fetch_args` is "FORMATu, is_signed, normalized, signed_rf_no_zero, exp_adjust": the shader gets
// the format's fetch function, as a translated shader does.
std::vector<uint32_t> FetchVertexShader(uint32_t stride_dwords, const std::string& fetch_args) {
  const uint32_t format = uint32_t(std::stoul(fetch_args));
  const std::string rest = fetch_args.substr(fetch_args.find(',') + 1);
  std::string text = GlslPrelude(GlslShaderKind::kVertex) + GlslVertexFetch(format);
  text += R"(
layout(location = 0) out vec4 xe_interpolators[16];
void main() {
  for (int i = 0; i < 16; ++i) { xe_interpolators[i] = vec4(0.0); }
  uint i = uint(gl_VertexIndex);
  uint base = xe_fetch_dword(0u) >> 2u;
  xe_interpolators[0] = FETCH(0u, base + i * STRIDE,ARGS);
  gl_Position = vec4((2.0 * float(i) + 1.0) / 8.0 - 1.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
)";
  text.replace(text.find("STRIDE"), 6, std::to_string(stride_dwords) + "u");
  text.replace(text.find("ARGS"), 4, rest);
  text.replace(text.find("FETCH"), 5, GlslVertexFetchName(format));
  return CompileGlsl(text, GlslStage::kVertex, "vfetch_test");
}

class VertexFetchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = MakeLavapipeContext();
    ASSERT_TRUE(context_->validation_enabled()) << "VK_LAYER_KHRONOS_validation is not available";
    harness_ = std::make_unique<DrawHarness>(*context_);
    ps_ = PassThroughPixelShader();
  }
  void TearDown() override {
    harness_.reset();
    EXPECT_EQ(context_->validation_message_count(), 0u) << ValidationReport(*context_);
  }
  // Vertex fetch constant 0 = (base_dwords, endian, size_dwords).
  void SetFetchConstant(uint32_t base_dwords, uint32_t endian, uint32_t size_dwords) {
    harness_->constants.fetch_constants[0] = (base_dwords << 2) | 3u;
    harness_->constants.fetch_constants[1] = endian | (size_dwords << 2);
  }
  void PutBytes(uint32_t byte_offset, const std::vector<uint8_t>& bytes) {
    std::memcpy(harness_->memory.data() + byte_offset, bytes.data(), bytes.size());
  }
  // Runs 8 points with stride `stride_dwords`; returns vertex i's fetched vec4.
  std::vector<float> Run(uint32_t stride_dwords, const std::string& args) {
    return harness_->Draw(FetchVertexShader(stride_dwords, args), ps_, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 8, 8);
  }
  std::unique_ptr<VulkanContext> context_;
  std::unique_ptr<DrawHarness> harness_;
  std::vector<uint32_t> ps_;
};

void ExpectVec(const std::vector<float>& pixels, int index, float x, float y, float z, float w) {
  EXPECT_FLOAT_EQ(pixels[index * 4 + 0], x) << "vertex " << index << " x";
  EXPECT_FLOAT_EQ(pixels[index * 4 + 1], y) << "vertex " << index << " y";
  EXPECT_FLOAT_EQ(pixels[index * 4 + 2], z) << "vertex " << index << " z";
  EXPECT_FLOAT_EQ(pixels[index * 4 + 3], w) << "vertex " << index << " w";
}

TEST_F(VertexFetchTest, Format8888UnsignedNormalizedBigEndian) {
  // Big-endian guest dword 0x11223344 (bytes 11 22 33 44): k8in32 makes x the low byte 0x44.
  SetFetchConstant(16, 2, 2);
  PutBytes(64, {0x11, 0x22, 0x33, 0x44, 0xFF, 0x00, 0x80, 0x01});
  auto p = Run(1, "6u, false, true, false, 0");
  ExpectVec(p, 0, 0x44 / 255.0f, 0x33 / 255.0f, 0x22 / 255.0f, 0x11 / 255.0f);
  ExpectVec(p, 1, 1.0f / 255.0f, 128.0f / 255.0f, 0.0f, 1.0f);
  // Dword 2 is past size = 2 dwords: zeros, as the hardware returns.
  ExpectVec(p, 2, 0.0f, 0.0f, 0.0f, 0.0f);
}

TEST_F(VertexFetchTest, Format8888SignedIntegerAndNoZeroNormalization) {
  SetFetchConstant(0, 0, 8);
  uint32_t word = 0x7F80FF01u;  // w=0x7F x=0x01 y=0xFF z=0x80 (little-endian host word, endian 0)
  PutBytes(0, {uint8_t(word), uint8_t(word >> 8), uint8_t(word >> 16), uint8_t(word >> 24)});
  auto p = Run(0, "6u, true, false, false, 0");
  ExpectVec(p, 0, 1.0f, -1.0f, -128.0f, 127.0f);
  // Signed normalised, "no zero" repeating fraction: (2v + 1) / 255.
  p = Run(0, "6u, true, true, true, 0");
  ExpectVec(p, 0, 3.0f / 255.0f, -1.0f / 255.0f, -255.0f / 255.0f, 255.0f / 255.0f);
  // Signed normalised, default mode: v / 127 clamped to -1.
  p = Run(0, "6u, true, true, false, 0");
  ExpectVec(p, 0, 1.0f / 127.0f, -1.0f / 127.0f, -1.0f, 1.0f);
}

TEST_F(VertexFetchTest, PackedFormats2101010And101111And111110) {
  SetFetchConstant(0, 0, 8);
  // x=5 (10 bits), y=1023, z=512, w=3.
  uint32_t w2101010 = 5u | (1023u << 10) | (512u << 20) | (3u << 30);
  // 10_11_11: x 11 bits @0, y 11 bits @11, z 10 bits @22.
  uint32_t w101111 = 2047u | (3u << 11) | (1023u << 22);
  // 11_11_10: x 10 bits @0, y 11 bits @10, z 11 bits @21.
  uint32_t w111110 = 1023u | (5u << 10) | (2047u << 21);
  std::vector<uint8_t> bytes;
  for (uint32_t w : {w2101010, w101111, w111110}) {
    for (int i = 0; i < 4; ++i) bytes.push_back(uint8_t(w >> (8 * i)));
  }
  PutBytes(0, bytes);
  auto p = Run(0, "7u, false, false, false, 0");
  ExpectVec(p, 0, 5.0f, 1023.0f, 512.0f, 3.0f);
  p = Run(0, "7u, true, false, false, 0");
  ExpectVec(p, 0, 5.0f, -1.0f, -512.0f, -1.0f);
  harness_->constants.fetch_constants[0] = (1u << 2) | 3u;
  p = Run(0, "16u, false, false, false, 0");
  ExpectVec(p, 0, 2047.0f, 3.0f, 1023.0f, 1.0f);
  p = Run(0, "16u, false, true, false, 0");
  ExpectVec(p, 0, 1.0f, 3.0f / 2047.0f, 1.0f, 1.0f);
  harness_->constants.fetch_constants[0] = (2u << 2) | 3u;
  p = Run(0, "17u, false, false, false, 0");
  ExpectVec(p, 0, 1023.0f, 5.0f, 2047.0f, 1.0f);
}

TEST_F(VertexFetchTest, Formats16BitIntegerAndFloatWithEndianModes) {
  SetFetchConstant(0, 1, 8);  // k8in16
  // 16_16_16_16 signed ints 1, -2, 300, -32768 stored big-endian per 16-bit half.
  PutBytes(0, {0x00, 0x01, 0xFF, 0xFE, 0x01, 0x2C, 0x80, 0x00});
  auto p = Run(0, "26u, true, false, false, 0");
  ExpectVec(p, 0, 1.0f, -2.0f, 300.0f, -32768.0f);
  p = Run(0, "25u, true, false, false, 0");
  ExpectVec(p, 0, 1.0f, -2.0f, 0.0f, 1.0f);
  // Halves: 1.0 = 0x3C00, -2.0 = 0xC000, exponent 31 (0x7C00) is 65536 on Xenos, not infinity.
  SetFetchConstant(0, 3, 8);  // k16in32: swap the two halves of each dword
  uint32_t h0 = 0x3C00u | (0xC000u << 16);
  uint32_t h1 = 0x7C00u | (0x3555u << 16);
  uint32_t s0 = (h0 << 16) | (h0 >> 16), s1 = (h1 << 16) | (h1 >> 16);
  std::vector<uint8_t> bytes;
  for (uint32_t w : {s0, s1}) {
    for (int i = 0; i < 4; ++i) bytes.push_back(uint8_t(w >> (8 * i)));
  }
  PutBytes(0, bytes);
  p = Run(0, "32u, false, false, false, 0");
  ExpectVec(p, 0, 1.0f, -2.0f, 65536.0f, 0.333251953125f);
  p = Run(0, "31u, false, false, false, 0");
  ExpectVec(p, 0, 1.0f, -2.0f, 0.0f, 1.0f);
}

TEST_F(VertexFetchTest, Formats32BitIntegerFloatStrideAndExpAdjust) {
  SetFetchConstant(0, 2, 64);  // k8in32, big-endian dwords
  auto be = [](uint32_t v) {
    return std::vector<uint8_t>{uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
  };
  std::vector<uint8_t> bytes;
  float values[4] = {1.5f, -0.25f, 1e10f, 3.0f};
  for (float f : values) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    auto b = be(u);
    bytes.insert(bytes.end(), b.begin(), b.end());
  }
  for (uint32_t v : {0xFFFFFFFEu, 7u, 0x80000000u, 0u}) {
    auto b = be(v);
    bytes.insert(bytes.end(), b.begin(), b.end());
  }
  PutBytes(0, bytes);
  // Stride 4 dwords: vertex 0 = floats, vertex 1 = integers.
  auto p = Run(4, "38u, false, false, false, 0");
  ExpectVec(p, 0, 1.5f, -0.25f, 1e10f, 3.0f);
  p = Run(4, "57u, false, false, false, 0");
  ExpectVec(p, 0, 1.5f, -0.25f, 1e10f, 1.0f);
  p = Run(4, "37u, false, false, false, 0");
  ExpectVec(p, 0, 1.5f, -0.25f, 0.0f, 1.0f);
  p = Run(4, "36u, false, false, false, -2");
  ExpectVec(p, 0, 1.5f / 4.0f, 0.0f, 0.0f, 1.0f);
  p = Run(4, "35u, true, false, false, 0");
  ExpectVec(p, 1, -2.0f, 7.0f, -2147483648.0f, 0.0f);
  p = Run(4, "34u, false, false, false, 1");
  ExpectVec(p, 1, 2.0f * 4294967294.0f, 14.0f, 0.0f, 1.0f);
  p = Run(4, "33u, false, true, false, 0");
  ExpectVec(p, 1, 4294967294.0f / 4294967295.0f, 0.0f, 0.0f, 1.0f);
  // With size = 6 dwords, vertex 2 (dwords 8-11) lies wholly outside the buffer: all zeros.
  SetFetchConstant(0, 2, 6);
  p = Run(4, "38u, false, false, false, 0");
  ExpectVec(p, 0, 1.5f, -0.25f, 1e10f, 3.0f);
  ExpectVec(p, 2, 0.0f, 0.0f, 0.0f, 0.0f);
}

}  // namespace
}  // namespace xnt::vk::test
