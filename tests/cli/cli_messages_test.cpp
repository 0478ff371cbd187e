// `xenotrace` as a user meets it, on the cpu path (no GPU needed):
//  1. honest exit codes: nothing written / nothing dumped / nothing exported / a damaged trace is
//     exit 1 with a message on stderr and "recovered" in --json (unless --allow-damaged);
//  2. one draw address F.K in transfers' text, JSON and HTML, accepted by dump --draw;
//  3. -o/--out everywhere, --frames A-B,C shared, one error style printed once, unknown commands
//     named, the real flag named for a bad value, negative frames refused, replay --out created
//     only when something is written, replay --list-devices;
//  5. the transfers --html page in headless Chromium (axes, table, hover text, no marker text);
//  6. samples write --expected.
#include <gtest/gtest.h>
#include <unistd.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "xnt/diff/png.h"
#include "headless_chromium.h"
#include "prerequisite.h"
#include "test_files.h"
#include "xnt/samples/samples.h"

namespace xnt {
namespace {

namespace fs = std::filesystem;
const fs::path kWork = test::ProcessWorkDir("cli", "work-");

using test::ReadFileText;

struct Result : test::ShellResult {
  std::string err;
};
Result Xt(const std::string& args) {
  const fs::path err = kWork / "stderr.txt";
  // A braced list runs left to right: the command first, then its stderr is read.
  return Result{test::RunShell(test::XenotraceCli() + " " + args + " 2>" + err.string()),
                ReadFileText(err)};
}
size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string cli = test::XenotraceCli();
    if (!fs::exists(cli)) XNT_MISSING_PREREQUISITE() << "xenotrace not built: " << cli;
    fs::create_directories(kWork);
  }
  // A sample written once into kWork.
  static std::string Sample(const std::string& name) {
    const fs::path path = kWork / (name + ".xnt");
    if (!fs::exists(path)) Xt("samples write " + name + " -o " + kWork.string());
    return path.string();
  }
  // The first `bytes` of a trace: a capture that died (no footer).
  static std::string Truncated(const std::string& trace, size_t bytes, const std::string& name) {
    std::string data = ReadFileText(trace);
    data.resize(std::min(data.size(), bytes));
    const fs::path path = kWork / name;
    std::ofstream(path, std::ios::binary) << data;
    return path.string();
  }
};

// ---- 1. exit codes ----

TEST_F(Cli, ReplayOfFramesTheTraceLacksIsExit1AndCreatesNoFolder) {
  const std::string trace = Sample("clear_draws_resolve_swap");  // one frame
  fs::remove_all(kWork / "r5");
  Result r = Xt("replay " + trace + " --path cpu -o " + (kWork / "r5").string() + " --frames 5");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("no image written"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(kWork / "r5")) << "--out created with nothing to write";
  // Partly there: frame 0 written, frames 1-3 missing -> still 1, and said.
  r = Xt("replay " + trace + " --path cpu --out " + (kWork / "r03").string() + " --frames 0-3 --json");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("frame(s) 1-3 not in the trace"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("\"frames_written\": 1"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(kWork / "r03" / "frame_0000.png"));
  // All there: 0, and a complete trace says "recovered": null.
  r = Xt("replay " + trace + " --path cpu -o " + (kWork / "r0").string() + " --frames 0 --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"recovered\": null"), std::string::npos) << r.out;
}

