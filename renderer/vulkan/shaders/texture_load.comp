#version 450
// The texture load compute shader (xnt/vk/texture_load.h), compiled at build time by glslc into
// SPIR-V words embedded in the program (renderer/vulkan/CMakeLists.txt): twice, without and with
// XE_VOLUME (3D destination, 32x32x4 tiling).
// Decoding rules follow Xenia
// src/xenia/gpu/shaders/texture_load_*.xesl and texture_info_formats.inc (component order: X is
// the lowest bits; format names list components from the highest bits); the code is ours.
// Missing components replicate the last present one (RRRR, RGGG, RGBB), as Xenia's host format
// swizzles do (src/xenia/gpu/vulkan/vulkan_texture_cache.cc).
// Block-compressed colours are decoded in 8-bit integers: 5/6-bit endpoints widened by bit
// replication, 1/3 and 2/3 points as (2a + b) / 3 truncated, 1/2 as (a + b) / 2.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer XeSharedMemory {
  uint words[];
} xe_shared_memory[4];
#ifdef XE_VOLUME
layout(set = 1, binding = 0, rgba32f) uniform writeonly image3D xe_dest;
#else
layout(set = 1, binding = 0, rgba32f) uniform writeonly image2DArray xe_dest;
#endif
layout(push_constant) uniform XeLoad {
  uint base_address; uint pitch_blocks; uint width; uint height;
  uint layers; uint format; uint endian; uint tiled;
  uint bpb_log2; uint block_width; uint block_height; uint layer_stride;
  uint signed_mask; uint offset_x_blocks; uint offset_y_blocks; uint height_blocks;
  uint offset_z;
} p;

uint load_word(uint byte_address) {
  uint index = (byte_address & 0x7FFFFFFu) >> 2u;
  switch (byte_address >> 27u) {
    case 0u: return xe_shared_memory[0].words[index];
    case 1u: return xe_shared_memory[1].words[index];
    case 2u: return xe_shared_memory[2].words[index];
    default: return xe_shared_memory[3].words[index];
  }
}

uint swap(uint v) {
  if (p.endian == 1u || p.endian == 2u) v = ((v & 0x00FF00FFu) << 8u) | ((v >> 8u) & 0x00FF00FFu);
  if (p.endian == 2u || p.endian == 3u) v = (v << 16u) | (v >> 16u);
  return v;
}

// Xenia texture_address.h Tiled2D (see renderer/gpu/src/texture_address.cpp).
uint tiled_offset(uint x, uint y, uint pitch, uint bpb_log2) {
  uint pitch_tiles = (pitch + 31u) >> 5u;
  uint outer = ((y >> 5u) * pitch_tiles + (x >> 5u)) << 6u;
  uint inner = (((y >> 1u) & 7u) << 3u) | (x & 7u);
  uint oi = (outer | inner) << bpb_log2;
  uint bank = (y >> 4u) & 1u;
  uint pipe = ((x >> 3u) & 3u) ^ (((y >> 3u) & 1u) << 1u);
  return (oi & 0xFu) | ((y & 1u) << 4u) | (((oi >> 4u) & 1u) << 5u) | (pipe << 6u) |
         (((oi >> 5u) & 7u) << 8u) | (bank << 11u) | ((oi >> 8u) << 12u);
}

// Xenia texture_util.cc GetTiledOffset3D (see renderer/gpu/src/texture_address.cpp).
uint tiled_offset_3d(uint x, uint y, uint z, uint pitch, uint height, uint bpb_log2) {
  uint pitch_tiles = (pitch + 31u) >> 5u;
  uint height_pairs = ((height + 31u) & ~31u) >> 4u;
  uint macro_index = (x >> 5u) + ((y >> 4u) + (z >> 2u) * height_pairs) * pitch_tiles;
  uint macro = ((macro_index << (bpb_log2 + 6u)) & 0x0FFFFFFFu) << 1u;
  uint micro = ((x & 7u) | ((y & 6u) << 2u)) << bpb_log2;
  uint parity = ((y >> 3u) + (z >> 2u)) & 1u;
  uint bank_pipe = parity + ((((x >> 3u) + (parity << 1u)) & 3u) << 1u);
  uint linear = ((macro + (micro & ~15u)) << 1u) + (micro & 15u) + ((z & 3u) << (bpb_log2 + 6u)) +
                ((y & 1u) << 4u);
  uint a = ((bank_pipe & 1u) << 3u) | ((linear >> 6u) & 7u);
  a = (a << 3u) + (bank_pipe & ~1u);
  a = (a << 2u) + (linear & ~511u);
  return (a << 3u) + (linear & 63u);
}

