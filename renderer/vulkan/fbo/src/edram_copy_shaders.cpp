// GLSL of the GPU EDRAM copy (see edram_copy_shaders.h).
#include "edram_copy_shaders.h"

namespace xnt::vk::transfer_internal {

namespace {

constexpr const char* kEdramCommon = R"(
layout(push_constant) uniform Push {
  uint width; uint y0; uint rows; uint base_tiles; uint pitch_tiles; uint flags;
  uint start_tile; uint end_tile; uint host_samples; uint kind; uint convert; uint host_sample;
  uint bit; uint host_width;
} p;
layout(std430, set = 0, binding = 2) buffer Edram { uint w[]; } edram;
// Resolution scale per axis (flags bits 4-5, 6-7): a tile holds 80S x 16T samples (edram.h).
uint scale_x() { return max((p.flags >> 4) & 3u, 1u); }
uint scale_y() { return max((p.flags >> 6) & 3u, 1u); }
// Dwords of one (scaled) tile.
uint tile_dwords() { return 1280u * scale_x() * scale_y(); }
// The host depth (float bits) of a depth sample sits kHostDepth dwords (the EDRAM's size) after
// its guest word.
#define kHostDepth (2621440u * scale_x() * scale_y())
// sRGB-mode k_8_8_8_8_GAMMA: 256 dwords sRGB code -> PWL code, then 256 PWL -> sRGB, one byte
// per channel (R lowest), filled from render_targets.h's CPU conversion; then 256 dwords: the
// float bits of code / 255 (exact-mode k_8_8_8_8_GAMMA in RGBA32F), from the same conversion.
#define kSrgbTables (5242880u * scale_x() * scale_y())

uint guest_samples() { uint m = (p.flags >> 1) & 3u; return m == 0u ? 1u : m == 1u ? 2u : 4u; }
// edram.h Surface::SampleOffset, in dwords (flags bit 3: depth, 40-sample halves swapped).
uint sample_offset(uint x, uint y, uint s) {
  uint m = (p.flags >> 1) & 3u;
  uint sx = x * (m == 2u ? 2u : 1u), sy = y * (m == 0u ? 1u : 2u);
  if (m == 1u) { sy += s; } else if (m == 2u) { sx += s & 1u; sy += s >> 1u; }
  bool wide = (p.flags & 1u) != 0u;
  uint row = 80u * scale_x(), th = 16u * scale_y();
  uint tw = wide ? row / 2u : row;
  uint tile = (p.base_tiles + (sy / th) * p.pitch_tiles + sx / tw) % 2048u;
  uint in_x = sx % tw;
  if ((p.flags & 8u) != 0u) { in_x = (in_x + row / 2u) % row; }
  return tile * tile_dwords() + ((sy % th) * tw + in_x) * (wide ? 2u : 1u);
}
// render_targets.h HostSampleOfGuest / GuestSampleOfHost.
uint host_of_guest(uint g) {
  uint gs = guest_samples();
  if (p.host_samples <= 1u) { return 0u; }
  if (gs == 2u) { return p.host_samples == 2u ? (g == 0u ? 1u : 0u) : (g == 0u ? 0u : 2u); }
  return g;
}
uint guest_of_host(uint h) {
  uint gs = guest_samples();
  if (gs <= 1u) { return 0u; }
  if (gs == 2u) { return p.host_samples == 2u ? (h == 0u ? 1u : 0u) : (h >> 1u); }
  return h;
}
// edram.h Float32To7e3 / Float7e3To32.
uint f32_to_7e3(float f) {
  if (!(f > 0.0)) { return 0u; }
  uint u = min(floatBitsToUint(f), 0x41FF0000u);
  if (u < 0x3E800000u) {
    uint shift = min(125u - (u >> 23u), 24u);
    u = (0x800000u | (u & 0x7FFFFFu)) >> shift;
  } else {
    u += 0xC2000000u;
  }
  u += 0x7FFFu + ((u >> 16u) & 1u);
  return (u >> 16u) & 0x3FFu;
}
float f7e3_to_32(uint v) {
  v &= 0x3FFu;
  if (v == 0u) { return 0.0; }
  uint mantissa = v & 0x7Fu, exponent = v >> 7u;
  if (exponent == 0u) {
    uint lz = 7u - uint(findMSB(mantissa));
    exponent = 1u - lz;
    mantissa = (mantissa << lz) & 0x7Fu;
  }
  return uintBitsToFloat(((exponent + 124u) << 23u) | (mantissa << 16u));
}
uint unorm2(float v) { return !(v > 0.0) ? 0u : v >= 1.0 ? 3u : uint(v * 3.0 + 0.5); }
// edram.cpp Unorm(v, 8): v * 255 + 0.5 truncated (Vulkan's float multiply and add are correctly
// rounded; precise keeps them from fusing), so the code is the CPU conversion's.
uint unorm8(float v) {
  precise float x = v * 255.0;
  precise float y = x + 0.5;
  return !(v > 0.0) ? 0u : v >= 1.0 ? 255u : uint(y);
}
// edram.h Float32To20e4 / Float20e4To32.
uint f32_to_20e4(float f) {
  if (!(f > 0.0)) { return 0u; }
  uint u = min(floatBitsToUint(f), 0x3FFFFFF8u);
  if (u < 0x38800000u) {
    uint shift = 113u - (u >> 23u);
    u = shift < 24u ? (0x800000u | (u & 0x7FFFFFu)) >> shift : 0u;
  } else {
    u += 0xC8000000u;
  }
  return ((u + 3u + ((u >> 3u) & 1u)) >> 3u) & 0xFFFFFFu;
}
float f20e4_to_32(uint v) {
  v &= 0xFFFFFFu;
  if (v == 0u) { return 0.0; }
  uint mantissa = v & 0xFFFFFu, exponent = v >> 20u;
  if (exponent == 0u) {
    uint lz = 20u - uint(findMSB(mantissa));
    exponent = 1u - lz;
    mantissa = (mantissa << lz) & 0xFFFFFu;
  }
  return uintBitsToFloat(((exponent + 112u) << 23u) | (mantissa << 3u));
}
// edram.h PackDepth's unorm24: floor(f * 16777215 + 0.5), exact in 64-bit integer arithmetic
// (f = m * 2^-sh with a 24-bit m; (m * (2^24 - 1) + 2^(sh - 1)) >> sh).
uint f32_to_unorm24(float f) {
  if (!(f > 0.0)) { return 0u; }
  if (f >= 1.0) { return 0xFFFFFFu; }
  uint u = floatBitsToUint(f), e = u >> 23u;
  if (e == 0u) { return 0u; }
  uint sh = 150u - e;  // >= 24 below 1.0
  if (sh >= 49u) { return 0u; }
  uint hi, lo, carry;
  umulExtended(0x800000u | (u & 0x7FFFFFu), 0xFFFFFFu, hi, lo);
  uint half_lo = sh - 1u < 32u ? 1u << (sh - 1u) : 0u, half_hi = sh - 1u >= 32u ? 1u << (sh - 33u) : 0u;
  lo = uaddCarry(lo, half_lo, carry);
  hi += half_hi + carry;
  return (sh < 32u ? (lo >> sh) | (hi << (32u - sh)) : hi >> (sh - 32u)) & 0xFFFFFFu;
}
// d / (2^24 - 1) rounded to the nearest float: d * 2^-24 is exact and the rest,
// d * 2^-48 / (1 - 2^-24), lies in (0.5, 1] ulp of it, so the result is the next float up.
float unorm24_to_f32(uint d) {
  d &= 0xFFFFFFu;
  if (d == 0u) { return 0.0; }
  return uintBitsToFloat(floatBitsToUint(float(d) * (1.0 / 16777216.0)) + 1u);
}
uint depth_to_d24(uint format, float f) { return format == 1u ? f32_to_20e4(f) : f32_to_unorm24(f); }
float d24_to_depth(uint format, uint d) { return format == 1u ? f20e4_to_32(d) : unorm24_to_f32(d); }
)";

}  // namespace

