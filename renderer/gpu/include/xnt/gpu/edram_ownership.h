// EDRAM ownership tracking and the transfer log (CPU only, no Vulkan).
//
// Host render targets are views of EDRAM tile ranges. The map records, for every tile, which
// render-target key last owned it (had it bound *and used*). When a draw uses a target over a
// tile range owned by a different key (other format, pitch, sample count or colour/depth), the
// data must move: the previous owner stores its tiles to the EDRAM and the new owner loads them.
// A mere binding change moves nothing (games rebind targets freely between draws;
// Xenia render_target_cache.cc ChangeOwnership). Tiles never owned yet (EDRAM content undefined) need no transfer.
//
// The map always covers [0, 2048) with no gaps; a range that wraps past tile 2047 continues at 0.
//
// NaiveCacheModel counts, for comparison, what a cache that stores every bound target and loads
// every newly bound one on *any* binding change would move.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "xnt/gpu/edram.h"

namespace xnt::gpu::edram {

struct OwnerKey {
  uint32_t base_tiles = 0;
  uint32_t pitch_pixels = 0;
  uint32_t pitch_tiles = 0;
  uint32_t msaa_samples = 1;  // 1, 2 or 4
  bool is_depth = false;
  uint32_t format = 0;
  // The neutral owner an EDRAM snapshot record leaves on every tile: the tiles hold the
  // snapshot's guest bits with no render-target layout; the next use converts them into its own
  // (edram_snapshot.h). The other fields are zero.
  bool edram_snapshot = false;

  static OwnerKey From(const Surface& s);
  static OwnerKey Snapshot() {
    OwnerKey k;
    k.edram_snapshot = true;
    return k;
  }
  Surface ToSurface() const;
  auto tie() const {
    return std::tie(base_tiles, pitch_pixels, pitch_tiles, msaa_samples, is_depth, format,
                    edram_snapshot);
  }
  bool operator==(const OwnerKey& o) const { return tie() == o.tie(); }
  bool operator<(const OwnerKey& o) const { return tie() < o.tie(); }
  std::string FormatName() const;
  std::string Describe() const;  // "k_8_8_8_8@0 p1280/16t 1x"
};

struct Transfer {
  uint64_t draw_index = 0;  // the renderer's draw/resolve event counter
  OwnerKey source, dest;
  uint32_t start_tile = 0, end_tile = 0;  // [start, end) within [0, 2048)
  uint64_t bytes = 0;                      // tiles x 5120 (the EDRAM bytes converted)
  std::string reason;                      // "format k_8_8_8_8 -> k_16_16_FLOAT", ...
  std::string trigger;                     // "draw" or "resolve"
  uint32_t tiles() const { return end_tile - start_tile; }
};

// Why `source` data has to move into `dest` (the fields that differ).
std::string TransferReason(const OwnerKey& source, const OwnerKey& dest);

class OwnershipMap {
 public:
  OwnershipMap();
  // Claims [start, start + length) (wrapping at 2048; length clamped to 2048) for `dest` and
  // returns the transfers needed, in tile order, adjacent ranges of one source coalesced.
  std::vector<Transfer> ChangeOwnership(const OwnerKey& dest, uint32_t start, uint32_t length);
  // Would claiming the range move data?
  bool WouldTransfer(const OwnerKey& dest, uint32_t start, uint32_t length) const;
  // The owner of one tile (nullopt: never owned).
  std::optional<OwnerKey> OwnerOf(uint32_t tile) const;
  struct Range {
    uint32_t start = 0, end = 0;
    std::optional<OwnerKey> owner;
  };
  std::vector<Range> Ranges() const;
  void Reset();

 private:
  struct Entry {
    uint32_t end = 0;
    std::optional<OwnerKey> owner;
  };
  void Split(uint32_t tile);  // makes `tile` a range start
  void Claim(const OwnerKey& dest, uint32_t start, uint32_t end, std::vector<Transfer>* out);
  void Merge();
  std::map<uint32_t, Entry> ranges_;
};

// A store-everything / load-everything-on-binding-change cache, counted only.
class NaiveCacheModel {
 public:
  // `bound`: every target bound for the draw (used or not) with its extent in tiles.
  void OnBindings(const std::vector<std::pair<OwnerKey, uint32_t>>& bound);
  uint64_t transfers() const { return transfers_; }
  uint64_t bytes() const { return bytes_; }

 private:
  std::vector<std::pair<OwnerKey, uint32_t>> current_;
  uint64_t transfers_ = 0, bytes_ = 0;
};

}  // namespace xnt::gpu::edram
