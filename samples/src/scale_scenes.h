// Resolution-scaling samples: scenes whose every edge and texel lookup stays off host
// pixel centres at 1x1..3x3, so their frames box-downsample exactly to the 1x expected image.
#pragma once

#include <vector>

#include "xnt/samples/samples.h"

namespace xnt::samples {

// scale_bloom_taps_72x40_pitch96, scale_resolve_texture_2x2, scale_half_pixel_3x3,
// scale_frame_1280x720.
std::vector<Sample> ScaleSamples();

}  // namespace xnt::samples
