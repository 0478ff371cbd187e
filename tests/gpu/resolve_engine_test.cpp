// The resolve engine (resolve.h) on an EDRAM filled with known guest bits: every colour source
// format into a set of destination formats, MSAA sample selection and averaging, exponent bias,
// red/blue swap, every Endian128 mode, tiled 2D / 3D and linear destinations, depth, and the
// register decoding (sample-select sanitising, unsupported formats). Expected bytes are computed
// by hand in the comments, EDRAM positions are computed here from the tile layout (not through
// gpu::edram::Surface), so the engine's addressing is checked independently.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <set>

#include "../renderer/fake_guest.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/gpu/resolve.h"
#include "xnt/gpu/texture_address.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

using xenos::ColorRenderTargetFormat;
using xenos::CopySampleSelect;
using xenos::Endian128;
using xenos::TextureFormat;

constexpr uint32_t kDest = 0x00100000;

// Byte offset in the EDRAM of sample (sx, sy) in sample space of a surface at `base` tiles with
// `pitch_tiles`: 80x16 32-bit samples per tile (40x16 at 64bpp), depth halves swapped.
uint32_t EdramOffset(uint32_t base, uint32_t pitch_tiles, uint32_t sx, uint32_t sy, bool is64,
                     bool depth) {
  uint32_t tw = is64 ? 40 : 80;
  uint32_t tile = base + (sy / 16) * pitch_tiles + sx / tw;
  uint32_t cx = sx % tw, cy = sy % 16;
  if (depth) cx = (cx + 40) % 80;
  return tile * 5120 + (cy * tw + cx) * (is64 ? 8 : 4);
}

struct Rig {
  gpu::edram::Edram edram;
  test::FakeGuest guest;
  gpu::ResolveInfo info;

  Rig(ColorRenderTargetFormat src, TextureFormat dst, uint32_t msaa = 0, uint32_t pitch = 80) {
    info.copy = true;
    info.x0 = 0;
    info.y0 = 0;
    info.x1 = 8;
    info.y1 = 8;
    info.source_select = 0;
    info.surface_pitch = pitch;
    info.msaa_samples = msaa;
    info.color_base = 0;
    info.color_format = uint32_t(src);
    info.dest_base = kDest;
    info.dest_pitch = 32;
    info.dest_height = 32;
    info.dest_format = dst;
  }
  bool is64() const {
    return !info.is_depth() &&
           xenos::IsColorRenderTargetFormat64bpp(ColorRenderTargetFormat(info.color_format));
  }
  uint32_t pitch_tiles() const {
    return xenos::SurfacePitchTiles(info.surface_pitch, xenos::MsaaSamples(info.msaa_samples),
                                    is64());
  }
  // Sets sample (col, row) of pixel (x, y) (hardware sample numbering: s = col * 2 + row).
  void SetSample(uint32_t x, uint32_t y, uint32_t col, uint32_t row, uint64_t bits) {
    uint32_t sxs = info.msaa_samples == 2 ? 2 : 1, sys = info.msaa_samples >= 1 ? 2 : 1;
    uint32_t base = info.is_depth() ? info.depth_base : info.color_base;
    uint32_t o = EdramOffset(base, pitch_tiles(), x * sxs + col, y * sys + row, is64(),
                             info.is_depth());
    StoreLE32(edram.bytes().data() + o, uint32_t(bits));
    if (is64()) StoreLE32(edram.bytes().data() + o + 4, uint32_t(bits >> 32));
  }
  void SetPixel(uint32_t x, uint32_t y, uint64_t bits) {
    uint32_t cols = info.msaa_samples == 2 ? 2 : 1, rows = info.msaa_samples >= 1 ? 2 : 1;
    for (uint32_t c = 0; c < cols; ++c) {
      for (uint32_t r = 0; r < rows; ++r) SetSample(x, y, c, r, bits);
    }
  }
  gpu::ResolveCopyResult Run() { return gpu::ResolveCopy(info, edram, guest.Access()); }
  std::vector<uint8_t> Bytes(uint32_t offset, uint32_t n) {
    std::vector<uint8_t> v(n);
    guest.Read(kDest + offset, v);
    return v;
  }
  uint32_t Dword(uint32_t offset) {
    uint8_t b[4];
    guest.Read(kDest + offset, b);
    return LoadLE32(b);
  }
  uint32_t Word(uint32_t offset) {
    uint8_t b[2];
    guest.Read(kDest + offset, b);
    return uint32_t(b[0]) | uint32_t(b[1]) << 8;
  }
  // Destination byte offset of pixel (x, y), bpp log2 of the format.
  uint32_t At(uint32_t x, uint32_t y, uint32_t bpp_log2) {
    return uint32_t(gpu::TiledOffset2D(int32_t(x), int32_t(y), info.dest_pitch, bpp_log2));
  }
};

TEST(ResolveEngine, TiledOffsetsUsedByTheTestsMatchHandValues) {
  // 32bpp: 4 texels per 16 bytes, the next 4 at +32, odd rows at +16, x 8..15 in the next pipe.
  EXPECT_EQ(gpu::TiledOffset2D(0, 0, 32, 2), 0);
  EXPECT_EQ(gpu::TiledOffset2D(1, 0, 32, 2), 4);
  EXPECT_EQ(gpu::TiledOffset2D(4, 0, 32, 2), 32);
  EXPECT_EQ(gpu::TiledOffset2D(0, 1, 32, 2), 16);
  EXPECT_EQ(gpu::TiledOffset2D(8, 0, 32, 2), 64);
}

