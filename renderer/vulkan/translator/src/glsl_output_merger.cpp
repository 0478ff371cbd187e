// The fsi output merger in GLSL (see glsl_output_merger.h). Every function mirrors one of the
// cpu path (renderer/cpu/src/output_merger.cpp) or of the EDRAM encodings
// (renderer/gpu/src/edram.cpp) operation for operation, so the bits agree:
// - float arithmetic is `precise` (no fused multiply-add, which the C++ build never emits);
// - NaN is detected from the bits (a driver may fold ordered comparisons without
//   SignedZeroInfNanPreserve), and min/max/clamp are written as the C++ library's selects;
// - divisions by 3, 255 and 1023 (2^n - 1) are corrected to the IEEE quotient: Vulkan only
//   requires 2.5 ULP for OpFDiv, and NVIDIA's compiler uses a reciprocal;
// - the float constants the C++ computes (32 / 32767, 1 / 1023) are passed as their bits.
#include "glsl_output_merger.h"

#include "glsl_polygon_offset.h"
#include "glsl_prelude.h"

#include "xnt/vk/translator/output_merger_interface.h"
#include "xnt/vk/translator/shader_interface.h"

#include <bit>
#include <cstdio>

namespace xnt::vk {

namespace {

std::string FloatBits(float f) {
  char b[40];
  std::snprintf(b, sizeof(b), "uintBitsToFloat(0x%08Xu)", std::bit_cast<uint32_t>(f));
  return b;
}

// The parts of the text that are constants from C++.
std::string Constants() {
  return "#define XE_OM_FROM_FIXED16 " + FloatBits(32.0f / 32767.0f) + "\n" +
         "#define XE_OM_TO_FIXED16 " + FloatBits(32767.0f / 32.0f) + "\n" +
         "#define XE_OM_INV_1023 " + FloatBits(1.0f / 1023.0f) + "\n";
}

const char kDeclarations[] = R"GLSL(
// coherent: a later critical section of the same pixel may run on another core; its reads must
// see this one's writes, not a stale cache line (the interlock orders, coherence makes visible).
layout(set = 3, binding = 0, std430) coherent buffer XeEdram { uint xe_edram[]; };
layout(set = 3, binding = 1, std140) uniform XeOutputMergerConstants {
  uvec4 rt_base;
  uvec4 rt_pitch_tiles;
  uvec4 rt_format;
  uvec4 rt_blend;
  uvec4 rt_keep_lo;
  uvec4 rt_keep_hi;
  uvec4 rt_flags;
  vec4 rt_exp_scale;
  vec4 blend_constant;
  uvec4 surface;
  uvec4 depth;
  uvec4 misc;
  uvec4 stencil_front;
  uvec4 stencil_back;
  vec4 alpha_ref_offsets;
  vec4 slope_factors;
} xe_om;
)GLSL";

const char kFunctions[] = R"GLSL(
bool xe_om_nan(float f) { return (floatBitsToUint(f) & 0x7FFFFFFFu) > 0x7F800000u; }
// f > 0 without relying on ordered comparisons: not NaN, sign clear, not zero.
bool xe_om_positive(float f) {
  uint u = floatBitsToUint(f);
  return u != 0u && (u & 0x80000000u) == 0u && !xe_om_nan(f);
}
// std::min / std::max / std::clamp as the C++ library selects (NaN handling included).
float xe_om_min(float a, float b) { return b < a ? b : a; }
float xe_om_max(float a, float b) { return a < b ? b : a; }
float xe_om_clamp(float v, float lo, float hi) { return v < lo ? lo : (hi < v ? hi : v); }

// CompareFunction bits: 1 less, 2 equal, 4 greater.
bool xe_om_compare_f(uint func, float v, float r) {
  return ((func & 1u) != 0u && v < r) || ((func & 2u) != 0u && v == r) ||
         ((func & 4u) != 0u && v > r);
}
bool xe_om_compare_u(uint func, uint v, uint r) {
  return ((func & 1u) != 0u && v < r) || ((func & 2u) != 0u && v == r) ||
         ((func & 4u) != 0u && v > r);
}

// a - (2^n - 1) * q exactly: q * 2^n is exact, and both subtractions are exact by Sterbenz's
// lemma while q is within a few ULP of a / (2^n - 1).
float xe_om_residual(float a, float q, uint n) {
  precise float t = q * float(1u << n);
  precise float s = a - t;
  precise float r = s + q;
  return r;
}
// a / (2^n - 1) rounded to nearest even, for finite a >= 0.
float xe_om_div(float a, uint n) {
  precise float q = a / float((1u << n) - 1u);
  if (!xe_om_positive(a)) return q;
  for (int i = 0; i < 4; ++i) {
    float up = uintBitsToFloat(floatBitsToUint(q) + 1u);
    float dn = uintBitsToFloat(floatBitsToUint(q) - 1u);
    float r = abs(xe_om_residual(a, q, n));
    float r_up = abs(xe_om_residual(a, up, n));
    float r_dn = abs(xe_om_residual(a, dn, n));
    if (r_up < r || (r_up == r && (floatBitsToUint(up) & 1u) == 0u)) {
      q = up;
    } else if (r_dn < r || (r_dn == r && (floatBitsToUint(dn) & 1u) == 0u)) {
      q = dn;
    } else {
      break;
    }
  }
  return q;
}

uint xe_om_unorm(float v, uint bits) {
  float m = float((1u << bits) - 1u);
  if (!xe_om_positive(v)) return 0u;
  if (v >= 1.0) return uint(m);
  precise float t = v * m + 0.5;
  return uint(t);
}
uint xe_om_fixed16(float v) {
  if (xe_om_nan(v)) v = 0.0;
  precise float c = xe_om_clamp(v, -32.0, 32.0) * XE_OM_TO_FIXED16;
  // std::lround: half away from zero (|c| + 0.5 is exact below 2^22).
  precise float a = floor(abs(c) + 0.5);
  int i = int(a);
  return uint(c < 0.0 ? -i : i) & 0xFFFFu;
}
float xe_om_from_fixed16(uint bits) {
  int v = int(bits << 16) >> 16;
  precise float f = float(v) * XE_OM_FROM_FIXED16;
  return f;
}

uint xe_om_to_7e3(float f) {
  if (!xe_om_positive(f)) return 0u;
  uint u = min(floatBitsToUint(f), 0x41FF0000u);
  if (u < 0x3E800000u) {
    uint shift = min(125u - (u >> 23), 24u);
    u = (0x800000u | (u & 0x7FFFFFu)) >> shift;
  } else {
    u += 0xC2000000u;
  }
  u += 0x7FFFu + ((u >> 16) & 1u);
  return (u >> 16) & 0x3FFu;
}
float xe_om_from_7e3(uint f10) { return xe_small_float_to_32(f10 & 0x3FFu, 7u, 124u); }
uint xe_om_to_half(float f) {
  uint u = floatBitsToUint(f);
  uint sign = (u >> 16) & 0x8000u;
  uint a = u & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) {
    return sign | 0x7C00u | (a > 0x7F800000u ? (0x200u | ((a >> 13) & 0x3FFu)) : 0u);
  }
  if (a >= 0x477FF000u) return sign | 0x7C00u;
  if (a < 0x38800000u) {
    uint shift = 113u - (a >> 23);
    if (shift > 24u || shift + 13u >= 32u) return sign;
    uint m = 0x800000u | (a & 0x7FFFFFu);
    uint h = m >> (shift + 13u);
    uint rest = m & ((1u << (shift + 13u)) - 1u), mid = 1u << (shift + 12u);
    if (rest > mid || (rest == mid && (h & 1u) != 0u)) ++h;
    return sign | h;
  }
  uint h = (a - 0x38000000u) >> 13;
  uint rest = a & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u) != 0u)) ++h;
  return sign | h;
}
float xe_om_from_half(uint h) {
  uint sign = (h & 0x8000u) << 16;
  uint e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  uint bits;
  if (e == 0u) {
    if (m == 0u) {
      bits = sign;
    } else {
      e = 113u;
      while ((m & 0x400u) == 0u) {
        m <<= 1;
        --e;
      }
      bits = sign | (e << 23) | ((m & 0x3FFu) << 13);
    }
  } else if (e == 31u) {
    bits = sign | 0x7F800000u | (m << 13);
  } else {
    bits = sign | ((e + 112u) << 23) | (m << 13);
  }
  return uintBitsToFloat(bits);
}
// The Xenos float16 of the 16_16(_16_16)_FLOAT targets: exponent 31 is ordinary (+-131008),
// NaN stores 0.
uint xe_om_to_xenos_half(float f) {
  if (xe_om_nan(f)) return 0u;
  float c = xe_om_clamp(f, -131008.0, 131008.0);
  if ((floatBitsToUint(c) & 0x7FFFFFFFu) < 0x477FF000u) return xe_om_to_half(c);
  precise float half_c = c * 0.5;
  return (xe_om_to_half(half_c) + 0x400u) & 0xFFFFu;
}
float xe_om_from_xenos_half(uint h) {
  if (((h >> 10) & 0x1Fu) != 31u) return xe_om_from_half(h);
  return uintBitsToFloat(((h & 0x8000u) << 16) | ((31u + 112u) << 23) | ((h & 0x3FFu) << 13));
}

