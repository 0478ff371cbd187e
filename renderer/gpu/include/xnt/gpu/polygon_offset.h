// Polygon offset (depth bias) as the Xenos registers select it, shared by every render path.
//
// Registers (Xenia src/xenia/gpu/d3d12/pipeline_cache.cc GetCurrentStateDescription, and
// draw_util.h GetPreferredFacePolygonOffset / GetD3D10PolygonOffsetFactor):
// - PA_SU_SC_MODE_CNTL poly_offset_front_enable / poly_offset_back_enable select
//   PA_SU_POLY_OFFSET_FRONT_* for front-facing and PA_SU_POLY_OFFSET_BACK_* for back-facing
//   polygons (triangles, quads, rectangles); lines and points use poly_offset_para_enable with the
//   FRONT registers.
// - *_SCALE multiplies the depth slope measured per 1/16 pixel ("slope computed in subpixels
//   ([...] 1/16)", R5xx Acceleration, quoted by Xenia: xenos::kPolygonOffsetScaleSubpixelUnit):
//   the slope-scaled term is SCALE / 16 * max(|dz/dx|, |dz/dy|) with the slope per pixel.
// - *_OFFSET is in depth-buffer units: Xenia hands a host D24 buffer OFFSET * 2^24 units of
//   r = 2^-24, i.e. OFFSET itself in normalized depth (OFFSET * 2^24 unorm24 steps). For k_24_8_FLOAT
//   Xenia uses OFFSET * 2^21 (20 explicit + 1 implicit mantissa bits; found by testing, its comment
//   says 2^20 was not enough) against a float host depth, whose r is 2^(e - 23) for the largest
//   exponent e of the primitive's depths (Vulkan "Depth Bias"). Nothing better is documented for
//   20e4, so every path here does what that host gets.
#pragma once

#include <cstdint>

#include "xnt/gpu/register_values.h"

namespace xnt::gpu {

struct PolygonOffset {
  bool enabled = false;
  float scale = 0.0f;   // PA_SU_POLY_OFFSET_*_SCALE (per 1/16 pixel of slope)
  float offset = 0.0f;  // PA_SU_POLY_OFFSET_*_OFFSET (depth-buffer units, see above)
};

struct PolygonOffsets {
  PolygonOffset front, back;  // for lines and points both are the para (FRONT register) values
};

// The offsets a draw's primitives get. None for a polygonal draw whose PA_SU_SC_MODE_CNTL draws
// a face as points or lines (gpu/polygon_mode.h; its rectangles too, which are always filled).
// `polygonal`: triangles, quads and rectangles (lines and
// points are not).
PolygonOffsets ReadPolygonOffsets(RegisterValues regs, bool polygonal);

// For hosts with one depth bias per draw (Vulkan): the front face's offset unless front faces are
// culled or it is off, then the back face's (Xenia's GetPreferredFacePolygonOffset order).
PolygonOffset PreferredPolygonOffset(const PolygonOffsets& o, bool cull_front, bool cull_back);

// Host depth-bias factors for a float (or unorm24) host depth buffer with Vulkan's rule
// bias = m * slope_factor + r * constant_factor: constant_factor = OFFSET * 2^24 (k_24_8) or
// OFFSET * 2^21 (k_24_8_FLOAT), slope_factor = SCALE / 16.
float DepthBiasConstantFactor(const PolygonOffset& o, uint32_t depth_format);
float DepthBiasSlopeFactor(const PolygonOffset& o);

// Vulkan's minimum resolvable difference r for the guest format as the host sees it: 2^-24 for
// k_24_8; 2^(e - 23) for k_24_8_FLOAT, e the exponent of `max_abs_depth` (the largest |z| of the
// primitive's vertices; 0 depth gives the exponent of the smallest normal float).
double MinimumResolvableDifference(uint32_t depth_format, double max_abs_depth);

// The depth change a primitive gets: max_slope * SCALE / 16 + r * constant_factor (0 when the
// offset is off). `max_slope`: max(|dz/dx|, |dz/dy|) in depth per pixel (0 for lines and points).
double PolygonOffsetDepth(const PolygonOffset& o, uint32_t depth_format, double max_slope,
                          double max_abs_depth);

// The constant term as a shader that computes the offset per triangle takes it (the Vulkan
// paths' exact depth, glsl_polygon_offset.cpp): in depth units for k_24_8 (r = 2^-24 is fixed),
// for k_24_8_FLOAT the factor still to be multiplied by the triangle's r = 2^(e - 23).
float ShaderPolygonOffsetConstant(const PolygonOffset& o, uint32_t depth_format);

}  // namespace xnt::gpu
