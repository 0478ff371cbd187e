// The CPU texture decoder (see texture_decode.h).
#include "xnt/gpu/texture_decode.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "xnt/xenos/enums.h"

namespace xnt::gpu {

namespace {

Component U(uint32_t v, uint32_t bits) {
  uint32_t max = (1u << bits) - 1;
  return {float(v) / float(max), max};
}
Component F(float f) { return {f, 0}; }
uint32_t Bits(uint32_t v, uint32_t o, uint32_t n) { return (v >> o) & ((1u << n) - 1); }

float Half(uint32_t h) {
  uint32_t sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
  float v = exp == 0 ? std::ldexp(float(man), -24) : std::ldexp(float(man | 1024), int(exp) - 25);
  return sign ? -v : v;
}

std::array<uint32_t, 3> Rgb565(uint32_t c) {
  uint32_t r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
  return {(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)};
}
std::array<uint32_t, 4> DxtColor(uint32_t w0, uint32_t w1, uint32_t i, bool four) {
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
uint32_t Dxt5Alpha(uint32_t w0, uint32_t w1, uint32_t i) {
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

}  // namespace

std::optional<Texel> DecodeTexel(uint32_t format, const uint32_t* w, uint32_t t, uint32_t ti) {
  using Tf = xenos::TextureFormat;
  auto rep = [](Component x, Component y, Component z, Component a) { return Texel{x, y, z, a}; };
  switch (Tf(format)) {
    case Tf::k_8: case Tf::k_8_A: case Tf::k_8_B: { auto c = U(t & 0xFF, 8); return rep(c, c, c, c); }
    case Tf::k_1_5_5_5: return rep(U(Bits(t, 0, 5), 5), U(Bits(t, 5, 5), 5), U(Bits(t, 10, 5), 5), U(Bits(t, 15, 1), 1));
    case Tf::k_5_6_5: return rep(U(Bits(t, 0, 5), 5), U(Bits(t, 5, 6), 6), U(Bits(t, 11, 5), 5), U(Bits(t, 11, 5), 5));
    case Tf::k_6_5_5: return rep(U(Bits(t, 0, 5), 5), U(Bits(t, 5, 5), 5), U(Bits(t, 10, 6), 6), U(Bits(t, 10, 6), 6));
    case Tf::k_8_8_8_8: case Tf::k_8_8_8_8_A: case Tf::k_8_8_8_8_AS_16_16_16_16: return rep(U(Bits(t, 0, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 16, 8), 8), U(Bits(t, 24, 8), 8));
    case Tf::k_2_10_10_10: case Tf::k_2_10_10_10_AS_16_16_16_16: return rep(U(Bits(t, 0, 10), 10), U(Bits(t, 10, 10), 10), U(Bits(t, 20, 10), 10), U(Bits(t, 30, 2), 2));
    case Tf::k_8_8: return rep(U(Bits(t, 0, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 8, 8), 8));
    case Tf::k_Cr_Y1_Cb_Y0_REP: case Tf::k_Y1_Cr_Y0_Cb_REP: {
      bool first = (ti & 1) == 0;  // ti = texel column within the 2x1 block
      uint32_t y = format == 11 ? Bits(t, first ? 0 : 16, 8) : Bits(t, first ? 8 : 24, 8);
      uint32_t cb = format == 11 ? Bits(t, 8, 8) : Bits(t, 0, 8);
      uint32_t cr = format == 11 ? Bits(t, 24, 8) : Bits(t, 16, 8);
      return rep(U(cr, 8), U(y, 8), U(cb, 8), F(1.0f));
    }
    case Tf::k_4_4_4_4: return rep(U(Bits(t, 0, 4), 4), U(Bits(t, 4, 4), 4), U(Bits(t, 8, 4), 4), U(Bits(t, 12, 4), 4));
    case Tf::k_10_11_11: case Tf::k_10_11_11_AS_16_16_16_16: return rep(U(Bits(t, 0, 11), 11), U(Bits(t, 11, 11), 11), U(Bits(t, 22, 10), 10), U(Bits(t, 22, 10), 10));
    case Tf::k_11_11_10: case Tf::k_11_11_10_AS_16_16_16_16: return rep(U(Bits(t, 0, 10), 10), U(Bits(t, 10, 11), 11), U(Bits(t, 21, 11), 11), U(Bits(t, 21, 11), 11));
    case Tf::k_24_8: { auto c = U(t >> 8, 24); return rep(c, c, c, c); }
    case Tf::k_24_8_FLOAT: {
      // 20e4: value = 2^(e - 15) * (1 + m / 2^20), denormals 2^-14 * m / 2^20.
      uint32_t f = t >> 8, e = f >> 20, m = f & 0xFFFFF;
      float value = e ? std::ldexp(1.0f + float(m) / 1048576.0f, int(e) - 15)
                      : std::ldexp(float(m) / 1048576.0f, -14);
      auto c = F(value);
      return rep(c, c, c, c);
    }
    case Tf::k_16: { auto c = U(t & 0xFFFF, 16); return rep(c, c, c, c); }
    case Tf::k_16_16: return rep(U(t & 0xFFFF, 16), U(t >> 16, 16), U(t >> 16, 16), U(t >> 16, 16));
    case Tf::k_16_16_16_16: return rep(U(w[0] & 0xFFFF, 16), U(w[0] >> 16, 16), U(w[1] & 0xFFFF, 16), U(w[1] >> 16, 16));
    case Tf::k_16_EXPAND: case Tf::k_16_FLOAT: { auto c = F(Half(t & 0xFFFF)); return rep(c, c, c, c); }
    case Tf::k_16_16_EXPAND: case Tf::k_16_16_FLOAT: return rep(F(Half(t & 0xFFFF)), F(Half(t >> 16)), F(Half(t >> 16)), F(Half(t >> 16)));
    case Tf::k_16_16_16_16_EXPAND: case Tf::k_16_16_16_16_FLOAT: return rep(F(Half(w[0] & 0xFFFF)), F(Half(w[0] >> 16)), F(Half(w[1] & 0xFFFF)), F(Half(w[1] >> 16)));
    case Tf::k_32_FLOAT: case Tf::k_32_32_FLOAT: case Tf::k_32_32_32_32_FLOAT: {
      float f[4];
      for (int i = 0; i < 4; ++i) std::memcpy(&f[i], &w[format == 38 ? i : (format == 37 ? std::min(i, 1) : 0)], 4);
      return rep(F(f[0]), F(f[1]), F(f[2]), F(f[3]));
    }
    case Tf::k_DXT1: case Tf::k_DXT1_AS_16_16_16_16: {
      auto c = DxtColor(w[0], w[1], ti, false);
      return rep(U(c[0], 8), U(c[1], 8), U(c[2], 8), U(c[3], 8));
    }
    case Tf::k_DXT2_3: case Tf::k_DXT2_3_AS_16_16_16_16: {
      auto c = DxtColor(w[2], w[3], ti, true);
      uint32_t a = ((ti < 8 ? w[0] : w[1]) >> (4 * (ti & 7))) & 15;
      return rep(U(c[0], 8), U(c[1], 8), U(c[2], 8), U(a, 4));
    }
    case Tf::k_DXT4_5: case Tf::k_DXT4_5_AS_16_16_16_16: {
      auto c = DxtColor(w[2], w[3], ti, true);
      return rep(U(c[0], 8), U(c[1], 8), U(c[2], 8), U(Dxt5Alpha(w[0], w[1], ti), 8));
    }
    case Tf::k_DXN: {
      auto y = U(Dxt5Alpha(w[2], w[3], ti), 8);
      return rep(U(Dxt5Alpha(w[0], w[1], ti), 8), y, y, y);
    }
    case Tf::k_DXT3A: { auto c = U(((ti < 8 ? w[0] : w[1]) >> (4 * (ti & 7))) & 15, 4); return rep(c, c, c, c); }
    case Tf::k_DXT5A: { auto c = U(Dxt5Alpha(w[0], w[1], ti), 8); return rep(c, c, c, c); }
    case Tf::k_DXT3A_AS_1_1_1_1: {  // DXT3A_AS_1_1_1_1: R = bit 3 ... A = bit 0 of the 4-bit value
      uint32_t n = ((ti < 8 ? w[0] : w[1]) >> (4 * (ti & 7))) & 15;
      return rep(U((n >> 3) & 1, 1), U((n >> 2) & 1, 1), U((n >> 1) & 1, 1), U(n & 1, 1));
    }
    case Tf::k_CTX1: {
      uint32_t x0 = w[0] & 0xFF, y0 = (w[0] >> 8) & 0xFF, x1 = (w[0] >> 16) & 0xFF, y1 = w[0] >> 24;
      uint32_t index = (w[1] >> (2 * ti)) & 3;
      auto lerp = [&](uint32_t a, uint32_t b) {
        return index == 0 ? a : index == 1 ? b : index == 2 ? (2 * a + b) / 3 : (a + 2 * b) / 3;
      };
      auto y = U(lerp(y0, y1), 8);
      return rep(U(lerp(x0, x1), 8), y, y, y);
    }
    default: return std::nullopt;
  }
}

}  // namespace xnt::gpu