// Depth source: the depth and stencil aspects -> guest (depth24 << 8) | stencil words at the depth
// tile layout, and the host depth (float bits) kHostDepth dwords after each word.
// p.kind: guest depth format (0 kD24S8 unorm, 1 kD24FS8 20e4).
std::string EdramStoreDepthSource(bool msaa) {
  std::string s = "#version 450\nlayout(local_size_x = 64) in;\n";
  s += kEdramCommon;
  s += msaa ? "layout(set = 0, binding = 0) uniform sampler2DMS depth;\n"
              "layout(set = 0, binding = 1) uniform usampler2DMS stencil;\n"
            : "layout(set = 0, binding = 0) uniform sampler2D depth;\n"
              "layout(set = 0, binding = 1) uniform usampler2D stencil;\n";
  s += R"(
void main() {
  uint gs = guest_samples();
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.width * p.rows * gs) { return; }
  uint g = i % gs, pix = i / gs;
  uint x = pix % p.width, y = p.y0 + pix / p.width;
  uint tile = sample_offset(x, y, 0u) / tile_dwords();
  if (tile < p.start_tile || tile >= p.end_tile) { return; }
)";
  s += msaa ? "  int hs = int(host_of_guest(g));\n" : "  int hs = 0;\n";
  s += msaa ? "  float d = texelFetch(depth, ivec2(int(x), int(y)), hs).r;\n"
              "  uint st = texelFetch(stencil, ivec2(int(x), int(y)), hs).r & 0xFFu;\n"
            : "  float d = texelFetch(depth, ivec2(int(x), int(y)), 0).r;\n"
              "  uint st = texelFetch(stencil, ivec2(int(x), int(y)), 0).r & 0xFFu;\n";
  s += R"(
  uint off = sample_offset(x, y, g);
  edram.w[off] = (depth_to_d24(p.kind, d) << 8u) | st;
  edram.w[kHostDepth + off] = floatBitsToUint(d);
}
)";
  return s;
}

