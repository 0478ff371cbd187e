// EDRAM snapshot restore (see edram_snapshot.h).
#include "xnt/gpu/edram_snapshot.h"

#include <cstring>

#include "xnt/base/error.h"
#include <string>

namespace xnt::gpu::edram {

namespace {
constexpr uint32_t kWordsX = xenos::kEdramTileWidthSamples;   // 32-bit words per tile row
constexpr uint32_t kWordsY = xenos::kEdramTileHeightSamples;  // tile rows
}  // namespace

void CheckEdramSnapshotSize(size_t bytes) {
  if (bytes != xenos::kEdramSizeBytes) {
    throw Error("EDRAM snapshot has " + std::to_string(bytes) + " bytes, expected " +
                std::to_string(xenos::kEdramSizeBytes) + " (the whole EDRAM)");
  }
}

void RestoreEdramSnapshot(std::span<const uint8_t> guest, Edram& edram) {
  CheckEdramSnapshotSize(guest.size());
  const uint32_t sx = edram.scale_x(), sy = edram.scale_y();
  const std::span<uint8_t> out = edram.bytes();
  if (sx * sy == 1) {
    std::memcpy(out.data(), guest.data(), guest.size());
    return;
  }
  const size_t tile_bytes = size_t(kTileBytes) * sx * sy;
  const uint32_t row_words = kWordsX * sx;
  for (uint32_t tile = 0; tile < xenos::kEdramTileCount; ++tile) {
    const uint8_t* src = guest.data() + size_t(tile) * kTileBytes;
    uint8_t* dst = out.data() + tile * tile_bytes;
    for (uint32_t y = 0; y < kWordsY * sy; ++y) {
      for (uint32_t x = 0; x < row_words; ++x) {
        std::memcpy(dst + (size_t(y) * row_words + x) * 4,
                    src + (size_t(y / sy) * kWordsX + x / sx) * 4, 4);
      }
    }
  }
}

bool SnapshotNeedsRelayout(const OwnerKey& owner, uint32_t scale_x, uint32_t scale_y) {
  if (owner.edram_snapshot) return false;
  // Across, a block is whole words unless a pixel is several samples or words wide (4x MSAA,
  // 64bpp); down, unless it is several sample rows tall (2x and 4x MSAA).
  const Surface s = owner.ToSurface();
  return (scale_x > 1 && (s.samples_x() > 1 || s.is_64bpp())) ||
         (scale_y > 1 && s.samples_y() > 1);
}

void ExpandSnapshotTiles(std::span<const uint8_t> guest, const OwnerKey& owner, uint32_t start,
                         uint32_t end, Edram& edram) {
  CheckEdramSnapshotSize(guest.size());
  const Surface layout = owner.ToSurface();
  const uint32_t sx = edram.scale_x(), sy = edram.scale_y();
  const uint32_t bps = layout.bytes_per_sample();
  // A tile is W x 16 samples of `bps` bytes; a pixel is samples_x x samples_y of them.
  const uint32_t w = kWordsX * 4 / bps, msx = layout.samples_x(), msy = layout.samples_y();
  const size_t tile_bytes = size_t(kTileBytes) * sx * sy;
  // Depth tiles keep their two halves swapped at every scale (Surface::SampleOffset).
  auto stored = [&](uint32_t column, uint32_t width) {
    return layout.is_depth ? (column + width / 2) % width : column;
  };
  for (uint32_t tile = start; tile < end && tile < xenos::kEdramTileCount; ++tile) {
    const uint8_t* src = guest.data() + size_t(tile) * kTileBytes;
    uint8_t* dst = edram.bytes().data() + tile * tile_bytes;
    for (uint32_t gy = 0; gy < kWordsY; ++gy) {
      for (uint32_t gx = 0; gx < w; ++gx) {
        const uint8_t* sample = src + (size_t(gy) * w + stored(gx, w)) * bps;
        // Guest sample (gx, gy) is sample (gx % msx, gy % msy) of pixel (gx / msx, gy / msy);
        // host pixel (px S + i, py T + j) holds the same sample.
        for (uint32_t j = 0; j < sy; ++j) {
          const uint32_t hy = ((gy / msy) * sy + j) * msy + gy % msy;
          for (uint32_t i = 0; i < sx; ++i) {
            const uint32_t hx = ((gx / msx) * sx + i) * msx + gx % msx;
            std::memcpy(dst + (size_t(hy) * w * sx + stored(hx, w * sx)) * bps, sample, bps);
          }
        }
      }
    }
  }
}

void SnapshotRestore::Restore(std::span<const uint8_t> guest, Edram& edram,
                              EdramTracker& tracker) {
  RestoreEdramSnapshot(guest, edram);
  guest_.assign(guest.begin(), guest.end());
  tracker.RestoreSnapshot();
}

bool SnapshotRestore::Move(const Transfer& t, Edram& edram, EdramLogEntry& entry,
                           bool* rewritten) const {
  if (!t.source.edram_snapshot) return false;
  *rewritten = SnapshotNeedsRelayout(t.dest, edram.scale_x(), edram.scale_y());
  if (*rewritten) {
    ExpandSnapshotTiles(guest_, t.dest, t.start_tile, t.end_tile, edram);
    entry.note += "snapshot rewritten in the target's sample layout";
  } else {
    entry.note += "snapshot words already in the target's layout";
  }
  entry.data_moved = true;
  return true;
}

}  // namespace xnt::gpu::edram
