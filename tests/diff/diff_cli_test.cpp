// `xenotrace diff` end to end: exit codes (0 pass, 1 differ, 2 error), thresholds on the command
// line and in a policy file, --json, --junit, --scale, --resize. Skipped when the CLI has not
// been built (it links every library of the project).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "diff_test_util.h"
#include "xnt/diff/png.h"
#include "prerequisite.h"
#include "test_files.h"

namespace xnt::diff {
namespace {

using test::Gradient;
using test::Make8;
using test::TempDir;

using CliRun = ::xnt::test::ShellResult;

class DiffCli : public ::testing::Test {
 protected:
  void SetUp() override {
    exe_ = std::string(XNT_BINARY_DIR) + "/tools/xenotrace";
    if (!std::filesystem::exists(exe_)) XNT_MISSING_PREREQUISITE() << "xenotrace not built: " << exe_;
    SavePng(dir_ / "a.png", Gradient(false).view());
    SavePng(dir_ / "b.png", Gradient(true).view());
    SavePng(dir_ / "a_copy.png", Gradient(false).view());
  }
  CliRun Xt(const std::string& args) {
    return ::xnt::test::RunShell(exe_ + " diff " + args + " 2>" + (dir_ / "stderr.txt"));
  }
  std::string P(const std::string& rel) { return dir_ / rel; }
  TempDir dir_{"cli"};
  std::string exe_;
};

TEST_F(DiffCli, ExitCodesAndThresholds) {
  EXPECT_EQ(Xt(P("a.png") + " " + P("a_copy.png")).code, 0);
  CliRun differ = Xt(P("a.png") + " " + P("b.png"));
  EXPECT_EQ(differ.code, 1);
  EXPECT_NE(differ.out.find("not exact: 361 pixels differ"), std::string::npos) << differ.out;
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --max-error 1").code, 0);
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --max-error 0.5").code, 1);
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --max-pixels-over 361").code, 0);
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --max-pixels-over 6%").code, 0);
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --max-pixels-over 5.8%").code, 1);
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --min-ssim 0.5").code, 0);
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --min-ssim 0.95").code, 1);
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --min-psnr 30").code, 1);
  // Errors: missing file, corrupt file, bad threshold, unknown resize mode.
  EXPECT_EQ(Xt(P("a.png") + " " + P("nope.png")).code, 2);
  std::ofstream(P("bad.png")) << "not a png";
  EXPECT_EQ(Xt(P("a.png") + " " + P("bad.png")).code, 2);
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --max-error 7").code, 2);
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --resize bicubic").code, 2);
}

TEST_F(DiffCli, PercentOfPixelsOver) {
  // 361 of 96*64 = 6144 pixels is 5.876%.
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --max-pixels-over 5%").code, 1);
}

TEST_F(DiffCli, PolicyFile) {
  std::ofstream(P("ok.policy")) << "# loose everywhere\nmax_error = 1\n[b.png]\nmin_ssim = 0.5\n";
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --policy " + P("ok.policy")).code, 0);
  std::ofstream(P("strict.policy")) << "max_error = 1\n[*b.png]\nexact = true\n";
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --policy " + P("strict.policy")).code, 1);
  std::ofstream(P("bad.policy")) << "max_error = 1\nbogus = 3\n";
  CliRun bad = Xt(P("a.png") + " " + P("b.png") + " --policy " + P("bad.policy"));
  EXPECT_EQ(bad.code, 2);
  std::ifstream err(P("stderr.txt"));
  std::stringstream ss;
  ss << err.rdbuf();
  EXPECT_NE(ss.str().find("bad.policy:2: unknown key 'bogus'"), std::string::npos) << ss.str();
  // Command-line thresholds override the policy.
  EXPECT_EQ(Xt(P("a.png") + " " + P("b.png") + " --policy " + P("ok.policy") + " --max-error 0.1").code, 1);
}

TEST_F(DiffCli, JsonJunitAndScales) {
  CliRun j = Xt(P("a.png") + " " + P("b.png") + " --json --junit " + P("j.xml"));
  EXPECT_EQ(j.code, 1);
  EXPECT_EQ(j.out.rfind("{", 0), 0u) << j.out;
  EXPECT_NE(j.out.find("\"verdict\": \"differ\""), std::string::npos);
  EXPECT_NE(j.out.find("\"pixels_differing\": 361"), std::string::npos);
  std::ifstream x(P("j.xml"));
  std::stringstream xs;
  xs << x.rdbuf();
  EXPECT_NE(xs.str().find("<failure "), std::string::npos);

  OwnedImage g = Gradient(false);
  OwnedImage big = Make8(192, 64, 4, [&](int x, int y, int c) { return g.view().Row(y)[(x / 2) * 4 + c]; });
  SavePng(P("big.png"), big.view());
  EXPECT_EQ(Xt(P("a.png") + " " + P("big.png")).code, 0);                    // 2x1 inferred
  EXPECT_EQ(Xt(P("a.png") + " " + P("big.png") + " --scale 2x1").code, 0);
  EXPECT_EQ(Xt(P("a.png") + " " + P("big.png") + " --scale 2x2").code, 2);  // not a 2x2 pair
  OwnedImage odd = Make8(100, 64, 4, [&](int x, int y, int c) { return g.view().Row(y)[std::min(x, 95) * 4 + c]; });
  SavePng(P("odd.png"), odd.view());
  EXPECT_EQ(Xt(P("a.png") + " " + P("odd.png")).code, 2);
  EXPECT_EQ(Xt(P("a.png") + " " + P("odd.png") + " --resize crop").code, 0);
  EXPECT_EQ(Xt(P("a.png") + " " + P("odd.png") + " --resize area").code, 1);
}

}  // namespace
}  // namespace xnt::diff
