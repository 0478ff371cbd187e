// The light regression gate Mesa's trace CI keeps: a TOML file beside a corpus listing, per
// trace and combination, the expected hash of every frame (diff::HashPixels, XXH3-64 of the
// RGBA8 pixels). Read with toml++; written by hand in a fixed order (so a rewrite only changes
// what changed).
//
//   [traces."clear_draws_resolve_swap.xnt"]
//   "cpu@1x1" = { frame_0000 = "5b0c2a1f0e9d8c7b" }
//   "fbo@1x1" = { frame_0000 = "5b0c2a1f0e9d8c7b" }
#pragma once

#include <string>

#include "xnt/compare/results.h"

namespace xnt::compare {

// Checks every frame of every successful combination against the file: a different hash, a frame
// or combination the file does not list, or a listed frame the run lacks makes that combination
// "differ" (detail names the hashes). Returns a summary line. Throws xnt::Error for an unreadable
// or malformed file.
std::string CheckExpectations(const std::string& file, RunResults& results);
// Writes the file from the run (every combination without an error; others keep their entries).
void UpdateExpectations(const std::string& file, const RunResults& results);

}  // namespace xnt::compare
