// What the clipping samples (clip_scenes.cpp, clip_point_scenes.cpp, clip_rectangle_scenes.cpp)
// share: PA_CL_CLIP_CNTL's bits as they write them, and painting the pixels a shape covers into
// a hand-worked expected image.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>

#include "edram_scene_builder.h"

namespace xnt::samples::clip_scene {

inline constexpr uint32_t kClipOn = 0x00080000u;  // dx_clip_space_def, clipping on
inline constexpr uint32_t kVtxKillOr = 1u << 21;
inline constexpr uint32_t kUcpCullOnly = 1u << 17;

// Pixels (x, y) for which `inside` holds take colour `c`.
inline void PaintIf(Image& img, const std::function<bool(uint32_t, uint32_t)>& inside,
                    const edram_scene::Rgba& c) {
  const auto rgba = edram_scene::U8(c);
  for (uint32_t y = 0; y < img.height; ++y) {
    for (uint32_t x = 0; x < img.width; ++x) {
      if (!inside(x, y)) continue;
      std::copy(rgba.begin(), rgba.end(), img.rgba.begin() + 4 * (size_t(y) * img.width + x));
    }
  }
}

}  // namespace xnt::samples::clip_scene
