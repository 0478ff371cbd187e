// Tiled texture addressing against values worked from Xenia's texture_util.cc GetTiledOffset2D
// (cross-checked against Xenia's two implementations) and structural properties of the layout.
//
// The HandWorked tests below take their expectations from the hardware description, worked by
// hand in the comments, never from our functions' output. Source: Xenia
// src/xenia/gpu/texture_address.h (the 2026 description of a tiled address, quoted here) and
// texture_util.cc (GetGuestMipBlocks, GetGuestMipSliceStorageSize, GetPackedMipOffset).
//   Tiled address bits:  [:12] = oib[:8]   [11] = bank   [10:8] = oib[7:5]   [7:6] = pipe
//                        [5] = oib[4]      [4] = y & 1   [3:0] = oib[3:0]
//   oib ("outer_inner_bytes") = (outer | inner) << log2(bytes per block)
//   2D: outer = (x >> 5) + (pitch / 32) * (y >> 5), << 6;  inner = y[3:1] << 3 | x[2:0]
//       bank = y[4];  pipe = x[4:3] ^ (y[3] << 1)
//   3D: outer = (x >> 5) + (pitch / 32) * ((y >> 4) + (height / 16) * (z >> 2)), << 7
//       inner = z[1:0] << 5 | y[2:1] << 3 | x[2:0];  bank = y[3] ^ z[2];
//       pipe = x[4:3] ^ (bank << 1)   (pitch and height rounded up to 32 first)
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "xnt/base/error.h"
#include "xnt/gpu/texture_address.h"
#include "xnt/gpu/texture_descriptor.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk {
namespace {

TEST(TextureAddress, KnownOffsetsAt4BytesPerTexel) {
  const int32_t row0[8] = {0, 4, 8, 12, 32, 36, 40, 44};
  for (int32_t x = 0; x < 8; ++x) EXPECT_EQ(gpu::TiledOffset2D(x, 0, 32, 2), row0[x]) << x;
  const int32_t col0[4] = {0, 16, 256, 272};
  for (int32_t y = 0; y < 4; ++y) EXPECT_EQ(gpu::TiledOffset2D(0, y, 32, 2), col0[y]) << y;
}

TEST(TextureAddress, MacroTileIsABijectionOf4KiB) {
  // A 32x32 macro tile at 4 bytes per texel covers exactly the 4096 bytes after its start.
  std::set<int32_t> seen;
  for (int32_t y = 0; y < 32; ++y) {
    for (int32_t x = 0; x < 32; ++x) {
      int32_t o = gpu::TiledOffset2D(x, y, 64, 2);
      EXPECT_EQ(o % 4, 0);
      EXPECT_GE(o, 0);
      EXPECT_LT(o, 4096);
      seen.insert(o);
    }
  }
  EXPECT_EQ(seen.size(), 1024u);
  // Macro tiles are row-major: (32, 0) starts the second tile, (0, 32) the row after pitch/32.
  EXPECT_EQ(gpu::TiledOffset2D(32, 0, 64, 2), 4096);
  EXPECT_EQ(gpu::TiledOffset2D(0, 32, 64, 2), 2 * 4096);
  EXPECT_EQ(gpu::TiledOffset2D(0, 32, 50, 2), 2 * 4096);  // pitch rounds up to 64
}

TEST(TextureAddress, NegativeOffsetsMoveWholeTiles) {
  EXPECT_EQ(gpu::TiledOffset2D(-32, 0, 64, 2), -4096);
  EXPECT_EQ(gpu::TiledOffset2D(-32, 5, 64, 2), gpu::TiledOffset2D(0, 5, 64, 2) - 4096);
}

TEST(TextureAddress, LinearRowsAlignTo256Bytes) {
  EXPECT_EQ(gpu::LinearOffset2D(3, 0, 100, 2), 12u);
  EXPECT_EQ(gpu::LinearOffset2D(0, 1, 100, 2), 512u);
  EXPECT_EQ(gpu::LinearOffset2D(0, 2, 64, 2), 512u);
}

// ---- Hand-worked from the hardware description (see the top of this file) -------------------

TEST(TextureAddressHandWorked, OneBytePerTexel) {
  // B = 0, pitch 32.
  // (x, 0), x = 0..7: inner = x, oib = x -> bits [3:0] = x.
  for (int32_t x = 0; x < 8; ++x) EXPECT_EQ(gpu::TiledOffset2D(x, 0, 32, 0), x) << x;
  // (8, 0): x[4:3] = 1 -> pipe 1 -> bit 6 = 64. (16, 0): pipe 2 -> 128. (24, 0): pipe 3 -> 192.
  EXPECT_EQ(gpu::TiledOffset2D(8, 0, 32, 0), 64);
  EXPECT_EQ(gpu::TiledOffset2D(16, 0, 32, 0), 128);
  EXPECT_EQ(gpu::TiledOffset2D(24, 0, 32, 0), 192);
  // (0, 1): y & 1 -> bit 4 = 16.
  EXPECT_EQ(gpu::TiledOffset2D(0, 1, 32, 0), 16);
  // (0, 2): inner = 1 << 3 = 8 = oib -> bits [3:0] = 8.
  EXPECT_EQ(gpu::TiledOffset2D(0, 2, 32, 0), 8);
  // (0, 4): inner = 2 << 3 = 16 = oib -> oib[4] -> bit 5 = 32.
  EXPECT_EQ(gpu::TiledOffset2D(0, 4, 32, 0), 32);
  // (0, 8): inner = 4 << 3 = 32 -> oib[7:5] = 1 -> bit 8 = 256; y[3] = 1 -> pipe 2 -> 128. 384.
  EXPECT_EQ(gpu::TiledOffset2D(0, 8, 32, 0), 384);
  // (0, 16): y[3:1] = 0 -> inner 0; bank = y[4] = 1 -> bit 11 = 2048.
  EXPECT_EQ(gpu::TiledOffset2D(0, 16, 32, 0), 2048);
  // (32, 0), pitch 64: outer = 1 << 6 = 64 = oib -> oib[7:5] = 2 -> bits 10:8 = 512.
  EXPECT_EQ(gpu::TiledOffset2D(32, 0, 64, 0), 512);
  // (0, 32), pitch 32: outer = (1 * 1) << 6 = 64 -> 512 as well.
  EXPECT_EQ(gpu::TiledOffset2D(0, 32, 32, 0), 512);
  // (0, 128), pitch 32: outer = 4 << 6 = 256 -> oib >> 8 = 1 -> bit 12 = 4096.
  EXPECT_EQ(gpu::TiledOffset2D(0, 128, 32, 0), 4096);
}

TEST(TextureAddressHandWorked, TwoBytesPerTexel) {
  // B = 1, pitch 32. (x, 0), x = 0..7: oib = 2x -> [3:0] = 0, 2, ..., 14.
  for (int32_t x = 0; x < 8; ++x) EXPECT_EQ(gpu::TiledOffset2D(x, 0, 32, 1), 2 * x) << x;
  // (0, 2): inner 8 -> oib 16 -> oib[4] -> bit 5 = 32.
  EXPECT_EQ(gpu::TiledOffset2D(0, 2, 32, 1), 32);
  // (0, 4): inner 16 -> oib 32 -> oib[7:5] = 1 -> 256.
  EXPECT_EQ(gpu::TiledOffset2D(0, 4, 32, 1), 256);
  // (3, 5): inner = (5 >> 1 & 7) << 3 | 3 = 19 -> oib 38 = 0b100110: [3:0] = 6, oib[4] = 0,
  // oib[7:5] = 1 -> 256; y & 1 -> 16; pipe 0. 6 + 16 + 256 = 278.
  EXPECT_EQ(gpu::TiledOffset2D(3, 5, 32, 1), 278);
  // (9, 10): inner = 5 << 3 | 1 = 41 -> oib 82 = 0b1010010: [3:0] = 2, oib[4] = 1 -> 32,
  // oib[7:5] = 2 -> 512; y & 1 = 0; pipe = x[4:3] = 1 ^ (y[3] = 1) << 1 = 3 -> 192; bank 0.
  // 2 + 32 + 512 + 192 = 738.
  EXPECT_EQ(gpu::TiledOffset2D(9, 10, 32, 1), 738);
  // (32, 0), pitch 64: outer 64 -> oib 128 -> oib[7:5] = 4 -> 1024 (2 B: 64x64-block period).
  EXPECT_EQ(gpu::TiledOffset2D(32, 0, 64, 1), 1024);
}

TEST(TextureAddressHandWorked, EightBytesPerTexel) {
  // B = 3, pitch 32. (x, 0): oib = 8x.
  //   x=1: 8 -> [3:0] = 8.          x=2: 16 -> oib[4] -> 32.      x=3: 24 -> 8 + 32 = 40.
  //   x=4: 32 -> oib[7:5] = 1 -> 256.  x=5: 264.  x=6: 256 + 32 = 288.  x=7: 296.
  const int32_t row0[8] = {0, 8, 32, 40, 256, 264, 288, 296};
  for (int32_t x = 0; x < 8; ++x) EXPECT_EQ(gpu::TiledOffset2D(x, 0, 32, 3), row0[x]) << x;
  // (0, 1): 16.  (0, 2): inner 8 -> oib 64 -> oib[7:5] = 2 -> 512.
  // (0, 4): inner 16 -> oib 128 -> oib[7:5] = 4 -> 1024.
  // (0, 8): inner 32 -> oib 256 -> oib >> 8 = 1 -> 4096; y[3] -> pipe 2 -> 128. 4224.
  // (0, 16): bank -> 2048.  (8, 0): pipe 1 -> 64.
  EXPECT_EQ(gpu::TiledOffset2D(0, 1, 32, 3), 16);
  EXPECT_EQ(gpu::TiledOffset2D(0, 2, 32, 3), 512);
  EXPECT_EQ(gpu::TiledOffset2D(0, 4, 32, 3), 1024);
  EXPECT_EQ(gpu::TiledOffset2D(0, 8, 32, 3), 4224);
  EXPECT_EQ(gpu::TiledOffset2D(0, 16, 32, 3), 2048);
  EXPECT_EQ(gpu::TiledOffset2D(8, 0, 32, 3), 64);
  // (32, 0), pitch 64: outer 64 -> oib 512 -> oib >> 8 = 2 -> 8192 (a 32x32 tile of 8 B).
  EXPECT_EQ(gpu::TiledOffset2D(32, 0, 64, 3), 8192);
}

TEST(TextureAddressHandWorked, SixteenBytesPerTexel) {
  // B = 4, pitch 32.
  // (1, 0): oib 16 -> oib[4] -> 32.  (2, 0): oib 32 -> oib[7:5] = 1 -> 256.
  // (4, 0): oib 64 -> oib[7:5] = 2 -> 512.  (7, 0): oib 112 = 0b1110000 -> 32 + (3 << 8) = 800.
  EXPECT_EQ(gpu::TiledOffset2D(1, 0, 32, 4), 32);
  EXPECT_EQ(gpu::TiledOffset2D(2, 0, 32, 4), 256);
  EXPECT_EQ(gpu::TiledOffset2D(4, 0, 32, 4), 512);
  EXPECT_EQ(gpu::TiledOffset2D(7, 0, 32, 4), 800);
  // (0, 2): inner 8 -> oib 128 -> oib[7:5] = 4 -> 1024.
  // (0, 4): inner 16 -> oib 256 -> oib >> 8 = 1 -> 4096.
  // (0, 6): inner 24 -> oib 384: oib >> 8 = 1 -> 4096, oib[7:5] = 4 -> 1024. 5120.
  EXPECT_EQ(gpu::TiledOffset2D(0, 2, 32, 4), 1024);
  EXPECT_EQ(gpu::TiledOffset2D(0, 4, 32, 4), 4096);
  EXPECT_EQ(gpu::TiledOffset2D(0, 6, 32, 4), 5120);
  // (5, 3): inner = 1 << 3 | 5 = 13 -> oib 208 = 0b11010000: oib[4] = 1 -> 32,
  // oib[7:5] = 6 -> 1536; y & 1 -> 16. 1584.
  EXPECT_EQ(gpu::TiledOffset2D(5, 3, 32, 4), 1584);
  // (24, 16): pipe = x[4:3] = 3 -> 192; bank = y[4] -> 2048; inner 0. 2240.
  EXPECT_EQ(gpu::TiledOffset2D(24, 16, 32, 4), 2240);
  // (32, 0), pitch 64: outer 64 -> oib 1024 -> oib >> 8 = 4 -> 16384 (a 32x32 tile of 16 B).
  EXPECT_EQ(gpu::TiledOffset2D(32, 0, 64, 4), 16384);
}

TEST(TextureAddressHandWorked, ThreeDimensionalTiles) {
  // 4 B (B = 2), pitch 32, height 32 (height / 16 = 2 macro rows per 4-slice group).
  // (1, 0, 0): oib 4 -> 4.   (0, 1, 0): y & 1 -> 16.
  EXPECT_EQ(gpu::TiledOffset3D(1, 0, 0, 32, 32, 2), 4u);
  EXPECT_EQ(gpu::TiledOffset3D(0, 1, 0, 32, 32, 2), 16u);
  // (0, 2, 0): inner = y[2:1] = 1 << 3 = 8 -> oib 32 -> oib[7:5] = 1 -> 256.
  EXPECT_EQ(gpu::TiledOffset3D(0, 2, 0, 32, 32, 2), 256u);
  // (0, 0, 1): inner = z[1:0] << 5 = 32 -> oib 128 -> oib[7:5] = 4 -> 1024.
  // (0, 0, 2): inner 64 -> oib 256 -> oib >> 8 = 1 -> 4096.
  // (0, 0, 3): inner 96 -> oib 384 -> 4096 + (384 >> 5 & 7 = 4) << 8 = 5120.
  EXPECT_EQ(gpu::TiledOffset3D(0, 0, 1, 32, 32, 2), 1024u);
  EXPECT_EQ(gpu::TiledOffset3D(0, 0, 2, 32, 32, 2), 4096u);
  EXPECT_EQ(gpu::TiledOffset3D(0, 0, 3, 32, 32, 2), 5120u);
  // (0, 8, 0): bank = y[3] = 1 -> 2048; pipe = 0 ^ (1 << 1) = 2 -> 128; y[2:1] = 0. 2176.
  EXPECT_EQ(gpu::TiledOffset3D(0, 8, 0, 32, 32, 2), 2176u);
  // (0, 16, 0): y >> 4 = 1 -> outer = 1 << 7 = 128 -> oib 512 -> oib >> 8 = 2 -> 8192; bank 0.
  EXPECT_EQ(gpu::TiledOffset3D(0, 16, 0, 32, 32, 2), 8192u);
  // (0, 0, 4): z >> 2 = 1 -> outer = (1 * 2) << 7 = 256 -> oib 1024 -> 4 << 12 = 16384;
  // bank = z[2] = 1 -> 2048; pipe = 2 -> 128. 18560. A height of 20 rounds up to 32: the same.
  EXPECT_EQ(gpu::TiledOffset3D(0, 0, 4, 32, 32, 2), 18560u);
  EXPECT_EQ(gpu::TiledOffset3D(0, 0, 4, 32, 20, 2), 18560u);
  // (8, 8, 4): bank = y[3] ^ z[2] = 0; pipe = x[4:3] = 1 -> 64; outer 256 -> 16384. 16448.
  EXPECT_EQ(gpu::TiledOffset3D(8, 8, 4, 32, 32, 2), 16448u);
  // (33, 0, 0), pitch 64: outer = 1 << 7 = 128, inner 1 -> oib 516: [3:0] = 4, oib >> 8 = 2
  // -> 8192. 8196.
  EXPECT_EQ(gpu::TiledOffset3D(33, 0, 0, 64, 32, 2), 8196u);
  // 1 B: (0, 0, 1): oib 32 -> oib[7:5] = 1 -> 256.  16 B: (1, 0, 0): oib 16 -> oib[4] -> 32;
  // (0, 0, 1): oib 512 -> oib >> 8 = 2 -> 8192.
  EXPECT_EQ(gpu::TiledOffset3D(0, 0, 1, 32, 32, 0), 256u);
  EXPECT_EQ(gpu::TiledOffset3D(1, 0, 0, 32, 32, 4), 32u);
  EXPECT_EQ(gpu::TiledOffset3D(0, 0, 1, 32, 32, 4), 8192u);
}

gpu::TextureDescriptor Desc(xenos::TextureFormat format, uint32_t width, uint32_t height,
                            uint32_t pitch, bool tiled) {
  gpu::TextureDescriptor d;
  d.base_address = 0x00100000;
  d.mip_address = 0x00200000;
  d.format = uint32_t(format);
  d.dimension = uint32_t(xenos::DataDimension::k2DOrStacked);
  d.tiled = tiled;
  d.width = width;
  d.height = height;
  d.pitch_texels = pitch;
  return d;
}

TEST(TextureLayoutHandWorked, PackedMipTailOfASquareTexture) {
  // 64x64 k_8_8_8_8 (4 B), tiled, mips 0..6 packed. GetPackedMipOffset: log2 w = log2 h = 6,
  // packed_mip_base = 6 - 4 = 2, so levels 2..6 share level 2's storage.
  auto d = Desc(xenos::TextureFormat::k_8_8_8_8, 64, 64, 64, true);
  d.levels = 7;
  d.packed_mips = true;
  EXPECT_EQ(d.PackedLevel(), 2u);
  // Level 1: 32x32 blocks (GetGuestMipBlocks: next_pow2(64) >> 1 = 32, 32-aligned) x 4 B =
  // 4096 bytes at the mip address.
  EXPECT_EQ(d.GetLevel(1).address, 0x00200000u);
  EXPECT_EQ(d.GetLevel(1).layer_stride, 4096u);
  // Level 2 storage: 16x16 rounded up to 32x32 blocks = 4096 bytes, after level 1's 4096.
  // Packed offsets (square, "taller than wide" branch): packed_mip 0, 1, 2 -> x = 16 >> n =
  // 16, 8, 4; packed_mip 3, 4 -> y = (1 << (6 - 2)) >> (n - 2) = 8, 4.
  const uint32_t x_of[7] = {0, 0, 16, 8, 4, 0, 0};
  const uint32_t y_of[7] = {0, 0, 0, 0, 0, 8, 4};
  for (uint32_t level = 2; level < 7; ++level) {
    SCOPED_TRACE(level);
    const auto l = d.GetLevel(level);
    EXPECT_EQ(l.address, 0x00201000u);
    EXPECT_EQ(l.offset_x_blocks, x_of[level]);
    EXPECT_EQ(l.offset_y_blocks, y_of[level]);
    EXPECT_EQ(l.pitch_blocks, 32u);
  }
  EXPECT_EQ(d.GetLevel(2).width, 16u);
  EXPECT_EQ(d.GetLevel(6).width, 1u);
  // Level 2's first texel is block (16, 0) of the tail: pipe = x[4:3] = 2 -> byte 128.
  EXPECT_EQ(gpu::TiledOffset2D(16, 0, 32, 2), 128);
}

TEST(TextureLayoutHandWorked, PackedMipTailOfAWideCompressedTexture) {
  // 256x64 DXT1 (4x4 blocks of 8 B), tiled, packed. log2 w = 8, log2 h = 6: packed_mip_base
  // = min(8, 6) - 4 = 2.
  auto d = Desc(xenos::TextureFormat::k_DXT1, 256, 64, 256, true);
  d.levels = 9;
  d.packed_mips = true;
  EXPECT_EQ(d.PackedLevel(), 2u);
  // Base: pitch 256 texels = 64 blocks, 64 rows = 16 blocks -> 32; 64 * 8 B * 32 = 16384.
  EXPECT_EQ(d.GetLevel(0).pitch_blocks, 64u);
  EXPECT_EQ(d.GetLevel(0).layer_stride, 16384u);
  EXPECT_EQ(d.ByteSize(), 16384u);
  // Level 1: 128x32 texels = 32x8 blocks -> 32x32; 32 * 8 * 32 = 8192 at the mip address.
  // Level 2 (the tail): 64x16 = 16x4 blocks -> 32x32 = 8192, after level 1.
  EXPECT_EQ(d.GetLevel(1).address, 0x00200000u);
  EXPECT_EQ(d.GetLevel(1).layer_stride, 8192u);
  EXPECT_EQ(d.GetLevel(2).address, 0x00202000u);
  // Wider than tall: packed_mip n = 0..2 (levels 2..4) at y = 16 >> n = 16, 8, 4 texels ->
  // 4, 2, 1 blocks; packed_mip n = 3..6 (levels 5..8) at x = (1 << (8 - 2)) >> (n - 2) =
  // 32, 16, 8, 4 texels -> 8, 4, 2, 1 blocks.
  const uint32_t x_blocks[9] = {0, 0, 0, 0, 0, 8, 4, 2, 1};
  const uint32_t y_blocks[9] = {0, 0, 4, 2, 1, 0, 0, 0, 0};
  for (uint32_t level = 2; level < 9; ++level) {
    SCOPED_TRACE(level);
    const auto l = d.GetLevel(level);
    EXPECT_EQ(l.address, 0x00202000u);
    EXPECT_EQ(l.offset_x_blocks, x_blocks[level]);
    EXPECT_EQ(l.offset_y_blocks, y_blocks[level]);
  }
}

TEST(TextureLayoutHandWorked, NonPowerOfTwoMipsUsePowerOfTwoStorage) {
  // 48x20 k_8_8_8_8 tiled, mips 0..2 unpacked. GetGuestMipBlocks: level n storage is
  // next_pow2(48) >> n by next_pow2(20) >> n, 32-aligned: level 1 = 32x16 -> 32x32 blocks,
  // 4096 B; level 2 = 16x8 -> 32x32, 4096 B, after level 1. The level's own size is 48 >> n.
  auto d = Desc(xenos::TextureFormat::k_8_8_8_8, 48, 20, 64, true);
  d.levels = 3;
  EXPECT_EQ(d.GetLevel(1).address, 0x00200000u);
  EXPECT_EQ(d.GetLevel(1).pitch_blocks, 32u);
  EXPECT_EQ(d.GetLevel(1).layer_stride, 4096u);
  EXPECT_EQ(d.GetLevel(1).width, 24u);
  EXPECT_EQ(d.GetLevel(2).address, 0x00201000u);
  EXPECT_EQ(d.GetLevel(2).width, 12u);
  EXPECT_EQ(d.GetLevel(2).height, 5u);
}

TEST(TextureLayoutHandWorked, ArrayLayerStrides) {
  // Stacked 2D, 3 layers of 48x20 k_8 (1 B), tiled, pitch 64: 64 x align(20, 32) = 32 rows
  // x 1 B = 2048 B, rounded up to the 4 KiB subresource alignment -> 4096 per layer.
  auto a = Desc(xenos::TextureFormat::k_8, 48, 20, 64, true);
  a.layers = 3;
  EXPECT_EQ(a.GetLevel(0).layer_stride, 4096u);
  EXPECT_EQ(a.ByteSize(), 3u * 4096u);
  // 2 layers of 40x40 k_32_32_32_32_FLOAT (16 B), pitch 64: 64 x 64 rows x 16 = 65536 each.
  auto b = Desc(xenos::TextureFormat::k_32_32_32_32_FLOAT, 40, 40, 64, true);
  b.layers = 2;
  EXPECT_EQ(b.GetLevel(0).layer_stride, 65536u);
  EXPECT_EQ(b.ByteSize(), 131072u);
  // Linear 20x10 k_8_8_8_8, pitch 32: a row is 128 B -> 256 (linear rows are 256-B aligned),
  // 32 rows (height aligned to 32 for linear too) -> 8192 per layer.
  auto c = Desc(xenos::TextureFormat::k_8_8_8_8, 20, 10, 32, false);
  c.layers = 2;
  EXPECT_EQ(c.GetLevel(0).layer_stride, 8192u);
  EXPECT_EQ(gpu::LinearOffset2D(3, 2, 32, 2), 2u * 256u + 12u);
  // Cube 128x128 k_8_8_8_8, mips unpacked: a level's 6 faces lie together. Level 1: 64x64
  // blocks x 4 B = 16384 per face, 6 faces = 98304; level 2 (32x32, 4096 per face) starts
  // there; level 3 (16x16 -> 32x32, 4096) after 6 x 4096 more = 122880.
  auto cube = Desc(xenos::TextureFormat::k_8_8_8_8, 128, 128, 128, true);
  cube.dimension = uint32_t(xenos::DataDimension::kCube);
  cube.layers = 6;
  cube.levels = 4;
  EXPECT_EQ(cube.GetLevel(1).layer_stride, 16384u);
  EXPECT_EQ(cube.GetLevel(2).address, 0x00200000u + 98304u);
  EXPECT_EQ(cube.GetLevel(2).layer_stride, 4096u);
  EXPECT_EQ(cube.GetLevel(3).address, 0x00200000u + 122880u);
  // 3D 16x16x5 k_8_8_8_8 tiled: 32 x 32 blocks x 4 B per slice = 4096; GetGuestMipBlocks
  // aligns the depth to 4 -> 8 slices; GetGuestMipSliceStorageSize: 4096 x 8 = 32768.
  auto vol = Desc(xenos::TextureFormat::k_8_8_8_8, 16, 16, 32, true);
  vol.dimension = uint32_t(xenos::DataDimension::k3D);
  vol.depth = 5;
  EXPECT_EQ(vol.ByteSize(), 32768u);
}

// A packed volume's tail levels [first, end): each at the mip address (the base's own tail at
// the base address), at block offsets x, y and slice z, with d slices.
struct TailLevel {
  uint32_t x, y, z, depth;
};
void ExpectTail(const gpu::TextureDescriptor& d, uint32_t first, const std::vector<TailLevel>& want) {
  for (uint32_t level = first; level < first + want.size(); ++level) {
    SCOPED_TRACE(level);
    const auto l = d.GetLevel(level);
    const TailLevel& w = want[level - first];
    EXPECT_EQ(l.address, level == 0 ? d.base_address : d.mip_address);
    EXPECT_EQ(l.offset_x_blocks, w.x);
    EXPECT_EQ(l.offset_y_blocks, w.y);
    EXPECT_EQ(l.offset_z, w.z);
    EXPECT_EQ(l.depth, w.depth);
  }
}

TEST(TextureLayoutHandWorked, VolumeMipChains) {
  // 64x32x6 k_8_8_8_8 tiled, mips 0..6 unpacked (the chain's length counts the depth too:
  // log2(max(64, 32, 6)) = 6). Every level's storage spans the base's depth rounded up to the
  // 4-slice tile depth: 8 slices.
  auto v = Desc(xenos::TextureFormat::k_8_8_8_8, 64, 32, 64, true);
  v.dimension = uint32_t(xenos::DataDimension::k3D);
  v.depth = 6;
  v.levels = 7;
  // Base: 64 blocks x 32 rows x 4 B = 8192 per slice, x 8 slices = 65536.
  EXPECT_EQ(v.GetLevel(0).layer_stride, 8192u);
  EXPECT_EQ(v.ByteSize(), 65536u);
  EXPECT_EQ(v.GetLevel(0).depth, 6u);
  // Level 1: next_pow2(64) >> 1 = 32 blocks, next_pow2(32) >> 1 = 16 -> 32 rows: 4096 per
  // slice, 32768 for the level; 32x16 texels, 6 >> 1 = 3 slices.
  const auto l1 = v.GetLevel(1);
  EXPECT_EQ(l1.address, 0x00200000u);
  EXPECT_EQ(l1.layer_stride, 4096u);
  EXPECT_EQ(l1.width, 32u);
  EXPECT_EQ(l1.height, 16u);
  EXPECT_EQ(l1.depth, 3u);
  EXPECT_EQ(v.StorageBytes(l1), 32768u);
  // Levels 2..6: 32x32-block slices (4096 B) x 8 each, one after the other; one slice from
  // level 2 on (6 >> 2 = 1).
  for (uint32_t level = 2; level < 7; ++level) {
    SCOPED_TRACE(level);
    const auto l = v.GetLevel(level);
    EXPECT_EQ(l.address, 0x00200000u + (level - 1) * 32768u);
    EXPECT_EQ(l.depth, 1u);
    EXPECT_EQ(l.offset_z, 0u);
  }
  EXPECT_EQ(v.GetLevel(6).width, 1u);
  const auto ranges = v.ByteRanges();
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[1].second, 6u * 32768u);

