// The resolve plan (gpu/resolve_plan.h) with values worked by hand: a 64 x 32 rectangle from
// vertex fetch constant 0 on a 128-pixel surface, RB_COPY_CONTROL in, the skip reason, copy,
// clears and the host rectangle out.
#include <gtest/gtest.h>

#include <vector>

#include "../renderer/fake_guest.h"
#include "xnt/gpu/resolve_plan.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {
namespace {

using xenos::Reg;

struct Rig {
  std::vector<uint32_t> regs = std::vector<uint32_t>(0x10000, 0);
  vk::test::FakeGuest guest;
  void Set(Reg r, uint32_t v) { regs[xenos::RegIndex(r)] = v; }
  Rig() {
    guest.WriteBEFloats(0x20000, {0.0f, 0.0f, 64.0f, 0.0f, 64.0f, 32.0f});
    regs[xenos::VertexFetchConstantIndex(0)] = 3u | 0x20000u;
    regs[xenos::VertexFetchConstantIndex(0) + 1] = 2u | (6u << 2);
    Set(Reg::RB_SURFACE_INFO, 128u);
    Set(Reg::RB_COPY_DEST_INFO,
        xenos::reg::RB_COPY_DEST_INFO{xenos::Endian128::kNone, false, 0,
                                      xenos::TextureFormat::k_8_8_8_8,
                                      xenos::SurfaceNumberFormat::kUnsignedRepeatingFraction, 0,
                                      false}
            .Encode());
    Set(Reg::PA_SC_WINDOW_SCISSOR_BR, 8192u | (8192u << 16));
  }
  ResolvePlan Plan(ResolutionScale scale = {}) { return PlanResolve(regs, guest.Access(), scale); }
};

constexpr uint32_t kColorClear = 1u << 8, kDepthClear = 1u << 9;
constexpr uint32_t kCopyNull = 3u << 20;

TEST(ResolvePlan, CopyAndHostRectangle) {
  Rig r;  // RB_COPY_CONTROL 0: a raw copy of colour target 0 to k_8_8_8_8
  const ResolvePlan plan = r.Plan({2, 3});
  EXPECT_EQ(plan.skip, ResolveSkip::kNone);
  EXPECT_TRUE(plan.copy);
  EXPECT_TRUE(plan.copy_note.empty()) << plan.copy_note;
  EXPECT_FALSE(plan.color_clear);
  EXPECT_FALSE(plan.depth_clear);
  EXPECT_FALSE(plan.targets.used.empty());
  EXPECT_EQ(plan.host_rect.offset.x, 0);
  EXPECT_EQ(plan.host_rect.offset.y, 0);
  EXPECT_EQ(plan.host_rect.extent.width, 128u);
  EXPECT_EQ(plan.host_rect.extent.height, 96u);
}

TEST(ResolvePlan, ClearsNeedAColourSourceForTheColourClear) {
  Rig r;
  r.Set(Reg::RB_COPY_CONTROL, 1u | kColorClear | kDepthClear | kCopyNull);
  ResolvePlan plan = r.Plan();
  EXPECT_FALSE(plan.copy);
  EXPECT_TRUE(plan.copy_note.empty());
  EXPECT_TRUE(plan.color_clear);
  EXPECT_TRUE(plan.depth_clear);
  // Source 4 is the depth target: a colour clear asked with it clears no colour target.
  r.Set(Reg::RB_COPY_CONTROL, 4u | kColorClear | kCopyNull);
  plan = r.Plan();
  EXPECT_FALSE(plan.color_clear);
  EXPECT_FALSE(plan.depth_clear);
}

TEST(ResolvePlan, AnUnsupportedCopyIsNotedAndNotRun) {
  Rig r;
  xenos::reg::RB_COPY_DEST_INFO d{xenos::Endian128::kNone, false, 0, xenos::TextureFormat::k_DXT1,
                                  xenos::SurfaceNumberFormat::kUnsignedRepeatingFraction, 0,
                                  false};
  r.Set(Reg::RB_COPY_DEST_INFO, d.Encode());
  const ResolvePlan plan = r.Plan();
  EXPECT_FALSE(plan.copy);
  EXPECT_NE(plan.copy_note.find("k_DXT1"), std::string::npos) << plan.copy_note;
}

TEST(ResolvePlan, SkipsWithTheirNotes) {
  Rig e;
  e.guest.WriteBEFloats(0x20000, {0.0f, 0.0f, 64.0f, 0.0f, 64.0f, 0.0f});  // no height
  ResolvePlan plan = e.Plan();
  EXPECT_EQ(plan.skip, ResolveSkip::kEmptyRectangle);
  EXPECT_STREQ(ResolveSkipNote(plan.skip), "resolve with an empty rectangle");
  EXPECT_TRUE(plan.targets.used.empty());
  // A surface 0 pixels wide leaves the rectangle (clamped to the surface) empty as well.
  Rig r;
  r.Set(Reg::RB_SURFACE_INFO, 0);
  EXPECT_NE(r.Plan().skip, ResolveSkip::kNone);
  EXPECT_STREQ(ResolveSkipNote(ResolveSkip::kSurfacePitch),
               "resolve with RB_SURFACE_INFO surface_pitch 0 skipped");
}

}  // namespace
}  // namespace xnt::gpu
