// The texture unit's coordinate -> texel rule (gpu/texel_coordinate.h), hand-worked at texel
// boundaries: the coordinate to fixed point with 8 bits below the texel, rounded to the nearest
// 1/256 (a half step up), then floored.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "xnt/gpu/texel_coordinate.h"

namespace xnt::gpu {
namespace {

TEST(TexelCoordinate, ExactBoundariesAndHalfSteps) {
  EXPECT_EQ(PointTexelIndex(2.0f), 2);
  EXPECT_EQ(PointTexelIndex(1.5f), 1);       // a texel centre
  EXPECT_EQ(PointTexelIndex(0.0f), 0);
  // One float ulp short of the boundary is 2^-22 texel: rounds onto it (floor would say 1).
  EXPECT_EQ(PointTexelIndex(std::nextafter(2.0f, 0.0f)), 2);
  EXPECT_EQ(std::floor(std::nextafter(2.0f, 0.0f)), 1.0f);
  // Exactly half a step (1/512 texel) short rounds up; a little more stays below.
  EXPECT_EQ(PointTexelIndex(2.0f - 1.0f / 512.0f), 2);
  EXPECT_EQ(PointTexelIndex(2.0f - 1.0f / 512.0f - 1.0f / 65536.0f), 1);
  EXPECT_EQ(PointTexelIndex(2.0f - 1.0f / 256.0f), 1);
  // Just above a boundary.
  EXPECT_EQ(PointTexelIndex(2.0f + 1.0f / 65536.0f), 2);
  EXPECT_EQ(PointTexelIndex(3.0f - 1.0f / 65536.0f), 3);
  EXPECT_EQ(TexelFixedPoint(2.0f - 1.0f / 512.0f), 512.0f);
  EXPECT_EQ(TexelFixedPoint(1.0f + 3.4f / 256.0f), 259.0f);
  EXPECT_EQ(TexelFixedPoint(1.0f + 3.5f / 256.0f), 260.0f);
}

TEST(TexelCoordinate, NegativeCoordinatesFloorTowardsMinusInfinity) {
  EXPECT_EQ(PointTexelIndex(-0.5f), -1);
  EXPECT_EQ(PointTexelIndex(-1.0f), -1);
  EXPECT_EQ(PointTexelIndex(std::nextafter(-1.0f, 0.0f)), -1);  // -255/256 after rounding
  EXPECT_EQ(PointTexelIndex(std::nextafter(-1.0f, -2.0f)), -1);
  EXPECT_EQ(PointTexelIndex(-1.0f - 1.0f / 256.0f), -2);
  // Half a step below zero rounds up to 0; a little further is texel -1.
  EXPECT_EQ(PointTexelIndex(-1.0f / 512.0f), 0);
  EXPECT_EQ(PointTexelIndex(-1.0f / 512.0f - 1.0f / 65536.0f), -1);
  EXPECT_EQ(TexelFixedPoint(-3.5f / 256.0f), -3.0f);
  EXPECT_EQ(TexelFixedPoint(-3.6f / 256.0f), -4.0f);
}

TEST(TexelCoordinate, NanAndHugeCoordinatesStayInRange) {
  EXPECT_EQ(PointTexelIndex(std::numeric_limits<float>::quiet_NaN()), 0);
  EXPECT_EQ(PointTexelIndex(std::numeric_limits<float>::infinity()), 1 << 30);
  EXPECT_EQ(PointTexelIndex(-std::numeric_limits<float>::infinity()), -(1 << 30));
  EXPECT_EQ(PointTexelIndex(1e20f), 1 << 30);
  // 2^23 texels: no fraction left, the index is the coordinate.
  EXPECT_EQ(PointTexelIndex(8388608.0f), 8388608);
}

// A 256-texel-wide texture magnified to 640 pixels with the quad's edges on pixel edges: pixel
// 5k + 2's centre is at texel 2k + 1 exactly. An interpolator (fixed-point barycentrics,
// perspective division) delivers it a few float ulps off either way; the rule names 2k + 1 for
// all of them, floor names 2k for those below.
TEST(TexelCoordinate, MagnifiedPixelCentresOnBoundariesNameTheTexelAfterThem) {
  for (uint32_t k = 0; k < 128; ++k) {
    const float u = (5.0f * float(k) + 2.5f) / 640.0f;
    float below = u, above = u;
    for (int ulp = 0; ulp < 4; ++ulp) {
      below = std::nextafter(below, 0.0f);
      above = std::nextafter(above, 1.0f);
      EXPECT_EQ(PointTexelIndex(below * 256.0f), int32_t(2 * k + 1)) << "k " << k;
      EXPECT_EQ(PointTexelIndex(above * 256.0f), int32_t(2 * k + 1)) << "k " << k;
      EXPECT_EQ(std::floor(below * 256.0f), float(2 * k)) << "k " << k;
    }
    EXPECT_EQ(PointTexelIndex(u * 256.0f), int32_t(2 * k + 1)) << "k " << k;
  }
}

// The inline fast path (|coordinate| below 2^22 steps) against the general rule: a spread of
// every sign and exponent (every 997th float bit pattern), every float around the 1/512 half
// steps of texels -3..3 and the floats at the fast path's edge (16384 texels) either side.
TEST(TexelCoordinate, FastPathNamesTheGeneralRulesTexel) {
  auto same = [](float f) {
    ASSERT_EQ(PointTexelIndex(f), PointTexelIndexGeneral(f)) << "coordinate " << f;
  };
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 997) same(std::bit_cast<float>(uint32_t(bits)));
  for (int32_t half_step = -3 * 512; half_step <= 3 * 512; ++half_step) {
    float below = float(half_step) / 512.0f, above = below;
    for (int ulp = 0; ulp < 64; ++ulp) {
      same(below), same(above);
      below = std::nextafter(below, -1e9f);
      above = std::nextafter(above, 1e9f);
    }
  }
  for (float edge : {16384.0f, -16384.0f}) {
    float below = edge, above = edge;
    for (int ulp = 0; ulp < 4096; ++ulp) {
      same(below), same(above);
      below = std::nextafter(below, 0.0f);
      above = std::nextafter(above, edge * 2.0f);
    }
  }
}

}  // namespace
}  // namespace xnt::gpu
