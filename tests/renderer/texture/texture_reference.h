// CPU side of the texture tests: a fake guest memory, random raw texels encoded at their guest
// addresses (tiled or linear, with the declared endian swap applied in reverse), and an
// independent CPU decoder giving each texel's expected components. Shared by the loader tests
// (texture_load_test.cpp) and the replayed-draw tests (draw_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "xnt/vk/shared_memory.h"
#include "xnt/gpu/texture_address.h"
#include "xnt/vk/texture_cache.h"
#include "xnt/gpu/texture_formats.h"

namespace xnt::vk::texref {

struct FakeGuest {
  std::map<uint32_t, std::vector<uint8_t>> pages;
  std::map<uint32_t, uint64_t> generations;
  uint64_t generation = 1;
  void WriteByte(uint32_t address, uint8_t value) {
    auto& p = pages[address >> 12];
    if (p.empty()) p.resize(4096);
    p[address & 4095] = value;
    generations[address >> 12] = generation;
  }
  void EndWrite() { ++generation; }
  gpu::GuestPageSource Source() {
    gpu::GuestPageSource s;
    s.generation = [this] { return generation; };
    s.page_generation = [this](uint32_t p) {
      auto it = generations.find(p);
      return it == generations.end() ? uint64_t(0) : it->second;
    };
    s.page_data = [this](uint32_t p) -> const uint8_t* {
      auto it = pages.find(p);
      return it == pages.end() ? nullptr : it->second.data();
    };
    return s;
  }
};

inline uint32_t Swap(uint32_t v, uint32_t endian) {
  if (endian == 1 || endian == 2) v = ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu);
  if (endian == 2 || endian == 3) v = (v << 16) | (v >> 16);
  return v;
}

// Expected component: either an exact float or an unorm integer over `max`.
struct Component {
  float value = 0;
  uint32_t max = 0;  // 0: exact float bits
};
using Texel = std::array<Component, 4>;

inline Component U(uint32_t v, uint32_t bits) {
  uint32_t max = (1u << bits) - 1;
  return {float(v) / float(max), max};
}
inline Component F(float f) { return {f, 0}; }
inline uint32_t Bits(uint32_t v, uint32_t o, uint32_t n) { return (v >> o) & ((1u << n) - 1); }

inline float Half(uint32_t h) {
  uint32_t sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
  float v = exp == 0 ? std::ldexp(float(man), -24) : std::ldexp(float(man | 1024), int(exp) - 25);
  return sign ? -v : v;
}

inline std::array<uint32_t, 3> Rgb565(uint32_t c) {
  uint32_t r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
  return {(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)};
}
inline std::array<uint32_t, 4> DxtColor(uint32_t w0, uint32_t w1, uint32_t i, bool four) {
  uint32_t c0 = w0 & 0xFFFF, c1 = w0 >> 16;
  auto e0 = Rgb565(c0), e1 = Rgb565(c1);
  uint32_t index = (w1 >> (2 * i)) & 3;
  std::array<uint32_t, 4> out{};
  for (int k = 0; k < 3; ++k) {
    uint32_t a = e0[k], b = e1[k];
    if (index == 0) out[k] = a;
    else if (index == 1) out[k] = b;
    else if (four || c0 > c1) out[k] = index == 2 ? (2 * a + b) / 3 : (a + 2 * b) / 3;
    else out[k] = index == 2 ? (a + b) / 2 : 0;
  }
  out[3] = (!four && c0 <= c1 && index == 3) ? 0 : 255;
  return out;
}
inline uint32_t Dxt5Alpha(uint32_t w0, uint32_t w1, uint32_t i) {
  uint64_t bits = uint64_t(w0) | (uint64_t(w1) << 32);
  uint32_t a0 = w0 & 0xFF, a1 = (w0 >> 8) & 0xFF;
  uint32_t index = uint32_t(bits >> (16 + 3 * i)) & 7;
  if (index == 0) return a0;
  if (index == 1) return a1;
  if (a0 > a1) return ((8 - index) * a0 + (index - 1) * a1) / 7;
  if (index == 6) return 0;
  if (index == 7) return 255;
  return ((6 - index) * a0 + (index - 1) * a1) / 5;
}

