#version 450
// fsi path: the resolve copy in compute, straight from the EDRAM storage buffer (guest bits) to
// guest memory, bit for bit what the CPU resolve engine writes (renderer/gpu/src/resolve.cpp,
// whose header gives the rules and their sources: Xenia's resolve.xesli, pixel_formats.xesli,
// draw_util.cc). The host side (fsi/src/edram_compute.cpp) decides which copies this shader may
// do and fills the push constants with the engine's decoded state.
//
// Exactness on every driver: Vulkan leaves float division at 2.5 ulp, lets denormals flush and
// NaNs lose their payload, while the engine runs IEEE single precision on the CPU (x86 SSE, no
// flush). So every float the engine computes is rebuilt here in integer arithmetic on its bits:
// unorm unpacking divides k / (2^n - 1) by long division with round-to-nearest-even, sample sums
// and the 2^exp_bias factor are software IEEE adds and power-of-two multiplies with SSE's NaN
// rules (a NaN operand comes back quieted, the first operand's of two; inf - inf gives the
// default NaN 0xFFC00000), half
// floats are packed from the bits. Only Unorm() and the fixed-point unpack use hardware floats:
// one multiply and one add, both correctly rounded in Vulkan, marked precise so no driver fuses
// them, on values in [0, 65535.5] where no flush can matter.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

// Destination: guest memory (the shared-memory mirror, 4 ranges of 128 MiB) or a scratch buffer
// bound the same way; byte addresses minus p.dest_sub.
layout(std430, set = 0, binding = 0) buffer XeDest { uint words[]; } xe_dest[4];
layout(std430, set = 1, binding = 0) readonly buffer XeEdram { uint words[]; } xe_edram;
// Per band of 32 destination rows: the lowest 16-byte block written and one past the highest,
// counting a pixel's last byte (the engine's read-modify-write range), for the host to copy back
// exactly those bytes.
layout(std430, set = 1, binding = 1) buffer XeBands { uvec2 range[]; } xe_bands;

layout(push_constant) uniform XeResolve {
  int x0; int y0; uint width; uint height;
  uint src_base_tiles; uint src_pitch_tiles; uint src_flags; uint src_scale;
  uint sampling; int exp_shift; uint dest_kind; uint dest_flags;
  uint dest_pitch; uint dest_height; int dest_base; uint dest_sub;
} p;

// src_flags: bits 0-3 unpack kind, bit 4 depth, bit 5 64bpp, bits 8-9 samples_x - 1, bits 10-11
// samples_y - 1. src_scale: scale_x | scale_y << 8 | step_x << 16 | step_y << 24.
// sampling: bits 0-1 first sample, bits 4-6 samples summed (1, 2 or 4).
// dest_flags: bits 0-2 bytes-per-pixel log2, bits 4-7 endian xor, bit 8 3D tiled (array),
// bits 9-10 raw red/blue swap (0 none, 1 8-bit fields, 2 10-bit, 3 16-bit of a 64bpp pair),
// bit 11 bitwise copy, bit 12 float red/blue swap, bits 13-14 the channel an 8bpp destination
// takes, bits 16-31 the 3D slice.

const uint kFloatNaN = 0xFFC00000u;

// ---- EDRAM addressing (edram.h Surface::SampleOffset on the engine's 1x sample view) -----------

uint edram_offset(uint sx, uint sy) {
  uint scale_x = p.src_scale & 0xFFu, scale_y = (p.src_scale >> 8) & 0xFFu;
  bool depth = (p.src_flags & 16u) != 0u, wide = (p.src_flags & 32u) != 0u;
  uint row = 80u * scale_x;
  uint tile_width = wide ? row / 2u : row;
  uint tile_height = 16u * scale_y;
  uint in_x = sx % tile_width, in_y = sy % tile_height;
  if (depth) in_x = (in_x + row / 2u) % row;
  uint tile = (p.src_base_tiles + (sy / tile_height) * p.src_pitch_tiles + sx / tile_width) % 2048u;
  return tile * 5120u * scale_x * scale_y + (in_y * tile_width + in_x) * (wide ? 8u : 4u);
}