  // 32x32x8 packed: the tail starts at level 1 (min(log2 w, log2 h) - 4) and holds levels 1..5
  // at the 2D offsets (square: x = 16, 8, 4, then y = (1 << 4) >> (n - 2) = 8, 4), all at
  // slice 0: the offset along the long axis never falls under 4 texels.
  auto p = Desc(xenos::TextureFormat::k_8_8_8_8, 32, 32, 32, true);
  p.dimension = uint32_t(xenos::DataDimension::k3D);
  p.depth = 8;
  p.levels = 6;
  p.packed_mips = true;
  EXPECT_EQ(p.PackedLevel(), 1u);
  ExpectTail(p, 1, {{16, 0, 0, 4}, {8, 0, 0, 2}, {4, 0, 0, 1}, {0, 8, 0, 1}, {0, 4, 0, 1}});

  // 4x4x32 packed: deeper than wide, so the chain runs to level 5 and the base itself is in the
  // tail (packed level 0). Levels 0..2 at x = 16, 8, 4; level 3 (packed n = 3) at y = (1 << 2)
  // >> 1 = 2, under 4 texels, so along z too: log2(32) = 5 > n + 1 -> slice (5 - 3) * 4 = 8;
  // level 4 at y = 1, slice 4 (5 > 5 fails); level 5 at y = 0, slice 4.
  auto deep = Desc(xenos::TextureFormat::k_8_8_8_8, 4, 4, 32, true);
  deep.dimension = uint32_t(xenos::DataDimension::k3D);
  deep.depth = 32;
  deep.levels = 6;
  deep.packed_mips = true;
  EXPECT_EQ(deep.PackedLevel(), 0u);
  ExpectTail(deep, 0, {{16, 0, 0, 32}, {8, 0, 0, 16}, {4, 0, 0, 8}, {0, 2, 8, 4}, {0, 1, 4, 2}, {0, 0, 4, 1}});
  // The mips' tail is stored as a level-0-shaped mip: next_pow2(4) = 4 -> 32 blocks x 32 rows
  // x 4 B = 4096 per slice, x 32 slices = 131072.
  EXPECT_EQ(deep.ByteRanges()[1].second, 131072u);
}

