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
};

// The scenarios whose frames and transfer counts the fbo path reproduces today (registered).
const std::vector<EdramScenario>& EdramScenarios();
// Scenarios written but not yet reproduced, each with what blocks it (not registered; their
// tests are DISABLED_ and run with --gtest_also_run_disabled_tests).
struct PendingScenario {
  EdramScenario scenario;
  std::string blocked_by;
};
const std::vector<PendingScenario>& EdramScenariosPending();

}  // namespace xnt::samples
