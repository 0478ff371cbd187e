// EDRAM snapshot restore (gpu/edram_snapshot.h): a 1x snapshot at a resolution scale is each
// guest sample replicated to its host block, in the layout of the target that next uses the
// tile. The expected values come from the EDRAM model's own addressing (Surface::SampleOffset
// at 1x and at the scale), not from the snapshot code.
#include <gtest/gtest.h>

#include <algorithm>

#include "xnt/base/error.h"
#include "xnt/gpu/edram_snapshot.h"

namespace xnt::gpu::edram {
namespace {

using xenos::ColorRenderTargetFormat;
using xenos::DepthRenderTargetFormat;
using xenos::MsaaSamples;

struct Layout {
  const char* name;
  MsaaSamples msaa;
  bool depth;
  uint32_t format;
};

const Layout kLayouts[] = {
    {"8888 1x", MsaaSamples::k1X, false, uint32_t(ColorRenderTargetFormat::k_8_8_8_8)},
    {"D24S8 1x", MsaaSamples::k1X, true, uint32_t(DepthRenderTargetFormat::kD24S8)},
    {"8888 2x", MsaaSamples::k2X, false, uint32_t(ColorRenderTargetFormat::k_8_8_8_8)},
    {"8888 4x", MsaaSamples::k4X, false, uint32_t(ColorRenderTargetFormat::k_8_8_8_8)},
    {"D24S8 4x", MsaaSamples::k4X, true, uint32_t(DepthRenderTargetFormat::kD24S8)},
    {"16_16_16_16 1x", MsaaSamples::k1X, false,
     uint32_t(ColorRenderTargetFormat::k_16_16_16_16)},
    {"32_32_FLOAT 4x", MsaaSamples::k4X, false, uint32_t(ColorRenderTargetFormat::k_32_32_FLOAT)},
};

Surface SurfaceFor(const Layout& l, uint32_t sx, uint32_t sy) {
  Surface s;
  s.base_tiles = 2045;  // wraps past tile 2047
  s.pitch_pixels = 160;
  s.msaa = l.msaa;
  s.is_depth = l.depth;
  s.format = l.format;
  s.scale_x = sx;
  s.scale_y = sy;
  return s;
}

uint64_t Unique(uint32_t x, uint32_t y, uint32_t sample) {
  const uint64_t v = (uint64_t(y) << 20) | (uint64_t(x) << 4) | sample;
  return v | (~v << 32);
}

constexpr uint32_t kRows = 40;

// A 1x snapshot holding a unique value in every sample of rows [0, kRows) of `l`'s surface.
std::vector<uint8_t> GuestSnapshot(const Layout& l) {
  Edram guest;
  const Surface s = SurfaceFor(l, 1, 1);
  for (uint32_t y = 0; y < kRows; ++y) {
    for (uint32_t x = 0; x < s.pitch_pixels; ++x) {
      for (uint32_t i = 0; i < s.sample_count(); ++i) guest.Store(s, x, y, i, Unique(x, y, i));
    }
  }
  return {guest.bytes().begin(), guest.bytes().end()};
}

// Host samples whose value is not their guest sample's.
uint32_t Mismatches(const Layout& l, const Edram& host) {
  const Surface s = SurfaceFor(l, host.scale_x(), host.scale_y());
  const uint64_t mask = s.is_64bpp() ? ~uint64_t(0) : 0xFFFFFFFFull;
  uint32_t bad = 0;
  for (uint32_t y = 0; y < kRows * s.scale_y; ++y) {
    for (uint32_t x = 0; x < s.pitch_pixels * s.scale_x; ++x) {
      for (uint32_t i = 0; i < s.sample_count(); ++i) {
        if (host.Load(s, x, y, i) != (Unique(x / s.scale_x, y / s.scale_y, i) & mask)) ++bad;
      }
    }
  }
  return bad;
}

TEST(EdramSnapshot, EveryLayoutAtEveryScaleReplicatesEachGuestSample) {
  const std::pair<uint32_t, uint32_t> scales[] = {{1, 1}, {2, 2}, {3, 1}, {1, 3}, {3, 3}};
  for (const Layout& l : kLayouts) {
    const std::vector<uint8_t> guest = GuestSnapshot(l);
    const OwnerKey key = OwnerKey::From(SurfaceFor(l, 1, 1));
    for (auto [sx, sy] : scales) {
      SCOPED_TRACE(std::string(l.name) + " at " + std::to_string(sx) + "x" + std::to_string(sy));
      Edram host(sx, sy);
      RestoreEdramSnapshot(guest, host);
      const bool relayout = SnapshotNeedsRelayout(key, sx, sy);
      // Word replication alone is the answer exactly where no relayout is asked for.
      if (relayout) {
        EXPECT_GT(Mismatches(l, host), 0u);
      } else {
        EXPECT_EQ(Mismatches(l, host), 0u);
      }
      // The surface's 40 rows wrap from tile 2045 past 2047 to tile 0.
      const uint32_t tiles = SurfaceFor(l, 1, 1).TilesForRows(kRows);
      ExpandSnapshotTiles(guest, key, 2045, 2048, host);
      ExpandSnapshotTiles(guest, key, 0, tiles - 3, host);
      EXPECT_EQ(Mismatches(l, host), 0u);
    }
  }
}

TEST(EdramSnapshot, OneXRestoreIsTheSnapshotsBytes) {
  std::vector<uint8_t> guest(xenos::kEdramSizeBytes);
  for (size_t i = 0; i < guest.size(); ++i) guest[i] = uint8_t(i * 7 + (i >> 13));
  Edram host;
  RestoreEdramSnapshot(guest, host);
  EXPECT_TRUE(std::ranges::equal(host.bytes(), guest));
}

TEST(EdramSnapshot, WrongSizeIsAnError) {
  Edram host;
  std::vector<uint8_t> short_snapshot(4096);
  try {
    RestoreEdramSnapshot(short_snapshot, host);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("4096 bytes, expected 10485760"), std::string::npos)
        << e.what();
  }
}

// Every tile goes to the snapshot owner; the next use moves its tiles out of it, and a second
// use by the same target moves nothing.
TEST(EdramSnapshot, TrackerGivesEveryTileToTheSnapshotOwner) {
  EdramTracker tracker;
  const Layout& l = kLayouts[3];  // 8888 4x
  Surface s = SurfaceFor(l, 2, 2);
  s.base_tiles = 4;
  EdramUse use{s, 32};  // 4 rows of tiles x 4 tiles a row
  std::vector<Transfer> moved;
  auto mover = [&](const Transfer& t, EdramLogEntry& e) {
    moved.push_back(t);
    e.data_moved = true;
  };
  tracker.Use(tracker.BeginEvent(), {use}, {use}, "draw", mover);
  ASSERT_EQ(moved.size(), 0u);  // never-owned tiles
  SnapshotRestore restore;
  Edram host(2, 2);
  restore.Restore(std::vector<uint8_t>(xenos::kEdramSizeBytes, 0x5A), host, tracker);
  for (uint32_t tile : {0u, 4u, 2047u}) {
    ASSERT_TRUE(tracker.ownership().OwnerOf(tile));
    EXPECT_TRUE(tracker.ownership().OwnerOf(tile)->edram_snapshot) << tile;
  }
  tracker.Use(tracker.BeginEvent(), {use}, {use}, "draw", mover);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_TRUE(moved[0].source.edram_snapshot);
  EXPECT_EQ(moved[0].start_tile, 4u);
  EXPECT_EQ(moved[0].end_tile, 20u);
  EXPECT_EQ(moved[0].reason, "EDRAM snapshot -> k_8_8_8_8 layout");
  EdramLogEntry entry;
  bool rewritten = false;
  EXPECT_TRUE(restore.Move(moved[0], host, entry, &rewritten));
  EXPECT_TRUE(rewritten);  // 4x at 2x2
  tracker.Use(tracker.BeginEvent(), {use}, {use}, "draw", mover);
  EXPECT_EQ(moved.size(), 1u);
  EXPECT_TRUE(tracker.ownership().OwnerOf(3)->edram_snapshot);
}

}  // namespace
}  // namespace xnt::gpu::edram
