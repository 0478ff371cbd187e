// The compare report page (results.h ToHtml / WriteReport): a matrix of traces x combinations
// with verdicts, then per failure its frames (reference / this / scaled difference) and the
// bisection (before/after of the first differing draw's targets on both paths, the "any
// difference" mask, its dump and shaders). Every image is inlined as a data: URI, so the page
// works offline and alone; a little script adds flicker (click an image pair), zoom with
// nearest filtering, and jump-to-largest-error.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "xnt/base/base64.h"
#include "xnt/base/error.h"
#include "xnt/base/escape.h"
#include "xnt/compare/results.h"
#include "xnt/diff/png.h"

namespace xnt::compare {
namespace fs = std::filesystem;

namespace {

const char* kStyle = R"(
body{font:14px system-ui,sans-serif;margin:1em;background:#f4f4f4;color:#111}
table.m{border-collapse:collapse}table.m td,table.m th{border:1px solid #aaa;padding:3px 8px}
.pass{background:#c8f0c8}.differ{background:#f8c8c0}.error{background:#f0d890}
.fail{background:#fff;border:1px solid #ccc;margin:1em 0;padding:.5em 1em}
.imgs{display:flex;flex-wrap:wrap;gap:10px}.imgs figure{margin:0}
.imgs img{image-rendering:pixelated;border:1px solid #888;background:#808080}
figcaption{font-size:12px;max-width:420px}pre{background:#eee;max-height:20em;overflow:auto;font-size:12px}
button{margin-right:4px}
)";

// Flicker: clicking an image in a .pair swaps it with its partner's source. Zoom: every image's
// width is its natural width times the zoom. Jump: scrolls to the frame with the largest error.
const char* kScript = R"(
(function(){
  var zoom=1, imgs=document.querySelectorAll('.imgs img');
  function apply(){imgs.forEach(function(i){if(i.naturalWidth)i.style.width=(i.naturalWidth*zoom)+'px';});
    document.getElementById('zoom').textContent='zoom '+zoom+'x';}
  imgs.forEach(function(i){i.addEventListener('load',apply);
    if(i.dataset.flip){i.title='click: flicker with '+i.dataset.fliplabel;
      i.addEventListener('click',function(){var s=i.src;i.src=i.dataset.flip;i.dataset.flip=s;});}});
  document.getElementById('zin').addEventListener('click',function(){zoom=Math.min(64,zoom*2);apply();});
  document.getElementById('zout').addEventListener('click',function(){zoom=Math.max(1,zoom/2);apply();});
  document.getElementById('jump').addEventListener('click',function(){
    var best=null,max=-1;document.querySelectorAll('[data-max-error]').forEach(function(e){
      var v=parseFloat(e.dataset.maxError);if(v>max){max=v;best=e;}});
    if(best){best.scrollIntoView();best.style.outline='3px solid red';}});
  var m=/zoom=(\d+)/.exec(location.hash);if(m){zoom=Math.min(64,Math.max(1,parseInt(m[1],10)));}
  apply();
  var s=document.getElementById('status');
  s.textContent='ok images='+imgs.length+' failures='+document.querySelectorAll('.fail').length;
  document.body.dataset.ok='1';
})();
)";

class Page {
 public:
  explicit Page(const std::string& dir) : dir_(dir) {}

  std::string DataUri(const std::string& rel) {
    std::vector<uint8_t> bytes = diff::ReadFileBytes((fs::path(dir_) / rel).string());
    return "data:image/png;base64," + Base64(bytes);
  }

  // A figure; `flip` (another image's path) makes it flicker with that one on click.
  void Figure(std::string& o, const ReportImage& img, const ReportImage* flip) {
    o += "<figure><img alt=\"";
    AppendHtml(o, img.label);
    o += "\" src=\"" + DataUri(img.path) + "\"";
    if (flip) {
      o += " data-flip=\"" + DataUri(flip->path) + "\" data-fliplabel=\"";
      AppendHtml(o, flip->label);
      o += "\"";
    }
    o += "><figcaption>";
    AppendHtml(o, img.label);
    o += "</figcaption></figure>";
  }

 private:
  std::string dir_;
};

}  // namespace

std::string ToHtml(const RunResults& r, const std::string& dir) {
  Page page(dir);
  std::string o = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>xenotrace compare</title><style>";
  o += kStyle;
  o += "</style></head><body>\n<h1>xenotrace compare: ";
  o += diff::StatusName(r.Overall());
  o += "</h1>\n<p>Reference: ";
  AppendHtml(o, r.reference);
  if (!r.shard.empty()) o += " &middot; shard " + r.shard;
  o += " &middot; <span id=\"status\">script did not run</span></p>\n";
  o += "<p><button id=\"zout\">&minus;</button><span id=\"zoom\">zoom 1x</span> <button id=\"zin\">+</button>"
       "<button id=\"jump\">jump to the largest error</button> Click an image to flicker it with its partner.</p>\n";
  // The matrix.
  o += "<table class=\"m\"><tr><th>trace</th>";
  for (const std::string& c : r.combinations) {
    o += "<th>";
    AppendHtml(o, c);
    o += "</th>";
  }
  o += "</tr>\n";
  for (const std::string& t : r.traces) {
    o += "<tr><td>";
    AppendHtml(o, t);
    o += "</td>";
    for (const std::string& c : r.combinations) {
      auto it = std::find_if(r.results.begin(), r.results.end(), [&](const CombinationResult& x) {
        return x.trace == t && x.combination == c;
      });
      if (it == r.results.end()) {
        o += "<td></td>";
        continue;
      }
      const char* s = diff::StatusName(it->status);
      o += std::string("<td class=\"") + s + "\">";
      if (it->status != diff::Status::kPass) {
        o += "<a href=\"#" + std::to_string(it - r.results.begin()) + "\">" + s + "</a>";
      } else {
        o += it->reference ? "reference" : s;
      }
      o += "</td>";
    }
    o += "</tr>\n";
  }
  o += "</table>\n";
  // The failures.
  for (size_t i = 0; i < r.results.size(); ++i) {
    const CombinationResult& c = r.results[i];
    if (c.status == diff::Status::kPass) continue;
    o += "<div class=\"fail\" id=\"" + std::to_string(i) + "\"><h2>";
    AppendHtml(o, c.trace + " " + c.combination + ": " + diff::StatusName(c.status));
    o += "</h2>\n";
    if (!c.error.empty()) {
      o += "<pre>";
      AppendHtml(o, c.error);
      o += "</pre>\n";
    }
    for (const FrameResult& f : c.frames) {
      if (f.status == diff::Status::kPass) continue;
      char head[160];
      std::snprintf(head, sizeof(head), "frame %llu: max error %.6f, %llu pixels differ",
                    (unsigned long long)f.frame, f.max_error, (unsigned long long)f.pixels_differing);
      o += "<h3 data-max-error=\"" + std::to_string(f.max_error) + "\">" + head + "</h3><p>";
      AppendHtml(o, f.detail);
      o += "</p><div class=\"imgs\">";
      for (size_t k = 0; k < f.images.size(); ++k) {
        const ReportImage* flip = k < 2 && f.images.size() >= 2 ? &f.images[1 - k] : nullptr;
        page.Figure(o, f.images[k], flip);
      }
      o += "</div>\n";
    }
    for (const Bisection& b : c.bisections) {
      o += "<h3>bisection of frame " + std::to_string(b.frame) + "</h3><p class=\"bisect\">";
      AppendHtml(o, b.summary);
      o += "</p>";
      if (!b.inspect_links.empty()) {
        o += "<p class=\"inspect\">inspect " + b.Id() + ":";
        for (const auto& [label, href] : b.inspect_links) {
          o += " <a href=\"" + EscapeHtml(href) + "\">";
          AppendHtml(o, label);
          o += "</a>";
        }
        o += "</p>";
      }
      o += "<div class=\"imgs\">";
      // Images come in fives per target: ref before/after, other before/after, mask; the
      // afters flicker with each other.
      for (size_t k = 0; k < b.images.size(); ++k) {
        const ReportImage* flip = nullptr;
        if (k % 5 == 1 && k + 2 < b.images.size()) flip = &b.images[k + 2];
        if (k % 5 == 3) flip = &b.images[k - 2];
        page.Figure(o, b.images[k], flip);
      }
      o += "</div>\n";
      if (!b.shaders.empty()) {
        o += "<details><summary>shaders of " + b.Id() + "</summary><pre>";
        AppendHtml(o, b.shaders);
        o += "</pre></details>\n";
      }
      if (!b.state.empty()) {
        o += "<details><summary>xenotrace dump --frame " + std::to_string(b.frame) + " --draw " +
             std::to_string(b.draw) + "</summary><pre>";
        AppendHtml(o, b.state);
        o += "</pre></details>\n";
      }
    }
    o += "</div>\n";
  }
  o += "<script>";
  o += kScript;
  o += "</script>\n</body></html>\n";
  return o;
}

void WriteReport(const RunResults& results, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(dir + ": cannot create: " + ec.message());
  const std::string json = ToJson(results);
  diff::WriteFileBytes((fs::path(dir) / "results.json").string(), json.data(), json.size());
  const std::string html = ToHtml(results, dir);
  diff::WriteFileBytes((fs::path(dir) / "report.html").string(), html.data(), html.size());
}

}  // namespace xnt::compare
