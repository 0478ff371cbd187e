// Xenos ALU, fetch and constant semantics as GLSL functions. Facts are taken from Xenia (cited per
// function); the code is ours. Every function is `xe_`-prefixed so emitted code cannot collide.
#include "glsl_prelude.h"

#include "glsl_memexport.h"

#include <algorithm>
#include <string>

#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

namespace {

// Resource declarations: must match shader_interface.h exactly.
constexpr const char* kResources = R"GLSL(
layout(std430, set = 0, binding = 0) readonly buffer XeSharedMemory {
  uint words[];
} xe_shared_memory[4];

layout(std140, set = 1, binding = 4) uniform XeConstants {
  uvec4 fetch_constants[48];
  uvec4 bool_constants[2];
  uvec4 loop_constants[8];
} xe_constants;
)GLSL";

// The system constants and their flags, also declared alone by host shaders that read them
// (GlslSystemConstants).
constexpr const char* kSystemConstants = R"GLSL(
layout(std140, set = 1, binding = 1) uniform XeSystemConstants {
  uint flags;
  uint vertex_index_endian;
  int vertex_base_index;
  uint resolution_scale;
  vec4 ndc_scale;
  vec4 ndc_offset;
  vec4 point_size_min_max;
  ivec4 color_exp_bias;
  float alpha_test_reference;
  uint alpha_test_func;
  uint color_output_modes;
  uint scaled_texture_slots;
  vec4 user_clip_planes[6];
  vec4 line_quad;
  vec4 depth_screen_scale;
  vec4 depth_screen_offset;
  vec4 depth_offsets;
  uvec4 depth_flags;
} xe_system;

const uint kXeSysFlagXyDividedByW = 1u;
const uint kXeSysFlagZDividedByW = 2u;
const uint kXeSysFlagWNotReciprocal = 4u;
const uint kXeSysFlagPrimitivePoint = 8u;
const uint kXeSysFlagAlphaTest = 16u;
const uint kXeSysFlagPrimitiveLine = 64u;
const uint kXeSysFlagPointQuads = 128u;

// A +0 the host compiler cannot see as a constant, for the values the microcode makes zero
// without arithmetic (a fetch swizzle's 0, registers before their first write). A literal 0.0
// operand lets a compiler drop the addition: Mesa's llvmpipe code generator (gallivm
// lp_bld_arit.c, lp_build_add) returns the other operand when one is the constant zero, even
// under SignedZeroInfNanPreserve, so 0 + -0 gave -0 where IEEE (the Xenos ALU and the cpu path's
// interpreter) gives +0. line_quad.w is never written: XeSystemConstants is zero-filled.
float xe_zero() { return xe_system.line_quad.w; }

// Resolution scale (shader_interface.h): host pixels per guest pixel.
vec2 xe_resolution_scale() {
  return max(vec2(float(xe_system.resolution_scale & 0xFFu),
                  float((xe_system.resolution_scale >> 8u) & 0xFFu)), vec2(1.0));
}

// What one screen derivative spans, per axis (shader_interface.h resolution_scale bit 16): the
// host's per-pixel differences times this are per guest pixel, as at 1x, unless the replay asked
// for host-pixel derivatives (then 1).
vec2 xe_derivative_scale() {
  return (xe_system.resolution_scale & 0x10000u) != 0u ? vec2(1.0) : xe_resolution_scale();
}
)GLSL";

constexpr const char* kResourcesAfterSystem = R"GLSL(
// A texture read from a scaled resolve copy is that many times the guest size; dividing its
// host size by this gives guest texels (gpu/resolution_scale.h).
vec2 xe_texture_scale(uint slot) {
  return ((xe_system.scaled_texture_slots >> slot) & 1u) != 0u ? xe_resolution_scale() : vec2(1.0);
}

// The texels a level of detail counts in, per guest texel: a scaled copy's own with host-pixel
// derivatives, guest texels with guest-pixel ones (the 1x frame's level).
vec2 xe_lod_texel_scale(uint slot) {
  return (xe_system.resolution_scale & 0x10000u) != 0u ? xe_texture_scale(slot) : vec2(1.0);
}
// What the host sampler's own level (the bound texture's texels) is multiplied by for that.
vec2 xe_host_lod_scale(uint slot) { return xe_lod_texel_scale(slot) / xe_texture_scale(slot); }

layout(set = 2, binding = 0) uniform sampler2DArray xe_textures[32];
layout(set = 2, binding = 1) uniform samplerCube xe_textures_cube[32];
layout(set = 2, binding = 2) uniform sampler3D xe_textures_3d[32];

