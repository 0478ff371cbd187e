// The inspector site on the cpu path: its data scripts hold every event the trace player reports
// (draws and resolves as dump numbers them, and each swap), each event's packets and register
// changes, each shader's listing exactly as the disassembler prints it, texture thumbnails whose
// pixels are the cpu texture decoder's (gpu::TexelReader) texels in 8 bits, and images only within
// the byte budget. The page itself is loaded in headless Chromium through a deep link.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

#include "headless_chromium.h"
#include "site_test_util.h"
#include "prerequisite.h"
#include "test_files.h"
#include "xnt/base/error.h"
#include "xnt/base/json.h"
#include "xnt/diff/png.h"
#include "xnt/format/reader.h"
#include "xnt/gpu/texel_reader.h"
#include "xnt/inspect/pixel_history.h"
#include "xnt/inspect/site.h"
#include "xnt/replay/null_backend.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"
#include "xnt/ucode/disasm.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/xenos/registers.h"

namespace xnt::inspect {
namespace {

// Draw/resolve ids "F.K" and swaps as the trace player reports them, independently of the site.
struct Expected : replay::Backend {
  std::vector<std::string> ids;
  void OnDraw(const replay::DrawCall& d) override { Id(d); }
  void OnResolve(const replay::ResolveCall& r) override { Id(r.draw); }
  void OnSwap(const replay::SwapCall& s) override { ids.push_back(std::to_string(s.frame) + ".swap"); }
  void Id(const replay::DrawCall& d) { ids.push_back(std::to_string(d.frame) + "." + std::to_string(d.draw_index)); }
};

std::vector<std::string> ExpectedIds(const std::string& trace) {
  Expected e;
  replay::TracePlayer player(e);
  auto reader = format::Reader::Open(trace);
  player.Play(*reader);
  return e.ids;
}

std::vector<std::string> SiteIds(const Json& events) {
  std::vector<std::string> ids;
  for (const Json& e : events) ids.push_back(e["id"]);
  return ids;
}

TEST(InspectSite, ListsEveryEventWithPacketsStateAndShaderListings) {
  const std::string trace = WriteSample("clear_draws_resolve_swap");
  const fs::path dir = kWork / "clear";
  const SiteSummary s = Write(trace, dir);
  const Json events = SiteEvents(dir);
  // 0.0 resolve-clear, three draws, a resolve, the swap (xenotrace dump).
  EXPECT_EQ(SiteIds(events), ExpectedIds(trace));
  EXPECT_EQ(SiteIds(events), (std::vector<std::string>{"0.0", "0.1", "0.2", "0.3", "0.4", "0.swap"}));
  EXPECT_EQ(s.draws, 3u);
  EXPECT_EQ(s.resolves, 2u);
  EXPECT_EQ(s.swaps, 1u);
  EXPECT_EQ(events[0]["kind"], "resolve");
  EXPECT_EQ(events[1]["kind"], "draw");
  const Json chunk = ReadScript(dir / "data" / "chunks" / "c0.js", "XNT.chunk");
  const Json& draw = chunk["events"]["0.1"];
  // The packets that led to the draw end with dump's line for it.
  EXPECT_NE(draw["packets"].get<std::string>().find("=> draw 0.1"), std::string::npos);
  // Changes name their registers and decode fields the way dump does.
  bool surface_info = false;
  for (const Json& c : chunk["base"]) surface_info |= c[1] == "RB_SURFACE_INFO" && !c[3].get<std::string>().empty();
  EXPECT_TRUE(surface_info) << chunk["base"].dump();
  // Every shader's listing is the disassembler's.
  auto reader = format::Reader::Open(trace);
  struct Shaders : replay::Backend {
    std::map<std::string, std::string> listings;
    void OnDraw(const replay::DrawCall& d) override {
      for (const replay::Shader* sh : {d.vertex_shader, d.pixel_shader}) {
        if (!sh) continue;
        char hash[24];
        std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(sh->hash));
        listings[hash] = ucode::Disassemble(sh->decoded->shader);
      }
    }
  } shaders;
  replay::TracePlayer player(shaders);
  player.Play(*reader);
  ASSERT_EQ(shaders.listings.size(), 2u);
  for (const auto& [hash, listing] : shaders.listings) {
    const Json sh = ReadScript(dir / "data" / "shaders" / (hash + ".js"), "XNT.shader");
    EXPECT_EQ(sh["listing"], listing);
  }
  EXPECT_TRUE(fs::exists(dir / "index.html"));
  EXPECT_TRUE(fs::exists(dir / "inspector.js"));
}

// The first draw of textures_many_formats that binds a texture: its level-0 thumbnail holds the
// cpu decoder's texels, component by component, as round(clamp(v, 0, 1) * 255).
TEST(InspectSite, TextureThumbnailIsTheCpuDecodersTexels) {
  const std::string trace = WriteSample("textures_many_formats");
  const fs::path dir = kWork / "textures";
  Write(trace, dir);
  const Json chunk = ReadScript(dir / "data" / "chunks" / "c0.js", "XNT.chunk");
  std::string id;
  Json texture;
  for (const Json& e : SiteEvents(dir)) {
    const Json& d = chunk["events"][e["id"].get<std::string>()];
    if (d.contains("textures") && !d["textures"].empty()) {
      id = e["id"], texture = d["textures"][0];
      break;
    }
  }
  ASSERT_FALSE(id.empty());
  const uint32_t draw = uint32_t(std::stoul(id.substr(id.find('.') + 1)));
  const uint32_t slot = texture["slot"];
  ASSERT_FALSE(texture["levels"].empty());
  const diff::OwnedImage png = diff::LoadPng((dir / texture["levels"][0]["image"].get<std::string>()).string());

  struct Decode : replay::Backend {
    uint32_t draw, slot;
    std::vector<uint8_t> rgba;
    uint32_t w = 0, h = 0;
    std::string format;
    void OnDraw(const replay::DrawCall& d) override {
      if (d.frame != 0 || d.draw_index != draw) return;
      uint32_t dwords[6];
      for (uint32_t i = 0; i < 6; ++i) dwords[i] = (*d.registers)[xenos::FetchConstantIndex(slot, i)];
      const gpu::TextureDescriptor desc = gpu::TextureDescriptor::FromFetchConstant(dwords);
      const replay::GuestMemory* memory = d.memory;
      gpu::TexelReader reader(desc, [memory](uint32_t a, std::span<uint8_t> out) {
        memory->Read(a, out);
        return true;
      });
      w = desc.width, h = desc.height;
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
          const auto t = reader.Texel(0, x, y, 0);
          for (float v : *t) rgba.push_back(uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)));
        }
      }
    }
  } decode;
  decode.draw = draw, decode.slot = slot;
  replay::TracePlayer player(decode);
  auto reader = format::Reader::Open(trace);
  player.Play(*reader);
  ASSERT_EQ(png.view().width, int(decode.w));
  ASSERT_EQ(png.view().height, int(decode.h));
  EXPECT_EQ(texture["size"][0], decode.w);
  ASSERT_EQ(png.view().channels, 4);
  size_t differing = 0;
  for (uint32_t y = 0; y < decode.h; ++y) {
    const uint8_t* row = png.view().Row(int(y));
    for (uint32_t i = 0; i < decode.w * 4; ++i) differing += row[i] != decode.rgba[(y * decode.w) * 4 + i];
  }
  EXPECT_EQ(differing, 0u) << id << " tf" << slot;
}

