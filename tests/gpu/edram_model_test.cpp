// EDRAM model: addressing (tiles, pitch, MSAA, depth half swap, 64bpp, wraparound) and the guest
// bit encodings of every render-target format.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "xnt/base/error.h"
#include "xnt/gpu/edram.h"

namespace xnt::gpu::edram {
namespace {

using xenos::ColorRenderTargetFormat;
using xenos::DepthRenderTargetFormat;
using xenos::MsaaSamples;

Surface Color(uint32_t base, uint32_t pitch, ColorRenderTargetFormat f = ColorRenderTargetFormat::k_8_8_8_8,
              MsaaSamples msaa = MsaaSamples::k1X) {
  Surface s;
  s.base_tiles = base;
  s.pitch_pixels = pitch;
  s.format = uint32_t(f);
  s.msaa = msaa;
  return s;
}

Surface Depth(uint32_t base, uint32_t pitch, MsaaSamples msaa = MsaaSamples::k1X) {
  Surface s;
  s.base_tiles = base;
  s.pitch_pixels = pitch;
  s.is_depth = true;
  s.format = uint32_t(DepthRenderTargetFormat::kD24S8);
  s.msaa = msaa;
  return s;
}

TEST(EdramModel, PitchInTiles) {
  EXPECT_EQ(Color(0, 1280).pitch_tiles(), 16u);
  EXPECT_EQ(Color(0, 1280, ColorRenderTargetFormat::k_8_8_8_8, MsaaSamples::k2X).pitch_tiles(), 16u);
  EXPECT_EQ(Color(0, 1280, ColorRenderTargetFormat::k_8_8_8_8, MsaaSamples::k4X).pitch_tiles(), 32u);
  EXPECT_EQ(Color(0, 1280, ColorRenderTargetFormat::k_16_16_16_16_FLOAT).pitch_tiles(), 32u);
  EXPECT_EQ(Color(0, 72).pitch_tiles(), 1u);
  EXPECT_EQ(Color(0, 96).pitch_tiles(), 2u);
  // 720 rows at 1x: 45 tile rows; at 4x MSAA twice as many sample rows.
  EXPECT_EQ(Color(0, 1280).TilesForRows(720), 45u * 16u);
  EXPECT_EQ(Color(0, 1280, ColorRenderTargetFormat::k_8_8_8_8, MsaaSamples::k4X).TilesForRows(720),
            2048u);  // 90 x 32 = 2880 tiles: clamped to the whole EDRAM
  EXPECT_EQ(Color(2000, 1280).RowsToEdramEnd(8192), 48u);  // 48 tiles left = 3 tile rows
}

// SampleAt inverts SampleOffset (pixel history finds which pixel of a resolve's or clear's
// surface an EDRAM word is): hand-worked words, then every sample of a few rows round trip for
// each kind of layout (32/64bpp colour, depth's swapped halves, 2x/4x MSAA, a scale, a wrap).
TEST(EdramModel, SampleAtInvertsSampleOffset) {
  auto at = [](const Surface& s, uint32_t offset) {
    const auto p = s.SampleAt(offset);
    return p ? std::to_string(p->x) + "," + std::to_string(p->y) + "/" + std::to_string(p->sample)
             : std::string("none");
  };
  EXPECT_EQ(at(Color(0, 160), kTileBytes + 4), "81,0/0");       // second tile, sample 1
  EXPECT_EQ(at(Depth(0, 80), 0), "40,0/0");                     // halves swapped
  EXPECT_EQ(at(Color(0, 80, ColorRenderTargetFormat::k_8_8_8_8, MsaaSamples::k4X), 81 * 4), "0,0/3");
  EXPECT_EQ(at(Color(0, 160), 2), "none");                      // not a sample's first byte
  EXPECT_EQ(at(Color(0, 100), 30 * 4 + kTileBytes), "none");    // x 110: right of the pitch
  EXPECT_EQ(at(Color(2047, 160), 5 * 4), "85,0/0");             // tile 0 after 2047
  Surface scaled = Color(3, 100, ColorRenderTargetFormat::k_16_16_16_16, MsaaSamples::k2X);
  scaled.scale_x = 2, scaled.scale_y = 3;
  const Surface layouts[] = {Color(5, 160), Color(7, 80, ColorRenderTargetFormat::k_16_16_16_16),
                             Depth(9, 240, MsaaSamples::k4X), Color(2040, 320, ColorRenderTargetFormat::k_8_8_8_8, MsaaSamples::k2X),
                             scaled};
  for (const Surface& s : layouts) {
    for (uint32_t y = 0; y < 20; ++y) {
      for (uint32_t x = 0; x < s.pitch_pixels * s.scale_x; ++x) {
        for (uint32_t i = 0; i < s.sample_count(); ++i) {
          const auto p = s.SampleAt(s.SampleOffset(x, y, i));
          ASSERT_TRUE(p) << s.Describe() << " " << x << "," << y;
          ASSERT_EQ(p->x, x);
          ASSERT_EQ(p->y, y);
          ASSERT_EQ(p->sample, i);
        }
      }
    }
  }
}

TEST(EdramModel, SampleAddresses) {
  Surface c = Color(0, 160);  // 2 tiles per row
  EXPECT_EQ(c.SampleOffset(0, 0, 0), 0u);
  EXPECT_EQ(c.SampleOffset(79, 0, 0), 79u * 4);
  EXPECT_EQ(c.SampleOffset(80, 0, 0), kTileBytes);
  EXPECT_EQ(c.SampleOffset(1, 1, 0), (80u + 1u) * 4);
  EXPECT_EQ(c.SampleOffset(0, 16, 0), 2u * kTileBytes);
  // Depth swaps the two 40-sample halves of a tile.
  Surface d = Depth(0, 160);
  EXPECT_EQ(d.SampleOffset(0, 0, 0), 40u * 4);
  EXPECT_EQ(d.SampleOffset(40, 0, 0), 0u);
  EXPECT_EQ(d.SampleOffset(79, 3, 0), (3u * 80 + 39) * 4);
  // 2x: samples one above the other; 4x: 2x2.
  Surface m2 = Color(0, 160, ColorRenderTargetFormat::k_8_8_8_8, MsaaSamples::k2X);
  EXPECT_EQ(m2.SampleOffset(0, 0, 1), 80u * 4);
  EXPECT_EQ(m2.SampleOffset(0, 8, 0), 2u * kTileBytes);  // 8 pixel rows per tile row
  Surface m4 = Color(0, 80, ColorRenderTargetFormat::k_8_8_8_8, MsaaSamples::k4X);
  EXPECT_EQ(m4.pitch_tiles(), 2u);
  EXPECT_EQ(m4.SampleOffset(0, 0, 1), 4u);
  EXPECT_EQ(m4.SampleOffset(0, 0, 2), 80u * 4);
  EXPECT_EQ(m4.SampleOffset(0, 0, 3), 81u * 4);
  EXPECT_EQ(m4.SampleOffset(40, 0, 0), kTileBytes);
  EXPECT_THROW(m4.SampleOffset(0, 0, 4), Error);
  EXPECT_THROW(c.SampleOffset(160, 0, 0), Error);
  // 64bpp: 40 samples of 8 bytes per tile row.
  Surface wide = Color(0, 80, ColorRenderTargetFormat::k_16_16_16_16);
  EXPECT_EQ(wide.SampleOffset(39, 0, 0), 39u * 8);
  EXPECT_EQ(wide.SampleOffset(40, 0, 0), kTileBytes);
  EXPECT_EQ(wide.SampleOffset(0, 1, 0), 40u * 8);
  // Wraparound at 2048 tiles.
  Surface w = Color(2047, 160);
  EXPECT_EQ(w.SampleOffset(0, 0, 0), 2047u * kTileBytes);
  EXPECT_EQ(w.SampleOffset(80, 0, 0), 0u);
  EXPECT_EQ(w.SampleOffset(0, 16, 0), 1u * kTileBytes);
}

TEST(EdramModel, DepthReadAsColourSeesSwappedColumnsStencilInRed) {
  Edram e;
  Surface d = Depth(4, 80);
  d.format = uint32_t(DepthRenderTargetFormat::kD24S8);
  for (uint32_t x = 0; x < 80; ++x) e.Store(d, x, 0, 0, PackDepth(DepthRenderTargetFormat::kD24S8, float(x) / 80.0f, x));
  Surface c = Color(4, 80);
  for (uint32_t x = 0; x < 80; ++x) {
    uint32_t v = uint32_t(e.Load(c, x, 0, 0));
    uint32_t depth_x = (x + 40) % 80;
    EXPECT_EQ(v & 0xFF, depth_x) << x;  // stencil in R
    EXPECT_EQ(v >> 8, PackDepth(DepthRenderTargetFormat::kD24S8, float(depth_x) / 80.0f, 0) >> 8);
  }
}

TEST(EdramModel, SevenEThreeFloat) {
  EXPECT_EQ(Float32To7e3(1.0f), 0x180u);
  EXPECT_EQ(Float32To7e3(31.875f), 0x3FFu);
  EXPECT_EQ(Float32To7e3(1000.0f), 0x3FFu);
  EXPECT_EQ(Float32To7e3(0.25f), 0x080u);
  EXPECT_EQ(Float32To7e3(0.125f), 0x040u);
  EXPECT_EQ(Float32To7e3(-1.0f), 0u);
  EXPECT_EQ(Float32To7e3(std::nanf("")), 0u);
  EXPECT_EQ(Float7e3To32(0x180), 1.0f);
  EXPECT_EQ(Float7e3To32(0x001), 0.25f / 128.0f);
  for (uint32_t c = 0; c < 1024; ++c) EXPECT_EQ(Float32To7e3(Float7e3To32(c)), c) << c;
  // Round to nearest even between 1.0 (0x180) and 1 + 1/128 (0x181).
  EXPECT_EQ(Float32To7e3(1.0f + 0.5f / 128.0f), 0x180u);
  EXPECT_EQ(Float32To7e3(1.0f + 1.5f / 128.0f), 0x182u);
}

TEST(EdramModel, TwentyEFourDepth) {
  EXPECT_EQ(Float32To20e4(1.0f), 0xF00000u);
  EXPECT_EQ(Float32To20e4(0.5f), 0xE00000u);
  EXPECT_EQ(Float32To20e4(2.0f), 0xFFFFFFu);
  EXPECT_EQ(Float32To20e4(-0.5f), 0u);
  EXPECT_EQ(Float20e4To32(0xF00000), 1.0f);
  for (uint32_t c = 0; c < (1u << 24); c += 97) EXPECT_EQ(Float32To20e4(Float20e4To32(c)), c) << c;
  EXPECT_EQ(Float32To20e4(Float20e4To32(0xFFFFFF)), 0xFFFFFFu);
  EXPECT_EQ(Float32To20e4(Float20e4To32(1)), 1u);
}

TEST(EdramModel, HalfFloat) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00u);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xC000u);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7BFFu);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00u);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001u);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF)) continue;  // NaNs: payload quieted
    EXPECT_EQ(FloatToHalf(HalfToFloat(uint16_t(h))), h) << h;
  }
  EXPECT_TRUE(std::isnan(HalfToFloat(FloatToHalf(std::nanf("")))));
}

