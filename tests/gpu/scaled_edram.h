// The EDRAM of the resolution-scale resolve tests: 2x2-scaled, one k_8_8_8_8 surface of pitch 80
// whose host pixel (hx, hy) holds hx | hy << 8 | 0xFF << 24, so every resolved texel names the
// host pixel it was read from.
#pragma once

#include <cstdint>

#include "xnt/gpu/edram.h"
#include "xnt/gpu/scaled_resolve.h"

namespace xnt::gpu::test {

inline uint32_t HostPixel(uint32_t hx, uint32_t hy) { return hx | hy << 8 | 0xFF000000u; }

// Host pixels [0, host_width) x [0, host_height) of the surface in `ram` (an Edram(2, 2)).
inline void StoreHostPixels(edram::Edram& ram, uint32_t host_width, uint32_t host_height) {
  edram::Surface s;
  s.pitch_pixels = 80;
  s.format = uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  s.scale_x = s.scale_y = 2;
  for (uint32_t hy = 0; hy < host_height; ++hy) {
    for (uint32_t hx = 0; hx < host_width; ++hx) ram.Store(s, hx, hy, 0, HostPixel(hx, hy));
  }
}

}  // namespace xnt::gpu::test
