// Memexport element packing (see memexport.h for the facts and their sources). Every float
// operation here has a twin in the translator's GLSL (glsl_memexport.cpp, marked `precise` there);
// the build compiles this file without FMA contraction.
#include "xnt/ucode/memexport.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

#include "xnt/xenos/enums.h"

namespace xnt::ucode::memexport {

namespace {

// xenos::TextureFormat / ColorFormat values (xenos/ enums.h; xnt_ucode depends on base only).
enum class TextureFormat : uint32_t {
  k_8 = 2, k_1_5_5_5 = 3, k_5_6_5 = 4, k_6_5_5 = 5, k_8_8_8_8 = 6, k_2_10_10_10 = 7, k_8_A = 8,
  k_8_B = 9, k_8_8 = 10, k_8_8_8_8_A = 14, k_4_4_4_4 = 15, k_10_11_11 = 16, k_11_11_10 = 17,
  k_16 = 24, k_16_16 = 25, k_16_16_16_16 = 26, k_16_FLOAT = 30, k_16_16_FLOAT = 31,
  k_16_16_16_16_FLOAT = 32, k_32 = 33, k_32_32 = 34, k_32_32_32_32 = 35, k_32_FLOAT = 36,
  k_32_32_FLOAT = 37, k_32_32_32_32_FLOAT = 38, k_8_8_8_8_AS_16_16_16_16 = 50,
  k_2_10_10_10_AS_16_16_16_16 = 54, k_10_11_11_AS_16_16_16_16 = 55,
  k_11_11_10_AS_16_16_16_16 = 56,
};

uint32_t EndianSwap32(uint32_t v, uint32_t endian) {
  if (endian == 1 || endian == 2) v = ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu);
  if (endian == 2 || endian == 3) v = (v << 16) | (v >> 16);
  return v;
}

// One fixed-point component, as unsigned bits of `width` (<= 16).
uint32_t PackFixed(float x, uint32_t width, bool is_signed, bool normalized) {
  float v = std::isnan(x) ? 0.0f : x;
  if (is_signed) {
    const float smax = float((1u << (width - 1)) - 1u);
    if (normalized) {
      v = std::min(std::max(v, -1.0f), 1.0f);
      v = v * smax;
    } else {
      v = std::min(std::max(v, -smax - 1.0f), smax);
    }
    const float r = v + (v < 0.0f ? -0.5f : 0.5f);
    return uint32_t(int32_t(r)) & ((1u << width) - 1u);
  }
  const float umax = float((1u << width) - 1u);
  if (normalized) {
    v = std::min(std::max(v, 0.0f), 1.0f);
    v = v * umax;
  } else {
    v = std::min(std::max(v, 0.0f), umax);
  }
  return uint32_t(v + 0.5f) & ((1u << width) - 1u);
}

// Components x, y, z, w of widths w0.. packed from bit 0 up (a width of 0 ends the list).
uint32_t PackFixedWord(const Float4& v, std::array<uint32_t, 4> widths, bool is_signed,
                       bool normalized) {
  uint32_t word = 0, offset = 0;
  for (size_t i = 0; i < 4 && widths[i]; ++i) {
    word |= PackFixed(v[i], widths[i], is_signed, normalized) << offset;
    offset += widths[i];
  }
  return word;
}

}  // namespace

// The resolve engine's table (the same formats can be written to memory either way).
uint32_t ElementBytes(uint32_t f) {
  return xnt::xenos::ColorFormatWriteBytes(xnt::xenos::TextureFormat(f));
}

uint32_t FloatToHalf(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (u >> 16) & 0x8000u;
  const uint32_t a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return sign | 0x7E00u;        // NaN
  if (a >= 0x477FF000u) return sign | 0x7C00u;       // rounds to >= 65520: infinity
  if (a >= 0x38800000u) {                            // normal half (>= 2^-14)
    const uint32_t r = a - 0x38000000u;              // rebias the exponent 127 -> 15
    return sign | ((r + 0xFFFu + ((r >> 13) & 1u)) >> 13);
  }
  if (a < 0x33000000u) return sign;                  // below 2^-25: +-0 (2^-25 ties to 0)
  // Subnormal half: mantissa (with the implicit 1) shifted right by 126 - exponent (14..24).
  const uint32_t e = a >> 23, m = (a & 0x7FFFFFu) | 0x800000u, shift = 126u - e;
  uint32_t q = m >> shift;
  const uint32_t rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
  if (rem > half || (rem == half && (q & 1u))) ++q;
  return sign | q;
}

std::array<uint32_t, 4> EndianSwap128(std::array<uint32_t, 4> w, uint32_t endian) {
  if (endian == 4) {
    w = {w[1], w[0], w[3], w[2]};
    endian = 2;
  } else if (endian == 5) {
    w = {w[3], w[2], w[1], w[0]};
    endian = 2;
  }
  for (uint32_t& d : w) d = EndianSwap32(d, endian);
  return w;
}