TEST(ResolveEngine, Bitwise8888CopiesEveryPixelToItsTiledAddress) {
  Rig r(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) r.SetPixel(x, y, 0xA0B0C000u | (y << 4) | x);
  }
  auto res = r.Run();
  EXPECT_TRUE(res.bitwise);
  EXPECT_EQ(res.pixels, 64u);
  EXPECT_EQ(res.bytes_written, 256u);
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      EXPECT_EQ(r.Dword(r.At(x, y, 2)), 0xA0B0C000u | (y << 4) | x) << x << "," << y;
    }
  }
  EXPECT_EQ(r.Dword(0), 0xA0B0C000u);
  EXPECT_EQ(r.Dword(32), 0xA0B0C004u);  // pixel (4, 0)
  EXPECT_EQ(r.Dword(16), 0xA0B0C010u);  // pixel (0, 1)
}

TEST(ResolveEngine, RectangleOffsetAndSourceBaseAndPitch) {
  // Source: colour base tile 3, pitch 160 (2 tiles); rectangle x 80..88, y 16..24 (second tile
  // column, second tile row: tile 3 + 1 * 2 + 1 = 6).
  Rig r(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8, 0, 160);
  r.info.color_base = 3;
  r.info.x0 = 80;
  r.info.x1 = 88;
  r.info.y0 = 16;
  r.info.y1 = 24;
  r.info.dest_pitch = 160;
  StoreLE32(r.edram.bytes().data() + 6 * 5120 + (0 * 80 + 0) * 4, 0x11223344u);   // (80, 16)
  StoreLE32(r.edram.bytes().data() + 6 * 5120 + (7 * 80 + 7) * 4, 0x55667788u);   // (87, 23)
  r.Run();
  EXPECT_EQ(r.Dword(uint32_t(gpu::TiledOffset2D(80, 16, 160, 2))), 0x11223344u);
  EXPECT_EQ(r.Dword(uint32_t(gpu::TiledOffset2D(87, 23, 160, 2))), 0x55667788u);
}

