// `compare --repro DIR --minimize`: delta debugging (Zeller's ddmin) over a repro slice's events
// before its differing one. A trial drops a subset of those draws, resolves and clears (their
// draw packets become NOPs of the same length, so the stream around them, register writes
// included, is unchanged) and keeps the subset when the slice's frame still bisects to the same
// differing event, renumbered: the events after a dropped one move down by one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xnt/compare/combination.h"
#include "xnt/compare/compare.h"

namespace xnt::compare {

inline constexpr double kDefaultMinimizeSeconds = 60.0;

struct Minimized {
  std::string file;            // the minimized slice ("" when none was written)
  std::vector<uint32_t> kept;  // events of the repro slice kept, the differing one last
  uint32_t removed = 0;        // events dropped
  uint32_t trials = 0;         // comparisons run
  bool cut_short = false;      // the time limit ended the search before ddmin finished
  double seconds = 0;
};

// Minimizes `slice` (a repro slice of one frame whose event 0.`differing` differs between
// `reference` and `other` under `options`; a test fault, if any, on frame 0) within `seconds`
// of wall time, and writes the smallest slice found that still differs first at its last event
// to `out`. Throws xnt::Error for an unreadable slice or an unwritable output.
Minimized MinimizeRepro(const std::string& slice, uint32_t differing, const Combination& reference,
                        const Combination& other, const CompareOptions& options, double seconds,
                        const std::string& out);

}  // namespace xnt::compare
