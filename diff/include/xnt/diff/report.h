// Results of a diff run and the report writers: JSON, JUnit XML, one self-contained HTML page,
// and the per-item diff and heatmap PNGs.
#pragma once

#include <string>
#include <vector>

#include "xnt/diff/image.h"
#include "xnt/diff/metrics.h"
#include "xnt/diff/policy.h"

namespace xnt::diff {

enum class ItemKind {
  kCompared,  // both images present and read
  kMissing,   // in A, not in B
  kExtra,     // in B, not in A
  kError,     // could not be read / matched / compared
};
const char* ItemKindName(ItemKind kind);

struct ReportItem {
  std::string name;  // relative path in directory mode
  std::string path_a, path_b;
  ItemKind kind = ItemKind::kCompared;
  Status status = Status::kPass;  // missing/extra count as kDiffer, kError as kError
  std::string error;              // the message, for kError
  std::string note;               // how sizes were matched, if they were
  std::string thresholds;         // the checks applied, in words
  bool has_metrics = false;
  Metrics metrics;
  std::vector<std::string> reasons;  // failed checks
  double seconds = 0;                // time to load and compare
  // Images written for the report, relative to the report folder; empty when none.
  std::string image_a, image_b, image_diff, image_heat;
};

struct Report {
  std::string a, b;  // what was compared (files or folders)
  std::vector<ReportItem> items;

  int Count(Status s) const;
  int CountKind(ItemKind k) const;
  Status Overall() const;  // error if any error, else differ if any differ, else pass
  int ExitCode() const;    // 0 pass, 1 differ, 2 error
  // Items in report order: errors, then differing, then passing; by name within each.
  std::vector<const ReportItem*> Ordered() const;
};

// Per-channel |a - b| (alpha folded into RGB), scaled so the largest error is full white; opaque RGB.
OwnedImage MakeDiffImage(const Image& a, const Image& b, bool ignore_alpha);
// Error magnitude (max channel error per pixel, 0..max) through a black-violet-red-orange-yellow
// ramp, with a legend band below the image: the colour bar and its end values.
OwnedImage MakeHeatmap(const ErrorMaps& maps);

// Writes before/after/diff/heatmap PNGs of one item into dir/images/ and records their names.
void WriteItemImages(ReportItem& item, const Image& a, const Image& b, const ErrorMaps& maps, bool ignore_alpha,
                     const std::string& dir);

std::string ToJson(const Report& report);
std::string ToJunit(const Report& report);
// One self-contained page; the item images are read from `dir` and inlined as data: URIs.
std::string ToHtml(const Report& report, const std::string& dir);

// The one-line-per-item text summary the CLI prints.
std::string ToText(const Report& report);

}  // namespace xnt::diff