// Sample `s` of pixel (x, y) in the hardware's sample space: column (s >> 1) & 1, row s & 1.
uvec2 load_sample(uint x, uint y, uint s) {
  uint step_x = (p.src_scale >> 16) & 0xFFu, step_y = p.src_scale >> 24;
  uint samples_x = ((p.src_flags >> 8) & 3u) + 1u, samples_y = ((p.src_flags >> 10) & 3u) + 1u;
  uint sx = x * step_x * samples_x + ((s >> 1u) & 1u);
  uint sy = y * step_y * samples_y + (s & 1u);
  uint offset = edram_offset(sx, sy) >> 2u;
  uvec2 v = uvec2(xe_edram.words[offset], 0u);
  if ((p.src_flags & 32u) != 0u) v.y = xe_edram.words[offset + 1u];
  return v;
}

// ---- IEEE single precision on bits --------------------------------------------------------------

bool is_nan(uint a) { return (a & 0x7FFFFFFFu) > 0x7F800000u; }

// Rounds sign | (exponent e, 27-bit significand m with its leading one at bit 26 or, for
// e == 1, below: a denormal) with 3 guard bits to nearest even.
uint round_pack(uint sign, int e, uint m) {
  uint low = m & 7u;
  m >>= 3u;
  if (low > 4u || (low == 4u && (m & 1u) != 0u)) m += 1u;
  if (m >= 0x1000000u) {
    m >>= 1u;
    e += 1;
  }
  if (e >= 255) return sign | 0x7F800000u;
  if (m < 0x800000u) return sign | m;  // denormal (or zero)
  return sign | (uint(e) << 23u) | (m & 0x7FFFFFu);
}

// a + b with a the earlier operand in the summation order (resolve.cpp AddSampleChannel): a NaN
// operand comes back quieted, a's when both are NaNs, as SSE addss does with a first.
uint f32_add(uint a, uint b) {
  if (is_nan(a)) return a | 0x400000u;
  if (is_nan(b)) return b | 0x400000u;
  uint abs_a = a & 0x7FFFFFFFu, abs_b = b & 0x7FFFFFFFu;
  if (abs_a == 0x7F800000u) return (abs_b == 0x7F800000u && a != b) ? kFloatNaN : a;
  if (abs_b == 0x7F800000u) return b;
  if (abs_a == 0u && abs_b == 0u) return a & b;  // -0 only when both are -0
  if (abs_a == 0u) return b;
  if (abs_b == 0u) return a;
  if (abs_a < abs_b) {
    uint t = a;
    a = b;
    b = t;
    abs_a = a & 0x7FFFFFFFu;
    abs_b = b & 0x7FFFFFFFu;
  }
  int ea = int(abs_a >> 23u), eb = int(abs_b >> 23u);
  uint ma = abs_a & 0x7FFFFFu, mb = abs_b & 0x7FFFFFu;
  if (ea != 0) ma |= 0x800000u; else ea = 1;
  if (eb != 0) mb |= 0x800000u; else eb = 1;
  ma <<= 3u;
  mb <<= 3u;
  int d = ea - eb;
  if (d >= 27) {
    mb = 1u;  // only the sticky bit is left
  } else if (d > 0) {
    uint sticky = (mb & ((1u << uint(d)) - 1u)) != 0u ? 1u : 0u;
    mb = (mb >> uint(d)) | sticky;
  }
  uint m = ((a ^ b) & 0x80000000u) != 0u ? ma - mb : ma + mb;
  if (m == 0u) return 0u;  // exact cancellation is +0 when rounding to nearest
  int e = ea;
  if (m >= 0x8000000u) {
    m = (m >> 1u) | (m & 1u);
    e += 1;
  } else {
    while (m < 0x4000000u && e > 1) {
      m <<= 1u;
      e -= 1;
    }
  }
  return round_pack(a & 0x80000000u, e, m);
}

