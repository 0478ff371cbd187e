// EDRAM ownership map and naive-cache counter (see edram_ownership.h).
#include "xnt/gpu/edram_ownership.h"

#include <algorithm>

namespace xnt::gpu::edram {

namespace {
constexpr uint32_t kTiles = xenos::kEdramTileCount;
}

OwnerKey OwnerKey::From(const Surface& s) {
  OwnerKey k;
  k.base_tiles = s.base_tiles % kTiles;
  k.pitch_pixels = s.pitch_pixels;
  k.pitch_tiles = s.pitch_tiles();
  k.msaa_samples = s.sample_count();
  k.is_depth = s.is_depth;
  k.format = s.format;
  return k;
}

Surface OwnerKey::ToSurface() const {
  Surface s;
  s.base_tiles = base_tiles;
  s.pitch_pixels = pitch_pixels;
  s.msaa = msaa_samples == 4   ? xenos::MsaaSamples::k4X
           : msaa_samples == 2 ? xenos::MsaaSamples::k2X
                               : xenos::MsaaSamples::k1X;
  s.is_depth = is_depth;
  s.format = format;
  return s;
}

std::string OwnerKey::FormatName() const {
  if (edram_snapshot) return "EDRAM snapshot";
  return is_depth ? std::string(xenos::DepthRenderTargetFormatName(format))
                  : std::string(xenos::ColorRenderTargetFormatName(format));
}

std::string OwnerKey::Describe() const {
  if (edram_snapshot) return "EDRAM snapshot";
  return FormatName() + "@" + std::to_string(base_tiles) + " p" + std::to_string(pitch_pixels) +
         "/" + std::to_string(pitch_tiles) + "t " + std::to_string(msaa_samples) + "x";
}

std::string TransferReason(const OwnerKey& s, const OwnerKey& d) {
  if (s.edram_snapshot) return "EDRAM snapshot -> " + d.FormatName() + " layout";
  std::vector<std::string> parts;
  if (s.is_depth != d.is_depth) {
    parts.push_back(s.is_depth ? "depth -> colour" : "colour -> depth");
  }
  if (s.format != d.format || s.is_depth != d.is_depth) {
    parts.push_back("format " + s.FormatName() + " -> " + d.FormatName());
  }
  if (s.pitch_pixels != d.pitch_pixels) {
    parts.push_back("pitch " + std::to_string(s.pitch_pixels) + " -> " +
                    std::to_string(d.pitch_pixels));
  }
  if (s.msaa_samples != d.msaa_samples) {
    parts.push_back("msaa " + std::to_string(s.msaa_samples) + "x -> " +
                    std::to_string(d.msaa_samples) + "x");
  }
  if (s.base_tiles != d.base_tiles) {
    parts.push_back("base " + std::to_string(s.base_tiles) + " -> " +
                    std::to_string(d.base_tiles));
  }
  std::string r;
  for (size_t i = 0; i < parts.size(); ++i) r += (i ? ", " : "") + parts[i];
  return r;
}

OwnershipMap::OwnershipMap() { Reset(); }

void OwnershipMap::Reset() {
  ranges_.clear();
  ranges_[0] = Entry{kTiles, std::nullopt};
}

void OwnershipMap::Split(uint32_t tile) {
  if (tile == 0 || tile >= kTiles) return;
  auto it = ranges_.upper_bound(tile);
  --it;  // the range containing `tile` (the map has no gaps and starts at 0)
  if (it->first == tile) return;
  Entry tail = it->second;
  it->second.end = tile;
  ranges_[tile] = tail;
}

void OwnershipMap::Claim(const OwnerKey& dest, uint32_t start, uint32_t end,
                         std::vector<Transfer>* out) {
  if (start >= end) return;
  Split(start);
  Split(end);
  for (auto it = ranges_.find(start); it != ranges_.end() && it->first < end; ++it) {
    Entry& e = it->second;
    if (out && e.owner && !(*e.owner == dest)) {
      if (!out->empty() && out->back().end_tile == it->first && out->back().source == *e.owner) {
        out->back().end_tile = e.end;
      } else {
        Transfer t;
        t.source = *e.owner;
        t.dest = dest;
        t.start_tile = it->first;
        t.end_tile = e.end;
        t.reason = TransferReason(*e.owner, dest);
        out->push_back(t);
      }
    }
    e.owner = dest;
  }
}

void OwnershipMap::Merge() {
  auto it = ranges_.begin();
  while (it != ranges_.end()) {
    auto next = std::next(it);
    if (next == ranges_.end()) break;
    if (it->second.owner == next->second.owner) {
      it->second.end = next->second.end;
      ranges_.erase(next);
    } else {
      it = next;
    }
  }
}

std::vector<Transfer> OwnershipMap::ChangeOwnership(const OwnerKey& dest, uint32_t start,
                                                    uint32_t length) {
  std::vector<Transfer> out;
  start %= kTiles;
  length = std::min(length, kTiles);
  uint32_t first_end = std::min(start + length, kTiles);
  Claim(dest, start, first_end, &out);
  if (start + length > kTiles) Claim(dest, 0, start + length - kTiles, &out);
  for (auto& t : out) t.bytes = uint64_t(t.tiles()) * kTileBytes;
  Merge();
  return out;
}

bool OwnershipMap::WouldTransfer(const OwnerKey& dest, uint32_t start, uint32_t length) const {
  OwnershipMap copy = *this;
  return !copy.ChangeOwnership(dest, start, length).empty();
}

std::optional<OwnerKey> OwnershipMap::OwnerOf(uint32_t tile) const {
  auto it = ranges_.upper_bound(tile % kTiles);
  --it;
  return it->second.owner;
}

std::vector<OwnershipMap::Range> OwnershipMap::Ranges() const {
  std::vector<Range> out;
  for (auto& [start, e] : ranges_) out.push_back({start, e.end, e.owner});
  return out;
}

void NaiveCacheModel::OnBindings(const std::vector<std::pair<OwnerKey, uint32_t>>& bound) {
  if (bound == current_) return;
  // Store every previously bound target, load every newly bound one.
  for (auto& [key, tiles] : current_) {
    ++transfers_;
    bytes_ += uint64_t(tiles) * kTileBytes;
  }
  for (auto& [key, tiles] : bound) {
    ++transfers_;
    bytes_ += uint64_t(tiles) * kTileBytes;
  }
  current_ = bound;
}

}  // namespace xnt::gpu::edram
