// What pixel history's sources share: one replay of a trace through a frame on the cpu path with
// a watch, and one watch record as a history entry.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "xnt/base/resolution_scale.h"
#include "xnt/cpu/pixel_watch.h"
#include "xnt/gpu/front_buffer.h"
#include "xnt/gpu/renderer_options.h"
#include "xnt/inspect/pixel_history.h"

namespace xnt::inspect {

struct ReplayedFrame {
  cpu::PixelWatch watch;  // set up by the caller; filled by the replay
  // Set by the caller too: what a screen derivative spans at the scale (gpu/renderer_options.h).
  gpu::ScaledDerivatives derivatives = gpu::ScaledDerivatives::kGuest;
  bool swapped = false;   // the frame ended with a swap (image, front_base hold it)
  gpu::SwapImage image;   // as scan-out shows it (the display's gamma ramp applied)
  gpu::SwapImage stored;  // the front buffer's own colours, when the ramp changed any
  uint32_t front_base = 0;
  uint32_t events = 0;  // draws and resolves of the frame
  std::map<std::string, uint64_t> notes;
};

// Plays `trace` from its start through the end of `frame` on the cpu path at `scale` with
// out.watch attached (records kept from `frame` on). Throws xnt::Error for a frame the trace
// does not have.
void ReplayWatched(const std::string& trace, uint64_t frame, ResolutionScale scale,
                   ReplayedFrame& out);

// FrameHistoriesOf after its first replay (`first`: ReplayWatched with an empty watch), so a
// caller replaying several bands of one frame replays the frame once more per band only.
FrameHistories FrameHistoriesAfter(const std::string& trace, const ReplayedFrame& first,
                                   ResolutionScale scale, const PixelFilter& keep);

// FrameHistoriesAfter without keeping the entries: `out` gets the targets and notes, and every
// entry goes to `sink` as it is made (target index into out.targets, guest pixel), each pixel's
// in its order (the front buffer's swap entry last). Entries with the same `id` are the same
// entry (a flat draw's neighbouring fragments): a writer may reuse what it made of the first. A
// writer turning them into a compact form at once holds one band's records, never every
// entry's text.
using HistorySink = std::function<void(uint32_t target, std::pair<uint32_t, uint32_t> pixel,
                                       const HistoryEntry& entry, uint64_t id)>;
void VisitFrameHistories(const std::string& trace, const ReplayedFrame& first, ResolutionScale scale,
                         const PixelFilter& keep, FrameHistories& out, const HistorySink& sink);

// records()[index] of `watch` as an entry (fields: pixel_history.h, docs/pixel-history.md).
HistoryEntry EntryOf(const cpu::PixelWatch& watch, size_t index, ResolutionScale scale);

// Whether records a and b of `watch` make the same entry up to the host pixel (which the caller
// compares relative to each record's guest pixel). One event addresses one surface per role
// with one state, so the event and role stand for the surface, the resolve rectangle and the
// draw's fixed-function state; what varies per fragment is compared field by field.
bool SameEntry(const cpu::PixelWatch& watch, size_t a, size_t b);

// The front buffer's value at pixel (x, y) of the swapped image, as the swap entry shows it.
HistoryEntry SwapEntry(const ReplayedFrame& frame, uint32_t x, uint32_t y);

}  // namespace xnt::inspect