// D24S8 guest in a 1-sample D24_UNORM_S8_UINT host image, through copies of its rows (sampling
// or rendering a 24-bit unorm through floats is not exact on every device; lavapipe's sampler is
// off by one step near 1.0). Scratch layout: the depth aspect (X8_D24 dwords, host_width per
// row), then the stencil bytes. store: rows -> EDRAM words + host depth; load (4 texels per
// invocation, for whole stencil dwords): EDRAM words of the transferred tiles -> the scratch
// rows, which the caller copies back (texels of other tiles keep their copied values).
std::string EdramD24RawSource(bool load) {
  std::string s = "#version 450\nlayout(local_size_x = 64) in;\n";
  s += kEdramCommon;
  s += "layout(std430, set = 0, binding = 3) buffer Scratch { uint w[]; } scratch;\n";
  if (!load) {
    s += R"(
void main() {
  uint t = gl_GlobalInvocationID.x, texels = p.host_width * p.rows;
  if (t >= texels) { return; }
  uint x = t % p.host_width, y = p.y0 + t / p.host_width;
  if (x >= p.width) { return; }
  uint tile = sample_offset(x, y, 0u) / tile_dwords();
  if (tile < p.start_tile || tile >= p.end_tile) { return; }
  uint d = scratch.w[t] & 0xFFFFFFu;
  uint st = (scratch.w[texels + t / 4u] >> (8u * (t % 4u))) & 0xFFu;
  uint off = sample_offset(x, y, 0u);
  edram.w[off] = (d << 8u) | st;
  edram.w[kHostDepth + off] = floatBitsToUint(unorm24_to_f32(d));
}
)";
    return s;
  }
  s += R"(
