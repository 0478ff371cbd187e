// The diff driver: compares two images, two files, or two folders of frames (matched by relative
// path), applying size matching and the policy, and optionally writing report images.
// `xenotrace diff` is a thin layer over DiffPaths(); `xenotrace compare` calls CompareImages() per
// draw with frames held in memory.
#pragma once

#include <string>

#include "xnt/diff/policy.h"
#include "xnt/diff/report.h"
#include "xnt/diff/resample.h"

namespace xnt::diff {

struct DiffOptions {
  MatchOptions match;
  bool ignore_alpha = false;
  KernelSet kernels = KernelSet::kWidest;  // CompareOptions::kernels
  Policy policy;
  Thresholds overrides;    // applied after the policy (command-line thresholds)
  std::string report_dir;  // when set, item images go to report_dir/images/
};

// The thresholds that apply to `name` under `options`.
Thresholds ThresholdsFor(const std::string& name, const DiffOptions& options);

// Never throws for bad images: problems become a kError item.
ReportItem CompareImages(const Image& a, const Image& b, const std::string& name, const DiffOptions& options);
ReportItem CompareFiles(const std::string& path_a, const std::string& path_b, const std::string& name,
                        const DiffOptions& options);

// A and B both files, or both folders (recursively, *.png, matched by relative path; files only
// on one side become missing/extra items). Throws Error when a path does not exist or the kinds
// differ.
Report DiffPaths(const std::string& a, const std::string& b, const DiffOptions& options);

// Writes report.html and report.json into dir (item images must already be there).
void WriteReportDir(const Report& report, const std::string& dir);

}  // namespace xnt::diff
