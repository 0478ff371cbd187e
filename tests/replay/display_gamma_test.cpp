// The display's gamma ramps: the register ports as the M56 guide and Xenia describe them, the
// ramp records, and scan-out's lookups, against values worked out by hand.
#include <gtest/gtest.h>

#include "pm4_test_util.h"
#include "xnt/replay/display_gamma.h"
#include "xnt/xenos/registers.h"

namespace xnt::replay {
namespace display_gamma_test {

using test::Pm4;
using test::Rig;
using xenos::Reg;
using xenos::RegIndex;

TEST(DisplayGamma, StartsWithDirect3DsLinearRamps) {
  const DisplayGamma g;
  // Table entry i: i * 1023 / 255 rounded down, on every channel.
  EXPECT_EQ(g.Table(0, 0), 0u);
  EXPECT_EQ(g.Table(1, 1), 4u);      // 1023 / 255 = 4.01
  EXPECT_EQ(g.Table(2, 128), 513u);  // 130944 / 255 = 513.5
  EXPECT_EQ(g.Table(0, 255), 1023u);
  EXPECT_TRUE(g.table_is_identity());
  // PWL entry i: base (i * 65535 / 127) & ~63, delta 512 below the last entry. 10-bit 9 is
  // entry 1 (base 516 & ~63 = 512) plus 1/8 of 512: 576 / (64 * 1023).
  EXPECT_FLOAT_EQ(g.Pwl(0, 9), 576.0f / (64.0f * 1023.0f));
  EXPECT_FLOAT_EQ(g.Pwl(2, 1023), 1.0f);  // entry 127: base 65472 (= 64 * 1023), delta 0
}

TEST(DisplayGamma, SequentialColourPortWritesRedGreenBlueThenAdvances) {
  Rig rig;
  // Table mode, entry 10, red and blue enabled (mask bits: blue 0, green 1, red 2).
  rig.Run(Pm4()
              .Type0(Reg::DC_LUT_RW_MODE, {0})
              .Type0(Reg::DC_LUT_WRITE_EN_MASK, {0b101})
              .Type0(Reg::DC_LUT_RW_INDEX, {10})
              // 16-bit colours: bits 5:0 are dropped, so 0xFFC0 -> 1023, 0x1040 -> 65, 0x0040 -> 1.
              .Type0(RegIndex(Reg::DC_LUT_SEQ_COLOR), {0xFFC0, 0x1040, 0x0040, 0x8000}, true));
  const DisplayGamma& g = rig.cp.display_gamma();
  EXPECT_EQ(g.Table(0, 10), 1023u);  // red written
  EXPECT_EQ(g.Table(1, 10), 40u);    // green masked: the linear 10 * 1023 / 255 stays
  EXPECT_EQ(g.Table(2, 10), 1u);     // blue written
  // After blue the index moved to 11 and the fourth write went to its red.
  EXPECT_EQ(rig.registers.Get(Reg::DC_LUT_RW_INDEX), 11u);
  EXPECT_EQ(g.Table(0, 11), 512u);
  EXPECT_FALSE(g.table_is_identity());
}

TEST(DisplayGamma, WholeEntryPortHonoursTheWriteMask) {
  Rig rig;
  rig.Run(Pm4()
              .Type0(Reg::DC_LUT_WRITE_EN_MASK, {0b010})
              .Type0(Reg::DC_LUT_RW_INDEX, {3})
              .Type0(Reg::DC_LUT_30_COLOR, {(7u << 20) | (300u << 10) | 5u}));
  const DisplayGamma& g = rig.cp.display_gamma();
  EXPECT_EQ(g.Table(1, 3), 300u);  // green only
  EXPECT_EQ(g.Table(0, 3), 12u);   // red keeps 3 * 1023 / 255
  EXPECT_EQ(g.Table(2, 3), 12u);
}

TEST(DisplayGamma, PwlPortIgnoresIndexBit7AndWrapsWithinSevenBits) {
  Rig rig;
  // PWL mode at index 0xFF (entry 127, bit 7 kept on the advance): red, green, blue then red of
  // entry 0 (the index wraps to 0x80).
  rig.Run(Pm4()
              .Type0(Reg::DC_LUT_RW_MODE, {1})
              .Type0(Reg::DC_LUT_WRITE_EN_MASK, {7})
              .Type0(Reg::DC_LUT_RW_INDEX, {0xFF})
              // base 0x1000 delta 0x0400, with low bits the port drops (0x3F in each half).
              .Type0(RegIndex(Reg::DC_LUT_PWL_DATA),
                     {0x0400103Fu, 0x04001000u, 0x04001000u, 0x00400000u}, true));
  const DisplayGamma& g = rig.cp.display_gamma();
  // Entry 127, value 1023 (& 7 = 7): (4096 + 7 * 1024 / 8) / 65472.
  EXPECT_FLOAT_EQ(g.Pwl(0, 1023), (4096.0f + 896.0f) / 65472.0f);
  EXPECT_EQ(rig.registers.Get(Reg::DC_LUT_RW_INDEX), 0x80u);
  // Entry 0 red: base 0, delta 0x40 -> value 4 gives 4 * 64 / 8 / 65472.
  EXPECT_FLOAT_EQ(g.Pwl(0, 4), 32.0f / 65472.0f);
  EXPECT_FLOAT_EQ(g.Pwl(1, 4), 256.0f / 65472.0f);  // green entry 0 keeps the linear delta 512
}

TEST(DisplayGamma, IndexWriteRestartsAtRed) {
  Rig rig;
  rig.Run(Pm4()
              .Type0(Reg::DC_LUT_WRITE_EN_MASK, {7})
              .Type0(Reg::DC_LUT_RW_INDEX, {20})
              .Type0(RegIndex(Reg::DC_LUT_SEQ_COLOR), {0x0040}, true)  // red of 20
              .Type0(Reg::DC_LUT_RW_INDEX, {21})
              .Type0(RegIndex(Reg::DC_LUT_SEQ_COLOR), {0x0080}, true));  // red of 21, not green
  const DisplayGamma& g = rig.cp.display_gamma();
  EXPECT_EQ(g.Table(0, 20), 1u);
  EXPECT_EQ(g.Table(0, 21), 2u);
  EXPECT_EQ(g.Table(1, 21), 84u);  // 21 * 1023 / 255
}

TEST(DisplayGamma, RecordLoadsTableAndPwlEntryMajor) {
  format::GammaRamp r;
  r.table.assign(256, 0);
  r.table[200] = (1000u << 20) | (500u << 10) | 250u;
  r.pwl.assign(128 * 3, 0);
  r.pwl[5 * 3 + 2] = (0x0800u << 16) | 0x2000u;  // entry 5, blue
  DisplayGamma g;
  g.Load(r);
  EXPECT_EQ(g.Table(0, 200), 1000u);
  EXPECT_EQ(g.Table(1, 200), 500u);
  EXPECT_EQ(g.Table(2, 200), 250u);
  EXPECT_FLOAT_EQ(g.Pwl(2, 5 * 8 + 2), (8192.0f + 2 * 2048.0f / 8) / 65472.0f);
  EXPECT_FLOAT_EQ(g.Pwl(0, 5 * 8 + 2), 0.0f);
}

TEST(DisplayGamma, EverySwapCarriesTheRamps) {
  Rig rig;
  rig.Run(Pm4()
              .Type0(Reg::DC_LUT_WRITE_EN_MASK, {7})
              .Type0(Reg::DC_LUT_RW_INDEX, {0})
              .Type0(Reg::DC_LUT_30_COLOR, {0x3FFFFFFFu})
              .Type3(xenos::Opcode::kXeSwap, {xenos::kSwapSignature, 0x00200000, 64, 32}));
  ASSERT_EQ(rig.backend.swaps.size(), 1u);
  ASSERT_NE(rig.backend.swaps[0].display_gamma, nullptr);
  EXPECT_EQ(rig.backend.swaps[0].display_gamma->Table(0, 0), 1023u);
}

}  // namespace display_gamma_test
}  // namespace xnt::replay