TEST(InspectSite, ImagesStayWithinTheBudget) {
  const std::string trace = WriteSample("clear_draws_resolve_swap");
  const fs::path dir = kWork / "budget";
  const SiteSummary s = Write(trace, dir, 0);
  EXPECT_EQ(s.images, 0u);
  EXPECT_EQ(s.image_bytes, 0u);
  EXPECT_EQ(s.events_over_budget, 5u);  // every draw and resolve writes a target
  EXPECT_FALSE(fs::exists(dir / "img"));
  EXPECT_EQ(SiteEvents(dir)[1]["images"], "over budget");
}

TEST(InspectSite, EventRangesParse) {
  const std::vector<EventRange> r = ParseEventRanges("0.3-1.2,4.0");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(r[0].Contains(0, 3));
  EXPECT_TRUE(r[0].Contains(0, 900));
  EXPECT_TRUE(r[0].Contains(1, 2));
  EXPECT_FALSE(r[0].Contains(1, 3));
  EXPECT_FALSE(r[0].Contains(0, 2));
  EXPECT_TRUE(r[1].Contains(4, 0));
  EXPECT_FALSE(r[1].Contains(4, 1));
  EXPECT_THROW(ParseEventRanges("1.2-0.5"), Error);
  EXPECT_THROW(ParseEventRanges("3"), Error);
  EXPECT_THROW(ParseEventRanges("a.b"), Error);
  EXPECT_THROW(ParseEventRanges(""), Error);
}

