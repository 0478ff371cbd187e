// Tiled texture addressing against the values in ../shared/research/xenia.md §4.7 (cross-checked
// there against Xenia's two implementations) and structural properties of the layout.
#include <gtest/gtest.h>

#include <set>

#include "xnt/gpu/texture_address.h"

namespace xnt::vk {
namespace {

TEST(TextureAddress, KnownOffsetsAt4BytesPerTexel) {
  const int32_t row0[8] = {0, 4, 8, 12, 32, 36, 40, 44};
  for (int32_t x = 0; x < 8; ++x) EXPECT_EQ(gpu::TiledOffset2D(x, 0, 32, 2), row0[x]) << x;
  const int32_t col0[4] = {0, 16, 256, 272};
  for (int32_t y = 0; y < 4; ++y) EXPECT_EQ(gpu::TiledOffset2D(0, y, 32, 2), col0[y]) << y;
}

TEST(TextureAddress, MacroTileIsABijectionOf4KiB) {
  // A 32x32 macro tile at 4 bytes per texel covers exactly the 4096 bytes after its start.
  std::set<int32_t> seen;
  for (int32_t y = 0; y < 32; ++y) {
    for (int32_t x = 0; x < 32; ++x) {
      int32_t o = gpu::TiledOffset2D(x, y, 64, 2);
      EXPECT_EQ(o % 4, 0);
      EXPECT_GE(o, 0);
      EXPECT_LT(o, 4096);
      seen.insert(o);
    }
  }
  EXPECT_EQ(seen.size(), 1024u);
  // Macro tiles are row-major: (32, 0) starts the second tile, (0, 32) the row after pitch/32.
  EXPECT_EQ(gpu::TiledOffset2D(32, 0, 64, 2), 4096);
  EXPECT_EQ(gpu::TiledOffset2D(0, 32, 64, 2), 2 * 4096);
  EXPECT_EQ(gpu::TiledOffset2D(0, 32, 50, 2), 2 * 4096);  // pitch rounds up to 64
}

TEST(TextureAddress, NegativeOffsetsMoveWholeTiles) {
  EXPECT_EQ(gpu::TiledOffset2D(-32, 0, 64, 2), -4096);
  EXPECT_EQ(gpu::TiledOffset2D(-32, 5, 64, 2), gpu::TiledOffset2D(0, 5, 64, 2) - 4096);
}

TEST(TextureAddress, LinearRowsAlignTo256Bytes) {
  EXPECT_EQ(gpu::LinearOffset2D(3, 0, 100, 2), 12u);
  EXPECT_EQ(gpu::LinearOffset2D(0, 1, 100, 2), 512u);
  EXPECT_EQ(gpu::LinearOffset2D(0, 2, 64, 2), 512u);
}

}  // namespace
}  // namespace xnt::vk
