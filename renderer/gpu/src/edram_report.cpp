// EDRAM transfer log reports (see edram_report.h).
#include "xnt/gpu/edram_report.h"

#include "xnt/base/escape.h"
#include "xnt/base/json.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <vector>

namespace xnt::gpu {

namespace {

std::string Printf(const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), fmt, args...);
  return buf;
}

bool Selected(const EdramReportOptions& o, uint64_t frame) {
  return (!o.frame || *o.frame == frame) && o.frames.Contains(frame);
}

// "[start, end)": tile ranges are half-open.
std::string Tiles(uint32_t start, uint32_t end) {
  return "[" + std::to_string(start) + ", " + std::to_string(end) + ")";
}

// A render target in words: "k_8_8_8_8 colour, base tile 0, pitch 1280 px (16 tiles), 1x MSAA".
std::string KeyLong(const edram::OwnerKey& k) {
  return k.FormatName() + (k.is_depth ? " depth" : " colour") + ", base tile " +
         std::to_string(k.base_tiles) + ", pitch " + std::to_string(k.pitch_pixels) + " px (" +
         std::to_string(k.pitch_tiles) + " tiles), " + std::to_string(k.msaa_samples) + "x MSAA";
}

std::string KeyJson(const edram::OwnerKey& k) {
  return Printf("{\"base_tiles\": %u, \"pitch_pixels\": %u, \"pitch_tiles\": %u, \"msaa\": %u, "
                "\"depth\": %s, \"format\": ",
                k.base_tiles, k.pitch_pixels, k.pitch_tiles, k.msaa_samples,
                k.is_depth ? "true" : "false") +
         JsonString(k.FormatName()) + "}";
}

}  // namespace

std::string EdramEventName(const EdramReportOptions& options, uint64_t event) {
  if (event < options.event_draws.size()) {
    const auto& d = options.event_draws[size_t(event)];
    return xnt::DrawAddress(d.frame, d.draw);
  }
  return "#" + std::to_string(event);
}

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
    t.claims += c.count;
    t.guessed += c.guessed ? c.count : 0;
  }
  return t;
}

