// Slices of a trace: frames [A, B] of a capture as a trace of their own that starts from the
// state at the cut, so a frame deep in a capture can be shared and replayed without everything
// before it (`xenotrace slice`, and compare's repro slices).
//
// The slice starts with, in this order: the guest memory at the cut (as initial-snapshot memory
// events: of the 4 KiB pages the replay had written, those the kept stream reads or writes —
// compare/src/slice_pages.h: draws' index buffers, vertex fetch ranges and whole texture
// footprints, the whole range of every memexport stream their shaders can store into, the
// swap's front buffer, the CP's own reads; pages a kept resolve, memexport or CP write changes —
// or every written page with `all_pages`), a
// register snapshot of the whole register file, the last gamma ramp, an EDRAM snapshot computed
// on the cpu path at 1x1 (exact guest bits; every path restores it, gpu/edram_snapshot.h), and
// one ring submission that loads the active vertex and pixel shaders (IM_LOAD_IMMEDIATE: the
// command processor's shader state is not in the register file) and restores SET_BIN_MASK /
// SET_BIN_SELECT where the stream had changed them. Then every record of frames A..B as the
// source has them. Frames are numbered from 0 in the slice; TraceInfo::capture_source names the
// source file's XXH3-64, its capture source and the range.
//
// A cut inside a frame (events F.K-G.M, draws and resolves numbered as `replay` and compare
// number them) starts from the state just before event F.K's packet (memory, registers, gamma,
// EDRAM and the CP state as they stand there, mid-submission if need be), then keeps the PM4
// from that packet through event G.M's packet, flattened into ring submissions (indirect buffers
// inlined, so their memory is not needed), with the memory events, gamma ramps and snapshots
// between them, and ends frame G with its XE_SWAP packets (each after a write of texture fetch
// constant 0 as it stands there: the front buffer the swap reads) and frame marker alone:
// whatever the frame did after G.M (a resolve to the front buffer, later draws) is left out, so
// the slice's EDRAM at its end is the EDRAM right after G.M and its swap shows the front buffer
// as it stands after G.M. Event F.K becomes event 0.0 (F.K+j is 0.j; frame F+i is frame i).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace xnt::compare {

struct SliceRange {
  uint64_t first_frame = 0, last_frame = 0;  // inclusive
  // Both set: cut at event first_frame.first_event, end after last_frame.last_event.
  std::optional<uint32_t> first_event, last_event;
};

struct SliceReport {
  uint64_t source_bytes = 0, slice_bytes = 0;
  uint64_t source_frames = 0, frames = 0;
  uint64_t state_pages = 0;    // guest memory pages written as the state at the cut
  uint64_t kept_records = 0;   // records of frames A..B (or of the events' stream)
  uint64_t events = 0;         // draws and resolves kept (an event cut only)
  uint64_t written_pages = 0;  // pages written before the cut (state_pages keeps those needed)
  uint64_t source_hash = 0;    // XXH3-64 of the source file
};

// Writes the slice of `in` to `out` (through a temporary name in the same folder, renamed at the
// end: no partial file is left on an error). Throws xnt::Error for a range outside the trace
// or inverted, an event not in its frame, a damaged source (with the reader's offset) or a write failure.
// `all_pages`: the state keeps every page written before the cut instead of the pages the kept
// stream needs (see above).
SliceReport WriteSlice(const std::string& in, const std::string& out, const SliceRange& range,
                       bool all_pages = false);

}  // namespace xnt::compare