// Xenos piecewise-linear gamma (4 segments; 8-bit gamma <-> 10-bit linear).
float xe_om_pwl_to_linear(float gamma) {
  float g = xe_om_clamp(gamma, 0.0, 1.0);
  if (xe_om_nan(g)) g = 0.0;
  float scale, offset;
  if (g >= 96.0 / 255.0) {
    if (g >= 192.0 / 255.0) {
      scale = 8.0 / 1024.0;
      offset = -1024.0;
    } else {
      scale = 4.0 / 1024.0;
      offset = -256.0;
    }
  } else if (g >= 64.0 / 255.0) {
    scale = 2.0 / 1024.0;
    offset = -64.0;
  } else {
    scale = 1.0 / 1024.0;
    offset = 0.0;
  }
  precise float linear = g * (255.0 * 1024.0 * scale) + offset;
  precise float step = trunc(linear * scale);
  precise float sum = linear + step;
  precise float result = sum * XE_OM_INV_1023;
  return result;
}
float xe_om_linear_to_pwl(float linear) {
  float l = xe_om_clamp(linear, 0.0, 1.0);
  if (xe_om_nan(l)) l = 0.0;
  precise float l10 = l * 1023.0;
  precise float g8;
  if (l10 < 64.0) {
    g8 = l10;
  } else if (l10 < 128.0) {
    g8 = (l10 + 64.0) * 0.5;
  } else if (l10 < 512.0) {
    g8 = (l10 + 256.0) * 0.25;
  } else {
    g8 = (l10 + 1024.0) * 0.125;
  }
  return xe_om_min(xe_om_div(g8, 8u), 1.0);
}

