// EDRAM ownership transfers on lavapipe (validation on): resolves and clears use targets of
// different pitches and colour/depth over the same tiles; the resolved guest memory shows that
// the data moved bit-exactly through the EDRAM layout, and the log counts exactly the transfers
// needed.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../fake_guest.h"
#include "../test_env.h"
#include "edram_rig.h"
#include "xnt/base/byte_order.h"
#include "xnt/gpu/edram_report.h"
#include "xnt/gpu/texture_address.h"
#include "xnt/vk/fbo/xenos_renderer.h"
#include "xnt/xenos/registers.h"
#include "headless_chromium.h"
#include "prerequisite.h"
#include "test_files.h"

namespace xnt::vk {
namespace {

using xenos::Reg;

struct Rig : test::EdramRig {
  static constexpr uint32_t kDest = 0x100000;

  // One resolve event over [x0, x1) x [y0, y1) of a target `pitch` wide.
  // copy: copy source (0 colour 0, 4 depth) to kDest, or -1 for none.
  void Resolve(uint32_t pitch, int32_t x0, int32_t y0, int32_t x1, int32_t y1, int copy,
               bool color_clear, uint32_t color_value, bool depth_clear, uint32_t depth_value) {
    const uint32_t command = copy < 0 ? uint32_t(xenos::CopyCommand::kNull) : 0u;
    ResolveRect(pitch, x0, y0, x1, y1,
                uint32_t(copy < 0 ? 0 : copy) | (color_clear ? 1u << 8 : 0u) |
                    (depth_clear ? 1u << 9 : 0u) | (command << 20));
    Set(Reg::RB_COLOR_CLEAR, color_value);
    Set(Reg::RB_DEPTH_CLEAR, depth_value);
    Set(Reg::RB_COPY_DEST_BASE, kDest);
    Set(Reg::RB_COPY_DEST_PITCH, pitch | (uint32_t(y1) << 16));
    Set(Reg::RB_COPY_DEST_INFO, 6u << 7);  // k_8_8_8_8, no endian swap
    renderer->Resolve(regs, guest.Access());
  }
  uint32_t Resolved(uint32_t x, uint32_t y, uint32_t pitch) {
    uint8_t b[4];
    guest.Read(kDest + uint32_t(gpu::TiledOffset2D(int32_t(x), int32_t(y), pitch, 2)), b);
    return LoadLE32(b);
  }
};

TEST(EdramTransfers, PitchChangeMovesTilesThroughTheEdramLayout) {
  Rig r;
  r.Set(Reg::RB_COLOR_INFO, 0);  // k_8_8_8_8 at tile 0
  // 64 wide (1 tile per row): rows 0-15 in tile 0, rows 16-31 in tile 1.
  r.Resolve(64, 0, 0, 64, 32, -1, true, 0x11223344u, false, 0);
  r.Resolve(64, 0, 16, 64, 32, -1, true, 0x55667788u, false, 0);
  EXPECT_TRUE(r.renderer->edram().log().empty());
  // 160 wide (2 tiles per row): row 0-15 covers tiles 0 and 1.
  r.Resolve(160, 0, 0, 160, 16, 0, false, 0, false, 0);
  ASSERT_EQ(r.renderer->edram().log().size(), 1u);
  const auto& e = r.renderer->edram().log()[0];
  EXPECT_TRUE(e.data_moved) << e.note;
  EXPECT_EQ(e.transfer.start_tile, 0u);
  EXPECT_EQ(e.transfer.end_tile, 2u);
  EXPECT_EQ(e.transfer.bytes, 2u * gpu::edram::kTileBytes);
  EXPECT_EQ(e.transfer.reason, "pitch 64 -> 160");
  EXPECT_EQ(e.transfer.draw_index, 2u);
  for (uint32_t y = 0; y < 16; ++y) {
    for (uint32_t x = 0; x < 160; ++x) {
      uint32_t want = x < 64 ? 0x11223344u : x < 80 ? 0u : x < 144 ? 0x55667788u : 0u;
      ASSERT_EQ(r.Resolved(x, y, 160), want) << x << "," << y;
    }
  }
  // Back to 64 wide: tile 0 returns from the 160-wide target (tile 1 was not used: no move).
  r.Resolve(64, 0, 0, 64, 16, 0, false, 0, false, 0);
  ASSERT_EQ(r.renderer->edram().log().size(), 2u);
  EXPECT_EQ(r.renderer->edram().log()[1].transfer.tiles(), 1u);
  EXPECT_EQ(r.Resolved(5, 5, 64), 0x11223344u);
  // The naive cache moved on every binding change (5 events, 4 changes).
  EXPECT_GT(r.renderer->edram().naive().transfers(), r.renderer->edram().log().size());
  EXPECT_EQ(r.ctx->validation_message_count(), 0u) << test::ValidationReport(*r.ctx);
}

TEST(EdramTransfers, DepthThroughColourAndBackIsBitExact) {
  Rig r;
  r.Set(Reg::RB_COLOR_INFO, 0);
  r.Set(Reg::RB_DEPTH_INFO, 0);  // D24S8 at tile 0 too
  // Depth: left half one value, right half another (stencil in the low byte).
  r.Resolve(80, 0, 0, 40, 16, -1, false, 0, true, 0xABCDEF12u);
  r.Resolve(80, 40, 0, 80, 16, -1, false, 0, true, 0x12345634u);
  EXPECT_TRUE(r.renderer->edram().log().empty());
  // Read the tile as k_8_8_8_8: stencil in R, depth in GBA, the 40-column halves swapped.
  r.Resolve(80, 0, 0, 80, 16, 0, false, 0, false, 0);
  ASSERT_EQ(r.renderer->edram().log().size(), 1u);
  EXPECT_EQ(r.renderer->edram().log()[0].transfer.reason,
            "depth -> colour, format kD24S8 -> k_8_8_8_8");
  for (uint32_t x = 0; x < 80; ++x) {
    ASSERT_EQ(r.Resolved(x, 3, 80), x < 40 ? 0x12345634u : 0xABCDEF12u) << x;
  }
  // Colour writes a small rect, then depth is used again (a depth clear of another rect):
  // the tile goes back to depth with the colour bits reinterpreted.
  r.Resolve(80, 0, 8, 8, 16, -1, true, 0x99AABBCCu, false, 0);
  r.Resolve(80, 72, 0, 80, 8, -1, false, 0, true, 0x00000001u);
  // And to colour again: everything but the two rects is the original, bit for bit.
  r.Resolve(80, 0, 0, 80, 16, 0, false, 0, false, 0);
  EXPECT_EQ(r.renderer->edram().log().size(), 3u);
  for (uint32_t y = 0; y < 16; ++y) {
    for (uint32_t x = 0; x < 80; ++x) {
      uint32_t want = x < 40 ? 0x12345634u : 0xABCDEF12u;
      if (x < 8 && y >= 8) want = 0x99AABBCCu;
      // The depth clear of depth columns 72-79 lands on colour columns 32-39.
      if (x >= 32 && x < 40 && y < 8) want = 0x00000001u;
      ASSERT_EQ(r.Resolved(x, y, 80), want) << x << "," << y;
    }
  }
  EXPECT_EQ(r.ctx->validation_message_count(), 0u) << test::ValidationReport(*r.ctx);
}

TEST(EdramTransfers, BindingWithoutUseMovesNothing) {
  Rig r;
  r.Set(Reg::RB_COLOR_INFO, 0);
  r.Resolve(80, 0, 0, 80, 16, -1, true, 0x01020304u, false, 0);
  // Depth bound at the same tiles but no depth clear / copy: not used, no transfer.
  r.Set(Reg::RB_DEPTH_INFO, 0);
  r.Resolve(80, 0, 0, 80, 16, 0, false, 0, false, 0);
  EXPECT_TRUE(r.renderer->edram().log().empty());
  EXPECT_EQ(r.Resolved(1, 1, 80), 0x01020304u);
  // 4x MSAA of the same target is another owner with its own host image: tile 0 moves (pixel
  // (x, y) of the 4x target holds 1x pixels (2x, 2y), (2x+1, 2y), (2x, 2y+1), (2x+1, 2y+1)).
  r.msaa = 2;
  r.Resolve(80, 0, 0, 16, 8, -1, true, 0x05060708u, false, 0);
  ASSERT_EQ(r.renderer->edram().log().size(), 1u);
  const auto& e = r.renderer->edram().log()[0];
  EXPECT_EQ(e.transfer.reason, "msaa 1x -> 4x");
  EXPECT_EQ(e.transfer.tiles(), 1u);  // only tile 0 was owned
  EXPECT_TRUE(e.data_moved) << e.note;
  gpu::edram::Surface s;
  s.pitch_pixels = 80;
  s.msaa = xenos::MsaaSamples::k4X;
  const gpu::edram::Edram& edram = r.renderer->edram().Snapshot(s, 8);
  EXPECT_EQ(edram.Load(s, 20, 3, 0), 0x01020304u);  // from the 1x clear
  EXPECT_EQ(edram.Load(s, 20, 3, 3), 0x01020304u);
  EXPECT_EQ(edram.Load(s, 8, 3, 2), 0x05060708u);   // the 4x clear
  gpu::edram::Surface one = s;
  one.msaa = xenos::MsaaSamples::k1X;
  EXPECT_EQ(edram.Load(one, 17, 7, 0), 0x05060708u);  // 4x pixel (8, 3) sample 3
  EXPECT_EQ(r.ctx->validation_message_count(), 0u) << test::ValidationReport(*r.ctx);
}

using ::xnt::test::ReadFileText;

::xnt::test::ShellResult Shell(const std::string& command) {
  return ::xnt::test::RunShell(command + " 2>&1");
}

// Per test: the tests of this file run side by side as processes (test_files.h).
std::filesystem::path Work() { return ::xnt::test::TestWorkDir("renderer"); }

// A log with both kinds of transfer, for the report tests.
void MakeLog(Rig& r) {
  r.Set(Reg::RB_COLOR_INFO, 0);
  r.Set(Reg::RB_DEPTH_INFO, 0);
  r.Resolve(80, 0, 0, 80, 32, -1, false, 0, true, 0xABCDEF12u);
  r.Resolve(80, 0, 0, 80, 16, 0, false, 0, false, 0);      // depth -> colour, tile 0
  r.Resolve(160, 0, 0, 160, 16, 0, false, 0, false, 0);    // pitch 80 -> 160, tiles 0-1
}

TEST(EdramReports, TextAndJsonListEveryTransferWithTotals) {
  Rig r;
  MakeLog(r);
  const EdramCache& cache = r.renderer->edram();
  ASSERT_EQ(cache.log().size(), 3u);  // tile 0 colour<-depth, then tile 0 (colour) + 1 (depth)
  gpu::EdramReportOptions o;
  o.title = "rig";
  o.naive_transfers = cache.naive().transfers();
  o.naive_bytes = cache.naive().bytes();
  std::string text = gpu::EdramReportText(cache.tracker(), o);
  // Tile 0 colour <- depth, tile 1 colour <- depth and tile 0 re-pitched colour -> colour: all
  // three on the GPU (depth stores through the depth/stencil copy path of a D24 host image).
  EXPECT_NE(text.find("totals: 3 transfers, 3 tiles, 15360 bytes (3 moved: 3 on the GPU, 0 "
                      "through the CPU)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("kD24S8@0 p80/1t 1x -> k_8_8_8_8@0 p80/1t 1x"), std::string::npos) << text;
  EXPECT_NE(text.find("naive store-all/load-all-on-binding-change cache: 5 transfers"), std::string::npos) << text;
  std::string json = gpu::EdramReportJson(cache.tracker(), o);
  EXPECT_NE(json.find("\"moved_on_gpu\": 3"), std::string::npos) << json;
  EXPECT_NE(json.find("\"totals\": {\"transfers\": 3, \"tiles\": 3, \"bytes\": 15360"), std::string::npos) << json;
  EXPECT_NE(json.find("\"reason\": \"pitch 80 -> 160\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"naive\": {\"transfers\": 5, \"bytes\": 40960}"), std::string::npos) << json;
  o.frame = 1;  // nothing in frame 1
  EXPECT_NE(gpu::EdramReportJson(cache.tracker(), o).find("\"transfers\": []"), std::string::npos);
}

TEST(EdramReports, HtmlMapLoadsInChromiumWithoutConsoleErrors) {
  if (!::xnt::test::ChromiumInstalled()) XNT_MISSING_PREREQUISITE() << "chromium not installed";
  Rig r;
  MakeLog(r);
  auto page = Work() / "map.html";
  {
    std::ofstream out(page);
    out << gpu::EdramReportHtml(r.renderer->edram().tracker(), gpu::EdramReportOptions{"rig", std::nullopt, 5, 0});
  }
  const std::filesystem::path profile = Work() / "profile", err_path = Work() / "dom.err";
  ASSERT_EQ(::xnt::test::RunChromium(profile, "--dump-dom file://" + page.string(), Work() / "dom.out", err_path), 0);
  std::string dom = ReadFileText(Work() / "dom.out"), err = ReadFileText(err_path);
  // 4 owner segments: depth [0,2) until event 1, colour80 tile 0 until 2, depth tile 1 until 2,
  // colour160 tiles 0-1 after; 3 transfer marks.
  EXPECT_NE(dom.find(">ok segments=4 transfers=3<"), std::string::npos) << dom.substr(0, 3000);
  EXPECT_EQ(err.find("Uncaught"), std::string::npos) << err;
  EXPECT_EQ(err.find(":CONSOLE"), std::string::npos) << err;
  EXPECT_EQ(::xnt::test::RunChromium(profile,
                                     "--window-size=1200,1400 --screenshot=" + (Work() / "map.png").string() +
                                         " file://" + page.string(),
                                     "/dev/null", err_path),
            0);
  EXPECT_TRUE(std::filesystem::exists(Work() / "map.png"));
}

TEST(EdramCli, TransfersCommandOnASample) {
  test::UseLavapipe();
  const std::string cli = std::string(XNT_BINARY_DIR) + "/tools/xenotrace";
  if (!std::filesystem::exists(cli)) XNT_MISSING_PREREQUISITE() << "xenotrace not built";
  auto write = Shell(cli + " samples write clear_draws_resolve_swap -o " + Work().string());
  ASSERT_EQ(write.code, 0) << write.out;
  std::string trace = (Work() / "clear_draws_resolve_swap.xnt").string();
  auto json = Shell(cli + " transfers " + trace + " --json --validate --html " + (Work() / "cli.html").string());
  ASSERT_EQ(json.code, 0) << json.out;
  // One colour target at one pitch: nothing ever changes owner.
  EXPECT_NE(json.out.find("\"transfers\": []"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"totals\": {\"transfers\": 0"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"naive\": {\"transfers\": "), std::string::npos) << json.out;
  EXPECT_NE(ReadFileText(Work() / "cli.html").find("EDRAM ownership map"), std::string::npos);
  auto text = Shell(cli + " transfers " + trace + " --frame 0");
  EXPECT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("totals: 0 transfers"), std::string::npos) << text.out;
  EXPECT_EQ(Shell(cli + " transfers " + trace + " --frame 99").code, 2);
  EXPECT_EQ(Shell(cli + " transfers /nonexistent.xnt").code, 2);
  auto help = Shell(cli + " transfers --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--html"), std::string::npos);
}

}  // namespace
}  // namespace xnt::vk
