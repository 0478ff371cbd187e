// Scan-out's gamma ramp over swapped images (gpu::ApplyDisplayGamma), hand-worked.
#include <gtest/gtest.h>

#include "xnt/gpu/front_buffer.h"
#include "xnt/replay/display_gamma.h"

namespace xnt::gpu {
namespace display_gamma_apply_test {

replay::DisplayGamma Inverted() {
  format::GammaRamp r;
  for (uint32_t i = 0; i < 256; ++i) {
    const uint32_t v = 1023 - i * 1023 / 255;
    r.table.push_back(v | (v << 10) | (v << 20));
  }
  replay::DisplayGamma g;
  g.Load(r);
  return g;
}

TEST(DisplayGammaApply, StartUpTableLeavesEightBitImagesAlone) {
  SwapImage image{2, 1, {0, 1, 128, 255, 254, 77, 3, 255}, {}};
  const SwapImage before = image;
  ApplyDisplayGamma(image, replay::DisplayGamma());
  EXPECT_EQ(image.rgba, before.rgba);
}

TEST(DisplayGammaApply, TableMapsEachChannelAndKeepsAlpha) {
  SwapImage image{2, 1, {0, 1, 128, 255, 255, 254, 2, 255}, {}};
  ApplyDisplayGamma(image, Inverted());
  // 1023 - floor(i * 1023 / 255), rounded to 8 bits: (v * 255 + 511) / 1023.
  // i = 0 -> 1023 -> 255; 1 -> 1019 -> 254; 128 -> 510 -> 127; 255 -> 0; 254 -> 5 -> 1;
  // 2 -> 1015 -> 253.
  const std::vector<uint8_t> want = {255, 254, 127, 255, 0, 1, 253, 255};
  EXPECT_EQ(image.rgba, want);
}

TEST(DisplayGammaApply, TenBitFrontBufferGoesThroughThePwlRamp) {
  // The start-up PWL ramp at 10-bit 9 (entry 1, base 512, delta 512): 576 / 65472 * 255 = 2.24
  // -> 2; at 1023: 255; at 520 (entry 65: base (65 * 65535 / 127) & ~63 = 33536, + 0): 33536 /
  // 65472 * 255 = 130.6 -> 131.
  SwapImage image{1, 1, {0, 0, 0, 255}, {9, 1023, 520}};
  ApplyDisplayGamma(image, replay::DisplayGamma());
  EXPECT_EQ(image.rgba, (std::vector<uint8_t>{2, 255, 131, 255}));
  EXPECT_TRUE(image.rgb10.empty());
}

}  // namespace display_gamma_apply_test
}  // namespace xnt::gpu