const float XE_FLT_MAX = 3.402823466e+38;
const float XE_FLT_MIN = 1.175494351e-38;
)GLSL";

constexpr const char* kHelpers = R"GLSL(
// ---- Guest memory -------------------------------------------------------------------------------
// 512 MiB of guest physical memory as 4 bindings of 128 MiB. Constant indices only: dynamic
// indexing of storage-buffer arrays would need shaderStorageBufferArrayDynamicIndexing.
uint xe_load_word(uint byte_address) {
  uint index = (byte_address & 0x7FFFFFFu) >> 2u;
  switch (byte_address >> 27u) {
    case 0u: return index < uint(xe_shared_memory[0].words.length()) ? xe_shared_memory[0].words[index] : 0u;
    case 1u: return index < uint(xe_shared_memory[1].words.length()) ? xe_shared_memory[1].words[index] : 0u;
    case 2u: return index < uint(xe_shared_memory[2].words.length()) ? xe_shared_memory[2].words[index] : 0u;
    case 3u: return index < uint(xe_shared_memory[3].words.length()) ? xe_shared_memory[3].words[index] : 0u;
    default: return 0u;
  }
}

// xenos::Endian (Xenia src/xenia/gpu/xenos.h): 0 none, 1 8in16, 2 8in32, 3 16in32. Memory words
// are loaded as little-endian host dwords, so big-endian guest data needs 8in32.
uint xe_endian_swap(uint v, uint endian) {
  if (endian == 1u || endian == 2u) {
    v = ((v & 0x00FF00FFu) << 8u) | ((v >> 8u) & 0x00FF00FFu);
  }
  if (endian == 2u || endian == 3u) {
    v = (v << 16u) | (v >> 16u);
  }
  return v;
}

// ---- Constant registers -------------------------------------------------------------------------
uint xe_fetch_dword(uint dword_index) {
  return xe_constants.fetch_constants[(dword_index >> 2u) % 48u][dword_index & 3u];
}
// Bool constant i of 256 (SHADER_CONSTANT_BOOL_000_031 ...).
bool xe_bool_constant(uint i) {
  uint word = xe_constants.bool_constants[(i >> 7u) & 1u][(i >> 5u) & 3u];
  return ((word >> (i & 31u)) & 1u) != 0u;
}
// Loop constant i of 32: count 8 bits @0, start 8 bits @8, step 8 bits signed @16
// (Xenia src/xenia/gpu/xenos.h, SHADER_CONSTANT_LOOP_00 = 0x4908).
uint xe_loop_constant(uint i) {
  return xe_constants.loop_constants[(i >> 2u) & 7u][i & 3u];
}

// ---- ALU semantics ------------------------------------------------------------------------------
// Shader Model 3 / Xenos multiplication: +-0 (or a denormal, which the ALU flushes) times anything,
// infinity and NaN included, is +0 (Xenia spirv_shader_translator_alu.cc, MUL/MAD/DP/MULS:
// "+0 or denormal * anything = +-0", implemented there as a select on min(|a|,|b|) == 0). Written
// with ordered comparisons so a NaN operand is never mistaken for zero.
bool xe_is_zero(float a) { return abs(a) < XE_FLT_MIN; }
bvec4 xe_is_zero(vec4 a) { return lessThan(abs(a), vec4(XE_FLT_MIN)); }
float xe_mul(float a, float b) {
  precise float product = a * b;
  return (xe_is_zero(a) || xe_is_zero(b)) ? 0.0 : product;
}
vec4 xe_mul(vec4 a, vec4 b) {
  precise vec4 product = a * b;
  bvec4 zero = bvec4(uvec4(xe_is_zero(a)) | uvec4(xe_is_zero(b)));
  return mix(product, vec4(0.0), zero);
}
vec4 xe_mad(vec4 a, vec4 b, vec4 c) {
  // Not a fused multiply-add: the product is rounded first (precise forbids contraction).
  precise vec4 sum = xe_mul(a, b) + c;
  return sum;
}
float xe_dp(vec4 a, vec4 b, int n) {
  precise float sum = xe_mul(a.x, b.x);
  if (n >= 2) sum = sum + xe_mul(a.y, b.y);
  if (n >= 3) sum = sum + xe_mul(a.z, b.z);
  if (n >= 4) sum = sum + xe_mul(a.w, b.w);
  return sum;
}

