// Pixel history as the inspector page's per-tile chunk scripts (see pixel_history.h), in the
// compact form of history_tile_table.h.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "history_replay.h"
#include "history_tile_table.h"
#include "xnt/base/atomic_file.h"
#include "xnt/base/error.h"
#include "xnt/inspect/pixel_history.h"

namespace xnt::inspect {

namespace {

// Watched EDRAM samples per replay when HistoryChunkOptions::band_rows is 0: a watch record is
// about 150 bytes and a sample sees a few events, so a band holds some 100 MB of records at most
// while a 320x240 frame (or a 720p one in five bands) is watched in one replay.
constexpr uint64_t kBandSamples = 1ull << 18;

// Guest rows per replay: whole tile rows, as many as kBandSamples allows (at least one).
uint32_t BandRows(const ReplayedFrame& first, const HistoryChunkOptions& options) {
  if (options.band_rows) return std::max(kHistoryTile, options.band_rows / kHistoryTile * kHistoryTile);
  const uint64_t host = uint64_t(options.scale.x) * options.scale.y;
  uint64_t per_row = first.swapped ? first.image.width * host : 0;
  for (const auto& u : first.watch.surfaces()) per_row += u.surface.pitch_pixels * u.surface.sample_count() * host;
  const uint64_t rows = kBandSamples / std::max<uint64_t>(per_row, 1) / kHistoryTile * kHistoryTile;
  return uint32_t(std::clamp<uint64_t>(rows, kHistoryTile, 1u << 16));
}

// The frame's height in guest rows: the front buffer's and every target's drawn rows.
uint32_t FrameRows(const ReplayedFrame& first) {
  uint32_t rows = first.swapped ? first.image.height : 0;
  for (const auto& u : first.watch.surfaces()) rows = std::max(rows, u.rows);
  return rows;
}

// One band's tables: (tile row, tile column, target index) -> that target's entries in the tile.
using BandTables = std::map<std::tuple<uint32_t, uint32_t, uint32_t>, HistoryTileTable>;

// The tile's script: one XNT.history call per target with entries in it.
std::string TileScript(const BandTables& tables, const FrameHistories& h, uint64_t frame,
                       uint32_t ty, uint32_t tx) {
  std::string script;
  for (auto it = tables.lower_bound({ty, tx, 0}); it != tables.end(); ++it) {
    if (std::get<0>(it->first) != ty || std::get<1>(it->first) != tx) break;
    if (it->second.empty()) continue;
    script += "XNT.history({\"frame\":" + std::to_string(frame) + ",\"tile\":[" + std::to_string(tx) +
              "," + std::to_string(ty) + "],\"target\":";
    AppendQuoted(script, h.targets[std::get<2>(it->first)].id);
    script += "," + it->second.Members() + "});\n";
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
  for (const uint64_t frame : frames) {
    const std::filesystem::path dir = std::filesystem::path(out_dir) / "history" / ("f" + std::to_string(frame));
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error("pixel history: cannot create " + dir.string() + ": " + ec.message());
    std::set<std::string> targets;
    std::vector<Json> written;
    ReplayedFrame first;  // the frame's targets, found once
    first.derivatives = options.derivatives;
    ReplayWatched(trace, frame, options.scale, first);
    const uint32_t band = BandRows(first, options), height = std::max(FrameRows(first), 1u);
    // Bands of tile rows, each watched in one replay (the records' memory stays bounded); once
    // the budget is spent no further band is replayed.
    uint32_t spent_at = UINT32_MAX;  // the first tile row not written in full
    for (uint32_t y0 = 0; y0 < height && spent_at == UINT32_MAX; y0 += band) {
      FrameHistories h;
      BandTables tables;
      // Records come pixel by pixel along rows: most often into the previous record's table.
      HistoryTileTable* last = nullptr;
      std::tuple<uint32_t, uint32_t, uint32_t> last_key;
      VisitFrameHistories(
          trace, first, options.scale,
          [&](const std::string&, uint32_t, uint32_t y) { return y >= y0 && y < y0 + band; }, h,
          [&](uint32_t target, std::pair<uint32_t, uint32_t> p, const HistoryEntry& e, uint64_t id) {
            const uint32_t tx = p.first / kHistoryTile, ty = p.second / kHistoryTile;
            const uint32_t local = (p.second % kHistoryTile) * kHistoryTile + p.first % kHistoryTile;
            const std::tuple<uint32_t, uint32_t, uint32_t> key{ty, tx, target};
            if (!last || key != last_key) last = &tables[key], last_key = key;
            last->Add(local, p.first, p.second, options.scale, e, id);
          });
      uint32_t width = 0;
      for (const FrameHistories::Target& t : h.targets) {
        targets.insert(t.id);
        width = std::max(width, t.width);
      }
      for (uint32_t ty = y0 / kHistoryTile; ty * kHistoryTile < std::min(y0 + band, height); ++ty) {
        for (uint32_t tx = 0; tx * kHistoryTile < width && spent_at == UINT32_MAX; ++tx) {
          const std::string script = TileScript(tables, h, frame, ty, tx);
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
