// The tessellator's triangles across a ring transition, worked by hand from the Direct3D 11
// reference tessellator's rules (point order: outer ring first, inner rings spiralling in;
// StitchTransition merging the two sides by the ruler-function arrival of their points, an odd
// layout's middle segment joined on its own), and random factors covering the patch exactly
// once: every sample of a fine grid inside exactly one triangle, every inner edge shared by two
// triangles walking it in opposite directions, every boundary segment used once.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "xnt/gpu/tessellator.h"

namespace xnt::gpu {
namespace {

using P = TessellationPartitioning;
using Point = std::array<float, 3>;

// 1/3 and 2/3 as the reference's 16.16 fixed point makes them (1/3 rounded to 0x5555).
constexpr float kThird = 0x5555 / 65536.0f, kTwoThirds = 0xaaab / 65536.0f;

// Triangle, integer, edges u = 0: 1, v = 0: 2, w = 0: 3, inside 2.
// Points: the outer ring from the v corner; u = 0 at factor 1 is v then w (0, 1); v = 0 at 2 is
// w and its midpoint (1, 2); w = 0 at 3 is u and the thirds towards v (3, 4, 5); inside 2 makes
// no inner ring, only the centre (6). Every side is stitched to the centre: u = 0 (odd 1, no
// half points) is one middle triangle pointing in, (6, 0, 1); v = 0 (even 2) advances its one
// half point at each corner, (1, 2, 6) and (2, 3, 6); w = 0 (odd 3) advances at the first
// corner, (3, 4, 6), its middle segment pointing in, (6, 4, 5), and the last corner, (5, 0, 6).
TEST(TessellatorStitch, TriangleEdges123Inside2WorkedByHand) {
  TessellationFactors f;
  f.edges = {1, 2, 3, 0};
  f.inside = {2, 0};
  const TessellatedPatch p = TessellateTriangle(f, P::kInteger);
  const std::vector<Point> points = {{0, 1, 0},
                                     {0, 0, 1},
                                     {0.5f, 0, 0.5f},
                                     {1, 0, 0},
                                     {kTwoThirds, kThird, 0},
                                     {kThird, kTwoThirds, 0},
                                     {kThird, kThird, 1 - 2 * kThird}};
  ASSERT_EQ(p.points.size(), points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    for (int c = 0; c < 3; ++c) EXPECT_FLOAT_EQ(p.points[i][c], points[i][c]) << i << "." << c;
  }
  EXPECT_EQ(p.triangles,
            (std::vector<uint32_t>{6, 0, 1, 1, 2, 6, 2, 3, 6, 3, 4, 6, 6, 4, 5, 5, 0, 6}));
}

// Quad, integer, edges u = 0: 3, v = 0: 1, u = 1: 2, v = 1: 4, inside u 2, v 3.
// Points: the outer ring from (0,1): u = 0 falling in thirds (0, 1, 2), v = 0 at 1 (3), u = 1
// at 2 rising (4, 5), v = 1 at 4 falling in quarters (6, 7, 8, 9). Inside: u even at 2 (3
// points), v odd at 3 (4 points): no full inner ring; the even u axis leaves its middle column
// u = 1/2 at v = 2/3, 1/3 (10, 11), which is ring 1: side u = lo is (10, 11), v = lo is (11),
// u = hi is (11, 10), v = hi is (10).
// Stitching ring 0 to ring 1, side by side:
//  u = 0 (odd 3, one half point) to (10, 11) (odd 3): the corner (0, 1, 10), the two odd
//    middles as a quad (10, 1, 11), (11, 1, 2), the far corner (2, 3, 11);
//  v = 0 (odd 1, none) to (11): the middle triangle pointing in, (11, 3, 4);
//  u = 1 (even 2, one) to (11, 10) (odd 3): corner (4, 5, 11), the inside's middle segment
//    pointing out (11, 5, 10), corner (5, 6, 10);
//  v = 1 (even 4, two half points: the second arrives at ruler place 17) to (10): corner
//    (6, 7, 10), place 17 (7, 8, 10), mirrored (8, 9, 10), corner (9, 0, 10).
TEST(TessellatorStitch, QuadEdges3124Inside23WorkedByHand) {
  TessellationFactors f;
  f.edges = {3, 1, 2, 4};
  f.inside = {2, 3};
  const TessellatedPatch p = TessellateQuad(f, P::kInteger);
  const std::vector<std::array<float, 2>> points = {{0, 1},
                                                    {0, kTwoThirds},
                                                    {0, kThird},
                                                    {0, 0},
                                                    {1, 0},
                                                    {1, 0.5f},
                                                    {1, 1},
                                                    {0.75f, 1},
                                                    {0.5f, 1},
                                                    {0.25f, 1},
                                                    {0.5f, kTwoThirds},
                                                    {0.5f, kThird}};
  ASSERT_EQ(p.points.size(), points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    EXPECT_FLOAT_EQ(p.points[i][0], points[i][0]) << i;
    EXPECT_FLOAT_EQ(p.points[i][1], points[i][1]) << i;
  }
  EXPECT_EQ(p.triangles, (std::vector<uint32_t>{0,  1, 10, 10, 1, 11, 11, 1, 2,  2, 3, 11,
                                                11, 3, 4,  4,  5, 11, 11, 5, 10, 5, 6, 10,
                                                6,  7, 10, 7,  8, 10, 8,  9, 10, 9, 0, 10}));
}

// The patch in a plane where its corners wind positively: triangle (v, w) with u at the
// origin; quad (u, v).
std::array<double, 2> Xy(const Point& q, bool tri) {
  return tri ? std::array<double, 2>{q[1], q[2]} : std::array<double, 2>{q[0], q[1]};
}

double Cross(const std::array<double, 2>& a, const std::array<double, 2>& b,
             const std::array<double, 2>& c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

// Every sample of a grid offset off the 16.16 lattice inside exactly one triangle.
void ExpectGridCoveredOnce(const TessellatedPatch& p, bool tri, const std::string& what) {
  constexpr int kGrid = 157;
  // Different offsets on the two axes keep samples off the patch's diagonals, which the
  // symmetric layouts use as triangle edges.
  auto sample_x = [](int i) { return (i + 0.4142135) / kGrid; };
  auto sample_y = [](int i) { return (i + 0.7320508) / kGrid; };
  std::vector<uint8_t> hits(kGrid * kGrid, 0);
  for (size_t t = 0; t < p.triangles.size(); t += 3) {
    const auto a = Xy(p.points[p.triangles[t]], tri), b = Xy(p.points[p.triangles[t + 1]], tri),
               c = Xy(p.points[p.triangles[t + 2]], tri);
    const int x0 = std::max(0, int(std::min({a[0], b[0], c[0]}) * kGrid) - 1);
    const int x1 = std::min(kGrid - 1, int(std::max({a[0], b[0], c[0]}) * kGrid) + 1);
    const int y0 = std::max(0, int(std::min({a[1], b[1], c[1]}) * kGrid) - 1);
    const int y1 = std::min(kGrid - 1, int(std::max({a[1], b[1], c[1]}) * kGrid) + 1);
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const std::array<double, 2> s{sample_x(x), sample_y(y)};
        if (Cross(a, b, s) > 0 && Cross(b, c, s) > 0 && Cross(c, a, s) > 0) ++hits[y * kGrid + x];
      }
    }
  }
  int wrong = 0;
  for (int y = 0; y < kGrid; ++y) {
    for (int x = 0; x < kGrid; ++x) {
      const bool inside = !tri || sample_x(x) + sample_y(y) < 1.0;
      wrong += hits[y * kGrid + x] != (inside ? 1 : 0);
    }
  }
  EXPECT_EQ(wrong, 0) << what;
}

// Every directed edge once; an inner edge's reverse also present, a boundary edge's not.
void ExpectEdgesShared(const TessellatedPatch& p, bool tri, const std::string& what) {
  std::map<std::pair<uint32_t, uint32_t>, int> directed;
  for (size_t t = 0; t < p.triangles.size(); t += 3) {
    for (int k = 0; k < 3; ++k) ++directed[{p.triangles[t + k], p.triangles[t + (k + 1) % 3]}];
  }
  auto on_boundary = [&](uint32_t i, uint32_t j) {
    const Point &a = p.points[i], &b = p.points[j];
    for (int c = 0; c < (tri ? 3 : 2); ++c) {
      if (a[c] == b[c] && (a[c] == 0 || (!tri && a[c] == 1))) return true;
    }
    return false;
  };
  int bad = 0;
  for (const auto& [e, n] : directed) {
    const bool reverse = directed.count({e.second, e.first}) != 0;
    bad += n != 1 || reverse == on_boundary(e.first, e.second);
  }
  EXPECT_EQ(bad, 0) << what;
}

TEST(TessellatorStitch, RandomFactorsCoverThePatchOnce) {
  std::mt19937 rng(20261129);
  // Any inside factor, not only the smallest edge Xenos derives: every ring transition shape.
  auto random_factors = [&rng] {
    std::uniform_real_distribution<float> factor(0.5f, 20.0f);
    TessellationFactors f;
    f.edges = {factor(rng), factor(rng), factor(rng), factor(rng)};
    f.inside = {factor(rng), factor(rng)};
    return f;
  };
  for (int iter = 0; iter < 120; ++iter) {
    const TessellationFactors f = random_factors();
    const P part = iter % 2 ? P::kFractionalEven : P::kInteger;
    const std::string what = std::to_string(iter);
    const TessellatedPatch quad = TessellateQuad(f, part);
    ExpectGridCoveredOnce(quad, false, "quad " + what);
    ExpectEdgesShared(quad, false, "quad " + what);
    const TessellatedPatch tri = TessellateTriangle(f, part);
    ExpectGridCoveredOnce(tri, true, "tri " + what);
    ExpectEdgesShared(tri, true, "tri " + what);
    // Counts: Euler's formula for a triangulated disc with B boundary segments, B from the
    // edges' own point counts.
    for (const auto* patch : {&quad, &tri}) {
      const int edges = patch == &tri ? 3 : 4;
      size_t boundary = 0;
      for (int e = 0; e < edges; ++e) boundary += PlaceEdgePoints(f.edges[e], part).size() - 1;
      EXPECT_EQ(patch->triangles.size() / 3, 2 * patch->points.size() - boundary - 2) << what;
    }
  }
}

}  // namespace
}  // namespace xnt::gpu
