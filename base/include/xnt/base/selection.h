// How the CLI and the reports name frames and draws, in one place:
//  - a frame set `A-B,C,D-` (inclusive ranges from 0, `A-` to the end), shared by `--frames` of
//    replay, dump, transfers and compare;
//  - a draw address `F.K`: frame F, event K of that frame, where draws, resolves and resolve
//    clears are numbered together from 0 (as `xenotrace dump` numbers them).
// Header-only; throws xnt::Error naming the flag.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xnt/base/error.h"

namespace xnt {

inline std::string DrawAddress(uint64_t frame, uint64_t draw) {
  return std::to_string(frame) + "." + std::to_string(draw);
}

// "F.K" -> {F, K}; nullopt when the text is not two unsigned decimal numbers joined by one dot.
struct DrawAddressValue {
  uint64_t frame = 0;
  uint32_t draw = 0;
};
inline std::optional<DrawAddressValue> ParseDrawAddress(std::string_view text) {
  const auto dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  auto number = [](std::string_view s, uint64_t max) -> std::optional<uint64_t> {
    if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    uint64_t v = 0;
    for (char c : s) v = v * 10 + uint64_t(c - '0');
    if (v > max) return std::nullopt;
    return v;
  };
  auto f = number(text.substr(0, dot), ~uint64_t(0));
  auto k = number(text.substr(dot + 1), 0xFFFFFFFFu);
  if (!f || !k) return std::nullopt;
  return DrawAddressValue{*f, uint32_t(*k)};
}

// A union of inclusive frame ranges; empty = every frame.
class FrameSet {
 public:
  struct Range {
    uint64_t first = 0;
    std::optional<uint64_t> last;  // inclusive; nullopt = to the end
  };

  // "A-B,C,D-" (frame numbers from 0). Throws xnt::Error naming `flag`.
  static FrameSet Parse(const std::string& text, const std::string& flag = "--frames") {
    FrameSet set;
    set.text_ = text;
    const std::string syntax = " (expected A-B, A, A- or a comma-separated list of them; frames "
                               "are numbered from 0)";
    auto fail = [&](const std::string& why) -> Error {
      return Error(flag + " '" + text + "': " + why + syntax);
    };
    auto number = [&](const std::string& s) -> uint64_t {
      if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 12)
        throw fail("'" + s + "' is not a frame number");
      return std::stoull(s);
    };
    if (text.empty()) throw fail("empty");
    size_t at = 0;
    while (at <= text.size()) {
      const size_t comma = std::min(text.find(',', at), text.size());
      const std::string item = text.substr(at, comma - at);
      if (!item.empty() && item[0] == '-') throw fail("negative frame numbers are not allowed");
      Range r;
      const auto dash = item.find('-');
      if (dash == std::string::npos) {
        r.first = number(item);
        r.last = r.first;
      } else {
        r.first = number(item.substr(0, dash));
        const std::string tail = item.substr(dash + 1);
        if (!tail.empty()) r.last = number(tail);
        if (r.last && *r.last < r.first) throw fail("'" + item + "' ends before it starts");
      }
      set.ranges_.push_back(r);
      at = comma + 1;
    }
    return set;
  }
  // One frame (`--frame N` of older commands).
  static FrameSet One(uint64_t frame) {
    FrameSet set;
    set.ranges_.push_back({frame, frame});
    set.text_ = std::to_string(frame);
    return set;
  }

  bool all() const { return ranges_.empty(); }
  bool Contains(uint64_t frame) const {
    if (ranges_.empty()) return true;
    for (const Range& r : ranges_)
      if (frame >= r.first && (!r.last || frame <= *r.last)) return true;
    return false;
  }
  // The lowest frame selected.
  uint64_t First() const {
    uint64_t f = ranges_.empty() ? 0 : ~uint64_t(0);
    for (const Range& r : ranges_) f = std::min(f, r.first);
    return f;
  }
  // The highest frame selected (nullopt: to the end of the trace).
  std::optional<uint64_t> Last() const {
    if (ranges_.empty()) return std::nullopt;
    uint64_t l = 0;
    for (const Range& r : ranges_) {
      if (!r.last) return std::nullopt;
      l = std::max(l, *r.last);
    }
    return l;
  }
  // Selected frames at or past `frames` (a trace's frame count), as text ("5-6, 9"), or "" when
  // every selected frame exists. Open ranges (`A-`) only count when A itself is missing.
  std::string Missing(uint64_t frames) const {
    std::string out;
    for (const Range& r : ranges_) {
      const uint64_t first = std::max(r.first, frames);
      if (r.last && *r.last < first) continue;
      if (!r.last && r.first < frames) continue;
      if (!out.empty()) out += ", ";
      out += std::to_string(first);
      if (!r.last) out += "-";
      else if (*r.last != first) out += "-" + std::to_string(*r.last);
    }
    return out;
  }
  const std::vector<Range>& ranges() const { return ranges_; }
  const std::string& text() const { return text_; }

 private:
  std::vector<Range> ranges_;
  std::string text_;
};

}  // namespace xnt