TEST(ResolveEngine, EveryEndian128Mode) {
  struct Case {
    Endian128 endian;
    std::vector<uint8_t> first16;  // bytes 0..15 of the destination (pixels 0..3 of row 0)
  };
  // Pixels 0..3 hold 0x11223344 + i (little-endian bytes 44+i 33 22 11).
  const std::vector<Case> cases = {
      {Endian128::kNone, {0x44, 0x33, 0x22, 0x11, 0x45, 0x33, 0x22, 0x11, 0x46, 0x33, 0x22, 0x11,
                          0x47, 0x33, 0x22, 0x11}},
      {Endian128::k8in16, {0x33, 0x44, 0x11, 0x22, 0x33, 0x45, 0x11, 0x22, 0x33, 0x46, 0x11, 0x22,
                           0x33, 0x47, 0x11, 0x22}},
      {Endian128::k8in32, {0x11, 0x22, 0x33, 0x44, 0x11, 0x22, 0x33, 0x45, 0x11, 0x22, 0x33, 0x46,
                           0x11, 0x22, 0x33, 0x47}},
      {Endian128::k16in32, {0x22, 0x11, 0x44, 0x33, 0x22, 0x11, 0x45, 0x33, 0x22, 0x11, 0x46,
                            0x33, 0x22, 0x11, 0x47, 0x33}},
      // 8in64: bytes reversed within 8: pixel 1's bytes first.
      {Endian128::k8in64, {0x11, 0x22, 0x33, 0x45, 0x11, 0x22, 0x33, 0x44, 0x11, 0x22, 0x33, 0x47,
                           0x11, 0x22, 0x33, 0x46}},
      // 8in128: the whole block reversed: pixel 3 first.
      {Endian128::k8in128, {0x11, 0x22, 0x33, 0x47, 0x11, 0x22, 0x33, 0x46, 0x11, 0x22, 0x33,
                            0x45, 0x11, 0x22, 0x33, 0x44}},
  };
  for (const auto& c : cases) {
    Rig r(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
    for (uint32_t x = 0; x < 4; ++x) r.SetPixel(x, 0, 0x11223344u + x);
    r.info.dest_endian = c.endian;
    r.Run();
    EXPECT_EQ(r.Bytes(0, 16), c.first16) << "endian " << uint32_t(c.endian);
  }
  Rig bad(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
  bad.info.dest_endian = Endian128(6);
  EXPECT_THROW(bad.Run(), Error);
}

TEST(ResolveEngine, RedBlueSwapOnRawBits) {
  Rig a(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
  a.SetPixel(0, 0, 0xAABBCCDDu);
  a.info.dest_swap = true;
  EXPECT_TRUE(a.Run().bitwise);
  EXPECT_EQ(a.Dword(0), 0xAADDCCBBu);
  // 2_10_10_10: R 0x3FF, G 5, B 1, A 2 -> R 1, B 0x3FF.
  Rig b(ColorRenderTargetFormat::k_2_10_10_10, TextureFormat::k_2_10_10_10);
  b.SetPixel(0, 0, 0x3FFu | (5u << 10) | (1u << 20) | (2u << 30));
  b.info.dest_swap = true;
  EXPECT_TRUE(b.Run().bitwise);
  EXPECT_EQ(b.Dword(0), 1u | (5u << 10) | (0x3FFu << 20) | (2u << 30));
  // 16_16_16_16_FLOAT: the R and B halves trade places (low 16 bits of the two dwords).
  Rig c(ColorRenderTargetFormat::k_16_16_16_16_FLOAT, TextureFormat::k_16_16_16_16_FLOAT);
  c.SetPixel(0, 0, 0x4444333322221111ull);
  c.info.dest_swap = true;
  EXPECT_TRUE(c.Run().bitwise);
  EXPECT_EQ(c.Dword(0), 0x22223333u);
  EXPECT_EQ(c.Dword(4), 0x44441111u);
}

TEST(ResolveEngine, BitwisePathKeepsFloatPayloadsAndGammaBits) {
  Rig h(ColorRenderTargetFormat::k_16_16_16_16_FLOAT, TextureFormat::k_16_16_16_16_FLOAT);
  h.SetPixel(1, 0, 0x7E01FC00BC003C00ull);  // NaN with payload, -inf, -1, 1
  EXPECT_TRUE(h.Run().bitwise);
  EXPECT_EQ(h.Dword(h.At(1, 0, 3)), 0xBC003C00u);
  EXPECT_EQ(h.Dword(h.At(1, 0, 3) + 4), 0x7E01FC00u);
  Rig f(ColorRenderTargetFormat::k_32_FLOAT, TextureFormat::k_32_FLOAT);
  f.SetPixel(0, 0, 0x7FC12345u);
  EXPECT_TRUE(f.Run().bitwise);
  EXPECT_EQ(f.Dword(0), 0x7FC12345u);
  Rig g(ColorRenderTargetFormat::k_8_8_8_8_GAMMA, TextureFormat::k_8_8_8_8);
  g.SetPixel(0, 0, 0x80402010u);
  EXPECT_TRUE(g.Run().bitwise);
  EXPECT_EQ(g.Dword(0), 0x80402010u);  // the gamma-encoded bits, not linearised
}

TEST(ResolveEngine, FullPathConversions32bppSources) {
  // 8_8_8_8 R 0x40 G 0x80 B 0xFF A 0x00 -> 5_6_5: R 64*31/255+.5 = 8, G 128*63/255+.5 = 32,
  // B 31 -> 8 | 32 << 5 | 31 << 11 = 0xFC08.
  Rig a(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_5_6_5);
  a.SetPixel(0, 0, 0x00FF8040u);
  EXPECT_FALSE(a.Run().bitwise);
  EXPECT_EQ(a.Word(a.At(0, 0, 1)), 0xFC08u);
  // k_8_8: R | G << 8.
  Rig b(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8);
  b.SetPixel(0, 0, 0x00FF8040u);
  b.Run();
  EXPECT_EQ(b.Word(0), 0x8040u);
  // k_4_4_4_4: R 0xFF -> 15, G 0, B 0x88 -> 136*15/255+.5 = 8, A 0x11 -> 17*15/255+.5 = 1.
  Rig c(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_4_4_4_4);
  c.SetPixel(0, 0, 0x118800FFu);
  c.Run();
  EXPECT_EQ(c.Word(0), 0x180Fu);
  // k_1_5_5_5: R 31, G 0, B 31, A 128/255 + .5 -> 1.
  Rig d(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_1_5_5_5);
  d.SetPixel(0, 0, 0x80FF00FFu);
  d.Run();
  EXPECT_EQ(d.Word(0), 0xFC1Fu);
  // k_6_5_5: R 5 bits 31, G 5 bits 0, B 6 bits 128*63/255+.5 = 32.
  Rig e(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_6_5_5);
  e.SetPixel(0, 0, 0x008000FFu);
  e.Run();
  EXPECT_EQ(e.Word(0), 0x801Fu);
  // Gamma source, full path: the gamma bits read as unorm: 0x80 -> 128*1023/255+.5 = 514.
  Rig g(ColorRenderTargetFormat::k_8_8_8_8_GAMMA, TextureFormat::k_2_10_10_10);
  g.SetPixel(0, 0, 0xFF000080u);
  EXPECT_FALSE(g.Run().bitwise);
  EXPECT_EQ(g.Dword(0), 514u | (3u << 30));
  // 7e3: R 1.0 (0x180), G 2.0 (0x200), B 0.5 (0x100), A 3 -> 16_16_16_16_FLOAT halves.
  uint32_t f7e3 = 0x180u | (0x200u << 10) | (0x100u << 20) | (3u << 30);
  Rig h(ColorRenderTargetFormat::k_2_10_10_10_FLOAT, TextureFormat::k_16_16_16_16_FLOAT);
  h.SetPixel(0, 0, f7e3);
  h.Run();
  EXPECT_EQ(h.Dword(0), 0x40003C00u);
  EXPECT_EQ(h.Dword(4), 0x3C003800u);
  // ... and into 2_10_10_10 (saturating 2.0): 1023, 1023, 0.5*1023+.5 = 512, 3.
  Rig i(ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16, TextureFormat::k_2_10_10_10);
  i.SetPixel(0, 0, f7e3);
  EXPECT_FALSE(i.Run().bitwise);
  EXPECT_EQ(i.Dword(0), 1023u | (1023u << 10) | (512u << 20) | (3u << 30));
  // 2_10_10_10_AS_10_10_10_10 R 1023 G 0 B 512 -> 10_11_11 (R 11 bits, G 11, B 10): 2047, 0,
  // 512 ; -> 11_11_10 (R 10, G 11, B 11): 1023, 0, 512*2047/1023+.5 = 1025.
  uint32_t i10 = 1023u | (512u << 20);
  Rig j(ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10, TextureFormat::k_10_11_11);
  j.SetPixel(0, 0, i10);
  j.Run();
  EXPECT_EQ(j.Dword(0), 2047u | (512u << 22));
  Rig k(ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10, TextureFormat::k_11_11_10);
  k.SetPixel(0, 0, i10);
  k.Run();
  EXPECT_EQ(k.Dword(0), 1023u | (1025u << 21));
  // 16_16 (-32..32 fixed): R 0x7FFF = 32, G 0x0400 = 1024 * 32 / 32767 -> 16_16_FLOAT: half(32)
  // = 0x5000, half(1.00003) = 0x3C00; -> 8_8_8_8: 255, 255, and B/A read as 0 (not 1).
  Rig l(ColorRenderTargetFormat::k_16_16, TextureFormat::k_16_16_FLOAT);
  l.SetPixel(0, 0, 0x04007FFFu);
  l.Run();
  EXPECT_EQ(l.Dword(0), 0x3C005000u);
  Rig m(ColorRenderTargetFormat::k_16_16, TextureFormat::k_8_8_8_8);
  m.SetPixel(0, 0, 0x04007FFFu);
  EXPECT_FALSE(m.Run().bitwise);
  EXPECT_EQ(m.Dword(0), 0x0000FFFFu);
  // ... -> k_16 (R unorm): 65535; a negative value saturates to 0.
  Rig n(ColorRenderTargetFormat::k_16_16, TextureFormat::k_16);
  n.SetPixel(0, 0, 0x7FFFu);
  n.SetPixel(1, 0, 0x8001u);
  n.Run();
  EXPECT_EQ(n.Word(n.At(0, 0, 1)), 0xFFFFu);
  EXPECT_EQ(n.Word(n.At(1, 0, 1)), 0u);
  // 16_16_FLOAT 1.0, -2.0 -> 32_32_FLOAT.
  Rig o(ColorRenderTargetFormat::k_16_16_FLOAT, TextureFormat::k_32_32_FLOAT);
  o.SetPixel(0, 0, 0xC0003C00u);
  EXPECT_FALSE(o.Run().bitwise);
  EXPECT_EQ(o.Dword(0), 0x3F800000u);
  EXPECT_EQ(o.Dword(4), 0xC0000000u);
  // 32_FLOAT 1.5 -> 16_FLOAT 0x3E00.
  Rig p(ColorRenderTargetFormat::k_32_FLOAT, TextureFormat::k_16_FLOAT);
  p.SetPixel(0, 0, std::bit_cast<uint32_t>(1.5f));
  p.Run();
  EXPECT_EQ(p.Word(0), 0x3E00u);
}

TEST(ResolveEngine, FullPathConversions64bppSources) {
  // 16_16_16_16 fixed: R 0x4000 = 16.0005 -> 65535, G 0 -> 0, B 0xFFFF (-0.001) -> 0,
  // A 0x0100 = 0.25001 -> 0.25001 * 65535 + .5 = 16384.
  Rig a(ColorRenderTargetFormat::k_16_16_16_16, TextureFormat::k_16_16_16_16);
  a.SetPixel(0, 0, 0x0100FFFF00004000ull);
  EXPECT_FALSE(a.Run().bitwise);
  EXPECT_EQ(a.Dword(0), 0x0000FFFFu);
  EXPECT_EQ(a.Dword(4), 0x40000000u);
  // 32_32_FLOAT 3.0, -1.0 -> 32_32_32_32_FLOAT (B and A read as 0).
  Rig b(ColorRenderTargetFormat::k_32_32_FLOAT, TextureFormat::k_32_32_32_32_FLOAT);
  b.SetPixel(0, 0, uint64_t(std::bit_cast<uint32_t>(-1.0f)) << 32 | std::bit_cast<uint32_t>(3.0f));
  b.Run();
  EXPECT_EQ(b.Bytes(0, 16), (std::vector<uint8_t>{0, 0, 0x40, 0x40, 0, 0, 0x80, 0xBF, 0, 0, 0,
                                                  0, 0, 0, 0, 0}));
  // Pixel 41 of a 64bpp surface of pitch 80 lives in the second tile (40 samples per tile).
  Rig c(ColorRenderTargetFormat::k_16_16_16_16_FLOAT, TextureFormat::k_16_16_16_16_FLOAT);
  c.info.x0 = 40;
  c.info.x1 = 48;
  c.info.dest_pitch = 64;
  StoreLE32(c.edram.bytes().data() + 5120 + 8, 0x12345678u);
  StoreLE32(c.edram.bytes().data() + 5120 + 12, 0x9ABCDEF0u);
  c.Run();
  uint32_t o = uint32_t(gpu::TiledOffset2D(41, 0, 64, 3));
  EXPECT_EQ(c.Dword(o), 0x12345678u);
  EXPECT_EQ(c.Dword(o + 4), 0x9ABCDEF0u);
}

TEST(ResolveEngine, EightBitDestinationsTakeOneChannelAndAreNotSwapped) {
  // R 0x40, B 0xC0; with the swap blue is taken; 8bpp stores are not endian-swapped.
  Rig a(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8);
  for (uint32_t x = 0; x < 8; ++x) a.SetPixel(x, 0, 0x00C00040u + x);
  a.info.dest_endian = Endian128::k8in32;
  a.Run();
  for (uint32_t x = 0; x < 8; ++x) {
    EXPECT_EQ(a.Bytes(uint32_t(gpu::TiledOffset2D(int32_t(x), 0, 32, 0)), 1)[0], 0x40 + x) << x;
  }
  Rig b(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_A);
  b.SetPixel(0, 0, 0x00C00040u);
  b.info.dest_swap = true;
  b.Run();
  EXPECT_EQ(b.Bytes(0, 1)[0], 0xC0);
  // 16_16 has no blue: the swap keeps red (resolve.xesli), 0x7FFF -> 255.
  Rig c(ColorRenderTargetFormat::k_16_16, TextureFormat::k_8_B);
  c.SetPixel(0, 0, 0x00007FFFu);
  c.info.dest_swap = true;
  c.Run();
  EXPECT_EQ(c.Bytes(0, 1)[0], 0xFF);
}

TEST(ResolveEngine, ExponentBias) {
  // 8_8_8_8 R 0x40 G 0x10 B 0xFF A 0x80 with bias +1: 128, 32, 255 (saturated), 255; bias -2:
  // 16, 4, 64, 32 (quarter, + .5 truncated).
  Rig a(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
  a.SetPixel(0, 0, 0x80FF1040u);
  a.info.dest_exp_bias = 1;
  EXPECT_FALSE(a.Run().bitwise);
  EXPECT_EQ(a.Dword(0), 0xFFFF2080u);
  Rig b(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
  b.SetPixel(0, 0, 0x80FF1040u);
  b.info.dest_exp_bias = -2;
  b.Run();
  EXPECT_EQ(b.Dword(0), 0x20400410u);
  // Float formats scale exactly: 16_16_FLOAT 1.5 with bias 4 -> 24.0 (0x4E00); a bias takes
  // the copy off the bitwise path even for the same format.
  Rig c(ColorRenderTargetFormat::k_16_16_FLOAT, TextureFormat::k_16_16_FLOAT);
  c.SetPixel(0, 0, 0x3E003E00u);
  c.info.dest_exp_bias = 4;
  EXPECT_FALSE(c.Run().bitwise);
  EXPECT_EQ(c.Dword(0), 0x4E004E00u);
  // The register field is 6-bit signed: -32 gives 2^-32.
  Rig d(ColorRenderTargetFormat::k_32_FLOAT, TextureFormat::k_32_FLOAT);
  d.SetPixel(0, 0, std::bit_cast<uint32_t>(1.0f));
  d.info.dest_exp_bias = -32;
  d.Run();
  EXPECT_EQ(d.Dword(0), std::bit_cast<uint32_t>(std::ldexp(1.0f, -32)));
}

TEST(ResolveEngine, Msaa4xSampleSelectAndAveraging) {
  // Sample (column, row) of pixel (1, 2): (0,0) 0x10, (0,1) 0x20, (1,0) 0x40, (1,1) 0x80 in red.
  // Hardware numbering: sample 1 is below sample 0, sample 2 right of it.
  auto run = [](CopySampleSelect select, int32_t bias) {
    Rig r(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8, 2, 40);
    r.info.dest_exp_bias = bias;
    r.info.sample_select = select;
    r.SetSample(1, 2, 0, 0, 0xFF000010u);
    r.SetSample(1, 2, 0, 1, 0xFF000020u);
    r.SetSample(1, 2, 1, 0, 0xFF000040u);
    r.SetSample(1, 2, 1, 1, 0xFF000080u);
    r.Run();
    return r.Dword(r.At(1, 2, 2));
  };
  EXPECT_EQ(run(CopySampleSelect::k0, 0), 0xFF000010u);
  EXPECT_EQ(run(CopySampleSelect::k1, 0), 0xFF000020u);
  EXPECT_EQ(run(CopySampleSelect::k2, 0), 0xFF000040u);
  EXPECT_EQ(run(CopySampleSelect::k3, 0), 0xFF000080u);
  EXPECT_EQ(run(CopySampleSelect::k01, 0), 0xFF000018u);    // (16 + 32) / 2 = 24
  EXPECT_EQ(run(CopySampleSelect::k23, 0), 0xFF000060u);    // (64 + 128) / 2 = 96
  EXPECT_EQ(run(CopySampleSelect::k0123, 0), 0xFF00003Cu);  // 240 / 4 = 60
  EXPECT_EQ(run(CopySampleSelect::k0123, 1), 0xFF000078u);  // with bias +1: 120, alpha saturates
  // Float averaging, 16_16_FLOAT 1.0, 2.0, 4.0, 8.0 -> 3.75 (0x4380) exactly.
  Rig f(ColorRenderTargetFormat::k_16_16_FLOAT, TextureFormat::k_16_16_FLOAT, 2, 40);
  f.info.sample_select = CopySampleSelect::k0123;
  f.SetSample(0, 0, 0, 0, 0x3C00u);
  f.SetSample(0, 0, 0, 1, 0x4000u);
  f.SetSample(0, 0, 1, 0, 0x4400u);
  f.SetSample(0, 0, 1, 1, 0x4800u);
  EXPECT_FALSE(f.Run().bitwise);
  EXPECT_EQ(f.Dword(0), 0x00004380u);
}

TEST(ResolveEngine, AveragedNaNsKeepTheEarlierOperand) {
  // IEEE 754 leaves open which NaN an add of two NaNs gives; the engine keeps the earlier operand
  // of the sum (s0 + s1, then the sum + s2, + s3), quieted, whatever order the compiler adds in;
  // inf - inf is 0xFFC00000. The halving keeps a NaN's payload.
  Rig a(ColorRenderTargetFormat::k_32_32_FLOAT, TextureFormat::k_32_32_FLOAT, 1, 80);
  a.info.sample_select = CopySampleSelect::k01;
  a.SetSample(0, 0, 0, 0, 0x7F800000FF93E9A1ull);  // R signalling NaN, G +inf
  a.SetSample(0, 0, 0, 1, 0xFF800000FFF9F41Dull);  // R quiet NaN, G -inf
  a.SetSample(1, 0, 0, 0, 0x000000007FC00001ull);  // R quiet NaN
  a.SetSample(1, 0, 0, 1, 0x000000007F800001ull);  // R signalling NaN
  EXPECT_FALSE(a.Run().bitwise);
  EXPECT_EQ(a.Dword(a.At(0, 0, 3)), 0xFFD3E9A1u);
  EXPECT_EQ(a.Dword(a.At(0, 0, 3) + 4), 0xFFC00000u);
  EXPECT_EQ(a.Dword(a.At(1, 0, 3)), 0x7FC00001u);
  // 4x 0123: sample 0 is 1.0, samples 1 and 2 NaNs: the running sum's (sample 1's) NaN stays.
  Rig b(ColorRenderTargetFormat::k_32_FLOAT, TextureFormat::k_32_FLOAT, 2, 40);
  b.info.sample_select = CopySampleSelect::k0123;
  b.SetSample(0, 0, 0, 0, 0x3F800000u);
  b.SetSample(0, 0, 0, 1, 0xFF812345u);
  b.SetSample(0, 0, 1, 0, 0x7FC54321u);
  b.SetSample(0, 0, 1, 1, 0x3F800000u);
  EXPECT_FALSE(b.Run().bitwise);
  EXPECT_EQ(b.Dword(0), 0xFFC12345u);
}

TEST(ResolveEngine, Msaa2xSamplesAreRows) {
  auto run = [](CopySampleSelect select) {
    Rig r(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8, 1, 80);
    r.info.sample_select = select;
    r.SetSample(3, 5, 0, 0, 0x00000010u);
    r.SetSample(3, 5, 0, 1, 0x00000030u);
    r.Run();
    return r.Dword(r.At(3, 5, 2));
  };
  EXPECT_EQ(run(CopySampleSelect::k0), 0x10u);
  EXPECT_EQ(run(CopySampleSelect::k1), 0x30u);
  EXPECT_EQ(run(CopySampleSelect::k01), 0x20u);
}

TEST(ResolveEngine, SampleSelectSanitising) {
  using M = xenos::MsaaSamples;
  // 1x: always sample 0.
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(3, M::k1X, false), CopySampleSelect::k0);
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(6, M::k1X, false), CopySampleSelect::k0);
  // 2x: 2 -> 0, 3 -> 1, 23 / 0123 / 7 -> 01; depth 01 -> 0.
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(2, M::k2X, false), CopySampleSelect::k0);
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(3, M::k2X, false), CopySampleSelect::k1);
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(6, M::k2X, false), CopySampleSelect::k01);
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(7, M::k2X, false), CopySampleSelect::k01);
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(6, M::k2X, true), CopySampleSelect::k0);
  // 4x: 7 -> 0123; depth 01 / 0123 -> 0, 23 -> 2.
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(7, M::k4X, false), CopySampleSelect::k0123);
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(5, M::k4X, false), CopySampleSelect::k23);
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(6, M::k4X, true), CopySampleSelect::k0);
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(5, M::k4X, true), CopySampleSelect::k2);
  EXPECT_EQ(gpu::SanitizeCopySampleSelect(3, M::k4X, true), CopySampleSelect::k3);
}

