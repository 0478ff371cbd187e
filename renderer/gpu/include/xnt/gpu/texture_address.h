// Guest texture addressing: the Xenos 32x32-tiled 2D layout that resolves write and textures (and
// the swap's front buffer) read. Facts from Xenia src/xenia/gpu/texture_address.h (Tiled2D) and
// texture_util.cc (GetTiledOffset2D)
#pragma once

#include <cstdint>

namespace xnt::gpu {

// Byte offset of block (x, y) in a tiled 2D surface whose row pitch is `pitch_blocks` (rounded
// up to 32 here) and whose blocks are 1 << bpb_log2 bytes. Negative coordinates are valid
// (Direct3D moves resolve destinations by moving the base pointer). Inline: resolves, the
// front-buffer read and texture fetches on the cpu path call it every few pixels.
inline int32_t TiledOffset2D(int32_t x, int32_t y, uint32_t pitch_blocks, uint32_t bpb_log2) {
  // Macro tiles of 32x32 blocks are row-major; inside one, an 8x16 micro tile is addressed as
  // 8 columns x 8 row pairs, then bank (y bit 4) and pipe (x bits 4:3 ^ y bit 3) bits are
  // interleaved into the byte offset.
  // Unsigned arithmetic wraps exactly like the two's-complement result for negative offsets.
  uint32_t pitch_tiles = (pitch_blocks + 31) >> 5;
  uint32_t outer = (uint32_t((y >> 5)) * pitch_tiles + uint32_t(x >> 5)) << 6;
  uint32_t ux = uint32_t(x), uy = uint32_t(y);
  uint32_t inner = (((uy >> 1) & 7) << 3) | (ux & 7);
  uint32_t outer_inner = (outer | inner) << bpb_log2;
  uint32_t bank = (uy >> 4) & 1;
  uint32_t pipe = ((ux >> 3) & 3) ^ (((uy >> 3) & 1) << 1);
  // The top part keeps its sign: shift arithmetically, as the offset may be negative.
  uint32_t high = uint32_t(int32_t(outer_inner) >> 8) << 12;
  return int32_t((outer_inner & 0xF) | ((uy & 1) << 4) | (((outer_inner >> 4) & 1) << 5) |
                 (pipe << 6) | (((outer_inner >> 5) & 7) << 8) | (bank << 11) | high);
}

// Byte offset of block (x, y, z) in a 32x32x4-tiled 3D surface of `pitch_blocks` x
// `height_blocks` (both rounded up to 32 here). Xenia src/xenia/gpu/texture_util.cc
// GetTiledOffset3D, which was reconstructed from XGRAPHICS::TileVolume: 16-row macro tiles are
// interleaved with groups of 4 slices, the slice's low 2 bits select 4 KiB-scale micro blocks,
// and x bit 3 / (y bit 3 + z bit 2) pick the bank and pipe bits.
uint32_t TiledOffset3D(uint32_t x, uint32_t y, uint32_t z, uint32_t pitch_blocks,
                       uint32_t height_blocks, uint32_t bpb_log2);

// Byte offset of block (x, y) in a linear surface: rows are aligned to 256 bytes (Xenia texture_util.cc,
// linear texture row alignment).
uint32_t LinearOffset2D(uint32_t x, uint32_t y, uint32_t pitch_blocks, uint32_t bpb_log2);

}  // namespace xnt::gpu
