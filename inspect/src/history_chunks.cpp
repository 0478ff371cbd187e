// Pixel history as the inspector page's per-tile chunk scripts (see pixel_history.h).
#include <algorithm>
#include <filesystem>
#include <set>

#include "xnt/base/atomic_file.h"
#include "xnt/base/error.h"
#include "history_replay.h"
#include "xnt/inspect/pixel_history.h"

namespace xnt::inspect {

namespace {

using Tile = std::pair<uint32_t, uint32_t>;  // (TY, TX): row by row

// The tile's script: one XNT.history call per target with events in it.
std::string TileScript(const FrameHistories& h, uint64_t frame, Tile tile) {
  std::string script;
  const uint32_t x0 = tile.second * kHistoryTile, y0 = tile.first * kHistoryTile;
  for (const FrameHistories::Target& t : h.targets) {
    Json pixels = Json::object();
    const auto first = t.pixels.lower_bound({x0, 0});
    for (auto it = first; it != t.pixels.end() && it->first.first < x0 + kHistoryTile; ++it) {
      const auto [x, y] = it->first;
      if (y < y0 || y >= y0 + kHistoryTile) continue;
      Json entries = Json::array();
      for (const HistoryEntry& e : it->second) entries.push_back(HistoryEntryJson(e));
      pixels[std::to_string(x) + "," + std::to_string(y)] = std::move(entries);
    }
    if (pixels.empty()) continue;
    Json call = Json::object();
    call["frame"] = frame;
    call["tile"] = Json::array({tile.second, tile.first});
    call["target"] = t.id;
    call["pixels"] = std::move(pixels);
    script += "XNT.history(" + DumpJson(call) + ");\n";
  }
  return script;
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  if (!WriteFileAtomically(path.string(), text.data(), text.size())) {
    throw Error("pixel history: cannot write " + path.string());
  }
}

}  // namespace

HistoryChunkResult WriteHistoryChunks(const std::string& trace, const std::vector<uint64_t>& frames,
                                      const std::string& out_dir,
                                      const HistoryChunkOptions& options) {
  HistoryChunkResult result;
  const uint32_t band = std::max<uint32_t>(kHistoryTile, options.band_rows / kHistoryTile * kHistoryTile);
  for (const uint64_t frame : frames) {
    const std::filesystem::path dir = std::filesystem::path(out_dir) / "history" / ("f" + std::to_string(frame));
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error("pixel history: cannot create " + dir.string() + ": " + ec.message());
    std::set<std::string> targets;
    std::vector<Json> written;
    // Bands of tile rows, each from its own pair of replays (the watch's memory stays bounded);
    // once the budget is spent no further band is replayed.
    uint32_t height = 1, spent_at = UINT32_MAX;  // the first tile row not written in full
    ReplayedFrame first;  // the frame's targets, found once
    ReplayWatched(trace, frame, options.scale, first);
    for (uint32_t y0 = 0; y0 < height && spent_at == UINT32_MAX; y0 += band) {
      const FrameHistories h = FrameHistoriesAfter(
          trace, first, options.scale,
          [&](const std::string&, uint32_t, uint32_t y) { return y >= y0 && y < y0 + band; });
      uint32_t width = 0;
      for (const FrameHistories::Target& t : h.targets) {
        targets.insert(t.id);
        width = std::max(width, t.width);
        height = std::max(height, t.height);
      }
      for (uint32_t ty = y0 / kHistoryTile; ty * kHistoryTile < std::min(y0 + band, height); ++ty) {
        for (uint32_t tx = 0; tx * kHistoryTile < width && spent_at == UINT32_MAX; ++tx) {
          const std::string script = TileScript(h, frame, {ty, tx});
          if (script.empty()) continue;
          if (result.bytes + script.size() > options.byte_budget) {
            spent_at = ty;
            break;
          }
          WriteText(dir / ("t" + std::to_string(tx) + "_" + std::to_string(ty) + ".js"), script);
          result.bytes += script.size();
          ++result.tiles_written;
          written.push_back(Json::array({tx, ty}));
        }
      }
      if (options.progress) options.progress(frame, result.tiles_written);
    }
    const uint32_t tile_rows = (height + kHistoryTile - 1) / kHistoryTile;
    if (spent_at != UINT32_MAX) result.tiles_skipped += tile_rows - spent_at;
    Json index = Json::object();
    index["frame"] = frame;
    index["tile"] = kHistoryTile;
    index["targets"] = std::vector<std::string>(targets.begin(), targets.end());
    index["tiles"] = std::move(written);
    index["skipped"] =
        spent_at != UINT32_MAX
            ? "tile rows " + std::to_string(spent_at) + " to " + std::to_string(tile_rows - 1) +
                  " were not written in full: the pixel history byte budget (" +
                  std::to_string(options.byte_budget) + " bytes) was spent; tiles without events have no file"
            : "tiles without events have no file";
    index["command"] = "xenotrace pixel-history " + trace + " --frame " + std::to_string(frame) +
                       " --pixel X,Y [--target ID]";
    WriteText(dir / "index.js", "XNT.historyIndex(" + DumpJson(index) + ");\n");
    ++result.frames;
  }
  return result;
}

}  // namespace xnt::inspect
