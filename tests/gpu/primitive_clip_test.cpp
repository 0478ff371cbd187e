// gpu/primitive_clip.h against hand-worked register values: the enabled planes compacted in
// index order, cull-only and kill rules from PA_CL_CLIP_CNTL, the rectangle's right-angle corner,
// and ps_ucp_mode's corner rule.
#include <gtest/gtest.h>

#include "hand_registers.h"
#include "xnt/gpu/primitive_clip.h"

namespace xnt::gpu {
namespace {

using test::HandRegisters;
using xenos::Reg;

void SetPlane(HandRegisters& r, uint32_t n, float x) {
  r.SetF(xenos::Reg(uint32_t(Reg::PA_CL_UCP_0_X) + 4 * n), x);
}

TEST(PrimitiveClip, PlanesCompactInIndexOrderAndTheModeBitsAreRead) {
  HandRegisters r;
  SetPlane(r, 1, 10.0f);
  SetPlane(r, 4, 40.0f);
  // ucp_ena 0b010010, ps_ucp_mode 3 (bits 15:14), ucp_cull_only_ena, vtx_kill_or.
  r.Set(Reg::PA_CL_CLIP_CNTL, 0x12u | 3u << 14 | 1u << 17 | 1u << 21);
  const PrimitiveClip clip = ReadPrimitiveClip(r.span(), true);
  ASSERT_EQ(clip.plane_count, 2u);
  EXPECT_EQ(clip.planes[0][0], 10.0f);
  EXPECT_EQ(clip.planes[1][0], 40.0f);
  EXPECT_TRUE(clip.planes_cull_only);
  EXPECT_EQ(clip.kill, VertexKillRule::kAny);
  EXPECT_EQ(clip.point_mode, 3u);
  // clip_disable turns the planes off, not the kill.
  r.Set(Reg::PA_CL_CLIP_CNTL, 0x12u | 1u << 16);
  const PrimitiveClip off = ReadPrimitiveClip(r.span(), true);
  EXPECT_EQ(off.plane_count, 0u);
  EXPECT_EQ(off.kill, VertexKillRule::kAll);
}

TEST(PrimitiveClip, RectangleRightAngleIsOppositeTheLongestEdgeInTheGuestOrder) {
  // The rectangle (0, 0) (8, 0) (8, 4) (0, 4) with one corner left out, corners in turn.
  const std::array<double, 2> tl{0, 0}, tr{8, 0}, br{8, 4}, bl{0, 4};
  const RectangleCorners first = RectangleRightAngle({tl, tr, bl});  // diagonal tr-bl: edge 1-2
  EXPECT_EQ(first.c, 0);
  EXPECT_EQ(first.a, 1);
  EXPECT_EQ(first.b, 2);
  const RectangleCorners middle = RectangleRightAngle({tl, tr, br});  // diagonal br-tl: edge 2-0
  EXPECT_EQ(middle.c, 1);
  EXPECT_EQ(middle.a, 2);
  EXPECT_EQ(middle.b, 0);
  const RectangleCorners last = RectangleRightAngle({tr, bl, br});  // diagonal tr-bl: edge 0-1
  EXPECT_EQ(last.c, 2);
  EXPECT_EQ(last.a, 0);
  EXPECT_EQ(last.b, 1);
}

// ps_ucp_mode: clipping planes are measured at the corners in modes 2 and 3, cull-only planes in
// mode 3 only; without planes nothing is.
TEST(PrimitiveClip, PointPlanesAtCornersByModeAndPlaneKind) {
  PrimitiveClip clip;
  clip.plane_count = 1;
  const bool clipping[4] = {false, false, true, true}, cull_only[4] = {false, false, false, true};
  for (uint32_t mode = 0; mode < 4; ++mode) {
    clip.point_mode = mode;
    clip.planes_cull_only = false;
    EXPECT_EQ(PointPlanesAtCorners(clip), clipping[mode]) << mode;
    clip.planes_cull_only = true;
    EXPECT_EQ(PointPlanesAtCorners(clip), cull_only[mode]) << mode;
  }
  clip.plane_count = 0;
  EXPECT_FALSE(PointPlanesAtCorners(clip));
}

// A corner's distance by hand: plane (0.5, -2, 3, 1), centre distance 4; a sprite 8 x 6 guest
// pixels at W 2 under a viewport scale of (320, -240) is offset +-8 * 0.5 * 2 / 320 = +-0.025 in
// x and +-6 * 0.5 * 2 / -240 = -+0.025 in y; the bottom-right corner (+x, +y on screen) is
// 4 + 0.5 * 0.025 - 2 * -0.025 = 4.0625.
TEST(PrimitiveClip, PointCornerDistanceIsTheCentresPlusThePlaneAlongTheOffset) {
  PrimitiveClip clip;
  clip.plane_count = 1;
  clip.planes[0] = {0.5f, -2.0f, 3.0f, 1.0f};
  const double dx = PointCornerOffset(1.0, 8.0, 2.0, 320.0);
  const double dy = PointCornerOffset(1.0, 6.0, 2.0, -240.0);
  EXPECT_DOUBLE_EQ(dx, 0.025);
  EXPECT_DOUBLE_EQ(dy, -0.025);
  EXPECT_DOUBLE_EQ(PointCornerDistance(clip, 0, 4.0, dx, dy), 4.0625);
  EXPECT_DOUBLE_EQ(PointCornerOffset(-1.0, 8.0, 2.0, 0.0), 0.0);  // no scale: no extent
}

}  // namespace
}  // namespace xnt::gpu