// a * 2^n (n within the range a resolve's factor has, -34..31), as SSE mulss computes it.
uint f32_mul_pow2(uint a, int n) {
  if (is_nan(a)) return a | 0x400000u;
  uint abs_a = a & 0x7FFFFFFFu, sign = a & 0x80000000u;
  if (abs_a == 0x7F800000u || abs_a == 0u) return a;
  int e = int(abs_a >> 23u);
  uint m = abs_a & 0x7FFFFFu;
  if (e != 0) {
    m |= 0x800000u;
  } else {
    e = 1;
    while (m < 0x800000u) {
      m <<= 1u;
      e -= 1;
    }
  }
  e += n;
  if (e >= 1) return round_pack(sign, e, m << 3u);
  // Below the normal range: shift into a denormal, keeping a sticky bit.
  uint shift = uint(1 - e);
  uint wide = m << 3u;
  if (shift >= 27u) return round_pack(sign, 1, 1u);
  uint sticky = (wide & ((1u << shift) - 1u)) != 0u ? 1u : 0u;
  return round_pack(sign, 1, (wide >> shift) | sticky);
}

// k / d rounded to nearest even (k < 2^11, d < 2^11): the division float(k) / float(d) in the
// engine, by long division.
uint f32_div_int(uint k, uint d) {
  if (k == 0u) return 0u;
  int e = 0;
  uint r = k;
  while (r < d) {
    r <<= 1u;
    e -= 1;
  }
  while (r >= 2u * d) {
    d <<= 1u;
    e += 1;
  }
  uint m = 1u;
  r -= d;
  for (int i = 0; i < 24; ++i) {  // 23 mantissa bits and one round bit
    r <<= 1u;
    m <<= 1u;
    if (r >= d) {
      r -= d;
      m |= 1u;
    }
  }
  uint round_bit = m & 1u;
  m >>= 1u;
  if (round_bit != 0u && (r != 0u || (m & 1u) != 0u)) m += 1u;
  if (m >= 0x1000000u) {
    m >>= 1u;
    e += 1;
  }
  return (uint(e + 127) << 23u) | (m & 0x7FFFFFu);
}

// edram.cpp Float7e3To32.
uint f32_from_7e3(uint f10) {
  f10 &= 0x3FFu;
  if (f10 == 0u) return 0u;
  uint mantissa = f10 & 0x7Fu, exponent = f10 >> 7u;
  if (exponent == 0u) {
    uint lz = 7u - uint(findMSB(mantissa));
    exponent = 1u - lz;
    mantissa = (mantissa << lz) & 0x7Fu;
  }
  return ((exponent + 124u) << 23u) | (mantissa << 16u);
}

// edram.cpp XenosHalfToFloat (exponent 31 is an ordinary exponent).
uint f32_from_xenos_half(uint h) {
  uint sign = (h & 0x8000u) << 16u;
  uint e = (h >> 10u) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0u) {
    if (m == 0u) return sign;
    e = 113u;
    while ((m & 0x400u) == 0u) {
      m <<= 1u;
      e -= 1u;
    }
    return sign | (e << 23u) | ((m & 0x3FFu) << 13u);
  }
  return sign | ((e + 112u) << 23u) | (m << 13u);
}

// edram.cpp FromFixed16: float(int16) * (32 / 32767) (the constant as the C++ compiler folds it).
uint f32_from_fixed16(uint bits) {
  precise float v = float(int(bits << 16u) >> 16) * uintBitsToFloat(0x3A800100u);
  return floatBitsToUint(v);
}

// edram.cpp FloatToHalf (IEEE half, round to nearest even, NaN payload kept).
uint f16_from_f32(uint u) {
  uint sign = (u >> 16u) & 0x8000u;
  uint abs_u = u & 0x7FFFFFFFu;
  if (abs_u >= 0x7F800000u) {
    return sign | 0x7C00u | (abs_u > 0x7F800000u ? (0x200u | ((abs_u >> 13u) & 0x3FFu)) : 0u);
  }
  if (abs_u >= 0x477FF000u) return sign | 0x7C00u;
  if (abs_u < 0x38800000u) {
    uint shift = 113u - (abs_u >> 23u);
    if (shift > 11u) return sign;
    uint m = 0x800000u | (abs_u & 0x7FFFFFu);
    uint h = m >> (shift + 13u);
    uint rest = m & ((1u << (shift + 13u)) - 1u), mid = 1u << (shift + 12u);
    if (rest > mid || (rest == mid && (h & 1u) != 0u)) h += 1u;
    return sign | h;
  }
  uint h = (abs_u - 0x38000000u) >> 13u;
  uint rest = abs_u & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u) != 0u)) h += 1u;
  return sign | h;
}

