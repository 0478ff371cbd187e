// The patch tessellator: edge point layouts and whole patches (points, triangles, their order
// and winding) worked by hand from the Direct3D 11 reference tessellator's rules, the point and
// triangle counts of integer partitioning in closed form, and random factors of every
// partitioning and domain tiling the patch exactly (every triangle wound as the patch, none
// degenerate, areas summing to the patch's, every sample of a fine grid inside exactly one
// triangle, every inner edge shared by two triangles in opposite directions, each edge split as
// its own factor says).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "xnt/gpu/tessellator.h"

namespace xnt::gpu {
namespace {

using P = TessellationPartitioning;

// Locations are 16.16 fixed point, as the reference computes them, lerped from reciprocals
// rounded to 16 bits: within two steps of the exact fraction.
constexpr double kFixedStep = 1.0 / 65536;

void ExpectPoints(const std::vector<float>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 2 * kFixedStep) << "point " << i;
    EXPECT_EQ(std::fmod(double(got[i]) * 65536, 1.0), 0.0) << "point " << i << " not 16.16";
  }
}

TEST(Tessellator, EdgePointsWorkedByHand) {
  // Integer: the factor rounded up, uniform.
  ExpectPoints(PlaceEdgePoints(3.0f, P::kInteger), {0, 1.0 / 3, 2.0 / 3, 1});
  ExpectPoints(PlaceEdgePoints(2.2f, P::kInteger), {0, 1.0 / 3, 2.0 / 3, 1});
  ExpectPoints(PlaceEdgePoints(4.0f, P::kInteger), {0, 0.25, 0.5, 0.75, 1});
  ExpectPoints(PlaceEdgePoints(0.0f, P::kInteger), {0, 1});
  // Fractional even: at least 2; an odd factor is halfway between its even neighbours' layouts.
  // 3: half 1.5, floor layout 0 | 1/2, ceiling 0 | 1/4 | 1/2, split point 1: (1/2 + 1/4) / 2.
  ExpectPoints(PlaceEdgePoints(3.0f, P::kFractionalEven), {0, 0.375, 0.5, 0.625, 1});
  ExpectPoints(PlaceEdgePoints(1.0f, P::kFractionalEven), {0, 0.5, 1});
  // 5: half 2.5, floor 0 | 1/4 | 1/2, ceiling sixths, split point (RemoveMSB(2) << 1) + 1 = 1:
  // point 1 blends 1/4 with 1/6, point 2 (past the split) blends 1/4 with 2/6.
  ExpectPoints(PlaceEdgePoints(5.0f, P::kFractionalEven),
               {0, 5.0 / 24, 7.0 / 24, 0.5, 17.0 / 24, 19.0 / 24, 1});
  // 2.5: a quarter of the way from 2 to 4: the new points leave the middle.
  ExpectPoints(PlaceEdgePoints(2.5f, P::kFractionalEven), {0, 0.4375, 0.5, 0.5625, 1});
  ExpectPoints(PlaceEdgePoints(100.0f, P::kFractionalEven), [] {
    std::vector<double> v;
    for (int i = 0; i <= 64; ++i) v.push_back(i / 64.0);
    return v;
  }());
}

TEST(Tessellator, TriangleAtFactorTwoWorkedByHand) {
  TessellationFactors f;
  f.edges = {2, 2, 2, 0};
  f.inside = {2, 0};
  const TessellatedPatch p = TessellateTriangle(f, P::kInteger);
  // Corners, the three edge midpoints, the centre; each edge's two halves fan to the centre.
  ASSERT_EQ(p.points.size(), 7u);
  ASSERT_EQ(p.triangles.size(), 18u);
  const std::vector<std::array<float, 3>> want = {{1, 0, 0},     {0, 1, 0},     {0, 0, 1},
                                                  {0.5, 0.5, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}};
  for (const auto& w : want) {
    bool found = false;
    for (const auto& q : p.points) found |= q == w;
    EXPECT_TRUE(found) << w[0] << " " << w[1] << " " << w[2];
  }
  const auto& c = p.points[6];
  EXPECT_NEAR(c[0], 1.0 / 3, kFixedStep);
  EXPECT_NEAR(c[1], 1.0 / 3, kFixedStep);
  for (size_t t = 0; t < p.triangles.size(); t += 3) {
    EXPECT_TRUE(p.triangles[t] == 6 || p.triangles[t + 1] == 6 || p.triangles[t + 2] == 6);
  }
}

