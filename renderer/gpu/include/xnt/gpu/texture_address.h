// Guest texture addressing: the Xenos 32x32-tiled 2D layout that resolves write and textures (and
// the swap's front buffer) read. Facts from Xenia src/xenia/gpu/texture_address.h (Tiled2D) and
// texture_util.cc (GetTiledOffset2D), summarised in ../shared/research/xenia.md §4.7.
#pragma once

#include <cstdint>

namespace xnt::gpu {

// Byte offset of block (x, y) in a tiled 2D surface whose row pitch is `pitch_blocks` (rounded
// up to 32 here) and whose blocks are 1 << bpb_log2 bytes. Negative coordinates are valid
// (Direct3D moves resolve destinations by moving the base pointer).
int32_t TiledOffset2D(int32_t x, int32_t y, uint32_t pitch_blocks, uint32_t bpb_log2);

// Byte offset of block (x, y, z) in a 32x32x4-tiled 3D surface of `pitch_blocks` x
// `height_blocks` (both rounded up to 32 here). Xenia src/xenia/gpu/texture_util.cc
// GetTiledOffset3D, which was reconstructed from XGRAPHICS::TileVolume: 16-row macro tiles are
// interleaved with groups of 4 slices, the slice's low 2 bits select 4 KiB-scale micro blocks,
// and x bit 3 / (y bit 3 + z bit 2) pick the bank and pipe bits.
uint32_t TiledOffset3D(uint32_t x, uint32_t y, uint32_t z, uint32_t pitch_blocks,
                       uint32_t height_blocks, uint32_t bpb_log2);

// Byte offset of block (x, y) in a linear surface: rows are aligned to 256 bytes (xenia.md §4.6,
// linear texture row alignment).
uint32_t LinearOffset2D(uint32_t x, uint32_t y, uint32_t pitch_blocks, uint32_t bpb_log2);

}  // namespace xnt::gpu
