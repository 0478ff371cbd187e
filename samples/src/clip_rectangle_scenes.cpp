// clip_rectangle_lists: user clip planes, cull-only planes and vertex kill on rectangle lists
// (gpu/primitive_clip.h RectangleCorners): the fourth corner's plane distance is the sum of the
// guest corners' (a + b - c), the clipping planes cut the whole rectangle, and the decisions that
// remove a rectangle whole look at the three guest corners only.
//
// Every rectangle is 12 x 6 pixels with its edges at k + 0.75, so its diagonal (slope +-1/2) and
// its sides miss every pixel centre with or without the half-pixel offset. The clipping planes
// are x - y = t with t = n + 0.25: x - y of a pixel centre is the same with or without the offset,
// a multiple of 1 / S at scale S x S, never t at 1x, 2x or 3x; and each plane cuts one corner off
// (the triangle holding it), never the diagonal both halves share.
#include "clip_scene_common.h"
#include "edram_scene_builder.h"
#include "raster_scenes.h"
#include "sample_shaders.h"

namespace xnt::samples {
namespace {

using namespace edram_scene;

using namespace clip_scene;

struct Box {
  float x0, y0;  // the top-left corner; the rectangle is [x0, x0 + 12] x [y0, y0 + 6]
  float x1() const { return x0 + 12.0f; }
  float y1() const { return y0 + 6.0f; }
  bool Covers(uint32_t x, uint32_t y) const {
    const float cx = float(x) + 0.5f, cy = float(y) + 0.5f;
    return cx > x0 && cx < x1() && cy > y0 && cy < y1();
  }
};

enum Corner { kTopLeft, kTopRight, kBottomLeft, kBottomRight };

// The guest's three corners in the order given, z the vertex's third float (oPts.z for the
// kill shader, 0 for the plain one).
std::vector<std::array<float, 3>> Corners(const Box& b, std::array<Corner, 3> order,
                                          std::array<float, 3> z = {0.0f, 0.0f, 0.0f}) {
  std::vector<std::array<float, 3>> v;
  for (int i = 0; i < 3; ++i) {
    const bool right = order[i] == kTopRight || order[i] == kBottomRight;
    const bool bottom = order[i] == kBottomLeft || order[i] == kBottomRight;
    v.push_back({right ? b.x1() : b.x0, bottom ? b.y1() : b.y0, z[i]});
  }
  return v;
}

std::vector<std::array<float, 3>> Join(std::vector<std::array<float, 3>> a,
                                       const std::vector<std::array<float, 3>>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// On the 64x32 target (DrawFlat: clip x = x / 32 - 1, clip y = 1 - y / 16) the planes keeping
// pixel x - y <= t and >= t, exact in float for t = n + 0.25.
std::array<float, 4> KeepXMinusYAtMost(float t) { return {-1.0f, -0.5f, 0.0f, (t - 16.0f) / 32.0f}; }
std::array<float, 4> KeepXMinusYAtLeast(float t) { return {1.0f, 0.5f, 0.0f, (16.0f - t) / 32.0f}; }

// x - y of pixel (x, y)'s centre.
float XMinusY(uint32_t x, uint32_t y) { return float(x) - float(y); }

Sample ClipRectangles() {
  // Row 1, clipped: A's derived top-right corner alone is outside (x - y: TL 1, TR 13, BL -5,
  // BR 7; kept <= 10.25); B's derived bottom-left alone (TL 17, TR 29, BL 11, BR 23; kept
  // >= 14.25), its right angle sent last; E's right-angle guest corner (top right) alone (TL 33,
  // TR 45, BL 27, BR 39; kept <= 42.25).
  const Box a{2.75f, 1.75f}, b{18.75f, 1.75f}, e{34.75f, 1.75f};
  const float ta = 10.25f, tb = 14.25f, te = 42.25f;
  // Row 2, cull-only plane x - y >= 4.25: C1's three guest corners are outside (TL -7, BL -13,
  // BR -1) and only its derived corner inside (TR 5): culled. C2's derived corner is outside
  // (BL 3) and its guest corners inside: drawn whole, unclipped.
  const Box c1{2.75f, 9.75f}, c2{18.75f, 9.75f};
  const float tc = 4.25f;
  // Rows 3 and 4, vertex kill (oPts.z): vtx_kill_or 0 keeps K1 (one guest corner killed) and
  // removes K2 (all three); vtx_kill_or 1 keeps K3 (none killed: two -0.0) and removes K4 (one,
  // a diagonal end).
  const Box k1{2.75f, 17.75f}, k2{18.75f, 17.75f}, k3{2.75f, 25.75f}, k4{18.75f, 25.75f};
  const Rgba orange = C8(230, 160, 40), teal = C8(40, 190, 170);
  const Rgba violet = C8(150, 90, 220), lime = C8(150, 220, 60);
  const auto rect = xenos::PrimitiveType::kRectangleList;
  auto build = [=](SceneBuilder& s) {
    s.ColorDepthTarget(64, 32, 2, Packed8888(kDark), 0xFFFFFF00u);
    s.UserClipPlane(2, KeepXMinusYAtMost(ta));
    s.ClipControl(kClipOn | 0x04u);
    s.DrawFlat(Corners(a, {kBottomLeft, kBottomRight, kTopLeft}), orange, rect);
    s.UserClipPlane(2, KeepXMinusYAtLeast(tb));
    s.DrawFlat(Corners(b, {kTopLeft, kBottomRight, kTopRight}), orange, rect);
    s.UserClipPlane(2, KeepXMinusYAtMost(te));
    s.DrawFlat(Corners(e, {kTopRight, kBottomRight, kTopLeft}), orange, rect);
    s.UserClipPlane(5, KeepXMinusYAtLeast(tc));
    s.ClipControl(kClipOn | kUcpCullOnly | 0x20u);
    s.DrawFlat(Join(Corners(c1, {kBottomLeft, kBottomRight, kTopLeft}),
                    Corners(c2, {kTopLeft, kTopRight, kBottomRight})),
               teal, rect);
    s.FlatVertexShader(kKillVertexShader);
    s.ClipControl(kClipOn);
    s.DrawFlat(Join(Corners(k1, {kTopLeft, kTopRight, kBottomLeft}, {0.0f, 1.0f, 0.0f}),
                    Corners(k2, {kTopLeft, kTopRight, kBottomLeft}, {1.0f, 1.0f, 1.0f})),
               violet, rect);
    s.ClipControl(kClipOn | kVtxKillOr);
    s.DrawFlat(Join(Corners(k3, {kTopLeft, kTopRight, kBottomLeft}, {-0.0f, 0.0f, -0.0f}),
                    Corners(k4, {kTopLeft, kTopRight, kBottomLeft}, {0.0f, 0.0f, 1.0f})),
               lime, rect);
    s.ClipControl(kClipOn);
    s.FlatVertexShader();
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDark);
    PaintIf(img, [&](uint32_t x, uint32_t y) {
      return (a.Covers(x, y) && XMinusY(x, y) < ta) || (b.Covers(x, y) && XMinusY(x, y) > tb) ||
             (e.Covers(x, y) && XMinusY(x, y) < te);
    }, orange);
    PaintIf(img, [&](uint32_t x, uint32_t y) { return c2.Covers(x, y); }, teal);
    PaintIf(img, [&](uint32_t x, uint32_t y) { return k1.Covers(x, y); }, violet);
    PaintIf(img, [&](uint32_t x, uint32_t y) { return k3.Covers(x, y); }, lime);
    return std::vector<Image>{img};
  };
  return MakeSample(
      "clip_rectangle_lists",
      "rectangle lists (three corners each, the fourth derived) under user clip plane 2 "
      "(PA_CL_CLIP_CNTL ucp_ena 0x04) along x - y = t, cutting off in turn a derived corner, "
      "another derived corner and a guest corner; under plane 5 with ucp_cull_only_ena (one "
      "rectangle with its three guest corners outside and the derived one inside, one across); "
      "and under vertex kill through oPts.z with vtx_kill_or 0 and 1",
      "64x32 frame: dark (16,24,32); 12x6 rectangles at x 3..14, 19..30, 35..46 and y 2..7, "
      "10..15, 18..23, 26..31 (edges at k + 0.75). Row 1 orange (230,160,40): the first without "
      "its top-right corner where x - y > 10.25, the second without its bottom-left where x - y "
      "< 14.25, the third without its top-right where x - y > 42.25. Row 2 teal (40,190,170): "
      "only the second, whole (cull-only planes do not clip); the first is culled by its three "
      "guest corners. Row 3 violet (150,90,220): the first (one corner killed, vtx_kill_or 0); "
      "the second is killed (all three). Row 4 lime (150,220,60): the first (-0.0 kills nothing); "
      "the second is killed (one corner, vtx_kill_or 1). All pixels exact.",
      build, frames);
}

}  // namespace

std::vector<Sample> ClipRectangleSamples() { return {ClipRectangles()}; }

}  // namespace xnt::samples
