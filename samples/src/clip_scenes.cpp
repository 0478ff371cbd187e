// Per-vertex removal of primitives (renderer/gpu primitive_clip.h): user clip planes clipping and
// culling, and vertex kill through oPts.z with PA_CL_CLIP_CNTL vtx_kill_or both ways. Every shape
// is a right triangle with its legs at k + 0.75 and its third edge along x - y = m + 0.5, and every
// plane lies at k + 0.75 too, so no pixel centre is on an edge with or without the half-pixel
// offset and the expected images are exact.
#include "clip_scene_common.h"
#include "edram_scene_builder.h"
#include "listing_head.h"
#include "raster_scenes.h"
#include "sample_shaders.h"

namespace xnt::samples {
namespace {

using namespace edram_scene;

using namespace clip_scene;

// The triangle (x0, y0), (x1, y0), (x1, y0 + x1 - x0): its right angle at the upper right.
struct RightTriangle {
  float x0, y0, x1;
  std::array<std::array<float, 3>, 3> Corners(const std::array<float, 3>& z) const {
    return {{{x0, y0, z[0]}, {x1, y0, z[1]}, {x1, y0 + x1 - x0, z[2]}}};
  }
  // Pixel centres strictly inside (no centre lies on an edge: see the file comment).
  bool Covers(uint32_t x, uint32_t y) const {
    const float cx = float(x) + 0.5f, cy = float(y) + 0.5f;
    return cy > y0 && cx < x1 && cx - cy > x0 - y0;
  }
};

void DrawTriangles(SceneBuilder& s, const std::vector<RightTriangle>& tris,
                   const std::vector<std::array<float, 3>>& z, const Rgba& color) {
  std::vector<std::array<float, 3>> v;
  for (size_t i = 0; i < tris.size(); ++i) {
    for (const auto& c : tris[i].Corners(z[i])) v.push_back(c);
  }
  s.DrawFlat(v, color, xenos::PrimitiveType::kTriangleList);
}

// A 64x32 target: the plane "pixel x >= X" in clip space is x_clip >= X / 32 - 1, "pixel y <= Y"
// is y_clip >= 1 - Y / 16 (DrawFlat's pixel to clip mapping); every value here is exact in float.
std::array<float, 4> KeepRightOf(float x) { return {1.0f, 0.0f, 0.0f, 1.0f - x / 32.0f}; }
std::array<float, 4> KeepAbove(float y) { return {0.0f, 1.0f, 0.0f, y / 16.0f - 1.0f}; }

Sample UserClipPlanes() {
  const RightTriangle clipped{2.25f, 1.75f, 30.75f};  // clipped by planes 0 and 3
  const RightTriangle outside{34.25f, 17.75f, 44.75f};   // every vertex left of x = 46.75
  const RightTriangle straddling{36.25f, 1.75f, 60.75f};  // two vertices right of it
  const Rgba orange = C8(230, 160, 40), teal = C8(40, 190, 170);
  auto build = [=](SceneBuilder& s) {
    s.ColorDepthTarget(64, 32, 2, Packed8888(kDark), 0xFFFFFF00u);
    // Depth tested, so the fsi path draws through its polygon offset geometry shader, which has
    // to pass the distances on.
    s.Depth(true, true, CompareFunction::kLessEqual);
    // Planes 0 and 3 (ucp_ena 0b1001: the enabled ones are not contiguous).
    s.UserClipPlane(0, KeepRightOf(10.75f));
    s.UserClipPlane(3, KeepAbove(20.75f));
    s.ClipControl(kClipOn | 0x09u);
    DrawTriangles(s, {clipped}, {{0.0f, 0.0f, 0.0f}}, orange);
    // Cull-only: a primitive wholly outside plane 0 goes, one across it stays whole.
    s.UserClipPlane(0, KeepRightOf(46.75f));
    s.ClipControl(kClipOn | kUcpCullOnly | 0x01u);
    DrawTriangles(s, {outside, straddling}, {{0, 0, 0}, {0, 0, 0}}, teal);
    s.ClipControl(kClipOn);
    s.Depth(false, false, CompareFunction::kAlways);
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDark);
    PaintIf(img, [&](uint32_t x, uint32_t y) { return clipped.Covers(x, y) && x >= 11 && y <= 20; },
            orange);
    PaintIf(img, [&](uint32_t x, uint32_t y) { return straddling.Covers(x, y); }, teal);
    return std::vector<Image>{img};
  };
  return MakeSample(
      "clip_user_planes",
      "user clip planes 0 and 3 (PA_CL_CLIP_CNTL ucp_ena 0x09, PA_CL_UCP_n in clip space) clipping "
      "a triangle, then plane 0 with ucp_cull_only_ena over a triangle wholly outside it and one "
      "across it",
      "64x32 frame: dark (16,24,32); orange (230,160,40): the right triangle with corners (2.25, "
      "1.75), (30.75, 1.75), (30.75, 30.25) cut to pixels x >= 11 (plane 0 at x = 10.75) and y <= "
      "20 (plane 3 at y = 20.75); teal (40,190,170): the whole right triangle with corners (36.25, "
      "1.75), (60.75, 1.75), (60.75, 26.25) (pixels y >= 2, x <= 60, x - y >= 35), not cut at x = "
      "46.75 since cull-only planes do not clip; the teal triangle left of x = 46.75 near (34..44, "
      "18..28) is culled. All pixels exact.",
      build, frames);
}

Sample VertexKill() {
  // Per row: no vertex killed (two are -0.0: the sign bit alone does not kill), one killed, all
  // three killed.
  const std::vector<std::array<float, 3>> kills = {
      {-0.0f, 0.0f, -0.0f}, {0.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
  const Rgba violet = C8(150, 90, 220), lime = C8(150, 220, 60);
  auto row = [](float y0) {
    return std::vector<RightTriangle>{{2.25f + (y0 - 1.75f), y0, 14.75f + (y0 - 1.75f)},
                                      {22.25f + (y0 - 1.75f), y0, 34.75f + (y0 - 1.75f)},
                                      {42.25f + (y0 - 1.75f), y0, 54.75f + (y0 - 1.75f)}};
  };
  const auto all = row(1.75f), any = row(17.75f);
  // 1-pixel lines between the rows (y = 16.25: row 16 with or without the half-pixel offset):
  // x 2.75..30.75 with no vertex killed, x 34.75..60.75 with its right end killed.
  auto line = [](float x0, float x1, float kill0, float kill1) {
    return std::vector<std::array<float, 3>>{{x0, 16.25f, kill0}, {x1, 16.25f, kill1}};
  };
  auto build = [=](SceneBuilder& s) {
    s.ColorDepthTarget(64, 32, 2, Packed8888(kDark), 0xFFFFFF00u);
    s.FlatVertexShader(kKillVertexShader);
    s.Depth(true, true, CompareFunction::kLessEqual);  // see UserClipPlanes
    s.ClipControl(kClipOn);  // vtx_kill_or 0: a primitive dies when all its vertices are killed
    DrawTriangles(s, all, kills, violet);
    s.DrawFlat(line(34.75f, 60.75f, 0.0f, 1.0f), violet, xenos::PrimitiveType::kLineList);
    s.ClipControl(kClipOn | kVtxKillOr);  // a primitive dies when any vertex is killed
    DrawTriangles(s, any, kills, lime);
    s.DrawFlat(line(2.75f, 30.75f, 0.0f, 0.0f), lime, xenos::PrimitiveType::kLineList);
    s.DrawFlat(line(34.75f, 60.75f, 0.0f, 1.0f), lime, xenos::PrimitiveType::kLineList);
    s.ClipControl(kClipOn);
    s.Depth(false, false, CompareFunction::kAlways);
    s.FlatVertexShader();
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDark);
    PaintIf(img, [&](uint32_t x, uint32_t y) { return all[0].Covers(x, y) || all[1].Covers(x, y); },
            violet);
    PaintIf(img, [&](uint32_t x, uint32_t y) { return any[0].Covers(x, y); }, lime);
    PaintIf(img, [](uint32_t x, uint32_t y) { return y == 16 && x >= 35 && x <= 60; }, violet);
    PaintIf(img, [](uint32_t x, uint32_t y) { return y == 16 && x >= 3 && x <= 30; }, lime);
    return std::vector<Image>{img};
  };
  return MakeSample(
      "clip_vertex_kill",
      "vertex kill through oPts.z (bits 30:0 non-zero) on three triangles with 0 (two -0.0), 1 and "
      "3 killed vertices, drawn with PA_CL_CLIP_CNTL vtx_kill_or 0 (top row) and 1 (bottom row), "
      "and on lines with one killed end between the rows",
      "64x32 frame: dark (16,24,32); top row violet (150,90,220): the first two right triangles "
      "(corners (2.25, 1.75) (14.75, 1.75) (14.75, 14.25) and 20 pixels to the right), the third, "
      "whose vertices are all killed, missing; bottom row lime (150,220,60): only the first "
      "triangle, 16 pixels lower and to the right, since one killed vertex kills the primitive; row "
      "16: lime at x 3..30 (a line with no killed end), violet at x 35..60 (a line with one killed "
      "end, drawn with vtx_kill_or 0; the same line with vtx_kill_or 1 is not drawn over it). All "
      "pixels exact.",
      build, frames);
}

// Rectangles whose z runs linearly from left to right through both depth planes, drawn with
// depth ranges narrower than 0..1: the near and far planes are clip space's (z = 0 and z = w for
// Direct3D, z = -w and z = w for OpenGL), not where the mapped depth leaves 0..1.
Sample NarrowDepthRange() {
  const Rect d3d{1.75f, 1.75f, 61.75f, 13.75f};
  const Rect gl{1.75f, 17.75f, 61.75f, 29.75f};
  const Rgba amber = C8(240, 180, 30), sky = C8(80, 170, 240);
  auto sloped = [](const Rect& r, float z0, float z1) {
    return std::vector<std::array<float, 3>>{
        {r.x0, r.y0, z0}, {r.x1, r.y0, z1}, {r.x0, r.y1, z0}, {r.x1, r.y1, z1}};
  };
  auto build = [=](SceneBuilder& s) {
    // Depth cleared to 0x999999 (0.6 of 2^24 - 1).
    s.ColorDepthTarget(64, 32, 2, Packed8888(kDark), 0x99999900u);
    // Direct3D: z -0.5..1.5 over x 1.75..61.75 crosses z = 0 at x = 16.75 and z = 1 at 46.75;
    // depth 0.25 + 0.5 z passes LESS 0.6 left of z = 0.7, x = 37.75.
    s.Depth(true, true, CompareFunction::kLess);
    s.DepthRange(0.5f, 0.25f);
    s.DrawFlat(sloped(d3d, -0.5f, 1.5f), amber, xenos::PrimitiveType::kTriangleStrip);
    // OpenGL clip space (dx_clip_space_def 0): z -1.5..1.5 crosses z = -1 at x = 11.75 and z = 1
    // at x = 51.75; depth 0.5 + 0.25 z, not tested.
    s.Depth(false, false, CompareFunction::kAlways);
    s.ClipControl(0);
    s.DepthRange(0.25f, 0.5f);
    s.DrawFlat(sloped(gl, -1.5f, 1.5f), sky, xenos::PrimitiveType::kTriangleStrip);
    s.ClipControl(kClipOn);
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDark);
    Paint(img, Rect{16.75f, d3d.y0, 37.75f, d3d.y1}, U8(amber));
    Paint(img, Rect{11.75f, gl.y0, 51.75f, gl.y1}, U8(sky));
    return std::vector<Image>{img};
  };
  return MakeSample(
      "clip_narrow_depth_range",
      "near/far clipping in clip space with viewport depth ranges 0.25..0.75: a rectangle with z "
      "-0.5..1.5 across it in Direct3D clip space, depth-tested LESS against 0.6, and one with z "
      "-1.5..1.5 in OpenGL clip space (PA_CL_CLIP_CNTL dx_clip_space_def 0)",
      "64x32 frame: dark (16,24,32); amber (240,180,30) at x 17..37, y 2..13 (clipped at z = 0 on "
      "the left, its depth 0.25 + 0.5 z failing LESS 0.6 right of x = 37; the far plane at x = 47 "
      "lies beyond); sky (80,170,240) at x 12..51, y 18..29 (clipped at z = -w and z = w). A path "
      "clipping the mapped depth to 0..1 instead starts both at x 2 and draws the lower one to x "
      "61. All pixels exact.",
      build, frames);
}

}  // namespace

std::vector<Sample> ClipSamples() { return {UserClipPlanes(), VertexKill(), NarrowDepthRange()}; }

}  // namespace xnt::samples