TEST(EdramModel, XenosHalfHasNoInfinity) {
  // Exponent 31 is an ordinary exponent: 2^16 * (1 + m / 1024), up to 131008.
  EXPECT_EQ(FloatToXenosHalf(65504.0f), 0x7BFFu);
  EXPECT_EQ(FloatToXenosHalf(65536.0f), 0x7C00u);   // IEEE +inf's pattern
  EXPECT_EQ(FloatToXenosHalf(98304.0f), 0x7E00u);   // an IEEE NaN's pattern
  EXPECT_EQ(FloatToXenosHalf(131008.0f), 0x7FFFu);
  EXPECT_EQ(FloatToXenosHalf(-70016.0f), 0xFC46u);
  EXPECT_EQ(FloatToXenosHalf(65520.0f), 0x7C00u);   // tie 65504 / 65536: to the even mantissa
  EXPECT_EQ(FloatToXenosHalf(65568.0f), 0x7C00u);   // tie 65536 / 65600: even
  EXPECT_EQ(FloatToXenosHalf(65632.0f), 0x7C02u);   // tie 65600 / 65664: even
  EXPECT_EQ(FloatToXenosHalf(1.0e6f), 0x7FFFu);
  EXPECT_EQ(FloatToXenosHalf(std::nanf("")), 0u);
  EXPECT_EQ(XenosHalfToFloat(0x7C00), 65536.0f);
  EXPECT_EQ(XenosHalfToFloat(0xFFFF), -131008.0f);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    EXPECT_EQ(FloatToXenosHalf(XenosHalfToFloat(uint16_t(h))), h) << h;
  }
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_16_16_16_16_FLOAT, {98304.0f, 1.0f, 131008.0f, 2.0f}),
            0x40007FFF3C007E00ull);
  EXPECT_EQ(UnpackColor(ColorRenderTargetFormat::k_16_16_FLOAT, 0x7C01u)[0], 65600.0f);
}