// a / b rounded to nearest, as the cpu path's IEEE division gives it (a >= 0, b > 0). GLSL's
// '/' only has to be within 2.5 ulp (NVIDIA divides through a reciprocal), which moves an UNORM
// texel's k / (2^n - 1) by an ulp and, after filtering and the final float -> UNORM store, by an
// LSB on some drivers. fma gives each candidate q's remainder a - q * b exactly; the
// float nearest a / b is the candidate with the smallest |remainder| (b > 0, so |a - q b| =
// b |a / b - q|). For b = 2^n - 1 no quotient lies halfway between two floats.
float div_rn(float a, float b) {
  precise float q = a / b;
  if (!(q > 0.0)) return q;
  uint bits = floatBitsToUint(q);
  precise float best = q;
  precise float best_r = abs(fma(-q, b, a));
  for (uint d = 1u; d <= 6u; ++d) {
    // Candidates q - 3 ulp .. q + 3 ulp (bits - 3 .. bits + 3, positive floats).
    uint c = d <= 3u ? bits - d : bits + (d - 3u);
    precise float qc = uintBitsToFloat(c);
    precise float r = abs(fma(-qc, b, a));
    if (r < best_r) { best = qc; best_r = r; }
  }
  return best;
}
float unorm(uint v, uint bits) { return div_rn(float(v), float((1u << bits) - 1u)); }

// The Xenos 16-bit float of the k_16*_FLOAT and k_16*_EXPAND texels: exponent 31 is an ordinary
// exponent (no infinity, no NaN: +-131008 at most), as in the render targets whose resolves
// produce these textures (Xenia render_target_cache.h: "the Xenos float16 doesn't have special
// values") and in vertex fetch (Xenia shader_interpreter.cc decodes vertex halves with
// xenos_half_to_float, base/math.h; its SPIR-V / DXBC fetch code marks the host's IEEE unpack as
// a FIXME for that range). GLSL's unpackHalf2x16 would make exponent 31 infinity or NaN. Half
// denormals stay denormal (2^-24 steps), as the model's decoder (texture_decode.cpp) keeps them.
float xenos_half(uint h) {
  uint exponent = (h >> 10u) & 0x1Fu, mantissa = h & 0x3FFu;
  float magnitude = exponent == 0u ? float(mantissa) * (1.0 / 16777216.0)
                                   : uintBitsToFloat(((exponent + 112u) << 23u) | (mantissa << 13u));
  return uintBitsToFloat(floatBitsToUint(magnitude) | ((h & 0x8000u) << 16u));
}
vec2 xenos_half2(uint w) { return vec2(xenos_half(w & 0xFFFFu), xenos_half(w >> 16u)); }
uint field(uint v, uint offset, uint bits) { return bitfieldExtract(v, int(offset), int(bits)); }

vec3 rgb565(uint c) {
  uint r = (c >> 11u) & 31u, g = (c >> 5u) & 63u, b = c & 31u;
  return vec3((r << 3u) | (r >> 2u), (g << 2u) | (g >> 4u), (b << 3u) | (b >> 2u));
}

// DXT colour block (2 words): texel i of 16. Integer 0..255 per component, alpha in w.
uvec4 dxt_color(uint w0, uint w1, uint i, bool four_color_only) {
  uint c0 = w0 & 0xFFFFu, c1 = w0 >> 16u;
  uvec3 e0 = uvec3(rgb565(c0)), e1 = uvec3(rgb565(c1));
  uint index = (w1 >> (2u * i)) & 3u;
  if (index == 0u) return uvec4(e0, 255u);
  if (index == 1u) return uvec4(e1, 255u);
  if (four_color_only || c0 > c1) {
    return index == 2u ? uvec4((2u * e0 + e1) / 3u, 255u) : uvec4((e0 + 2u * e1) / 3u, 255u);
  }
  return index == 2u ? uvec4((e0 + e1) / 2u, 255u) : uvec4(0u);
}

