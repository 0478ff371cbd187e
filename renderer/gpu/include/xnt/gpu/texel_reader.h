// Reading single texels of a guest texture straight from guest memory: the block's address from
// the texture layout (tiled 32x32 or linear, mip levels, packed tails, array layers), its dwords
// endian-swapped as the texture unit fetches them, then decoded (texture_decode.h) with the fetch
// constant's kSigned components reinterpreted as two's-complement snorm. The cpu path's texture
// unit samples through it; every path's textures are defined by it.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "xnt/gpu/texture_descriptor.h"

namespace xnt::gpu {

class TexelReader {
 public:
  // `read` fills its span from guest memory at the address; false for memory that does not exist
  // (the texel reads as zeros).
  using Read = std::function<bool(uint32_t address, std::span<uint8_t> out)>;
  TexelReader(const TextureDescriptor& texture, Read read);

  // Texel (x, y) of `layer` at mip `level` (coordinates inside the level; the caller clamps),
  // RGBA as the format's components X..W. nullopt for a format the decoder does not know.
  std::optional<std::array<float, 4>> Texel(uint32_t level, uint32_t x, uint32_t y,
                                            uint32_t layer) const;
  const TextureDescriptor& texture() const { return texture_; }

 private:
  TextureDescriptor texture_;
  Read read_;
};

}  // namespace xnt::gpu