// Every sample: the site lists exactly the events the trace player reports.
TEST(InspectSite, EverySampleWritesItsEvents) {
  for (const samples::Sample& sample : samples::Registry()) {
    const std::string trace = WriteSample(sample.name);
    const fs::path dir = kWork / "all" / sample.name;
    SiteSummary s;
    try {
      s = Write(trace, dir, 1 << 20);
    } catch (const Error& e) {
      ADD_FAILURE() << sample.name << ": " << e.what();
      continue;
    }
    const Json events = SiteEvents(dir);
    EXPECT_EQ(SiteIds(events), ExpectedIds(trace)) << sample.name;
    EXPECT_EQ(s.events, events.size()) << sample.name;
    EXPECT_LE(s.image_bytes, 1u << 20) << sample.name;
    fs::remove_all(dir);
  }
}

// The DOM of `site`'s page opened at `link` ("#F.K") once its scripts ran (kWork/NAME.out; the
// console in NAME.err).
std::string PageDom(const fs::path& site, const std::string& link, const std::string& name) {
  EXPECT_EQ(::xnt::test::RunChromium(kWork / "profile",
                                     "--virtual-time-budget=8000 --dump-dom 'file://" +
                                         (site / "index.html").string() + link + "'",
                                     kWork / (name + ".out"), kWork / (name + ".err")),
            0)
      << ReadFileText(kWork / (name + ".err"));
  return ReadFileText(kWork / (name + ".out"));
}

TEST(InspectPage, DeepLinkShowsTheEventsStateAndShaderInHeadlessChromium) {
  if (!::xnt::test::ChromiumInstalled()) XNT_MISSING_PREREQUISITE() << "chromium not installed";
  const fs::path dir = kWork / "page";
  Write(WriteSample("clear_draws_resolve_swap"), dir);
  const std::string dom = PageDom(dir, "#0.2", "dom");
  const std::string err = ReadFileText(kWork / "dom.err");
  const size_t st = dom.find("id=\"xnt-status\"");
  ASSERT_NE(st, std::string::npos);
  EXPECT_EQ(dom.substr(dom.find('>', st), 4), ">ok<") << dom.substr(st, 300);
  // Events listed (every row of a six-event frame is in view), the deep-linked one selected.
  for (const char* id : {"0.0", "0.1", "0.2", "0.3", "0.4", "0.swap"}) {
    EXPECT_NE(dom.find("title=\"" + std::string(id) + "\""), std::string::npos) << id;
  }
  EXPECT_NE(dom.find("class=\"row sel\" style=\"top:40px\" data-i=\"2\""), std::string::npos);
  EXPECT_NE(dom.find("<h2 id=\"event-title\">0.2 draw"), std::string::npos);
  // State grouped by block with dump's decoded fields, and the shaders' listings.
  EXPECT_NE(dom.find("<summary>RB_ ("), std::string::npos);
  EXPECT_NE(dom.find("RB_SURFACE_INFO"), std::string::npos);
  EXPECT_NE(dom.find("xvs_3_0"), std::string::npos);
  EXPECT_NE(dom.find("xps_3_0"), std::string::npos);
  EXPECT_NE(dom.find("=&gt; draw 0.2"), std::string::npos);
  EXPECT_EQ(err.find("Uncaught"), std::string::npos) << err;
}

