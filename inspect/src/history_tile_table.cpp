// The compact per-tile pixel history of the chunk scripts (see history_tile_table.h).
#include "history_tile_table.h"

#include <algorithm>
#include <charconv>
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

uint32_t HistoryTileTable::Intern(Index& index, std::vector<std::string>& table,
                                  std::string_view text) {
  if (const auto it = index.find(text); it != index.end()) return it->second;
  const uint32_t n = uint32_t(table.size());
  table.emplace_back(text);
  index.emplace(table.back(), n);
  return n;
}

namespace {

void AppendNumber(std::string& out, uint64_t n) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), n).ptr);
}

}  // namespace

void HistoryTileTable::AppendValue(std::string& row, std::string_view text) {
  quoted_.clear();
  AppendQuoted(quoted_, text);
  row += ',';
  AppendNumber(row, Intern(value_index_, values_, quoted_));
}

void HistoryTileTable::Add(uint32_t local, uint32_t x, uint32_t y, ResolutionScale scale,
                           const HistoryEntry& entry, uint64_t id) {
  if (const auto known = id_index_.find(id); known != id_index_.end()) {
    pixels_[local].push_back(known->second);
    return;
  }
  // Each value once per tile: entries that differ in one field (a gradient's colour, its bits)
  // still share the target, the event's state and the outcome.
  keys_text_ = "[";
  row_.clear();
  for (const HistoryField& f : entry.fields) {
    if (keys_text_.size() > 1) keys_text_ += ',';
    AppendQuoted(keys_text_, f.name);
    unsigned hx = 0, hy = 0;
    if (f.name == "host pixel" && std::sscanf(f.value.c_str(), "%u,%u", &hx, &hy) == 2) {
      AppendValue(row_, std::to_string(hx - x * scale.x) + "," + std::to_string(hy - y * scale.y));
    } else {
      AppendValue(row_, f.value);
    }
  }
  keys_text_ += ']';
  // The values' order in the table: the fields', the kind, the event (as the page has always
  // been given them); the entry names them as [keys, event, kind, fields...].
  std::string kind, event;
  AppendValue(kind, entry.kind);
  AppendValue(event, entry.EventName());
  entry_text_ = "[";
  AppendNumber(entry_text_, Intern(key_index_, keys_, keys_text_));
  entry_text_ += event;
  entry_text_ += kind;
  entry_text_ += row_;
  entry_text_ += ']';
  const uint32_t index = Intern(entry_index_, entries_, entry_text_);
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