TEST(TextureLayoutHandWorked, VolumeFetchConstantsLoadTheirMips) {
  // A 3D fetch constant with a mip address: the chain runs to log2(max(w, h, d)) and to the
  // fetch constant's mip_max_level, whichever ends first.
  uint32_t f[6] = {};
  f[0] = 2u | (1u << 31) | ((32u >> 5) << 22);           // texture, tiled, pitch 32
  f[1] = 6u | (0x01000000u & ~0xFFFu);                      // k_8_8_8_8 at 16 MiB
  f[2] = (4u - 1) | ((4u - 1) << 11) | ((32u - 1) << 22);   // 4x4x32
  f[4] = 15u << 6;                                          // mip_max_level 15
  f[5] = (uint32_t(xenos::DataDimension::k3D) << 9) | 0x01100000u;  // mips at 17 MiB
  const auto d = gpu::TextureDescriptor::FromFetchConstant(f);
  EXPECT_EQ(d.levels, 6u);
  EXPECT_TRUE(d.inexact.empty()) << d.inexact;
  f[4] = 3u << 6;
  EXPECT_EQ(gpu::TextureDescriptor::FromFetchConstant(f).levels, 4u);
  // Bad input is refused by name, never allocated or read: a 2048x2048x1024 chain (the host
  // image limit), and a chain whose mip storage runs past the 512 MiB of guest memory.
  uint32_t huge[6];
  std::copy(f, f + 6, huge);
  huge[2] = 2047u | (2047u << 11) | (1023u << 22);
  huge[4] = 15u << 6;
  try {
    gpu::TextureDescriptor::FromFetchConstant(huge);
    ADD_FAILURE() << "a 2048x2048x1024 volume was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("256 MiB host image limit"), std::string::npos) << e.what();
  }
  uint32_t past[6];
  std::copy(f, f + 6, past);
  past[2] = 63u | (63u << 11) | (63u << 22);                               // 64x64x64
  past[5] = (uint32_t(xenos::DataDimension::k3D) << 9) | 0x1FFF0000u;      // mips 64 KiB before the end
  try {
    gpu::TextureDescriptor::FromFetchConstant(past);
    ADD_FAILURE() << "mips past the end of guest memory were accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("512 MiB"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace xnt::vk