// The event list comes in chunks of 1,024 rows: a frame of 2,100 draws (bench's flat_2100: a
// resolve, the draws, the swap) has three, and a deep link into the third selects its event
// (its row, its details) whichever chunk arrives first.
TEST(InspectPage, DeepLinkIntoALaterListChunk) {
  if (!::xnt::test::ChromiumInstalled()) XNT_MISSING_PREREQUISITE() << "chromium not installed";
  const fs::path bench = kWork / "bench", dir = kWork / "long";
  fs::create_directories(bench);
  const std::string x = ::xnt::test::XenotraceCli();
  ASSERT_EQ(::xnt::test::RunShell(x + " bench replay --paths cpu --repeat 1 --draws 2100 --save-traces " +
                                  bench.string() + " >/dev/null 2>&1").code, 0);
  ASSERT_EQ(::xnt::test::RunShell(x + " inspect " + (bench / "flat_2100.xnt").string() + " -o " +
                                  dir.string() + " --path cpu --image-budget 0 --history-budget 0 >/dev/null").code, 0);
  const Json index = ReadScript(dir / "data" / "events.js", "XNT.events");
  EXPECT_EQ(index["count"], 2103);
  EXPECT_EQ(index["lists"], Json::parse(R"([["0.0","0.1023"],["0.1024","0.2047"],["0.2048","0.swap"]])"));
  EXPECT_EQ(SiteEvents(dir).size(), 2103u);
  const std::string dom = PageDom(dir, "#0.2050", "long");
  const size_t st = dom.find("id=\"xnt-status\"");
  ASSERT_NE(st, std::string::npos);
  EXPECT_EQ(dom.substr(dom.find('>', st), 4), ">ok<") << dom.substr(st, 300);
  EXPECT_NE(dom.find("<h2 id=\"event-title\">0.2050 draw"), std::string::npos);
  EXPECT_NE(dom.find("class=\"row sel\" style=\"top:41000px\" data-i=\"2050\" title=\"0.2050\""), std::string::npos);
  EXPECT_NE(dom.find("2103 of 2103 events"), std::string::npos);
  fs::remove_all(bench);
}

// #F.K@X,Y picks a pixel as a click does: the value picker shows that pixel's guest bits from the
// event's bits script, and the pixel-history panel says when no history was written.
TEST(InspectPage, DeepLinkedPixelShowsItsGuestBits) {
  if (!::xnt::test::ChromiumInstalled()) XNT_MISSING_PREREQUISITE() << "chromium not installed";
  const fs::path dir = kWork / "pick";
  Write(WriteSample("clear_draws_resolve_swap"), dir);
  const Json bits = ReadScript(dir / "data" / "bits" / "0.2_after_colour0.js", "XNT.bits");
  ASSERT_EQ(bits["width"], 320);
  ASSERT_EQ(bits["digits"], 8);
  const std::string expected = bits["hex"].get<std::string>().substr((17 * 320 + 150) * 8, 8);
  ASSERT_EQ(::xnt::test::RunChromium(kWork / "profile",
                                     "--virtual-time-budget=5000 --dump-dom 'file://" +
                                         (dir / "index.html").string() + "#0.2@150,17'",
                                     kWork / "pick.out", kWork / "pick.err"),
            0)
      << ReadFileText(kWork / "pick.err");
  const std::string dom = ReadFileText(kWork / "pick.out");
  const std::string target = ReadScript(dir / "data" / "chunks" / "c0.js", "XNT.chunk")["events"]["0.2"]["after"][0]["history_target"];
  EXPECT_NE(dom.find(target + " pixel (150, 17) guest bits 0x" + expected), std::string::npos)
      << expected << "\n" << dom.substr(dom.find("id=\"picker\""), 300);
  EXPECT_NE(dom.find("pixel history: not written"), std::string::npos);
}