// SM3 max/min: `a >= b ? a : b` / `a < b ? a : b`, not IEEE fmax/fmin, so a NaN in b is returned
// and a NaN in a yields b (Xenia spirv_shader_translator_alu.cc, kMax/kMin). -0 vs +0 compare
// equal, so max(-0, +0) is -0 and min(-0, +0) is +0, as on the hardware.
vec4 xe_max(vec4 a, vec4 b) { return mix(b, a, greaterThanEqual(a, b)); }
vec4 xe_min(vec4 a, vec4 b) { return mix(b, a, lessThan(a, b)); }
float xe_max(float a, float b) { return a >= b ? a : b; }
float xe_min(float a, float b) { return a < b ? a : b; }

// Set-if ops return 1.0/0.0. SNE is unordered (NaN != x is true), the others ordered.
vec4 xe_seq(vec4 a, vec4 b) { return vec4(equal(a, b)); }
vec4 xe_sgt(vec4 a, vec4 b) { return vec4(greaterThan(a, b)); }
vec4 xe_sge(vec4 a, vec4 b) { return vec4(greaterThanEqual(a, b)); }
vec4 xe_sne(vec4 a, vec4 b) { return vec4(not(equal(a, b))); }
vec4 xe_frc(vec4 a) { return a - floor(a); }
float xe_frc(float a) { return a - floor(a); }
vec4 xe_cndeq(vec4 a, vec4 b, vec4 c) { return mix(c, b, equal(a, vec4(0.0))); }
vec4 xe_cndge(vec4 a, vec4 b, vec4 c) { return mix(c, b, greaterThanEqual(a, vec4(0.0))); }
vec4 xe_cndgt(vec4 a, vec4 b, vec4 c) { return mix(c, b, greaterThan(a, vec4(0.0))); }

// Saturation: NaN becomes 0 (clamp() is undefined for NaN).
float xe_sat(float a) { return a > 0.0 ? (a < 1.0 ? a : 1.0) : 0.0; }
vec4 xe_sat(vec4 a) { return vec4(xe_sat(a.x), xe_sat(a.y), xe_sat(a.z), xe_sat(a.w)); }

// CUBE (src0 = r.zzxy, src1 = r.yxzz in the listing): result = (tc, sc, 2 * major axis, face id).
// Face selection as in Xenia spirv_shader_translator_alu.cc kCube: Z major if |z| >= |x| and
// |z| >= |y|, else Y major if |y| >= |x|, else X major.
vec4 xe_cube(vec3 v) {
  vec3 a = abs(v);
  if (a.z >= a.x && a.z >= a.y) {
    return vec4(-v.y, v.z < 0.0 ? -v.x : v.x, 2.0 * v.z, v.z < 0.0 ? 5.0 : 4.0);
  }
  if (a.y >= a.x) {
    return vec4(v.y < 0.0 ? -v.z : v.z, v.x, 2.0 * v.y, v.y < 0.0 ? 3.0 : 2.0);
  }
  return vec4(-v.y, v.x < 0.0 ? v.z : -v.z, 2.0 * v.x, v.x < 0.0 ? 1.0 : 0.0);
}

// MAX4: the largest component (NaNs are skipped, as Xenia does with NMax).
float xe_max4(vec4 a) {
  float m = a.x;
  if (a.y > m || isnan(m)) m = a.y;
  if (a.z > m || isnan(m)) m = a.z;
  if (a.w > m || isnan(m)) m = a.w;
  return m;
}

// a0 from MAXA / MOVAS: floor(x + 0.5) clamped to [-256, 255]; MOVA_FLOORS uses floor(x).
int xe_a0_round(float x) {
  float f = floor(x + 0.5);
  return int(isnan(f) ? -256.0 : (f < -256.0 ? -256.0 : (f > 255.0 ? 255.0 : f)));
}
int xe_a0_floor(float x) {
  float f = floor(x);
  return int(isnan(f) ? -256.0 : (f < -256.0 ? -256.0 : (f > 255.0 ? 255.0 : f)));
}

// Reciprocal/rsq variants (Xenia dxbc_shader_translator_alu.cc, kRcpc/kRcpf/kRsqc/kRsqf):
// "c" clamps +-infinity to +-FLT_MAX, "f" flushes +-infinity to +-0, the IEEE forms do neither.
float xe_rcp(float a) { return 1.0 / a; }
float xe_rsq(float a) { return inversesqrt(a); }
float xe_clamp_inf(float r) { return isinf(r) ? (r < 0.0 ? -XE_FLT_MAX : XE_FLT_MAX) : r; }
float xe_flush_inf(float r) { return isinf(r) ? (r < 0.0 ? -0.0 : 0.0) : r; }
// LOG_CLAMP: log2 with -infinity replaced by -FLT_MAX.
float xe_logc(float a) {
  float l = log2(a);
  return (isinf(l) && l < 0.0) ? -XE_FLT_MAX : l;
}
// MUL_PREV2 (Xenia dxbc_shader_translator_alu.cc kMulsPrev2): src0.a * ps when ps is neither
// -FLT_MAX nor infinite/NaN and src0.b is finite and positive, else -FLT_MAX.
float xe_mul_prev2(float a, float b, float ps) {
  bool take = ps != -XE_FLT_MAX && abs(ps) <= XE_FLT_MAX && abs(b) <= XE_FLT_MAX && b > 0.0;
  return take ? xe_mul(a, ps) : -XE_FLT_MAX;
}

