// A baseline folder (--save-baseline / --baseline): per trace and combination the frames as
// PNGs and their hashes, DIR/<trace>/<combination>/frame_NNNN.png + hashes.txt, so a later
// build's frames are compared with them (FifoCI's per-commit gate).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "xnt/diff/image.h"

namespace xnt::compare {

void SaveBaselineFrames(const std::string& dir, const std::string& trace,
                        const std::string& combination,
                        const std::map<uint64_t, diff::OwnedImage>& frames);
// The stored frames; *why says what is missing (no folder for this trace and combination).
std::map<uint64_t, diff::OwnedImage> LoadBaselineFrames(const std::string& dir,
                                                        const std::string& trace,
                                                        const std::string& combination,
                                                        std::string* why);

}  // namespace xnt::compare
