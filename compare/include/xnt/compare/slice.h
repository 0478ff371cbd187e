// Slices of a trace: frames [A, B] of a capture as a trace of their own that starts from the
// state at the cut, so a frame deep in a capture can be shared and replayed without everything
// before it (`xenotrace slice`, and compare's repro slices).
//
// The slice starts with, in this order: the guest memory at the cut (every 4 KiB page the
// replay had written, as initial-snapshot memory events), a
// register snapshot of the whole register file, the last gamma ramp, an EDRAM snapshot computed
// on the cpu path at 1x1 (exact guest bits; every path restores it, gpu/edram_snapshot.h), and
// one ring submission that loads the active vertex and pixel shaders (IM_LOAD_IMMEDIATE: the
// command processor's shader state is not in the register file) and restores SET_BIN_MASK /
// SET_BIN_SELECT where the stream had changed them. Then every record of frames A..B as the
// source has them. Frames are numbered from 0 in the slice; TraceInfo::capture_source names the
// source file's XXH3-64, its capture source and the range.
#pragma once

#include <cstdint>
#include <string>

namespace xnt::compare {

struct SliceRange {
  uint64_t first_frame = 0, last_frame = 0;  // inclusive
};

struct SliceReport {
  uint64_t source_bytes = 0, slice_bytes = 0;
  uint64_t source_frames = 0, frames = 0;
  uint64_t state_pages = 0;    // guest memory pages written as the state at the cut
  uint64_t kept_records = 0;   // records of frames A..B
  uint64_t source_hash = 0;    // XXH3-64 of the source file
};

// Writes the slice of `in` to `out` (through a temporary name in the same folder, renamed at the
// end: no partial file is left on an error). Throws xnt::Error for a range outside the trace
// or inverted, a damaged source (with the reader's offset) or a write failure.
SliceReport WriteSlice(const std::string& in, const std::string& out, const SliceRange& range);

}  // namespace xnt::compare
