// Bisection of one differing frame: the first draw or resolve of the frame after which two
// combinations' targets (snapshot.h) differ in guest bits, with its dump, its shaders'
// disassembly and before/after images of its targets on both.
#pragma once

#include <cstdint>
#include <string>

#include "xnt/compare/combination.h"
#include "xnt/compare/compare.h"
#include "xnt/compare/results.h"

namespace xnt::compare {

// Replays `trace` through `frame` twice on each combination: once hashing every event's targets
// after it ran, once more for the before/after images of the first event whose hashes differ.
// Images go to report_dir/bisect/ (when report_dir is set). Never throws: problems land in
// Bisection::error.
Bisection BisectFrame(const std::string& trace, uint64_t frame, const Combination& reference,
                      const Combination& other, const CompareOptions& options);

// The same against a baseline folder saved with `--snapshots all` (CompareOptions::baseline_dir):
// replays `combination` through `frame` hashing every event as the baseline stored them, and for
// the first event whose hash differs from the stored one captures its targets (before/after on
// this build, after from the baseline, the any-difference mask between the two "after"s). A
// baseline saved without snapshots gives found = false and a summary saying so.
Bisection BisectAgainstBaseline(const std::string& trace, uint64_t frame,
                                const Combination& combination, const CompareOptions& options);

// The session options for a combination under `options` (device, validation, threads, the test
// fault when it names this combination).
renderer::SessionOptions SessionOptionsFor(const Combination& c, const CompareOptions& options);

}  // namespace xnt::compare
