// Samples of the pixel shader's generated inputs: centroid against centre interpolation under
// MSAA and PsParamGen, each with an expected image worked out from the scene parameters
// (interp_scenes.cpp says how).
#pragma once

#include <vector>

#include "xnt/samples/samples.h"

namespace xnt::samples {

// interp_centroid_msaa4x_edge, interp_param_gen.
std::vector<Sample> InterpSamples();

}  // namespace xnt::samples