void main() {
  uint q = gl_GlobalInvocationID.x, texels = p.host_width * p.rows;
  if (q * 4u >= texels) { return; }
  uint stencil = scratch.w[texels + q];
  for (uint j = 0u; j < 4u; ++j) {
    uint t = q * 4u + j;
    if (t >= texels) { break; }
    uint x = t % p.host_width, y = p.y0 + t / p.host_width;
    if (x >= p.width) { continue; }
    uint tile = sample_offset(x, y, 0u) / tile_dwords();
    if (tile < p.start_tile || tile >= p.end_tile) { continue; }
    uint word = edram.w[sample_offset(x, y, 0u)];
    scratch.w[t] = word >> 8u;
    stencil = (stencil & ~(0xFFu << (8u * j))) | ((word & 0xFFu) << (8u * j));
  }
  scratch.w[texels + q] = stencil;
}
)";
  return s;
}

// Depth destination, one host sample per draw: the host depth beside the word while it still
// converts to the word's 24 bits, else the 24-bit value converted; stencil by
// export (mode 0), or a depth-only pass (mode 1) and bit-plane passes (mode 2) that keep the
// fragments whose stencil bit p.bit & 0xFF equals p.bit >> 8.
std::string EdramLoadDepthSource(uint32_t mode) {
  std::string s = "#version 450\n";
  if (mode == 0) s += "#extension GL_ARB_shader_stencil_export : require\n";
  s += kEdramCommon;
  s += R"(
void main() {
  uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
  gl_SampleMask[0] = int(1u << p.host_sample);
  if (x >= p.width) { discard; }
  uint tile = sample_offset(x, y, 0u) / tile_dwords();
  if (tile < p.start_tile || tile >= p.end_tile) { discard; }
  uint off = sample_offset(x, y, guest_of_host(p.host_sample));
  uint word = edram.w[off];
)";
  if (mode == 2) {
    s += "  if (((word >> (p.bit & 0xFFu)) & 1u) != (p.bit >> 8u)) { discard; }\n}\n";
    return s;
  }
  s += R"(
  float host = uintBitsToFloat(edram.w[kHostDepth + off]);
  gl_FragDepth = depth_to_d24(p.kind, host) == (word >> 8u) ? host : d24_to_depth(p.kind, word >> 8u);
)";
  if (mode == 0) s += "  gl_FragStencilRefARB = int(word & 0xFFu);\n";
  s += "}\n";
  return s;
}

std::string EdramStoreSource(bool msaa) {
  std::string s = "#version 450\nlayout(local_size_x = 64) in;\n";
  s += kEdramCommon;
  s += msaa ? "layout(set = 0, binding = 0) uniform usampler2DMS src;\n"
            : "layout(set = 0, binding = 0) uniform usampler2D src;\n";
  s += R"(
void main() {
  uint gs = guest_samples();
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.width * p.rows * gs) { return; }
  uint g = i % gs, pix = i / gs;
  uint x = pix % p.width, y = p.y0 + pix / p.width;
  uint tile = sample_offset(x, y, 0u) / tile_dwords();
  if (tile < p.start_tile || tile >= p.end_tile) { return; }
)";
  s += msaa ? "  uvec4 c = texelFetch(src, ivec2(int(x), int(y)), int(host_of_guest(g)));\n"
            : "  uvec4 c = texelFetch(src, ivec2(int(x), int(y)), 0);\n";
  s += R"(
  uint lo = 0u, hi = 0u;
  if (p.convert == 3u) {
    vec4 f = uintBitsToFloat(c);
    lo = unorm8(f.r) | (unorm8(f.g) << 8u) | (unorm8(f.b) << 16u) | (unorm8(f.a) << 24u);
  } else if (p.convert == 2u) {
    lo = (edram.w[kSrgbTables + c.r] & 0xFFu) | (edram.w[kSrgbTables + c.g] & 0xFF00u) |
         (edram.w[kSrgbTables + c.b] & 0xFF0000u) | (edram.w[kSrgbTables + c.a] & 0xFF000000u);
  } else if (p.convert == 1u) {
    vec2 rg = unpackHalf2x16(c.r | (c.g << 16u)), ba = unpackHalf2x16(c.b | (c.a << 16u));
    lo = f32_to_7e3(rg.x) | (f32_to_7e3(rg.y) << 10u) | (f32_to_7e3(ba.x) << 20u) |
         (unorm2(ba.y) << 30u);
  } else {
    switch (p.kind) {
      case 0u: lo = c.r | (c.g << 8u) | (c.b << 16u) | (c.a << 24u); break;
      case 1u: lo = c.r | (c.g << 10u) | (c.b << 20u) | (c.a << 30u); break;
      case 2u: lo = c.r | (c.g << 16u); break;
      case 3u: lo = c.r | (c.g << 16u); hi = c.b | (c.a << 16u); break;
      case 4u: lo = c.r; break;
      case 5u: lo = c.r; hi = c.g; break;
      default: lo = c.r; hi = c.g; break;
    }
  }
  uint off = sample_offset(x, y, g);
  edram.w[off] = lo;
  if ((p.flags & 1u) != 0u) { edram.w[off + 1u] = hi; }
}
)";
  return s;
}

