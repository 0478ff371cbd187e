// The cpu path's sample depths and polygon offset of a triangle, computed in the pixel shader
// (TranslationOptions::fsi_exact_polygon_offset, docs/fsi.md "Polygon offset"): the fsi output
// merger tests and stores them; the fbo path writes them, in the guest format, as gl_FragDepth.
#pragma once

#include <string>

namespace xnt::vk {

// GLSL placed inside the output merger's declarations: double xe_om_triangle_offset(bool front),
// the offset renderer/cpu/src/rasterizer.cpp adds to every sample depth of the triangle, and
// bool xe_om_exact_depths(uvec2 pixel, uint samples, out vec4 z), its depth at each guest sample
// of a host pixel (false where the cpu path clips the triangle), from the three vertices'
// exported positions (`xe_vs_position[3]`, flat from the geometry shader). Needs the prelude's
// system constants (flags, depth_*, xe_resolution_scale()).
std::string GlslExactPolygonOffset();

// GLSL: the guest depth encodings, xe_depth_to_20e4 / xe_depth_to_unorm24 (the cpu path's
// bits), xe_depth_from_20e4 / xe_depth_from_unorm24 (the float a host depth stores and gives
// back exactly), xe_small_float_to_32 (an unsigned small float in float32).
std::string GlslGuestDepthEncoding();

// GLSL: GlslExactPolygonOffset, GlslGuestDepthEncoding, float xe_depth_stored(float z) (the
// value the guest stores for depth z, as the host holds it) and float xe_exact_fragment_depth(
// float frag_z, bool written, float shader_z), a one-sample pixel's depth as the guest stores it
// (the exact plane at the pixel centre or, where the cpu path clips the triangle, the host's
// frag_z; the polygon offset; clip_disable's clamp), or the shader's oDepth when `written`.
std::string GlslExactFragmentDepth();

// The fbo path's fragment shader for draws without a pixel shader that take the exact depth.
std::string GlslExactDepthFragmentShader();

// The pass-through geometry shader that hands the pixel shader the triangle's three exported
// positions (output_merger_interface.h PolygonOffsetGeometryShaderGlsl).
std::string GlslPolygonOffsetGeometryShader(uint32_t passed_interpolators,
                                            uint32_t clip_distances, uint32_t cull_distances);

}  // namespace xnt::vk