// ---- Vertex fetch -------------------------------------------------------------------------------
// Xenos 16-bit floats have no infinity/NaN: exponent 31 is an ordinary exponent (Xenia
// xenos_half_to_float in src/xenia/base/math.h / xenos.h).
float xe_half_to_float(uint h) {
  uint sign = (h >> 15u) & 1u;
  uint exponent = (h >> 10u) & 0x1Fu;
  uint mantissa = h & 0x3FFu;
  float magnitude;
  if (exponent == 0u) {
    magnitude = float(mantissa) * exp2(-24.0);
  } else {
    magnitude = (1.0 + float(mantissa) / 1024.0) * exp2(float(exponent) - 15.0);
  }
  return sign != 0u ? -magnitude : magnitude;
}

// a / b as IEEE divides (correctly rounded), for positive quotients: GLSL's '/' may be off by
// 2.5 ulp (NVIDIA multiplies by a reciprocal), the cpu path's divides exactly. fma gives each
// candidate quotient's remainder exactly and the nearest candidate wins (a quotient of two floats
// is never halfway between two floats). Other quotients are returned as '/' gives them.
float xe_div_rn(float a, float b) {
  precise float q = a / b;
  if (!(q > 0.0)) return q;
  uint bits = floatBitsToUint(q);
  precise float best = q;
  precise float best_r = abs(fma(-q, b, a));
  for (uint d = 1u; d <= 6u; ++d) {
    uint c = d <= 3u ? bits - d : bits + (d - 3u);
    precise float qc = uintBitsToFloat(c);
    precise float r = abs(fma(-qc, b, a));
    if (r < best_r) { best = qc; best_r = r; }
  }
  return best;
}
// xe_div_rn for a positive b and a of either sign.
float xe_div_rn_signed(float a, float b) { return a < 0.0 ? -xe_div_rn(-a, b) : xe_div_rn(a, b); }

// One packed component: `width` bits at `offset`, unsigned or two's-complement signed, optionally
// normalised. Signed normalisation: `signed_rf_no_zero` (num_format "signed repeating fraction"
// mode 1, Xenia SignedRepeatingFractionMode::kNoZero) maps to (2x + 1) / (2^w - 1); otherwise
// x / (2^(w-1) - 1) clamped to -1 (Xenia shader_interpreter.cc, vertex fetch); every division
// correctly rounded, as the cpu path's interpreter divides.
float xe_unpack_component(uint word, uint offset, uint width, bool is_signed, bool normalized,
                          bool signed_rf_no_zero) {
  if (is_signed) {
    float v = float(bitfieldExtract(int(word), int(offset), int(width)));
    if (!normalized) return v;
    if (signed_rf_no_zero) return xe_div_rn_signed((v + 0.5) * 2.0, float((1u << width) - 1u));
    return max(-1.0, xe_div_rn_signed(v, float((1u << (width - 1u)) - 1u)));
  }
  float v = float(bitfieldExtract(word, int(offset), int(width)));
  return normalized ? xe_div_rn(v, float((1u << width) - 1u)) : v;
}
float xe_unpack_32(uint word, bool is_signed, bool normalized, bool signed_rf_no_zero) {
  if (is_signed) {
    float v = float(int(word));
    if (!normalized) return v;
    return signed_rf_no_zero ? (v + 0.5) / 2147483647.5 : v / 2147483647.0;
  }
  float v = float(word);
  return normalized ? v / 4294967295.0 : v;
}

