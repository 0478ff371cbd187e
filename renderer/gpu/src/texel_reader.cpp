// Texel reads from guest memory (see texel_reader.h).
#include "xnt/gpu/texel_reader.h"

#include <bit>
#include <cstring>

#include "xnt/gpu/texture_address.h"
#include "xnt/gpu/texture_decode.h"
#include "xnt/gpu/texture_formats.h"
#include "xnt/xenos/enums.h"

namespace xnt::gpu {

TexelReader::TexelReader(const TextureDescriptor& texture, Read read)
    : texture_(texture), read_(std::move(read)) {}

std::optional<std::array<float, 4>> TexelReader::Texel(uint32_t level, uint32_t x, uint32_t y,
                                                       uint32_t layer) const {
  const TextureFormatInfo info = GetTextureFormatInfo(texture_.format);
  const TextureDescriptor::Level l = texture_.GetLevel(level);
  const uint32_t bx = x / info.block_width + l.offset_x_blocks;
  const uint32_t by = y / info.block_height + l.offset_y_blocks;
  uint32_t address = l.address;
  if (texture_.volume()) {
    // `layer` is the level's slice; a packed tail puts the level at a slice offset.
    const uint32_t z = layer + l.offset_z;
    address += texture_.tiled
                   ? TiledOffset3D(bx, by, z, l.pitch_blocks, l.height_blocks, info.bpb_log2)
                   : z * l.layer_stride + LinearOffset2D(bx, by, l.pitch_blocks, info.bpb_log2);
  } else {
    address += layer * l.layer_stride +
               (texture_.tiled ? uint32_t(TiledOffset2D(int32_t(bx), int32_t(by), l.pitch_blocks,
                                                        info.bpb_log2))
                               : LinearOffset2D(bx, by, l.pitch_blocks, info.bpb_log2));
  }
  const uint32_t block_bytes = 1u << info.bpb_log2;
  // The dwords the block occupies (sub-dword blocks: the dword holding them), swapped per dword.
  uint8_t bytes[16] = {};
  const uint32_t first = address & ~3u;
  const uint32_t span = std::max(block_bytes, 4u);
  if (!read_(first, std::span<uint8_t>(bytes, span))) std::memset(bytes, 0, sizeof(bytes));
  uint32_t w[4] = {};
  for (uint32_t i = 0; i < span / 4; ++i) {
    uint32_t v;
    std::memcpy(&v, bytes + 4 * i, 4);
    w[i] = xenos::GpuSwap(v, xenos::Endian(texture_.endian));
  }
  uint32_t t = w[0];
  if (block_bytes < 4) {
    t = (w[0] >> (8 * (address & 3))) & (block_bytes == 1 ? 0xFFu : 0xFFFFu);
  }
  const uint32_t ti = (y % info.block_height) * 4 + (x % info.block_width);
  const std::optional<gpu::Texel> texel = DecodeTexel(texture_.format, w, t, ti);
  if (!texel) return std::nullopt;
  std::array<float, 4> out;
  for (uint32_t c = 0; c < 4; ++c) {
    const Component& comp = (*texel)[c];
    out[c] = comp.value;
    if ((texture_.signed_mask & (1u << c)) && comp.max > 0) {
      // kSigned: the n-bit field as two's complement, over 2^(n-1) - 1, at least -1.
      const uint32_t n = uint32_t(std::bit_width(comp.max));
      const uint32_t raw = uint32_t(double(comp.value) * comp.max + 0.5);
      const int32_t v = int32_t(raw << (32 - n)) >> (32 - n);
      out[c] = std::max(float(v) / float((1u << (n - 1)) - 1u), -1.0f);
    }
  }
  return out;
}

}  // namespace xnt::gpu