// resolve.cpp Unorm: uint(Saturate(v) * max + 0.5) (NaN and negatives saturate to 0).
uint unorm(uint v, float max_value) {
  float s;
  if ((v & 0x80000000u) != 0u || is_nan(v) || v == 0u) {
    s = 0.0;
  } else if (v >= 0x3F800000u) {
    s = 1.0;
  } else {
    s = uintBitsToFloat(v);
  }
  precise float scaled = s * max_value;
  precise float rounded = scaled + 0.5;
  return uint(rounded);
}

// ---- Unpacking (resolve.cpp UnpackForResolve) ---------------------------------------------------

uvec4 unpack_color(uvec2 b) {
  switch (p.src_flags & 15u) {
    case 0u:  // k_8_8_8_8, k_8_8_8_8_GAMMA (the gamma bits read as unorm)
      return uvec4(f32_div_int(b.x & 0xFFu, 255u), f32_div_int((b.x >> 8u) & 0xFFu, 255u),
                   f32_div_int((b.x >> 16u) & 0xFFu, 255u), f32_div_int(b.x >> 24u, 255u));
    case 1u:  // k_2_10_10_10(_AS_10_10_10_10)
      return uvec4(f32_div_int(b.x & 0x3FFu, 1023u), f32_div_int((b.x >> 10u) & 0x3FFu, 1023u),
                   f32_div_int((b.x >> 20u) & 0x3FFu, 1023u), f32_div_int(b.x >> 30u, 3u));
    case 2u:  // k_2_10_10_10_FLOAT(_AS_16_16_16_16)
      return uvec4(f32_from_7e3(b.x), f32_from_7e3(b.x >> 10u), f32_from_7e3(b.x >> 20u),
                   f32_div_int(b.x >> 30u, 3u));
    case 3u:  // k_16_16: blue and alpha read as 0
      return uvec4(f32_from_fixed16(b.x & 0xFFFFu), f32_from_fixed16(b.x >> 16u), 0u, 0u);
    case 4u:  // k_16_16_16_16
      return uvec4(f32_from_fixed16(b.x & 0xFFFFu), f32_from_fixed16(b.x >> 16u),
                   f32_from_fixed16(b.y & 0xFFFFu), f32_from_fixed16(b.y >> 16u));
    case 5u:  // k_16_16_FLOAT
      return uvec4(f32_from_xenos_half(b.x & 0xFFFFu), f32_from_xenos_half(b.x >> 16u), 0u, 0u);
    case 6u:  // k_16_16_16_16_FLOAT
      return uvec4(f32_from_xenos_half(b.x & 0xFFFFu), f32_from_xenos_half(b.x >> 16u),
                   f32_from_xenos_half(b.y & 0xFFFFu), f32_from_xenos_half(b.y >> 16u));
    case 7u:  // k_32_FLOAT
      return uvec4(b.x, 0u, 0u, 0u);
    default:  // k_32_32_FLOAT
      return uvec4(b.x, b.y, 0u, 0u);
  }
}

// ---- Packing (resolve.cpp PackResolveDest), little-endian dwords --------------------------------

