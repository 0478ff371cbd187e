// EDRAM transfer log reports (see edram_report.h).
#include "xnt/gpu/edram_report.h"

#include "xnt/base/json.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <vector>

namespace xnt::gpu {

namespace {

constexpr uint32_t kTiles = xenos::kEdramTileCount;


std::string Html(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string Printf(const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), fmt, args...);
  return buf;
}

bool Selected(const EdramReportOptions& o, uint64_t frame) { return !o.frame || *o.frame == frame; }

std::string KeyJson(const edram::OwnerKey& k) {
  return Printf("{\"base_tiles\": %u, \"pitch_pixels\": %u, \"pitch_tiles\": %u, \"msaa\": %u, "
                "\"depth\": %s, \"format\": ",
                k.base_tiles, k.pitch_pixels, k.pitch_tiles, k.msaa_samples,
                k.is_depth ? "true" : "false") +
         JsonString(k.FormatName()) + "}";
}

}  // namespace

EdramTotals ComputeEdramTotals(const EdramTracker& tracker, const EdramReportOptions& options) {
  EdramTotals t;
  for (auto& e : tracker.log()) {
    if (!Selected(options, e.frame)) continue;
    ++t.transfers;
    t.tiles += e.transfer.tiles();
    t.bytes += e.transfer.bytes;
    t.moved += e.data_moved;
    t.moved_on_gpu += e.data_moved && e.on_gpu;
  }
  for (auto& c : tracker.claims()) {
    if (!Selected(options, c.frame)) continue;
    ++t.claims;
    t.guessed += c.guessed;
  }
  return t;
}

std::string EdramReportText(const EdramTracker& tracker, const EdramReportOptions& options) {
  std::string out;
  if (!options.title.empty()) out += options.title + "\n";
  out += "event  frame  tiles        bytes  source -> destination  (reason)\n";
  std::map<std::string, std::pair<uint64_t, uint64_t>> by_reason;
  for (auto& e : tracker.log()) {
    if (!Selected(options, e.frame)) continue;
    const auto& t = e.transfer;
    out += Printf("%5" PRIu64 "  %5" PRIu64 "  %4u-%-4u %10" PRIu64 "  ", t.draw_index, e.frame,
                  t.start_tile, t.end_tile, t.bytes) +
           t.source.Describe() + " -> " + t.dest.Describe() + "  (" + t.reason + ", " +
           t.trigger + (e.data_moved ? "" : ", not moved") + ")" +
           (e.note.empty() ? "" : " [" + e.note + "]") + "\n";
    by_reason[t.reason].first++;
    by_reason[t.reason].second += t.bytes;
  }
  EdramTotals tot = ComputeEdramTotals(tracker, options);
  out += Printf("totals: %" PRIu64 " transfers, %" PRIu64 " tiles, %" PRIu64
                " bytes (%" PRIu64 " moved: %" PRIu64 " on the GPU, %" PRIu64
                " through the CPU); %" PRIu64 " ownership claims, %" PRIu64
                " with a guessed extent\n",
                tot.transfers, tot.tiles, tot.bytes, tot.moved, tot.moved_on_gpu,
                tot.moved - tot.moved_on_gpu, tot.claims, tot.guessed);
  out += Printf("naive store-all/load-all-on-binding-change cache: %" PRIu64 " transfers, %" PRIu64
                " bytes\n",
                options.naive_transfers, options.naive_bytes);
  for (auto& [reason, v] : by_reason) {
    out += Printf("  %6" PRIu64 " x %12" PRIu64 " bytes  ", v.first, v.second) + reason + "\n";
  }
  return out;
}

std::string EdramReportJson(const EdramTracker& tracker, const EdramReportOptions& options) {
  EdramTotals tot = ComputeEdramTotals(tracker, options);
  std::string out = "{\n  \"title\": " + JsonString(options.title) + ",\n";
  out += "  \"frame\": " + (options.frame ? std::to_string(*options.frame) : "null") + ",\n";
  out += "  \"transfers\": [";
  bool first = true;
  for (auto& e : tracker.log()) {
    if (!Selected(options, e.frame)) continue;
    const auto& t = e.transfer;
    out += std::string(first ? "" : ",") + "\n    {" +
           Printf("\"event\": %" PRIu64 ", \"frame\": %" PRIu64 ", \"start_tile\": %u, "
                  "\"end_tile\": %u, \"bytes\": %" PRIu64 ", ",
                  t.draw_index, e.frame, t.start_tile, t.end_tile, t.bytes) +
           "\"source\": " + KeyJson(t.source) + ", \"dest\": " + KeyJson(t.dest) +
           ", \"reason\": " + JsonString(t.reason) + ", \"trigger\": " + JsonString(t.trigger) +
           ", \"data_moved\": " + (e.data_moved ? "true" : "false") +
           ", \"on_gpu\": " + (e.on_gpu ? "true" : "false") + ", \"note\": " +
           JsonString(e.note) + "}";
    first = false;
  }
  out += std::string(first ? "" : "\n  ") + "],\n";
  out += Printf("  \"totals\": {\"transfers\": %" PRIu64 ", \"tiles\": %" PRIu64
                ", \"bytes\": %" PRIu64 ", \"moved\": %" PRIu64 ", \"moved_on_gpu\": %" PRIu64
                ", \"claims\": %" PRIu64 ", \"guessed_extents\": %" PRIu64 "},\n",
                tot.transfers, tot.tiles, tot.bytes, tot.moved, tot.moved_on_gpu, tot.claims,
                tot.guessed);
  out += Printf("  \"naive\": {\"transfers\": %" PRIu64 ", \"bytes\": %" PRIu64 "}\n}\n",
                options.naive_transfers, options.naive_bytes);
  return out;
}

