// What the sequencer hands a pixel shader besides its interpolated vertex exports: where each
// interpolator is sampled under MSAA (centre or centroid) and the generated pixel parameters
// (PsParamGen: position, facing, primitive kind, point sprite coordinate). One rule for cpu,
// fbo and fsi; the Vulkan translator emits the same arithmetic in GLSL (glsl_emitter.cpp).
#pragma once

#include <array>
#include <cstdint>

#include "xnt/gpu/register_values.h"

namespace xnt::gpu {

// Bit i set: interpolator i is sampled at the centroid of the pixel's covered samples rather
// than at the pixel centre. SQ_CONTEXT_MISC sc_sample_cntl chooses centroids for all, centres
// for all, or per interpolator from SQ_INTERPOLATOR_CNTL sampling_pattern (a set bit there is
// the centre); with one sample per pixel the two are the same place, so none is centroid
// (Xenia xenos.h GetInterpolatorSamplingPattern).
uint32_t InterpolatorCentroidMask(uint32_t samples, uint32_t sc_sample_cntl,
                                  uint32_t sampling_pattern);
// The same from a draw's registers (`samples`: 1, 2 or 4, DrawPlan::samples).
uint32_t InterpolatorCentroidMask(RegisterValues regs, uint32_t samples);

// The guest sample whose position a centroid-sampled interpolator takes in a pixel with
// `coverage` (bit s: guest sample s covered) of `samples`: -1 for the pixel centre, when every
// sample is covered (the centre is then inside the primitive's footprint) or none is (a quad
// helper, which only feeds derivatives). Otherwise the lowest-numbered covered sample, which
// always lies inside the primitive, so the value is never extrapolated past the edge (the
// D3D10-class rule the hardware's centroid follows, and Mesa llvmpipe's calc_centroid_offsets:
// the first covered sample unless all are).
int32_t CentroidSample(uint32_t coverage, uint32_t samples);

// The primitive kind PsParamGen reports in its sign bits.
enum class ParamGenPrimitive : uint32_t { kPolygon, kLine, kPoint };

// The pixel's position as PsParamGen gives it, in guest pixels, along one axis with `scale`
// host pixels per guest pixel: the guest's integer pixel coordinate (vPos without the
// half-pixel: pixel 7 reads 7.0, Xenia registers.h SQ_CONTEXT_MISC param_gen_pos), continued
// linearly across the host pixels of a scaled guest pixel (the host pixel centre in guest
// pixels minus one half) so its screen derivative stays one guest pixel per guest pixel, and an
// odd scale's middle host pixel reads the 1x value; never below 0 (the sign bit carries a flag).
float ParamGenPosition(uint32_t host_pixel, uint32_t scale);

// PsParamGen (SQ_PROGRAM_CNTL param_gen into the register SQ_CONTEXT_MISC param_gen_pos names),
// as Xenia's translators encode it (spirv_shader_translator.cc, the pixel prologue):
//   x: |x| the pixel x; sign bit set for a back-facing polygon (vFace).
//   y: |y| the pixel y; sign bit set for a point.
//   z: a point's sprite s; otherwise 0 with the sign bit set for a line.
//   w: a point's sprite t; otherwise 0.
// Signs are set by flipping the bit, so pixel 0 of a back face reads -0.0 (shaders test it with
// rcp/cndge, which see the sign of zero). The sprite coordinate is passed as rasterized, not
// clamped to [0, 1] as Xenia's translators do against host extrapolation: a quad's helper pixels
// continue the sprite's plane, which is what gives the sprite its derivatives.
std::array<float, 4> PsParamGen(float x, float y, ParamGenPrimitive primitive, bool back_facing,
                                float point_s, float point_t);

}  // namespace xnt::gpu