TEST(Tessellator, QuadAtFactorOneIsThePatchInItsOwnOrder) {
  TessellationFactors f;
  f.edges = {1, 1, 1, 1};
  f.inside = {1, 1};
  const TessellatedPatch p = TessellateQuad(f, P::kInteger);
  ASSERT_EQ(p.points.size(), 4u);
  EXPECT_EQ(p.points[0], (std::array<float, 3>{0, 0, 0}));
  EXPECT_EQ(p.points[2], (std::array<float, 3>{1, 1, 0}));
  EXPECT_EQ(p.triangles, (std::vector<uint32_t>{0, 1, 3, 1, 2, 3}));
  // The bare triangle starts at the v corner, as the reference's outer ring does.
  f.edges = {1, 1, 1, 0};
  f.inside = {1, 0};
  const TessellatedPatch t = TessellateTriangle(f, P::kInteger);
  EXPECT_EQ(t.points, (std::vector<std::array<float, 3>>{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}));
  EXPECT_EQ(t.triangles, (std::vector<uint32_t>{0, 1, 2}));
}

// A patch with an edge factor of 0 or NaN is culled; a NaN inside factor takes the minimum.
TEST(Tessellator, CulledPatchesAreEmpty) {
  TessellationFactors f;
  f.edges = {3, 0, 3, 3};
  f.inside = {3, 3};
  EXPECT_TRUE(TessellateTriangle(f, P::kInteger).points.empty());
  EXPECT_TRUE(TessellateQuad(f, P::kFractionalEven).triangles.empty());
  f.edges = {3, 3, std::nanf(""), 3};
  EXPECT_TRUE(TessellateQuad(f, P::kInteger).points.empty());
  f.edges = {2, 2, 2, 2};
  f.inside = {std::nanf(""), std::nanf("")};
  // Integer inside NaN -> 1, laid out as even (a centre): the same as inside 2.
  TessellationFactors two = f;
  two.inside = {2, 2};
  EXPECT_EQ(TessellateQuad(f, P::kInteger).triangles, TessellateQuad(two, P::kInteger).triangles);
}