TEST(EdramModel, PiecewiseLinearGamma) {
  EXPECT_EQ(PwlGammaToLinear(0.0f), 0.0f);
  EXPECT_FLOAT_EQ(PwlGammaToLinear(1.0f), 1.0f);
  EXPECT_FLOAT_EQ(PwlGammaToLinear(64.0f / 255.0f), 64.0f / 1023.0f);
  EXPECT_FLOAT_EQ(PwlGammaToLinear(96.0f / 255.0f), 128.0f / 1023.0f);
  EXPECT_FLOAT_EQ(PwlGammaToLinear(192.0f / 255.0f), 512.0f / 1023.0f + 4.0f / 1023.0f);
  float last = -1.0f;
  for (uint32_t g = 0; g < 256; ++g) {
    float l = PwlGammaToLinear(float(g) / 255.0f);
    EXPECT_GT(l, last) << g;
    last = l;
    // Linear -> gamma lands within one 8-bit step of where it came from.
    EXPECT_NEAR(LinearToPwlGamma(l) * 255.0f, float(g), 1.0f) << g;
  }
  // Not sRGB: mid-grey linear 0.5 is gamma 192/255 here, not 0.735 (sRGB).
  EXPECT_NEAR(LinearToPwlGamma(0.5f), 191.9f / 255.0f, 0.5f / 255.0f);
}