// Colour formats (ColorRenderTargetFormat numbers) <-> guest bits (x: low dword, y: high).
uvec2 xe_om_pack(uint format, vec4 c) {
  switch (format) {
    case 0u:
      return uvec2(xe_om_unorm(c.r, 8u) | (xe_om_unorm(c.g, 8u) << 8) |
                   (xe_om_unorm(c.b, 8u) << 16) | (xe_om_unorm(c.a, 8u) << 24), 0u);
    case 1u:
      return uvec2(xe_om_unorm(xe_om_linear_to_pwl(c.r), 8u) |
                   (xe_om_unorm(xe_om_linear_to_pwl(c.g), 8u) << 8) |
                   (xe_om_unorm(xe_om_linear_to_pwl(c.b), 8u) << 16) |
                   (xe_om_unorm(c.a, 8u) << 24), 0u);
    case 2u:
    case 10u:
      return uvec2(xe_om_unorm(c.r, 10u) | (xe_om_unorm(c.g, 10u) << 10) |
                   (xe_om_unorm(c.b, 10u) << 20) | (xe_om_unorm(c.a, 2u) << 30), 0u);
    case 3u:
    case 12u:
      return uvec2(xe_om_to_7e3(c.r) | (xe_om_to_7e3(c.g) << 10) | (xe_om_to_7e3(c.b) << 20) |
                   (xe_om_unorm(c.a, 2u) << 30), 0u);
    case 4u:
      return uvec2(xe_om_fixed16(c.r) | (xe_om_fixed16(c.g) << 16), 0u);
    case 5u:
      return uvec2(xe_om_fixed16(c.r) | (xe_om_fixed16(c.g) << 16),
                   xe_om_fixed16(c.b) | (xe_om_fixed16(c.a) << 16));
    case 6u:
      return uvec2(xe_om_to_xenos_half(c.r) | (xe_om_to_xenos_half(c.g) << 16), 0u);
    case 7u:
      return uvec2(xe_om_to_xenos_half(c.r) | (xe_om_to_xenos_half(c.g) << 16),
                   xe_om_to_xenos_half(c.b) | (xe_om_to_xenos_half(c.a) << 16));
    case 14u:
      return uvec2(floatBitsToUint(c.r), 0u);
    case 15u:
      return uvec2(floatBitsToUint(c.r), floatBitsToUint(c.g));
  }
  return uvec2(0u);
}
vec4 xe_om_unpack(uint format, uvec2 b) {
  switch (format) {
    case 0u:
    case 1u: {
      vec4 c = vec4(xe_om_div(float(b.x & 0xFFu), 8u), xe_om_div(float((b.x >> 8) & 0xFFu), 8u),
                    xe_om_div(float((b.x >> 16) & 0xFFu), 8u), xe_om_div(float(b.x >> 24), 8u));
      if (format == 1u) {
        c.rgb = vec3(xe_om_pwl_to_linear(c.r), xe_om_pwl_to_linear(c.g), xe_om_pwl_to_linear(c.b));
      }
      return c;
    }
    case 2u:
    case 10u:
      return vec4(xe_om_div(float(b.x & 0x3FFu), 10u), xe_om_div(float((b.x >> 10) & 0x3FFu), 10u),
                  xe_om_div(float((b.x >> 20) & 0x3FFu), 10u), xe_om_div(float(b.x >> 30), 2u));
    case 3u:
    case 12u:
      return vec4(xe_om_from_7e3(b.x), xe_om_from_7e3(b.x >> 10), xe_om_from_7e3(b.x >> 20),
                  xe_om_div(float(b.x >> 30), 2u));
    case 4u:
      return vec4(xe_om_from_fixed16(b.x & 0xFFFFu), xe_om_from_fixed16(b.x >> 16), 0.0, 1.0);
    case 5u:
      return vec4(xe_om_from_fixed16(b.x & 0xFFFFu), xe_om_from_fixed16(b.x >> 16),
                  xe_om_from_fixed16(b.y & 0xFFFFu), xe_om_from_fixed16(b.y >> 16));
    case 6u:
      return vec4(xe_om_from_xenos_half(b.x & 0xFFFFu), xe_om_from_xenos_half(b.x >> 16), 0.0, 1.0);
    case 7u:
      return vec4(xe_om_from_xenos_half(b.x & 0xFFFFu), xe_om_from_xenos_half(b.x >> 16),
                  xe_om_from_xenos_half(b.y & 0xFFFFu), xe_om_from_xenos_half(b.y >> 16));
    case 14u:
      return vec4(uintBitsToFloat(b.x), 0.0, 0.0, 1.0);
    case 15u:
      return vec4(uintBitsToFloat(b.x), uintBitsToFloat(b.y), 0.0, 1.0);
  }
  return vec4(0.0);
}

