// Texel addressing in the translated pixel shader, operation for operation as the cpu path's
// texture unit does it (renderer/cpu/src/texture_unit.cpp Address / TexelAt, and the
// coordinate -> texel rule of renderer/gpu texel_coordinate.h), so that a point fetch reads the
// same texel on every driver: a host sampler floors its own fixed-point coordinate (usually 8
// sub-texel bits, truncated) or, like lavapipe, the float coordinate, and picks the other texel
// wherever a pixel centre falls on a texel boundary.
#pragma once

#include <string>

namespace xnt::vk {

// GLSL for every pixel shader: xe_exact_address, xe_exact_texel, xe_exact_floor (also used by
// the exact bilinear filter, glsl_exact_filter.h), xe_texel_index (gpu::PointTexelIndex),
// xe_texel_magnified (the cpu path's level-of-detail decision), xe_point_applies and
// xe_point_texel. Needs the prelude's xe_fetch_dword and xe_texture_dimension.
std::string GlslTexelAddressHelpers();

}  // namespace xnt::vk
