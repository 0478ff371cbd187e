// The cpu path's clipper and triangle rasterizer under user clip planes (geometry.h
// ClipVertex::user_distance), against a scalar rule written here: a pixel centre is drawn when it
// lies inside the triangle's screen projection and on the kept side of every plane. Random
// triangles with random w (perspective) and random planes; centres within 1/64 pixel of an edge
// or a plane's line are not judged (sub-pixel snapping of the clipped vertices decides those).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "geometry.h"
#include "screen_plane.h"

namespace xnt::cpu {
namespace {

constexpr int kSize = 48;

using test::LineDistance;
using test::Plane;

TEST(ClipperRandom, UserPlanesCutTrianglesAtTheirLines) {
  std::mt19937 rng(1129);
  std::uniform_real_distribution<double> coord(-8.0, kSize + 8.0), weight(0.5, 2.0),
      unit(-1.0, 1.0);
  RasterState state;
  state.x0 = 0, state.y0 = 0, state.x1 = kSize, state.y1 = kSize;
  state.depth = false;
  int judged = 0;
  for (int round = 0; round < 150; ++round) {
    std::array<std::array<double, 2>, 3> screen;
    for (auto& p : screen) p = {coord(rng), coord(rng)};
    const double area = (screen[1][0] - screen[0][0]) * (screen[2][1] - screen[0][1]) -
                        (screen[2][0] - screen[0][0]) * (screen[1][1] - screen[0][1]);
    if (std::fabs(area) < 20.0) continue;
    std::vector<Plane> planes(1 + rng() % 3);
    for (Plane& p : planes) {
      // A line through a random point of the screen, random direction.
      const double nx = unit(rng), ny = unit(rng), len = std::hypot(nx, ny);
      const double px = coord(rng), py = coord(rng);
      p = {nx / len, ny / len, -(nx * px + ny * py) / len};
    }
    std::array<ClipVertex, 3> v;
    for (int i = 0; i < 3; ++i) {
      const double w = weight(rng);
      v[i].pos = {screen[i][0] * w, screen[i][1] * w, 0.5 * w, w};
      v[i].depth_distance = {0.5 * w, 0.5 * w};
      for (size_t n = 0; n < planes.size(); ++n) {
        v[i].user_distance[n] = planes[n].a * v[i].pos[0] + planes[n].b * v[i].pos[1] +
                                planes[n].c * w;
      }
    }
    const Polygon poly = ClipTriangle(v[0], v[1], v[2], true, uint32_t(planes.size()));
    std::set<std::pair<uint32_t, uint32_t>> drawn;
    for (size_t i = 1; i + 1 < poly.size(); ++i) {
      RasterizeTriangle(poly[0], poly[i], poly[i + 1], state, [&](const Fragment& f) {
        EXPECT_TRUE(drawn.emplace(f.x, f.y).second) << "pixel drawn twice";
      });
    }
    const double sign = area > 0 ? 1.0 : -1.0;
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        const double cx = x + 0.5, cy = y + 0.5;
        double nearest = 1e9;
        bool inside = true;
        for (int e = 0; e < 3; ++e) {
          const double d = -sign * LineDistance(screen[e], screen[(e + 1) % 3], cx, cy);
          nearest = std::min(nearest, std::fabs(d));
          inside = inside && d > 0;
        }
        for (const Plane& p : planes) {
          const double d = p.At(cx, cy);  // (a, b) is a unit normal: pixels
          nearest = std::min(nearest, std::fabs(d));
          inside = inside && d > 0;
        }
        if (nearest < 1.0 / 64) continue;
        ++judged;
        ASSERT_EQ(drawn.count({uint32_t(x), uint32_t(y)}) != 0, inside)
            << "round " << round << " pixel (" << x << ", " << y << ")";
      }
    }
  }
  EXPECT_GT(judged, 100000);
}