// Blend factors (BlendFactor numbers) and ops (BlendOp numbers).
float xe_om_factor(uint f, uint c, vec4 src, vec4 dst, vec4 k) {
  switch (f) {
    case 0u: return 0.0;
    case 1u: return 1.0;
    case 4u: return src[c];
    case 5u: { precise float v = 1.0 - src[c]; return v; }
    case 6u: return src.a;
    case 7u: { precise float v = 1.0 - src.a; return v; }
    case 8u: return dst[c];
    case 9u: { precise float v = 1.0 - dst[c]; return v; }
    case 10u: return dst.a;
    case 11u: { precise float v = 1.0 - dst.a; return v; }
    case 12u: return k[c];
    case 13u: { precise float v = 1.0 - k[c]; return v; }
    case 14u: return k.a;
    case 15u: { precise float v = 1.0 - k.a; return v; }
    case 16u: {
      precise float v = 1.0 - dst.a;
      return c == 3u ? 1.0 : xe_om_min(src.a, v);
    }
  }
  return 0.0;
}
float xe_om_combine(uint op, float s, float fs, float d, float fd) {
  precise float a = s * fs;
  precise float b = d * fd;
  switch (op) {
    case 1u: { precise float v = a - b; return v; }
    case 2u: return xe_om_min(s, d);
    case 3u: return xe_om_max(s, d);
    case 4u: { precise float v = b - a; return v; }
  }
  precise float v = a + b;
  return v;
}

// Dword index in xe_edram of sample `s` of host pixel p (edram.h Surface::SampleOffset).
uint xe_om_dword(uint base, uint pitch_tiles, bool wide, bool is_depth, uvec2 p, uint s) {
  uint msaa = xe_om.surface.y;
  uint sx = p.x * (msaa == 2u ? 2u : 1u), sy = p.y * (msaa == 0u ? 1u : 2u);
  if (msaa == 1u) {
    sy += s;
  } else if (msaa == 2u) {
    sx += s & 1u;
    sy += s >> 1;
  }
  uint row = 80u * xe_om.surface.z;
  uint tile_width = wide ? row / 2u : row;
  uint tile_height = 16u * xe_om.surface.w;
  uint in_x = sx % tile_width, in_y = sy % tile_height;
  if (is_depth) in_x = (in_x + row / 2u) % row;
  uint tile = (base + (sy / tile_height) * pitch_tiles + sx / tile_width) % 2048u;
  return tile * 1280u * xe_om.surface.z * xe_om.surface.w +
         (in_y * tile_width + in_x) * (wide ? 2u : 1u);
}

uint xe_om_sample_count() { return xe_om.surface.y == 0u ? 1u : (xe_om.surface.y == 1u ? 2u : 4u); }

// Guest coverage from the host's (misc.z).
uint xe_om_coverage_in() {
  uint host = uint(gl_SampleMaskIn[0]);
  uint mode = xe_om.misc.z;
  if (mode == 1u) return ((host & 1u) << 1) | ((host >> 1) & 1u);
  if (mode == 2u) return (host & 1u) | ((host >> 2) & 2u);
  return host & ((1u << xe_om_sample_count()) - 1u);
}

// Alpha to mask (cpu OutputMerger::AlphaToMask): thresholds per guest sample lowered by the
// offset / 4 / sample count of the guest pixel's place in its quad (host pixel p over the scale).
uint xe_om_alpha_to_mask(uvec2 p, float alpha) {
  uvec2 g = p / max(xe_om.surface.zw, uvec2(1u));
  uint quad = ((g.x & 1u) << 1) | (g.y & 1u);
  uint offset = (xe_om.misc.y >> (2u * quad)) & 3u;
  uint n = xe_om_sample_count();
  precise float step = float(offset) / (4.0 * float(n));
  uint mask = 0u;
  for (uint s = 0u; s < n; ++s) {
    float base = 1.0;
    if (n == 4u) base = s == 0u ? 0.75 : (s == 1u ? 0.25 : (s == 2u ? 0.5 : 1.0));
    if (n == 2u) base = s == 0u ? 0.5 : 1.0;
    precise float threshold = base - step;
    if (alpha >= threshold) mask |= 1u << s;
  }
  return mask;
}

