// clip_points_planes_kill: user clip planes and vertex kill on point sprites.
//
// A point is kept or removed whole by its centre (gpu/primitive_clip.h; the cpu path's
// AssemblePoints, the Vulkan paths' point-quad geometry shader giving every corner the point's
// clip and cull distances): a plane the sprite straddles does not cut it, and a killed vertex
// (oPts.z bits 30:0 non-zero) removes its point whatever vtx_kill_or says (one vertex is all of
// them). PA_CL_CLIP_CNTL ps_ucp_mode is left 0 (points culled by their centre, the mode Xenia's
// point-list geometry shader describes as the default). Sprites are 4x2 pixels with their centres
// at k + 1/2: every edge on a half pixel, between the host pixel centres of two guest pixels at
// every scale.
#include "clip_scene_common.h"
#include "edram_scene_builder.h"
#include "raster_scenes.h"
#include "sample_shaders.h"

namespace xnt::samples {
namespace {

using namespace edram_scene;

using namespace clip_scene;

// Pixel (x, y) samples the authored position (x, y) (the Direct3D 9 half-pixel offset the
// scene keeps): covered when it lies in the 4x2 sprite [cx - 2, cx + 2) x [cy - 1, cy + 1).
bool InSprite(uint32_t x, uint32_t y, float cx, float cy) {
  const float px = float(x), py = float(y);
  return px >= cx - 2.0f && px < cx + 2.0f && py >= cy - 1.0f && py < cy + 1.0f;
}

Sample ClipPoints() {
  // Plane 1 keeps x >= 30.75 (clip space x >= 30.75 / 32 - 1): the first two sprites are left
  // of it and go; the third's centre (31.5) is right of it, so it stays whole although its
  // first column (pixel 30) lies outside; the last two are inside.
  const float planes_row = 8.5f;
  const std::array<float, 5> planes_x = {10.5f, 20.5f, 31.5f, 40.5f, 50.5f};
  // oPts.z per sprite: 0, -0.0 (the sign alone kills nothing), 1, the smallest denormal (bits,
  // not the value, kill), 0.
  const float kills_row = 22.5f;
  const std::array<float, 5> kills_x = {10.5f, 20.5f, 30.5f, 40.5f, 50.5f};
  const std::array<float, 5> kills = {0.0f, -0.0f, 1.0f, std::bit_cast<float>(1u), 0.0f};
  const Rgba orange = C8(230, 160, 40), teal = C8(40, 190, 170);
  auto build = [=](SceneBuilder& s) {
    s.ColorDepthTarget(64, 32, 2, Packed8888(kDark), 0xFFFFFF00u);
    s.PointSize(4.0f, 2.0f);
    s.UserClipPlane(1, {1.0f, 0.0f, 0.0f, 1.0f - 30.75f / 32.0f});
    s.ClipControl(kClipOn | 0x02u);
    std::vector<std::array<float, 3>> v;
    for (float x : planes_x) v.push_back({x, planes_row, 0.0f});
    s.DrawFlat(v, orange, xenos::PrimitiveType::kPointList);
    s.ClipControl(kClipOn | kVtxKillOr);
    s.FlatVertexShader(kKillVertexShader);
    v.clear();
    for (size_t i = 0; i < kills.size(); ++i) v.push_back({kills_x[i], kills_row, kills[i]});
    s.DrawFlat(v, teal, xenos::PrimitiveType::kPointList);
    s.ClipControl(kClipOn);
    s.FlatVertexShader();
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDark);
    auto paint = [&](float cx, float cy, const Rgba& c) {
      const auto rgba = U8(c);
      for (uint32_t y = 0; y < img.height; ++y) {
        for (uint32_t x = 0; x < img.width; ++x) {
          if (!InSprite(x, y, cx, cy)) continue;
          std::copy(rgba.begin(), rgba.end(), img.rgba.begin() + 4 * (size_t(y) * img.width + x));
        }
      }
    };
    for (size_t i = 2; i < planes_x.size(); ++i) paint(planes_x[i], planes_row, orange);
    for (size_t i : {0u, 1u, 4u}) paint(kills_x[i], kills_row, teal);
    return std::vector<Image>{img};
  };
  return MakeSample(
      "clip_points_planes_kill",
      "4x2 point sprites (PA_SU_POINT_SIZE) against user clip plane 1 (x >= 30.75), one of them "
      "straddling it with its centre inside, and with vertex kill through oPts.z (0, -0.0, 1, a "
      "denormal, 0): points are kept or removed whole by their centre",
      "64x32 frame: dark (16,24,32); orange (230,160,40) 4x2 sprites at x 30..33, 39..42, 49..52, "
      "y 8..9 (the one at x 30..33 whole although pixel 30 lies outside the plane; none at x "
      "9..12, 19..22); teal (40,190,170) sprites at x 9..12, 19..22, 49..52, y 22..23 (none at x "
      "29..32 and 39..42: killed). All pixels exact.",
      build, frames);
}

}  // namespace

std::vector<Sample> ClipPointSamples() { return {ClipPoints()}; }

}  // namespace xnt::samples
