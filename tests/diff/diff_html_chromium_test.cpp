// The HTML report in a real browser: headless Chromium (Debian's `chromium`) loads it without
// console or script errors, the script runs (it writes "ok ..." into #xnt-status), and
// screenshots of the before / after / diff views (chosen by the URL hash) differ from each other
// in the way the images do. Skipped when chromium is not installed (a failure when CI is set).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "diff_test_util.h"
#include "xnt/diff/driver.h"
#include "xnt/diff/png.h"
#include "headless_chromium.h"
#include "prerequisite.h"
#include "report_page_fixture.h"
#include "test_files.h"

namespace xnt::diff {
namespace {

using test::Gradient;
using test::TempDir;

using ::xnt::test::ReadFileText;

class DiffHtmlChromium : public test::ReportPageFixture {
 protected:
  DiffHtmlChromium() : ReportPageFixture("chromium") {}

  void SetUp() override {
    ReportPageFixture::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SavePng(dir_ / "A/frame.png", Gradient(false).view());
    SavePng(dir_ / "B/frame.png", Gradient(true).view());
    SavePng(dir_ / "A/same.png", Gradient(false).view());
    SavePng(dir_ / "B/same.png", Gradient(false).view());
    SavePng(dir_ / "A/gone.png", Gradient(false).view());
    WriteReport();
  }

  static void ExpectNoConsoleErrors(const std::string& err) {
    // Chromium logs page console messages and uncaught exceptions as "CONSOLE" lines on stderr.
    EXPECT_EQ(err.find("Uncaught"), std::string::npos) << err;
    EXPECT_EQ(err.find(":CONSOLE"), std::string::npos) << err;
    EXPECT_EQ(err.find("Not allowed to load local resource"), std::string::npos) << err;
  }
};

TEST_F(DiffHtmlChromium, LoadsWithoutErrorsAndScriptRuns) {
  ASSERT_EQ(Chromium("--dump-dom '" + url_ + "#view=d'", "dom"), 0);
  const std::string dom = ReadFileText(dir_ / "dom.out");
  EXPECT_NE(dom.find(">ok views=d images=8<"), std::string::npos) << dom.substr(0, 2000);
  EXPECT_NE(dom.find("<body data-view=\"d\">"), std::string::npos);
  ExpectNoConsoleErrors(ReadFileText(dir_ / "dom.err"));
}

TEST_F(DiffHtmlChromium, ScreenshotsShowTheThreeViews) {
  // Count pixels of the pure red square (B only), pure black ones (the diff image is black where
  // nothing changed; the gradient and the page background never are), and bright pastel ones
  // (the changed square in the diff view: every channel's error is large there).
  struct Shot {
    const char* view;
    int red = 0, black = 0, bright = 0;
    uint64_t hash = 0;
  };
  Shot shots[] = {{"a"}, {"b"}, {"d"}};
  for (Shot& s : shots) {
    const std::string png = dir_ / (std::string("shot_") + s.view + ".png");
    ASSERT_EQ(Chromium("--window-size=1000,900 --screenshot=" + png + " '" + url_ + "#view=" + s.view + "&zoom=4'",
                       std::string("shot_") + s.view),
              0);
    ExpectNoConsoleErrors(ReadFileText(dir_ / (std::string("shot_") + s.view + ".err")));
    OwnedImage img = LoadPng(png);
    const Image& v = img.view();
    std::vector<float> row(size_t(v.width) * size_t(v.channels));
    for (int y = 0; y < v.height; ++y) {
      v.RowToFloat(y, row.data());
      for (int x = 0; x < v.width; ++x) {
        const float* p = &row[size_t(x) * size_t(v.channels)];
        s.red += p[0] > 0.98f && p[1] < 0.02f && p[2] < 0.02f;
        s.black += p[0] < 0.02f && p[1] < 0.02f && p[2] < 0.02f;
        s.bright += p[0] > 0.45f && p[1] > 0.45f && p[2] > 0.45f && (p[0] > 0.8f || p[1] > 0.8f || p[2] > 0.8f);
      }
    }
    s.hash = HashPixels(v);
  }
  // At zoom 4 the 19x19 square covers 76x76 = 5776 screen pixels.
  EXPECT_LT(shots[0].red, 100) << "before view shows the red square";
  EXPECT_GT(shots[1].red, 5000) << "after view lacks the red square";
  EXPECT_LT(shots[2].red, 100);
  // 96x64 at zoom 4 is 98304 screen pixels, 5776 of them the square.
  EXPECT_GT(shots[2].black, 80000) << "diff view is not black where nothing changed";
  EXPECT_GT(shots[2].bright, 4000) << "diff view does not show the changed square";
  EXPECT_LT(shots[0].black, 1000);
  EXPECT_LT(shots[1].black, 1000);
  EXPECT_NE(shots[0].hash, shots[1].hash);
  EXPECT_NE(shots[1].hash, shots[2].hash);
  EXPECT_NE(shots[0].hash, shots[2].hash);
}

}  // namespace
}  // namespace xnt::diff