// ---- Texture fetch ------------------------------------------------------------------------------
// Xenos piecewise-linear gamma -> linear (the TextureSign kGamma conversion, done after filtering
// as Xenia does). Four segments with breakpoints at 64, 96 and 192 of 255 and slopes 1, 2, 4, 8
// in 1/1024 units, a truncated correction term, then times the float nearest 1/1023 (Xenia
// src/xenia/gpu/xenos.cc PWLGammaToLinear; formula re-derived here, not copied). Every step is
// one exactly rounded operation in the order the texture unit model takes them
// (gpu::edram::PwlGammaToLinear), so both give the same bits: `precise` keeps the multiply and
// add apart (no fma), and the reciprocal is its bits, 0x3A802008, since a GLSL division may be
// 2.5 ulp off and 1/1023 rounded differs from dividing by 1023 (a point-sampled DXT1 texel came
// out 1 ulp apart that way). NaN takes the lowest piece and becomes 0, as the model's clamp does.
float xe_pwl_gamma_to_linear(float g) {
  float x = g > 0.0 ? min(g, 1.0) : 0.0;  // never -0: +0 through every step on both sides
  float scale, offset;  // scale a power of two, so 255 * 1024 * scale is exact
  if (x >= 192.0 / 255.0) { scale = 8.0 / 1024.0; offset = -1024.0; }
  else if (x >= 96.0 / 255.0) { scale = 4.0 / 1024.0; offset = -256.0; }
  else if (x >= 64.0 / 255.0) { scale = 2.0 / 1024.0; offset = -64.0; }
  else { scale = 1.0 / 1024.0; offset = 0.0; }
  precise float t = x * (scale * (255.0 * 1024.0)) + offset;
  precise float linear = t + trunc(t * scale);
  precise float result = linear * uintBitsToFloat(0x3A802008u);
  return result;
}

// What the texture unit does to a filtered texel before it reaches the shader, from the fetch
// constant (Xenia src/xenia/gpu/xenos.h xe_gpu_texture_fetch_t): per-component sign (dword 0 bits
// 2..9, 2 bits each for X..W: 0 unsigned, 1 signed (applied by the loader), 2 biased = 2x - 1,
// 3 gamma), exp_adjust (dword 3 bits 13..18, signed: x 2^exp), then the swizzle (dword 3 bits
// 1..12, 3 bits per component: 0..3 = x..w, 4 = 0, 5 = 1).
vec4 xe_texture_swizzle(vec4 texel, uint slot) {
  uint d0 = xe_fetch_dword(slot * 6u + 0u);
  uint d3 = xe_fetch_dword(slot * 6u + 3u);
  for (int i = 0; i < 4; ++i) {
    uint sign = (d0 >> (2u + 2u * uint(i))) & 3u;
    if (sign == 2u) texel[i] = texel[i] * 2.0 - 1.0;
    else if (sign == 3u) texel[i] = xe_pwl_gamma_to_linear(texel[i]);
  }
  int exp_adjust = bitfieldExtract(int(d3), 13, 6);
  if (exp_adjust != 0) texel *= exp2(float(exp_adjust));
  uint swizzle = (d3 >> 1u) & 0xFFFu;
  vec4 r;
  for (int i = 0; i < 4; ++i) {
    uint s = (swizzle >> (3u * uint(i))) & 7u;
    r[i] = s < 4u ? texel[int(s)] : (s == 5u ? 1.0 : 0.0);
  }
  return r;
}

// Fetch constant dimension (dword 5 bits 9..10: 0 1D, 1 2D/stacked, 2 3D, 3 cube) and stack
// depth (dword 2 bits 26..31 + 1 for 2D/stacked).
uint xe_texture_dimension(uint slot) { return (xe_fetch_dword(slot * 6u + 5u) >> 9u) & 3u; }
float xe_texture_stack_depth(uint slot) {
  return float((xe_fetch_dword(slot * 6u + 2u) >> 26u) + 1u);
}

// A stack's two layers blended as the cpu path blends them (TextureUnit::Blend, a + (b - a) t,
// `precise`), or the first alone where the layer filter is point.
vec4 xe_layer_blend(vec4 a, vec4 b, bool linear, float t) {
  precise vec4 r = a + (b - a) * t;
  return linear ? r : a;
}

// tfetchCube coordinates as the D3D compiler leaves them after the `cube` instruction and its
// `mad ..., 1.5`: x = s and y = t on the face in [1, 2], z = face index (0 +X, 1 -X, 2 +Y,
// 3 -Y, 4 +Z, 5 -Z). Turned into a direction for the host cube sampler (Vulkan's face
// selection: +X has sc = -z, tc = -y; -X sc = z, tc = -y; +Y sc = x, tc = z; -Y sc = x,
// tc = -z; +Z sc = x, tc = -y; -Z sc = -x, tc = -y).
vec3 xe_cube_direction(vec3 c) {
  float sc = (c.x - 1.0) * 2.0 - 1.0, tc = (c.y - 1.0) * 2.0 - 1.0;
  switch (int(clamp(floor(c.z + 0.5), 0.0, 5.0))) {
    case 0: return vec3(1.0, -tc, -sc);
    case 1: return vec3(-1.0, -tc, sc);
    case 2: return vec3(sc, 1.0, tc);
    case 3: return vec3(sc, -1.0, -tc);
    case 4: return vec3(sc, -tc, 1.0);
    default: return vec3(-sc, -tc, -1.0);
  }
}
)GLSL";

