// Reports of the EDRAM transfer log (used by `xenotrace transfers`): text, JSON, and a
// self-contained HTML page with the ownership map (tiles x events, owners coloured, transfers
// marked).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "xnt/gpu/edram_tracker.h"

namespace xnt::gpu {

struct EdramReportOptions {
  std::string title;
  std::optional<uint64_t> frame;  // only this frame's transfers (totals follow)
  // Naive-cache counters of the selected range (the caller snapshots them at frame boundaries).
  uint64_t naive_transfers = 0;
  uint64_t naive_bytes = 0;
};

struct EdramTotals {
  uint64_t transfers = 0, tiles = 0, bytes = 0, moved = 0, claims = 0, guessed = 0;
  uint64_t moved_on_gpu = 0;  // of `moved`, by the GPU transfer shaders
};
EdramTotals ComputeEdramTotals(const EdramTracker& tracker, const EdramReportOptions& options);

std::string EdramReportText(const EdramTracker& tracker, const EdramReportOptions& options);
std::string EdramReportJson(const EdramTracker& tracker, const EdramReportOptions& options);
std::string EdramReportHtml(const EdramTracker& tracker, const EdramReportOptions& options);

}  // namespace xnt::gpu