// Coverage after the alpha test and alpha to mask (outside the critical section).
uint xe_om_prepare(vec4 colors[4], uint written) {
  uint coverage = xe_om_coverage_in();
  uint flags = xe_om.depth.z;
  if ((written & 1u) != 0u) {
    if ((flags & 8u) != 0u &&
        !xe_om_compare_f(xe_om.misc.x, colors[0].a, xe_om.alpha_ref_offsets.x)) {
      return 0u;
    }
    if ((flags & 16u) != 0u) coverage &= xe_om_alpha_to_mask(uvec2(gl_FragCoord.xy), colors[0].a);
  }
  return coverage;
}

// Per-sample depth: the pixel's depth plane at the guest sample positions (rasterizer.cpp
// SamplePositions) plus the polygon offset, or the shader's oDepth for every sample.
vec4 xe_om_depths(float frag_z, bool depth_written, float shader_z, vec2 dz) {
  if (depth_written) {
    // clip_disable clamps oDepth too (the cpu path's pixel stage; the fbo host's depth clamp).
    if ((xe_om.depth.z & 64u) != 0u) {
      shader_z = shader_z < 0.0 ? 0.0 : (shader_z > 1.0 ? 1.0 : shader_z);
    }
    return vec4(shader_z);
  }
  bool front = gl_FrontFacing;
#ifdef XE_OM_EXACT_POLYGON_OFFSET
  double exact_offset = xe_om_triangle_offset(front);
#endif
  // The slope per guest pixel at a resolution scale (slope_factors.zw); dz stays per host pixel
  // for the samples' planes below.
  precise float slope = max(abs(dz.x) * xe_om.slope_factors.z, abs(dz.y) * xe_om.slope_factors.w) *
                        (front ? xe_om.slope_factors.x : xe_om.slope_factors.y);
  float constant = front ? xe_om.alpha_ref_offsets.y : xe_om.alpha_ref_offsets.z;
  if ((xe_om.depth.z & 32u) != 0u && constant != 0.0) {
    // 20e4: r = 2^(e - 23), e the exponent of the depth (gpu/polygon_offset.h; the fragment's
    // own depth stands in for the primitive's largest).
    int e = int((floatBitsToUint(max(abs(frag_z), uintBitsToFloat(0x00800000u))) >> 23) & 0xFFu) - 127;
    constant *= exp2(float(e - 23));
  }
  precise float offset = slope + constant;
  vec4 z;
  uint n = xe_om_sample_count();
#ifdef XE_OM_EXACT_POLYGON_OFFSET
  // The cpu path's depth from the snapped vertices, not the host's float plane, which rounds
  // otherwise (docs/fsi.md "Polygon offset").
  vec4 exact_z;
  bool exact = xe_om_exact_depths(uvec2(gl_FragCoord.xy), n, exact_z);
#endif
  for (uint s = 0u; s < 4u; ++s) {
    vec2 pos = vec2(0.5);
    if (n == 2u) pos = s == 0u ? vec2(0.25) : vec2(0.75);
    if (n == 4u) {
      pos = s == 0u ? vec2(0.375, 0.125) : (s == 1u ? vec2(0.875, 0.375) :
            (s == 2u ? vec2(0.125, 0.625) : vec2(0.625, 0.875)));
    }
    precise float zs = n == 1u ? frag_z : frag_z + dz.x * (pos.x - 0.5) + dz.y * (pos.y - 0.5);
#ifdef XE_OM_EXACT_POLYGON_OFFSET
    if (exact) zs = exact_z[s];
    // cpu OffsetDepth: float(clamp(double(z) + bias, 0, 1)) with the triangle's double bias.
    if (exact_offset != 0.0lf) {
      precise double biased = double(zs) + exact_offset;
      zs = float(biased < 0.0lf ? 0.0lf : (1.0lf < biased ? 1.0lf : biased));
    }
#else
    if (offset != 0.0) {
      precise float biased = zs + offset;
      zs = xe_om_clamp(biased, 0.0, 1.0);
    }
#endif
    // clip_disable: the cpu path's SampleDepth clamp (std::clamp: a NaN stays NaN).
    if ((xe_om.depth.z & 64u) != 0u) zs = zs < 0.0 ? 0.0 : (zs > 1.0 ? 1.0 : zs);
    z[s] = zs;
  }
  return z;
}

uint xe_om_stencil_op(uint op, uint value, uint ref) {
  switch (op) {
    case 0u: return value;
    case 1u: return 0u;
    case 2u: return ref;
    case 3u: return min(value + 1u, 255u);
    case 4u: return value != 0u ? value - 1u : 0u;
    case 5u: return ~value & 0xFFu;
    case 6u: return (value + 1u) & 0xFFu;
    case 7u: return (value - 1u) & 0xFFu;
  }
  return value;
}