TEST(EdramModel, ColourPacking) {
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_8_8_8_8, {1.0f, 0.5f, 0.25f, 1.0f}), 0xFF4080FFu);
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_2_10_10_10, {1.0f, 0.0f, 0.0f, 1.0f}), 0xC00003FFu);
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_2_10_10_10_FLOAT, {1.0f, 0.0f, 31.875f, 0.0f}),
            0x180u | (0x3FFu << 20));
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_16_16, {32.0f, -32.0f, 0, 0}), 0x80017FFFu);
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_16_16, {100.0f, 1.0f, 0, 0}), 0x04007FFFu);
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_16_16_16_16, {0, 0, 0, 32.0f}), 0x7FFFull << 48);
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_16_16_FLOAT, {1.0f, -2.0f, 0, 0}), 0xC0003C00u);
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_16_16_16_16_FLOAT, {0, 0, 1.0f, 0}), 0x3C00ull << 32);
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_32_FLOAT, {1.5f, 9, 9, 9}), 0x3FC00000u);
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_32_32_FLOAT, {1.0f, 2.0f, 9, 9}), 0x400000003F800000ull);
  // Gamma stores the PWL curve of the linear output.
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_8_8_8_8_GAMMA, {0.5f, 0, 1, 0.5f}) & 0xFFu, 192u);
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_8_8_8_8_GAMMA, {0.5f, 0, 1, 0.5f}) >> 24, 128u);
}

