// Presentation: what happens to a swapped frame after the render path has read the front buffer
// (gpu/front_buffer.h). Today it is written as an 8-bit RGBA PNG; the post-processing chain
// (FXAA, CAS, FSR, dithering) goes here as passes over the image before it is written.
#pragma once

#include <string>

#include "xnt/gpu/front_buffer.h"

namespace xnt::present {

// Writes an RGBA8 PNG; throws xnt::Error when the file cannot be written.
void WritePng(const gpu::SwapImage& image, const std::string& path);

}  // namespace xnt::present
