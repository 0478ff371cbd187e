// EDRAM scenario samples (issue #7 item 7; DESIGN.md "Scenarios that the samples must cover"):
// small traces that move render targets around the EDRAM the way games do, each with the frames
// a correct replay shows (computed on the CPU from the scene parameters and the guest format
// definitions) and the number of ownership transfers a cache that moves only used ranges on a
// real owner change makes. Registered in registry.cpp; tests in
// tests/renderer/edram/scenario_test.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xnt/samples/samples.h"

namespace xnt::samples {

struct EdramScenario {
  Sample sample;
  // Every swapped frame, in order (the last one is sample.expected_image()).
  std::function<std::vector<Image>()> expected_frames;
  uint64_t expected_transfers = 0;
  std::string transfers_why;  // which events move data, and why
  // k_8_8_8_8_GAMMA emulation the replay must use ("" = the renderer's default, "srgb" = the
  // sRGB-target mode that blends in linear space). Scenarios with a mode are not registered
  // (the generic sample tests replay with the default).
  std::string gamma_mode;
};

// The scenarios whose frames and transfer counts the fbo path reproduces today (registered
// unless they need a gamma mode).
const std::vector<EdramScenario>& EdramScenarios();

}  // namespace xnt::samples
