// The texture unit's coordinate -> texel rule, shared by every path: the cpu path's texture unit
// calls it, and the translated pixel shader's point fetch (renderer/vulkan/translator
// glsl_texel_address.cpp, xe_texel_index) is the same arithmetic in GLSL, so the texel a point
// sample reads does not depend on how a host sampler rounds.
//
// The Xenos texture unit does not floor the float texel coordinate: it converts the texel-space
// coordinate (the normalised coordinate times the level's size) to fixed point with 8 bits below
// the texel (1/256 texel; Xenia spirv_shader_translator_fetch.cc, the kRoundingOffset comment on
// "the fixed-point texture coordinate ULP with 8-bit subtexel precision"; 8 is also Direct3D 10's
// minimum sub-texel precision, which the R600 generation after the Xenos meets). Xenia found that
// games drawing pixel centres exactly on texel boundaries (interpolated coordinates, and
// unnormalised ones from ps_param_gen) need the texel to the right / below there, and emulates it
// with a +0.375/256 texel bias on hosts that truncate at 8 bits: a coordinate a few float ulps
// short of a boundary must land on it. The rule taken here is the one that bias approximates:
// the conversion rounds to the nearest 1/256 (a half step up). Not verified on a console.
// Point sampling then takes the integer part (floor, also for negative coordinates); the address
// mode (wrap, mirror, clamp, border) applies to that index.
//
// The conversion is done in floats so that GLSL computes the same value bit for bit: x * 256 is
// exact (a power of two), s - floor(s) is exact, and (fixed / 256) is exact.
#pragma once

#include <cstdint>

namespace xnt::gpu {

// Bits of the fixed-point texel coordinate below the texel.
inline constexpr uint32_t kTexelSubBits = 8;

// The fixed-point texel coordinate in units of 2^-kTexelSubBits texel, rounded to the nearest (a
// half step up), as a float holding an integer. NaN is 0; infinities stay infinite.
float TexelFixedPoint(float texel_coord);

// PointTexelIndex for every float, NaN and infinities included (the rule as written above).
int32_t PointTexelIndexGeneral(float texel_coord);

// The texel a point sample reads at `texel_coord` (normalised coordinate x the level's size):
// floor of the fixed-point coordinate, held to +-2^30 so that i + 1, 2 n and -1 - i stay in range
// (what the hardware does beyond its coordinate range is not known; both paths take this rule).
// Inline because the cpu path calls it twice per point-sampled texel: below 2^22 steps in
// magnitude, steps + 1/2 is exact in a float (its ulp is at most 1/4 there), so rounding to the
// nearest step (a half step up) is floor(steps + 1/2), done in integers without the
// data-dependent branch of the general rule, and the floor of fixed / 256 is an arithmetic shift.
// The same integers as PointTexelIndexGeneral (texel_coordinate_test compares the two).
inline int32_t PointTexelIndex(float texel_coord) {
  const float steps = texel_coord * float(1u << kTexelSubBits);
  if (steps > -4194304.0f && steps < 4194304.0f) {  // also false for NaN
    const float half_up = steps + 0.5f;
    int32_t fixed = int32_t(half_up);         // truncation toward zero...
    fixed -= int32_t(float(fixed) > half_up);  // ...made a floor
    return fixed >> kTexelSubBits;
  }
  return PointTexelIndexGeneral(texel_coord);
}

// A bilinear footprint's weight along one axis at `f` (the texel coordinate less half a texel):
// its fraction f - floor(f). The texture unit weighs in fixed point (the conversion above), which
// holds no infinity or NaN, so neither reaches the weight: an infinite coordinate is taken as a
// huge finite one, whose float has no fraction left (0, and its footprint index is held to
// +-2^30 as a point sample's), NaN as 0 (footprint at texel 0, weight 0). Without this, -inf -
// floor(-inf) is NaN and so is the filtered texel. Not verified on a console; the cpu path's
// texture unit and the fsi path's exact bilinear filter (glsl_exact_filter.cpp) take this rule.
float BilinearWeight(float f);

}  // namespace xnt::gpu