// Bit patterns of every 32bpp format through Unpack -> Pack. Exact except where the value the
// shader sees cannot represent the bits; those are why transfers move raw bits (integer views).
TEST(EdramModel, UnpackPackRoundTrips) {
  const ColorRenderTargetFormat exact[] = {
      ColorRenderTargetFormat::k_8_8_8_8, ColorRenderTargetFormat::k_2_10_10_10,
      ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10, ColorRenderTargetFormat::k_2_10_10_10_FLOAT,
      ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16, ColorRenderTargetFormat::k_32_FLOAT};
  for (auto f : exact) {
    for (uint64_t v = 0; v < (1ull << 32); v += 0x10001ull * 37 + 11) {
      ASSERT_EQ(PackColor(f, UnpackColor(f, v)), v) << xenos::ColorRenderTargetFormatName(uint32_t(f)) << " " << v;
    }
  }
  // 16_16: -32768 (0x8000) and -32767 (0x8001) both mean -32: the fixed-point value loses one.
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_16_16, UnpackColor(ColorRenderTargetFormat::k_16_16, 0x8001)), 0x8001u);
  EXPECT_EQ(PackColor(ColorRenderTargetFormat::k_16_16, UnpackColor(ColorRenderTargetFormat::k_16_16, 0x8000)), 0x8001u);
  // Gamma: the PWL pair is not an 8-bit bijection (250 -> linear -> 251).
  uint32_t changed = 0;
  for (uint32_t g = 0; g < 256; ++g) {
    changed += PackColor(ColorRenderTargetFormat::k_8_8_8_8_GAMMA,
                         UnpackColor(ColorRenderTargetFormat::k_8_8_8_8_GAMMA, g)) != g;
  }
  EXPECT_GT(changed, 0u);
}

TEST(EdramModel, DepthEncodingsAndHostDepthRule) {
  EXPECT_EQ(PackDepth(DepthRenderTargetFormat::kD24S8, 1.0f, 0x12), 0xFFFFFF12u);
  EXPECT_EQ(PackDepth(DepthRenderTargetFormat::kD24S8, 0.0f, 0x1FF), 0xFFu);
  EXPECT_EQ(PackDepth(DepthRenderTargetFormat::kD24FS8, 1.0f, 0x12), 0xF0000012u);
  EXPECT_EQ(UnpackDepth(DepthRenderTargetFormat::kD24FS8, 0xF0000012u), 1.0f);
  uint32_t guest = PackDepth(DepthRenderTargetFormat::kD24FS8, 0.3f, 7);
  // The exact host value converts to the stored bits: trusted (keeps 32-bit precision).
  EXPECT_TRUE(HostDepthStillMatches(DepthRenderTargetFormat::kD24FS8, 0.3f, guest));
  EXPECT_TRUE(HostDepthStillMatches(DepthRenderTargetFormat::kD24FS8, std::nextafter(0.3f, 1.0f), guest));
  // After the guest data changed (e.g. a colour target wrote those tiles), it is not.
  EXPECT_FALSE(HostDepthStillMatches(DepthRenderTargetFormat::kD24FS8, 0.3f, guest + 0x100));
  EXPECT_FALSE(HostDepthStillMatches(DepthRenderTargetFormat::kD24S8, 0.5f,
                                     PackDepth(DepthRenderTargetFormat::kD24S8, 0.25f, 0)));
}

TEST(EdramModel, SixtyFourBitStoreLoad) {
  Edram e;
  Surface s = Color(10, 80, ColorRenderTargetFormat::k_32_32_FLOAT);
  e.Store(s, 41, 3, 0, 0x1122334455667788ull);
  EXPECT_EQ(e.Load(s, 41, 3, 0), 0x1122334455667788ull);
  uint32_t off = s.SampleOffset(41, 3, 0);
  EXPECT_EQ(off, 11u * kTileBytes + (3u * 40 + 1) * 8);
  EXPECT_EQ(e.bytes()[off], 0x88);
  EXPECT_EQ(e.bytes()[off + 4], 0x44);
}

}  // namespace
}  // namespace xnt::gpu::edram