// Depth/stencil (cpu OutputMerger::DepthStencilTest): the samples that pass.
uint xe_om_depth_stencil(uvec2 p, uint coverage, vec4 z) {
  uint flags = xe_om.depth.z;
  if ((flags & 5u) == 0u) return coverage;
  uvec4 face = gl_FrontFacing ? xe_om.stencil_front : xe_om.stencil_back;
  uint func = face.x, ref = face.z, mask = face.w & 0xFFu, write_mask = (face.w >> 8) & 0xFFu;
  bool stencil = (flags & 4u) != 0u, depth_test = (flags & 1u) != 0u;
  uint pass = 0u;
  for (uint s = 0u; s < xe_om_sample_count(); ++s) {
    if ((coverage & (1u << s)) == 0u) continue;
    uint index = xe_om_dword(xe_om.depth.x, xe_om.depth.y, false, true, p, s);
    uint stored = xe_edram[index];
    uint value = stored & 0xFFu;
    uint stored24 = stored >> 8;
    bool ok = true;
    uint op = 0u;
    if (stencil && !xe_om_compare_u(func, ref & mask, value & mask)) {
      ok = false;
      op = face.y & 0xFFu;
    }
    uint incoming = (flags & 32u) != 0u ? xe_depth_to_20e4(z[s]) : xe_depth_to_unorm24(z[s]);
    if (ok && depth_test && !xe_om_compare_u(xe_om.depth.w, incoming, stored24)) {
      ok = false;
      op = (face.y >> 8) & 0xFFu;
    }
    if (ok) {
      op = (face.y >> 16) & 0xFFu;
      pass |= 1u << s;
      if ((flags & 2u) != 0u) stored24 = incoming;
    }
    uint new_stencil = value;
    if (stencil) {
      new_stencil = (value & ~write_mask) | (xe_om_stencil_op(op, value, ref) & write_mask);
    }
    uint result = (stored24 << 8) | (new_stencil & 0xFFu);
    if (result != stored) xe_edram[index] = result;
  }
  return pass;
}

// Colour writes (cpu OutputMerger::WriteColors): exponent bias, UNORM clamp, blending against
// the stored bits, packing, write mask.
void xe_om_write_colors(uvec2 p, uint coverage, vec4 colors[4]) {
  for (uint i = 0u; i < 4u; ++i) {
    uint rt_flags = xe_om.rt_flags[i];
    if ((rt_flags & 1u) == 0u) continue;
    bool wide = (rt_flags & 2u) != 0u, unorm = (rt_flags & 4u) != 0u;
    uint format = xe_om.rt_format[i];
    vec4 src;
    for (uint c = 0u; c < 4u; ++c) {
      precise float v = colors[i][c] * xe_om.rt_exp_scale[i];
      if (unorm) v = xe_om_nan(v) ? 0.0 : xe_om_clamp(v, 0.0, 1.0);
      src[c] = v;
    }
    vec4 k = xe_om.blend_constant;
    if (unorm) {
      for (uint c = 0u; c < 4u; ++c) k[c] = xe_om_clamp(k[c], 0.0, 1.0);
    }
    uint bc = xe_om.rt_blend[i];
    uvec2 keep = uvec2(xe_om.rt_keep_lo[i], xe_om.rt_keep_hi[i]);
    for (uint s = 0u; s < xe_om_sample_count(); ++s) {
      if ((coverage & (1u << s)) == 0u) continue;
      uint index = xe_om_dword(xe_om.rt_base[i], xe_om.rt_pitch_tiles[i], wide, false, p, s);
      uvec2 old = uvec2(xe_edram[index], wide ? xe_edram[index + 1u] : 0u);
      vec4 result = src;
      if ((bc & 0x80000000u) != 0u) {
        vec4 dst = xe_om_unpack(format, old);
        for (uint c = 0u; c < 4u; ++c) {
          uint shift = c == 3u ? 16u : 0u;
          float fs = xe_om_factor((bc >> shift) & 31u, c, src, dst, k);
          float fd = xe_om_factor((bc >> (shift + 5u)) & 31u, c, src, dst, k);
          result[c] = xe_om_combine((bc >> (shift + 10u)) & 7u, src[c], fs, dst[c], fd);
        }
      }
      uvec2 bits = xe_om_pack(format, result);
      bits = (bits & ~keep) | (old & keep);
      xe_edram[index] = bits.x;
      if (wide) xe_edram[index + 1u] = bits.y;
    }
  }
}

// Depth/stencil of this pixel's covered samples (none past the surface pitch): those that pass.
uint xe_om_depth_stencil_pixel(uint coverage, vec4 z) {
  if (coverage == 0u) return 0u;
  uvec2 p = uvec2(gl_FragCoord.xy);
  if (p.x >= xe_om.surface.x) return 0u;
  return xe_om_depth_stencil(p, coverage, z);
}

