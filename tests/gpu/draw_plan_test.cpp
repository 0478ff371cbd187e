// The draw plan (gpu/draw_plan.h) with values worked by hand: registers in, the skip reasons that
// hold, the targets used, the sample count and the scissor in guest and host pixels out.
#include <gtest/gtest.h>

#include <vector>

#include "xnt/gpu/draw_plan.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {
namespace {

using xenos::ColorRenderTargetFormat;
using xenos::DepthRenderTargetFormat;
using xenos::ModeControl;
using xenos::PrimitiveType;
using xenos::Reg;

struct Regs {
  std::vector<uint32_t> values = std::vector<uint32_t>(xenos::kRegisterCount, 0);
  void Set(Reg r, uint32_t v) { values[xenos::RegIndex(r)] = v; }
  Regs() {
    Set(Reg::RB_MODECONTROL, uint32_t(ModeControl::kColorDepth));
    Set(Reg::RB_SURFACE_INFO, 1280);
    Set(Reg::RB_COLOR_MASK, 0xFFFF);
    Set(Reg::PA_SC_WINDOW_SCISSOR_BR, 8192 | (8192u << 16));
    Set(Reg::PA_SC_SCREEN_SCISSOR_BR, 8192 | (8192u << 16));
  }
};

constexpr DrawShaders kWritesOc0{true, 0b0001, false};

TEST(DrawPlan, TargetsAreThoseThePixelShaderWritesAndTheMaskLetsThrough) {
  Regs r;
  r.Set(Reg::RB_SURFACE_INFO, xenos::reg::RB_SURFACE_INFO{1280, xenos::MsaaSamples(2), 0}.Encode());
  r.Set(Reg::RB_COLOR_INFO,
        xenos::reg::RB_COLOR_INFO{0, 0, ColorRenderTargetFormat::k_8_8_8_8, 0}.Encode());
  r.Set(Reg::RB_COLOR1_INFO,
        xenos::reg::RB_COLOR_INFO{300, 0, ColorRenderTargetFormat::k_16_16_FLOAT, 0}.Encode());
  r.Set(Reg::RB_COLOR2_INFO,
        xenos::reg::RB_COLOR_INFO{500, 0, ColorRenderTargetFormat::k_8_8_8_8, 0}.Encode());
  // Four bits per target: RT0 RGBA, RT1 nothing, RT2 alpha only, RT3 nothing.
  r.Set(Reg::RB_COLOR_MASK, 0x080F);
  r.Set(Reg::RB_DEPTHCONTROL, 1u << 1);  // z_enable
  r.Set(Reg::RB_DEPTH_INFO,
        xenos::reg::RB_DEPTH_INFO{600, 0, DepthRenderTargetFormat::kD24FS8}.Encode());
  // The shader writes oC0, oC1 and oC2.
  const DrawPlan plan =
      PlanDraw(r.values, PrimitiveType::kTriangleList, {true, 0b0111, false}, {2, 2});
  EXPECT_EQ(plan.skips, 0u);
  EXPECT_FALSE(plan.resolve);
  EXPECT_EQ(plan.surface_pitch, 1280u);
  EXPECT_EQ(plan.msaa_samples, 2u);
  EXPECT_EQ(plan.samples, 4u);
  EXPECT_TRUE(plan.color[0].used);
  EXPECT_EQ(plan.color[0].base_tiles, 0u);
  EXPECT_FALSE(plan.color[1].used);  // written, masked off
  EXPECT_TRUE(plan.color[2].used);
  EXPECT_EQ(plan.color[2].base_tiles, 500u);
  EXPECT_EQ(plan.color[2].format, uint32_t(ColorRenderTargetFormat::k_8_8_8_8));
  EXPECT_FALSE(plan.color[3].used);
  EXPECT_TRUE(plan.color_used[0] && !plan.color_used[1] && plan.color_used[2]);
  EXPECT_TRUE(plan.depth.used);
  EXPECT_EQ(plan.depth.base_tiles, 600u);
  EXPECT_EQ(plan.depth.format, uint32_t(DepthRenderTargetFormat::kD24FS8));
  EXPECT_FALSE(plan.no_target);
  EXPECT_FALSE(plan.exports_only);
}

TEST(DrawPlan, DepthModeRunsNoPixelShader) {
  Regs r;
  r.Set(Reg::RB_MODECONTROL, uint32_t(ModeControl::kDepth));
  // oC0 written and unmasked, but kDepth writes no colour: nothing is used.
  DrawPlan plan = PlanDraw(r.values, PrimitiveType::kTriangleList, kWritesOc0, {1, 1});
  EXPECT_FALSE(plan.color[0].used);
  EXPECT_TRUE(plan.Holds(DrawSkip::kNoTarget));
  EXPECT_EQ(DrawSkipNote(DrawSkip::kNoTarget, plan),
            "draw with no colour target written and no depth/stencil test skipped");
  // A stencil test alone uses the depth surface.
  r.Set(Reg::RB_DEPTHCONTROL, 1u);
  plan = PlanDraw(r.values, PrimitiveType::kTriangleList, kWritesOc0, {1, 1});
  EXPECT_TRUE(plan.depth.used);
  EXPECT_EQ(plan.skips, 0u);
}

TEST(DrawPlan, MemoryExportsKeepADrawWithoutTargetsInColourDepthModeOnly) {
  Regs r;
  r.Set(Reg::RB_COLOR_MASK, 0);  // every colour write masked, no depth test
  const DrawShaders exports{true, 0b0001, true};
  DrawPlan plan = PlanDraw(r.values, PrimitiveType::kPointList, exports, {1, 1});
  EXPECT_TRUE(plan.no_target);
  EXPECT_TRUE(plan.exports_only);
  EXPECT_FALSE(plan.Holds(DrawSkip::kNoTarget));
  r.Set(Reg::RB_MODECONTROL, uint32_t(ModeControl::kDepth));
  plan = PlanDraw(r.values, PrimitiveType::kPointList, exports, {1, 1});
  EXPECT_FALSE(plan.exports_only);
  EXPECT_TRUE(plan.Holds(DrawSkip::kNoTarget));
}

TEST(DrawPlan, EveryRegisterCheckIsRecordedAndAskedInThePathsOrder) {
  Regs r;
  r.Set(Reg::RB_MODECONTROL, uint32_t(ModeControl::kCopy));
  DrawPlan plan = PlanDraw(r.values, PrimitiveType::kTriangleList, kWritesOc0, {1, 1});
  EXPECT_TRUE(plan.resolve);
  r.Set(Reg::RB_MODECONTROL, 0);
  plan = PlanDraw(r.values, PrimitiveType::kTriangleList, kWritesOc0, {1, 1});
  EXPECT_FALSE(plan.resolve);
  EXPECT_EQ(plan.FirstSkip({DrawSkip::kEdramMode}), DrawSkip::kEdramMode);
  EXPECT_EQ(DrawSkipNote(DrawSkip::kEdramMode, plan),
            "draw with RB_MODECONTROL edram_mode 0 (not colour/depth) skipped");

  // A tessellation patch type (0x11) and a pitch of 0 both hold; each path asks in its order.
  r.Set(Reg::RB_MODECONTROL, uint32_t(ModeControl::kColorDepth));
  r.Set(Reg::RB_SURFACE_INFO, 0);
  plan = PlanDraw(r.values, PrimitiveType(0x11), kWritesOc0, {1, 1});
  EXPECT_TRUE(plan.Holds(DrawSkip::kPrimitiveType));
  EXPECT_TRUE(plan.Holds(DrawSkip::kSurfacePitch));
  EXPECT_FALSE(plan.Holds(DrawSkip::kEdramMode));
  EXPECT_EQ(plan.FirstSkip({DrawSkip::kEdramMode, DrawSkip::kPrimitiveType, DrawSkip::kSurfacePitch}),
            DrawSkip::kPrimitiveType);
  EXPECT_EQ(plan.FirstSkip({DrawSkip::kEdramMode, DrawSkip::kSurfacePitch}),
            DrawSkip::kSurfacePitch);
  EXPECT_EQ(plan.FirstSkip({DrawSkip::kNoPrimitive, DrawSkip::kEmptyScissor}), DrawSkip::kNone);
  EXPECT_EQ(DrawSkipNote(DrawSkip::kPrimitiveType, plan),
            "draw of primitive type 2d_copy_rect_list_v1/triangle_patch skipped (not implemented)");
  EXPECT_EQ(DrawSkipNote(DrawSkip::kSurfacePitch, plan),
            "draw with RB_SURFACE_INFO surface_pitch 0 skipped");
}

TEST(DrawPlan, PrimitivesSetTopologyAndTheEmptyCase) {
  Regs r;
  DrawPlan plan = PlanDraw(r.values, PrimitiveType::kLineList, kWritesOc0, {1, 1});
  HostPrimitives lines;
  lines.topology = HostTopology::kLineList;
  PlanPrimitives(plan, lines);
  EXPECT_FALSE(plan.polygonal);
  EXPECT_EQ(plan.FirstSkip({DrawSkip::kNoPrimitive}), DrawSkip::kNoPrimitive);
  EXPECT_EQ(DrawSkipNote(DrawSkip::kNoPrimitive, plan), "draw with no complete primitive skipped");
  plan = PlanDraw(r.values, PrimitiveType::kRectangleList, kWritesOc0, {1, 1});
  HostPrimitives rectangles;
  rectangles.topology = HostTopology::kRectangleList;
  rectangles.indices = {0, 1, 2};
  PlanPrimitives(plan, rectangles);
  EXPECT_TRUE(plan.polygonal);
  EXPECT_EQ(plan.topology, HostTopology::kRectangleList);
  EXPECT_FALSE(plan.Holds(DrawSkip::kNoPrimitive));
}

TEST(DrawPlan, ScissorInGuestAndHostPixels) {
  Regs r;
  // Window scissor (8, 4)-(72, 44) moved by the window offset (16, 2): (24, 6)-(88, 46); the
  // target is 80 wide, so x ends at 80: 56 x 40 guest pixels at (24, 6). At 2 x 3: 112 x 120
  // host pixels at (48, 18).
  r.Set(Reg::PA_SC_WINDOW_SCISSOR_TL, xenos::reg::PA_SC_WINDOW_SCISSOR_TL{8, 4, false}.Encode());
  r.Set(Reg::PA_SC_WINDOW_SCISSOR_BR, 72 | (44u << 16));
  r.Set(Reg::PA_SC_WINDOW_OFFSET, xenos::reg::PA_SC_WINDOW_OFFSET{16, 2}.Encode());
  DrawPlan plan = PlanDraw(r.values, PrimitiveType::kTriangleList, kWritesOc0, {2, 3});
  PlanScissor(plan, r.values, 80, 8192);
  EXPECT_EQ(plan.viewport.scissor.offset.x, 24);
  EXPECT_EQ(plan.viewport.scissor.offset.y, 6);
  EXPECT_EQ(plan.viewport.scissor.extent.width, 56u);
  EXPECT_EQ(plan.viewport.scissor.extent.height, 40u);
  EXPECT_EQ(plan.host_scissor.offset.x, 48);
  EXPECT_EQ(plan.host_scissor.offset.y, 18);
  EXPECT_EQ(plan.host_scissor.extent.width, 112u);
  EXPECT_EQ(plan.host_scissor.extent.height, 120u);
  EXPECT_FALSE(plan.Holds(DrawSkip::kEmptyScissor));
  // A target 20 wide ends before the scissor starts: empty.
  PlanScissor(plan, r.values, 20, 8192);
  EXPECT_TRUE(plan.Holds(DrawSkip::kEmptyScissor));
  EXPECT_EQ(plan.host_scissor.extent.width, 0u);
  EXPECT_EQ(DrawSkipNote(DrawSkip::kEmptyScissor, plan), "draw with an empty scissor skipped");
}

}  // namespace
}  // namespace xnt::gpu