// DXT5 alpha block (2 words): texel i, 0..255.
uint dxt5_alpha(uint w0, uint w1, uint i) {
  uint a0 = w0 & 0xFFu, a1 = (w0 >> 8u) & 0xFFu;
  uint bit = 16u + 3u * i;
  uint index = bit < 32u ? ((w0 >> bit) & 7u) : ((w1 >> (bit - 32u)) & 7u);
  if (bit < 32u && bit + 3u > 32u) index = ((w0 >> bit) | (w1 << (32u - bit))) & 7u;
  if (index == 0u) return a0;
  if (index == 1u) return a1;
  if (a0 > a1) return ((8u - index) * a0 + (index - 1u) * a1) / 7u;
  if (index == 6u) return 0u;
  if (index == 7u) return 255u;
  return ((6u - index) * a0 + (index - 1u) * a1) / 5u;
}

// Bit widths of the decoded X..W components of formats whose components are integer unorm
// fields (0: not applicable), for TextureSign kSigned. Replicated components have the width of
// the one they copy.
uvec4 signed_component_bits(uint format) {
  switch (format) {
    case 2u: case 8u: case 9u: case 6u: case 14u: case 50u: case 10u: return uvec4(8u);
    case 3u: return uvec4(5u, 5u, 5u, 1u);
    case 4u: return uvec4(5u, 6u, 5u, 5u);
    case 5u: return uvec4(5u, 5u, 6u, 6u);
    case 7u: case 54u: return uvec4(10u, 10u, 10u, 2u);
    case 15u: return uvec4(4u);
    case 16u: case 55u: return uvec4(11u, 11u, 10u, 10u);
    case 17u: case 56u: return uvec4(10u, 11u, 11u, 11u);
    case 24u: case 25u: case 26u: return uvec4(16u);
    default: return uvec4(0u);
  }
}

