// The compact per-tile pixel history of the chunk scripts (see history_tile_table.h).
#include "history_tile_table.h"

#include <algorithm>
#include <cstdio>

#include "xnt/base/json.h"

namespace xnt::inspect {

void AppendQuoted(std::string& out, std::string_view text) {
  const auto plain = [](char c) {
    return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x80 &&
           c != '"' && c != '\\';
  };
  if (std::all_of(text.begin(), text.end(), plain)) {
    out += '"';
    out += text;
    out += '"';
    return;
  }
  AppendJsonString(out, text);  // escapes, and replaces bytes that are not UTF-8 (a file name)
}

uint32_t HistoryTileTable::Intern(std::unordered_map<std::string, uint32_t>& index,
                                  std::vector<std::string>& table, std::string text) {
  const auto [it, added] = index.try_emplace(std::move(text), uint32_t(table.size()));
  if (added) table.push_back(it->first);
  return it->second;
}

void HistoryTileTable::Add(uint32_t local, uint32_t x, uint32_t y, ResolutionScale scale,
                           const HistoryEntry& entry, uint64_t id) {
  if (const auto known = id_index_.find(id); known != id_index_.end()) {
    pixels_[local].push_back(known->second);
    return;
  }
  // Each value once per tile: entries that differ in one field (a gradient's colour, its bits)
  // still share the target, the event's state and the outcome.
  const auto value = [&](std::string_view text) {
    std::string quoted;
    AppendQuoted(quoted, text);
    return std::to_string(Intern(value_index_, values_, std::move(quoted)));
  };
  std::string keys = "[", row;
  for (const HistoryField& f : entry.fields) {
    if (keys.size() > 1) keys += ',';
    AppendQuoted(keys, f.name);
    unsigned hx = 0, hy = 0;
    if (f.name == "host pixel" && std::sscanf(f.value.c_str(), "%u,%u", &hx, &hy) == 2) {
      row += "," + value(std::to_string(hx - x * scale.x) + "," + std::to_string(hy - y * scale.y));
    } else {
      row += "," + value(f.value);
    }
  }
  keys += ']';
  std::string text = "[" + std::to_string(Intern(key_index_, keys_, std::move(keys))) + "," +
                     value(entry.EventName()) + "," + value(entry.kind) + row + "]";
  const uint32_t index = Intern(entry_index_, entries_, std::move(text));
  id_index_.emplace(id, index);
  pixels_[local].push_back(index);
}

std::string HistoryTileTable::Members() const {
  std::string s = "\"values\":[";
  for (size_t i = 0; i < values_.size(); ++i) s += (i ? "," : "") + values_[i];
  s += "],\n\"keys\":[";
  for (size_t i = 0; i < keys_.size(); ++i) s += (i ? "," : "") + keys_[i];
  s += "],\"entries\":[";
  for (size_t i = 0; i < entries_.size(); ++i) s += (i ? ",\n" : "\n") + entries_[i];
  s += "],\n\"runs\":[";
  bool first = true;
  for (uint32_t p = 0; p < pixels_.size();) {
    if (pixels_[p].empty()) {
      ++p;
      continue;
    }
    uint32_t n = 1;
    while (p + n < pixels_.size() && pixels_[p + n] == pixels_[p]) ++n;
    s += std::string(first ? "" : ",") + "[" + std::to_string(p) + "," + std::to_string(n) + ",[";
    for (size_t i = 0; i < pixels_[p].size(); ++i) s += (i ? "," : "") + std::to_string(pixels_[p][i]);
    s += "]]";
    first = false;
    p += n;
  }
  return s + "]";
}

}  // namespace xnt::inspect
