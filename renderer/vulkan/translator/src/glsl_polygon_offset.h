// The cpu path's sample depths and polygon offset of a triangle, computed in the fsi pixel shader
// (TranslationOptions::fsi_exact_polygon_offset, docs/fsi.md "Polygon offset").
#pragma once

#include <string>

namespace xnt::vk {

// GLSL placed inside the output merger's declarations: double xe_om_triangle_offset(bool front),
// the offset renderer/cpu/src/rasterizer.cpp adds to every sample depth of the triangle, and
// bool xe_om_exact_depths(uvec2 pixel, uint samples, out vec4 z), its depth at each guest sample
// of a host pixel (false where the cpu path clips the triangle), from the three vertices'
// exported positions (`xe_vs_position[3]`, flat from the geometry shader). Needs the prelude's
// xe_system flags and xe_resolution_scale() and the output merger's constant block.
std::string GlslExactPolygonOffset();

// The pass-through geometry shader that hands the pixel shader the triangle's three exported
// positions (output_merger_interface.h PolygonOffsetGeometryShaderGlsl).
std::string GlslPolygonOffsetGeometryShader(uint32_t passed_interpolators,
                                            uint32_t clip_distances, uint32_t cull_distances);

}  // namespace xnt::vk
