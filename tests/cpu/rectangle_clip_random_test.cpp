// The cpu path's rectangle lists under user clip planes, cull-only planes and vertex kill
// (primitive_assembly.h AssembleRectangle), against a scalar rule written here from
// gpu/primitive_clip.h: a rectangle is removed when its kill rule holds over the three corners
// the guest sent, or with cull-only planes when those three are all outside one plane; otherwise
// a pixel centre is drawn when it lies inside the whole rectangle (the dropped corner included)
// and, unless the planes only cull, on the kept side of every plane. Random rotated rectangles
// with a random corner dropped, sent in a random order at a random w; centres within 1/64 pixel
// of an edge, a plane's line or the diagonal the two halves share are not judged (sub-pixel
// snapping of clipped vertices decides those).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "primitive_assembly.h"
#include "screen_plane.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::cpu::rectangle_clip_random_test {
namespace {

constexpr int kSize = 48;

using test::LineDistance;
using test::Plane;

struct Rectangle {
  std::array<double, 2> centre, u, v;  // u, v: unit axes
  double hu, hv;                       // half-extents along them
  // Corner k of 4 going round: (-,-), (+,-), (+,+), (-,+).
  std::array<double, 2> Corner(int k) const {
    const double su = (k == 1 || k == 2) ? hu : -hu, sv = k >= 2 ? hv : -hv;
    return {centre[0] + su * u[0] + sv * v[0], centre[1] + su * u[1] + sv * v[1]};
  }
  // Signed distance inside (> 0) from the nearest edge.
  double Inside(double x, double y) const {
    const double dx = x - centre[0], dy = y - centre[1];
    return std::min(hu - std::fabs(dx * u[0] + dy * u[1]), hv - std::fabs(dx * v[0] + dy * v[1]));
  }
};

TEST(RectangleClipRandom, PlanesCutTheWholeRectangleKillAndCullLookAtTheGuestCorners) {
  std::mt19937 rng(20261129);
  std::uniform_real_distribution<double> coord(-4.0, kSize + 4.0), extent(2.0, 20.0),
      weight(0.5, 2.0), unit(-1.0, 1.0), angle(0.0, 6.283185307179586);
  RasterState state;
  state.x0 = 0, state.y0 = 0, state.x1 = kSize, state.y1 = kSize;
  state.depth = false;
  int judged = 0, drawn_rounds = 0, removed_by_kill = 0, removed_by_cull = 0, clipped_rounds = 0;
  for (int round = 0; round < 400; ++round) {
    const double t = angle(rng);
    const Rectangle r{{coord(rng), coord(rng)}, {std::cos(t), std::sin(t)},
                      {-std::sin(t), std::cos(t)}, extent(rng), extent(rng)};
    // The guest's three corners: all but `drop`, going round from a random one of them, either
    // way (rectangles are never face-culled, so both windings are drawn).
    const int drop = int(rng() % 4), first = int(rng() % 3);
    const bool reverse = rng() % 2;
    std::array<int, 3> sent;
    for (int i = 0; i < 3; ++i) {
      const int step = (first + (reverse ? 3 - i : i)) % 3;
      sent[i] = (drop + 1 + step) % 4;
    }
    gpu::PrimitiveClip clip;
    std::vector<Plane> planes(rng() % 4);
    for (Plane& p : planes) {
      const double nx = unit(rng), ny = unit(rng), len = std::hypot(nx, ny);
      const double px = coord(rng), py = coord(rng);
      p = {nx / len, ny / len, -(nx * px + ny * py) / len};
    }
    clip.plane_count = uint32_t(planes.size());
    clip.planes_cull_only = !planes.empty() && rng() % 3 == 0;
    clip.kill = gpu::VertexKillRule(rng() % 3);
    const double w = weight(rng);
    std::array<ClipVertex, 3> v;
    std::array<bool, 3> killed{};
    for (int i = 0; i < 3; ++i) {
      const auto p = r.Corner(sent[i]);
      v[i].pos = {p[0] * w, p[1] * w, 0.5 * w, w};
      v[i].depth_distance = {0.5 * w, 0.5 * w};
      for (size_t n = 0; n < planes.size(); ++n) {
        v[i].user_distance[n] = planes[n].a * v[i].pos[0] + planes[n].b * v[i].pos[1] +
                                planes[n].c * w;
      }
      killed[i] = v[i].killed = rng() % 3 == 0;
    }
    std::vector<Triangle> triangles;
    AssembleRectangle(v[0], v[1], v[2], true, clip, triangles);

    // The reference decision, on the three guest corners.
    const int kills = int(std::count(killed.begin(), killed.end(), true));
    const bool killed_whole = (clip.kill == gpu::VertexKillRule::kAny && kills > 0) ||
                              (clip.kill == gpu::VertexKillRule::kAll && kills == 3);
    bool culled = false;
    for (const Plane& p : planes) {
      bool all_outside = clip.planes_cull_only;
      for (int i = 0; i < 3; ++i) {
        const auto c = r.Corner(sent[i]);
        all_outside = all_outside && p.At(c[0], c[1]) < 0.0;
      }
      culled = culled || all_outside;
    }
    removed_by_kill += killed_whole ? 1 : 0;
    removed_by_cull += !killed_whole && culled ? 1 : 0;
    if (killed_whole || culled) {
      EXPECT_TRUE(triangles.empty()) << "round " << round;
      continue;
    }
    ++drawn_rounds;
    const bool clips = !clip.planes_cull_only && !planes.empty();
    clipped_rounds += clips ? 1 : 0;

    std::set<std::pair<uint32_t, uint32_t>> drawn;
    for (const Triangle& tri : triangles) {
      RasterizeTriangle(tri[0], tri[1], tri[2], state, [&](const Fragment& f) {
        EXPECT_TRUE(drawn.emplace(f.x, f.y).second) << "round " << round << ": pixel drawn twice";
      });
    }
    // The diagonal the two halves share joins the dropped corner's two neighbours.
    const auto d0 = r.Corner((drop + 1) % 4), d1 = r.Corner((drop + 3) % 4);
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        const double cx = x + 0.5, cy = y + 0.5;
        const double edge = r.Inside(cx, cy);
        double nearest = std::min(std::fabs(edge), std::fabs(LineDistance(d0, d1, cx, cy)));
        bool inside = edge > 0.0;
        for (const Plane& p : planes) {
          if (!clips) break;
          const double d = p.At(cx, cy);
          nearest = std::min(nearest, std::fabs(d));
          inside = inside && d > 0.0;
        }
        if (nearest < 1.0 / 64) continue;
        ++judged;
        ASSERT_EQ(drawn.count({uint32_t(x), uint32_t(y)}) != 0, inside)
            << "round " << round << " pixel (" << x << ", " << y << ")";
      }
    }
  }
  // Every branch of the rule was taken many times.
  EXPECT_GT(judged, 300000);
  EXPECT_GT(drawn_rounds, 150);
  EXPECT_GT(clipped_rounds, 80);
  EXPECT_GT(removed_by_kill, 40);
  EXPECT_GT(removed_by_cull, 10);
}

}  // namespace
}  // namespace xnt::cpu::rectangle_clip_random_test
