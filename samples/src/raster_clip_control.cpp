// PA_CL_CLIP_CNTL clip_disable (Xenia draw_util.cc GetHostViewportInfo: Direct3D 9 turns
// clipping off mostly for screen-space draws such as clears): with it nothing is clipped against
// the depth range and each sample's depth is clamped to [0, 1] (Xenia: host depth clamp over a
// viewport depth of 0..1), without it a primitive beyond the depth range is clipped away. Two
// rectangles beyond the far plane (z = 1.5) and two in front of the near plane (z = -0.5), one of
// each with clipping off, drawn with LESS_EQUAL over a depth cleared to 1.0: the far one with
// clipping off passes only because its depth is clamped to 1.0 (1.5 <= 1.0 would fail).
#include "edram_scenarios.h"

#include "edram_scene_builder.h"

namespace xnt::samples {
namespace {

using namespace edram_scene;

constexpr uint32_t kClipOn = 0x00080000u;   // dx_clip_space_def (what D3D titles write)
constexpr uint32_t kClipOff = 0x00090000u;  // ... and clip_disable

EdramScenario ClipDisableDepthClamp() {
  const std::array<uint8_t, 4> kDark = {16, 20, 24, 255};
  struct Case {
    Rect rect;
    uint32_t clip;
    bool drawn;
  };
  const Case cases[] = {
      {{1.75f, 1.75f, 29.75f, 13.75f, 1.5f, C8(230, 160, 40)}, kClipOff, true},
      {{33.75f, 1.75f, 61.75f, 13.75f, 1.5f, C8(40, 160, 230)}, kClipOn, false},
      {{1.75f, 17.75f, 29.75f, 29.75f, -0.5f, C8(60, 200, 90)}, kClipOff, true},
      {{33.75f, 17.75f, 61.75f, 29.75f, -0.5f, C8(200, 60, 160)}, kClipOn, false},
  };
  auto build = [=](SceneBuilder& s) {
    s.ColorDepthTarget(64, 32, 2, Packed8888(kDark), 0xFFFFFF00u);
    s.Depth(true, true, CompareFunction::kLessEqual);
    for (const Case& c : cases) {
      s.ClipControl(c.clip);
      s.Draw(c.rect);
    }
    s.ClipControl(kClipOn);
    s.Depth(false, false, CompareFunction::kAlways);
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDark);
    for (const Case& c : cases) {
      if (c.drawn) Paint(img, c.rect, U8(c.rect.color));
    }
    return std::vector<Image>{img};
  };
  return {MakeSample("raster_clip_disable_depth_clamp",
                     "rectangles at z = 1.5 (beyond the far plane) and z = -0.5 (before the near "
                     "plane), each with PA_CL_CLIP_CNTL clip_disable on and off, LESS_EQUAL over "
                     "depth cleared to 1.0",
                     "64x32 frame: dark (16,20,24); orange (230,160,40) at x 2..29, y 2..13 "
                     "(not clipped, depth clamped to 1.0, passes LESS_EQUAL); green (60,200,90) "
                     "at x 2..29, y 18..29 (not clipped); the two clipped rectangles on the "
                     "right are not drawn. All pixels exact.",
                     build, frames),
          frames, 0, "colour and depth at separate tiles, nothing changes owner", ""};
}

}  // namespace

std::vector<EdramScenario> ClipControlScenarios() { return {ClipDisableDepthClamp()}; }

}  // namespace xnt::samples
