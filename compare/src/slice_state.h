// The pieces of a slice (slice.h) shared by its two cuts: the state at the cut, taken from a
// live cpu-path replay and written as the slice's first records, and the cut inside a frame
// (slice_events.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "xnt/compare/slice.h"
#include "xnt/format/reader.h"
#include "xnt/format/records.h"
#include "xnt/format/writer.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"

namespace xnt::compare::detail {

// Everything a replay holds at the cut that the stream after it may depend on.
struct CutState {
  std::vector<uint32_t> registers;         // the whole register file
  std::optional<format::GammaRamp> gamma;  // the last ramp before the cut
  std::vector<uint8_t> edram;              // the cpu path's EDRAM (exact guest bits)
  std::vector<uint32_t> processor;         // PM4 restoring the CP's state outside registers
  std::vector<uint32_t> pages;             // guest pages written so far, ascending
  std::vector<uint8_t> page_bytes;         // their 4 KiB each, in the same order
  std::vector<uint64_t> generations;      // their write generations (GuestMemory)
};

// Copies the state of `player` / `session` now (the session may be mid-submission: its EDRAM
// snapshot is taken between packets).
CutState TakeCutState(replay::TracePlayer& player, renderer::Session& session,
                      const std::optional<format::GammaRamp>& gamma);

// Writes the state as the slice's first records: memory (only the pages in `keep` when given),
// registers, gamma, EDRAM, the CP state. Returns the pages written.
uint64_t WriteCutState(const CutState& state, format::Writer& writer,
                       const std::set<uint32_t>* keep);

// A cut inside frames: the state just before event first_frame.first_event, then the stream from
// that event's packet through event last_frame.last_event, the last frame's XE_SWAP and its
// frame marker.
struct EventCut {
  CutState state;
  std::vector<format::Record> records;  // after the state, in order
  uint64_t events = 0;                  // draws and resolves kept
  // The pages of the state the kept stream needs: those it reads (slice_pages.h) and those it
  // writes (a resolve, a memexport or a CP write may cover part of a page, and compare hashes
  // a resolve's or memexport's whole destination range).
  std::set<uint32_t> needed_pages;
};
EventCut CutAtEvents(format::Reader& reader, const SliceRange& range);

// Adds to cut.needed_pages the pages of the state that `memory` (the replay after the kept
// stream) has written since the cut.
void AddWrittenPages(const replay::GuestMemory& memory, EventCut& cut);

}  // namespace xnt::compare::detail
