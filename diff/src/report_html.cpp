// The HTML report: one self-contained page (images inlined as data: URIs, no external resources).
// Keys 1/a before, 2/b after, 3/d diff, 4/h heatmap, 5/m any-difference mask (every pixel whose
// 8-bit values differ at all, in magenta), 6/x amplified difference (|A-B| x 32), s side by side,
// p split (A left of the slider, B right), f flicker A/B; j jumps to the largest error; +/- or
// the wheel zoom to the pixel (nearest neighbour), 0 fits (small frames are enlarged by a whole
// factor); the pixel under the cursor and both images' values are shown. Mask and amplified view
// are computed in the page from the two inlined images, so a 1-LSB difference is never lost. Failing items come first and open; passing ones are collapsed in <details>.
// The view can be preset with the URL hash (#view=d, #zoom=4) so a headless browser can capture
// each view. Script errors are collected into #xnt-status for automated checks.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "xnt/base/base64.h"
#include "xnt/base/escape.h"
#include "xnt/diff/png.h"
#include "xnt/diff/report.h"

namespace xnt::diff {
namespace {

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
.viewer .v{image-rendering:pixelated;image-rendering:crisp-edges;display:none;cursor:crosshair;vertical-align:top}
.stage{position:relative;display:inline-block;line-height:0}
body[data-view=a] .viewer .v-a,body[data-view=b] .viewer .v-b,body[data-view=d] .viewer .v-d,
body[data-view=h] .viewer .v-h,body[data-view=m] .viewer .v-m,body[data-view=x] .viewer .v-x,
body[data-view=s] .viewer .v-a,body[data-view=s] .viewer .v-b,body[data-view=p] .viewer .v-a,
body[data-view=p] .viewer .v-b,body[data-view=f] .viewer .v-a{display:inline-block}
body[data-view=s] .viewer .v-a{margin-right:6px}
body[data-view=p] .viewer .v-a{position:absolute;left:0;top:0;z-index:1;clip-path:inset(0 var(--split,50%) 0 0)}
body[data-view=f].flick .viewer .v-a{display:none}body[data-view=f].flick .viewer .v-b{display:inline-block}
.split{display:none;width:240px;vertical-align:middle}body[data-view=p] .split{display:inline-block}
.mark{position:absolute;border:2px solid #0ff;box-shadow:0 0 0 2px #000;pointer-events:none;display:none;z-index:2}
.mark.on{display:block}
.viewname{font-weight:bold;margin-left:8px}
)CSS";

const char* kScript = R"JS(
(function(){
  var status=document.getElementById('xnt-status'), errors=[];
  window.addEventListener('error',function(e){errors.push(String(e.message));status.textContent='error: '+errors.join('; ');});
  var names={a:'before (A)',b:'after (B)',d:'difference',h:'heatmap',m:'any difference (mask)',
             x:'amplified difference (x32)',s:'side by side (A | B)',p:'split (A left, B right)',f:'flicker (A / B)'};
  var zoom=0; // 0 = fit to width (a whole factor above 1 for small frames)
  var flickTimer=null;
  function setView(v){
    if(!names[v])return;
    document.body.setAttribute('data-view',v);
    document.body.classList.remove('flick');
    if(flickTimer){clearInterval(flickTimer);flickTimer=null;}
    if(v==='f')flickTimer=setInterval(function(){document.body.classList.toggle('flick');},500);
    document.querySelectorAll('.toolbar button[data-view]').forEach(function(b){b.classList.toggle('on',b.getAttribute('data-view')===v);});
    document.querySelectorAll('.viewname').forEach(function(s){s.textContent=names[v];});
    applyZoom();
  }
  function fitZoom(it,w){
    var viewer=it.querySelector('.viewer'), avail=(viewer&&viewer.clientWidth)||800;
    if(document.body.getAttribute('data-view')==='s')avail=avail/2-8;
    var z=avail/w;
    return z>=1?Math.max(1,Math.min(64,Math.floor(z))):Math.max(1e-3,z);
  }
  function applyZoom(){
    document.querySelectorAll('.item').forEach(function(it){
      var w=+it.getAttribute('data-w'); if(!w||!it.querySelector('.viewer'))return;
      var z=zoom>0?zoom:fitZoom(it,w);
      it.querySelectorAll('.viewer .v').forEach(function(img){img.style.width=(img.naturalWidth||img.width||w)*z+'px';});
      it.setAttribute('data-zoom',z);
      placeMark(it);
    });
  }
  function zoomBy(f){
    var cur=zoom>0?zoom:1; zoom=Math.max(0.125,Math.min(64,cur*f)); applyZoom();
  }
  var canvases=new WeakMap();
  function pixels(img){
    var c=canvases.get(img);
    if(!c){c=document.createElement('canvas');c.width=img.naturalWidth;c.height=img.naturalHeight;
      c.getContext('2d').drawImage(img,0,0);canvases.set(img,c);}
    return c;
  }
  function pixel(img,x,y){
    return Array.prototype.slice.call(pixels(img).getContext('2d').getImageData(x,y,1,1).data);
  }
  // The mask (any channel differs at all) and the amplified |A-B| x 32, from the two images.
  function derived(it){
    var ia=it.querySelector('img.v-a'), ib=it.querySelector('img.v-b'), cm=it.querySelector('canvas.v-m'), cx=it.querySelector('canvas.v-x');
    if(!ia||!ib||!cm||!cx||!ia.naturalWidth)return 0;
    var w=ia.naturalWidth, h=ia.naturalHeight;
    if(ib.naturalWidth!==w||ib.naturalHeight!==h)return 0;
    var a=pixels(ia).getContext('2d').getImageData(0,0,w,h).data, b=pixels(ib).getContext('2d').getImageData(0,0,w,h).data;
    cm.width=cx.width=w; cm.height=cx.height=h;
    var m=cm.getContext('2d').createImageData(w,h), x=cx.getContext('2d').createImageData(w,h), n=0;
    for(var i=0;i<a.length;i+=4){
      var d0=Math.abs(a[i]-b[i]),d1=Math.abs(a[i+1]-b[i+1]),d2=Math.abs(a[i+2]-b[i+2]),d3=Math.abs(a[i+3]-b[i+3]);
      var any=d0|d1|d2|d3; if(any)n++;
      m.data[i]=any?255:0; m.data[i+1]=0; m.data[i+2]=any?255:0; m.data[i+3]=255;
      x.data[i]=Math.min(255,d0*32+d3*32); x.data[i+1]=Math.min(255,d1*32+d3*32); x.data[i+2]=Math.min(255,d2*32+d3*32); x.data[i+3]=255;
    }
    cm.getContext('2d').putImageData(m,0,0); cx.getContext('2d').putImageData(x,0,0);
    it.setAttribute('data-any',n);
    var cnt=it.querySelector('.anycount'); if(cnt)cnt.textContent=n+' pixel(s) differ at all';
    return 1;
  }
  function placeMark(it){
    var mk=it.querySelector('.mark'); if(!mk||!mk.classList.contains('on'))return;
    var z=+it.getAttribute('data-zoom')||1, x=+it.getAttribute('data-maxx'), y=+it.getAttribute('data-maxy');
    var s=Math.max(z,6);
    mk.style.left=(x*z+z/2-s/2-2)+'px'; mk.style.top=(y*z+z/2-s/2-2)+'px'; mk.style.width=s+'px'; mk.style.height=s+'px';
  }
  function jump(it){
    if(!it.hasAttribute('data-maxx'))return;
    it.open=true;
    if(zoom<8)zoom=8;
    applyZoom();
    var mk=it.querySelector('.mark'); mk.classList.add('on'); placeMark(it);
    var viewer=it.querySelector('.viewer'), z=+it.getAttribute('data-zoom');
    viewer.scrollLeft=+it.getAttribute('data-maxx')*z-viewer.clientWidth/2;
    viewer.scrollTop=+it.getAttribute('data-maxy')*z-viewer.clientHeight/2;
    it.scrollIntoView({block:'nearest'});
  }
  document.querySelectorAll('.item').forEach(function(it){
    var ro=it.querySelector('.readout'); if(!ro)return;
    it.querySelectorAll('.viewer .v').forEach(function(img){
      img.addEventListener('mousemove',function(e){
        var z=+it.getAttribute('data-zoom')||1, x=Math.floor(e.offsetX/z), y=Math.floor(e.offsetY/z);
        var w=+it.getAttribute('data-w'), h=+it.getAttribute('data-h');
        if(x<0||y<0||x>=w||y>=h){ro.textContent='';return;}
        var a=pixel(it.querySelector('img.v-a'),x,y), b=pixel(it.querySelector('img.v-b'),x,y);
        ro.textContent='('+x+','+y+')  A '+a.join(',')+'  B '+b.join(',')+'  (8-bit)';
      });
      img.addEventListener('wheel',function(e){e.preventDefault();zoomBy(e.deltaY<0?2:0.5);},{passive:false});
    });
    var sl=it.querySelector('.split');
    if(sl)sl.addEventListener('input',function(){it.style.setProperty('--split',(100-sl.value)+'%');});
  });
  document.querySelectorAll('.toolbar button').forEach(function(b){
    b.addEventListener('click',function(){
      var v=b.getAttribute('data-view'), z=b.getAttribute('data-zoom');
      if(v)setView(v); else if(b.hasAttribute('data-jump'))jump(b.closest('.item'));
      else if(z==='in')zoomBy(2); else if(z==='out')zoomBy(0.5); else if(z==='fit'){zoom=0;applyZoom();}
    });
  });
  var keys={'1':'a','a':'a','2':'b','b':'b','3':'d','d':'d','4':'h','h':'h','5':'m','m':'m','6':'x','x':'x','s':'s','p':'p','f':'f'};
  document.addEventListener('keydown',function(e){
    if(e.ctrlKey||e.metaKey||e.altKey)return;
    if(keys[e.key]){setView(keys[e.key]);}
    else if(e.key==='j'){var it=document.querySelector('.item[open][data-maxx]');if(it)jump(it);}
    else if(e.key==='+'||e.key==='='){zoomBy(2);} else if(e.key==='-'){zoomBy(0.5);}
    else if(e.key==='0'){zoom=0;applyZoom();}
  });
  var hash={}; location.hash.replace(/^#/,'').split('&').forEach(function(kv){var p=kv.split('=');if(p[0])hash[p[0]]=p.length>1?p[1]:'';});
  if(hash.zoom)zoom=Math.max(0.125,Math.min(64,+hash.zoom||0));
  setView(hash.view||'a');
  var made=0;
  function finish(){
    made=0; document.querySelectorAll('.item').forEach(function(it){made+=derived(it);});
    applyZoom();
    if(hash.jump!==undefined){var it=document.querySelector('.item[open][data-maxx]');if(it)jump(it);}
    var shown=document.querySelectorAll('.viewer img').length;
    status.setAttribute('data-masks',made);
    if(!errors.length)status.textContent='ok views='+document.body.getAttribute('data-view')+' images='+shown;
  }
  window.addEventListener('resize',applyZoom);
  if(document.readyState==='complete')finish(); else window.addEventListener('load',finish);
})();
)JS";

void AppendItem(std::string& h, const ReportItem& it, const std::string& dir) {
  const char* st = StatusName(it.status);
  const bool open = it.status != Status::kPass;
  const Metrics& m = it.metrics;
  h += "<details class=\"item " + std::string(st) + "\"" + (open ? " open" : "");
  if (it.has_metrics) h += " data-w=\"" + std::to_string(m.width) + "\" data-h=\"" + std::to_string(m.height) + "\"";
  if (it.has_metrics && m.max_x >= 0)
    h += " data-maxx=\"" + std::to_string(m.max_x) + "\" data-maxy=\"" + std::to_string(m.max_y) + "\"";
  h += "><summary><span class=\"badge " + std::string(st) + "\">" + st + "</span> " + EscapeHtml(it.name);
  if (it.kind != ItemKind::kCompared) h += " &mdash; " + EscapeHtml(it.kind == ItemKind::kError ? it.error : ItemKindName(it.kind));
  h += "</summary><div class=\"body\">";
  h += "<div>A: " + EscapeHtml(it.path_a.empty() ? "(none)" : it.path_a) + "<br>B: " + EscapeHtml(it.path_b.empty() ? "(none)" : it.path_b);
  if (!it.note.empty()) h += "<br>" + EscapeHtml(it.note);
  if (!it.thresholds.empty()) h += "<br>checks: " + EscapeHtml(it.thresholds);
  h += "</div>";
  if (!it.reasons.empty()) {
    h += "<ul class=\"reasons\">";
    for (const auto& r : it.reasons) h += "<li>" + EscapeHtml(r) + "</li>";
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
         "<button data-view=\"d\">diff (3)</button><button data-view=\"h\">heatmap (4)</button>"
         "<button data-view=\"m\">any difference (5)</button><button data-view=\"x\">amplified x32 (6)</button> "
         "<button data-view=\"s\">side by side (s)</button><button data-view=\"p\">split (p)</button>"
         "<button data-view=\"f\">flicker (f)</button> ";
    if (m.max_x >= 0) h += "<button data-jump>largest error (j)</button> ";
    h += "<button data-zoom=\"out\">&minus;</button><button data-zoom=\"in\">+</button><button data-zoom=\"fit\">fit</button>"
         "<input class=\"split\" type=\"range\" min=\"0\" max=\"100\" value=\"50\" aria-label=\"split position\">"
         "<span class=\"viewname\"></span><span class=\"anycount readout\"></span><span class=\"readout\"></span></div>";
    h += "<div class=\"viewer\"><div class=\"stage\">";
    h += "<img class=\"v v-a\" alt=\"before\" src=\"" + DataUri(dir, it.image_a) + "\">";
    h += "<img class=\"v v-b\" alt=\"after\" src=\"" + DataUri(dir, it.image_b) + "\">";
    h += "<img class=\"v v-d\" alt=\"diff\" src=\"" + DataUri(dir, it.image_diff) + "\">";
    h += "<img class=\"v v-h\" alt=\"heatmap\" src=\"" + DataUri(dir, it.image_heat) + "\">";
    h += "<canvas class=\"v v-m\" width=\"" + std::to_string(m.width) + "\" height=\"" + std::to_string(m.height) +
         "\"></canvas><canvas class=\"v v-x\" width=\"" + std::to_string(m.width) + "\" height=\"" +
         std::to_string(m.height) + "\"></canvas><div class=\"mark\"></div>";
    h += "</div></div>";
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
       StatusName(r.Overall()) + "</span></h1><div>A: " + EscapeHtml(r.a) + " &nbsp; B: " + EscapeHtml(r.b) + "</div><div>" + counts +
       "</div><div class=\"help\">keys: 1/a before, 2/b after, 3/d diff, 4/h heatmap, 5/m any difference, 6/x amplified, "
       "s side by side, p split, f flicker, j largest error, +/&minus; or wheel zoom, 0 fit; "
       "values in 0..1 units (1/255 = 0.0039)</div></header>\n<main>\n";
  for (const ReportItem* it : r.Ordered()) AppendItem(h, *it, dir);
  h += "</main>\n<div id=\"xnt-status\" hidden>script did not run</div>\n<script>" + std::string(kScript) +
       "</script>\n</body></html>\n";
  return h;
}

}  // namespace xnt::diff
