// Centroid interpolation on the cpu path's triangle rasterizer against hand-worked positions: one
// edge through pixel (10, 10) at a chosen fraction leaves a known set of samples covered, and an
// interpolator in RasterState::centroid_mask takes the attribute at the lowest covered sample
// (gpu::CentroidSample), the others at the pixel centre. The attribute is a = x + 4 y on screen
// (w = 1), so the value names the position it was taken at.
#include <gtest/gtest.h>

#include <vector>

#include "geometry.h"

namespace xnt::cpu {
namespace {

struct Case {
  const char* what;
  double ax, ay, bx, by, cx, cy;  // the triangle (screen pixels)
  uint32_t coverage;              // pixel (10, 10)'s covered samples, worked out by hand
  double px, py;                  // where the centroid interpolator is taken
};

ClipVertex V(double x, double y) {
  ClipVertex v;
  v.pos = {x, y, 0.5, 1.0};
  const float a = float(x + 4.0 * y);
  v.interpolators[0] = {a, 0.0f, 0.0f, 0.0f};
  v.interpolators[1] = {a, 0.0f, 0.0f, 0.0f};
  return v;
}

void Check(const Case& c, uint32_t samples) {
  for (bool quads : {false, true}) {
    RasterState s;
    s.x0 = 0, s.y0 = 0, s.x1 = 64, s.y1 = 64;
    s.interpolator_count = 2;
    s.samples = samples;
    s.centroid_mask = 1u;  // interpolator 0 at the centroid, 1 at the centre
    s.quads = quads;
    bool found = false;
    RasterizeTriangle(V(c.ax, c.ay), V(c.bx, c.by), V(c.cx, c.cy), s, [&](const Fragment& f) {
      if (f.x != 10 || f.y != 10) return;
      found = true;
      EXPECT_EQ(f.coverage, c.coverage) << c.what;
      EXPECT_FLOAT_EQ(f.interpolators[0][0], float(c.px + 4.0 * c.py)) << c.what;
      EXPECT_FLOAT_EQ(f.interpolators[1][0], float(10.5 + 4.0 * 10.5)) << c.what;
    });
    EXPECT_TRUE(found) << c.what;
  }
}

// 4x positions (1/8 pixel): s0 (3, 1), s1 (7, 3), s2 (1, 5), s3 (5, 7).
TEST(CpuCentroid, FourSamplesEveryEdgeFraction) {
  const Case cases[] = {
      // Right edges (inside: x < 10 + f).
      {"right 1/4", 10.25, -100, 10.25, 100, -100, 0, 0b0100, 10.125, 10.625},
      {"right 1/2", 10.5, -100, 10.5, 100, -100, 0, 0b0101, 10.375, 10.125},
      {"right 3/4", 10.75, -100, 10.75, 100, -100, 0, 0b1101, 10.375, 10.125},
      {"right 15/16 (all)", 10.9375, -100, 10.9375, 100, -100, 0, 0b1111, 10.5, 10.5},
      // Left edges (inside: x > 10 + f).
      {"left 1/4", 10.25, 100, 10.25, -100, 200, 0, 0b1011, 10.375, 10.125},
      {"left 1/2", 10.5, 100, 10.5, -100, 200, 0, 0b1010, 10.875, 10.375},
      {"left 3/4", 10.75, 100, 10.75, -100, 200, 0, 0b0010, 10.875, 10.375},
      // Bottom edges (inside: y < 10 + f).
      {"bottom 1/4", -100, 10.25, 200, 10.25, 50, -200, 0b0001, 10.375, 10.125},
      {"bottom 1/2", -100, 10.5, 200, 10.5, 50, -200, 0b0011, 10.375, 10.125},
      {"bottom 3/4", -100, 10.75, 200, 10.75, 50, -200, 0b0111, 10.375, 10.125},
      // Top edges (inside: y > 10 + f).
      {"top 1/4", 200, 10.25, -100, 10.25, 50, 200, 0b1110, 10.875, 10.375},
      {"top 1/2", 200, 10.5, -100, 10.5, 50, 200, 0b1100, 10.125, 10.625},
      {"top 3/4", 200, 10.75, -100, 10.75, 50, 200, 0b1000, 10.625, 10.875},
  };
  for (const Case& c : cases) Check(c, 4);
}

// 2x positions: s0 (1/4, 1/4), s1 (3/4, 3/4).
TEST(CpuCentroid, TwoSamplesEveryMask) {
  const Case cases[] = {
      {"right 1/2", 10.5, -100, 10.5, 100, -100, 0, 0b01, 10.25, 10.25},
      {"left 1/2", 10.5, 100, 10.5, -100, 200, 0, 0b10, 10.75, 10.75},
      {"right 7/8 (both)", 10.875, -100, 10.875, 100, -100, 0, 0b11, 10.5, 10.5},
  };
  for (const Case& c : cases) Check(c, 2);
}

}  // namespace
}  // namespace xnt::cpu
