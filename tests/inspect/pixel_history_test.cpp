// Pixel history against hand-worked values on samples whose scenes are known
// (samples/src: registry.cpp's flat scenes, scale_scenes.cpp's 720p frame), and the agreement of
// every sample's histories with the frame the cpu path leaves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>


#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/cpu/cpu_backend.h"
#include "xnt/format/reader.h"
#include "xnt/inspect/pixel_history.h"
#include "xnt/replay/trace_player.h"
#include "prerequisite.h"
#include "test_files.h"
#include "xnt/samples/samples.h"

namespace xnt::inspect {
namespace {

// This process's own folder: ctest runs the cases in parallel processes.
const std::filesystem::path kWork = test::ProcessWorkDir("inspect", "work-");

std::string SampleTrace(const std::string& name) {
  std::filesystem::create_directories(kWork);
  const std::string file = (kWork / (name + ".xnt")).string();
  if (!std::filesystem::exists(file)) samples::WriteSample(*samples::Find(name), file);
  return file;
}

PixelHistory History(const std::string& sample, uint32_t x, uint32_t y,
                     const std::string& target = "frame", ResolutionScale scale = {}) {
  PixelHistoryRequest r;
  r.x = x, r.y = y, r.target = target, r.scale = scale;
  return PixelHistoryOf(SampleTrace(sample), r);
}

std::string Events(const PixelHistory& h) {
  std::string s;
  for (const HistoryEntry& e : h.entries) s += (s.empty() ? "" : " ") + e.EventName() + ":" + e.kind;
  return s;
}

// The stored bits of an entry's field ("0xff50c800 (...)" -> "0xff50c800").
std::string HexOf(const HistoryEntry& e, const char* field) {
  const std::string v = e.Field(field);
  return v.substr(0, v.find(' '));
}

// clear_draws_resolve_swap: navy (24,24,40) clear by resolve 0.0, the green (0,200,80) rectangle
// x 161..280 y 41..100 is draw 0.2, resolve 0.4 copies to the front buffer at 0x200000.
TEST(PixelHistory, PixelNoDrawCovers) {
  const PixelHistory h = History("clear_draws_resolve_swap", 10, 10);
  EXPECT_EQ(Events(h), "0.0:resolve+clear 0.4:resolve 0.5:swap");
  EXPECT_EQ(HexOf(h.entries[0], "before"), "0x00000000");
  // RGBA bytes 24, 24, 40, 255 as the little-endian k_8_8_8_8 dword.
  EXPECT_EQ(HexOf(h.entries[0], "after"), "0xff281818");
  EXPECT_EQ(h.entries[1].Field("copy to"), "0x00200000 k_8_8_8_8");
  EXPECT_EQ(h.entries[2].Field("shown").substr(0, 7), "#181828");
}

TEST(PixelHistory, PixelOneDrawCovers) {
  const PixelHistory h = History("clear_draws_resolve_swap", 200, 70);
  ASSERT_EQ(Events(h), "0.0:resolve+clear 0.2:draw 0.4:resolve 0.5:swap");
  const HistoryEntry& draw = h.entries[1];
  EXPECT_EQ(draw.Field("oC0"), "(0, 0.78431374, 0.3137255, 1)");  // 200/255, 80/255 as floats
  EXPECT_EQ(draw.Field("blend"), "off");
  EXPECT_EQ(draw.Field("write mask"), "RGBA");
  EXPECT_EQ(draw.Field("result"), "written");
  EXPECT_EQ(HexOf(draw, "before"), "0xff281818");
  EXPECT_EQ(HexOf(draw, "after"), "0xff50c800");
  EXPECT_EQ(h.entries[3].Field("shown").substr(0, 7), "#00c850");
  EXPECT_NE(h.target_describe.find("resolved by event 0.4"), std::string::npos) << h.target_describe;
}

// scale_frame_1280x720: LESS depth test, depth cleared to 1.0; brown z 0.5 (draw 0.1), blue z 0.25
// (0.2) in front, white z 0.75 (0.3) behind both; pixel (700, 400) lies in all three.
TEST(PixelHistory, PixelSeveralDrawsCover) {
  const PixelHistory colour = History("scale_frame_1280x720", 700, 400, "colour_b0_p1280_k_8_8_8_8_1x");
  ASSERT_EQ(Events(colour), "0.0:resolve+clear 0.1:draw 0.2:draw 0.3:draw 0.4:resolve");
  const char* results[] = {"pass", "pass", "fail"};
  const char* after[] = {"0xff2850c8", "0xffdca028", "0xffdca028"};  // (200,80,40), (40,160,220)
  for (int i = 0; i < 3; ++i) {
    const HistoryEntry& e = colour.entries[1 + i];
    EXPECT_EQ(e.Field("depth/stencil result"), results[i]) << e.EventName();
    EXPECT_EQ(HexOf(e, "after"), after[i]) << e.EventName();
  }
  EXPECT_EQ(colour.entries[3].Field("result"), "failed the depth/stencil test");
  // Depth: 1.0 cleared as 0xFFFFFF; 0.5 and 0.25 stored as round(z * (2^24 - 1)) << 8.
  const PixelHistory depth = History("scale_frame_1280x720", 700, 400, "depth_b1024_p1280_kD24S8_1x");
  ASSERT_EQ(Events(depth), "0.0:clear 0.1:draw 0.2:draw 0.3:draw");
  EXPECT_EQ(HexOf(depth.entries[0], "after"), "0xffffff00");
  EXPECT_EQ(HexOf(depth.entries[1], "after"), "0x80000000");
  EXPECT_EQ(HexOf(depth.entries[2], "after"), "0x40000000");
  EXPECT_EQ(HexOf(depth.entries[3], "after"), "0x40000000");
  // White's 0.75 at 24 bits: 0.75 * (2^24 - 1) = 12582911.25 -> 0xBFFFFF, not less than 0x400000.
  EXPECT_EQ(depth.entries[3].Field("depth"), "0.75 (0xbfffff), test less (incoming vs stored)");
  EXPECT_EQ(depth.entries[3].Field("depth/stencil result"), "fail");
}

// At 2x2 every host pixel of the guest pixel's block has its own entries, in raster order.
TEST(PixelHistory, ScaledBlockHasEveryHostPixel) {
  const PixelHistory h =
      History("clear_draws_resolve_swap", 200, 70, "colour_b0_p320_k_8_8_8_8_1x", {2, 2});
  std::vector<std::string> hosts;
  for (const HistoryEntry& e : h.entries) {
    if (e.kind != "draw") continue;
    hosts.push_back(e.Field("host pixel"));
    EXPECT_EQ(HexOf(e, "after"), "0xff50c800");
  }
  EXPECT_EQ(hosts, (std::vector<std::string>{"400,140", "401,140", "400,141", "401,141"}));
}

// The history's replay takes the request's screen derivatives: raster_point_sprite_mips's 8-pixel
// sprite reads mip level 1 (green 0xff40c830) with guest-pixel derivatives at 3x3, level 0 (red
// 0xff3030e0) with host-pixel ones (rho 16 / 24: lambda -0.58, nearest level 0).
TEST(PixelHistory, ScaledDerivativesAsRequested) {
  for (const auto& [derivatives, after] :
       {std::pair{gpu::ScaledDerivatives::kGuest, "0xff40c830"},
        std::pair{gpu::ScaledDerivatives::kHost, "0xff3030e0"}}) {
    PixelHistoryRequest r;
    r.x = 36, r.y = 16, r.target = "colour_b0_p96_k_8_8_8_8_1x", r.scale = {3, 3};
    r.derivatives = derivatives;
    const PixelHistory h = PixelHistoryOf(SampleTrace("raster_point_sprite_mips"), r);
    size_t draws = 0;
    for (const HistoryEntry& e : h.entries) {
      if (e.kind != "draw") continue;
      ++draws;
      EXPECT_EQ(HexOf(e, "after"), after) << gpu::ScaledDerivativesName(derivatives) << " "
                                          << e.Field("host pixel");
    }
    EXPECT_EQ(draws, 9u);  // the guest pixel's 3 x 3 host pixels
  }
}

// 4x MSAA, per sample: interp_centroid_msaa4x_edge's three bands of 8 rows (draws 0.1, 0.2,
// 0.3) end at x = 40 + 7/16, 3/4 and 15/16, so edge column 40 has samples {0, 2}, {0, 2, 3} and
// all four covered (4x positions (3/8, 1/8), (7/8, 3/8), (1/8, 5/8), (5/8, 7/8)).
TEST(PixelHistory, MsaaEntriesPerSample) {
  const std::string target = "colour_b0_p64_k_8_8_8_8_4x";
  const char* expected[] = {"0.1:0 0.1:2", "0.2:0 0.2:2 0.2:3", "0.3:0 0.3:1 0.3:2 0.3:3"};
  for (uint32_t band = 0; band < 3; ++band) {
    const PixelHistory h = History("interp_centroid_msaa4x_edge", 40, 12 + 8 * band, target);
    std::string samples;
    for (const HistoryEntry& e : h.entries) {
      if (e.kind == "draw") samples += (samples.empty() ? "" : " ") + e.EventName() + ":" + e.Field("sample");
    }
    EXPECT_EQ(samples, expected[band]) << "band " << band;
  }
}

TEST(PixelHistory, InputsOutsideTheTraceAreErrors) {
  EXPECT_THROW(
      {
        PixelHistoryRequest r;
        r.frame = 1;
        PixelHistoryOf(SampleTrace("clear_draws_resolve_swap"), r);
      },
      Error);
  EXPECT_THROW(History("clear_draws_resolve_swap", 320, 0), Error);
  EXPECT_THROW(History("clear_draws_resolve_swap", 0, 0, "colour_b9_p320_k_8_8_8_8_1x"), Error);
}

// The chunk scripts: one XNT.history call per target of a tile, the index naming the tiles
// written; a pixel's entries are those PixelHistoryOf gives; the budget stops the writing.
Json ScriptCall(const std::filesystem::path& file, const std::string& function) {
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string head = "XNT." + function + "(";
  EXPECT_EQ(text.rfind(head, 0), 0u) << file;
  const size_t end = text.find(");\n");
  return Json::parse(text.substr(head.size(), end - head.size()));
}

// A tile script's XNT.history calls, one per target.
std::vector<Json> TileCalls(const std::filesystem::path& file) {
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<Json> calls;
  const std::string head = "XNT.history(";
  for (size_t at = text.find(head); at != std::string::npos; at = text.find(head, at + 1)) {
    const size_t end = text.find(");\n", at);
    calls.push_back(Json::parse(text.substr(at + head.size(), end - at - head.size())));
  }
  return calls;
}

// The entries of a run of a tile call for its guest pixel (x, y), read as the page reads them
// (inspector.js historyEntries): each [keys, event, kind, field values...], all but the key list
// indices into the call's values; "host pixel" is relative to the guest pixel's first host pixel.
Json RunEntries(const Json& call, const Json& run, uint32_t x, uint32_t y, ResolutionScale scale = {}) {
  Json out = Json::array();
  for (const Json& i : run[2]) {
    const Json& e = call["entries"][i.get<size_t>()];
    const Json& values = call["values"];
    Json o = Json::object();
    o["event"] = values[e[1].get<size_t>()], o["kind"] = values[e[2].get<size_t>()];
    const Json& keys = call["keys"][e[0].get<size_t>()];
    for (size_t k = 0; k < keys.size(); ++k) {
      std::string v = values[e[3 + k].get<size_t>()];
      if (keys[k] == "host pixel") {
        const size_t comma = v.find(',');
        v = std::to_string(x * scale.x + std::stoul(v.substr(0, comma))) + "," +
            std::to_string(y * scale.y + std::stoul(v.substr(comma + 1)));
      }
      o[keys[k].get<std::string>()] = v;
    }
    out.push_back(std::move(o));
  }
  return out;
}

// The value of field `key` of entry `entry` of a tile call, as RunEntries reads it (at 1x, where
// no "host pixel" field is made relative), without building the entry's object; "" when the
// entry has no such field.
std::string EntryField(const Json& call, size_t entry, const std::string& key) {
  const Json& e = call["entries"][entry];
  const Json& keys = call["keys"][e[0].get<size_t>()];
  for (size_t k = 0; k < keys.size(); ++k) {
    if (keys[k].get_ref<const std::string&>() == key) return call["values"][e[3 + k].get<size_t>()];
  }
  return "";
}

// Guest pixel (x, y)'s entries in a tile call: the run holding the pixel names them.
Json PixelEntries(const Json& call, uint32_t x, uint32_t y, ResolutionScale scale = {}) {
  const uint32_t local = (y % kHistoryTile) * kHistoryTile + x % kHistoryTile;
  for (const Json& run : call["runs"]) {
    const uint32_t first = run[0], count = run[1];
    if (local >= first && local < first + count) return RunEntries(call, run, x, y, scale);
  }
  return Json::array();
}

TEST(PixelHistoryChunks, TilesAndIndex) {
  // 64x48, cleared by resolve 0.0: 2 x 2 tiles of 32, every one with events.
  const std::string sample = "raster_lines_list_strip_loop";
  const std::string trace = SampleTrace(sample);
  const std::filesystem::path out = kWork / "chunks";
  std::filesystem::remove_all(out);
  const HistoryChunkResult r = WriteHistoryChunks(trace, {0}, out.string(), {});
  EXPECT_EQ(r.tiles_written, 4u);
  EXPECT_EQ(r.tiles_skipped, 0u);
  const Json index = ScriptCall(out / "history/f0/index.js", "historyIndex");
  EXPECT_EQ(index["frame"], 0);
  EXPECT_EQ(index["tile"], 32);
  EXPECT_EQ(index["tiles"], Json::parse("[[0,0],[1,0],[0,1],[1,1]]"));
  EXPECT_EQ(index["targets"], Json::array({"colour_b0_p64_k_8_8_8_8_1x", "frame"}));
  // Pixel (40, 36) is in tile (1, 1): the colour target's call holds PixelHistoryOf's entries.
  const std::vector<Json> calls = TileCalls(out / "history/f0/t1_1.js");
  ASSERT_EQ(calls.size(), 2u);  // the "frame" target's call comes first, then the colour target's
  EXPECT_EQ(calls[0]["target"], "frame");
  const Json& call = calls[1];
  EXPECT_EQ(call["tile"], Json::array({1, 1}));
  EXPECT_EQ(call["target"], "colour_b0_p64_k_8_8_8_8_1x");
  const PixelHistory one = History(sample, 40, 36, "colour_b0_p64_k_8_8_8_8_1x");
  Json expected = Json::array();
  for (const HistoryEntry& e : one.entries) expected.push_back(HistoryEntryJson(e));
  EXPECT_EQ(PixelEntries(call, 40, 36), expected);
  // A budget of one tile: one file, both tile rows named as not written in full.
  const uint64_t first = std::filesystem::file_size(out / "history/f0/t0_0.js");
  std::filesystem::remove_all(out);
  HistoryChunkOptions small;
  small.byte_budget = first;
  const HistoryChunkResult cut = WriteHistoryChunks(trace, {0}, out.string(), small);
  EXPECT_EQ(cut.tiles_written, 1u);
  EXPECT_EQ(cut.tiles_skipped, 2u);
  const Json cut_index = ScriptCall(out / "history/f0/index.js", "historyIndex");
  EXPECT_EQ(cut_index["tiles"], Json::parse("[[0,0]]"));
  EXPECT_NE(cut_index["skipped"].get<std::string>().find("tile rows 0 to 1"), std::string::npos);
  std::filesystem::remove_all(out);
}

// The compact form on a hand-worked tile: clear_draws_resolve_swap's tile (6, 1) spans x 192..223,
// y 32..63; its rows 32..40 are the navy clear only, rows 41..63 inside the green rectangle
// (y 41..100). The colour target holds four distinct entries (the clear, draw 0.2, resolve 0.4
// of a navy and of a green pixel) and two runs of 9 x 32 and 23 x 32 pixels; the front buffer
// two swap entries (navy, green shown), its pixels' entries being under the colour target.
TEST(PixelHistoryChunks, FlatRegionsAreOneRun) {
  const std::filesystem::path out = kWork / "flat";
  std::filesystem::remove_all(out);
  const HistoryChunkResult r =
      WriteHistoryChunks(SampleTrace("clear_draws_resolve_swap"), {0}, out.string(), {});
  EXPECT_EQ(r.tiles_written, 80u);  // 10 x 8 tiles
  EXPECT_EQ(r.tiles_skipped, 0u);
  const std::vector<Json> calls = TileCalls(out / "history/f0/t6_1.js");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0]["target"], "frame");
  EXPECT_EQ(calls[0]["runs"], Json::parse("[[0,288,[0]],[288,736,[1]]]"));
  EXPECT_EQ(PixelEntries(calls[0], 200, 50)[0]["shown"], "#00c850 (r, g, b; scan-out ignores alpha)");
  EXPECT_EQ(calls[1]["target"], "colour_b0_p320_k_8_8_8_8_1x");
  EXPECT_EQ(calls[1]["entries"].size(), 4u);
  EXPECT_EQ(calls[1]["runs"], Json::parse("[[0,288,[0,2]],[288,736,[0,1,3]]]"));
  const Json green = PixelEntries(calls[1], 200, 50);
  ASSERT_EQ(green.size(), 3u);
  EXPECT_EQ(green[1]["event"], "0.2");
  EXPECT_EQ(green[1]["after"], "0xff50c800 (0, 0.78431374, 0.3137255, 1)");
  std::filesystem::remove_all(out);
}

