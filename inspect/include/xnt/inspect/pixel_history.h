// Pixel history: every event of a frame that tested or wrote one pixel — each fragment a draw
// put on it (shader outputs, alpha / depth / stencil results, blend inputs, write mask), the
// resolves that copied or cleared it — with the stored guest bits before and after, computed by
// replaying the trace on the cpu path (exact, whichever path shows the frame) with a
// cpu::PixelWatch on the pixel's EDRAM samples. Targets:
// - "frame": the front buffer at the frame's swap. Its pixel (x, y) is traced back to the last
//   resolve (up to that swap) that copied EDRAM pixel (x, y) to the front buffer's base
//   (a resolve puts source pixel (x, y) at dest_base + offset(x, y)), and that EDRAM pixel's
//   history is given, ending with a "swap" entry holding the value shown.
// - every EDRAM surface a draw of the frame used, by id (TargetId: "colour_b0_p64_k_8_8_8_8_1x").
// At a resolution scale every host pixel of the guest pixel's S x T block is watched (entries
// name theirs); with MSAA every sample (entries name it).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "xnt/base/json.h"
#include "xnt/base/resolution_scale.h"
#include "xnt/gpu/edram.h"
#include "xnt/gpu/renderer_options.h"

namespace xnt::inspect {

// One named value of an entry, in the order printed (the inspector page shows them as a
// key/value table).
struct HistoryField {
  std::string name, value;
};

struct HistoryEntry {
  uint64_t frame = 0;
  uint32_t event = 0;  // K of F.K; the swap entry: the frame's event count
  std::string kind;    // "draw", "resolve", "clear", "resolve+clear", "swap"
  std::vector<HistoryField> fields;
  // The value of field `name`, "" when the entry has none.
  std::string Field(std::string_view name) const;
  std::string EventName() const;  // "F.K"
};

struct PixelHistoryRequest {
  uint64_t frame = 0;
  uint32_t x = 0, y = 0;  // guest pixel
  std::string target = "frame";
  ResolutionScale scale;
  // What a screen derivative spans at the scale (gpu/renderer_options.h; replay --scaled-lod).
  gpu::ScaledDerivatives derivatives = gpu::ScaledDerivatives::kGuest;
};

struct PixelHistory {
  PixelHistoryRequest request;
  std::string target_describe;  // the surface, or the front buffer and where it came from
  std::vector<HistoryEntry> entries;
  std::vector<std::string> targets;  // the frame's target ids ("frame" first)
  std::vector<std::string> notes;    // what the history does not show, and why
};

// The id of an EDRAM surface as a target of pixel history and the inspector's pages.
std::string TargetId(const gpu::edram::Surface& surface);

// Replays `trace` on the cpu path through request.frame, twice (the first pass finds the
// frame's targets and the resolve behind the front buffer pixel). Throws xnt::Error naming the
// frame, target or pixel that is not in the trace (an input error).
PixelHistory PixelHistoryOf(const std::string& trace, const PixelHistoryRequest& request);

// The histories of many pixels of one frame from one pair of replays: every pixel `keep`
// accepts of every target of the frame ("frame" and each EDRAM surface a draw used, its pitch
// wide and as many rows as the frame's scissors reached).
struct FrameHistories {
  struct Target {
    std::string id, describe;
    uint32_t width = 0, height = 0;
    gpu::edram::Surface surface;  // an EDRAM target's layout (1x; unused for "frame")
    // Guest pixel (x, y) -> its entries (pixels without an event are absent).
    std::map<std::pair<uint32_t, uint32_t>, std::vector<HistoryEntry>> pixels;
  };
  std::vector<Target> targets;  // "frame" first when the frame swapped
  std::vector<std::string> notes;
};
using PixelFilter = std::function<bool(const std::string& target, uint32_t x, uint32_t y)>;
FrameHistories FrameHistoriesOf(const std::string& trace, uint64_t frame, ResolutionScale scale,
                                const PixelFilter& keep);

// The per-tile chunks of pixel history the inspector page loads with <script> tags (it is
// opened from file://, where fetch is refused): for every selected frame F,
// OUT/history/f<F>/t<TX>_<TY>.js per tile of 32x32 guest pixels, calling
// XNT.history({frame, tile: [TX, TY], target, values, keys, entries, runs}) once per target with
// events in the tile — the tile's distinct strings once, its distinct entries once, each
// `[key list, event, kind, field values...]` as indices (into keys, then into the strings),
// and runs `[first pixel, count, [entry, ...]]` of consecutive pixels (row-major in the tile)
// with the same entries (docs/pixel-history.md) — and OUT/history/f<F>/index.js calling
// XNT.historyIndex({frame, tile, targets, tiles: [[TX, TY], ...], skipped, command}). Tiles are
// written row by row until the byte budget (over all frames) is spent; the index names the rest
// and the command that gives their pixels' histories.
inline constexpr uint32_t kHistoryTile = 32;
struct HistoryChunkOptions {
  ResolutionScale scale;
  gpu::ScaledDerivatives derivatives = gpu::ScaledDerivatives::kGuest;
  uint64_t byte_budget = 64ull << 20;
  // Guest rows watched per replay (whole tile rows); 0: as many as keep the watch's records to
  // about a hundred MB (a 320x240 frame in one replay, 720p in a few). No band is replayed once
  // the budget is spent.
  uint32_t band_rows = 0;
  std::function<void(uint64_t frame, uint64_t tiles_written)> progress;
};
struct HistoryChunkResult {
  uint64_t frames = 0, tiles_written = 0, bytes = 0;
  uint64_t tiles_skipped = 0;  // tile rows left out (in part or whole) for the budget
};
// `frames`: frame numbers, each in the trace (the caller checks). Throws xnt::Error for a
// folder it cannot write.
HistoryChunkResult WriteHistoryChunks(const std::string& trace, const std::vector<uint64_t>& frames,
                                      const std::string& out_dir, const HistoryChunkOptions& options);

// One entry as the flat object the inspector page reads: event, kind, then every field.
Json HistoryEntryJson(const HistoryEntry& entry);
Json PixelHistoryJson(const PixelHistory& history);
// A table: one block per entry, one line per field.
std::string PixelHistoryText(const PixelHistory& history);

}  // namespace xnt::inspect
