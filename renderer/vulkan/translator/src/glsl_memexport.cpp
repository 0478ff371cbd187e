// Memexport (eA / eM0-eM4) in GLSL: the same rules as ucode/src/memexport.cpp and the
// interpreter's FlushExports, operation for operation, so the fbo and cpu paths write the same
// bits. Facts: Xenia src/xenia/gpu/spirv_shader_translator_memexport.cc (ExportToMemory: eA
// validation, red/blue swap, packing, EndianSwap128Uint4, index/count bounds, atomic AND + OR for
// 8/16-bit elements in StoreUint32ToSharedMemory); xenos.h xe_gpu_memexport_stream_t; Xenia's "Implement memexport" discussion on GitHub.
// The code is ours. Float steps are `precise` (no fused multiply-add), NaN is tested on the bits
// (a driver without SignedZeroInfNanPreserve may fold isnan away).
#include "glsl_memexport.h"

namespace xnt::vk {

namespace {

constexpr const char* kMemExport = R"GLSL(
// ---- Memexport ----------------------------------------------------------------------------------
// Replaces the bits `mask` of guest dword `dword_index` (byte address >> 2); outside the 512 MiB
// nothing is written. Partial masks (8/16-bit elements) use atomics so neighbouring elements
// written by other invocations keep their bytes.
void xe_store_word(uint dword_index, uint value, uint mask) {
  uint i = dword_index & 0x1FFFFFFu;
  bool whole = mask == 0xFFFFFFFFu;
  value &= mask;
  switch (dword_index >> 25u) {
    case 0u:
      if (i >= uint(xe_shared_memory[0].words.length())) return;
      if (whole) { xe_shared_memory[0].words[i] = value; }
      else { atomicAnd(xe_shared_memory[0].words[i], ~mask); atomicOr(xe_shared_memory[0].words[i], value); }
      return;
    case 1u:
      if (i >= uint(xe_shared_memory[1].words.length())) return;
      if (whole) { xe_shared_memory[1].words[i] = value; }
      else { atomicAnd(xe_shared_memory[1].words[i], ~mask); atomicOr(xe_shared_memory[1].words[i], value); }
      return;
    case 2u:
      if (i >= uint(xe_shared_memory[2].words.length())) return;
      if (whole) { xe_shared_memory[2].words[i] = value; }
      else { atomicAnd(xe_shared_memory[2].words[i], ~mask); atomicOr(xe_shared_memory[2].words[i], value); }
      return;
    case 3u:
      if (i >= uint(xe_shared_memory[3].words.length())) return;
      if (whole) { xe_shared_memory[3].words[i] = value; }
      else { atomicAnd(xe_shared_memory[3].words[i], ~mask); atomicOr(xe_shared_memory[3].words[i], value); }
      return;
    default:
      return;
  }
}

bool xe_me_isnan(float x) { return (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u; }

// One fixed-point component as `width` bits: NaN -> 0, normalised clamp and scale, integers
// clamped to the range, then +-0.5 and truncation.
uint xe_me_fixed(float x, uint width, bool is_signed, bool normalized) {
  precise float v = xe_me_isnan(x) ? 0.0 : x;
  uint bits_mask = (1u << width) - 1u;
  if (is_signed) {
    float smax = float((1u << (width - 1u)) - 1u);
    if (normalized) {
      v = min(max(v, -1.0), 1.0);
      v = v * smax;
    } else {
      v = min(max(v, -smax - 1.0), smax);
    }
    precise float r = v + (v < 0.0 ? -0.5 : 0.5);
    return uint(int(r)) & bits_mask;
  }
  float umax = float(bits_mask);
  if (normalized) {
    v = min(max(v, 0.0), 1.0);
    v = v * umax;
  } else {
    v = min(max(v, 0.0), umax);
  }
  precise float r = v + 0.5;
  return uint(r) & bits_mask;
}

uint xe_me_fixed_word(vec4 v, uvec4 widths, bool is_signed, bool normalized) {
  uint word = 0u, offset = 0u;
  for (int i = 0; i < 4; ++i) {
    if (widths[i] == 0u) break;
    word |= xe_me_fixed(v[i], widths[i], is_signed, normalized) << offset;
    offset += widths[i];
  }
  return word;
}

// IEEE binary16, round to nearest even, overflow to infinity, NaN -> 0x7E00 | sign.
uint xe_me_half(float f) {
  uint u = floatBitsToUint(f);
  uint sign = (u >> 16u) & 0x8000u;
  uint a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return sign | 0x7E00u;
  if (a >= 0x477FF000u) return sign | 0x7C00u;
  if (a >= 0x38800000u) {
    uint r = a - 0x38000000u;
    return sign | ((r + 0xFFFu + ((r >> 13u) & 1u)) >> 13u);
  }
  if (a < 0x33000000u) return sign;
  uint e = a >> 23u, m = (a & 0x7FFFFFu) | 0x800000u, shift = 126u - e;
  uint q = m >> shift;
  uint rem = m & ((1u << shift) - 1u), half_ulp = 1u << (shift - 1u);
  if (rem > half_ulp || (rem == half_ulp && (q & 1u) != 0u)) q += 1u;
  return sign | q;
}

// Bytes per element of a memexport ColorFormat, 0 = not supported.
uint xe_me_element_bytes(uint f) {
  switch (f) {
    case 2u: case 8u: case 9u: return 1u;
    case 3u: case 4u: case 5u: case 10u: case 15u: case 24u: case 30u: return 2u;
    case 6u: case 14u: case 50u: case 7u: case 54u: case 16u: case 55u: case 17u: case 56u:
    case 25u: case 31u: case 36u: return 4u;
    case 26u: case 32u: case 37u: return 8u;
    case 38u: return 16u;
    default: return 0u;
  }
}

uvec4 xe_me_pack(vec4 value, uint z) {
  uint f = (z >> 8u) & 0x3Fu;
  vec4 v = (z & (1u << 19u)) != 0u ? value.zyxw : value;
  bool s = (z & (1u << 16u)) != 0u;
  bool n = (z & (1u << 17u)) == 0u;
  uvec4 w = uvec4(0u);
  switch (f) {
    case 2u: case 8u: case 9u: w.x = xe_me_fixed_word(v, uvec4(8u, 0u, 0u, 0u), s, n); break;
    case 3u: w.x = xe_me_fixed_word(v, uvec4(5u, 5u, 5u, 1u), s, n); break;
    case 4u: w.x = xe_me_fixed_word(v, uvec4(5u, 6u, 5u, 0u), s, n); break;
    case 5u: w.x = xe_me_fixed_word(v, uvec4(5u, 5u, 6u, 0u), s, n); break;
    case 6u: case 14u: case 50u: w.x = xe_me_fixed_word(v, uvec4(8u, 8u, 8u, 8u), s, n); break;
    case 7u: case 54u: w.x = xe_me_fixed_word(v, uvec4(10u, 10u, 10u, 2u), s, n); break;
    case 10u: w.x = xe_me_fixed_word(v, uvec4(8u, 8u, 0u, 0u), s, n); break;
    case 15u: w.x = xe_me_fixed_word(v, uvec4(4u, 4u, 4u, 4u), s, n); break;
    case 16u: case 55u: w.x = xe_me_fixed_word(v, uvec4(11u, 11u, 10u, 0u), s, n); break;
    case 17u: case 56u: w.x = xe_me_fixed_word(v, uvec4(10u, 11u, 11u, 0u), s, n); break;
    case 24u: w.x = xe_me_fixed_word(v, uvec4(16u, 0u, 0u, 0u), s, n); break;
    case 25u: w.x = xe_me_fixed_word(v, uvec4(16u, 16u, 0u, 0u), s, n); break;
    case 26u:
      w.x = xe_me_fixed_word(v, uvec4(16u, 16u, 0u, 0u), s, n);
      w.y = xe_me_fixed_word(vec4(v.zw, 0.0, 0.0), uvec4(16u, 16u, 0u, 0u), s, n);
      break;
    case 30u: w.x = xe_me_half(v.x); break;
    case 31u: w.x = xe_me_half(v.x) | (xe_me_half(v.y) << 16u); break;
    case 32u:
      w.x = xe_me_half(v.x) | (xe_me_half(v.y) << 16u);
      w.y = xe_me_half(v.z) | (xe_me_half(v.w) << 16u);
      break;
    case 36u: w.x = floatBitsToUint(v.x); break;
    case 37u: w.xy = floatBitsToUint(v.xy); break;
    case 38u: w = floatBitsToUint(v); break;
    default: break;
  }
  // Endian128: 8in64 / 8in128 reorder the dwords, then swap 8in32; 1-3 swap within dwords.
  uint endian = z & 7u;
  if (endian == 4u) { w = w.yxwz; endian = 2u; }
  else if (endian == 5u) { w = w.wzyx; endian = 2u; }
  return uvec4(xe_endian_swap(w.x, endian), xe_endian_swap(w.y, endian),
               xe_endian_swap(w.z, endian), xe_endian_swap(w.w, endian));
}

// Writes the eM# written since the last flush (bit k of `written`) to element index + k of the
// stream eA describes; eA without its marker bits, unsupported formats and elements past the
// count are dropped.
void xe_memexport_flush(vec4 eA, vec4 eM[5], uint written) {
  if (written == 0u) return;
  uvec4 ea = floatBitsToUint(eA);
  if (!all(equal(ea >> uvec4(30u, 23u, 23u, 23u), uvec4(1u, 0x96u, 0x96u, 0x96u)))) return;
  uint bytes = xe_me_element_bytes((ea.z >> 8u) & 0x3Fu);
  if (bytes == 0u) return;
  uint index = ea.y & 0x7FFFFFu;
  int remaining = clamp(int(ea.w & 0x7FFFFFu) - int(index), 0, 5);
  uint address0 = (ea.x << 2u) + index * bytes;
  for (int k = 0; k < 5; ++k) {
    if ((written & (1u << uint(k))) == 0u || k >= remaining) continue;
    uvec4 w = xe_me_pack(eM[k], ea.z);
    uint address = address0 + uint(k) * bytes;
    if (bytes < 4u) {
      uint shift = 8u * (address & 3u);
      xe_store_word(address >> 2u, w.x << shift, (bytes == 1u ? 0xFFu : 0xFFFFu) << shift);
    } else {
      for (uint d = 0u; d < bytes / 4u; ++d) {
        xe_store_word((address + 4u * d) >> 2u, w[d], 0xFFFFFFFFu);
      }
    }
  }
}
)GLSL";

}  // namespace

const char* GlslMemExportHelpers() { return kMemExport; }

}  // namespace xnt::vk