TEST(ResolveEngine, DepthCopiesRawDwordsAsK24_8) {
  // D24S8 at base tile 2, pitch 80: depth column x sits at (x + 40) % 80 of the tile. The
  // destination format register says k_8_8_8_8 (as Direct3D writes it); the copy is k_24_8.
  Rig r(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
  r.info.source_select = 4;
  r.info.depth_base = 2;
  r.info.depth_format = uint32_t(xenos::DepthRenderTargetFormat::kD24S8);
  r.info.dest_swap = true;          // ignored for depth
  r.info.dest_exp_bias = 3;         // ignored for depth
  r.info.dest_endian = Endian128::k8in32;
  StoreLE32(r.edram.bytes().data() + 2 * 5120 + (0 * 80 + 40) * 4, 0x123456ABu);  // (0, 0)
  StoreLE32(r.edram.bytes().data() + 2 * 5120 + (3 * 80 + 45) * 4, 0xFFFFFF01u);  // (5, 3)
  EXPECT_EQ(r.info.dest_format_effective(), TextureFormat::k_24_8);
  auto res = r.Run();
  EXPECT_TRUE(res.bitwise);
  EXPECT_EQ(r.Bytes(0, 4), (std::vector<uint8_t>{0x12, 0x34, 0x56, 0xAB}));  // 8in32
  EXPECT_EQ(LoadBE32(r.Bytes(r.At(5, 3, 2), 4).data()), 0xFFFFFF01u);
  // D24FS8 -> k_24_8_FLOAT, 4x MSAA sample 3 (column 1, row 1).
  Rig f(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8, 2, 40);
  f.info.source_select = 4;
  f.info.depth_format = uint32_t(xenos::DepthRenderTargetFormat::kD24FS8);
  f.info.sample_select = CopySampleSelect::k3;
  f.SetSample(0, 0, 1, 1, 0x00ABCD42u);
  f.SetSample(0, 0, 0, 0, 0x11111111u);
  EXPECT_EQ(f.info.dest_format_effective(), TextureFormat::k_24_8_FLOAT);
  f.Run();
  EXPECT_EQ(f.Dword(0), 0x00ABCD42u);
}

TEST(ResolveEngine, TiledOffset3DIsABijectionOnAMacroTile) {
  for (uint32_t bpb_log2 = 0; bpb_log2 <= 4; ++bpb_log2) {
    std::set<int32_t> seen;
    for (int32_t z = 0; z < 4; ++z) {
      for (int32_t y = 0; y < 32; ++y) {
        for (int32_t x = 0; x < 32; ++x) {
          int32_t o = gpu::TiledOffset3D(x, y, z, 32, 32, bpb_log2);
          ASSERT_GE(o, 0);
          ASSERT_LT(o, int32_t((32 * 32 * 4) << bpb_log2));
          ASSERT_EQ(o & ((1 << bpb_log2) - 1), 0);
          seen.insert(o);
        }
      }
    }
    EXPECT_EQ(seen.size(), 32u * 32u * 4u) << bpb_log2;
  }
  // The next macro tile along x starts after a whole 32x32x4 block; slices 4..7 after the
  // (pitch/32) * (height/16) ... row of macro tiles.
  EXPECT_EQ(gpu::TiledOffset3D(0, 0, 0, 64, 32, 2), 0);
  EXPECT_EQ(gpu::TiledOffset3D(32, 0, 0, 64, 32, 2) % 4096, 0);
  EXPECT_NE(gpu::TiledOffset3D(0, 0, 4, 64, 32, 2), gpu::TiledOffset3D(0, 0, 0, 64, 32, 2));
}

TEST(ResolveEngine, ArrayDestinationWritesTheSlice) {
  Rig r(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
  r.info.dest_array = true;
  r.info.dest_slice = 2;
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) r.SetPixel(x, y, 0xC0000000u | (y << 8) | x);
  }
  r.Run();
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      uint32_t o = uint32_t(gpu::TiledOffset3D(int32_t(x), int32_t(y), 2, 32, 32, 2));
      EXPECT_EQ(r.Dword(o), 0xC0000000u | (y << 8) | x);
    }
  }
  // Slice 0's first texel stays untouched.
  EXPECT_EQ(r.Dword(uint32_t(gpu::TiledOffset3D(0, 0, 0, 32, 32, 2))), 0u);
}

