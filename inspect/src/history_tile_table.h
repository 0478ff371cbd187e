// One target's pixel history within one tile of the inspector page's chunk scripts, compact:
// every distinct value once (a table), the distinct entries once, each as indices of its event,
// kind and field values under a shared key list, and the tile's pixels as runs of consecutive
// pixels (row-major in the tile) with the same list of entries. A cleared and drawn pixel repeats its neighbours' entries exactly (the same event,
// the same bits before and after), so a flat region costs one run, not a copy per pixel.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "xnt/base/resolution_scale.h"
#include "xnt/inspect/pixel_history.h"

namespace xnt::inspect {

class HistoryTileTable {
 public:
  // Appends `entry` to the list of the pixel at `local` (y * kHistoryTile + x in the tile), guest
  // pixel (x, y) of the frame. A "host pixel" field is kept relative to the guest pixel's first
  // host pixel at `scale` ("dx,dy"), so the host pixels of a flat region share their entries.
  // `id`: entries with the same id are the same (VisitFrameHistories), made into text once.
  void Add(uint32_t local, uint32_t x, uint32_t y, ResolutionScale scale, const HistoryEntry& entry,
           uint64_t id);
  bool empty() const { return entries_.empty(); }
  // The members `"values":[...],"keys":[...],"entries":[...],"runs":[...]` of the tile's
  // XNT.history call.
  std::string Members() const;

 private:
  // Looked up by view (a tile adds thousands of entries, most of them already known: no string
  // is made unless the text is new).
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
  };
  using Index = std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>>;
  static uint32_t Intern(Index& index, std::vector<std::string>& table, std::string_view text);
  // `text` quoted as a JSON string, interned among the values; its index appended to `row`.
  void AppendValue(std::string& row, std::string_view text);
  Index value_index_, key_index_, entry_index_;
  std::unordered_map<uint64_t, uint32_t> id_index_;
  std::vector<std::string> values_;          // JSON strings
  std::vector<std::string> keys_, entries_;  // JSON arrays
  std::string quoted_, keys_text_, row_, entry_text_;  // scratch, kept for their capacity
  std::vector<std::vector<uint32_t>> pixels_ = std::vector<std::vector<uint32_t>>(kHistoryTile * kHistoryTile);
};

// `text` as a quoted JSON string appended to `out` (ASCII fast path; other bytes through the one
// escaping every JSON output uses).
void AppendQuoted(std::string& out, std::string_view text);

}  // namespace xnt::inspect