Element Pack(const Float4& value, uint32_t z) {
  Element e;
  const uint32_t format = (z >> 8) & 0x3F;
  e.bytes = ElementBytes(format);
  if (!e.bytes) return e;
  Float4 v = value;
  if (z & (1u << 19)) std::swap(v[0], v[2]);  // red/blue swap
  const bool is_signed = (z & (1u << 16)) != 0;
  const bool normalized = (z & (1u << 17)) == 0;
  auto fixed = [&](std::array<uint32_t, 4> widths) {
    return PackFixedWord(v, widths, is_signed, normalized);
  };
  auto& w = e.words;
  switch (TextureFormat(format)) {
    case TextureFormat::k_8:
    case TextureFormat::k_8_A:
    case TextureFormat::k_8_B: w[0] = fixed({8, 0, 0, 0}); break;
    case TextureFormat::k_1_5_5_5: w[0] = fixed({5, 5, 5, 1}); break;
    case TextureFormat::k_5_6_5: w[0] = fixed({5, 6, 5, 0}); break;
    case TextureFormat::k_6_5_5: w[0] = fixed({5, 5, 6, 0}); break;
    case TextureFormat::k_8_8_8_8:
    case TextureFormat::k_8_8_8_8_A:
    case TextureFormat::k_8_8_8_8_AS_16_16_16_16: w[0] = fixed({8, 8, 8, 8}); break;
    case TextureFormat::k_2_10_10_10:
    case TextureFormat::k_2_10_10_10_AS_16_16_16_16: w[0] = fixed({10, 10, 10, 2}); break;
    case TextureFormat::k_8_8: w[0] = fixed({8, 8, 0, 0}); break;
    case TextureFormat::k_4_4_4_4: w[0] = fixed({4, 4, 4, 4}); break;
    case TextureFormat::k_10_11_11:
    case TextureFormat::k_10_11_11_AS_16_16_16_16: w[0] = fixed({11, 11, 10, 0}); break;
    case TextureFormat::k_11_11_10:
    case TextureFormat::k_11_11_10_AS_16_16_16_16: w[0] = fixed({10, 11, 11, 0}); break;
    case TextureFormat::k_16: w[0] = fixed({16, 0, 0, 0}); break;
    case TextureFormat::k_16_16: w[0] = fixed({16, 16, 0, 0}); break;
    case TextureFormat::k_16_16_16_16:
      w[0] = fixed({16, 16, 0, 0});
      w[1] = PackFixedWord({v[2], v[3], 0.0f, 0.0f}, {16, 16, 0, 0}, is_signed, normalized);
      break;
    case TextureFormat::k_16_FLOAT: w[0] = FloatToHalf(v[0]); break;
    case TextureFormat::k_16_16_FLOAT: w[0] = FloatToHalf(v[0]) | (FloatToHalf(v[1]) << 16); break;
    case TextureFormat::k_16_16_16_16_FLOAT:
      w[0] = FloatToHalf(v[0]) | (FloatToHalf(v[1]) << 16);
      w[1] = FloatToHalf(v[2]) | (FloatToHalf(v[3]) << 16);
      break;
    case TextureFormat::k_32_FLOAT: w[0] = std::bit_cast<uint32_t>(v[0]); break;
    case TextureFormat::k_32_32_FLOAT:
      w[0] = std::bit_cast<uint32_t>(v[0]);
      w[1] = std::bit_cast<uint32_t>(v[1]);
      break;
    case TextureFormat::k_32_32_32_32_FLOAT:
      for (size_t i = 0; i < 4; ++i) w[i] = std::bit_cast<uint32_t>(v[i]);
      break;
    default:
      e.bytes = 0;
      return e;
  }
  e.words = EndianSwap128(e.words, z & 7u);
  return e;
}

std::string FormatName(uint32_t f) {
  static const std::pair<uint32_t, const char*> kNames[] = {
      {2, "k_8"}, {3, "k_1_5_5_5"}, {4, "k_5_6_5"}, {5, "k_6_5_5"}, {6, "k_8_8_8_8"},
      {7, "k_2_10_10_10"}, {8, "k_8_A"}, {9, "k_8_B"}, {10, "k_8_8"}, {14, "k_8_8_8_8_A"},
      {15, "k_4_4_4_4"}, {16, "k_10_11_11"}, {17, "k_11_11_10"}, {24, "k_16"}, {25, "k_16_16"},
      {26, "k_16_16_16_16"}, {30, "k_16_FLOAT"}, {31, "k_16_16_FLOAT"},
      {32, "k_16_16_16_16_FLOAT"}, {33, "k_32"}, {34, "k_32_32"}, {35, "k_32_32_32_32"},
      {36, "k_32_FLOAT"}, {37, "k_32_32_FLOAT"}, {38, "k_32_32_32_32_FLOAT"},
      {50, "k_8_8_8_8_AS_16_16_16_16"}, {54, "k_2_10_10_10_AS_16_16_16_16"},
      {55, "k_10_11_11_AS_16_16_16_16"}, {56, "k_11_11_10_AS_16_16_16_16"}};
  for (const auto& [value, name] : kNames) {
    if (value == f) return name;
  }
  return "ColorFormat " + std::to_string(f);
}

}  // namespace xnt::ucode::memexport
