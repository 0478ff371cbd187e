// Tiled/linear guest texture addresses (see texture_address.h).
#include "xnt/gpu/texture_address.h"

namespace xnt::gpu {

uint32_t TiledOffset3D(uint32_t x, uint32_t y, uint32_t z, uint32_t pitch_blocks,
                       uint32_t height_blocks, uint32_t bpb_log2) {
  // Same arithmetic as the load shader's tiled_offset_3d (texture_load.cpp).
  uint32_t pitch_tiles = (pitch_blocks + 31) >> 5;
  uint32_t height_pairs = ((height_blocks + 31) & ~31u) >> 4;  // 16-row macro rows
  uint32_t macro_index = (x >> 5) + ((y >> 4) + (z >> 2) * height_pairs) * pitch_tiles;
  uint32_t macro = ((macro_index << (bpb_log2 + 6)) & 0x0FFFFFFFu) << 1;
  uint32_t micro = ((x & 7) | ((y & 6) << 2)) << bpb_log2;
  uint32_t parity = ((y >> 3) + (z >> 2)) & 1;
  uint32_t bank_pipe = parity + ((((x >> 3) + (parity << 1)) & 3) << 1);
  uint32_t linear = ((macro + (micro & ~15u)) << 1) + (micro & 15u) + ((z & 3) << (bpb_log2 + 6)) +
                    ((y & 1) << 4);
  uint32_t a = ((bank_pipe & 1) << 3) | ((linear >> 6) & 7);
  a = (a << 3) + (bank_pipe & ~1u);
  a = (a << 2) + (linear & ~511u);
  return (a << 3) + (linear & 63u);
}

uint32_t LinearOffset2D(uint32_t x, uint32_t y, uint32_t pitch_blocks, uint32_t bpb_log2) {
  uint32_t row_bytes = ((pitch_blocks << bpb_log2) + 255u) & ~255u;
  return y * row_bytes + (x << bpb_log2);
}

}  // namespace xnt::gpu
