// The HTML report: one self-contained page (images inlined as data: URIs, no external resources).
// Keys 1/a before, 2/b after, 3/d diff, 4/h heatmap; +/- or the wheel zoom to the pixel
// (image-rendering: pixelated), 0 fits; the pixel under the cursor and both images' values are
// shown. Failing items come first and open; passing ones are collapsed in <details>.
// The view can be preset with the URL hash (#view=d, #zoom=4) so a headless browser can capture
// each view. Script errors are collected into #xnt-status for automated checks.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "xnt/diff/png.h"
#include "xnt/diff/report.h"

namespace xnt::diff {
namespace {

std::string Esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Base64(const std::vector<uint8_t>& in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = uint32_t(in[i]) << 16 | uint32_t(in[i + 1]) << 8 | in[i + 2];
    out += k[v >> 18];
    out += k[(v >> 12) & 63];
    out += k[(v >> 6) & 63];
    out += k[v & 63];
  }
  if (i < in.size()) {
    uint32_t v = uint32_t(in[i]) << 16 | (i + 1 < in.size() ? uint32_t(in[i + 1]) << 8 : 0);
    out += k[v >> 18];
    out += k[(v >> 12) & 63];
    out += i + 1 < in.size() ? k[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string DataUri(const std::string& dir, const std::string& rel) {
  return "data:image/png;base64," + Base64(ReadFileBytes((std::filesystem::path(dir) / rel).string()));
}

std::string F(const char* fmt, double v) {
  if (std::isinf(v)) return "&infin;";
  char buf[48];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

const char* kStyle = R"CSS(
body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#1e1e1e;color:#ddd}
header{padding:12px 16px;background:#111;border-bottom:1px solid #333;position:sticky;top:0;z-index:2}
h1{font-size:18px;margin:0 0 4px}
span.pass{color:#6c6}span.differ{color:#f66}span.error{color:#fb4}
details.differ{border-color:#844}details.error{border-color:#874}
.help{color:#999;font-size:12px}
details.item{margin:10px 16px;border:1px solid #333;border-radius:4px;background:#252525}
details.item>summary{padding:8px 10px;cursor:pointer}
.badge{display:inline-block;min-width:54px;font-weight:bold;text-transform:uppercase}
.body{padding:8px 12px}
table.m{border-collapse:collapse;font:12px monospace;margin:6px 0}
table.m td,table.m th{border:1px solid #3a3a3a;padding:2px 6px;text-align:right}
table.m th{background:#2e2e2e}
.reasons{color:#f88;margin:4px 0}
.toolbar button{background:#333;color:#ddd;border:1px solid #555;padding:2px 8px;margin-right:2px;cursor:pointer}
.toolbar button.on{background:#557;border-color:#88c}
.readout{font:12px monospace;margin-left:10px;color:#cfc}
.viewer{overflow:auto;max-height:75vh;border:1px solid #333;margin-top:6px;background:
 repeating-conic-gradient(#2a2a2a 0 25%,#333 0 50%) 0 0/16px 16px}
.viewer img{image-rendering:pixelated;image-rendering:crisp-edges;display:none;cursor:crosshair}
body[data-view=a] .viewer img.v-a,body[data-view=b] .viewer img.v-b,
body[data-view=d] .viewer img.v-d,body[data-view=h] .viewer img.v-h{display:block}
.viewname{font-weight:bold;margin-left:8px}
)CSS";

const char* kScript = R"JS(
(function(){
  var status=document.getElementById('xnt-status'), errors=[];
  window.addEventListener('error',function(e){errors.push(String(e.message));status.textContent='error: '+errors.join('; ');});
  var names={a:'before (A)',b:'after (B)',d:'difference',h:'heatmap'};
  var zoom=0; // 0 = fit to width
  function setView(v){
    if(!names[v])return;
    document.body.setAttribute('data-view',v);
    document.querySelectorAll('.toolbar button[data-view]').forEach(function(b){b.classList.toggle('on',b.getAttribute('data-view')===v);});
    document.querySelectorAll('.viewname').forEach(function(s){s.textContent=names[v];});
  }
  function applyZoom(){
    document.querySelectorAll('.item').forEach(function(it){
      var w=+it.getAttribute('data-w'), viewer=it.querySelector('.viewer'); if(!w||!viewer)return;
      var z=zoom>0?zoom:Math.max(1e-3,Math.min(1,(viewer.clientWidth||800)/w));
      it.querySelectorAll('.viewer img').forEach(function(img){img.style.width=(img.naturalWidth||w)*z+'px';});
      it.setAttribute('data-zoom',z);
    });
  }
  function zoomBy(f){
    var cur=zoom>0?zoom:1; zoom=Math.max(0.125,Math.min(64,cur*f)); applyZoom();
  }
  var canvases=new WeakMap();
  function pixel(img,x,y){
    var c=canvases.get(img);
    if(!c){c=document.createElement('canvas');c.width=img.naturalWidth;c.height=img.naturalHeight;
      c.getContext('2d').drawImage(img,0,0);canvases.set(img,c);}
    return Array.prototype.slice.call(c.getContext('2d').getImageData(x,y,1,1).data);
  }
  document.querySelectorAll('.item').forEach(function(it){
    var ro=it.querySelector('.readout'); if(!ro)return;
    it.querySelectorAll('.viewer img').forEach(function(img){
      img.addEventListener('mousemove',function(e){
        var z=+it.getAttribute('data-zoom')||1, x=Math.floor(e.offsetX/z), y=Math.floor(e.offsetY/z);
        var w=+it.getAttribute('data-w'), h=+it.getAttribute('data-h');
        if(x<0||y<0||x>=w||y>=h){ro.textContent='';return;}
        var a=pixel(it.querySelector('img.v-a'),x,y), b=pixel(it.querySelector('img.v-b'),x,y);
        ro.textContent='('+x+','+y+')  A '+a.join(',')+'  B '+b.join(',')+'  (8-bit)';
      });
      img.addEventListener('wheel',function(e){e.preventDefault();zoomBy(e.deltaY<0?2:0.5);},{passive:false});
    });
  });
  document.querySelectorAll('.toolbar button').forEach(function(b){
    b.addEventListener('click',function(){
      var v=b.getAttribute('data-view'), z=b.getAttribute('data-zoom');
      if(v)setView(v); else if(z==='in')zoomBy(2); else if(z==='out')zoomBy(0.5); else if(z==='fit'){zoom=0;applyZoom();}
    });
  });
  var keys={'1':'a','a':'a','2':'b','b':'b','3':'d','d':'d','4':'h','h':'h'};
  document.addEventListener('keydown',function(e){
    if(e.ctrlKey||e.metaKey||e.altKey)return;
    if(keys[e.key]){setView(keys[e.key]);}
    else if(e.key==='+'||e.key==='='){zoomBy(2);} else if(e.key==='-'){zoomBy(0.5);}
    else if(e.key==='0'){zoom=0;applyZoom();}
  });
  var hash={}; location.hash.replace(/^#/,'').split('&').forEach(function(kv){var p=kv.split('=');if(p[0])hash[p[0]]=p[1];});
  setView(hash.view||'a');
  if(hash.zoom)zoom=Math.max(0.125,Math.min(64,+hash.zoom||0));
  window.addEventListener('load',applyZoom); window.addEventListener('resize',applyZoom); applyZoom();
  var shown=document.querySelectorAll('.viewer img').length;
  if(!errors.length)status.textContent='ok views='+document.body.getAttribute('data-view')+' images='+shown;
})();
)JS";

void AppendItem(std::string& h, const ReportItem& it, const std::string& dir) {
  const char* st = StatusName(it.status);
  const bool open = it.status != Status::kPass;
  const Metrics& m = it.metrics;
  h += "<details class=\"item " + std::string(st) + "\"" + (open ? " open" : "");
  if (it.has_metrics) h += " data-w=\"" + std::to_string(m.width) + "\" data-h=\"" + std::to_string(m.height) + "\"";
  h += "><summary><span class=\"badge " + std::string(st) + "\">" + st + "</span> " + Esc(it.name);
  if (it.kind != ItemKind::kCompared) h += " &mdash; " + Esc(it.kind == ItemKind::kError ? it.error : ItemKindName(it.kind));
  h += "</summary><div class=\"body\">";
  h += "<div>A: " + Esc(it.path_a.empty() ? "(none)" : it.path_a) + "<br>B: " + Esc(it.path_b.empty() ? "(none)" : it.path_b);
  if (!it.note.empty()) h += "<br>" + Esc(it.note);
  if (!it.thresholds.empty()) h += "<br>checks: " + Esc(it.thresholds);
  h += "</div>";
  if (!it.reasons.empty()) {
    h += "<ul class=\"reasons\">";
    for (const auto& r : it.reasons) h += "<li>" + Esc(r) + "</li>";
    h += "</ul>";
  }
  if (it.has_metrics) {
    char buf[160];
    std::snprintf(buf, sizeof(buf), "%dx%d, %d channels compared, %s, %" PRIu64 " pixels differ, %" PRIu64 " over threshold",
                  m.width, m.height, m.channels, m.exact ? "identical" : "not identical", m.pixels_differing,
                  m.pixels_over);
    h += "<div>" + std::string(buf) + (m.max_x >= 0 ? ", max error at (" + std::to_string(m.max_x) + "," +
                                                           std::to_string(m.max_y) + ")" : "") + "</div>";
    h += "<table class=\"m\"><tr><th></th><th>max err</th><th>mean err</th><th>PSNR dB</th><th>SSIM</th><th>px over</th></tr>";
    const char* names[4] = {"R", "G", "B", "A"};
    for (int c = 0; c < m.channels; ++c) {
      const ChannelMetrics& ch = m.channel[size_t(c)];
      h += std::string("<tr><th>") + names[c] + "</th><td>" + F("%.5f", ch.max_abs) + "</td><td>" + F("%.6f", ch.mean_abs) +
           "</td><td>" + F("%.2f", ch.psnr) + "</td><td>" + (m.has_ssim ? F("%.6f", ch.ssim) : "-") + "</td><td>" +
           std::to_string(ch.pixels_over) + "</td></tr>";
    }
    h += "<tr><th>all</th><td>" + F("%.5f", m.max_abs) + "</td><td>" + F("%.6f", m.mean_abs) + "</td><td>" +
         F("%.2f", m.psnr) + "</td><td>luma " + (m.has_ssim ? F("%.6f", m.ssim_luma) : "-") + "</td><td>" +
         std::to_string(m.pixels_over) + "</td></tr>";
    h += "<tr><th>FLIP-style</th><td colspan=5 style=\"text-align:left\">mean " + (m.has_flip ? F("%.5f", m.flip_mean) : "-") +
         ", max " + (m.has_flip ? F("%.5f", m.flip_max) : "-") + "</td></tr></table>";
  }
  if (!it.image_a.empty()) {
    h += "<div class=\"toolbar\"><button data-view=\"a\">before (1)</button><button data-view=\"b\">after (2)</button>"
         "<button data-view=\"d\">diff (3)</button><button data-view=\"h\">heatmap (4)</button> "
         "<button data-zoom=\"out\">&minus;</button><button data-zoom=\"in\">+</button><button data-zoom=\"fit\">fit</button>"
         "<span class=\"viewname\"></span><span class=\"readout\"></span></div>";
    h += "<div class=\"viewer\">";
    h += "<img class=\"v v-a\" alt=\"before\" src=\"" + DataUri(dir, it.image_a) + "\">";
    h += "<img class=\"v v-b\" alt=\"after\" src=\"" + DataUri(dir, it.image_b) + "\">";
    h += "<img class=\"v v-d\" alt=\"diff\" src=\"" + DataUri(dir, it.image_diff) + "\">";
    h += "<img class=\"v v-h\" alt=\"heatmap\" src=\"" + DataUri(dir, it.image_heat) + "\">";
    h += "</div>";
  }
  h += "</div></details>\n";
}

}  // namespace

std::string ToHtml(const Report& r, const std::string& dir) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>xenotrace diff: " +
                  std::string(StatusName(r.Overall())) + "</title><style>" + kStyle + "</style></head>\n<body data-view=\"a\">\n";
  char counts[200];
  std::snprintf(counts, sizeof(counts), "%zu items: %d pass, %d differ (%d missing, %d extra), %d error", r.items.size(),
                r.Count(Status::kPass), r.Count(Status::kDiffer), r.CountKind(ItemKind::kMissing),
                r.CountKind(ItemKind::kExtra), r.Count(Status::kError));
  h += "<header><h1>xenotrace diff: <span class=\"" + std::string(StatusName(r.Overall())) + "\">" +
       StatusName(r.Overall()) + "</span></h1><div>A: " + Esc(r.a) + " &nbsp; B: " + Esc(r.b) + "</div><div>" + counts +
       "</div><div class=\"help\">keys: 1/a before, 2/b after, 3/d diff, 4/h heatmap, +/&minus; or wheel zoom, 0 fit; "
       "values in 0..1 units (1/255 = 0.0039)</div></header>\n<main>\n";
  for (const ReportItem* it : r.Ordered()) AppendItem(h, *it, dir);
  h += "</main>\n<div id=\"xnt-status\" hidden>script did not run</div>\n<script>" + std::string(kScript) +
       "</script>\n</body></html>\n";
  return h;
}

}  // namespace xnt::diff
