// gpu/polygon_mode.h against hand-worked values: which fill each face gets from
// PA_SU_SC_MODE_CNTL, the facing determinant (hand-worked triangles, a vertex behind the eye,
// and random triangles against the projected screen area), and polygon offset turned off.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "hand_registers.h"
#include "xnt/gpu/polygon_mode.h"
#include "xnt/gpu/polygon_offset.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {
namespace {

using xenos::Reg;

constexpr uint32_t kCullFront = 1u << 0, kCullBack = 1u << 1, kDual = 1u << 3;
constexpr uint32_t Front(uint32_t t) { return t << 5; }
constexpr uint32_t Back(uint32_t t) { return t << 8; }

PolygonModes Modes(uint32_t mode_cntl) {
  test::HandRegisters r;
  r.Set(Reg::PA_SU_SC_MODE_CNTL, mode_cntl);
  return ReadPolygonModes(r.span());
}

TEST(PolygonMode, DualModeTakesEachFaceType) {
  const PolygonModes m = Modes(kDual | Front(1) | Back(0));
  EXPECT_EQ(m.front, PolygonFill::kLines);
  EXPECT_EQ(m.back, PolygonFill::kPoints);
  EXPECT_TRUE(m.Active());
  // face = 0: counter-clockwise is front.
  EXPECT_EQ(m.For(false, false), PolygonFill::kLines);
  EXPECT_EQ(m.For(true, false), PolygonFill::kPoints);
  // face = 1: clockwise is front.
  EXPECT_EQ(m.For(true, true), PolygonFill::kLines);
  EXPECT_EQ(m.For(false, true), PolygonFill::kPoints);
}

TEST(PolygonMode, OnlyPolyMode1TurnsTheModesOn) {
  // poly_mode 0 and 2 (a title's "filled" value) fill whatever the types say.
  for (uint32_t poly_mode : {0u, 2u, 3u}) {
    const PolygonModes m = Modes((poly_mode << 3) | Front(0) | Back(1));
    EXPECT_EQ(m.front, PolygonFill::kTriangles) << poly_mode;
    EXPECT_EQ(m.back, PolygonFill::kTriangles) << poly_mode;
    EXPECT_FALSE(m.Active());
  }
  // Types 2..7: filled.
  for (uint32_t t = 2; t < 8; ++t) EXPECT_FALSE(Modes(kDual | Front(t) | Back(t)).Active()) << t;
}

TEST(PolygonMode, CulledFacesDrawNothingAndDoNotCount) {
  const PolygonModes m = Modes(kDual | kCullBack | Front(2) | Back(1));
  EXPECT_EQ(m.front, PolygonFill::kTriangles);
  EXPECT_EQ(m.back, PolygonFill::kNothing);
  // The only face drawn as lines is culled: nothing special is drawn.
  EXPECT_FALSE(m.Active());
  EXPECT_EQ(Modes(kDual | kCullFront | kCullBack | Front(0) | Back(0)).front, PolygonFill::kNothing);
}

TEST(PolygonMode, FacingFromTheClipSpaceDeterminant) {
  // Screen (y down), w = 1: right then down is clockwise.
  const double a[3] = {0, 0, 1}, b[3] = {10, 0, 1}, c[3] = {10, 10, 1};
  EXPECT_EQ(TriangleClockwise(a, b, c), 1);
  EXPECT_EQ(TriangleClockwise(a, c, b), -1);
  // Scaling a vertex's whole position by w > 0 projects to the same point.
  const double b4[3] = {40, 0, 4};
  EXPECT_EQ(TriangleClockwise(a, b4, c), 1);
  // Collinear: no area.
  const double d[3] = {20, 20, 1};
  EXPECT_EQ(TriangleClockwise(a, c, d), 0);
  // A vertex behind the eye: -(10, 0, 1), which projects to (10, 0) too. The visible part
  // (w > 0) runs from (0, 0) and (10, 10) off to infinity towards -x, so a, b, c go a ->
  // (-inf, 0) -> c: counter-clockwise, although the three projected points are clockwise.
  // det [[0,0,1],[-10,0,-1],[10,10,1]] = 1 * (-10 * 10 - 10 * 0) = -100.
  const double behind[3] = {-10, 0, -1};
  EXPECT_EQ(TriangleClockwise(a, behind, c), -1);
}

TEST(PolygonMode, RandomTrianglesInFrontOfTheEyeTakeTheScreenAreaSign) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> xy(-1000.0, 1000.0), w(0.01, 8.0);
  int checked = 0;
  for (int i = 0; i < 20000; ++i) {
    double v[3][3], s[3][2];
    for (int k = 0; k < 3; ++k) {
      s[k][0] = std::round(xy(rng));
      s[k][1] = std::round(xy(rng));
      const double wk = std::ldexp(std::round(w(rng) * 64), -6);  // exact products
      v[k][0] = s[k][0] * wk, v[k][1] = s[k][1] * wk, v[k][2] = wk;
    }
    const double area =
        (s[1][0] - s[0][0]) * (s[2][1] - s[0][1]) - (s[1][1] - s[0][1]) * (s[2][0] - s[0][0]);
    const int expected = area > 0 ? 1 : area < 0 ? -1 : 0;
    ASSERT_EQ(TriangleClockwise(v[0], v[1], v[2]), expected) << i;
    checked += expected != 0;
  }
  EXPECT_GT(checked, 19000);
}

TEST(PolygonMode, PolygonOffsetIsOffWhenAFaceIsPointsOrLines) {
  test::HandRegisters r;
  r.Set(Reg::PA_SU_SC_MODE_CNTL, kDual | Front(1) | Back(2) | (1u << 11) | (1u << 12));
  r.SetF(Reg::PA_SU_POLY_OFFSET_FRONT_OFFSET, 1.0f / 64);
  r.SetF(Reg::PA_SU_POLY_OFFSET_BACK_OFFSET, 1.0f / 64);
  const PolygonOffsets o = ReadPolygonOffsets(r.span(), true);
  EXPECT_FALSE(o.front.enabled);
  EXPECT_FALSE(o.back.enabled);
  EXPECT_NE(std::string(PolygonModeOffsetNote(r.span())), "");
  // Both faces filled: the offsets as ever, no note.
  r.Set(Reg::PA_SU_SC_MODE_CNTL, kDual | Front(2) | Back(2) | (1u << 11) | (1u << 12));
  EXPECT_TRUE(ReadPolygonOffsets(r.span(), true).front.enabled);
  EXPECT_EQ(std::string(PolygonModeOffsetNote(r.span())), "");
}

}  // namespace
}  // namespace xnt::gpu