// Vertex fetch, one function per format the shader fetches (GlslVertexFetch): loading and decoding
// only what that format reads keeps each fetch small, which matters to drivers that lower the
// whole shader before consulting their cache (lavapipe: a vertex shader's pipeline 26-32 -> 15 ms
// with two fetches, docs/speed.md).
// `format` is xenos::VertexFormat (Xenia src/xenia/gpu/xenos.h): 6 8_8_8_8, 7 2_10_10_10,
// 16 10_11_11, 17 11_11_10, 25 16_16, 26 16_16_16_16, 31 16_16_FLOAT, 32 16_16_16_16_FLOAT, 33 32,
// 34 32_32, 35 32_32_32_32, 36 32_FLOAT, 37 32_32_FLOAT, 38 32_32_32_32_FLOAT, 57 32_32_32_FLOAT.
// Bit layouts as in Xenia shader_interpreter.cc. Each format: the dwords it reads from the
// element's first (dwords outside [base, base + size) of the fetch constant read as 0, which is
// what the hardware returns), the components it has (exp_adjust scales only those, not the
// (0, 0, 0, 1) defaults of the ones it lacks), and its decode from w0 = words[0] and words[].
struct VertexFormatDecode {
  uint32_t format, dwords, components;
  const char* decode;
};
constexpr VertexFormatDecode kVertexFormatDecodes[] = {
    {6, 1, 4,
     "  r = vec4(xe_unpack_component(w0, 0u, 8u, is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_component(w0, 8u, 8u, is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_component(w0, 16u, 8u, is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_component(w0, 24u, 8u, is_signed, normalized, signed_rf_no_zero));\n"},
    {7, 1, 4,
     "  r = vec4(xe_unpack_component(w0, 0u, 10u, is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_component(w0, 10u, 10u, is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_component(w0, 20u, 10u, is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_component(w0, 30u, 2u, is_signed, normalized, signed_rf_no_zero));\n"},
    {16, 1, 3,
     "  r.xyz = vec3(xe_unpack_component(w0, 0u, 11u, is_signed, normalized, signed_rf_no_zero),\n"
     "               xe_unpack_component(w0, 11u, 11u, is_signed, normalized, signed_rf_no_zero),\n"
     "               xe_unpack_component(w0, 22u, 10u, is_signed, normalized, signed_rf_no_zero));\n"},
    {17, 1, 3,
     "  r.xyz = vec3(xe_unpack_component(w0, 0u, 10u, is_signed, normalized, signed_rf_no_zero),\n"
     "               xe_unpack_component(w0, 10u, 11u, is_signed, normalized, signed_rf_no_zero),\n"
     "               xe_unpack_component(w0, 21u, 11u, is_signed, normalized, signed_rf_no_zero));\n"},
    {25, 1, 2,
     "  r.xy = vec2(xe_unpack_component(w0, 0u, 16u, is_signed, normalized, signed_rf_no_zero),\n"
     "              xe_unpack_component(w0, 16u, 16u, is_signed, normalized, signed_rf_no_zero));\n"},
    {26, 2, 4,
     "  r = vec4(xe_unpack_component(w0, 0u, 16u, is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_component(w0, 16u, 16u, is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_component(words[1], 0u, 16u, is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_component(words[1], 16u, 16u, is_signed, normalized, signed_rf_no_zero));\n"},
    {31, 1, 2,
     "  r.xy = vec2(xe_half_to_float(w0 & 0xFFFFu), xe_half_to_float(w0 >> 16u));\n"},
    {32, 2, 4,
     "  r = vec4(xe_half_to_float(w0 & 0xFFFFu), xe_half_to_float(w0 >> 16u),\n"
     "           xe_half_to_float(words[1] & 0xFFFFu), xe_half_to_float(words[1] >> 16u));\n"},
    {33, 1, 1,
     "  r.x = xe_unpack_32(w0, is_signed, normalized, signed_rf_no_zero);\n"},
    {34, 2, 2,
     "  r.xy = vec2(xe_unpack_32(w0, is_signed, normalized, signed_rf_no_zero),\n"
     "              xe_unpack_32(words[1], is_signed, normalized, signed_rf_no_zero));\n"},
    {35, 4, 4,
     "  r = vec4(xe_unpack_32(w0, is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_32(words[1], is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_32(words[2], is_signed, normalized, signed_rf_no_zero),\n"
     "           xe_unpack_32(words[3], is_signed, normalized, signed_rf_no_zero));\n"},
    {36, 1, 1,
     "  r.x = uintBitsToFloat(w0);\n"},
    {37, 2, 2,
     "  r.xy = vec2(uintBitsToFloat(w0), uintBitsToFloat(words[1]));\n"},
    {38, 4, 4,
     "  r = vec4(uintBitsToFloat(w0), uintBitsToFloat(words[1]), uintBitsToFloat(words[2]),\n"
     "           uintBitsToFloat(words[3]));\n"},
    {57, 3, 3,
     "  r.xyz = vec3(uintBitsToFloat(w0), uintBitsToFloat(words[1]), uintBitsToFloat(words[2]));\n"},
};

}  // namespace

