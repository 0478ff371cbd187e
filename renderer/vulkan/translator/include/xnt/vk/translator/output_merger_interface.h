// The binding contract of the fsi path's output merger (renderer/vulkan/fsi): the per-draw
// constants the fragment-shader epilogue (glsl_output_merger.cpp) reads and the EDRAM storage
// buffer it reads and writes, both in descriptor set 3. The C++ side fills the struct from the
// registers (renderer/vulkan/fsi/src/output_merger_state.cpp); the GLSL declares the same std140
// layout. Everything is decoded on the CPU once per draw, as the cpu path's OutputMerger
// constructor decodes it (renderer/cpu/src/output_merger.cpp), so the shader only applies rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace xnt::vk {

inline constexpr uint32_t kOutputMergerSet = 3;
inline constexpr uint32_t kEdramBinding = 0;                 // uint xe_edram[]: guest bits
inline constexpr uint32_t kOutputMergerConstantsBinding = 1;  // XeOutputMergerConstants

// XeOutputMergerConstants::flags.
enum XeOutputMergerFlag : uint32_t {
  kXeOmDepthTest = 1u << 0,    // RB_DEPTHCONTROL z_enable
  kXeOmDepthWrite = 1u << 1,   // z_enable && z_write_enable
  kXeOmStencil = 1u << 2,      // stencil_enable
  kXeOmAlphaTest = 1u << 3,    // pixel shader present, alpha_test_enable, func != always
  kXeOmAlphaToMask = 1u << 4,  // pixel shader present, alpha_to_mask_enable
  kXeOmDepth20e4 = 1u << 5,    // depth format k_24_8_FLOAT
  kXeOmDepthClamp = 1u << 6,   // PA_CL_CLIP_CNTL clip_disable: depth not clipped, clamped to 0..1
};

// Per colour target i (rt_* arrays): `rt_blend[i]` packs the RB_BLENDCONTROL fields as
// colour src | dst << 5 | op << 10 | alpha src << 16 | dst << 21 | op << 26 and bit 31 = blending
// is not the identity (ONE, ZERO, ADD for both); `rt_flags[i]` bit 0 = the target is written this
// draw, bit 1 = 64 bpp, bit 2 = fixed-point (UNORM) components.
struct XeOutputMergerConstants {
  uint32_t rt_base[4];         // base tile
  uint32_t rt_pitch_tiles[4];  // pitch in tiles (twice as many for 64bpp)
  uint32_t rt_format[4];       // ColorRenderTargetFormat
  uint32_t rt_blend[4];
  uint32_t rt_keep_lo[4];      // guest bits the write mask keeps (low dword)
  uint32_t rt_keep_hi[4];      // (high dword of 64bpp formats)
  uint32_t rt_flags[4];
  float rt_exp_scale[4];       // 2^color_exp_bias
  float blend_constant[4];     // RB_BLEND_RED..ALPHA (clamped per UNORM target in the shader)
  // x: host pitch (pitch pixels * scale_x), y: MSAA (0 1x, 1 2x, 2 4x), z: scale_x, w: scale_y.
  uint32_t surface[4];
  // x: depth base tile, y: depth pitch tiles, z: flags (XeOutputMergerFlag), w: zfunc.
  uint32_t depth[4];
  // x: alpha func, y: alpha-to-mask offsets (2 bits per quad pixel), z: coverage mode (0 host
  // samples are guest samples, 1 host 2x with its two samples swapped, 2 guest 2x on 4 host
  // samples: guest 0 <- host 0, guest 1 <- host 3), w: unused.
  uint32_t misc[4];
  // Stencil faces: x func, y fail | zfail << 8 | pass << 16, z ref, w mask | write mask << 8.
  uint32_t stencil_front[4];
  uint32_t stencil_back[4];
  // x alpha reference; y/z polygon offset constant term (front/back) in depth units for
  // k_24_8 (OFFSET), or OFFSET * 2^21 for 20e4 (times r per fragment); w unused.
  float alpha_ref_offsets[4];
  // x/y slope factor (SCALE / 16) front/back; z/w what the depth slope per host pixel is
  // multiplied by along x/y: the resolution scale when derivatives are per guest pixel, else 1.
  float slope_factors[4];
};
static_assert(offsetof(XeOutputMergerConstants, blend_constant) == 128);
static_assert(offsetof(XeOutputMergerConstants, surface) == 144);
static_assert(sizeof(XeOutputMergerConstants) == 256);

// The fragment shader of draws without a pixel shader (depth/stencil only): the output merger
// alone, GLSL 450 (glsl_output_merger.cpp). `interlock`: inside a pixel-ordered critical section.
// `exact_polygon_offset`: the samples' depths and the offset from the triangle's positions as
// the cpu path computes them (TranslationOptions::fsi_exact_polygon_offset; it reads only the
// flat positions PolygonOffsetGeometryShaderGlsl passes, no interpolator).
std::string OutputMergerDepthOnlyShaderGlsl(bool interlock, bool exact_polygon_offset = false);

// The fbo path's fragment shader of triangle draws without a pixel shader that take the exact
// depth (TranslationOptions::fsi_exact_polygon_offset): gl_FragDepth = the cpu path's depth of
// the pixel in the guest format, from the flat positions PolygonOffsetGeometryShaderGlsl passes.
std::string ExactDepthFragmentShaderGlsl();

// The geometry shader of triangle draws with TranslationOptions::fsi_exact_polygon_offset: each
// triangle unchanged (positions and the first `passed_interpolators` interpolators passed
// through, the rest zero), plus its three exported positions (read at location
// `passed_interpolators`, where the vertex shader wrote them: TranslationOptions::
// vs_position_location) as flat outputs at kXeTrianglePositionsLocation (shader_interface.h),
// for the pixel shader's polygon offset. `passed_interpolators`: what fits the device's
// maxGeometryInputComponents beside gl_PerVertex and the position, at most 15
// (PolygonOffsetGeometryInterpolators).
// `clip_distances` / `cull_distances`: the vertex shader's gl_ClipDistance / gl_CullDistance
// entries (ShaderReflection), passed on per vertex so user clip planes and vertex kill still
// apply.
std::string PolygonOffsetGeometryShaderGlsl(uint32_t passed_interpolators,
                                            uint32_t clip_distances = 0,
                                            uint32_t cull_distances = 0);
// The components a geometry shader's gl_in[] block counts against maxGeometryInputComponents:
// gl_Position (4), gl_PointSize (1) and the two distance arrays, each at least one element long
// (glslang declares an unused one with one element, and validation counts it).
inline uint32_t GeometryPerVertexComponents(uint32_t clip, uint32_t cull) {
  return 5 + (clip ? clip : 1) + (cull ? cull : 1);
}
inline uint32_t PolygonOffsetGeometryInterpolators(uint32_t max_geometry_input_components,
                                                  uint32_t clip, uint32_t cull) {
  // The exported position (4) beside gl_PerVertex.
  const uint32_t reserved = 4 + GeometryPerVertexComponents(clip, cull);
  const uint32_t fit = max_geometry_input_components > reserved
                           ? (max_geometry_input_components - reserved) / 4
                           : 0;
  return fit < 15 ? fit : 15;
}

}  // namespace xnt::vk