uvec4 pack_dest(uvec4 c) {
  switch (p.dest_kind) {
    case 0u:  // k_8, k_8_A, k_8_B
      return uvec4(unorm(c.x, 255.0), 0u, 0u, 0u);
    case 1u:  // k_1_5_5_5
      return uvec4(unorm(c.x, 31.0) | (unorm(c.y, 31.0) << 5u) | (unorm(c.z, 31.0) << 10u) |
                   (unorm(c.w, 1.0) << 15u), 0u, 0u, 0u);
    case 2u:  // k_5_6_5
      return uvec4(unorm(c.x, 31.0) | (unorm(c.y, 63.0) << 5u) | (unorm(c.z, 31.0) << 11u), 0u,
                   0u, 0u);
    case 3u:  // k_6_5_5
      return uvec4(unorm(c.x, 31.0) | (unorm(c.y, 31.0) << 5u) | (unorm(c.z, 63.0) << 10u), 0u,
                   0u, 0u);
    case 4u:  // k_8_8
      return uvec4(unorm(c.x, 255.0) | (unorm(c.y, 255.0) << 8u), 0u, 0u, 0u);
    case 5u:  // k_4_4_4_4
      return uvec4(unorm(c.x, 15.0) | (unorm(c.y, 15.0) << 4u) | (unorm(c.z, 15.0) << 8u) |
                   (unorm(c.w, 15.0) << 12u), 0u, 0u, 0u);
    case 6u:  // k_16
      return uvec4(unorm(c.x, 65535.0), 0u, 0u, 0u);
    case 7u:  // k_16_FLOAT
      return uvec4(f16_from_f32(c.x), 0u, 0u, 0u);
    case 8u:  // k_8_8_8_8(_A, _AS_16_16_16_16)
      return uvec4(unorm(c.x, 255.0) | (unorm(c.y, 255.0) << 8u) | (unorm(c.z, 255.0) << 16u) |
                   (unorm(c.w, 255.0) << 24u), 0u, 0u, 0u);
    case 9u:  // k_2_10_10_10(_AS_16_16_16_16)
      return uvec4(unorm(c.x, 1023.0) | (unorm(c.y, 1023.0) << 10u) |
                   (unorm(c.z, 1023.0) << 20u) | (unorm(c.w, 3.0) << 30u), 0u, 0u, 0u);
    case 10u:  // k_10_11_11(_AS_16_16_16_16): red in the low 11 bits
      return uvec4(unorm(c.x, 2047.0) | (unorm(c.y, 2047.0) << 11u) |
                   (unorm(c.z, 1023.0) << 22u), 0u, 0u, 0u);
    case 11u:  // k_11_11_10(_AS_16_16_16_16): red in the low 10 bits
      return uvec4(unorm(c.x, 1023.0) | (unorm(c.y, 2047.0) << 10u) |
                   (unorm(c.z, 2047.0) << 21u), 0u, 0u, 0u);
    case 12u:  // k_16_16
      return uvec4(unorm(c.x, 65535.0) | (unorm(c.y, 65535.0) << 16u), 0u, 0u, 0u);
    case 13u:  // k_16_16_FLOAT
      return uvec4(f16_from_f32(c.x) | (f16_from_f32(c.y) << 16u), 0u, 0u, 0u);
    case 14u:  // k_32_FLOAT
      return uvec4(c.x, 0u, 0u, 0u);
    case 15u:  // k_16_16_16_16
      return uvec4(unorm(c.x, 65535.0) | (unorm(c.y, 65535.0) << 16u),
                   unorm(c.z, 65535.0) | (unorm(c.w, 65535.0) << 16u), 0u, 0u);
    case 16u:  // k_16_16_16_16_FLOAT
      return uvec4(f16_from_f32(c.x) | (f16_from_f32(c.y) << 16u),
                   f16_from_f32(c.z) | (f16_from_f32(c.w) << 16u), 0u, 0u);
    case 17u:  // k_32_32_FLOAT
      return uvec4(c.x, c.y, 0u, 0u);
    default:  // k_32_32_32_32_FLOAT
      return c;
  }
}

// ---- Destination addressing -------------------------------------------------------------------