// Independent CPU decode of texel `ti` (index in a 4x4 block, or 0) of a block whose dwords are
// `w` (after the endian swap), and `t` the texel's bits for sub-dword texels.
inline Texel Decode(uint32_t format, const uint32_t* w, uint32_t t, uint32_t ti) {
  auto rep = [](Component x, Component y, Component z, Component a) { return Texel{x, y, z, a}; };
  switch (format) {
    case 2: case 8: case 9: { auto c = U(t & 0xFF, 8); return rep(c, c, c, c); }
    case 3: return rep(U(Bits(t, 0, 5), 5), U(Bits(t, 5, 5), 5), U(Bits(t, 10, 5), 5), U(Bits(t, 15, 1), 1));
    case 4: return rep(U(Bits(t, 0, 5), 5), U(Bits(t, 5, 6), 6), U(Bits(t, 11, 5), 5), U(Bits(t, 11, 5), 5));
    case 5: return rep(U(Bits(t, 0, 5), 5), U(Bits(t, 5, 5), 5), U(Bits(t, 10, 6), 6), U(Bits(t, 10, 6), 6));
    case 6: case 14: case 50:
      return rep(U(Bits(t, 0, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 16, 8), 8), U(Bits(t, 24, 8), 8));
    case 7: case 54:
      return rep(U(Bits(t, 0, 10), 10), U(Bits(t, 10, 10), 10), U(Bits(t, 20, 10), 10), U(Bits(t, 30, 2), 2));
    case 10: return rep(U(Bits(t, 0, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 8, 8), 8));
    case 11: case 12: {
      bool first = (ti & 1) == 0;  // ti = texel column within the 2x1 block
      uint32_t y = format == 11 ? Bits(t, first ? 0 : 16, 8) : Bits(t, first ? 8 : 24, 8);
      uint32_t cb = format == 11 ? Bits(t, 8, 8) : Bits(t, 0, 8);
      uint32_t cr = format == 11 ? Bits(t, 24, 8) : Bits(t, 16, 8);
      return rep(U(cr, 8), U(y, 8), U(cb, 8), F(1.0f));
    }
    case 15: return rep(U(Bits(t, 0, 4), 4), U(Bits(t, 4, 4), 4), U(Bits(t, 8, 4), 4), U(Bits(t, 12, 4), 4));
    case 16: case 55:
      return rep(U(Bits(t, 0, 11), 11), U(Bits(t, 11, 11), 11), U(Bits(t, 22, 10), 10), U(Bits(t, 22, 10), 10));
    case 17: case 56:
      return rep(U(Bits(t, 0, 10), 10), U(Bits(t, 10, 11), 11), U(Bits(t, 21, 11), 11), U(Bits(t, 21, 11), 11));
    case 22: { auto c = U(t >> 8, 24); return rep(c, c, c, c); }
    case 23: {
      // 20e4: value = 2^(e - 15) * (1 + m / 2^20), denormals 2^-14 * m / 2^20.
      uint32_t f = t >> 8, e = f >> 20, m = f & 0xFFFFF;
      float value = e ? std::ldexp(1.0f + float(m) / 1048576.0f, int(e) - 15)
                      : std::ldexp(float(m) / 1048576.0f, -14);
      auto c = F(value);
      return rep(c, c, c, c);
    }
    case 24: { auto c = U(t & 0xFFFF, 16); return rep(c, c, c, c); }
    case 25: return rep(U(t & 0xFFFF, 16), U(t >> 16, 16), U(t >> 16, 16), U(t >> 16, 16));
    case 26: return rep(U(w[0] & 0xFFFF, 16), U(w[0] >> 16, 16), U(w[1] & 0xFFFF, 16), U(w[1] >> 16, 16));
    case 27: case 30: { auto c = F(Half(t & 0xFFFF)); return rep(c, c, c, c); }
    case 28: case 31: return rep(F(Half(t & 0xFFFF)), F(Half(t >> 16)), F(Half(t >> 16)), F(Half(t >> 16)));
    case 29: case 32: return rep(F(Half(w[0] & 0xFFFF)), F(Half(w[0] >> 16)), F(Half(w[1] & 0xFFFF)), F(Half(w[1] >> 16)));
    case 36: case 37: case 38: {
      float f[4];
      for (int i = 0; i < 4; ++i) std::memcpy(&f[i], &w[format == 38 ? i : (format == 37 ? std::min(i, 1) : 0)], 4);
      return rep(F(f[0]), F(f[1]), F(f[2]), F(f[3]));
    }
    case 18: case 51: {
      auto c = DxtColor(w[0], w[1], ti, false);
      return rep(U(c[0], 8), U(c[1], 8), U(c[2], 8), U(c[3], 8));
    }
    case 19: case 52: {
      auto c = DxtColor(w[2], w[3], ti, true);
      uint32_t a = ((ti < 8 ? w[0] : w[1]) >> (4 * (ti & 7))) & 15;
      return rep(U(c[0], 8), U(c[1], 8), U(c[2], 8), U(a, 4));
    }
    case 20: case 53: {
      auto c = DxtColor(w[2], w[3], ti, true);
      return rep(U(c[0], 8), U(c[1], 8), U(c[2], 8), U(Dxt5Alpha(w[0], w[1], ti), 8));
    }
    case 49: {
      auto y = U(Dxt5Alpha(w[2], w[3], ti), 8);
      return rep(U(Dxt5Alpha(w[0], w[1], ti), 8), y, y, y);
    }
    case 58: { auto c = U(((ti < 8 ? w[0] : w[1]) >> (4 * (ti & 7))) & 15, 4); return rep(c, c, c, c); }
    case 59: { auto c = U(Dxt5Alpha(w[0], w[1], ti), 8); return rep(c, c, c, c); }
    case 61: {  // DXT3A_AS_1_1_1_1: R = bit 3 ... A = bit 0 of the 4-bit value
      uint32_t n = ((ti < 8 ? w[0] : w[1]) >> (4 * (ti & 7))) & 15;
      return rep(U((n >> 3) & 1, 1), U((n >> 2) & 1, 1), U((n >> 1) & 1, 1), U(n & 1, 1));
    }
    case 60: {
      uint32_t x0 = w[0] & 0xFF, y0 = (w[0] >> 8) & 0xFF, x1 = (w[0] >> 16) & 0xFF, y1 = w[0] >> 24;
      uint32_t index = (w[1] >> (2 * ti)) & 3;
      auto lerp = [&](uint32_t a, uint32_t b) {
        return index == 0 ? a : index == 1 ? b : index == 2 ? (2 * a + b) / 3 : (a + 2 * b) / 3;
      };
      auto y = U(lerp(y0, y1), 8);
      return rep(U(lerp(x0, x1), 8), y, y, y);
    }
    default: ADD_FAILURE() << "no reference decoder for format " << format; return {};
  }
}

