// The forms in which scenes put values where the GPU reads them, as a title does: floats as
// big-endian dwords in guest memory, an RGBA8 colour packed as a k_8_8_8_8 register value, and
// D3D's pitch rounding for resolve destinations.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "xnt/base/byte_order.h"

namespace xnt::samples {

inline std::vector<uint8_t> BigEndianFloats(const std::vector<float>& v) {
  std::vector<uint8_t> out(v.size() * 4);
  for (size_t i = 0; i < v.size(); ++i) StoreBE32(&out[4 * i], std::bit_cast<uint32_t>(v[i]));
  return out;
}

// RB_COLOR_CLEAR for k_8_8_8_8: R in bits 7:0 up to A in 31:24 (the oracle's 0xFF281818 clear
// shows as RGB 18 18 28 in Xenia's own dump).
inline uint32_t PackRgba(const std::array<uint8_t, 4>& c) {
  return uint32_t(c[0]) | uint32_t(c[1]) << 8 | uint32_t(c[2]) << 16 | uint32_t(c[3]) << 24;
}

// A resolve destination pitch as D3D rounds it: up to a multiple of 32 pixels.
inline uint32_t RoundUp32(uint32_t v) { return (v + 31) & ~31u; }

}  // namespace xnt::samples