std::string EdramReportText(const EdramTracker& tracker, const EdramReportOptions& options) {
  std::string out;
  if (!options.title.empty()) out += options.title + "\n";
  out += "draw F.K    tiles           bytes  source -> destination  (reason, trigger)\n";
  std::map<std::string, std::pair<uint64_t, uint64_t>> by_reason;
  for (auto& e : tracker.log()) {
    if (!Selected(options, e.frame)) continue;
    const auto& t = e.transfer;
    out += Printf("%-10s  %-12s %8" PRIu64 "  ", EdramEventName(options, t.draw_index).c_str(),
                  Tiles(t.start_tile, t.end_tile).c_str(), t.bytes) +
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
  out += "  \"frames\": " + JsonString(options.frames.all() ? "all" : options.frames.text()) + ",\n";
  out += "  \"tile_ranges\": \"[start_tile, end_tile) half-open\",\n";
  out += "  \"transfers\": [";
  bool first = true;
  for (auto& e : tracker.log()) {
    if (!Selected(options, e.frame)) continue;
    const auto& t = e.transfer;
    out += std::string(first ? "" : ",") + "\n    {" +
           "\"draw\": " + JsonString(EdramEventName(options, t.draw_index)) + ", " +
           Printf("\"event\": %" PRIu64 ", \"frame\": %" PRIu64 ", \"start_tile\": %u, "
                  "\"end_tile\": %u, \"tiles\": %u, \"bytes\": %" PRIu64 ", ",
                  t.draw_index, e.frame, t.start_tile, t.end_tile, t.tiles(), t.bytes) +
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

namespace {

constexpr uint32_t kTiles = xenos::kEdramTileCount;

// A tick step of 1, 2, 5 x 10^n giving at most `max_ticks` ticks over [0, range].
uint32_t TickStep(uint64_t range, uint32_t max_ticks) {
  uint64_t step = 1;
  for (;;) {
    for (uint64_t m : {1u, 2u, 5u}) {
      if (range / (step * m) <= max_ticks) return uint32_t(step * m);
    }
    step *= 10;
  }
}

const char* kMapStyle = R"(
body{font:14px sans-serif;margin:16px;background:#fafafa;color:#222}
svg{background:#fff;border:1px solid #999;width:100%;max-width:1200px;height:auto}
rect.o{stroke:#fff;stroke-width:0.5}
rect.t{fill:none;stroke:#000;stroke-width:2.5;stroke-dasharray:6 3;cursor:pointer}
rect.t.hl,rect.t:hover{stroke:#e00;stroke-width:4}
.axis line{stroke:#666}.axis text{font:11px sans-serif;fill:#333}
.axis text.title{font:bold 12px sans-serif}
line.frame{stroke:#36c;stroke-dasharray:4 3}text.frame{fill:#36c;font:bold 11px sans-serif}
.sw{display:inline-block;width:14px;height:14px;margin-right:6px;vertical-align:middle}
ul{list-style:none;padding:0}
table{border-collapse:collapse;font:12px monospace;margin-top:8px}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
td:nth-child(-n+3){white-space:nowrap}
th{background:#eee}tr.hl td{background:#ffe08a}tr:target td{background:#ffe08a}
.note{color:#666}
)";

const char* kMapScript = R"(
(function () {
  var status = document.getElementById('xnt-status'), errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); status.textContent = 'error: ' + errors.join('; '); });
  function mark(i, scroll) {
    document.querySelectorAll('.hl').forEach(function (n) { n.classList.remove('hl'); });
    var r = document.getElementById('t' + i), row = document.getElementById('row' + i);
    if (r) r.classList.add('hl');
    if (row) { row.classList.add('hl'); if (scroll === 'row') row.scrollIntoView({block: 'center'}); }
    if (r && scroll === 'map') document.getElementById('map').scrollIntoView({block: 'start'});
  }
  document.querySelectorAll('rect.t').forEach(function (r) {
    r.addEventListener('click', function () { mark(r.getAttribute('data-i'), 'row'); });
  });
  document.querySelectorAll('a.tl').forEach(function (a) {
    a.addEventListener('click', function (e) { e.preventDefault(); mark(a.getAttribute('data-i'), 'map'); });
  });
  var svg = document.getElementById('map');
  var owners = svg.querySelectorAll('rect.o').length, transfers = svg.querySelectorAll('rect.t').length;
  var rows = document.querySelectorAll('#transfers tbody tr').length;
  var ticks = svg.querySelectorAll('.axis .tick').length;
  document.body.setAttribute('data-rows', rows);
  document.body.setAttribute('data-ticks', ticks);
  if (!errors.length) status.textContent = 'ok segments=' + owners + ' transfers=' + transfers;
})();
)";

// The map's frame: a plot of plot_w x plot_h pixels at (left, top), `ex` pixels per event and
// `ty` per tile, tiles [0, shown) drawn.
struct MapFrame {
  double left, top, plot_w, plot_h, ex, ty;
  uint32_t shown;
  double X(double event) const { return left + event * ex; }
  double Y(double tile) const { return top + std::min<double>(tile, shown) * ty; }
};

std::string AxesSvg(const MapFrame& m, uint32_t tile_step, uint64_t events, const EdramReportOptions& options) {
  std::string svg;
  // Axes: tiles down the left, events along the bottom (F.K), frame bounds as dashed lines.
  svg += "<g class=\"axis\">\n";
  svg += Printf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", m.left, m.top, m.left, m.top + m.plot_h);
  svg += Printf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", m.left, m.top + m.plot_h, m.left + m.plot_w,
                m.top + m.plot_h);
  for (uint32_t tile = 0; tile <= m.shown; tile += tile_step) {
    svg += Printf("<g class=\"tick\"><line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\"/>"
                  "<text x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\">%u</text></g>\n",
                  m.left - 5, m.Y(tile), m.left, m.Y(tile), m.left - 8, m.Y(tile) + 4, tile);
  }
  svg += Printf("<text class=\"title\" transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\">"
                "EDRAM tile [0, %u) of 2048</text>\n", m.top + m.plot_h / 2, m.shown);
  const uint32_t event_step = TickStep(events, 24);
  for (uint64_t ev = 0; ev < events; ev += event_step) {
    const double x = m.X(double(ev) + 0.5);
    svg += Printf("<g class=\"tick\"><line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>"
                  "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">",
                  x, m.top + m.plot_h, x, m.top + m.plot_h + 5, x, m.top + m.plot_h + 18) +
           EscapeHtml(EdramEventName(options, ev)) + "</text></g>\n";
  }
  svg += Printf("<text class=\"title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">draw F.K (frame.draw as "
                "xenotrace dump numbers them: draws, resolves and clears in one sequence)</text>\n",
                m.left + m.plot_w / 2, m.top + m.plot_h + 42);
  svg += "</g>\n";
  // Frame bounds: where the frame of consecutive events changes.
  std::vector<std::pair<uint64_t, uint64_t>> frame_starts;  // (event, frame)
  for (uint64_t ev = 0; ev < events && ev < options.event_draws.size(); ++ev) {
    const uint64_t f = options.event_draws[size_t(ev)].frame;
    if (frame_starts.empty() || frame_starts.back().second != f) frame_starts.push_back({ev, f});
  }
  for (auto& [ev, f] : frame_starts) {
    svg += Printf("<line class=\"frame\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>"
                  "<text class=\"frame\" x=\"%.2f\" y=\"%.1f\">frame %" PRIu64 "</text>\n",
                  m.X(double(ev)), m.top - 14, m.X(double(ev)), m.top + m.plot_h, m.X(double(ev)) + 3, m.top - 18, f);
  }
  return svg;
}

}  // namespace

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
  const uint64_t events = std::max<uint64_t>(tracker.events(), 1);
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
  // The tile axis ends near the last tile a real (not guessed) extent or a transfer reached.
  uint32_t used = 0, used_any = 0;
  for (auto& c : tracker.claims()) {
    uint32_t id = ids.emplace(c.owner, uint32_t(ids.size())).first->second;
    for (uint32_t i = 0; i < c.tiles && i < kTiles; ++i) {
      uint32_t tile = (c.start_tile + i) % kTiles;
      if (owner[tile] == int64_t(id)) continue;
      close(tile, c.event);
      owner[tile] = id;
      since[tile] = c.event;
    }
    const uint32_t end = std::min(kTiles, c.start_tile + c.tiles);
    used_any = std::max(used_any, end);
    if (!c.guessed) used = std::max(used, end);
  }
  for (auto& e : tracker.log()) used = std::max(used, e.transfer.end_tile);
  if (used == 0) used = used_any;
  for (uint32_t tile = 0; tile < kTiles; ++tile) close(tile, events);
  const uint32_t tile_step = TickStep(std::max<uint32_t>(used, 1), 8);
  const uint32_t shown =
      std::min<uint32_t>(kTiles, std::max<uint32_t>(1, (used + tile_step - 1) / tile_step) * tile_step);

  // Pixels: a plot of 1000 x 560 inside margins for the axes.
  const double left = 70, top = 36, plot_w = 1000, plot_h = 560, bottom = 70;
  const double ex = plot_w / double(events), ty = plot_h / double(shown);
  auto X = [&](double event) { return left + event * ex; };
  auto Y = [&](double tile) { return top + std::min<double>(tile, shown) * ty; };
  auto colour = [](uint32_t id) {
    return Printf("hsl(%u,70%%,%u%%)", (id * 137u) % 360u, 45u + (id % 3u) * 10u);
  };
  std::vector<edram::OwnerKey> keys(ids.size());
  for (auto& [key, id] : ids) keys[id] = key;
  auto name = [&](uint64_t event) { return EdramEventName(options, event); };
  auto span = [&](uint64_t from, uint64_t to) {  // events [from, to) as "draws F.K to F.K"
    return to <= from + 1 ? "draw " + name(from) : "draws " + name(from) + " to " + name(to - 1);
  };

  std::string svg = Printf("<svg id=\"map\" viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\">\n",
                           left + plot_w + 20, top + plot_h + bottom);
  svg += Printf("<clipPath id=\"plot\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath>\n",
                left, top, plot_w, plot_h);
  svg += "<g clip-path=\"url(#plot)\">\n";
  for (auto& s : segments) {
    if (s.tile0 >= shown) continue;
    svg += Printf("<rect class=\"o\" x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\" fill=\"", X(double(s.from)),
                  Y(s.tile0), double(s.to - s.from) * ex, Y(s.tile1) - Y(s.tile0)) +
           colour(s.owner) + "\" data-owner=\"" + std::to_string(s.owner) + "\"><title>tiles " +
           Tiles(s.tile0, s.tile1) + ", " + span(s.from, s.to) + "\nrender target: " +
           EscapeHtml(KeyLong(keys[s.owner])) + "</title></rect>\n";
  }
  // Transfers (every one, also outside the selected frames: the map is the whole replay).
  size_t index = 0;
  std::string rows;
  for (auto& e : tracker.log()) {
    const auto& t = e.transfer;
    const std::string where = "draw " + name(t.draw_index) + ", tiles " + Tiles(t.start_tile, t.end_tile);
    svg += Printf("<rect class=\"t\" id=\"t%zu\" data-i=\"%zu\" x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\">"
                  "<title>", index, index, X(double(t.draw_index)), Y(t.start_tile), std::max(ex, 3.0),
                  std::max(Y(t.end_tile) - Y(t.start_tile), 3.0)) +
           EscapeHtml(where + ": " + t.reason + " (" + t.trigger + ")\nfrom " + KeyLong(t.source) + "\nto " +
                KeyLong(t.dest)) +
           "</title></rect>\n";
    if (Selected(options, e.frame)) {
      rows += Printf("<tr id=\"row%zu\"><td><a class=\"tl\" href=\"#t%zu\" data-i=\"%zu\">", index, index, index) +
              EscapeHtml(name(t.draw_index)) + "</a></td><td>" + Tiles(t.start_tile, t.end_tile) + "</td><td>" +
              std::to_string(t.bytes) + "</td><td>" + EscapeHtml(KeyLong(t.source)) + "</td><td>" +
              EscapeHtml(KeyLong(t.dest)) + "</td><td>" + EscapeHtml(t.reason) + "</td><td>" + EscapeHtml(t.trigger) +
              "</td><td>" + (e.data_moved ? (e.on_gpu ? "GPU" : "CPU") : "no") +
              (e.note.empty() ? "" : " (" + EscapeHtml(e.note) + ")") + "</td></tr>\n";
    }
    ++index;
  }
  svg += "</g>\n";

  svg += AxesSvg({left, top, plot_w, plot_h, ex, ty, shown}, tile_step, events, options);
  svg += "</svg>\n";

  std::string legend;
  for (uint32_t id = 0; id < keys.size(); ++id) {
    legend += "<li><span class=\"sw\" style=\"background:" + colour(id) + "\"></span>" +
              EscapeHtml(KeyLong(keys[id])) + "</li>\n";
  }
  const EdramTotals tot = ComputeEdramTotals(tracker, options);
  std::string html = std::string("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                                 "<title>EDRAM ownership</title>\n<style>") + kMapStyle +
                     "</style></head><body>\n<h1>EDRAM ownership map</h1>\n<p>" + EscapeHtml(options.title) + "</p>\n";
  html += "<p>Across: the renderer's draws and resolves in order, named F.K; down: EDRAM tiles from 0 (top) to " +
          std::to_string(shown) + ", just past the last tile a target or transfer used" +
          (used_any > shown ? " (extents guessed to the end of the EDRAM are cut off there)" : std::string()) +
          ". Colours are owners (render targets); dashed outlines are transfers: hover for the render "
          "targets and the reason, click to find it in the table.</p>\n";
  html += Printf("<p>%" PRIu64 " events, %" PRIu64 " ownership claims, %" PRIu64 " transfers (%" PRIu64
                 " bytes); naive cache: %" PRIu64 " transfers (%" PRIu64 " bytes)</p>\n",
                 tracker.events(), tot.claims, tot.transfers, tot.bytes, options.naive_transfers,
                 options.naive_bytes);
  html += svg;
  html += "<h2>Owners (render targets)</h2><ul>\n" + legend + "</ul>\n";
  html += "<h2>Transfers</h2>\n<table id=\"transfers\"><thead><tr><th>draw F.K</th><th>tiles</th><th>bytes</th>"
          "<th>from (render target)</th><th>to (render target)</th><th>reason</th><th>trigger</th>"
          "<th>moved</th></tr></thead><tbody>\n" +
          rows + "</tbody></table>\n";
  if (rows.empty()) html += "<p class=\"note\">No ownership transfer in the selected frames.</p>\n";
  html += "<p id=\"xnt-status\" hidden>script not run</p>\n<script>" + std::string(kMapScript) +
          "</script>\n</body></html>\n";
  return html;
}

}  // namespace xnt::gpu
