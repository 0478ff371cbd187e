// gpu::DecodeTexel against values worked out by hand from the format definitions.
#include <gtest/gtest.h>

#include "xnt/gpu/texture_decode.h"
#include "xnt/xenos/enums.h"

namespace xnt::gpu {
namespace {

using xenos::TextureFormat;

Texel Decode(TextureFormat f, std::initializer_list<uint32_t> words, uint32_t t, uint32_t ti = 0) {
  std::vector<uint32_t> w(words);
  w.resize(4, 0);
  auto texel = DecodeTexel(uint32_t(f), w.data(), t, ti);
  EXPECT_TRUE(texel.has_value());
  return texel.value_or(Texel{});
}

// A unorm component's integer numerator.
uint32_t N(const Component& c) { return uint32_t(c.value * float(c.max) + 0.5f); }

TEST(TextureDecode, PackedUnormFieldsFromTheLowBitsUp) {
  Texel t = Decode(TextureFormat::k_8_8_8_8, {}, 0x80FF0040u);
  EXPECT_EQ(t[0].max, 255u);
  EXPECT_EQ(N(t[0]), 0x40u);
  EXPECT_EQ(N(t[1]), 0x00u);
  EXPECT_EQ(N(t[2]), 0xFFu);
  EXPECT_EQ(N(t[3]), 0x80u);
  // 5:6:5 with only the top five bits set: X (bits 4:0) = 0, Y (10:5) = 0, Z (15:11) = 31 of 31.
  t = Decode(TextureFormat::k_5_6_5, {}, 0xF800u);
  EXPECT_EQ(N(t[0]), 0u);
  EXPECT_EQ(t[1].max, 63u);
  EXPECT_EQ(N(t[1]), 0u);
  EXPECT_FLOAT_EQ(t[2].value, 1.0f);
}

TEST(TextureDecode, HalfAndDepthFloats) {
  Texel t = Decode(TextureFormat::k_16_16_FLOAT, {}, 0xC0003C00u);
  EXPECT_EQ(t[0].max, 0u);  // exact
  EXPECT_EQ(t[0].value, 1.0f);
  EXPECT_EQ(t[1].value, -2.0f);
  // 20e4 in bits 31:8: exponent 15 (bias 15), mantissa 0 -> 1.0; exponent 14, mantissa 2^19 ->
  // 2^-1 * 1.5 = 0.75.
  EXPECT_EQ(Decode(TextureFormat::k_24_8_FLOAT, {}, (15u << 20) << 8)[0].value, 1.0f);
  EXPECT_EQ(Decode(TextureFormat::k_24_8_FLOAT, {}, ((14u << 20) | (1u << 19)) << 8)[0].value,
            0.75f);
}

TEST(TextureDecode, Dxt1FourColourBlock) {
  // c0 = 0xF800 (pure red), c1 = 0x001F (pure blue); c0 > c1: four colours. Texel 0 index 0,
  // texel 1 index 2 = (2 * c0 + c1) / 3 per channel: R 170, B 85.
  const uint32_t w0 = 0xF800u | (0x001Fu << 16), w1 = 2u << 2;
  Texel t0 = Decode(TextureFormat::k_DXT1, {w0, w1}, 0, 0);
  EXPECT_EQ(N(t0[0]), 255u);
  EXPECT_EQ(N(t0[2]), 0u);
  EXPECT_EQ(N(t0[3]), 255u);
  Texel t1 = Decode(TextureFormat::k_DXT1, {w0, w1}, 0, 1);
  EXPECT_EQ(N(t1[0]), 170u);
  EXPECT_EQ(N(t1[1]), 0u);
  EXPECT_EQ(N(t1[2]), 85u);
  // c0 <= c1: three colours and transparent black at index 3.
  Texel t = Decode(TextureFormat::k_DXT1, {0x001Fu | (0xF800u << 16), 3u}, 0, 0);
  EXPECT_EQ(N(t[0]), 0u);
  EXPECT_EQ(N(t[3]), 0u);
}

TEST(TextureDecode, UnknownFormatsAreReported) {
  const uint32_t w[4] = {};
  EXPECT_FALSE(DecodeTexel(uint32_t(TextureFormat::k_1_REVERSE), w, 0, 0).has_value());
  EXPECT_FALSE(DecodeTexel(uint32_t(TextureFormat::k_32_AS_8), w, 0, 0).has_value());
}

}  // namespace
}  // namespace xnt::gpu
