// clip_points_planes_kill: user clip planes and vertex kill on point sprites.
// clip_points_ucp_modes: PA_CL_CLIP_CNTL ps_ucp_mode 0 to 3 with clipping and cull-only planes.
//
// In mode 0, a point is kept or removed whole by its centre (gpu/primitive_clip.h; the cpu path's
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

// Pixels (x, y) of an 8x4 sprite centred on (cx, cy): [cx - 4, cx + 4) x [cy - 2, cy + 2).
bool InWideSprite(uint32_t x, uint32_t y, float cx, float cy) {
  const float px = float(x), py = float(y);
  return px >= cx - 4.0f && px < cx + 4.0f && py >= cy - 2.0f && py < cy + 2.0f;
}

Sample ClipPointModes() {
  // 96x48: clip x = px / 48 - 1, clip y = 1 - py / 24. Each row is one ps_ucp_mode; each column
  // a draw under its own plane 1:
  // - column 1, plane x >= 14.5: a sprite at x 12.5 ([8.5, 16.5): its centre outside, its right
  //   corners inside) and one at x 4.5 (every corner outside);
  // - column 2, plane x >= 46.5: a sprite at x 48.5 ([44.5, 52.5): centre inside, left corners
  //   outside);
  // - column 3, plane y <= row + 1: a sprite at x 80.5 whose lower row lies past the plane
  //   (the plane's y term, and the viewport's flipped y scale, decide which corners are out).
  // The plane edges (x 14.5, 46.5, y row + 1), like the sprites' edges, lie on guest pixel
  // boundaries (the half-pixel offset puts a guest pixel's centre on its integer position), a
  // sixth of a guest pixel or more from every host pixel centre at 1x, 2x and 3x, so every
  // scale draws the same guest pixels.
  struct Row {
    uint32_t mode;
    bool cull_only;
  };
  const std::array<Row, 6> rows = {
      {{0, false}, {1, false}, {2, false}, {3, false}, {2, true}, {3, true}}};
  const auto row_y = [](size_t r) { return 4.5f + 8.0f * float(r); };
  const Rgba orange = C8(230, 160, 40), teal = C8(40, 190, 170), violet = C8(150, 90, 210);
  auto build = [=](SceneBuilder& s) {
    s.ColorDepthTarget(96, 48, 8, Packed8888(kDark), 0xFFFFFF00u);
    s.PointSize(8.0f, 4.0f);
    for (size_t r = 0; r < rows.size(); ++r) {
      const float y = row_y(r);
      s.ClipControl(kClipOn | 0x02u | rows[r].mode << 14 | (rows[r].cull_only ? kUcpCullOnly : 0u));
      s.UserClipPlane(1, {1.0f, 0.0f, 0.0f, 1.0f - 14.5f / 48.0f});
      s.DrawFlat({{12.5f, y, 0.0f}, {4.5f, y, 0.0f}}, orange, xenos::PrimitiveType::kPointList);
      s.UserClipPlane(1, {1.0f, 0.0f, 0.0f, 1.0f - 46.5f / 48.0f});
      s.DrawFlat({{48.5f, y, 0.0f}}, teal, xenos::PrimitiveType::kPointList);
      // clip y >= 1 - (y + 1) / 24 keeps py <= y + 1.
      s.UserClipPlane(1, {0.0f, 1.0f, 0.0f, -(1.0f - (y + 1.0f) / 24.0f)});
      s.DrawFlat({{80.5f, y, 0.0f}}, violet, xenos::PrimitiveType::kPointList);
    }
    s.ClipControl(kClipOn);
    s.Present(kFrontA, 96, 48);
  };
  auto frames = [=] {
    Image img = Fill(96, 48, kDark);
    for (size_t r = 0; r < rows.size(); ++r) {
      const float y = row_y(r);
      // Clipping planes in modes 2-3 cut the sprite; cull-only planes in mode 3 keep a sprite
      // with a corner inside whole; otherwise the centre decides for the whole sprite.
      const bool cut = !rows[r].cull_only && rows[r].mode >= 2;
      const bool corners_cull = rows[r].cull_only && rows[r].mode == 3;
      PaintIf(img, [&](uint32_t px, uint32_t py) {
        if (!InWideSprite(px, py, 12.5f, y)) return false;
        return cut ? float(px) >= 14.5f : corners_cull;
      }, orange);
      PaintIf(img, [&](uint32_t px, uint32_t py) {
        return InWideSprite(px, py, 48.5f, y) && (!cut || float(px) >= 46.5f);
      }, teal);
      PaintIf(img, [&](uint32_t px, uint32_t py) {
        return InWideSprite(px, py, 80.5f, y) && (!cut || float(py) <= y + 1.0f);
      }, violet);
    }
    return std::vector<Image>{img};
  };
  return MakeSample(
      "clip_points_ucp_modes",
      "8x4 point sprites against user clip plane 1 under PA_CL_CLIP_CNTL ps_ucp_mode 0, 1, 2, 3 "
      "(clipping planes) and 2, 3 (cull-only planes), one row each; per row a sprite whose "
      "centre is outside a vertical plane, one wholly outside it, one whose centre is inside "
      "another, and one crossed by a horizontal plane: modes 0-1 keep or remove a sprite by its "
      "centre, modes 2-3 clip it at its corners, cull-only mode 3 removes it only when every "
      "corner is outside",
      "96x48 frame: dark (16,24,32); rows y 3..6, 11..14, 19..22, 27..30, 35..38, 43..46 (modes "
      "0, 1, 2, 3, cull-only 2, cull-only 3). Orange (230,160,40): none in rows 1, 2 and 5, x "
      "15..16 in rows 3-4, x 9..16 in row 6; never at x 1..8. Teal (40,190,170): x 45..52, in "
      "rows 3-4 x 47..52. Violet (150,90,210): x 77..84, in rows 3-4 only the top three lines "
      "of the sprite. All pixels exact.",
      build, frames);
}

}  // namespace

std::vector<Sample> ClipPointSamples() { return {ClipPoints(), ClipPointModes()}; }

}  // namespace xnt::samples
