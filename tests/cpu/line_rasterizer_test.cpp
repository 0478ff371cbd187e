// The cpu path's line rasterizer, clipper and triangle polygon offset against hand-worked values
// (geometry.h). Screen positions are given directly (w = 1), so pixel (x, y) samples x + 0.5,
// y + 0.5.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "geometry.h"
#include "xnt/xenos/enums.h"

namespace xnt::cpu {
namespace {

ClipVertex V(double x, double y, double z, float attr = 0.0f) {
  ClipVertex v;
  v.pos = {x, y, z, 1.0};
  v.depth_distance = {z, 1.0 - z};  // Direct3D clip space, depth range 0..1
  v.interpolators[0] = {attr, 0.0f, 0.0f, 0.0f};
  return v;
}

RasterState State() {
  RasterState s;
  s.x0 = 0, s.y0 = 0, s.x1 = 64, s.y1 = 64;
  s.interpolator_count = 1;
  return s;
}

std::vector<Fragment> Raster(const Line& l, const RasterState& s = State()) {
  std::vector<Fragment> out;
  RasterizeLine(l, s, [&](const Fragment& f) { out.push_back(f); });
  return out;
}

TEST(LineRasterizer, HorizontalLineIsOneRowBetweenItsEnds) {
  // Rectangle [1.25, 5.25] x [1.75, 2.75]: centres x + 0.5 for x = 1..4, row 2 only.
  const auto f = Raster({V(1.25, 2.25, 0.2, 0.0f), V(5.25, 2.25, 0.6, 4.0f)});
  ASSERT_EQ(f.size(), 4u);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(f[i].x, i + 1);
    EXPECT_EQ(f[i].y, 2u);
    EXPECT_TRUE(f[i].front_facing);
    // t = (x + 0.5 - 1.25) / 4: depth 0.2 + 0.4 t, attribute 4 t = x - 0.75.
    const double t = (i + 1 + 0.5 - 1.25) / 4.0;
    EXPECT_FLOAT_EQ(f[i].depth[0], float(0.2 + 0.4 * t));
    EXPECT_FLOAT_EQ(f[i].interpolators[0][0], float(i + 1) - 0.75f);
  }
}

TEST(LineRasterizer, WideLineIsARectangleOfItsWidth) {
  // PA_SU_LINE_CNTL width 4 (half width 32 in 12.4): rectangle [1.25, 5.25] x [0.25, 4.25]
  // around y = 2.25: rows 0..3 (centres 0.5 .. 3.5), columns 1..4.
  RasterState s = State();
  s.line_width = 4.0f;
  const auto f = Raster({V(1.25, 2.25, 0.5), V(5.25, 2.25, 0.5)}, s);
  ASSERT_EQ(f.size(), 16u);
  EXPECT_EQ(f.front().x, 1u);
  EXPECT_EQ(f.front().y, 0u);
  EXPECT_EQ(f.back().x, 4u);
  EXPECT_EQ(f.back().y, 3u);
  // Vertical, width 3: rectangle [1.75, 4.75] around x = 3.25: columns 2..4.
  s.line_width = 3.0f;
  const auto v = Raster({V(3.25, 0.75, 0.5), V(3.25, 2.75, 0.5)}, s);
  ASSERT_EQ(v.size(), 6u);
  EXPECT_EQ(v.front().x, 2u);
  EXPECT_EQ(v.back().x, 4u);
}

TEST(LineRasterizer, QuadsEmitHelpersWithTheAttributeAlongTheLine) {
  // Row 2 from x = 1.25 to 5.25 in quads: quads (0..1, 2..3) .. (4..5, 2..3), 12 fragments, the
  // covered ones (x 1..4, y 2) not helpers. Every helper has the attribute t * 4 continued:
  // x - 0.75 whatever its row (nothing changes across the line).
  RasterState s = State();
  s.quads = true;
  const auto f = Raster({V(1.25, 2.25, 0.5, 0.0f), V(5.25, 2.25, 0.5, 4.0f)}, s);
  ASSERT_EQ(f.size(), 12u);
  uint32_t covered = 0;
  for (const Fragment& q : f) {
    covered += !q.helper;
    EXPECT_EQ(q.helper, !(q.y == 2 && q.x >= 1 && q.x <= 4)) << q.x << "," << q.y;
    EXPECT_FLOAT_EQ(q.interpolators[0][0], float(q.x) - 0.75f);
  }
  EXPECT_EQ(covered, 4u);
}

TEST(LineRasterizer, DirectionDoesNotChangeCoverage) {
  const auto a = Raster({V(1.25, 2.25, 0.5), V(5.25, 2.25, 0.5)});
  const auto b = Raster({V(5.25, 2.25, 0.5), V(1.25, 2.25, 0.5)});
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].x, b[i].x);
}