void main() {
  uvec3 id = gl_GlobalInvocationID;
  if (id.x >= p.width || id.y >= p.height || id.z >= p.layers) return;
  uint bx = id.x / p.block_width + p.offset_x_blocks, by = id.y / p.block_height + p.offset_y_blocks;
  uint row_bytes = ((p.pitch_blocks << p.bpb_log2) + 255u) & ~255u;
#ifdef XE_VOLUME
  uint z = id.z + p.offset_z;
  uint address = p.base_address +
                 (p.tiled != 0u ? tiled_offset_3d(bx, by, z, p.pitch_blocks, p.height_blocks, p.bpb_log2)
                                : z * p.layer_stride + by * row_bytes + (bx << p.bpb_log2));
#else
  uint offset = p.tiled != 0u ? tiled_offset(bx, by, p.pitch_blocks, p.bpb_log2)
                              : by * row_bytes + (bx << p.bpb_log2);
  uint address = p.base_address + id.z * p.layer_stride + offset;
#endif
  uint w[4];
  uint dwords = p.bpb_log2 >= 2u ? (1u << (p.bpb_log2 - 2u)) : 1u;
  for (uint i = 0u; i < 4u; ++i) w[i] = i < dwords ? swap(load_word((address & ~3u) + 4u * i)) : 0u;
  uint t = w[0] >> (8u * (address & 3u));
  uint ti = (id.y % p.block_height) * 4u + (id.x % p.block_width);  // texel in a 4x4 block
  // Integer-field formats leave their fields in u and the field widths in bits, and div_rn (an
  // unrolled loop of fma checks) runs once per component after the switch: inlined into every
  // format's case, as it was, it made the module 3x larger (87 KB of SPIR-V, now 28 KB) and
  // lavapipe's compile of each variant at start-up about 4x longer (docs/speed.md). A component
  // with bits 0 keeps the float the case wrote into v.
  vec4 v = vec4(0.0);
  uvec4 u = uvec4(0u);
  uvec4 bits = uvec4(0u);
  switch (p.format) {
    case 2u: case 8u: case 9u: u = uvec4(t & 0xFFu); bits = uvec4(8u); break;
    case 3u:
      u = uvec4(field(t, 0u, 5u), field(t, 5u, 5u), field(t, 10u, 5u), field(t, 15u, 1u));
      bits = uvec4(5u, 5u, 5u, 1u);
      break;
    case 4u:
      u = uvec4(field(t, 0u, 5u), field(t, 5u, 6u), field(t, 11u, 5u), field(t, 11u, 5u));
      bits = uvec4(5u, 6u, 5u, 5u);
      break;
    case 5u:
      u = uvec4(field(t, 0u, 5u), field(t, 5u, 5u), field(t, 10u, 6u), field(t, 10u, 6u));
      bits = uvec4(5u, 5u, 6u, 6u);
      break;
    case 6u: case 14u: case 50u:
      u = uvec4(field(t, 0u, 8u), field(t, 8u, 8u), field(t, 16u, 8u), field(t, 24u, 8u));
      bits = uvec4(8u);
      break;
    case 7u: case 54u:
      u = uvec4(field(t, 0u, 10u), field(t, 10u, 10u), field(t, 20u, 10u), field(t, 30u, 2u));
      bits = uvec4(10u, 10u, 10u, 2u);
      break;
    case 10u: u = uvec4(field(t, 0u, 8u), uvec3(field(t, 8u, 8u))); bits = uvec4(8u); break;
    case 11u: case 12u: {
      // 4:2:2 pairs as Vulkan's G8B8G8R8_422 / B8G8R8G8_422 (Xenia's host formats for them):
      // no colour-space conversion, X = Cr, Y = Y0 or Y1 by texel column, Z = Cb, W = 1.
      // k_Cr_Y1_Cb_Y0_REP bytes from the low one: Y0 Cb Y1 Cr; k_Y1_Cr_Y0_Cb_REP: Cb Y0 Cr Y1.
      bool first = (id.x & 1u) == 0u;
      uint y = p.format == 11u ? field(t, first ? 0u : 16u, 8u) : field(t, first ? 8u : 24u, 8u);
      uint cb = p.format == 11u ? field(t, 8u, 8u) : field(t, 0u, 8u);
      uint cr = p.format == 11u ? field(t, 24u, 8u) : field(t, 16u, 8u);
      u = uvec4(cr, y, cb, 0u);
      bits = uvec4(8u, 8u, 8u, 0u);
      v.w = 1.0;
      break;
    }
    case 15u:
      u = uvec4(field(t, 0u, 4u), field(t, 4u, 4u), field(t, 8u, 4u), field(t, 12u, 4u));
      bits = uvec4(4u);
      break;
    case 16u: case 55u:
      u = uvec4(field(t, 0u, 11u), field(t, 11u, 11u), uvec2(field(t, 22u, 10u)));
      bits = uvec4(11u, 11u, 10u, 10u);
      break;
    case 17u: case 56u:
      u = uvec4(field(t, 0u, 10u), field(t, 10u, 11u), uvec2(field(t, 21u, 11u)));
      bits = uvec4(10u, 11u, 11u, 11u);
      break;
    case 22u: {
      // v / (2^24 - 1) correctly rounded without a division (lavapipe's float division is 1 ulp
      // off, which is a whole step of 24 bits): v / (2^24 - 1) = (v * 2^24 + v) / 2^48 + a tiny
      // positive rest; keeping the top 24 of its bitlength(v) + 24 bits always rounds up
      // (the dropped bits are v >= half, ties broken up by the rest).
      uint d = t >> 8u;
      if (d == 0u) { v = vec4(0.0); break; }
      uint l = uint(findMSB(d)) + 1u;
      v = vec4(ldexp(float((d << (24u - l)) + 1u), int(l) - 48));
      break;
    }
    case 23u: {
      // 20e4 float depth in bits 8..31 -> float32 (Xenia xenos.h Float20e4To32): 4-bit exponent
      // biased by 15 (112 = 127 - 15), 20-bit mantissa, denormals normalised.
      uint f = t >> 8u;
      if (f == 0u) { v = vec4(0.0); break; }
      uint mantissa = f & 0xFFFFFu;
      int exponent = int(f >> 20u);
      if (exponent == 0) {
        int shift = 20 - findMSB(mantissa);
        exponent = 1 - shift;
        mantissa = (mantissa << uint(shift)) & 0xFFFFFu;
      }
      v = vec4(uintBitsToFloat((uint(exponent + 112) << 23u) | (mantissa << 3u)));
      break;
    }
    case 24u: u = uvec4(t & 0xFFFFu); bits = uvec4(16u); break;
    case 25u: u = uvec4(t & 0xFFFFu, uvec3(t >> 16u)); bits = uvec4(16u); break;
    case 26u:
      u = uvec4(w[0] & 0xFFFFu, w[0] >> 16u, w[1] & 0xFFFFu, w[1] >> 16u);
      bits = uvec4(16u);
      break;
    // The _EXPAND formats hold the same 16-bit floats as the _FLOAT ones (Xenia's host formats
    // for them are R16_FLOAT / R16G16_FLOAT / R16G16B16A16_FLOAT, d3d12_texture_cache.cc).
    case 27u: case 30u: v = vec4(xenos_half(t & 0xFFFFu)); break;
    case 28u: case 31u: { vec2 h = xenos_half2(t); v = vec4(h.x, h.yyy); break; }
    case 29u: case 32u: v = vec4(xenos_half2(w[0]), xenos_half2(w[1])); break;
    case 36u: v = vec4(uintBitsToFloat(w[0])); break;
    case 37u: v = vec4(uintBitsToFloat(w[0]), vec3(uintBitsToFloat(w[1]))); break;
    case 38u:
      v = vec4(uintBitsToFloat(w[0]), uintBitsToFloat(w[1]), uintBitsToFloat(w[2]),
               uintBitsToFloat(w[3]));
      break;
    case 18u: case 51u: u = dxt_color(w[0], w[1], ti, false); bits = uvec4(8u); break;
    case 19u: case 52u: {
      uvec4 c = dxt_color(w[2], w[3], ti, true);
      u = uvec4(c.rgb, ((ti < 8u ? w[0] : w[1]) >> (4u * (ti & 7u))) & 15u);
      bits = uvec4(8u, 8u, 8u, 4u);
      break;
    }
    case 20u: case 53u: {
      uvec4 c = dxt_color(w[2], w[3], ti, true);
      u = uvec4(c.rgb, dxt5_alpha(w[0], w[1], ti));
      bits = uvec4(8u);
      break;
    }
    case 49u:
      u = uvec4(dxt5_alpha(w[0], w[1], ti), uvec3(dxt5_alpha(w[2], w[3], ti)));
      bits = uvec4(8u);
      break;
    case 58u: u = uvec4(((ti < 8u ? w[0] : w[1]) >> (4u * (ti & 7u))) & 15u); bits = uvec4(4u); break;
    case 59u: u = uvec4(dxt5_alpha(w[0], w[1], ti)); bits = uvec4(8u); break;
    case 61u: {
      // DXT3A_AS_1_1_1_1: each DXT3A 4-bit value is four 1-bit components, red in the MSB and
      // alpha in the LSB (Xenia texture_load_dxt3aas1111.xesli, which notes the order is
      // assumed; Halo: Reach is the only known user).
      uint n = ((ti < 8u ? w[0] : w[1]) >> (4u * (ti & 7u))) & 15u;
      v = vec4(float((n >> 3u) & 1u), float((n >> 2u) & 1u), float((n >> 1u) & 1u), float(n & 1u));
      break;
    }
    case 60u: {
      // CTX1: two 8:8 endpoints (X0 Y0 X1 Y1 from the low byte up), 2-bit indices, always the
      // 4-point interpolation.
      uvec2 e0 = uvec2(w[0] & 0xFFu, (w[0] >> 8u) & 0xFFu);
      uvec2 e1 = uvec2((w[0] >> 16u) & 0xFFu, w[0] >> 24u);
      uint index = (w[1] >> (2u * ti)) & 3u;
      uvec2 c = index == 0u ? e0 : index == 1u ? e1 :
                index == 2u ? (2u * e0 + e1) / 3u : (e0 + 2u * e1) / 3u;
      u = uvec4(c, uvec2(c.y));
      bits = uvec4(8u);
      break;
    }
    default: break;
  }
  // TextureSign kSigned (where signed_component_bits gives the component 2 bits or more; those
  // widths are the ones in bits): the field as two's complement over 2^(n-1) - 1, clamped to -1.
  // The field is taken from u, where it was once recovered as round(v * (2^n - 1)), which gives
  // back exactly the field for these widths.
  uvec4 signed_bits = p.signed_mask != 0u ? signed_component_bits(p.format) : uvec4(0u);
  for (int c = 0; c < 4; ++c) {
    uint n = bits[c];
    if (n == 0u) continue;
    bool is_signed = ((p.signed_mask >> uint(c)) & 1u) != 0u && signed_bits[c] >= 2u;
    float numerator = float(u[c]);
    float denominator = float((1u << n) - 1u);
    int s = 0;
    if (is_signed) {
      s = int(u[c]) - (u[c] >= (1u << (n - 1u)) ? int(1u << n) : 0);
      numerator = float(abs(s));
      denominator = float((1u << (n - 1u)) - 1u);
    }
    float q = div_rn(numerator, denominator);
    v[c] = is_signed ? max(s < 0 ? -q : q, -1.0) : q;
  }
  imageStore(xe_dest, ivec3(id), v);
}
