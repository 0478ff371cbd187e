// Reports of the EDRAM transfer log (used by `xenotrace transfers`): text, JSON, and a
// self-contained HTML page with the ownership map (tiles x events, owners coloured, transfers
// marked, both axes labelled, a table of the transfers linked to the map). Draws are named F.K
// (frame.draw as `xenotrace dump` numbers them); tile ranges are half-open, [start, end).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "xnt/base/selection.h"

#include "xnt/gpu/edram_tracker.h"

namespace xnt::gpu {

struct EdramReportOptions {
  std::string title;
  std::optional<uint64_t> frame;  // only this frame's transfers (totals follow)
  // Naive-cache counters of the selected range (the caller snapshots them at frame boundaries).
  uint64_t naive_transfers = 0;
  uint64_t naive_bytes = 0;
  // Also only these frames (`transfers --frames A-B,C`); default every frame.
  FrameSet frames;
  // The draw address F.K of each tracker event (index = event; frame and draw index as `dump`
  // numbers them: draws, resolves and clears together). Events past its end print as "#N".
  struct DrawAddress {
    uint64_t frame = 0;
    uint32_t draw = 0;
  };
  std::vector<DrawAddress> event_draws;
};
// "F.K" of `event` (or "#event" when options.event_draws does not name it).
std::string EdramEventName(const EdramReportOptions& options, uint64_t event);

struct EdramTotals {
  uint64_t transfers = 0, tiles = 0, bytes = 0, moved = 0, claims = 0, guessed = 0;
  uint64_t moved_on_gpu = 0;  // of `moved`, by the GPU transfer shaders
};
EdramTotals ComputeEdramTotals(const EdramTracker& tracker, const EdramReportOptions& options);

std::string EdramReportText(const EdramTracker& tracker, const EdramReportOptions& options);
std::string EdramReportJson(const EdramTracker& tracker, const EdramReportOptions& options);
std::string EdramReportHtml(const EdramTracker& tracker, const EdramReportOptions& options);

}  // namespace xnt::gpu