void xe_om_merge(uint coverage, vec4 z, vec4 colors[4]) {
  uint pass = xe_om_depth_stencil_pixel(coverage, z);
  if (pass != 0u) xe_om_write_colors(uvec2(gl_FragCoord.xy), pass, colors);
}

// Whether any pixel of this invocation's 2x2 quad is true. Fine derivatives of 0 or 1 are exact
// differences within the quad's rows, then its columns; both are taken before either is tested
// (no short-circuit), in control flow every invocation of the quad reaches.
bool xe_om_quad_any(bool b) {
  float v = b ? 1.0 : 0.0;
  float dx = dFdxFine(v);
  float row = (v != 0.0 || dx != 0.0) ? 1.0 : 0.0;
  float dy = dFdyFine(row);
  return row != 0.0 || dy != 0.0;
}
)GLSL";

}  // namespace

// The fbo path's colour export conversion for its host render target (XeSystemConstants::
// color_output_modes, render_targets.h ColorOutputMode). PWL gamma: Xenos' 4-segment curve from
// 10-bit linear to 8-bit gamma (gpu::edram::LinearToPwlGamma; Xenia xenos.h LinearToPWLGamma), so
// an UNORM target stores the gamma bits before blending.
//
// Deterministic UNORM stores: Vulkan lets a driver round a float -> UNORM store to
// either neighbour of a value that is not an integer after the scale, and GLSL's '/' may be off
// by 2.5 ulp, so a UNORM target's bits could differ by 1 LSB between drivers. For a target that
// does not blend, xe_quantize_unorm rounds each output as the cpu path does (gpu::edram Unorm:
// v * (2^n - 1) + 0.5 truncated, in float) and writes the float nearest k / (2^n - 1); that float
// times 2^n - 1 is exactly k in float arithmetic for every k and n <= 16, so the driver's own
// conversion has an integer to keep. xe_div_rn (glsl_prelude.cpp) divides as IEEE does.
const char kHostColorOutput[] = R"GLSL(float xe_linear_to_pwl(float l) {
  precise float l10 = (l > 0.0 ? min(l, 1.0) : 0.0) * 1023.0;
  precise float g8 = l10 < 64.0 ? l10 : l10 < 128.0 ? (l10 + 64.0) * 0.5 :
                     l10 < 512.0 ? (l10 + 256.0) * 0.25 : (l10 + 1024.0) * 0.125;
  return min(xe_div_rn(g8, 255.0), 1.0);
}
vec4 xe_color_output(vec4 c, uint mode) {
  if (mode == 1u) { return clamp(c, vec4(-32.0), vec4(32.0)) * (1.0 / 32.0); }
  if (mode == 2u) {
    return vec4(xe_linear_to_pwl(c.r), xe_linear_to_pwl(c.g), xe_linear_to_pwl(c.b), c.a);
  }
  if (mode == 3u) {
    return vec4(clamp(c.rgb, vec3(0.0), vec3(31.875)), clamp(c.a, 0.0, 1.0));
  }
  if (mode == 4u) { return clamp(c, vec4(-32.0), vec4(32.0)); }
  return c;
}
float xe_unorm_store(float v, float m) {
  precise float x = v * m;
  precise float y = x + 0.5;
  float k = v > 0.0 ? (v >= 1.0 ? m : floor(y)) : 0.0;
  return xe_div_rn(k, m);
}
// 16_16 in an SNORM target (output mode 1 gave c / 32): the cpu path's Fixed16, c * (32767 / 32)
// rounded half away from zero, is y * 32767 so rounded; k / 32767 with its sign.
float xe_snorm16_store(float y) {
  if (isnan(y)) return 0.0;
  precise float x = abs(clamp(y, -1.0, 1.0)) * 32767.0;
  float k = floor(x + 0.5);
  float q = xe_div_rn(k, 32767.0);
  return y < 0.0 ? -q : q;
}
// quantize: 0 none, 1 8:8:8:8, 2 10:10:10:2, 3 16-bit SNORM (color_output_modes bits 16 + 2i).
vec4 xe_quantize_unorm(vec4 c, uint quantize) {
  if (quantize == 0u) return c;
  if (quantize == 3u) {
    return vec4(xe_snorm16_store(c.r), xe_snorm16_store(c.g), xe_snorm16_store(c.b),
                xe_snorm16_store(c.a));
  }
  vec4 m = quantize == 1u ? vec4(255.0) : vec4(1023.0, 1023.0, 1023.0, 3.0);
  return vec4(xe_unorm_store(c.r, m.r), xe_unorm_store(c.g, m.g), xe_unorm_store(c.b, m.b),
              xe_unorm_store(c.a, m.a));
}
)GLSL";

std::string GlslHostColorOutput() { return kHostColorOutput; }

std::string GlslOutputMergerExtension() {
  return "#extension GL_ARB_fragment_shader_interlock : require\n";
}