// At a scale every host pixel's entries come back from the compact form (host pixels stored
// relative to their guest pixel): every pixel of every target equals FrameHistoriesOf's.
TEST(PixelHistoryChunks, EveryPixelAtAScale) {
  const std::string trace = SampleTrace("raster_lines_list_strip_loop");
  const std::filesystem::path out = kWork / "scaled";
  std::filesystem::remove_all(out);
  HistoryChunkOptions o;
  o.scale = {2, 2};
  WriteHistoryChunks(trace, {0}, out.string(), o);
  const FrameHistories all =
      FrameHistoriesOf(trace, 0, o.scale, [](const std::string&, uint32_t, uint32_t) { return true; });
  uint64_t pixels = 0;
  for (const FrameHistories::Target& t : all.targets) {
    for (const auto& [pixel, entries] : t.pixels) {
      const auto [x, y] = pixel;
      const std::filesystem::path file = out / "history/f0" /
          ("t" + std::to_string(x / kHistoryTile) + "_" + std::to_string(y / kHistoryTile) + ".js");
      Json expected = Json::array(), got = Json::array();
      for (const HistoryEntry& e : entries) expected.push_back(HistoryEntryJson(e));
      for (const Json& call : TileCalls(file)) {
        if (call["target"] == t.id) got = PixelEntries(call, x, y, o.scale);
      }
      ASSERT_EQ(got, expected) << t.id << " " << x << "," << y;
      ++pixels;
    }
  }
  EXPECT_EQ(pixels, 64u * 48u * 2u);  // both targets, every pixel (the clear covers them all)
  std::filesystem::remove_all(out);
}