std::string EdramReportHtml(const EdramTracker& tracker, const EdramReportOptions& options) {
  // Owner segments: per tile, who owned it from which event until which.
  std::map<edram::OwnerKey, uint32_t> ids;
  struct Segment {
    uint32_t tile0, tile1;
    uint64_t from, to;
    uint32_t owner;
  };
  std::vector<Segment> segments;
  std::vector<int64_t> owner(kTiles, -1);
  std::vector<uint64_t> since(kTiles, 0);
  uint64_t events = std::max<uint64_t>(tracker.events(), 1);
  auto close = [&](uint32_t tile, uint64_t now) {
    if (owner[tile] >= 0 && now > since[tile]) {
      if (!segments.empty() && segments.back().tile1 == tile && segments.back().from == since[tile] &&
          segments.back().to == now && segments.back().owner == uint32_t(owner[tile])) {
        segments.back().tile1 = tile + 1;
      } else {
        segments.push_back({tile, tile + 1, since[tile], now, uint32_t(owner[tile])});
      }
    }
  };
  for (auto& c : tracker.claims()) {
    uint32_t id = ids.emplace(c.owner, uint32_t(ids.size())).first->second;
    for (uint32_t i = 0; i < c.tiles && i < kTiles; ++i) {
      uint32_t tile = (c.start_tile + i) % kTiles;
      if (owner[tile] == int64_t(id)) continue;
      close(tile, c.event);
      owner[tile] = id;
      since[tile] = c.event;
    }
  }
  for (uint32_t tile = 0; tile < kTiles; ++tile) close(tile, events);

  // SVG units: events across, tiles down. The tile axis shows 0 up to the highest tile ever
  // claimed (at least 16), so small targets stay visible.
  uint32_t shown = 16;
  for (auto& s : segments) shown = std::max(shown, s.tile1);
  const double width = 1000.0, height = 1024.0;
  double ex = width / double(events), ty = height / double(shown);
  auto colour = [](uint32_t id) {
    return Printf("hsl(%u,70%%,%u%%)", (id * 137u) % 360u, 45u + (id % 3u) * 10u);
  };
  std::vector<std::string> names(ids.size());
  for (auto& [key, id] : ids) names[id] = key.Describe();

  EdramTotals tot = ComputeEdramTotals(tracker, EdramReportOptions{});
  std::string svg;
  for (auto& s : segments) {
    svg += Printf("<rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\" fill=\"", double(s.from) * ex,
                  double(s.tile0) * ty, double(s.to - s.from) * ex, double(s.tile1 - s.tile0) * ty) +
           colour(s.owner) +
           Printf("\"><title>tiles %u-%u, events %" PRIu64 "-%" PRIu64 ": ", s.tile0, s.tile1,
                  s.from, s.to) +
           Html(names[s.owner]) + "</title></rect>\n";
  }
  for (auto& e : tracker.log()) {
    const auto& t = e.transfer;
    svg += Printf("<rect class=\"t\" x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\"><title>"
                  "event %" PRIu64 " tiles %u-%u: ",
                  double(t.draw_index) * ex, double(t.start_tile) * ty, std::max(ex, 2.0),
                  std::max(double(t.tiles()) * ty, 2.0), t.draw_index, t.start_tile, t.end_tile) +
           Html(t.source.Describe() + " -> " + t.dest.Describe() + " (" + t.reason + ")") +
           "</title></rect>\n";
  }
  std::string legend;
  for (uint32_t id = 0; id < names.size(); ++id) {
    legend += "<li><span class=\"sw\" style=\"background:" + colour(id) + "\"></span>" +
              Html(names[id]) + "</li>\n";
  }
  std::string html = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>EDRAM ownership</title>
<style>
body{font:14px sans-serif;margin:16px;background:#fafafa;color:#222}
svg{background:#fff;border:1px solid #999;width:100%;max-width:1100px;height:auto}
rect.t{fill:none;stroke:#000;stroke-width:3;stroke-dasharray:6 3;vector-effect:non-scaling-stroke}
.sw{display:inline-block;width:14px;height:14px;margin-right:6px;vertical-align:middle}
ul{list-style:none;padding:0}
</style></head><body>
<h1>EDRAM ownership map</h1>
<p>)" + Html(options.title) +
                     R"(</p>
<p>Horizontal: renderer events (draws and resolves) in order; vertical: EDRAM tiles from 0 (top)
to the highest tile used, )" + std::to_string(shown) + R"( (of 2048). Colours are owners (render-target keys);
dashed black outlines are transfers.</p>
<p id="xnt-status">script not run</p>
)" + Printf("<p>%" PRIu64 " events, %" PRIu64 " ownership claims, %" PRIu64
            " transfers (%" PRIu64 " bytes); naive cache: %" PRIu64 " transfers (%" PRIu64
            " bytes)</p>\n",
            tracker.events(), tot.claims, tot.transfers, tot.bytes, options.naive_transfers,
            options.naive_bytes) +
                     Printf("<svg id=\"map\" viewBox=\"0 0 %.0f %.0f\" preserveAspectRatio=\"none\" "
                            "xmlns=\"http://www.w3.org/2000/svg\">\n",
                            width, height) +
                     svg + "</svg>\n<h2>Owners</h2><ul>\n" + legend + R"(</ul>
<script>
(function () {
  var svg = document.getElementById('map');
  var owners = svg.querySelectorAll('rect:not(.t)').length;
  var transfers = svg.querySelectorAll('rect.t').length;
  document.getElementById('xnt-status').textContent =
      'ok segments=' + owners + ' transfers=' + transfers;
})();
</script>
</body></html>
)";
  return html;
}

}  // namespace xnt::gpu
