// A volume's z filter in the shader (glsl_volume_filter.h): every step in the cpu path's order,
// `precise` where it computes, so that the value is the texture unit's on any driver.
#include "glsl_volume_filter.h"

namespace xnt::vk {

namespace {

// One level of a volume: texels, a slice's x/y filter, the z filter between slices.
constexpr const char* kVolumeLevel = R"GLSL(
// ---- A volume's own z filter (renderer/cpu texture_unit.cpp FilterVolume) ----

// Texel i of a volume's level, addressed with the fetch constant's clamp modes (dword 0 bits
// 10..12 x, 13..15 y, 16..18 z); outside under a border mode the border colour.
vec4 xe_volume_texel(sampler3D t, uint slot, ivec3 i, int level, ivec3 size) {
  uint d0 = xe_fetch_dword(slot * 6u + 0u);
  int ax = xe_exact_address((d0 >> 10u) & 7u, i.x, size.x);
  int ay = xe_exact_address((d0 >> 13u) & 7u, i.y, size.y);
  int az = xe_exact_address((d0 >> 16u) & 7u, i.z, size.z);
  if (ax < 0 || ay < 0 || az < 0) return xe_border_color(slot);
  return texelFetch(t, ivec3(ax, ay, az), level);
}

// Slice z of a level across x and y: the texel of the fixed-point coordinate, or the bilinear
// footprint from t - 1/2 with two lerps across and one down (TextureUnit FilterTexels). One
// texelFetch site in a loop: a driver that inlines everything (lavapipe) compiles it once.
vec4 xe_volume_slice(sampler3D t, uint slot, vec2 uv, int z, int level, ivec3 size, bool linear) {
  precise float tx = uv.x * float(size.x);
  precise float ty = uv.y * float(size.y);
  ivec2 i = ivec2(xe_texel_index(tx), xe_texel_index(ty));
  vec2 a = vec2(0.0);
  if (linear) xe_exact_footprint(vec2(tx, ty), i, a);
  vec4 c[4];
  for (int k = 0; k < (linear ? 4 : 1); ++k) {
    c[k] = xe_volume_texel(t, slot, ivec3(i.x + (k & 1), i.y + (k >> 1), z), level, size);
  }
  if (!linear) return c[0];
  precise vec4 top = c[0] + (c[1] - c[0]) * a.x;
  precise vec4 bottom = c[2] + (c[3] - c[2]) * a.x;
  precise vec4 r = top + (bottom - top) * a.y;
  return r;
}

// A level: the slice of the fixed-point slice coordinate, or the two slices around it - 1/2
// weighed by its fraction (TextureUnit::FilterVolume).
vec4 xe_volume_level(sampler3D t, uint slot, vec3 uvw, int level, bool linear, bool z_linear) {
  ivec3 size = textureSize(t, level);
  precise float slice = uvw.z * float(size.z);
  precise float fz = slice - 0.5;
  int z0 = z_linear ? xe_exact_floor(fz) : xe_texel_index(slice);
  vec4 c[2];
  for (int k = 0; k < (z_linear ? 2 : 1); ++k) c[k] = xe_volume_slice(t, slot, uvw.xy, z0 + k, level, size, linear);
  if (!z_linear) return c[0];
  float az = xe_exact_weight(fz);
  precise vec4 r = c[0] + (c[1] - c[0]) * az;
  return r;
}
)GLSL";

// The filters, levels and footprint at the texture unit's level of detail.
constexpr const char* kVolumeFootprint = R"GLSL(
// The filters at lambda: x and y the instruction's mag / min (3: the fetch constant's, dword 3
// bits 19..20 / 21..22), z its vol_mag / vol_min (0 point, 1 linear, else the fetch constant's
// dword 4 bit 0 / 1); magnified at lambda <= 0. `filters`: mag, min, vol_mag, vol_min.
bvec2 xe_volume_linear(uint slot, uvec4 filters, bool magnified) {
  uint d3 = xe_fetch_dword(slot * 6u + 3u);
  uint d4 = xe_fetch_dword(slot * 6u + 4u);
  uint xy = magnified ? filters.x : filters.y;
  if (xy == 3u) xy = (d3 >> (magnified ? 19u : 21u)) & 3u;
  uint z = magnified ? filters.z : filters.w;
  bool z_linear = z < 2u ? z == 1u : ((d4 >> (magnified ? 0u : 1u)) & 1u) != 0u;
  return bvec2(xy == 1u, z_linear);
}

// The levels at lambda (clamped already) and their blend (TextureUnit::PickLevels): level 0
// magnified; minified the two around lambda with a linear mip filter (instruction's `mip`, 3:
// the fetch constant's dword 3 bits 23..24), else ceil(lambda + 1/2) - 1; never past the last.
vec4 xe_volume_filter(sampler3D t, uint slot, vec3 uvw, float lambda, uvec4 filters, uint mip) {
  bool magnified = lambda <= 0.0;
  bvec2 linear = xe_volume_linear(slot, filters, magnified);
  if (mip == 3u) mip = (xe_fetch_dword(slot * 6u + 3u) >> 23u) & 3u;
  int top = textureQueryLevels(t) - 1;
  bool blend = !magnified && mip == 1u;
  float below = floor(lambda);
  int lo = magnified ? 0 : blend ? min(int(below), top) : min(int(ceil(lambda + 0.5) - 1.0), top);
  int hi = blend ? min(lo + 1, top) : lo;
  vec4 c[2];
  for (int k = 0; k < (hi != lo ? 2 : 1); ++k) c[k] = xe_volume_level(t, slot, uvw, lo + k, linear.x, linear.y);
  if (!blend) return c[0];
  if (hi == lo) c[1] = c[0];
  precise float f = lambda - below;
  precise vec4 r = c[0] + (c[1] - c[0]) * f;
  return r;
}

// lambda plus the fetch constant's bias (dword 4 bits 12..21, 1/32) and the instruction's, one
// after the other, clamped to xe_lod_range; NaN the lowest level (TextureUnit ClampLambda).
float xe_volume_clamp(uint slot, float lambda, float instruction_bias, uint mip) {
  uint d4 = xe_fetch_dword(slot * 6u + 4u);
  precise float l = lambda + float(bitfieldExtract(int(d4), 12, 10)) / 32.0;
  l = l + instruction_bias;
  vec2 range = xe_lod_range(slot, mip);
  return isnan(l) ? range.x : clamp(l, range.x, range.y);
}

// The fetch of a volume where its z filter differs from its x/y filter at the texture unit's
// level of detail: then `texel` becomes the texture unit's value and the result is true (a host
// sample is left as it is otherwise). `lod`: 0 derivatives `dx`, `dy` (coordinate units, per
// guest pixel; the quad's or the register gradients) in texels (unnormalised coordinates
// `denorm` already are, others times the level-0 size) give the footprint (TextureUnit::Walk:
// lambda of the longer axis, with an anisotropic filter (instruction's `aniso`, 7: dword 3 bits
// 25..27; 2..5 = 2:1..16:1) the probes along the major axis); 1 `explicit_lambda` plus the
// biases (a register LOD or level 0); 2 no derivatives (lambda 0, no bias). `uvw` normalised,
// offsets applied.
bool xe_volume_sample(sampler3D t, uint slot, vec3 uvw, vec3 dx, vec3 dy, bool denorm, uint lod,
                      float explicit_lambda, float instruction_bias, uvec4 filters, uint mip,
                      uint aniso, inout vec4 texel) {
  float lambda;
  uint probes = 1u;
  vec3 major = vec3(0.0);
  if (lod == 0u) {
    vec3 texels = denorm ? vec3(1.0) : vec3(textureSize(t, 0));
    precise vec3 tx = dx * texels;
    precise vec3 ty = dy * texels;
    precise float sx = tx.x * tx.x + tx.y * tx.y;
    sx = sx + tx.z * tx.z;
    precise float sy = ty.x * ty.x + ty.y * ty.y;
    sy = sy + ty.z * ty.z;
    float px = sqrt(sx), py = sqrt(sy);
    float rho = max(px, py);
    lambda = log2(rho);
    if (aniso == 7u) aniso = (xe_fetch_dword(slot * 6u + 3u) >> 25u) & 7u;
    float max_aniso = aniso >= 2u && aniso <= 5u ? float(1u << (aniso - 1u)) : 1.0;
    if (max_aniso > 1.0 && rho > 1.0) {
      float minor = min(px, py);
      float ratio = minor > 0.0 ? ceil(rho / minor) : max_aniso;
      if (!(ratio >= 1.0)) ratio = max_aniso;
      probes = uint(clamp(ratio, 1.0, max_aniso));
      if (probes > 1u) {
        float eta = minor > 0.0 ? min(rho / minor, max_aniso) : max_aniso;
        lambda = log2(rho / max(eta, 1.0));
        // The probes move along x and y; in normalised units for the normalised uvw.
        major = px >= py ? dx : dy;
        if (denorm) major = major / vec3(textureSize(t, 0));
      }
    }
    lambda = xe_volume_clamp(slot, lambda, instruction_bias, mip);
  } else if (lod == 1u) {
    lambda = xe_volume_clamp(slot, explicit_lambda, instruction_bias, mip);
  } else {
    vec2 range = xe_lod_range(slot, mip);
    lambda = clamp(0.0, range.x, range.y);
  }
  bvec2 linear = xe_volume_linear(slot, filters, lambda <= 0.0);
  if (linear.x == linear.y) return false;
  // One probe: its value as it is; more: their mean (TextureUnit::SampleFootprint).
  vec4 sum = vec4(0.0);
  for (uint i = 1u; i <= probes; ++i) {
    precise float s = probes == 1u ? 0.0 : float(i) / float(probes + 1u) - 0.5;
    precise vec2 probe = uvw.xy + s * major.xy;
    vec4 v = xe_volume_filter(t, slot, vec3(probe, uvw.z), lambda, filters, mip);
    sum = probes == 1u ? v : sum + v;
  }
  texel = probes == 1u ? sum : sum / float(probes);
  return true;
}
)GLSL";

}  // namespace

std::string GlslVolumeFilterHelpers() { return std::string(kVolumeLevel) + kVolumeFootprint; }

}  // namespace xnt::vk
