// EDRAM scenario samples (the EDRAM situations real games create: aliasing, reinterpretation, wraps, depth reloads):
// small traces that move render targets around the EDRAM the way games do, each with the frames
// a correct replay shows (computed on the CPU from the scene parameters and the guest format
// definitions) and the number of ownership transfers a cache that moves only used ranges on a
// real owner change makes. Registered in registry.cpp; tests in
// tests/renderer/edram/scenario_test.cpp.
#pragma once

#include <cstdint>
#include <functional>
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

// Every scenario (registered unless it needs a gamma mode). The fbo path reproduces their
// frames and transfer counts, except the frames of those whose sample.differs_on names "fbo"
// (a host format that cannot hold the guest's bits; the test asserts the difference).
const std::vector<EdramScenario>& EdramScenarios();

// Alpha to mask at 4x MSAA and 1x with every dither offset pattern (edram_alpha_to_mask.cpp).
std::vector<EdramScenario> AlphaToMaskScenarios();

// The display's gamma table written through its register ports before a swap
// (present_gamma_ramp.cpp).
std::vector<EdramScenario> GammaRampScenarios();

// The exact-format scenarios (edram_exact_formats.cpp): 7e3 colour bits, float16 above 65504
// through a resolve, 20e4 depth EQUAL within one 20e4 step after a round trip.
std::vector<EdramScenario> ExactFormatScenarios();

// A kDepth-mode depth pre-pass with a killing pixel shader bound, then EQUAL over sloped
// triangles (edram_depth_prepass.cpp).
std::vector<EdramScenario> DepthPrepassScenarios();

// PA_CL_CLIP_CNTL clip_disable: rectangles beyond the depth range drawn with clipping off and
// on (raster_clip_control.cpp).
std::vector<EdramScenario> ClipControlScenarios();

// An EDRAM snapshot record restored before the first frame, 1x and 4x MSAA targets in it
// (edram_snapshot_scene.cpp).
std::vector<EdramScenario> SnapshotScenarios();

// Five frames, each drawn from the texture the previous one resolved (slice_chain_scene.cpp).
std::vector<EdramScenario> SliceChainScenarios();

// Four frames reading what earlier frames memexported (vertices and a texture) and resolved
// (slice_memexport_scene.cpp).
std::vector<EdramScenario> SliceMemExportScenarios();

}  // namespace xnt::samples