inline bool IsHalfFormat(uint32_t f) { return (f >= 27 && f <= 29) || (f >= 30 && f <= 32); }
inline bool IsFloatFormat(uint32_t f) { return IsHalfFormat(f) || f == 36 || f == 37 || f == 38; }

// Random block dwords (finite values for float formats).
inline uint32_t RandomWord(std::mt19937& rng, uint32_t format, float float_range = 1000.0f) {
  uint32_t v = rng();
  if (IsHalfFormat(format)) {
    // Keep both halves finite: exponent 31 is Inf/NaN.
    for (int h = 0; h < 2; ++h) {
      if (((v >> (10 + 16 * h)) & 31) == 31) v &= ~(1u << (14 + 16 * h));
    }
  } else if (IsFloatFormat(format)) {
    std::uniform_real_distribution<float> d(-float_range, float_range);
    float f = d(rng);
    std::memcpy(&v, &f, 4);
  }
  return v;
}

struct Layout {
  uint32_t width, height, pitch, layers = 1;
  bool tiled;
  uint32_t dimension = 1;  // 0 = 1D, 1 = 2D/stacked, 2 = 3D (layers = depth), 3 = cube
  uint32_t signs = 0;      // fetch constant dword 0 bits 2..9 (TextureSign per component)
  uint32_t max_level = 0;  // mip levels 1..max_level at mip_address (dword 4 bits 6..9)
  uint32_t mip_address = 0;
  bool packed_mips = false;
};


inline std::array<uint32_t, 6> Fetch(uint32_t base, uint32_t format, uint32_t endian,
                                     const Layout& l) {
  std::array<uint32_t, 6> d{};
  d[0] = 2u | (l.signs << 2) | ((l.pitch >> 5) << 22) | (l.tiled ? 1u << 31 : 0u);
  d[1] = format | (endian << 6) | ((base >> 12) << 12);
  if (l.dimension == 2) {  // 3D: 11-bit width and height, 10-bit depth
    d[2] = (l.width - 1) | ((l.height - 1) << 11) | ((l.layers - 1) << 22);
  } else if (l.dimension == 0) {  // 1D: 24-bit width
    d[2] = l.width - 1;
  } else {
    d[2] = (l.width - 1) | ((l.height - 1) << 13) | ((l.layers - 1) << 26);
  }
  d[4] = l.max_level << 6;
  d[5] = (l.dimension << 9) | (l.packed_mips ? 1u << 11 : 0u) | ((l.mip_address >> 12) << 12);
  return d;
}

