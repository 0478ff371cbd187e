#version 450
// fsi path: a resolve's colour or depth clear in compute on the EDRAM storage buffer, the bytes
// gpu::ApplyResolveClears (renderer/gpu/src/resolve.cpp) writes into the EDRAM model: the clear
// value's guest bits in every sample of the rectangle, S x T host pixels per guest pixel, at the
// offsets edram.h Surface::SampleOffset gives (depth tiles with their halves swapped, tile
// indices wrapping at 2048).
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(std430, set = 1, binding = 0) buffer XeEdram { uint words[]; } xe_edram;

layout(push_constant) uniform XeClear {
  uint x0; uint y0; uint columns; uint rows;  // host pixels: [x0, x0 + columns) x rows from y0
  uint base_tiles; uint pitch_tiles; uint flags; uint scale;
  uint value_lo; uint value_hi;
} p;
// flags: bit 0 depth, bit 1 64bpp, bits 2-3 MSAA (0 1x, 1 2x, 2 4x). scale: scale_x | scale_y << 8.

void main() {
  // One invocation per sample: x over sample columns, y over host rows times sample rows.
  uint msaa = (p.flags >> 2u) & 3u;
  uint samples_x = msaa == 2u ? 2u : 1u, samples_y = msaa == 0u ? 1u : 2u;
  uint column = gl_GlobalInvocationID.x, line = gl_GlobalInvocationID.y;
  if (column >= p.columns * samples_x || line >= p.rows * samples_y) return;
  uint x = p.x0 + column / samples_x;
  uint y = p.y0 + line / samples_y;
  uint s = column % samples_x + (line % samples_y) * samples_x;
  // Surface::SampleOffset.
  uint sx = x * samples_x, sy = y * samples_y;
  if (msaa == 1u) {
    sy += s;
  } else if (msaa == 2u) {
    sx += s & 1u;
    sy += s >> 1u;
  }
  bool depth = (p.flags & 1u) != 0u, wide = (p.flags & 2u) != 0u;
  uint scale_x = p.scale & 0xFFu, scale_y = (p.scale >> 8u) & 0xFFu;
  uint row = 80u * scale_x;
  uint tile_width = wide ? row / 2u : row;
  uint tile_height = 16u * scale_y;
  uint in_x = sx % tile_width, in_y = sy % tile_height;
  if (depth) in_x = (in_x + row / 2u) % row;
  uint tile = (p.base_tiles + (sy / tile_height) * p.pitch_tiles + sx / tile_width) % 2048u;
  uint offset = tile * 5120u * scale_x * scale_y + (in_y * tile_width + in_x) * (wide ? 8u : 4u);
  xe_edram.words[offset >> 2u] = p.value_lo;
  if (wide) xe_edram.words[(offset >> 2u) + 1u] = p.value_hi;
}