// The history panel of a deep-linked pixel (#F.K@X,Y), as the page renders it: each entry's
// "kind" and "event" cells in order, and the "after" cells.
struct Panel {
  std::vector<std::string> kinds, events, afters;
  std::string html;
};

Panel HistoryPanel(const fs::path& site, const std::string& link, const std::string& name) {
  const std::string dom = PageDom(site, link, name);
  Panel p;
  const size_t at = dom.find("<div id=\"history\">");
  if (at == std::string::npos) return p;
  p.html = dom.substr(at, dom.find("<h2>PM4 packets", at) - at);
  auto cells = [&](const std::string& key, std::vector<std::string>& out) {
    const std::string open = "<td>" + key + "</td><td>";
    for (size_t i = p.html.find(open); i != std::string::npos; i = p.html.find(open, i + 1)) {
      const size_t from = i + open.size();
      out.push_back(p.html.substr(from, p.html.find("</td>", from) - from));
    }
  };
  cells("kind", p.kinds);
  cells("event", p.events);
  cells("after", p.afters);
  return p;
}

// A cpu-path site of clear_draws_resolve_swap into `dir` (emptied first), to be written with
// the caller's history budget and scale.
SiteOptions ClearDrawsSite(const fs::path& dir) {
  fs::remove_all(dir);
  SiteOptions o;
  o.trace = WriteSample("clear_draws_resolve_swap");
  o.out_dir = dir.string();
  o.session.path = renderer::Path::kCpu;
  o.session.threads = 1;
  return o;
}

// inspect writes the cpu path's pixel history within its budget and the page lists a clicked
// pixel's events. clear_draws_resolve_swap (registry.cpp): navy (24,24,40) cleared by resolve
// 0.0, the orange (255,128,0) triangle with corners (41,31) (41,110) (120,110) is draw 0.1, the
// green (0,200,80) rectangle x 161..280 y 41..100 draw 0.2, resolve 0.4 copies the target out.
// Colours are k_8_8_8_8 dwords, R in the low byte.
TEST(InspectPage, DeepLinkedPixelListsTheDrawsThatWroteIt) {
  if (!::xnt::test::ChromiumInstalled()) XNT_MISSING_PREREQUISITE() << "chromium not installed";
  const fs::path dir = kWork / "history";
  SiteOptions o = ClearDrawsSite(dir);
  // A budget of exactly tile rows 0 and 1 (y < 64) of the 320x240 frame: the bottom rows do not fit.
  const fs::path all = kWork / "history_all";
  fs::remove_all(all);
  WriteHistoryChunks(o.trace, {0}, all.string(), {});
  o.history_budget_bytes = 0;
  for (const auto& f : fs::directory_iterator(all / "history" / "f0")) {
    const std::string name = f.path().filename().string();
    if (name.size() > 4 && (name.substr(name.size() - 5) == "_0.js" || name.substr(name.size() - 5) == "_1.js")) {
      o.history_budget_bytes += f.file_size();
    }
  }
  const SiteSummary s = WriteSite(o);
  EXPECT_LE(s.history_bytes, o.history_budget_bytes);
  EXPECT_GT(s.history_tile_rows_skipped, 0u);
  const Json index = ReadScript(dir / "history" / "f0" / "index.js", "XNT.historyIndex");
  for (uint32_t tx = 0; tx < 10; ++tx) {
    for (uint32_t ty = 0; ty < 2; ++ty) {
      ASSERT_NE(std::find(index["tiles"].begin(), index["tiles"].end(), Json::array({tx, ty})),
                index["tiles"].end()) << tx << "," << ty;
    }
  }

  const Panel green = HistoryPanel(dir, "#0.2@200,50", "green");
  EXPECT_NE(green.html.find("from the cpu path"), std::string::npos) << green.html.substr(0, 400);
  EXPECT_EQ(green.kinds, (std::vector<std::string>{"resolve+clear", "draw", "resolve"}));
  ASSERT_EQ(green.events.size(), 3u);
  EXPECT_EQ(green.events[1], "<a href=\"#0.2\">0.2</a>");
  ASSERT_EQ(green.afters.size(), 3u);
  EXPECT_EQ(green.afters[0].substr(0, 10), "0xff281818");
  EXPECT_EQ(green.afters[1].substr(0, 10), "0xff50c800");
  EXPECT_NE(green.html.find("<td>oC0</td><td>(0, 0.78431374, 0.3137255, 1)</td>"), std::string::npos);

  // (50, 60) is inside the triangle: x - 41 <= y - 31.
  const Panel orange = HistoryPanel(dir, "#0.2@50,60", "orange");
  EXPECT_EQ(orange.kinds, (std::vector<std::string>{"resolve+clear", "draw", "resolve"}));
  ASSERT_EQ(orange.events.size(), 3u);
  EXPECT_EQ(orange.events[1], "<a href=\"#0.1\">0.1</a>");
  ASSERT_EQ(orange.afters.size(), 3u);
  EXPECT_EQ(orange.afters[1].substr(0, 10), "0xff0080ff");

  // No draw covers (10, 10): the clear and the copy out only.
  const Panel none = HistoryPanel(dir, "#0.2@10,10", "none");
  EXPECT_EQ(none.kinds, (std::vector<std::string>{"resolve+clear", "resolve"}));

  // A tile row past the budget names the exact command that gives this pixel's history.
  const Panel over = HistoryPanel(dir, "#0.2@300,200", "over");
  EXPECT_TRUE(over.kinds.empty());
  EXPECT_NE(over.html.find("tile 9,6 not written"), std::string::npos) << over.html;
  EXPECT_NE(over.html.find("<code>xenotrace pixel-history " + o.trace +
                           " --frame 0 --pixel 300,200 --target colour_b0_p320_k_8_8_8_8_1x</code>"),
            std::string::npos) << over.html;
}