TEST_F(Cli, DamagedTracesAreExit1WithRecoveredInJson) {
  const std::string trace = Sample("clear_draws_resolve_swap");
  const std::string cut = Truncated(trace, 300, "cut300.xnt");
  Result r = Xt("replay " + cut + " --path cpu -o " + (kWork / "cut").string() + " --json");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("\"recovered\": {\"note\": "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("is damaged"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no image written"), std::string::npos) << r.err;
  r = Xt("dump " + cut);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("nothing to dump"), std::string::npos) << r.err;
  const fs::path xtr = kWork / "cut.xtr";
  fs::remove(xtr);
  r = Xt("export-xenia " + cut + " -o " + xtr.string() + " --json");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_FALSE(fs::exists(xtr)) << "an empty .xtr was left behind";
  EXPECT_NE(r.out.find("\"recovered\": {"), std::string::npos) << r.out;
  r = Xt("info " + cut);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(Xt("info " + cut + " --allow-damaged").code, 0);

  // A trace that lost only its footer still replays its frame: 1 without --allow-damaged, 0 with.
  const std::string whole = ReadFileText(trace);
  const std::string nofooter = Truncated(trace, whole.size() - 8, "nofooter.xnt");
  r = Xt("replay " + nofooter + " --path cpu -o " + (kWork / "nf").string() + " --json");
  if (r.out.find("\"frames_written\": 1") != std::string::npos) {
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.out.find("\"recovered\": {"), std::string::npos) << r.out;
    EXPECT_EQ(Xt("replay " + nofooter + " --path cpu -o " + (kWork / "nf").string() + " --allow-damaged").code, 0);
    EXPECT_EQ(Xt("dump " + nofooter).code, 1);
    EXPECT_EQ(Xt("dump " + nofooter + " --allow-damaged").code, 0);
    EXPECT_EQ(Xt("transfers " + nofooter + " --path cpu").code, 1);
  } else {
    ADD_FAILURE() << "the footer-less trace kept no frame: " << r.out << r.err;
  }
}

// ---- 2. F.K addresses ----

TEST_F(Cli, TransfersNameDrawsFKAndPrintHalfOpenTileRanges) {
  const std::string trace = Sample("edram_depth_evict_8888");
  Result text = Xt("transfers " + trace + " --path cpu");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("draw F.K"), std::string::npos) << text.out;
  EXPECT_TRUE(std::regex_search(text.out, std::regex("\\n0\\.[0-9]+ +\\[[0-9]+, [0-9]+\\)"))) << text.out;
  EXPECT_EQ(text.out.find("event"), std::string::npos) << text.out;
  Result json = Xt("transfers " + trace + " --path cpu --json");
  ASSERT_EQ(json.code, 0) << json.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(json.out, m, std::regex("\"draw\": \"0\\.([0-9]+)\""))) << json.out;
  EXPECT_NE(json.out.find("\"recovered\": null"), std::string::npos);
  // dump accepts the same address and prints that draw (or resolve).
  Result dump = Xt("dump " + trace + " --no-registers --draw 0." + m[1].str());
  EXPECT_EQ(dump.code, 0) << dump.err;
  EXPECT_TRUE(std::regex_search(dump.out, std::regex("=> (draw|resolve) 0\\." + m[1].str() + " "))) << dump.out;
  EXPECT_EQ(Xt("dump " + trace + " --draw 0.999").code, 2);
  EXPECT_EQ(Xt("dump " + trace + " --draw x.1").code, 2);
}

// ---- 3. flags and messages ----

TEST_F(Cli, ErrorsAreOneLineInOneStyle) {
  Result r = Xt("frobnicate");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("xenotrace: error: unknown command 'frobnicate'"), std::string::npos) << r.err;
  // A bad numeric value names the flag the user typed.
  const std::string png = (kWork / "one.png").string();
  Xt("samples write clear_draws_resolve_swap -o " + kWork.string() + " --expected");
  r = Xt("diff " + (kWork / "clear_draws_resolve_swap.expected.png").string() + " " +
         (kWork / "clear_draws_resolve_swap.expected.png").string() + " --max-error abc");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--max-error"), std::string::npos) << r.err;
  EXPECT_EQ(Count(r.err, "xenotrace: error:"), 1u) << r.err;
  // A missing file: the same one line for every command that reads one.
  for (const char* cmd : {"info", "validate", "dump", "replay", "transfers", "export-xenia"}) {
    std::string args = std::string(cmd) + " /nonexistent.xnt";
    if (std::string(cmd) == "replay") args += " -o " + (kWork / "never").string();
    if (std::string(cmd) == "export-xenia") args += " -o " + (kWork / "never.xtr").string();
    r = Xt(args);
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_EQ(r.err.rfind("xenotrace: error: ", 0), 0u) << cmd << ": " << r.err;
    EXPECT_EQ(Count(r.err, "\n"), 1u) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("/nonexistent.xnt"), std::string::npos) << cmd << ": " << r.err;
  }
  EXPECT_FALSE(fs::exists(kWork / "never"));
}

