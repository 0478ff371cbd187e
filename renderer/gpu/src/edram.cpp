// EDRAM model and guest format encodings (see edram.h).
#include "xnt/gpu/edram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"

namespace xnt::gpu::edram {

using xenos::ColorRenderTargetFormat;
using xenos::DepthRenderTargetFormat;

// ---- Surface -----------------------------------------------------------------------------------

uint32_t Surface::TilesForRows(uint32_t rows) const {
  uint64_t tile_rows = (uint64_t(rows) * samples_y() + xenos::kEdramTileHeightSamples - 1) /
                       xenos::kEdramTileHeightSamples;
  return uint32_t(std::min<uint64_t>(tile_rows * pitch_tiles(), xenos::kEdramTileCount));
}

void ThrowBadSample(const Surface& s, uint32_t x, uint32_t sample) {
  if (sample >= s.sample_count()) {
    throw Error("EDRAM: sample " + std::to_string(sample) + " of a " +
                std::to_string(s.sample_count()) + "-sample surface");
  }
  throw Error("EDRAM: pixel x " + std::to_string(x) + " outside pitch " +
              std::to_string(s.pitch_pixels) +
              (s.scale_x > 1 ? " x scale " + std::to_string(s.scale_x) : std::string()));
}

uint32_t Surface::RowsToEdramEnd(uint32_t max_rows) const {
  uint32_t pitch = pitch_tiles();
  if (pitch == 0) return 0;
  uint32_t tiles_left = xenos::kEdramTileCount - base_tiles % xenos::kEdramTileCount;
  return std::min(tiles_left / pitch * rows_per_tile_row(), max_rows);
}

std::optional<Surface::SamplePosition> Surface::SampleAt(uint32_t offset) const {
  const uint32_t pitch = pitch_tiles();
  if (pitch == 0) return std::nullopt;
  const uint32_t tile_bytes = kTileBytes * scale_x * scale_y;
  const uint32_t bytes = bytes_per_sample();
  if (offset % bytes || offset / tile_bytes >= xenos::kEdramTileCount) return std::nullopt;
  // SampleOffset backwards: the tile relative to the base (indices wrap at 2048), its row and
  // column of tiles, then the sample inside it. The depth halves' swap is its own inverse.
  const uint32_t row = xenos::kEdramTileWidthSamples * scale_x;
  const uint32_t tile_width = is_64bpp() ? row / 2 : row;
  const uint32_t tile_height = xenos::kEdramTileHeightSamples * scale_y;
  const uint32_t tile = (offset / tile_bytes + xenos::kEdramTileCount - base_tiles % xenos::kEdramTileCount) %
                        xenos::kEdramTileCount;
  const uint32_t index = offset % tile_bytes / bytes;
  uint32_t in_x = index % tile_width;
  if (is_depth) in_x = (in_x + row / 2) % row;
  const uint32_t sx = tile % pitch * tile_width + in_x;
  const uint32_t sy = tile / pitch * tile_height + index / tile_width;
  SamplePosition p;
  p.x = sx / samples_x();
  p.y = sy / samples_y();
  if (p.x >= pitch_pixels * scale_x) return std::nullopt;
  if (msaa == xenos::MsaaSamples::k2X) p.sample = sy & 1;
  if (msaa == xenos::MsaaSamples::k4X) p.sample = (sx & 1) | ((sy & 1) << 1);
  return p;
}

uint32_t Surface::RowsInEdram(uint32_t max_rows) const {
  const uint32_t pitch = pitch_tiles();
  if (pitch == 0) return 0;
  return std::min(xenos::kEdramTileCount / pitch * rows_per_tile_row(), max_rows);
}

std::string Surface::Describe() const {
  std::string name = is_depth ? std::string(xenos::DepthRenderTargetFormatName(format))
                              : std::string(xenos::ColorRenderTargetFormatName(format));
  return name + " base " + std::to_string(base_tiles) + " pitch " + std::to_string(pitch_pixels) +
         " (" + std::to_string(pitch_tiles()) + " tiles) " + std::to_string(sample_count()) + "x" +
         (scale_x * scale_y > 1
              ? " at scale " + std::to_string(scale_x) + "x" + std::to_string(scale_y)
              : std::string());
}

// ---- Formats -----------------------------------------------------------------------------------

uint32_t Float32To7e3(float f) {
  if (!(f > 0.0f)) return 0;  // negative, zero, NaN
  uint32_t u = std::min(std::bit_cast<uint32_t>(f), 0x41FF0000u);  // 31.875
  if (u < 0x3E800000u) {                                             // below 0.25: denormal
    uint32_t shift = std::min(125u - (u >> 23), 24u);
    u = (0x800000u | (u & 0x7FFFFFu)) >> shift;
  } else {
    u += 0xC2000000u;  // exponent - 124
  }
  u += 0x7FFFu + ((u >> 16) & 1u);
  return (u >> 16) & 0x3FFu;
}

namespace {

// An unsigned float of `kMantissa` and `kExponent` bits with exponent bias `kBias` (no
// infinities or NaNs) in float32; its denormals become normal float32 values.
template <uint32_t kMantissa, uint32_t kExponent, uint32_t kBias>
float SmallFloatTo32(uint32_t v) {
  constexpr uint32_t kMantissaMask = (1u << kMantissa) - 1u;
  constexpr uint32_t kRebias = 127u - kBias;
  v &= (1u << (kMantissa + kExponent)) - 1u;
  if (v == 0) return 0.0f;
  uint32_t mantissa = v & kMantissaMask, exponent = v >> kMantissa;
  if (exponent == 0) {
    uint32_t lz = kMantissa - uint32_t(std::bit_width(mantissa) - 1);
    exponent = 1u - lz;  // wraps for lz > 1; the sum below wraps back
    mantissa = (mantissa << lz) & kMantissaMask;
  }
  return std::bit_cast<float>(((exponent + kRebias) << 23) | (mantissa << (23 - kMantissa)));
}

}  // namespace

float Float7e3To32(uint32_t f10) { return SmallFloatTo32<7, 3, 3>(f10); }

uint32_t Float32To20e4(float f) {
  if (!(f > 0.0f)) return 0;
  uint32_t u = std::min(std::bit_cast<uint32_t>(f), 0x3FFFFFF8u);  // just under 2
  if (u < 0x38800000u) {                                             // below 2^-14: denormal
    uint32_t shift = 113u - (u >> 23);
    u = shift < 24u ? (0x800000u | (u & 0x7FFFFFu)) >> shift : 0u;
  } else {
    u += 0xC8000000u;  // exponent - 112
  }
  return ((u + 3u + ((u >> 3) & 1u)) >> 3) & 0xFFFFFFu;
}

float Float20e4To32(uint32_t f24) { return SmallFloatTo32<20, 4, 15>(f24); }

uint16_t FloatToHalf(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  uint32_t sign = (u >> 16) & 0x8000u;
  uint32_t abs = u & 0x7FFFFFFFu;
  if (abs >= 0x7F800000u) {  // inf / NaN (keep a quiet NaN payload bit)
    return uint16_t(sign | 0x7C00u | (abs > 0x7F800000u ? (0x200u | ((abs >> 13) & 0x3FFu)) : 0u));
  }
  if (abs >= 0x477FF000u) return uint16_t(sign | 0x7C00u);  // rounds past 65504
  if (abs < 0x38800000u) {                                  // half denormal or zero
    uint32_t shift = 113u - (abs >> 23);
    // From shift 12 on, the 24-bit mantissa lies wholly below half the smallest denormal, so it
    // rounds to zero (and the shifts below would reach 32 bits and more).
    if (shift > 11u) return uint16_t(sign);
    uint32_t m = 0x800000u | (abs & 0x7FFFFFu);
    uint32_t half = m >> (shift + 13);
    uint32_t rest = m & ((1u << (shift + 13)) - 1u), mid = 1u << (shift + 12);
    if (rest > mid || (rest == mid && (half & 1u))) ++half;
    return uint16_t(sign | half);
  }
  uint32_t h = ((abs - 0x38000000u) >> 13);
  uint32_t rest = abs & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return uint16_t(sign | h);
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  uint32_t bits;
  if (e == 0) {
    if (m == 0) {
      bits = sign;
    } else {
      e = 113;
      while (!(m & 0x400u)) {
        m <<= 1;
        --e;
      }
      bits = sign | (e << 23) | ((m & 0x3FFu) << 13);
    }
  } else if (e == 31) {
    bits = sign | 0x7F800000u | (m << 13);
  } else {
    bits = sign | ((e + 112u) << 23) | (m << 13);
  }
  return std::bit_cast<float>(bits);
}

uint16_t FloatToXenosHalf(float f) {
  if (std::isnan(f)) return 0;
  const float c = std::clamp(f, -131008.0f, 131008.0f);
  const uint32_t u = std::bit_cast<uint32_t>(c);
  if ((u & 0x7FFFFFFFu) < 0x477FF000u) return FloatToHalf(c);  // rounds below 65520: IEEE range
  // Exponent 31: halving is exact, the IEEE conversion of the half value rounds the mantissa
  // the same way, and one more exponent step gives the Xenos code (at most 0x7FFF for 131008).
  return uint16_t(FloatToHalf(c * 0.5f) + 0x400u);
}

float XenosHalfToFloat(uint16_t h) {
  if (((h >> 10) & 0x1Fu) != 31u) return HalfToFloat(h);
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  return std::bit_cast<float>(sign | ((31u + 112u) << 23) | (uint32_t(h & 0x3FFu) << 13));
}

float PwlGammaToLinear(float gamma) {
  float g = std::clamp(gamma, 0.0f, 1.0f);  // NaN stays NaN through clamp; treat as 0
  if (std::isnan(g)) g = 0.0f;
  float scale, offset;
  if (g >= 96.0f / 255.0f) {
    if (g >= 192.0f / 255.0f) {
      scale = 8.0f / 1024.0f;
      offset = -1024.0f;
    } else {
      scale = 4.0f / 1024.0f;
      offset = -256.0f;
    }
  } else if (g >= 64.0f / 255.0f) {
    scale = 2.0f / 1024.0f;
    offset = -64.0f;
  } else {
    scale = 1.0f / 1024.0f;
    offset = 0.0f;
  }
  float linear = g * (255.0f * 1024.0f * scale) + offset;
  linear += std::trunc(linear * scale);
  return linear * (1.0f / 1023.0f);
}

float LinearToPwlGamma(float linear) {
  float l = std::clamp(linear, 0.0f, 1.0f);
  if (std::isnan(l)) l = 0.0f;
  float l10 = l * 1023.0f, g8;
  if (l10 < 64.0f) {
    g8 = l10;
  } else if (l10 < 128.0f) {
    g8 = (l10 + 64.0f) * 0.5f;
  } else if (l10 < 512.0f) {
    g8 = (l10 + 256.0f) * 0.25f;
  } else {
    g8 = (l10 + 1024.0f) * 0.125f;
  }
  return std::min(g8 / 255.0f, 1.0f);
}

namespace {

uint32_t Unorm(float v, uint32_t bits) {
  float max = float((1u << bits) - 1u);
  if (!(v > 0.0f)) return 0;
  if (v >= 1.0f) return uint32_t(max);
  return uint32_t(v * max + 0.5f);
}

uint32_t Fixed16(float v) {  // -32..32 in signed 16 bits
  if (std::isnan(v)) v = 0.0f;
  float c = std::clamp(v, -32.0f, 32.0f) * (32767.0f / 32.0f);
  return uint32_t(int32_t(std::lround(c))) & 0xFFFFu;
}

float FromFixed16(uint32_t bits) { return float(int16_t(uint16_t(bits))) * (32.0f / 32767.0f); }

}  // namespace

uint64_t PackColor(ColorRenderTargetFormat format, const std::array<float, 4>& c) {
  switch (format) {
    case ColorRenderTargetFormat::k_8_8_8_8:
      return Unorm(c[0], 8) | (Unorm(c[1], 8) << 8) | (Unorm(c[2], 8) << 16) |
             (uint32_t(Unorm(c[3], 8)) << 24);
    case ColorRenderTargetFormat::k_8_8_8_8_GAMMA:
      return Unorm(LinearToPwlGamma(c[0]), 8) | (Unorm(LinearToPwlGamma(c[1]), 8) << 8) |
             (Unorm(LinearToPwlGamma(c[2]), 8) << 16) | (uint32_t(Unorm(c[3], 8)) << 24);
    case ColorRenderTargetFormat::k_2_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10:
      return Unorm(c[0], 10) | (Unorm(c[1], 10) << 10) | (Unorm(c[2], 10) << 20) |
             (uint32_t(Unorm(c[3], 2)) << 30);
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16:
      return Float32To7e3(c[0]) | (Float32To7e3(c[1]) << 10) | (Float32To7e3(c[2]) << 20) |
             (uint32_t(Unorm(c[3], 2)) << 30);
    case ColorRenderTargetFormat::k_16_16:
      return Fixed16(c[0]) | (Fixed16(c[1]) << 16);
    case ColorRenderTargetFormat::k_16_16_16_16:
      return uint64_t(Fixed16(c[0])) | (uint64_t(Fixed16(c[1])) << 16) |
             (uint64_t(Fixed16(c[2])) << 32) | (uint64_t(Fixed16(c[3])) << 48);
    case ColorRenderTargetFormat::k_16_16_FLOAT:
      return uint64_t(FloatToXenosHalf(c[0])) | (uint64_t(FloatToXenosHalf(c[1])) << 16);
    case ColorRenderTargetFormat::k_16_16_16_16_FLOAT:
      return uint64_t(FloatToXenosHalf(c[0])) | (uint64_t(FloatToXenosHalf(c[1])) << 16) |
             (uint64_t(FloatToXenosHalf(c[2])) << 32) | (uint64_t(FloatToXenosHalf(c[3])) << 48);
    case ColorRenderTargetFormat::k_32_FLOAT:
      return std::bit_cast<uint32_t>(c[0]);
    case ColorRenderTargetFormat::k_32_32_FLOAT:
      return uint64_t(std::bit_cast<uint32_t>(c[0])) |
             (uint64_t(std::bit_cast<uint32_t>(c[1])) << 32);
  }
  throw Error("EDRAM: unknown colour render target format " + std::to_string(uint32_t(format)));
}

std::array<float, 4> UnpackColor(ColorRenderTargetFormat format, uint64_t bits) {
  auto field = [&](uint32_t shift, uint32_t width) {
    return uint32_t(bits >> shift) & ((1u << width) - 1u);
  };
  switch (format) {
    case ColorRenderTargetFormat::k_8_8_8_8:
    case ColorRenderTargetFormat::k_8_8_8_8_GAMMA: {
      std::array<float, 4> c;
      for (uint32_t i = 0; i < 4; ++i) c[i] = float(field(8 * i, 8)) / 255.0f;
      if (format == ColorRenderTargetFormat::k_8_8_8_8_GAMMA) {
        for (uint32_t i = 0; i < 3; ++i) c[i] = PwlGammaToLinear(c[i]);
      }
      return c;
    }
    case ColorRenderTargetFormat::k_2_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10:
      return {float(field(0, 10)) / 1023.0f, float(field(10, 10)) / 1023.0f,
              float(field(20, 10)) / 1023.0f, float(field(30, 2)) / 3.0f};
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16:
      return {Float7e3To32(field(0, 10)), Float7e3To32(field(10, 10)),
              Float7e3To32(field(20, 10)), float(field(30, 2)) / 3.0f};
    case ColorRenderTargetFormat::k_16_16:
      return {FromFixed16(field(0, 16)), FromFixed16(field(16, 16)), 0.0f, 1.0f};
    case ColorRenderTargetFormat::k_16_16_16_16:
      return {FromFixed16(field(0, 16)), FromFixed16(field(16, 16)), FromFixed16(field(32, 16)),
              FromFixed16(field(48, 16))};
    case ColorRenderTargetFormat::k_16_16_FLOAT:
      return {XenosHalfToFloat(uint16_t(field(0, 16))), XenosHalfToFloat(uint16_t(field(16, 16))),
              0.0f, 1.0f};
    case ColorRenderTargetFormat::k_16_16_16_16_FLOAT:
      return {XenosHalfToFloat(uint16_t(field(0, 16))), XenosHalfToFloat(uint16_t(field(16, 16))),
              XenosHalfToFloat(uint16_t(field(32, 16))), XenosHalfToFloat(uint16_t(field(48, 16)))};
    case ColorRenderTargetFormat::k_32_FLOAT:
      return {std::bit_cast<float>(uint32_t(bits)), 0.0f, 0.0f, 1.0f};
    case ColorRenderTargetFormat::k_32_32_FLOAT:
      return {std::bit_cast<float>(uint32_t(bits)), std::bit_cast<float>(uint32_t(bits >> 32)),
              0.0f, 1.0f};
  }
  throw Error("EDRAM: unknown colour render target format " + std::to_string(uint32_t(format)));
}

uint32_t PackDepth(DepthRenderTargetFormat format, float depth, uint32_t stencil) {
  uint32_t d24 = format == DepthRenderTargetFormat::kD24FS8
                     ? Float32To20e4(depth)
                     : (std::isnan(depth) || depth <= 0.0f
                            ? 0u
                            : depth >= 1.0f ? 0xFFFFFFu
                                            : uint32_t(double(depth) * 16777215.0 + 0.5));
  return (d24 << 8) | (stencil & 0xFFu);
}

float UnpackDepth(DepthRenderTargetFormat format, uint32_t dword) {
  uint32_t d24 = dword >> 8;
  if (format == DepthRenderTargetFormat::kD24FS8) return Float20e4To32(d24);
  return float(double(d24) / 16777215.0);
}

bool HostDepthStillMatches(DepthRenderTargetFormat format, float host_depth,
                           uint32_t guest_dword) {
  return (PackDepth(format, host_depth, 0) >> 8) == (guest_dword >> 8);
}

uint64_t ColorComponentBits(xenos::ColorRenderTargetFormat f, uint32_t c) {
  using F = xenos::ColorRenderTargetFormat;
  switch (f) {
    case F::k_8_8_8_8:
    case F::k_8_8_8_8_GAMMA:
      return uint64_t(0xFFu) << (8 * c);
    case F::k_2_10_10_10:
    case F::k_2_10_10_10_AS_10_10_10_10:
    case F::k_2_10_10_10_FLOAT:
    case F::k_2_10_10_10_FLOAT_AS_16_16_16_16:
      return c < 3 ? uint64_t(0x3FFu) << (10 * c) : uint64_t(3u) << 30;
    case F::k_16_16:
    case F::k_16_16_FLOAT:
      return c < 2 ? uint64_t(0xFFFFu) << (16 * c) : 0;
    case F::k_16_16_16_16:
    case F::k_16_16_16_16_FLOAT:
      return uint64_t(0xFFFFu) << (16 * c);
    case F::k_32_FLOAT:
      return c == 0 ? 0xFFFFFFFFull : 0;
    case F::k_32_32_FLOAT:
      return c < 2 ? uint64_t(0xFFFFFFFFu) << (32 * c) : 0;
  }
  return 0;
}

bool ColorFormatIsUnorm(xenos::ColorRenderTargetFormat f) {
  using F = xenos::ColorRenderTargetFormat;
  return f == F::k_8_8_8_8 || f == F::k_8_8_8_8_GAMMA || f == F::k_2_10_10_10 ||
         f == F::k_2_10_10_10_AS_10_10_10_10;
}

}  // namespace xnt::gpu::edram