std::string GlslVertexFetchName(uint32_t format) {
  return "xe_vertex_fetch_" + std::to_string(format);
}

std::string GlslVertexFetch(uint32_t format) {
  const std::string head = "vec4 " + GlslVertexFetchName(format) +
                           "(uint fetch_slot, uint address_dwords, bool is_signed,\n"
                           "    bool normalized, bool signed_rf_no_zero, int exp_adjust) {\n";
  const VertexFormatDecode* decode = nullptr;
  for (const VertexFormatDecode& d : kVertexFormatDecodes) {
    if (d.format == format) decode = &d;
  }
  // Not a vertex format (0 among them: patched at run time by the title): the fetch returns zeros.
  if (!decode) return head + "  return vec4(0.0);\n}\n";
  const std::string dwords = std::to_string(decode->dwords);
  return head +
         "  uint d0 = xe_fetch_dword(fetch_slot * 2u);\n"
         "  uint d1 = xe_fetch_dword(fetch_slot * 2u + 1u);\n"
         "  uint base = d0 >> 2u;  // address in dwords, 30 bits\n"
         "  uint endian = d1 & 3u;\n"
         "  uint size = (d1 >> 2u) & 0xFFFFFFu;  // in dwords\n"
         "  uint words[" + dwords + "];\n"
         "  for (uint i = 0u; i < " + dwords + "u; ++i) {\n"
         "    uint a = address_dwords + i;\n"
         "    words[i] = (a >= base && a - base < size) ? "
         "xe_endian_swap(xe_load_word(a << 2u), endian) : 0u;\n"
         "  }\n"
         "  vec4 r = vec4(0.0, 0.0, 0.0, 1.0);\n"
         "  uint w0 = words[0];\n" +
         decode->decode +
         "  if (exp_adjust != 0) {\n"
         "    float scale = exp2(float(exp_adjust));\n"
         "    for (uint i = 0u; i < " + std::to_string(decode->components) + "u; ++i) r[i] *= scale;\n"
         "  }\n"
         "  return r;\n"
         "}\n";
}

std::string GlslSystemConstants() { return kSystemConstants; }

std::string GlslPrelude(GlslShaderKind kind, bool preserve_signed_zero_inf_nan, bool memexport) {
  std::string text = "#version 450\n";
  if (preserve_signed_zero_inf_nan) {
    // SPIR-V capability SignedZeroInfNanPreserve = 4466, execution mode 4461 with width 32.
    text +=
        "#extension GL_EXT_spirv_intrinsics : require\n"
        "spirv_execution_mode(extensions = [\"SPV_KHR_float_controls\"], capabilities = [4466], "
        "4461, 32);\n";
  }
  text += kind == GlslShaderKind::kPixel ? "// Xenos pixel shader\n" : "// Xenos vertex shader\n";
  std::string resources = std::string(kResources) + kSystemConstants + kResourcesAfterSystem;
  if (memexport) {
    const std::string readonly = "readonly buffer XeSharedMemory";
    resources.replace(resources.find(readonly), readonly.size(), "buffer XeSharedMemory");
  }
  text += resources;
  // The stage's own 256 float constants (a pixel shader's c# is register 256 + #), each stage's
  // block at its own binding so that a draw re-uploads only the stage whose constants changed.
  text += "layout(std140, set = 1, binding = " +
          std::to_string(kind == GlslShaderKind::kPixel ? kPixelFloatConstantsBinding
                                                        : kVertexFloatConstantsBinding) +
          ") uniform XeFloatConstants {\n  vec4 c[256];\n} xe_float_constants;\n";
  text += kHelpers;
  if (memexport) text += GlslMemExportHelpers();
  return text;
}