TEST_F(Cli, NegativeFramesAreRefusedPlainly) {
  const std::string trace = Sample("clear_draws_resolve_swap");
  for (const std::string& args : {"replay " + trace + " --path cpu -o " + (kWork / "neg").string() + " --frames -1",
                                 "dump " + trace + " --frame -1", "dump " + trace + " --frames -2",
                                 "transfers " + trace + " --path cpu --frames -3"}) {
    Result r = Xt(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err.find("negative frame numbers are not allowed"), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(Count(r.err, "xenotrace: error:"), 1u) << r.err;
  }
}

TEST_F(Cli, FramesListAndOutFlagsAreShared) {
  const std::string trace = Sample("clear_draws_resolve_swap");
  Result r = Xt("dump " + trace + " --no-registers --frames 0,0-0");
  EXPECT_EQ(r.code, 0) << r.err;
  r = Xt("transfers " + trace + " --path cpu --frames 0,0- -o " + (kWork / "t.html").string());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(kWork / "t.html"));
  EXPECT_EQ(Xt("transfers " + trace + " --path cpu --frames 0,4").code, 2);
  r = Xt("replay " + trace + " --path cpu --out " + (kWork / "list").string() + " --frames 0,2-3");
  EXPECT_EQ(r.code, 1) << r.err;  // frames 2-3 do not exist
  EXPECT_NE(r.err.find("frame(s) 2-3 not in the trace"), std::string::npos) << r.err;
  EXPECT_EQ(Xt("replay " + trace + " --path cpu --out " + (kWork / "bad").string() + " --frames 1-0").code, 2);
  EXPECT_EQ(Xt("export-xenia " + trace + " --out " + (kWork / "x.xtr").string()).code, 0);
  ASSERT_EQ(Xt("samples write clear_draws_resolve_swap --expected -o " + kWork.string()).code, 0);
  EXPECT_EQ(Xt("diff " + (kWork / "clear_draws_resolve_swap.expected.png").string() + " " +
               (kWork / "clear_draws_resolve_swap.expected.png").string() + " -o " + (kWork / "rep").string())
                .code,
            0);
  EXPECT_TRUE(fs::exists(kWork / "rep" / "report.html"));
  // --list-devices needs no trace: a list, or one plain error where there is no Vulkan at all.
  r = Xt("replay --list-devices");
  if (r.code == 0) {
    EXPECT_TRUE(std::regex_search(r.out, std::regex("(^|\\n)0: "))) << r.out;
  } else {
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("xenotrace: error: ", 0), 0u) << r.err;
  }
  EXPECT_EQ(Xt("replay " + trace).code, 2);  // no --out
}

TEST_F(Cli, ReplayShowsPerDrawProgressWithAnEta) {
  const std::string trace = Sample("edram_shadow_map_three_pass");
  Result r = Xt("replay " + trace + " --path cpu -o " + (kWork / "progress").string() + " --progress");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex("\\] draw 0\\.0, +[0-9]+%, ETA [0-9]+ s"))) << r.err;
}

// ---- 6. samples write --expected ----

