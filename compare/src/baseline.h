// A baseline folder (--save-baseline / --baseline): per trace and combination the frames as
// PNGs and their hashes, DIR/<trace>/<combination>/frame_NNNN.png + hashes.txt, so a later
// build's frames are compared with them (FifoCI's per-commit gate). Saved with `--snapshots all`
// the folder also holds every event's hash (events.txt: "F K KIND HASH NAME,...") and the
// targets after it (snapshots/F.K-NAME.png for the eye, snapshots/F.K-NAME.bits.png: the guest
// value of each element as a 16-bit RGBA PNG, 64 bits a pixel, lossless), so a later build's
// differing frame is bisected against them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "xnt/compare/snapshot.h"
#include "xnt/diff/image.h"

namespace xnt::compare {

// Empties (creates) the folder of one trace and combination before a run saves into it.
void ResetBaselineFolder(const std::string& dir, const std::string& trace,
                         const std::string& combination);

void SaveBaselineFrames(const std::string& dir, const std::string& trace,
                        const std::string& combination,
                        const std::map<uint64_t, diff::OwnedImage>& frames);
// The stored frames; *why says what is missing (no folder for this trace and combination).
std::map<uint64_t, diff::OwnedImage> LoadBaselineFrames(const std::string& dir,
                                                        const std::string& trace,
                                                        const std::string& combination,
                                                        std::string* why);

// One event of a baseline saved with snapshots.
struct StoredEvent {
  uint64_t frame = 0;
  uint32_t draw = 0;
  std::string kind;  // "draw" or "resolve"
  uint64_t hash = 0;  // HashEvent
  std::vector<std::string> targets;  // TargetSnapshot names
};

// Writes the targets' images now and keeps the event for SaveBaselineEvents.
void SaveBaselineSnapshot(const std::string& dir, const std::string& trace,
                          const std::string& combination, const StoredEvent& event,
                          const std::vector<TargetSnapshot>& targets);
void SaveBaselineEvents(const std::string& dir, const std::string& trace,
                        const std::string& combination, const std::vector<StoredEvent>& events);
// The stored events of one frame, in order; *why says why there are none (saved without
// snapshots) or what is malformed.
std::vector<StoredEvent> LoadBaselineEvents(const std::string& dir, const std::string& trace,
                                            const std::string& combination, uint64_t frame,
                                            std::string* why);
// A stored target after an event: the image and its element values (empty image when absent).
struct StoredTarget {
  diff::OwnedImage image;
  std::vector<uint64_t> bits;
  std::string image_path;  // the PNG for the eye
};
StoredTarget LoadBaselineTarget(const std::string& dir, const std::string& trace,
                                const std::string& combination, uint64_t frame, uint32_t draw,
                                const std::string& name);

}  // namespace xnt::compare
