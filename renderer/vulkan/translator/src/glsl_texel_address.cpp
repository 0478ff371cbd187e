// Texel addressing in the translated pixel shader (glsl_texel_address.h).
#include "glsl_texel_address.h"

namespace xnt::vk {

std::string GlslTexelIndexHelpers() {
  return R"GLSL(
// ---- Texel indices (renderer/cpu texture_unit.cpp, renderer/gpu texel_coordinate.h) ----

// i mod n in [0, n) (C++'s ((i % n) + n) % n; GLSL leaves % of a negative undefined).
int xe_exact_mod(int i, int n) { return i >= 0 ? i % n : (n - 1) - ((-1 - i) % n); }

// The texel index under a Xenos clamp mode (fetch constant dword 0 bits 10..12 x, 13..15 y,
// 16..18 z: 0 repeat, 1 mirrored repeat, 2 clamp to edge, 3 mirror clamp to edge, 4 clamp to
// halfway, 5 mirror clamp to halfway, 6 clamp to border, 7 mirror clamp to border), as the cpu
// path addresses them; -1: the border colour.
int xe_exact_address(uint mode, int i, int n) {
  if (mode == 0u) return xe_exact_mod(i, n);
  if (mode == 1u) {
    int m = xe_exact_mod(i, 2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  if (mode == 2u || mode == 4u) return clamp(i, 0, n - 1);
  if (mode == 6u) return i < 0 || i >= n ? -1 : i;
  return min(i < 0 ? -1 - i : i, n - 1);
}

// TextureUnit::FloorIndex: floor(f) as an index for every float (NaN 0, magnitude held to 2^30;
// GLSL's float -> int conversion of those is undefined).
int xe_exact_floor(float f) {
  return isnan(f) ? 0 : int(clamp(floor(f), -1073741824.0, 1073741824.0));
}

// gpu::BilinearWeight: the fraction, 0 for an infinite or NaN coordinate (the texture unit weighs
// in fixed point). Tested on the bits: a driver without SignedZeroInfNanPreserve may fold isinf.
float xe_exact_weight(float f) {
  if ((floatBitsToUint(f) & 0x7F800000u) == 0x7F800000u) return 0.0;
  precise float w = f - floor(f);
  return w;
}

// TextureUnit FilterTexels' bilinear footprint at texel coordinates t (uv x the level's size):
// its first texel floor(t - 0.5) and the weights of the next ones, every step `precise`.
void xe_exact_footprint(vec2 t, out ivec2 first, out vec2 weight) {
  precise float fx = t.x - 0.5;
  precise float fy = t.y - 0.5;
  first = ivec2(xe_exact_floor(fx), xe_exact_floor(fy));
  weight = vec2(xe_exact_weight(fx), xe_exact_weight(fy));
}

// gpu::TexelFixedPoint + PointTexelIndex: the texel coordinate to fixed point with 8 bits below
// the texel, rounded to the nearest step, then floored. Every step is exact in floats (scaling
// by powers of two, s - floor(s)), so the index is the cpu path's on any driver.
int xe_texel_index(float t) {
  if (isnan(t)) return 0;
  precise float steps = t * 256.0;
  float whole = floor(steps);
  precise float below = steps - whole;
  precise float fixed_point = below >= 0.5 ? whole + 1.0 : whole;
  precise float texel = floor(fixed_point * 0.00390625);
  return int(clamp(texel, -1073741824.0, 1073741824.0));
}

// The border colour of `slot`: fetch constant dword 5 bits 0..1, ABGR black, ABGR white, the two
// YCbCr blacks (as opaque black, TextureUnit BorderColor).
vec4 xe_border_color(uint slot) {
  uint border = xe_fetch_dword(slot * 6u + 5u) & 3u;
  return border == 0u ? vec4(0.0) : border == 1u ? vec4(1.0) : vec4(0.0, 0.0, 0.0, 1.0);
}

// The sampler's LOD range as the cpu path takes it (TextureUnit::Prepare): mip_min_level ..
// mip_max_level (dword 4 bits 2..5, 6..9) when the texture has mips (dword 5 bits 12..31) and the
// fetch constant's mip filter (dword 3 bits 23..24) is not base map (2); the instruction's `mip`
// (3: the fetch constant's) base map keeps it at its lowest level.
vec2 xe_lod_range(uint slot, uint mip) {
  uint d3 = xe_fetch_dword(slot * 6u + 3u);
  uint d4 = xe_fetch_dword(slot * 6u + 4u);
  uint d5 = xe_fetch_dword(slot * 6u + 5u);
  uint fetch_mip = (d3 >> 23u) & 3u;
  float min_lod = 0.0, max_lod = 0.0;
  if (fetch_mip != 2u && (d5 >> 12u) != 0u) {
    min_lod = float((d4 >> 2u) & 15u);
    max_lod = max(float((d4 >> 6u) & 15u), min_lod);
  }
  if ((mip == 3u ? fetch_mip : mip) == 2u) max_lod = min_lod;
  return vec2(min_lod, max_lod);
}
)GLSL";
}

std::string GlslTexelAddressHelpers() {
  return R"GLSL(
// ---- Texel addressing (renderer/cpu texture_unit.cpp, renderer/gpu texel_coordinate.h) ----

vec4 xe_exact_texel(sampler2DArray t, uint slot, int x, int y, int layer, ivec2 size) {
  uint d0 = xe_fetch_dword(slot * 6u + 0u);
  int ax = xe_exact_address((d0 >> 10u) & 7u, x, size.x);
  int ay = xe_exact_address((d0 >> 13u) & 7u, y, size.y);
  if (ax < 0 || ay < 0) return xe_border_color(slot);
  return texelFetch(t, ivec3(ax, ay, layer), 0);
}

// Whether the cpu path's texture unit filters this fetch with the magnification filter
// (TextureUnit::Walk, Prepare, ClampLambda): lambda = log2 of the longer texel-space coarse
// derivative + the fetch constant's bias (dword 4 bits 12..21, 1/32) + the instruction's,
// clamped to xe_lod_range, NaN the finest; magnified at <= 0.
// `size` is the bound texture's; the level counts in xe_lod_texel_scale's texels, per guest
// pixel at a resolution scale (xe_derivative_scale), exactly as the cpu path multiplies.
bool xe_texel_magnified(uint slot, vec2 uv, vec2 size, uint mip, float instruction_bias) {
  vec2 lod_size = vec2(uvec2(size) / uvec2(xe_texture_scale(slot))) * xe_lod_texel_scale(slot);
  precise vec2 dx = dFdxCoarse(uv) * xe_derivative_scale().x;
  precise vec2 dy = dFdyCoarse(uv) * xe_derivative_scale().y;
  dx = dx * lod_size;
  dy = dy * lod_size;
  float rho = max(sqrt(dx.x * dx.x + dx.y * dx.y), sqrt(dy.x * dy.x + dy.y * dy.y));
  uint d4 = xe_fetch_dword(slot * 6u + 4u);
  float lambda = log2(rho) + float(bitfieldExtract(int(d4), 12, 10)) / 32.0 + instruction_bias;
  vec2 range = xe_lod_range(slot, mip);
  if (isnan(lambda)) lambda = range.x;
  return clamp(lambda, range.x, range.y) <= 0.0;
}

// Whether the cpu path point-samples this fetch at level 0 (TextureUnit::FilterAt): the
// magnification filter when magnified, else the minification filter of a texture of one level
// without anisotropic walking. Instruction filters 3 (aniso 7) are the fetch constant's (dword 3
// mag bits 19..20, min 21..22, aniso 25..27); every filter but linear (1) samples the nearest.
// `dimension`: the fetch constant's the instruction reads (0 1D, 1 2D or stacked); another
// texture is not bound where the instruction reads.
bool xe_point_applies(uint slot, uint dimension, uint mag, uint minf, uint aniso, bool magnified, int levels) {
  uint d3 = xe_fetch_dword(slot * 6u + 3u);
  if (mag == 3u) mag = (d3 >> 19u) & 3u;
  if (minf == 3u) minf = (d3 >> 21u) & 3u;
  if (aniso == 7u) aniso = (d3 >> 25u) & 7u;
  if (xe_texture_dimension(slot) != dimension) return false;
  if (magnified) return mag != 1u;
  return minf != 1u && levels == 1 && (aniso < 2u || aniso > 5u);
}

// The point sample at level 0: the texel xe_texel_index picks, addressed as the cpu path does.
vec4 xe_point_texel(sampler2DArray t, uint slot, vec2 uv, int layer) {
  ivec2 size = textureSize(t, 0).xy;
  precise float tx = uv.x * float(size.x);
  precise float ty = uv.y * float(size.y);
  return xe_exact_texel(t, slot, xe_texel_index(tx), xe_texel_index(ty), layer, size);
}
)GLSL";
}

}  // namespace xnt::vk
