// Rasterizer samples (issue #13): lines (list, strip, loop) and polygon offset, each with an
// expected image worked out from the scene parameters (raster_scenes.cpp says how).
#pragma once

#include <vector>

#include "xnt/samples/samples.h"

namespace xnt::samples {

std::vector<Sample> RasterSamples();

}  // namespace xnt::samples