// texture_address.cpp TiledOffset2D (signed: the offset may be negative before the base).
int tiled_offset_2d(int x, int y, uint pitch, uint bpb_log2) {
  uint pitch_tiles = (pitch + 31u) >> 5u;
  uint outer = (uint(y >> 5) * pitch_tiles + uint(x >> 5)) << 6u;
  uint ux = uint(x), uy = uint(y);
  uint inner = (((uy >> 1u) & 7u) << 3u) | (ux & 7u);
  uint oi = (outer | inner) << bpb_log2;
  uint bank = (uy >> 4u) & 1u;
  uint pipe = ((ux >> 3u) & 3u) ^ (((uy >> 3u) & 1u) << 1u);
  uint high = uint(int(oi) >> 8) << 12u;
  return int((oi & 0xFu) | ((uy & 1u) << 4u) | (((oi >> 4u) & 1u) << 5u) | (pipe << 6u) |
             (((oi >> 5u) & 7u) << 8u) | (bank << 11u) | high);
}

// resolve.cpp TiledOffset3D.
int tiled_offset_3d(int x, int y, int z, uint pitch_blocks, uint height_blocks, uint bpb_log2) {
  uint pitch = (pitch_blocks + 31u) & ~31u, height = (height_blocks + 31u) & ~31u;
  uint ux = uint(x), uy = uint(y), uz = uint(z);
  uint outer_rows = uint(y >> 4) + uint(z >> 2) * (height >> 4u);
  uint macro_index = uint(x >> 5) + outer_rows * (pitch >> 5u);
  uint macro = ((macro_index << (bpb_log2 + 6u)) & 0xFFFFFFFu) << 1u;
  uint micro = (((ux & 7u) + ((uy & 6u) << 2u)) << (bpb_log2 + 6u)) >> 6u;
  uint parity = (uint(y >> 3) + uint(z >> 2)) & 1u;
  uint pipe = parity + (((uint(x >> 3) + (parity << 1u)) & 3u) << 1u);
  uint inner = ((macro + (micro & ~15u)) << 1u) + (micro & 15u) + ((uz & 3u) << (bpb_log2 + 6u)) +
               ((uy & 1u) << 4u);
  uint a = (pipe & 1u) << 3u;
  a += (inner >> 6u) & 7u;
  a <<= 3u;
  a += pipe & ~1u;
  a <<= 2u;
  a += inner & ~511u;
  a <<= 3u;
  a += inner & 63u;
  return int(a);
}

void store_word(uint byte_address, uint value) {
  uint a = byte_address - p.dest_sub;
  uint index = (a & 0x7FFFFFFu) >> 2u;
  switch (a >> 27u) {
    case 0u: xe_dest[0].words[index] = value; break;
    case 1u: xe_dest[1].words[index] = value; break;
    case 2u: xe_dest[2].words[index] = value; break;
    default: xe_dest[3].words[index] = value; break;
  }
}

// One byte of a dword other invocations may write the other bytes of.
void store_byte(uint byte_address, uint value) {
  uint a = byte_address - p.dest_sub;
  uint index = (a & 0x7FFFFFFu) >> 2u;
  uint shift = (a & 3u) * 8u;
  uint keep = ~(0xFFu << shift), bits = (value & 0xFFu) << shift;
  switch (a >> 27u) {
    case 0u: atomicAnd(xe_dest[0].words[index], keep); atomicOr(xe_dest[0].words[index], bits); break;
    case 1u: atomicAnd(xe_dest[1].words[index], keep); atomicOr(xe_dest[1].words[index], bits); break;
    case 2u: atomicAnd(xe_dest[2].words[index], keep); atomicOr(xe_dest[2].words[index], bits); break;
    default: atomicAnd(xe_dest[3].words[index], keep); atomicOr(xe_dest[3].words[index], bits); break;
  }
}

// Byte j of a dword moves to j ^ mask (mask 0..3).
uint permute_bytes(uint v, uint mask) {
  if ((mask & 1u) != 0u) v = ((v & 0x00FF00FFu) << 8u) | ((v >> 8u) & 0x00FF00FFu);
  if ((mask & 2u) != 0u) v = (v << 16u) | (v >> 16u);
  return v;
}