std::string GlslOutputMerger(bool interlock, bool exact_polygon_offset) {
  std::string text = "// ---- fsi output merger (glsl_output_merger.cpp) ----\n";
  if (interlock) text += "layout(pixel_interlock_ordered) in;\n";
  text += kDeclarations;
  text += Constants();
  if (exact_polygon_offset) {
    text += "#define XE_OM_EXACT_POLYGON_OFFSET 1\n";
    // The triangle's three exported positions, passed flat by the geometry shader
    // (PolygonOffsetGeometryShaderGlsl), in the draw's vertex order.
    text += "layout(location = " + std::to_string(kXeTrianglePositionsLocation) +
            ") flat in vec4 xe_vs_position[3];\n";
    text += GlslExactPolygonOffset();
  }
  text += GlslGuestDepthEncoding();
  text += kFunctions;
  return text;
}


std::string GlslOutputMergerPrologue() {
  // Taken first, in uniform control flow: helpers and killed lanes still take part.
  return "  vec2 xe_om_dz = vec2(dFdx(gl_FragCoord.z), dFdy(gl_FragCoord.z));\n";
}

std::string GlslOutputMergerEpilogue(bool interlock, uint32_t colors_written, bool depth_written,
                                     const std::string& colors, const std::string& depth) {
  std::string text;
  text += "  uint xe_om_coverage = xe_om_prepare(" + colors + ", " +
          std::to_string(colors_written) + "u);\n";
  text += "  vec4 xe_om_z = xe_om_depths(gl_FragCoord.z, " +
          std::string(depth_written ? "true" : "false") + ", " + depth + ", xe_om_dz);\n";
  // Only the samples of targets the shader writes go through (the unwritten ones are not bound
  // on the hardware either): the C++ side sets rt_flags bit 0 only for those.
  if (interlock) text += "  beginInvocationInterlockARB();\n";
  text += "  xe_om_merge(xe_om_coverage, xe_om_z, " + colors + ");\n";
  if (interlock) text += "  endInvocationInterlockARB();\n";
  return text;
}

std::string GlslOutputMergerEarlyHead(bool interlock) {
  // Nothing the body computes changes coverage or depth (no kill, oDepth, memexport; alpha test
  // and alpha to mask off), so the test may come first, in the critical section the colour
  // writes end: a later fragment of the pixel still sees this one's depth, stencil and colour.
  std::string text;
  text += "  uint xe_om_coverage = xe_om_coverage_in();\n";
  text += "  vec4 xe_om_z = xe_om_depths(gl_FragCoord.z, false, 0.0, xe_om_dz);\n";
  if (interlock) text += "  beginInvocationInterlockARB();\n";
  text += "  uint xe_om_pass = xe_om_depth_stencil_pixel(xe_om_coverage, xe_om_z);\n";
  // The body runs for whole quads only, so its derivatives (texture LOD) stay those of the late
  // order; a quad none of whose pixels passed skips it (Xenia's early 2x2 quad rejection,
  // dxbc_shader_translator.cc StartPixelShader). Helper invocations count as failed.
  text += "  if (xe_om_quad_any(xe_om_pass != 0u && !gl_HelperInvocation)) {\n";
  return text;
}

std::string GlslOutputMergerEarlyTail(bool interlock, const std::string& colors) {
  std::string text = "  }\n";
  text += "  if (xe_om_pass != 0u) xe_om_write_colors(uvec2(gl_FragCoord.xy), xe_om_pass, " +
          colors + ");\n";
  if (interlock) text += "  endInvocationInterlockARB();\n";
  return text;
}

std::string GlslDepthOnlyFragmentShader(bool interlock, bool exact_polygon_offset) {
  std::string text = "#version 450\n";
  if (interlock) text += GlslOutputMergerExtension();
  // The exact plane redoes the vertex transform, whose PA_CL_VTE_CNTL flags are system constants.
  if (exact_polygon_offset) text += GlslSystemConstants();
  text += GlslOutputMerger(interlock, exact_polygon_offset);
  text += "void main() {\n";
  text += GlslOutputMergerPrologue();
  text += "  vec4 xe_no_colors[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));\n";
  text += GlslOutputMergerEpilogue(interlock, 0, false, "xe_no_colors", "0.0");
  text += "}\n";
  return text;
}

std::string OutputMergerDepthOnlyShaderGlsl(bool interlock, bool exact_polygon_offset) {
  return GlslDepthOnlyFragmentShader(interlock, exact_polygon_offset);
}

std::string ExactDepthFragmentShaderGlsl() { return GlslExactDepthFragmentShader(); }

std::string PolygonOffsetGeometryShaderGlsl(uint32_t passed_interpolators,
                                            uint32_t clip_distances, uint32_t cull_distances) {
  return GlslPolygonOffsetGeometryShader(passed_interpolators, clip_distances, cull_distances);
}

}  // namespace xnt::vk