// At 2x2 the chunks store each entry's host pixel relative to its guest pixel (so a flat
// region's host pixels share entries); the page shows the absolute host pixels of the picked
// guest pixel: host pixel (401, 101) is guest (200, 50), its block 400..401 x 100..101, each
// host pixel with the clear, green draw 0.2 and the copy-out, in raster order per event.
TEST(InspectPage, ScaledHistoryShowsEveryHostPixelOfTheBlock) {
  if (!::xnt::test::ChromiumInstalled()) XNT_MISSING_PREREQUISITE() << "chromium not installed";
  const fs::path dir = kWork / "scaled";
  SiteOptions o = ClearDrawsSite(dir);
  o.session.renderer.scale_x = o.session.renderer.scale_y = 2;
  o.history_budget_bytes = 64ull << 20;
  EXPECT_EQ(WriteSite(o).history_tile_rows_skipped, 0u);
  const Panel p = HistoryPanel(dir, "#0.2@401,101", "scaled");
  const std::vector<std::string> block = {"400,100", "401,100", "400,101", "401,101"};
  std::vector<std::string> kinds, hosts;
  for (const char* kind : {"resolve+clear", "draw", "resolve"}) {
    for (const std::string& b : block) kinds.push_back(kind), hosts.push_back(b);
  }
  EXPECT_EQ(p.kinds, kinds);
  std::vector<std::string> shown;
  const std::string open = "<td>host pixel</td><td>";
  for (size_t i = p.html.find(open); i != std::string::npos; i = p.html.find(open, i + 1)) {
    shown.push_back(p.html.substr(i + open.size(), p.html.find("</td>", i + open.size()) - i - open.size()));
  }
  EXPECT_EQ(shown, hosts);
  ASSERT_EQ(p.afters.size(), 12u);
  for (size_t i = 4; i < 8; ++i) EXPECT_EQ(p.afters[i].substr(0, 10), "0xff50c800") << i;
}

