// EDRAM snapshot records (format/records.h EdramSnapshot) restored into a render path's EDRAM.
//
// A snapshot is the whole 10 MiB EDRAM as the hardware holds it: 2048 tiles of 80x16 32-bit
// words, tile after tile (Xenia trace_protocol.h EdramSnapshotCommand: the render-target cache's
// dump of its EDRAM buffer). It records no layout: which target owns a tile (format, 32 or 64
// bits a sample, MSAA, colour or depth) is not in it. At 1x that does not matter: the EDRAM is
// the snapshot's bytes. At a resolution scale S x T every guest sample covers an S x T block of
// host samples (edram.h Surface::SampleOffset), and where a block lies in the scaled tile
// depends on the layout: a 64bpp sample is two words, and with 2x/4x MSAA the samples of a pixel
// interleave with the pixel's host copies. A snapshot at a scale therefore means "each guest
// sample replicated to its host block, in the layout of the target that next uses the tile":
//  - RestoreEdramSnapshot copies every guest word of a tile (x, y) to the words (xS + i, yT + j):
//    that is the replication itself for 1-sample 32bpp colour and depth (a depth tile's two
//    swapped 40-word halves are whole blocks), and the snapshot's bytes at 1x;
//  - the tracker gives every tile to the neutral snapshot owner (OwnerKey::Snapshot); the first
//    target to use such tiles takes them with a transfer from it, and ExpandSnapshotTiles
//    rewrites them from the snapshot in that target's layout (every layout exact).
// Until a target uses them, a scaled snapshot's 64bpp and MSAA tiles read as the word
// replication (only the whole-EDRAM views, e.g. compare's bisection snapshots, see that).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "xnt/gpu/edram.h"
#include "xnt/gpu/edram_ownership.h"
#include "xnt/gpu/edram_tracker.h"

namespace xnt::gpu::edram {

// Throws xnt::Error unless `bytes` is the size of the whole EDRAM (10 MiB).
void CheckEdramSnapshotSize(size_t bytes);
// The whole (scaled) EDRAM from a snapshot's guest bytes, each word replicated to its block.
void RestoreEdramSnapshot(std::span<const uint8_t> guest, Edram& edram);
// Whether `owner`'s layout at S x T places a guest sample's host block elsewhere than the word
// replication does: S > 1 with 4x MSAA or 64bpp, T > 1 with 2x or 4x MSAA.
bool SnapshotNeedsRelayout(const OwnerKey& owner, uint32_t scale_x, uint32_t scale_y);
// Rewrites tiles [start, end) (within [0, 2048)) of `edram` from the snapshot's guest bytes in
// `owner`'s layout: every sample of every guest pixel to the same sample of its S x T host
// pixels.
void ExpandSnapshotTiles(std::span<const uint8_t> guest, const OwnerKey& owner, uint32_t start,
                         uint32_t end, Edram& edram);

// A path's last restored snapshot, kept for the transfers out of the snapshot owner.
class SnapshotRestore {
 public:
  // Replaces the EDRAM by the snapshot and gives every tile to the snapshot owner.
  void Restore(std::span<const uint8_t> guest, Edram& edram, EdramTracker& tracker);
  // For a tracker mover. False when `t` does not come from the snapshot owner. Otherwise
  // rewrites t's tiles in t.dest's layout where SnapshotNeedsRelayout says so, sets *rewritten
  // accordingly, fills entry's data_moved and note, and returns true.
  bool Move(const Transfer& t, Edram& edram, EdramLogEntry& entry, bool* rewritten) const;

 private:
  std::vector<uint8_t> guest_;
};

}  // namespace xnt::gpu::edram
