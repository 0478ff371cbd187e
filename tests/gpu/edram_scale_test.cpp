// The scaled EDRAM (resolution scaling, as in Xenia's article "Leaving No Pixel Behind"): a tile holds 80S x 16T samples of 32 bits
// (40S x 16T of 64 bits), guest tile indices unchanged, depth halves swapped at 40S. Offsets
// worked by hand.
#include <gtest/gtest.h>

#include "xnt/base/error.h"
#include "xnt/gpu/edram.h"

namespace xnt::gpu::edram {
namespace {

Surface Color(uint32_t pitch, uint32_t sx, uint32_t sy) {
  Surface s;
  s.pitch_pixels = pitch;
  s.format = uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  s.scale_x = sx, s.scale_y = sy;
  return s;
}

TEST(EdramScale, TilesGrowGuestAddressesDoNot) {
  // Pitch 160 guest pixels = 2 tiles; at 2x2 a tile is 160 x 32 samples = 20480 bytes.
  const Surface s = Color(160, 2, 2);
  EXPECT_EQ(s.pitch_tiles(), 2u);
  EXPECT_EQ(s.SampleOffset(0, 0, 0), 0u);
  EXPECT_EQ(s.SampleOffset(159, 0, 0), 159u * 4);            // still tile 0
  EXPECT_EQ(s.SampleOffset(160, 0, 0), 20480u);              // tile 1
  EXPECT_EQ(s.SampleOffset(1, 31, 0), (31u * 160 + 1) * 4);  // last row of tile 0
  EXPECT_EQ(s.SampleOffset(0, 32, 0), 2u * 20480);           // next tile row: tile 2
  EXPECT_THROW(s.SampleOffset(320, 0, 0), Error);            // 160 guest pixels x 2
}

TEST(EdramScale, DepthHalvesAndMsaaAndWrap) {
  // Depth at 3x1: a tile row is 240 samples, its halves swapped at 120.
  Surface d;
  d.pitch_pixels = 80;
  d.is_depth = true;
  d.scale_x = 3;
  EXPECT_EQ(d.SampleOffset(0, 0, 0), 120u * 4);
  EXPECT_EQ(d.SampleOffset(130, 1, 0), (1u * 240 + 10) * 4);
  // 4x MSAA at 2x1: host pixel (1, 0) sample 3 is sample column 3, row 1; pitch 80 at 4x is
  // 2 tiles of 160 x 16 samples.
  Surface m = Color(80, 2, 1);
  m.msaa = xenos::MsaaSamples::k4X;
  EXPECT_EQ(m.pitch_tiles(), 2u);
  EXPECT_EQ(m.SampleOffset(1, 0, 3), (1u * 160 + 3) * 4);
  // A base of 2047 wraps to tile 0 for the next tile, as at 1x (tile bytes x 4 at 2x2).
  Surface w = Color(160, 2, 2);
  w.base_tiles = 2047;
  EXPECT_EQ(w.SampleOffset(0, 0, 0), 2047u * 20480);
  EXPECT_EQ(w.SampleOffset(160, 0, 0), 0u);
  // The scaled EDRAM holds S x T times the bytes.
  EXPECT_EQ(Edram(3, 3).bytes().size(), size_t(xenos::kEdramSizeBytes) * 9);
}

TEST(EdramScale, SixtyFourBitTilesAreHalfAsWide) {
  Surface s = Color(80, 2, 1);
  s.format = uint32_t(xenos::ColorRenderTargetFormat::k_16_16_16_16);
  // 64bpp: pitch 80 is 2 tiles of 80 x 16 samples (40 x 2); host pixel 80 starts tile 1.
  EXPECT_EQ(s.pitch_tiles(), 2u);
  EXPECT_EQ(s.SampleOffset(79, 0, 0), 79u * 8);
  EXPECT_EQ(s.SampleOffset(80, 0, 0), 5120u * 2);
}

}  // namespace
}  // namespace xnt::gpu::edram