// The command: exit 0 with the history as JSON, 2 (one error line) for what is not in the trace.
TEST(PixelHistoryCli, ExitCodesAndJson) {
  const std::string cli = test::XenotraceCli();
  if (!std::filesystem::exists(cli)) XNT_MISSING_PREREQUISITE() << "xenotrace not built: " << cli;
  const std::string trace = SampleTrace("clear_draws_resolve_swap");
  const std::string run = cli + " pixel-history " + trace + " ";
  const test::ShellResult ok = test::RunShell(run + "--frame 0 --pixel 200,70 --json");
  ASSERT_EQ(ok.code, 0);
  const Json j = Json::parse(ok.out);
  ASSERT_EQ(j["entries"].size(), 4u);
  EXPECT_EQ(j["entries"][1]["event"], "0.2");
  EXPECT_EQ(j["entries"][1]["after"], "0xff50c800 (0, 0.78431374, 0.3137255, 1)");
  for (const char* bad : {"--frame 1 --pixel 0,0", "--frame -1 --pixel 0,0", "--frame 0 --pixel 320,0", "--frame 0 --pixel 0,x",
                          "--frame 0 --pixel 0,0 --target depth_b0_p320_kD24S8_1x", "--pixel 0,0"}) {
    const test::ShellResult r = test::RunShell(run + bad + " 2>&1");
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_EQ(r.out.rfind("xenotrace: error: ", 0), 0u) << bad << ": " << r.out;
  }
  const test::ShellResult chunks = test::RunShell(run + "-o " + (kWork / "cli").string() + " --json");
  ASSERT_EQ(chunks.code, 0);
  // A budget below one tile's script (its call's frame, tile, target and key list alone pass
  // 100 bytes).
  EXPECT_EQ(test::RunShell(run + "-o " + (kWork / "cli2").string() + " --budget 100 2>&1").code, 1);
  EXPECT_EQ(Json::parse(chunks.out)["frames"], 1);
  EXPECT_TRUE(std::filesystem::exists(kWork / "cli/history/f0/index.js"));
}