void main() {
  uvec2 id = gl_GlobalInvocationID.xy;
  if (id.x >= p.width || id.y >= p.height) return;
  int x = p.x0 + int(id.x), y = p.y0 + int(id.y);
  uint bpp_log2 = p.dest_flags & 7u, bpp = 1u << bpp_log2;
  uint endian_xor = (p.dest_flags >> 4u) & 15u;
  uint first = p.sampling & 3u, summed = (p.sampling >> 4u) & 7u;

  uvec4 words;
  if ((p.dest_flags & 0x800u) != 0u) {
    // Bitwise copy: the raw guest bits, red and blue swapped on the bits.
    uvec2 b = load_sample(uint(x), uint(y), first);
    switch ((p.dest_flags >> 9u) & 3u) {
      case 1u: b.x = (b.x & ~0xFF00FFu) | ((b.x & 0xFFu) << 16u) | ((b.x >> 16u) & 0xFFu); break;
      case 2u:
        b.x = (b.x & ~0x3FF003FFu) | ((b.x & 0x3FFu) << 20u) | ((b.x >> 20u) & 0x3FFu);
        break;
      case 3u: b = uvec2((b.x & 0xFFFF0000u) | (b.y & 0xFFFFu), (b.y & 0xFFFF0000u) | (b.x & 0xFFFFu)); break;
      default: break;
    }
    words = uvec4(b, 0u, 0u);
  } else {
    // Full copy: unpack, sum in the hardware's order (first, first | 1, then 2 and 3), scale by
    // 2^exp_bias halved per averaging step, swap, pack.
    uvec4 c = unpack_color(load_sample(uint(x), uint(y), first));
    if (summed >= 2u) {
      uvec4 q = unpack_color(load_sample(uint(x), uint(y), first | 1u));
      c = uvec4(f32_add(c.x, q.x), f32_add(c.y, q.y), f32_add(c.z, q.z), f32_add(c.w, q.w));
    }
    if (summed == 4u) {
      for (uint s = 2u; s < 4u; ++s) {
        uvec4 q = unpack_color(load_sample(uint(x), uint(y), s));
        c = uvec4(f32_add(c.x, q.x), f32_add(c.y, q.y), f32_add(c.z, q.z), f32_add(c.w, q.w));
      }
    }
    c = uvec4(f32_mul_pow2(c.x, p.exp_shift), f32_mul_pow2(c.y, p.exp_shift),
              f32_mul_pow2(c.z, p.exp_shift), f32_mul_pow2(c.w, p.exp_shift));
    if (bpp == 1u) {
      uint channel = (p.dest_flags >> 13u) & 3u;
      c.x = channel == 1u ? c.y : channel == 2u ? c.z : c.x;
    } else if ((p.dest_flags & 0x1000u) != 0u) {
      c = c.zyxw;
    }
    words = pack_dest(c);
  }

  int offset;
  if ((p.dest_flags & 0x100u) != 0u) {
    offset = tiled_offset_3d(x, y, int(p.dest_flags >> 16u), p.dest_pitch, p.dest_height,
                             bpp_log2);
  } else {
    offset = tiled_offset_2d(x, y, p.dest_pitch, bpp_log2);
  }
  // The host checked that every address of the rectangle lies in guest memory.
  uint address = uint(p.dest_base + offset);
  uint band = uint(y >> 5) - uint(p.y0 >> 5);
  atomicMin(xe_bands.range[band].x, address & ~15u);
  atomicMax(xe_bands.range[band].y, ((address + bpp - 1u) | 15u) + 1u);
  if (bpp >= 4u && (address & 3u) == 0u) {
    // Whole dwords: dword k of the pixel lands at (its offset in the block ^ (xor & 12)), its
    // bytes permuted by xor & 3.
    for (uint k = 0u; k < bpp / 4u; ++k) {
      uint o = address + 4u * k;
      store_word((o & ~15u) | ((o & 15u) ^ (endian_xor & 12u)),
                 permute_bytes(words[k], endian_xor & 3u));
    }
  } else {
    for (uint i = 0u; i < bpp; ++i) {
      uint o = address + i;
      store_byte((o & ~15u) | ((o & 15u) ^ endian_xor), words[i >> 2u] >> ((i & 3u) * 8u));
    }
  }
}