TEST_F(Cli, SamplesWriteExpectedWritesTheCpuImage) {
  const fs::path dir = kWork / "expected";
  fs::remove_all(dir);
  Result r = Xt("samples write triangle_fan --expected -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const fs::path png = dir / "triangle_fan.expected.png";
  ASSERT_TRUE(fs::exists(png)) << r.out;
  diff::OwnedImage img = diff::LoadPng(png.string());
  samples::Image expected = samples::Find("triangle_fan")->expected_image();
  ASSERT_EQ(uint32_t(img.view().width), expected.width);
  ASSERT_EQ(uint32_t(img.view().height), expected.height);
  for (uint32_t y = 0; y < expected.height; ++y) {
    ASSERT_EQ(std::memcmp(img.view().Row(int(y)), expected.rgba.data() + size_t(y) * expected.width * 4,
                          size_t(expected.width) * 4), 0) << "row " << y;
  }
}

// ---- 5. the ownership map in Chromium ----

TEST_F(Cli, TransfersHtmlHasAxesTableAndTargetsInChromium) {
  if (!test::ChromiumInstalled()) XNT_MISSING_PREREQUISITE() << "chromium not installed";
  const std::string trace = Sample("edram_depth_evict_8888");
  const fs::path page = kWork / "map.html";
  Result r = Xt("transfers " + trace + " --path cpu -o " + page.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string html = ReadFileText(page);
  const fs::path profile = kWork / "profile";
  ASSERT_EQ(test::RunChromium(profile, "--dump-dom file://" + page.string(), kWork / "map.dom", kWork / "map.err"), 0);
  const std::string dom = ReadFileText(kWork / "map.dom"), err = ReadFileText(kWork / "map.err");
  EXPECT_EQ(err.find("Uncaught"), std::string::npos) << err;
  EXPECT_EQ(err.find(":CONSOLE"), std::string::npos) << err;
  // Two short matches instead of one regex spanning the page: libstdc++'s regex recurses per
  // character and overflows the stack on a whole DOM under ASan.
  std::smatch head, tail;
  ASSERT_TRUE(std::regex_search(dom, head, std::regex("data-rows=\"([0-9]+)\" data-ticks=\"([0-9]+)\"")))
      << dom.substr(0, 3000);
  const size_t marker = dom.find(">ok segments=", size_t(head.position(0)));
  ASSERT_NE(marker, std::string::npos) << dom.substr(0, 3000);
  const std::string rest = dom.substr(marker, 80);
  ASSERT_TRUE(std::regex_search(rest, tail, std::regex(">ok segments=([0-9]+) transfers=([0-9]+)<")))
      << rest;
  EXPECT_GT(std::stoi(tail[1]), 0);
  EXPECT_GT(std::stoi(tail[2]), 0);
  EXPECT_EQ(head[1], tail[2]) << "every transfer has a table row";
  EXPECT_GE(std::stoi(head[2]), 4) << "axis ticks";
  // The marker text is not shown on the page.
  EXPECT_NE(dom.find("<p id=\"xnt-status\" hidden=\"\">ok segments="), std::string::npos);
  // Axes: tile title, F.K event labels, a frame bound; the table links to the map.
  EXPECT_NE(html.find("EDRAM tile [0, "), std::string::npos);
  EXPECT_TRUE(std::regex_search(html, std::regex(">0\\.[0-9]+</text>")));
  EXPECT_NE(html.find(">frame 0</text>"), std::string::npos);
  EXPECT_TRUE(std::regex_search(html, std::regex("<a class=\"tl\" href=\"#t0\" data-i=\"0\">0\\.[0-9]+</a>")));
  // Hover (title) and table show each block's render target and the reason.
  EXPECT_TRUE(std::regex_search(html, std::regex("render target: k_[0-9A-Z_]+ (colour|depth), base tile [0-9]+, pitch [0-9]+ px \\([0-9]+ tiles\\), [124]x MSAA")));
  EXPECT_TRUE(std::regex_search(html, std::regex("<title>draw 0\\.[0-9]+, tiles \\[[0-9]+, [0-9]+\\): [^<]+\nfrom k")));
  // The vertical scale ends near the last tile used, not at 2048.
  std::smatch top;
  ASSERT_TRUE(std::regex_search(html, top, std::regex("EDRAM tile \\[0, ([0-9]+)\\)")));
  EXPECT_LT(std::stoi(top[1]), 2048);
  EXPECT_EQ(test::RunChromium(profile,
                              "--window-size=1280,1500 --screenshot=" + (kWork / "map.png").string() + " file://" +
                                  page.string(),
                              "/dev/null", kWork / "shot.err"),
            0);
  EXPECT_TRUE(fs::exists(kWork / "map.png"));
}

}  // namespace
}  // namespace xnt
