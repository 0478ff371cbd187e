// Texel addressing in the translated pixel shader, operation for operation as the cpu path's
// texture unit does it (renderer/cpu/src/texture_unit.cpp Address / TexelAt, and the
// coordinate -> texel rule of renderer/gpu texel_coordinate.h), so that a point fetch reads the
// same texel on every driver: a host sampler floors its own fixed-point coordinate (usually 8
// sub-texel bits, truncated) or, like lavapipe, the float coordinate, and picks the other texel
// wherever a pixel centre falls on a texel boundary.
#pragma once

#include <string>

namespace xnt::vk {

// GLSL for any stage (every pixel shader, a vertex shader with getBCF): xe_exact_mod,
// xe_exact_address, xe_exact_floor, xe_exact_weight, xe_exact_footprint (also used by the exact
// bilinear filter, glsl_exact_filter.h, and getBCF, glsl_border_fraction.h), xe_texel_index
// (gpu::PointTexelIndex), xe_border_color and xe_lod_range. Needs the prelude's xe_fetch_dword.
std::string GlslTexelIndexHelpers();

// GLSL for every pixel shader, after GlslTexelIndexHelpers: xe_exact_texel, xe_texel_magnified
// (the cpu path's level-of-detail decision), xe_point_applies and xe_point_texel. Needs the
// prelude's xe_texture_dimension.
std::string GlslTexelAddressHelpers();

}  // namespace xnt::vk
