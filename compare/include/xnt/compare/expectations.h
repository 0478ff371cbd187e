// The light regression gate Mesa's trace CI keeps: a TOML file beside a corpus listing, per
// trace and combination, the expected hash of every frame (diff::HashPixels, XXH3-64 of the
// RGBA8 pixels), device-independent or for one device (the device name the session reports,
// as Mesa keys its checksums by device). A result is checked against its device's entry when
// there is one, else the device-independent one. Read with toml++; written by hand in a fixed
// order (so a rewrite only changes what changed).
//
//   [traces."clear_draws_resolve_swap.xnt"]
//   "cpu@1x1" = { frame_0000 = "5b0c2a1f0e9d8c7b" }
//   "fbo@1x1" = { frame_0000 = "5b0c2a1f0e9d8c7b" }
//
//   [traces."clear_draws_resolve_swap.xnt".devices."NVIDIA H100 80GB HBM3"]
//   "fbo@1x1" = { frame_0000 = "0d9e8f7a6b5c4d3e" }
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
// A combination's hashes become its device-independent entry when there is none yet or they
// equal it (a device entry of that device is then dropped), else an entry for its device.
void UpdateExpectations(const std::string& file, const RunResults& results);
// The device key of a result: "cpu" for the cpu path (its images do not depend on the machine),
// else CombinationResult::device.
std::string ExpectationDevice(const CombinationResult& c);

}  // namespace xnt::compare