// An event written without images (past the image budget: on a long frame, all but the first
// few) has no target image to click, but the pixel history is the frame's: a deep link #F.K@X,Y
// still lists the pixel's events on every target holding it: for clear_draws_resolve_swap's
// (200, 50) the front buffer's swap, and on the colour target the clear, green draw 0.2 and the
// copy-out, as with images.
TEST(InspectPage, DeepLinkedPixelOfAnEventWithoutImagesListsItsHistory) {
  if (!::xnt::test::ChromiumInstalled()) XNT_MISSING_PREREQUISITE() << "chromium not installed";
  const fs::path dir = kWork / "no_images";
  SiteOptions o = ClearDrawsSite(dir);
  o.image_budget_bytes = 0;
  o.history_budget_bytes = 64ull << 20;
  const SiteSummary s = WriteSite(o);
  ASSERT_EQ(s.images, 0u);
  ASSERT_GT(s.history_tiles, 0u);
  const Panel p = HistoryPanel(dir, "#0.2@200,50", "no_images");
  // The front buffer's pixel (the swap) and the colour target's, each under its own heading.
  EXPECT_NE(p.html.find("<h3>frame: 1 entries</h3>"), std::string::npos) << p.html.substr(0, 600);
  EXPECT_NE(p.html.find("<h3>colour_b0_p320_k_8_8_8_8_1x: 3 entries</h3>"), std::string::npos);
  EXPECT_EQ(p.kinds, (std::vector<std::string>{"swap", "resolve+clear", "draw", "resolve"}));
  ASSERT_EQ(p.events.size(), 4u);
  EXPECT_EQ(p.events[2], "<a href=\"#0.2\">0.2</a>");
  EXPECT_NE(p.html.find("<td>after</td><td>0xff50c800"), std::string::npos);
  const std::string dom = ReadFileText(kWork / "no_images.out");
  EXPECT_NE(dom.find("frame 0 pixel (200, 50) (this event has no images"), std::string::npos);
}

// The command: --json summary, exit codes, and bad input named in one line.
TEST(InspectCli, SummaryAndExitCodes) {
  const std::string trace = WriteSample("clear_draws_resolve_swap");
  const std::string x = ::xnt::test::XenotraceCli() + " inspect ";
  const fs::path dir = kWork / "cli";
  auto r = ::xnt::test::RunShell(x + trace + " -o " + dir.string() + " --path cpu --json --history-budget 1 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  const Json summary = Json::parse(r.out);
  EXPECT_EQ(summary["events"], 6);
  EXPECT_EQ(summary["draws"], 3);
  EXPECT_EQ(summary["images"], 5);  // one target per draw and resolve, no texture
  EXPECT_GT(summary["bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(summary["path"], "cpu");
  // The whole frame's history (10 x 8 tiles of 32 pixels, the front buffer and the colour
  // target) fits in 1 MiB: flat regions are runs of one entry list.
  EXPECT_EQ(summary["history_tiles"], 80);
  EXPECT_LE(summary["history_bytes"].get<uint64_t>(), 1u << 20);
  EXPECT_EQ(summary["history_tile_rows_skipped"], 0);
  for (const std::string& bad : {trace + " -o " + dir.string() + " --path cpu --frames 3",
                                 trace + " -o " + dir.string() + " --path cpu --events 0.x",
                                 trace + " -o " + dir.string() + " --path cpu --events 9.9-9.12",
                                 std::string("/nonexistent.xnt -o ") + dir.string()}) {
    r = ::xnt::test::RunShell(x + bad + " 2>&1");
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
    EXPECT_EQ(r.out.rfind("xenotrace: error: ", 0), 0u) << r.out;
  }
  // A trace whose end was lost: what was recovered, and exit code 1.
  const std::vector<uint8_t> bytes = ::xnt::test::ReadFileBytes(trace);
  const fs::path cut = kWork / "cut.xnt";
  ::xnt::test::WriteFileBytes(cut, std::vector<uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 2));
  r = ::xnt::test::RunShell(x + cut.string() + " -o " + (kWork / "cut").string() + " --path cpu 2>&1");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("damaged"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace xnt::inspect