// Encodes random blocks of every level at their guest addresses (TextureDescriptor::GetLevel:
// packed mip tails included); returns the expected texels level after level, each level
// width_l x height_l x layers, row-major, layer-major.
inline std::vector<Texel> Encode(FakeGuest& guest, uint32_t base, uint32_t format, uint32_t endian,
                                 const Layout& l, uint32_t seed, float float_range = 1000.0f) {
  gpu::TextureFormatInfo info = gpu::GetTextureFormatInfo(format);
  EXPECT_TRUE(info.loadable);
  std::mt19937 rng(seed);
  TextureDescriptor desc = TextureDescriptor::FromFetchConstant(Fetch(base, format, endian, l).data());
  uint32_t block_bytes = 1u << info.bpb_log2;
  std::vector<Texel> expected;
  for (uint32_t level = 0; level < desc.levels; ++level) {
    TextureLoadConstants c = desc.LoadConstants(level);
    const uint32_t lw = c.width, lh = c.height;
    const size_t level_start = expected.size();
    expected.resize(level_start + size_t(lw) * lh * l.layers);
    uint32_t bw = (lw + info.block_width - 1) / info.block_width;
    uint32_t bh = (lh + info.block_height - 1) / info.block_height;
    for (uint32_t z = 0; z < l.layers; ++z) {
      for (uint32_t by = 0; by < bh; ++by) {
        for (uint32_t bx = 0; bx < bw; ++bx) {
          uint32_t sx = bx + c.offset_x_blocks, sy = by + c.offset_y_blocks;
          uint32_t offset = l.tiled ? uint32_t(gpu::TiledOffset2D(int32_t(sx), int32_t(sy), c.pitch_blocks, info.bpb_log2))
                                    : gpu::LinearOffset2D(sx, sy, c.pitch_blocks, info.bpb_log2);
          uint32_t address = c.base_address + z * c.layer_stride + offset;
          if (l.dimension == 2 && l.tiled) {  // 32x32x4-tiled volume
            address = c.base_address + gpu::TiledOffset3D(sx, sy, z, c.pitch_blocks, c.height_blocks, info.bpb_log2);
          }
          // The block's dwords as the loader sees them after the swap; for sub-dword blocks,
          // the containing dword keeps whatever bytes other blocks put there.
          uint32_t words[4] = {};
          if (block_bytes >= 4) {
            for (uint32_t i = 0; i < block_bytes / 4; ++i) {
              words[i] = RandomWord(rng, format, float_range);
              uint32_t stored = Swap(words[i], endian);
              for (uint32_t b = 0; b < 4; ++b) guest.WriteByte(address + 4 * i + b, uint8_t(stored >> (8 * b)));
            }
          } else {
            uint32_t t = RandomWord(rng, format, float_range) & (block_bytes == 1 ? 0xFFu : 0xFFFFu);
            uint32_t shift = 8 * (address & 3);
            // Position of these bytes in guest memory: apply the swap to a dword holding only them.
            uint32_t stored = Swap(t << shift, endian);
            uint32_t mask = Swap((block_bytes == 1 ? 0xFFu : 0xFFFFu) << shift, endian);
            for (uint32_t b = 0; b < 4; ++b) {
              if ((mask >> (8 * b)) & 0xFF) guest.WriteByte((address & ~3u) + b, uint8_t(stored >> (8 * b)));
            }
            words[0] = t;
          }
          for (uint32_t ty = 0; ty < info.block_height; ++ty) {
            for (uint32_t tx = 0; tx < info.block_width; ++tx) {
              uint32_t x = bx * info.block_width + tx, y = by * info.block_height + ty;
              if (x >= lw || y >= lh) continue;
              expected[level_start + (size_t(z) * lh + y) * lw + x] =
                  Decode(format, words, words[0], ty * 4 + tx);
            }
          }
        }
      }
    }
  }
  guest.EndWrite();
  return expected;
}

}  // namespace xnt::vk::texref