// Garbage positions: a vertex with an infinite or NaN coordinate drops its primitive whole, and a
// NaN plane distance (a user plane's NaN constants) counts as outside without a crossing, so no
// vertex the clipper hands the fixed-point rasterizer is ever non-finite.
TEST(ClipperNonFinite, PrimitivesWithInfiniteOrNanPositionsAreDropped) {
  const double inf = INFINITY, nan = NAN;
  auto vertex = [](double x, double y, double w) {
    ClipVertex v;
    v.pos = {x * w, y * w, 0.5 * w, w};
    v.depth_distance = {0.5 * w, 0.5 * w};
    return v;
  };
  const ClipVertex a = vertex(4, 4, 1), b = vertex(40, 8, 1), c = vertex(8, 40, 1);
  ASSERT_EQ(ClipTriangle(a, b, c).size(), 3u);
  for (int component = 0; component < 4; ++component) {
    for (double bad : {inf, -inf, nan}) {
      ClipVertex d = b;
      d.pos[size_t(component)] = bad;
      EXPECT_TRUE(ClipTriangle(a, d, c).empty()) << component << " " << bad;
      EXPECT_TRUE(ClipTriangle(d, d, d).empty()) << component << " " << bad;
      Line l;
      EXPECT_FALSE(ClipLine(a, d, l)) << component << " " << bad;
    }
  }
  // One user plane whose distance is NaN at b: the crossings next to b are not made, and what is
  // left is finite.
  ClipVertex bn = b;
  ClipVertex an = a, cn = c;
  an.user_distance[0] = 1.0, cn.user_distance[0] = 1.0, bn.user_distance[0] = nan;
  const Polygon poly = ClipTriangle(an, bn, cn, true, 1);
  EXPECT_EQ(poly.size(), 0u);  // a and c alone are not a polygon
  ClipVertex dn = vertex(30, 30, 1);
  dn.user_distance[0] = 2.0;
  const Polygon quad = ClipTriangle(an, bn, dn, true, 1);
  for (const ClipVertex& v : quad) {
    for (double x : v.pos) EXPECT_TRUE(std::isfinite(x));
  }
  Line l;
  EXPECT_FALSE(ClipLine(an, bn, l, true, 1));
  // Finite ends so far apart that their difference overflows: a crossing would be non-finite.
  const ClipVertex huge_a = vertex(-1e300, 4, 1), huge_b = vertex(1e300, 8, 1);
  for (const ClipVertex& v : ClipTriangle(huge_a, huge_b, c)) {
    for (double x : v.pos) EXPECT_TRUE(std::isfinite(x));
  }
  if (ClipLine(huge_a, huge_b, l)) {
    for (double x : l.a.pos) EXPECT_TRUE(std::isfinite(x));
    for (double x : l.b.pos) EXPECT_TRUE(std::isfinite(x));
  }
  // An infinite distance at b (a plane's infinite constants): the crossing is at a, finite.
  bn.user_distance[0] = -inf;
  ASSERT_TRUE(ClipLine(an, bn, l, true, 1));
  EXPECT_EQ(l.a.pos, an.pos);
  EXPECT_EQ(l.b.pos, an.pos);
}

// Triangles crossing w = 0 with depth clipping off (PA_CL_CLIP_CNTL clip_disable): the w plane's
// crossings are computed near w = 0, where rounding can leave w at 0 or below; every vertex
// handed on has w > 0 and lies inside the guard band, over many random crossings.
TEST(ClipperNonFinite, CrossingsOfTheWPlaneKeepWPositive) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> coord(-100.0, 100.0), wv(-3.0, 3.0);
  int kept = 0;
  for (int round = 0; round < 20000; ++round) {
    ClipVertex v[3];
    for (ClipVertex& x : v) {
      // Quarter steps put some vertices at w = 0 exactly.
      const double w = round % 2 ? wv(rng) : std::round(wv(rng) * 4) / 4;
      x.pos = {coord(rng) * (round % 3 == 0 ? 0.0 : 1.0), coord(rng), 0.0, w};
    }
    const Polygon poly = ClipTriangle(v[0], v[1], v[2], false);
    kept += !poly.empty();
    for (const ClipVertex& x : poly) {
      ASSERT_GT(x.pos[3], 0.0) << round;
      ASSERT_LE(std::fabs(x.pos[0] / x.pos[3]), 2 * kGuardBandPixels) << round;
      ASSERT_LE(std::fabs(x.pos[1] / x.pos[3]), 2 * kGuardBandPixels) << round;
    }
    Line l;
    if (ClipLine(v[0], v[1], l, false)) {
      ASSERT_GT(l.a.pos[3], 0.0) << round;
      ASSERT_GT(l.b.pos[3], 0.0) << round;
    }
  }
  EXPECT_GT(kept, 10000);
  // The fuzzer's case: a vertex at w = 0 exactly is outside the w plane by only its 1e-30
  // margin, so the crossing towards it is at t = 1 in double: the vertex itself, w = 0.
  ClipVertex a, b, c;
  a.pos = {0.0, 0.0, 0.0, 0.0};
  b.pos = {10.0, 5.0, 0.0, 2.78086};
  c.pos = {50.0, 20.0, 0.0, -2.17252};
  const Polygon poly = ClipTriangle(a, b, c, false);
  EXPECT_FALSE(poly.empty());
  for (const ClipVertex& x : poly) ASSERT_GT(x.pos[3], 0.0);
  Line l;
  ASSERT_TRUE(ClipLine(b, a, l, false));
  EXPECT_GT(l.b.pos[3], 0.0);
}

}  // namespace
}  // namespace xnt::cpu
