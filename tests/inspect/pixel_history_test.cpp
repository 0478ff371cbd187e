// Pixel history against hand-worked values on samples whose scenes are known
// (samples/src: registry.cpp's flat scenes, scale_scenes.cpp's 720p frame), and the agreement of
// every sample's histories with the frame the cpu path leaves.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>


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
  std::ifstream in(out / "history/f0/t1_1.js");
  std::string line;
  std::getline(in, line);  // the "frame" target's call comes first, then the colour target's
  EXPECT_EQ(Json::parse(line.substr(12, line.size() - 14))["target"], "frame");
  std::getline(in, line);
  const Json call = Json::parse(line.substr(12, line.size() - 14));
  EXPECT_EQ(call["tile"], Json::array({1, 1}));
  EXPECT_EQ(call["target"], "colour_b0_p64_k_8_8_8_8_1x");
  const PixelHistory one = History(sample, 40, 36, "colour_b0_p64_k_8_8_8_8_1x");
  Json expected = Json::array();
  for (const HistoryEntry& e : one.entries) expected.push_back(HistoryEntryJson(e));
  EXPECT_EQ(call["pixels"]["40,36"], expected);
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
  // A budget below one tile's script (a cleared 32x32 tile holds far more than 1000 bytes).
  EXPECT_EQ(test::RunShell(run + "-o " + (kWork / "cli2").string() + " --budget 1000 2>&1").code, 1);
  EXPECT_EQ(Json::parse(chunks.out)["frames"], 1);
  EXPECT_TRUE(std::filesystem::exists(kWork / "cli/history/f0/index.js"));
}

// Pixel history agrees with the frames: for every sample, on a grid of pixels of every target of
// its last frame, the last entry's stored bits are the EDRAM's after the cpu path played the
// frame, and the front buffer's swap entry shows the swapped frame's pixel.
class HistoryAgrees : public ::testing::TestWithParam<std::string> {};

TEST_P(HistoryAgrees, WithTheCpuFrame) {
  const std::string trace = SampleTrace(GetParam());
  const uint64_t frame = format::Reader::Open(trace)->totals().frames - 1;
  constexpr uint32_t kStep = 13;  // a prime: the grid crosses tiles, quads and MSAA patterns
  const FrameHistories histories = FrameHistoriesOf(
      trace, frame, {}, [](const std::string&, uint32_t x, uint32_t y) {
        return x % kStep == 3 && y % kStep == 5;
      });
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
  for (const FrameHistories::Target& t : histories.targets) {
    for (const auto& [pixel, entries] : t.pixels) {
      ASSERT_FALSE(entries.empty());
      const HistoryEntry& last = entries.back();
      if (t.id == "frame") {
        const uint8_t* p = &shown.rgba[(size_t(pixel.second) * shown.width + pixel.first) * 4];
        char rgb[8];
        std::snprintf(rgb, sizeof(rgb), "#%02x%02x%02x", p[0], p[1], p[2]);
        EXPECT_EQ(last.Field("shown").substr(0, 7), rgb) << t.id << " " << pixel.first << "," << pixel.second;
        ++checked;
        continue;
      }
      // The last entry of sample 0 of the pixel's top-left host pixel.
      const HistoryEntry* e = nullptr;
      for (const HistoryEntry& c : entries) {
        if (c.Field("sample").empty() || c.Field("sample") == "0") e = &c;
      }
      ASSERT_NE(e, nullptr);
      const uint8_t* bytes =
          backend.edram().bytes().data() + t.surface.SampleOffset(pixel.first, pixel.second, 0);
      uint64_t stored = LoadLE32(bytes);
      if (t.surface.bytes_per_sample() == 8) stored |= uint64_t(LoadLE32(bytes + 4)) << 32;
      // The entry may have addressed the word through an aliasing surface of another width:
      // compare the bits both hold.
      const std::string hex = e->Field("after").substr(0, e->Field("after").find(' '));
      const uint64_t after = std::stoull(hex, nullptr, 16);
      const uint64_t mask = hex.size() > 10 && t.surface.bytes_per_sample() == 8 ? ~0ull : 0xFFFFFFFFull;
      EXPECT_EQ(after & mask, stored & mask)
          << t.id << " pixel " << pixel.first << "," << pixel.second << " event " << e->EventName();
      ++checked;
    }
  }
  EXPECT_GT(checked, 0u);
}

INSTANTIATE_TEST_SUITE_P(AllSamples, HistoryAgrees, ::testing::ValuesIn(samples::Names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace xnt::inspect
