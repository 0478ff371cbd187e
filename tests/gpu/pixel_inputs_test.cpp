// Centroid selection and PsParamGen (gpu/pixel_inputs.h) against hand-worked values.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "xnt/gpu/pixel_inputs.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {
namespace {

using xenos::Reg;

TEST(PixelInputs, SampleControlChoosesCentroidInterpolators) {
  // One sample per pixel: centre and centroid are the same place.
  EXPECT_EQ(InterpolatorCentroidMask(1, 0, 0), 0u);
  // kCentroidsOnly: all 16; kCentersOnly: none.
  EXPECT_EQ(InterpolatorCentroidMask(4, 0, 0), 0xFFFFu);
  EXPECT_EQ(InterpolatorCentroidMask(2, 1, 0), 0u);
  // kCentroidsAndCenters: sampling_pattern bit set = centre, clear = centroid.
  EXPECT_EQ(InterpolatorCentroidMask(4, 2, 0xFFFEu), 0x0001u);
  EXPECT_EQ(InterpolatorCentroidMask(2, 2, 0x00F0u), 0xFF0Fu);
  // From the registers: SQ_CONTEXT_MISC sc_sample_cntl in bits 2-3, SQ_INTERPOLATOR_CNTL
  // sampling_pattern in bits 16-31.
  std::vector<uint32_t> regs(xenos::kRegisterCount, 0);
  regs[xenos::RegIndex(Reg::SQ_CONTEXT_MISC)] = 2u << 2;
  regs[xenos::RegIndex(Reg::SQ_INTERPOLATOR_CNTL)] = 0xFFFDu << 16;
  EXPECT_EQ(InterpolatorCentroidMask(regs, 4), 0x0002u);
  EXPECT_EQ(InterpolatorCentroidMask(regs, 1), 0u);
}

TEST(PixelInputs, CentroidIsTheFirstCoveredSampleOfAPartlyCoveredPixel) {
  // 2x: masks 0..3 -> centre (helper), sample 0, sample 1, centre (all covered).
  const int32_t two[4] = {-1, 0, 1, -1};
  for (uint32_t m = 0; m < 4; ++m) EXPECT_EQ(CentroidSample(m, 2), two[m]) << m;
  // 4x: every mask; the lowest set bit unless none or all are set.
  const int32_t four[16] = {-1, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, -1};
  for (uint32_t m = 0; m < 16; ++m) EXPECT_EQ(CentroidSample(m, 4), four[m]) << m;
  // Bits beyond the sample count do not count; 1x is always the centre.
  EXPECT_EQ(CentroidSample(0xF0u | 0x3u, 2), -1);
  EXPECT_EQ(CentroidSample(1, 1), -1);
}

TEST(PixelInputs, ParamGenPositionIsTheIntegerPixelInGuestUnits) {
  // 1x: pixel 7 reads 7 (no half-pixel).
  EXPECT_EQ(ParamGenPosition(7, 1), 7.0f);
  EXPECT_EQ(ParamGenPosition(0, 1), 0.0f);
  // 2x: host 14 and 15 (guest pixel 7) read 6.75 and 7.25: centre / 2 - 1/2.
  EXPECT_EQ(ParamGenPosition(14, 2), 6.75f);
  EXPECT_EQ(ParamGenPosition(15, 2), 7.25f);
  // 3x: host 21, 22, 23 read 7 - 1/3, 7, 7 + 1/3: the middle one is the 1x value.
  EXPECT_FLOAT_EQ(ParamGenPosition(21, 3), 7.0f - 1.0f / 3.0f);
  EXPECT_EQ(ParamGenPosition(22, 3), 7.0f);
  EXPECT_FLOAT_EQ(ParamGenPosition(23, 3), 7.0f + 1.0f / 3.0f);
  // Host pixel 0 at 2x would be -0.25: held at 0, the sign bit is a flag.
  EXPECT_EQ(ParamGenPosition(0, 2), 0.0f);
}

TEST(PixelInputs, ParamGenEncodesFacingAndPrimitiveKindInSignBits) {
  auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
  // Front-facing polygon at (12, 34): all signs clear, zw zero.
  auto g = PsParamGen(12.0f, 34.0f, ParamGenPrimitive::kPolygon, false, 0.3f, 0.6f);
  EXPECT_EQ(bits(g[0]), bits(12.0f));
  EXPECT_EQ(bits(g[1]), bits(34.0f));
  EXPECT_EQ(bits(g[2]), 0u);
  EXPECT_EQ(bits(g[3]), 0u);
  // Back-facing polygon in column 0: x is -0.0 (0x80000000), the sign survives a zero.
  g = PsParamGen(0.0f, 5.0f, ParamGenPrimitive::kPolygon, true, 0.0f, 0.0f);
  EXPECT_EQ(bits(g[0]), 0x80000000u);
  EXPECT_EQ(bits(g[1]), bits(5.0f));
  // Point: y negative, sprite coordinate in zw, never back-facing.
  g = PsParamGen(3.0f, 0.0f, ParamGenPrimitive::kPoint, true, 0.25f, 0.75f);
  EXPECT_EQ(bits(g[0]), bits(3.0f));
  EXPECT_EQ(bits(g[1]), 0x80000000u);
  EXPECT_EQ(g[2], 0.25f);
  EXPECT_EQ(g[3], 0.75f);
  // Line: z is -0.0, never back-facing, y positive.
  g = PsParamGen(8.0f, 9.0f, ParamGenPrimitive::kLine, true, 0.5f, 0.5f);
  EXPECT_EQ(bits(g[0]), bits(8.0f));
  EXPECT_EQ(bits(g[1]), bits(9.0f));
  EXPECT_EQ(bits(g[2]), 0x80000000u);
  EXPECT_EQ(bits(g[3]), 0u);
}

}  // namespace
}  // namespace xnt::gpu