// Pixel history agrees with the frames: for every sample, every pixel of every target of its
// last frame in the chunk scripts the page reads — the last entry's stored bits are the EDRAM's
// after the cpu path played the frame, and the front buffer's swap entry shows the swapped
// frame's pixel.
class HistoryAgrees : public ::testing::TestWithParam<std::string> {};

TEST_P(HistoryAgrees, WithTheCpuFrame) {
  const std::string trace = SampleTrace(GetParam());
  const uint64_t frame = format::Reader::Open(trace)->totals().frames - 1;
  const std::filesystem::path out = kWork / ("agrees_" + GetParam());
  std::filesystem::remove_all(out);
  HistoryChunkOptions all;
  all.byte_budget = 1ull << 40;
  const HistoryChunkResult written = WriteHistoryChunks(trace, {frame}, out.string(), all);
  ASSERT_EQ(written.tiles_skipped, 0u);
  // The targets' layouts (no pixel watched: one replay).
  const FrameHistories targets =
      FrameHistoriesOf(trace, frame, {}, [](const std::string&, uint32_t, uint32_t) { return false; });
  // The cpu path's own replay of the same frames.
  gpu::SwapImage shown;
  cpu::CpuBackendOptions o;
  o.on_swap = [&](uint64_t f, const gpu::SwapImage& image) {
    if (f == frame) shown = image;
  };
  cpu::CpuBackend backend(o);
  replay::TracePlayer player(backend);
  backend.Attach(&player.memory(), &player.registers());
  player.Play(*format::Reader::Open(trace), frame);
  uint64_t checked = 0;
  const std::filesystem::path dir = out / "history" / ("f" + std::to_string(frame));
  const Json index = ScriptCall(dir / "index.js", "historyIndex");
  for (const Json& tile : index["tiles"]) {
    const std::string name = "t" + std::to_string(tile[0].get<uint32_t>()) + "_" + std::to_string(tile[1].get<uint32_t>()) + ".js";
    for (const Json& call : TileCalls(dir / name)) {
      const auto t = std::find_if(targets.targets.begin(), targets.targets.end(),
                                  [&](const auto& u) { return u.id == call["target"]; });
      ASSERT_NE(t, targets.targets.end()) << call["target"];
      for (const Json& run : call["runs"]) {
        // At 1x a run's pixels share their entries outright: what the run claims is read once,
        // then held against each of its pixels. Only the fields checked are read (RunEntries,
        // which the tests above check, builds every entry of the run).
        const Json& entries = run[2];
        ASSERT_FALSE(entries.empty());
        const uint32_t first = run[0].get<uint32_t>(), count = run[1].get<uint32_t>();
        const uint32_t tile_x = tile[0].get<uint32_t>() * kHistoryTile, tile_y = tile[1].get<uint32_t>() * kHistoryTile;
        if (t->id == "frame") {
          const std::string claimed =
              EntryField(call, entries.back().get<size_t>(), "shown").substr(0, 7);
          for (uint32_t q = first; q < first + count; ++q) {
            const uint32_t x = tile_x + q % kHistoryTile, y = tile_y + q / kHistoryTile;
            const uint8_t* p = &shown.rgba[(size_t(y) * shown.width + x) * 4];
            char rgb[8];
            std::snprintf(rgb, sizeof(rgb), "#%02x%02x%02x", p[0], p[1], p[2]);
            ASSERT_EQ(claimed, rgb) << x << "," << y;
            ++checked;
          }
          continue;
        }
        // The last entry of sample 0 of the run's pixels.
        std::optional<size_t> e;
        for (const Json& c : entries) {
          const std::string sample = EntryField(call, c.get<size_t>(), "sample");
          if (sample.empty() || sample == "0") e = c.get<size_t>();
        }
        ASSERT_TRUE(e.has_value());
        // The entry may have addressed the word through an aliasing surface of another width:
        // compare the bits both hold.
        const std::string after = EntryField(call, *e, "after");
        const std::string hex = after.substr(0, after.find(' '));
        const uint64_t mask = hex.size() > 10 && t->surface.bytes_per_sample() == 8 ? ~0ull : 0xFFFFFFFFull;
        const uint64_t claimed = std::stoull(hex, nullptr, 16) & mask;
        for (uint32_t q = first; q < first + count; ++q) {
          const uint32_t x = tile_x + q % kHistoryTile, y = tile_y + q / kHistoryTile;
          const uint8_t* bytes = backend.edram().bytes().data() + t->surface.SampleOffset(x, y, 0);
          uint64_t stored = LoadLE32(bytes);
          if (t->surface.bytes_per_sample() == 8) stored |= uint64_t(LoadLE32(bytes + 4)) << 32;
          ASSERT_EQ(claimed, stored & mask)
              << t->id << " pixel " << x << "," << y << " entry " << *e;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 0u);
  std::filesystem::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(AllSamples, HistoryAgrees, ::testing::ValuesIn(samples::Names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace xnt::inspect