TEST(LineRasterizer, VerticalAndDiagonal) {
  // Vertical x = 3.25 (rectangle [2.75, 3.75]): column 3, y = 1..5 from 0.75 to 5.75.
  const auto v = Raster({V(3.25, 0.75, 0.5), V(3.25, 5.75, 0.5)});
  ASSERT_EQ(v.size(), 5u);
  for (uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(v[i].x, 3u);
    EXPECT_EQ(v[i].y, i + 1);
  }
  // 45 degrees from (0.25, 0.25) to (4.25, 4.25): off-diagonal centres are 0.707 away (> 0.5);
  // diagonal ones at along = (2i + 0.5) / sqrt(2) < 4 sqrt(2) for i = 0..3.
  const auto d = Raster({V(0.25, 0.25, 0.5), V(4.25, 4.25, 0.5)});
  ASSERT_EQ(d.size(), 4u);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(d[i].x, i);
    EXPECT_EQ(d[i].y, i);
  }
}

TEST(LineRasterizer, TopLeftRuleOnTheRectangleSides) {
  // y = 3.0 puts the sides at 2.5 and 3.5, exactly on the centres of rows 2 and 3: the top side
  // (interior below) keeps the centres on it, the bottom side does not, so only row 2 is drawn
  // (x = 1, 2: centres 1.5 and 2.5 lie in [1.25, 3.25]).
  const auto f = Raster({V(1.25, 3.0, 0.5), V(3.25, 3.0, 0.5)});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].x, 1u);
  EXPECT_EQ(f[1].x, 2u);
  EXPECT_EQ(f[0].y, 2u);
  EXPECT_EQ(f[1].y, 2u);
}

TEST(LineRasterizer, ZeroLengthDrawsNothing) {
  EXPECT_TRUE(Raster({V(2.0, 2.0, 0.5), V(2.0, 2.0, 0.5)}).empty());
}

TEST(LineRasterizer, ScaledLineIsTheGuestRectangleInHostPixels) {
  // Guest (1.25, 2.25) -> (5.25, 2.25), 1 wide, at 1x3: host y = 3 * 2.25 = 6.75, the guest
  // rectangle's rows [1.75, 2.75] are host [5.25, 8.25]: rows 5, 6, 7, columns 1..4.
  RasterState s = State();
  s.scale = {1, 3};
  const auto f = Raster({V(1.25, 6.75, 0.5, 0.0f), V(5.25, 6.75, 0.5, 4.0f)}, s);
  ASSERT_EQ(f.size(), 12u);
  EXPECT_EQ(f.front().y, 5u);
  EXPECT_EQ(f.back().y, 7u);
  // Attributes follow the guest t = (x + 0.5 - 1.25) / 4 on every row.
  for (const Fragment& g : f) EXPECT_FLOAT_EQ(g.interpolators[0][0], float(g.x) - 0.75f);
}

TEST(LineRasterizer, DiagonalAtANonSquareScaleIsAParallelogram) {
  // Guest (2.25, 2.25) -> (10.25, 10.25), 2 wide, at 3x1: each host pixel's centre, mapped back
  // to guest pixels ((x + 0.5) / 3, y + 0.5), is covered when it is within 1 guest pixel of the
  // segment across it and between its ends along it (the guest rectangle); the host-rectangle
  // rule (perpendicular to the host segment (24, 8)) would cover other pixels. The attribute is
  // the guest projection t * 8. Centres within 1/32 guest pixel of a side are not asserted.
  RasterState s = State();
  s.x1 = 64;
  s.line_width = 2.0f;
  s.scale = {3, 1};
  std::vector<int> covered(64 * 64, 0);
  for (const Fragment& g : Raster({V(6.75, 2.25, 0.5, 0.0f), V(30.75, 10.25, 0.5, 8.0f)}, s)) {
    covered[g.y * 64 + g.x] = 1;
    const double gx = (g.x + 0.5) / 3.0, gy = g.y + 0.5;
    const double t = ((gx - 2.25) + (gy - 2.25)) / 16.0;
    EXPECT_NEAR(g.interpolators[0][0], 8.0 * t, 1e-4) << g.x << "," << g.y;
  }
  int checked = 0, host_rule_differs = 0;
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) {
      const double gx = (x + 0.5) / 3.0, gy = y + 0.5;
      const double along = ((gx - 2.25) + (gy - 2.25)) / std::sqrt(2.0);
      const double across = std::fabs((gy - 2.25) - (gx - 2.25)) / std::sqrt(2.0);
      const double len = 8.0 * std::sqrt(2.0);
      if (std::fabs(across - 1.0) < 1.0 / 32 || std::fabs(along) < 1.0 / 32 ||
          std::fabs(along - len) < 1.0 / 32) {
        continue;
      }
      const int want = across < 1.0 && along > 0.0 && along < len;
      EXPECT_EQ(covered[y * 64 + x], want) << x << "," << y;
      ++checked;
      // The host rectangle: 2 host pixels wide around the host segment (24, 8).
      const double hx = x + 0.5 - 6.75, hy = y + 0.5 - 2.25, hlen = std::sqrt(640.0);
      const double h_along = (hx * 24 + hy * 8) / hlen, h_across = std::fabs(hy * 24 - hx * 8) / hlen;
      host_rule_differs += want != int(h_across < 1.0 && h_along > 0.0 && h_along < hlen);
    }
  }
  EXPECT_GT(checked, 4000);
  EXPECT_GE(host_rule_differs, 10);  // 20 pixels here: the scene tells the two rules apart
}

