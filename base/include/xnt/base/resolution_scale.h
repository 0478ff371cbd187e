// The resolution scale: host pixels per guest pixel along each axis, 1..3 (the largest every
// render path supports; the EDRAM alone is 90 MiB at 3x3). One type and one
// grammar, "SxT" (x or X), for every command that takes a scale (replay --scale, compare
// --scales, diff --scale) and for the session, which checks what a library caller passes; each
// refuses a bad scale with the same words. A bare "2" is refused: a scale names both axes,
// because non-square scales are as valid as square ones.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "xnt/base/error.h"

namespace xnt {

struct ResolutionScale {
  static constexpr uint32_t kMax = 3;
  uint32_t x = 1, y = 1;  // host pixels per guest pixel, 1..kMax each
  bool scaled() const { return x * y != 1; }
  bool valid() const { return x >= 1 && x <= kMax && y >= 1 && y <= kMax; }
  std::string Name() const { return std::to_string(x) + "x" + std::to_string(y); }  // "2x1"
  bool operator==(const ResolutionScale&) const = default;
};

// The error every refusal of a scale throws; `text` is the scale as given.
inline Error ResolutionScaleError(std::string_view text) {
  return Error("resolution scale '" + std::string(text) +
               "' is not SxT with S and T from 1 to 3 (1x1, 2x2, 3x2, ...)");
}

// "SxT" or "SXT", S and T one digit each from 1 to 3. Throws ResolutionScaleError(text).
inline ResolutionScale ParseResolutionScale(std::string_view text) {
  auto axis = [&](char c) -> uint32_t {
    if (c < '1' || c > char('0' + ResolutionScale::kMax)) throw ResolutionScaleError(text);
    return uint32_t(c - '0');
  };
  if (text.size() != 3 || (text[1] != 'x' && text[1] != 'X')) throw ResolutionScaleError(text);
  return ResolutionScale{axis(text[0]), axis(text[2])};
}

// Throws ResolutionScaleError naming `s` when an axis is outside 1..3.
inline void CheckResolutionScale(ResolutionScale s) {
  if (!s.valid()) throw ResolutionScaleError(s.Name());
}

}  // namespace xnt