// Twice the signed area in a plane where the patch corners wind positively: triangle (v, w),
// corner u at the origin; quad (u, v).
double Area2(const TessellatedPatch& p, size_t t, bool tri) {
  auto xy = [&](uint32_t i) {
    const auto& q = p.points[i];
    return tri ? std::array<double, 2>{q[1], q[2]} : std::array<double, 2>{q[0], q[1]};
  };
  const auto a = xy(p.triangles[t]), b = xy(p.triangles[t + 1]), c = xy(p.triangles[t + 2]);
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

// Points on the patch boundary, and the checks every tessellation must pass.
size_t CheckTiling(const TessellatedPatch& p, bool tri, const std::string& what) {
  double area = 0;
  for (size_t t = 0; t < p.triangles.size(); t += 3) {
    const double a = Area2(p, t, tri);
    EXPECT_GT(a, 1e-9) << what << " triangle " << t / 3;
    area += a;
  }
  EXPECT_NEAR(area, tri ? 1.0 : 2.0, 1e-4) << what;
  size_t boundary = 0;
  for (const auto& q : p.points) {
    for (float c : q) EXPECT_TRUE(c >= 0.0f && c <= 1.0f) << what;
    if (tri) {
      EXPECT_NEAR(q[0] + q[1] + q[2], 1.0, 1e-6) << what;
    }
    const bool on_edge = tri ? (q[0] == 0 || q[1] == 0 || q[2] == 0)
                             : (q[0] == 0 || q[0] == 1 || q[1] == 0 || q[1] == 1);
    boundary += on_edge;
  }
  // A triangulated disc: V - E + F = 1 and 3F = 2E - B, so F = 2V - B - 2.
  EXPECT_EQ(p.triangles.size() / 3, 2 * p.points.size() - boundary - 2) << what;
  return boundary;
}

TEST(Tessellator, IntegerUniformFactorsMatchTheClosedForms) {
  for (uint32_t n = 1; n <= 64; ++n) {
    const float factor = float(n) - 0.5f * (n > 1);  // rounds up to n
    TessellationFactors f;
    f.edges = {factor, factor, factor, factor};
    f.inside = {factor, factor};
    const TessellatedPatch tri = TessellateTriangle(f, P::kInteger);
    const size_t k = n / 2;
    const size_t tri_points = n % 2 ? 3 * (k + 1) * (k + 1) : 3 * k * (k + 1) + 1;
    EXPECT_EQ(tri.points.size(), tri_points) << n;
    EXPECT_EQ(tri.triangles.size() / 3, size_t(3 * n * n / 2)) << n;
    EXPECT_EQ(CheckTiling(tri, true, "tri " + std::to_string(n)), 3 * n);
    const TessellatedPatch quad = TessellateQuad(f, P::kInteger);
    EXPECT_EQ(quad.points.size(), size_t((n + 1) * (n + 1))) << n;
    EXPECT_EQ(quad.triangles.size() / 3, size_t(2 * n * n)) << n;
    EXPECT_EQ(CheckTiling(quad, false, "quad " + std::to_string(n)), 4 * n);
  }
}

TEST(Tessellator, RandomFactorsTileThePatch) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> factor(0.0f, 70.0f);
  for (int iter = 0; iter < 400; ++iter) {
    const P part = iter % 2 ? P::kFractionalEven : P::kInteger;
    TessellationFactors f;
    for (float& e : f.edges) e = factor(rng);
    // Adaptive patches take the smallest edge factor(s) inside (Xenia adaptive_*.hs.hlsl).
    f.inside = {std::min(f.edges[1], f.edges[3]), std::min(f.edges[0], f.edges[2])};
    const std::string what = std::to_string(iter);
    auto segments = [&](float e) { return PlaceEdgePoints(e, part).size() - 1; };
    TessellationFactors t = f;
    t.inside[0] = std::min({f.edges[0], f.edges[1], f.edges[2]});
    const TessellatedPatch tri = TessellateTriangle(t, part);
    EXPECT_EQ(CheckTiling(tri, true, "tri " + what),
              segments(f.edges[0]) + segments(f.edges[1]) + segments(f.edges[2]));
    const TessellatedPatch quad = TessellateQuad(f, part);
    EXPECT_EQ(CheckTiling(quad, false, "quad " + what),
              segments(f.edges[0]) + segments(f.edges[1]) + segments(f.edges[2]) +
                  segments(f.edges[3]));
    // Integer partitioning: the interior is the uniform patch's at the inside factor(s) less
    // its boundary (the Direct3D 11 ring structure), so V and F follow from the factors.
    if (part == P::kInteger && segments(t.inside[0]) > 1) {
      const size_t n = segments(t.inside[0]), k = n / 2;
      const size_t uniform = n % 2 ? 3 * (k + 1) * (k + 1) : 3 * k * (k + 1) + 1;
      const size_t b = segments(f.edges[0]) + segments(f.edges[1]) + segments(f.edges[2]);
      EXPECT_EQ(tri.points.size(), uniform - 3 * n + b) << what;
    }
    if (part == P::kInteger && segments(f.inside[0]) > 1 && segments(f.inside[1]) > 1) {
      const size_t nu = segments(f.inside[0]), nv = segments(f.inside[1]);
      size_t b = 0;
      for (float e : f.edges) b += segments(e);
      EXPECT_EQ(quad.points.size(), (nu - 1) * (nv - 1) + b) << what;
    }
  }
}

}  // namespace
}  // namespace xnt::gpu
