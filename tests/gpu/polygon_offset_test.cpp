// gpu/polygon_offset.h against hand-worked values: which registers a primitive gets, the host
// depth-bias factors (Xenia's units) and the depth change for unorm24 and 20e4 targets.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "hand_registers.h"
#include "xnt/gpu/polygon_offset.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {
namespace {

using xenos::Reg;

using Regs = test::HandRegisters;

Regs Offsets(uint32_t mode_bits) {
  Regs r;
  r.Set(Reg::PA_SU_SC_MODE_CNTL, mode_bits);
  r.SetF(Reg::PA_SU_POLY_OFFSET_FRONT_SCALE, 2.0f);
  r.SetF(Reg::PA_SU_POLY_OFFSET_FRONT_OFFSET, 1.0f / 64);
  r.SetF(Reg::PA_SU_POLY_OFFSET_BACK_SCALE, -3.0f);
  r.SetF(Reg::PA_SU_POLY_OFFSET_BACK_OFFSET, -1.0f / 32);
  return r;
}

constexpr uint32_t kFront = 1u << 11, kBack = 1u << 12, kPara = 1u << 13;
constexpr uint32_t kD24S8 = uint32_t(xenos::DepthRenderTargetFormat::kD24S8);
constexpr uint32_t kD24FS8 = uint32_t(xenos::DepthRenderTargetFormat::kD24FS8);

TEST(PolygonOffset, PolygonsTakeEachFaceRegistersWhenEnabled) {
  const PolygonOffsets o = ReadPolygonOffsets(Offsets(kFront | kBack).span(), true);
  EXPECT_TRUE(o.front.enabled);
  EXPECT_EQ(o.front.scale, 2.0f);
  EXPECT_EQ(o.front.offset, 1.0f / 64);
  EXPECT_TRUE(o.back.enabled);
  EXPECT_EQ(o.back.scale, -3.0f);
  EXPECT_EQ(o.back.offset, -1.0f / 32);
  // Only the back enable: front faces get nothing.
  const PolygonOffsets b = ReadPolygonOffsets(Offsets(kBack).span(), true);
  EXPECT_FALSE(b.front.enabled);
  EXPECT_EQ(b.front.offset, 0.0f);
  EXPECT_TRUE(b.back.enabled);
  // para does not apply to polygons.
  EXPECT_FALSE(ReadPolygonOffsets(Offsets(kPara).span(), true).front.enabled);
}

TEST(PolygonOffset, LinesAndPointsTakeParaWithFrontRegisters) {
  const PolygonOffsets o = ReadPolygonOffsets(Offsets(kPara).span(), false);
  EXPECT_TRUE(o.front.enabled);
  EXPECT_TRUE(o.back.enabled);
  EXPECT_EQ(o.back.offset, 1.0f / 64);  // FRONT_OFFSET, not BACK_OFFSET
  EXPECT_FALSE(ReadPolygonOffsets(Offsets(kFront | kBack).span(), false).front.enabled);
}

TEST(PolygonOffset, PreferredFaceForOneHostBias) {
  const PolygonOffsets both = ReadPolygonOffsets(Offsets(kFront | kBack).span(), true);
  EXPECT_EQ(PreferredPolygonOffset(both, false, false).offset, 1.0f / 64);   // front first
  EXPECT_EQ(PreferredPolygonOffset(both, true, false).offset, -1.0f / 32);   // front culled
  EXPECT_FALSE(PreferredPolygonOffset(both, true, true).enabled);
  const PolygonOffsets back = ReadPolygonOffsets(Offsets(kBack).span(), true);
  EXPECT_EQ(PreferredPolygonOffset(back, false, false).scale, -3.0f);
}

TEST(PolygonOffset, HostFactorsInXeniaUnits) {
  const PolygonOffset o{true, 2.0f, 1.0f / 64};
  // k_24_8: OFFSET * 2^24 units of 2^-24 (= 2^18 unorm24 steps for 1/64).
  EXPECT_EQ(DepthBiasConstantFactor(o, kD24S8), 262144.0f);
  // k_24_8_FLOAT: OFFSET * 2^21.
  EXPECT_EQ(DepthBiasConstantFactor(o, kD24FS8), 32768.0f);
  // Slope per 1/16 pixel: SCALE / 16 per pixel.
  EXPECT_EQ(DepthBiasSlopeFactor(o), 0.125f);
  EXPECT_EQ(DepthBiasConstantFactor({false, 2.0f, 1.0f}, kD24S8), 0.0f);
}

TEST(PolygonOffset, DepthChange) {
  EXPECT_EQ(MinimumResolvableDifference(kD24S8, 0.7), std::ldexp(1.0, -24));
  // 20e4 through a float host depth: r = 2^(e - 23), e the exponent of the largest depth.
  EXPECT_EQ(MinimumResolvableDifference(kD24FS8, 0.75), std::ldexp(1.0, -24));  // e = -1
  EXPECT_EQ(MinimumResolvableDifference(kD24FS8, 0.25), std::ldexp(1.0, -25));  // e = -2
  EXPECT_EQ(MinimumResolvableDifference(kD24FS8, 1.0), std::ldexp(1.0, -23));   // e = 0
  // Constant only: 1/64 of the depth range on k_24_8.
  EXPECT_DOUBLE_EQ(PolygonOffsetDepth({true, 0.0f, 1.0f / 64}, kD24S8, 0.5, 0.5), 1.0 / 64);
  // Slope only: SCALE 32 over a plane rising 1/256 per pixel -> 32/16 * 1/256 = 1/128.
  EXPECT_DOUBLE_EQ(PolygonOffsetDepth({true, 32.0f, 0.0f}, kD24S8, 1.0 / 256, 0.5), 1.0 / 128);
  // Both, negative; the slope's sign does not matter (its magnitude is used).
  EXPECT_DOUBLE_EQ(PolygonOffsetDepth({true, -16.0f, -1.0f / 64}, kD24S8, -1.0 / 256, 0.5),
                   -1.0 / 256 - 1.0 / 64);
  // k_24_8_FLOAT at depth 0.75: 1/64 * 2^21 * 2^-24 = 1/512.
  EXPECT_DOUBLE_EQ(PolygonOffsetDepth({true, 0.0f, 1.0f / 64}, kD24FS8, 0.0, 0.75), 1.0 / 512);
  EXPECT_EQ(PolygonOffsetDepth({false, 32.0f, 1.0f}, kD24S8, 1.0, 0.5), 0.0);
}

}  // namespace
}  // namespace xnt::gpu
