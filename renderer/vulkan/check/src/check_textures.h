// translate --check with real textures: for every texture fetch constant a shader samples, a
// random but valid texture (its fetch constant and its bytes in guest memory), and the rule its
// fetches' results are compared under on the device's path (check_rules.h Value).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "check_rules.h"
#include "xnt/ucode/ucode.h"

namespace xnt::vk::check {

// Guest address of the textures' memory (apart from the vertex and memexport windows).
inline constexpr uint32_t kTextureAddress = 0x01000000;

struct RandomTextures {
  uint32_t slots = 0;          // bit s: fetch constant s was given a texture
  std::vector<uint8_t> bytes;  // guest memory from kTextureAddress
  std::vector<std::string> described;  // one line per texture, for the report
};

// For each texture slot `shader` fetches from: dimension as its first fetch instruction reads
// it (1D, 2D, 3D as a volume or a stack, cube), 1..64 texels a side, non-powers of two included,
// a format among k_8_8_8_8, k_5_6_5, k_16_16, k_16_16_16_16_FLOAT, k_32_FLOAT and DXT1-5, random
// endian swap, tiled or linear, a mip chain (packed or not) or none, random clamp modes, border
// colour, filters, anisotropy and LOD bias. Writes the slot's 6 dwords of `fetch_constants`
// (keeping its random swizzle) and the texels, from `seed`.
RandomTextures MakeRandomTextures(const ucode::Shader& shader, uint64_t seed,
                                  uint32_t* fetch_constants);

// The rule a texture fetch's result is compared under on the device (`pixel`: in a pixel shader;
// `fsi`: with the fsi path's exact bilinear filtering): exact where the translated shader picks
// and addresses the texel itself as the texture unit does (a magnified point fetch of a 2D or
// stacked texture, or the fsi path's bilinear filter); not compared where the host sampler
// weighs texels (Vulkan bounds its weights only by subTexelPrecisionBits), walks an anisotropic
// footprint, picks the nearest texel from a float coordinate (the hardware rounds to fixed point
// first) or reads a cube seamlessly, or where the instruction's dimension is not the fetch
// constant's (the host reads zeros, the texture unit samples).
// `quads`: pixels in 2x2 quads with real derivatives (check_quads.h) rather than lone points.
Value TextureFetchRule(const ucode::FetchInstruction& f, const uint32_t* fetch_constants, bool pixel,
                       bool fsi, bool quads = false);

}  // namespace xnt::vk::check