TEST(LineClipper, NearPlaneCutsAtZZero) {
  Line l;
  // z from -1 to 1 (w = 1): z >= 0 from t = 0.5; the attribute is halved there.
  ASSERT_TRUE(ClipLine(V(0.0, 0.0, -1.0, 0.0f), V(8.0, 0.0, 1.0, 10.0f), l));
  EXPECT_DOUBLE_EQ(l.a.pos[0], 4.0);
  EXPECT_DOUBLE_EQ(l.a.pos[2], 0.0);
  EXPECT_FLOAT_EQ(l.a.interpolators[0][0], 5.0f);
  EXPECT_DOUBLE_EQ(l.b.pos[0], 8.0);
  // Wholly beyond the far plane (z > w).
  EXPECT_FALSE(ClipLine(V(0.0, 0.0, 1.5), V(8.0, 0.0, 2.0), l));
}

TEST(TrianglePolygonOffset, SlopeAndConstantFromTheFaceRegisters) {
  // Depth plane z = 0.5 + x / 256 (counter-clockwise on screen: front-facing with face = 0).
  const ClipVertex a = V(0, 0, 0.5), b = V(0, 16, 0.5), c = V(16, 0, 0.5 + 16.0 / 256);
  RasterState s = State();
  s.depth_format = uint32_t(xenos::DepthRenderTargetFormat::kD24S8);
  // SCALE 16 -> 16/16 * 1/256; OFFSET 1/64. The back registers must not be used.
  s.polygon_offset.front = {true, 16.0f, 1.0f / 64};
  s.polygon_offset.back = {true, -1000.0f, -0.5f};
  float depth = -1.0f;
  RasterizeTriangle(a, b, c, s, [&](const Fragment& f) {
    if (f.x == 1 && f.y == 1) depth = f.depth[0];
  });
  EXPECT_FLOAT_EQ(depth, float(0.5 + 1.5 / 256 + 1.0 / 256 + 1.0 / 64));
  // The same triangle wound the other way is back-facing: the back registers apply (clamped
  // to 0 here: 0.5 + ... - 1000/16/256 - 0.5 < 0).
  RasterizeTriangle(a, c, b, s, [&](const Fragment& f) {
    if (f.x == 1 && f.y == 1) depth = f.depth[0];
  });
  EXPECT_EQ(depth, 0.0f);
}

TEST(TrianglePolygonOffset, SlopePerGuestPixelAtAScale) {
  // At 3x1 the host draws the guest plane z = 0.5 + x_guest / 256 stretched along x: in host
  // pixels z = 0.5 + x / 768, and the host's own slope is 1/768. Per guest pixel
  // (slope_scale_x = 3, as gpu::ScaledDerivatives::kGuest sets it) the offset's slope is the
  // guest's 1/256 again; per host pixel (slope_scale 1) it is a third of that.
  const ClipVertex a = V(0, 0, 0.5), b = V(0, 16, 0.5), c = V(48, 0, 0.5 + 16.0 / 256);
  RasterState s = State();
  s.depth_format = uint32_t(xenos::DepthRenderTargetFormat::kD24S8);
  s.polygon_offset.front = {true, 16.0f, 0.0f};  // SCALE 16: the slope itself
  auto depth_at = [&](double slope_scale_x) {
    s.slope_scale_x = slope_scale_x;
    float depth = -1.0f;
    RasterizeTriangle(a, b, c, s, [&](const Fragment& f) {
      if (f.x == 3 && f.y == 1) depth = f.depth[0];
    });
    return depth;
  };
  // Host pixel (3, 1): centre x = 3.5, plane 0.5 + 3.5 / 768.
  EXPECT_FLOAT_EQ(depth_at(3.0), float(0.5 + 3.5 / 768 + 1.0 / 256));
  EXPECT_FLOAT_EQ(depth_at(1.0), float(0.5 + 3.5 / 768 + 1.0 / 768));
}

}  // namespace
}  // namespace xnt::cpu
