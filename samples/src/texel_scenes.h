// The coordinate -> texel rule samples (texel_scenes.cpp) and the pattern texture they and the
// rule's device test draw: k_8_8_8_8 texels whose R and G name their x and y.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "texture_scene.h"

namespace xnt::samples {

// Fetch constant filters (0 point, 1 linear) and aniso filter field (0 off, 2..5 max 2:1..16:1).
struct TexelFilters {
  uint32_t mag = 0, min = 0, aniso = 0;
};

// Texel (x, y) of the pattern: R = 3x + 16, G = 5y + 8 (mod 256, so neighbours differ), B mixed.
std::array<uint8_t, 4> PatternTexel(uint32_t x, uint32_t y);

// Adds a linear width x height k_8_8_8_8 pattern texture at `address` (4 KiB aligned) to the
// scene's memory; returns its 2D fetch constant with `clamp` (xenos::ClampMode) on x and y.
std::array<uint32_t, 6> AddPatternTexture(TexturedScene& scene, uint32_t address, uint32_t width,
                                          uint32_t height, uint32_t clamp, TexelFilters f);

// texel_boundaries_256_to_640, texel_boundaries_1_to_2, texel_aniso_magnified_point.
std::vector<Sample> TexelSamples();

}  // namespace xnt::samples
