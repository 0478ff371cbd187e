// Pass/fail policy: thresholds per trace and frame, and Evaluate(), which turns Metrics into a
// verdict with the reasons it failed.
//
// Policy file format (INI-like; docs/diff.md has the full reference):
//   # comment                       ; comment
//   max_error = 0.004               keys before any section apply to every item
//   [trace_a/*]                     a section applies to items whose name matches the glob
//   min_ssim = 0.99                 ('*' any run of characters, '/' included; '?' one character)
//   [trace_a/frame_0003.png]
//   exact = true
// Every matching section is applied in file order, so later sections override earlier ones; a
// value of `none` removes a threshold set earlier. Unknown keys and malformed values are errors
// naming the file and line.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "xnt/diff/metrics.h"

namespace xnt::diff {

struct Thresholds {
  // Unset fields are not checked. With nothing set at all, `exact` is implied.
  std::optional<bool> exact;
  std::optional<double> max_error;   // max absolute channel error, 0..1
  std::optional<double> mean_error;  // mean absolute channel error, 0..1
  std::optional<std::array<float, 4>> pixel_threshold;  // per channel (R,G,B,A), for pixels_over
  std::optional<double> max_pixels_over;  // count, or a percentage of pixels when ..._percent
  bool max_pixels_over_percent = false;
  std::optional<double> min_psnr;  // dB, checked against the lowest per-channel PSNR
  std::optional<double> min_ssim;  // checked against the lowest of luma and per-channel SSIM
  std::optional<double> max_flip;  // mean FLIP-style error
  std::optional<bool> ignore_alpha;
  // Keys explicitly set to `none` here, so Overlay() removes them from what it overlays.
  uint32_t cleared = 0;

  // Fields set in `over` replace ours.
  void Overlay(const Thresholds& over);
  bool AnyCheck() const;
  // Options for Compare() that these thresholds imply (alpha, per-channel pixel thresholds).
  CompareOptions ToCompareOptions(CompareOptions base = {}) const;
  std::string Describe() const;  // e.g. "max_error <= 0.004, min_ssim >= 0.99"
};

class Policy {
 public:
  static Policy Parse(const std::string& text, const std::string& file_name);
  static Policy Load(const std::string& path);

  // The thresholds for one item (a relative frame path, or the file name in two-file mode).
  Thresholds For(const std::string& name) const;
  bool empty() const { return sections_.empty(); }

 private:
  struct Section {
    std::string pattern;
    Thresholds thresholds;
  };
  std::vector<Section> sections_;
};

// Glob match: '*' any run of characters (including '/'), '?' any one character.
bool GlobMatch(const std::string& pattern, const std::string& name);

// Sets one key from its text value (shared by the policy parser and the CLI); throws Error.
void SetThreshold(Thresholds& t, const std::string& key, const std::string& value);

enum class Status { kPass, kDiffer, kError };
const char* StatusName(Status s);

struct Verdict {
  Status status = Status::kPass;
  std::vector<std::string> reasons;  // one line per failed check
};

Verdict Evaluate(const Metrics& metrics, const Thresholds& thresholds);

}  // namespace xnt::diff
