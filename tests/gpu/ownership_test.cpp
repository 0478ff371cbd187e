// EDRAM ownership map: transfers only when a used range changes owner; wraparound; coalescing;
// the naive comparison model.
#include <gtest/gtest.h>

#include "xnt/gpu/edram_ownership.h"

namespace xnt::gpu::edram {
namespace {

using xenos::ColorRenderTargetFormat;

OwnerKey Key(uint32_t base, uint32_t pitch, uint32_t format = 0, bool depth = false,
             xenos::MsaaSamples msaa = xenos::MsaaSamples::k1X) {
  return OwnerKey::From(
      Surface{.base_tiles = base, .pitch_pixels = pitch, .msaa = msaa, .is_depth = depth, .format = format});
}

TEST(EdramOwnership, FirstUseAndSameOwnerMoveNothing) {
  OwnershipMap map;
  EXPECT_TRUE(map.ChangeOwnership(Key(0, 1280), 0, 720).empty());
  EXPECT_TRUE(map.ChangeOwnership(Key(0, 1280), 0, 720).empty());
  EXPECT_EQ(map.OwnerOf(100), Key(0, 1280));
  EXPECT_FALSE(map.OwnerOf(720).has_value());
  // Never-owned tiles elsewhere: nothing to move either.
  EXPECT_TRUE(map.ChangeOwnership(Key(1000, 640, 0, true), 1000, 200).empty());
  EXPECT_EQ(map.Ranges().size(), 4u);  // [0,720) A, [720,1000) -, [1000,1200) D, [1200,2048) -
}

TEST(EdramOwnership, FormatPitchMsaaAndDepthChangesTransfer) {
  OwnershipMap map;
  map.ChangeOwnership(Key(0, 1280), 0, 160);
  auto t = map.ChangeOwnership(Key(0, 1280, uint32_t(ColorRenderTargetFormat::k_16_16_FLOAT)), 0, 80);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].start_tile, 0u);
  EXPECT_EQ(t[0].end_tile, 80u);
  EXPECT_EQ(t[0].bytes, 80u * kTileBytes);
  EXPECT_EQ(t[0].reason, "format k_8_8_8_8 -> k_16_16_FLOAT");
  EXPECT_EQ(t[0].source, Key(0, 1280));
  // Pitch change over both owners' tiles: two transfers (two sources).
  t = map.ChangeOwnership(Key(0, 640), 0, 200);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].end_tile, 80u);
  EXPECT_EQ(t[1].start_tile, 80u);
  EXPECT_EQ(t[1].end_tile, 160u);  // [160, 200) was never owned
  EXPECT_EQ(t[1].reason, "pitch 1280 -> 640");
  t = map.ChangeOwnership(Key(0, 640, 0, false, xenos::MsaaSamples::k4X), 0, 16);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].reason, "msaa 1x -> 4x");
  t = map.ChangeOwnership(Key(0, 640, 0, true, xenos::MsaaSamples::k4X), 0, 16);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].reason, "colour -> depth, format k_8_8_8_8 -> kD24S8");
}

TEST(EdramOwnership, WrapsAroundAt2048) {
  OwnershipMap map;
  EXPECT_TRUE(map.ChangeOwnership(Key(2040, 640), 2040, 16).empty());
  EXPECT_EQ(map.OwnerOf(2047), Key(2040, 640));
  EXPECT_EQ(map.OwnerOf(7), Key(2040, 640));
  EXPECT_FALSE(map.OwnerOf(8).has_value());
  auto t = map.ChangeOwnership(Key(0, 320), 0, 4);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].start_tile, 0u);
  EXPECT_EQ(t[0].end_tile, 4u);
  // A wrapping claim reports the high part first, then the low part.
  t = map.ChangeOwnership(Key(2044, 160), 2044, 8);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].start_tile, 2044u);
  EXPECT_EQ(t[1].start_tile, 0u);
  EXPECT_EQ(t[1].end_tile, 4u);
  EXPECT_EQ(t[1].source, Key(0, 320));
  // A length above the EDRAM claims it once.
  t = map.ChangeOwnership(Key(0, 80), 5, 99999);
  uint32_t tiles = 0;
  for (auto& x : t) tiles += x.tiles();
  EXPECT_EQ(tiles, 16u);  // every owned tile, once
  EXPECT_EQ(map.Ranges().size(), 1u);
}

TEST(EdramOwnership, AdjacentRangesOfOneSourceCoalesce) {
  OwnershipMap map;
  map.ChangeOwnership(Key(0, 640), 0, 10);
  map.ChangeOwnership(Key(0, 640), 10, 10);
  auto t = map.ChangeOwnership(Key(0, 1280), 0, 20);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].tiles(), 20u);
  EXPECT_TRUE(map.WouldTransfer(Key(0, 640), 5, 1));
  EXPECT_FALSE(map.WouldTransfer(Key(0, 1280), 0, 20));
  EXPECT_EQ(map.OwnerOf(5), Key(0, 1280));  // WouldTransfer changed nothing
}

TEST(EdramOwnership, NaiveModelMovesOnEveryBindingChange) {
  NaiveCacheModel naive;
  naive.OnBindings({{Key(0, 640), 40}});
  EXPECT_EQ(naive.transfers(), 1u);  // load
  naive.OnBindings({{Key(0, 640), 40}});
  EXPECT_EQ(naive.transfers(), 1u);
  naive.OnBindings({{Key(0, 640), 40}, {Key(40, 640, 0, true), 40}});
  EXPECT_EQ(naive.transfers(), 1u + 1u + 2u);  // store 1, load 2
  EXPECT_EQ(naive.bytes(), (40u + 40u + 80u) * uint64_t(kTileBytes));
}

}  // namespace
}  // namespace xnt::gpu::edram