std::string GlslGeometryDistances(uint32_t clip, uint32_t cull) {
  std::string s = "void XeDistances(int v) {\n";
  for (uint32_t i = 0; i < clip; ++i) {
    const std::string k = std::to_string(i);
    s += "  gl_ClipDistance[" + k + "] = gl_in[v].gl_ClipDistance[" + k + "];\n";
  }
  for (uint32_t i = 0; i < cull; ++i) {
    const std::string k = std::to_string(i);
    s += "  gl_CullDistance[" + k + "] = gl_in[v].gl_CullDistance[" + k + "];\n";
  }
  return s + "}\n";
}

namespace {

// Corners of the quads the geometry shaders draw, placed in host pixels and rounded to the
// rasterizer's 1/256 pixel as the cpu path's rasterizers place them (RasterizeLine: the ends
// snapped as llvmpipe's line setup snaps them, the half-width vector of gpu::LineHalfWidth
// rounded on its own, halves to even; RasterizePoint: the sides snapped, halves away from 0), then handed to the host in NDC, which its own snapping
// maps back to those exact positions: the host's rounding of an unrounded corner computed in
// float NDC would otherwise decide pixels whose centre lies within float error of an edge
// (the fsi path's viewport, as tall as the EDRAM, has the least precision).
constexpr const char kQuadCorners[] = R"GLSL(
vec2 xe_px_per_ndc() { return xe_resolution_scale() / xe_system.line_quad.xy; }
vec2 xe_ndc_to_px(vec2 ndc) { return (ndc + 1.0) * xe_px_per_ndc(); }
vec2 xe_px_to_ndc(vec2 px) { return px / xe_px_per_ndc() - 1.0; }
vec2 xe_snap_px(vec2 px) { return sign(px) * floor(abs(px) * 256.0 + 0.5) / 256.0; }
vec2 xe_snap_line_end(vec2 px) { return (roundEven((px - 0.5) * 256.0) + 128.0) / 256.0; }
bool xe_line_quad_corners(vec4 a, vec4 b, out vec2 c[4]) {
  vec2 pa = xe_ndc_to_px(a.xy / a.w), pb = xe_ndc_to_px(b.xy / b.w);
  vec2 d = pa - pb;
  float width = xe_system.line_quad.z;
  if (!(d.x != 0.0 || d.y != 0.0) || !(width > 0.0)) return false;
  vec2 s = xe_resolution_scale();
  float x_over_y = s.x / s.y, y_over_x = s.y / s.x;
  float dy_guest_x = d.y * x_over_y;
  float k = (width * 0.5 * s.x) / sqrt(d.x * d.x + dy_guest_x * dy_guest_x);
  vec2 t = roundEven(vec2(-d.y * x_over_y * k, d.x * y_over_x * k) * 256.0) / 256.0;
  vec2 sa = xe_snap_line_end(pa), sb = xe_snap_line_end(pb);
  c[0] = xe_px_to_ndc(sa - t);
  c[1] = xe_px_to_ndc(sb - t);
  c[2] = xe_px_to_ndc(sa + t);
  c[3] = xe_px_to_ndc(sb + t);
  return true;
}
vec2 xe_sprite_corner(vec4 p, vec2 size, vec2 corner) {
  vec2 px = xe_ndc_to_px(p.xy / p.w) + (corner * 2.0 - 1.0) * size * 0.5 * xe_resolution_scale();
  return xe_px_to_ndc(xe_snap_px(px));
}
)GLSL";

}  // namespace

std::string GlslQuadGeometryShaderHead(const char* input, uint32_t passed, uint32_t clip,
                                       uint32_t cull, uint32_t max_vertices) {
  passed = std::clamp<uint32_t>(passed, 1, kInterpolatorCount);
  std::string text = "#version 450\n";
  text += "layout(" + std::string(input) + ") in;\n";
  text += "layout(triangle_strip, max_vertices = " + std::to_string(max_vertices) + ") out;\n";
  text += "#define XE_PASSED " + std::to_string(passed) + "\n";
  text += "layout(location = 0) in vec4 xe_in[][XE_PASSED];\n";
  text += "layout(location = 0) out vec4 xe_interpolators[16];\n";
  text += GlslSystemConstants();
  text += GlslGeometryDistances(clip, cull);
  text += kQuadCorners;
  return text;
}

}  // namespace xnt::vk