TEST(ResolveEngine, LinearDestination) {
  // Pitch 64 texels of 4 bytes: rows are 256 bytes apart.
  Rig r(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
  r.info.dest_linear = true;
  r.info.dest_pitch = 64;
  r.SetPixel(3, 2, 0xDEADBEEFu);
  r.SetPixel(7, 7, 0x01020304u);
  r.Run();
  EXPECT_EQ(r.Dword(2 * 256 + 12), 0xDEADBEEFu);
  EXPECT_EQ(r.Dword(7 * 256 + 28), 0x01020304u);
}

TEST(ResolveEngine, BadDestinationsAreErrors) {
  Rig r(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
  r.info.dest_base = 0x1FFFFF00u;  // the 8x8 block runs past 512 MiB
  EXPECT_THROW(r.Run(), Error);
  Rig n(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8);
  n.info.dest_base = 0;
  n.info.x0 = -64;  // D3D moves the base; a negative offset below address 0 is an error
  n.info.x1 = -56;
  EXPECT_THROW(n.Run(), Error);
  // A rectangle with more pixels than the EDRAM has samples (corrupt vertices): refused.
  Rig big(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8, 0, 16376);
  big.info.x1 = 16376;
  big.info.y1 = 16376;
  EXPECT_THROW(big.Run(), Error);
  Rig u(ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_DXT1);
  u.info.unsupported = "x";
  EXPECT_THROW(u.Run(), Error);
  EXPECT_EQ(gpu::ResolveDestBytesPerPixel(TextureFormat::k_DXT1), 0u);
  EXPECT_EQ(gpu::ResolveDestBytesPerPixel(TextureFormat::k_32_32_32_32_FLOAT), 16u);
  uint8_t out[16];
  EXPECT_THROW(gpu::PackResolveDest(TextureFormat::k_CTX1, {0, 0, 0, 0}, out), Error);
}

// ---- Registers -----------------------------------------------------------------------------

struct RegRig {
  std::vector<uint32_t> regs = std::vector<uint32_t>(0x10000, 0);
  test::FakeGuest guest;
  void Set(xenos::Reg r, uint32_t v) { regs[xenos::RegIndex(r)] = v; }
  RegRig() {
    guest.WriteBEFloats(0x20000, {0.0f, 0.0f, 64.0f, 0.0f, 64.0f, 32.0f});
    regs[xenos::VertexFetchConstantIndex(0)] = 3u | 0x20000u;
    regs[xenos::VertexFetchConstantIndex(0) + 1] = 2u | (6u << 2);
    Set(xenos::Reg::RB_SURFACE_INFO, 128u);
    Set(xenos::Reg::PA_SC_WINDOW_SCISSOR_BR, 8192u | (8192u << 16));
  }
  gpu::ResolveInfo Info() { return gpu::ComputeResolveInfo(regs, guest.Access()); }
};

TEST(ResolveRegisters, DecodesDestinationAndSanitisesTheSampleSelect) {
  RegRig r;
  r.Set(xenos::Reg::RB_SURFACE_INFO, 128u | (1u << 16));  // 2x
  r.Set(xenos::Reg::RB_COPY_CONTROL, 1u | (6u << 4));     // source 1, select 0123
  r.Set(xenos::Reg::RB_COLOR1_INFO, 7u | (uint32_t(ColorRenderTargetFormat::k_16_16_FLOAT) << 16));
  xenos::reg::RB_COPY_DEST_INFO d{Endian128::k8in64, true, 5, TextureFormat::k_16_16_FLOAT,
                                  xenos::SurfaceNumberFormat::kFloat, -3, true};
  r.Set(xenos::Reg::RB_COPY_DEST_INFO, d.Encode());
  gpu::ResolveInfo info = r.Info();
  EXPECT_TRUE(info.unsupported.empty()) << info.unsupported;
  EXPECT_EQ(info.x1, 64);
  EXPECT_EQ(info.y1, 32);
  EXPECT_EQ(info.color_base, 7u);
  EXPECT_EQ(info.dest_endian, Endian128::k8in64);
  EXPECT_TRUE(info.dest_array);
  EXPECT_EQ(info.dest_slice, 5u);
  EXPECT_EQ(info.dest_number, xenos::SurfaceNumberFormat::kFloat);
  EXPECT_EQ(info.dest_exp_bias, -3);
  EXPECT_TRUE(info.dest_swap);
  EXPECT_EQ(info.sample_select_raw, 6u);
  EXPECT_EQ(info.sample_select, CopySampleSelect::k01);
  EXPECT_NE(info.note.find("treated as 4"), std::string::npos) << info.note;
  EXPECT_FALSE(gpu::ResolveIsBitwiseCopy(info));
}

TEST(ResolveRegisters, UnsupportedDestinationsAndSourcesAreNamed) {
  RegRig r;
  xenos::reg::RB_COPY_DEST_INFO d{Endian128::kNone, false, 0, TextureFormat::k_DXT1,
                                  xenos::SurfaceNumberFormat::kUnsignedRepeatingFraction, 0,
                                  false};
  r.Set(xenos::Reg::RB_COPY_DEST_INFO, d.Encode());
  gpu::ResolveInfo info = r.Info();
  EXPECT_NE(info.unsupported.find("k_DXT1"), std::string::npos) << info.unsupported;
  // Depth ignores the register's format (k_24_8 is used), so the same register is fine there.
  r.Set(xenos::Reg::RB_COPY_CONTROL, 4u);
  info = r.Info();
  EXPECT_TRUE(info.unsupported.empty()) << info.unsupported;
  EXPECT_EQ(info.dest_format_effective(), TextureFormat::k_24_8);
  r.Set(xenos::Reg::RB_COPY_CONTROL, 5u);
  EXPECT_NE(r.Info().unsupported.find("copy_src_select 5"), std::string::npos);
  r.Set(xenos::Reg::RB_COPY_CONTROL, 0u);
  r.Set(xenos::Reg::RB_SURFACE_INFO, 128u | (3u << 16));
  EXPECT_NE(r.Info().unsupported.find("msaa_samples 3"), std::string::npos);
}

}  // namespace
}  // namespace xnt::vk