std::string EdramLoadSource() {
  std::string s = "#version 450\n";
  s += kEdramCommon;
  s += R"(
layout(location = 0) out uvec4 o;
void main() {
  uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
  gl_SampleMask[0] = int(1u << p.host_sample);
  if (x >= p.width) { discard; }
  uint tile = sample_offset(x, y, 0u) / tile_dwords();
  if (tile < p.start_tile || tile >= p.end_tile) { discard; }
  uint off = sample_offset(x, y, guest_of_host(p.host_sample));
  uint lo = edram.w[off], hi = (p.flags & 1u) != 0u ? edram.w[off + 1u] : 0u;
  if (p.convert == 2u) {
    uint t = kSrgbTables + 256u;
    o = uvec4(edram.w[t + (lo & 0xFFu)] & 0xFFu, (edram.w[t + ((lo >> 8u) & 0xFFu)] >> 8u) & 0xFFu,
              (edram.w[t + ((lo >> 16u) & 0xFFu)] >> 16u) & 0xFFu, edram.w[t + (lo >> 24u)] >> 24u);
    return;
  }
  if (p.convert == 3u) {
    uint t = kSrgbTables + 512u;
    o = uvec4(edram.w[t + (lo & 0xFFu)], edram.w[t + ((lo >> 8u) & 0xFFu)],
              edram.w[t + ((lo >> 16u) & 0xFFu)], edram.w[t + (lo >> 24u)]);
    return;
  }
  if (p.convert == 1u) {
    uint rg = packHalf2x16(vec2(f7e3_to_32(lo), f7e3_to_32(lo >> 10u)));
    uint ba = packHalf2x16(vec2(f7e3_to_32(lo >> 20u), float(lo >> 30u) / 3.0));
    o = uvec4(rg & 0xFFFFu, rg >> 16u, ba & 0xFFFFu, ba >> 16u);
    return;
  }
  switch (p.kind) {
    case 0u: o = uvec4(lo & 0xFFu, (lo >> 8u) & 0xFFu, (lo >> 16u) & 0xFFu, lo >> 24u); break;
    case 1u: o = uvec4(lo & 0x3FFu, (lo >> 10u) & 0x3FFu, (lo >> 20u) & 0x3FFu, lo >> 30u); break;
    case 2u: o = uvec4(lo & 0xFFFFu, lo >> 16u, 0u, 0u); break;
    case 3u: o = uvec4(lo & 0xFFFFu, lo >> 16u, hi & 0xFFFFu, hi >> 16u); break;
    case 4u: o = uvec4(lo, 0u, 0u, 0u); break;
    default: o = uvec4(lo, hi, 0u, 0u); break;
  }
}
)";
  return s;
}

}  // namespace xnt::vk::transfer_internal
