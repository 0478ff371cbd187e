// The diff report's views for small errors, in headless Chromium: a 5,000-pixel block
// off by 1 LSB must be visible in the "any difference" mask and the amplified view, the page has
// side-by-side / split / flicker modes and a jump to the largest error, and "fit" enlarges small
// frames by a whole factor (nearest neighbour). No console errors. Skipped without chromium.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "diff_test_util.h"
#include "xnt/diff/driver.h"
#include "headless_chromium.h"
#include "prerequisite.h"
#include "report_page_fixture.h"
#include "test_files.h"
#include "xnt/diff/png.h"

namespace xnt::diff {
namespace {

using test::Make8;
using test::TempDir;

using ::xnt::test::ReadFileText;

class DiffHtmlViews : public test::ReportPageFixture {
 protected:
  DiffHtmlViews() : ReportPageFixture("chromium_views") {}

  void SetUp() override {
    ReportPageFixture::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    // 200x120, a soft pattern; B has a 100x50 block (5,000 pixels) whose red is 1 LSB higher.
    auto base = [](int x, int y, int c) { return c == 3 ? 255 : 60 + (x * 3 + y * 2 + c * 40) % 120; };
    SavePng(dir_ / "A/lsb.png", Make8(200, 120, 4, base).view());
    SavePng(dir_ / "B/lsb.png", Make8(200, 120, 4, [&](int x, int y, int c) {
                                  const bool in = x >= 40 && x < 140 && y >= 30 && y < 80;
                                  return base(x, y, c) + (in && c == 0 ? 1 : 0);
                                }).view());
    // A small frame: fit must enlarge it.
    SavePng(dir_ / "A/small.png", Make8(16, 12, 4, base).view());
    SavePng(dir_ / "B/small.png", Make8(16, 12, 4, [&](int x, int y, int c) {
                                    return base(x, y, c) + (x == 3 && y == 4 && c == 1 ? 2 : 0);
                                  }).view());
    WriteReport();
  }

  static void ExpectNoConsoleErrors(const std::string& err) {
    EXPECT_EQ(err.find("Uncaught"), std::string::npos) << err;
    EXPECT_EQ(err.find(":CONSOLE"), std::string::npos) << err;
  }
  // Pixels of a screenshot matching `pred(r, g, b)` (0..1).
  template <typename Pred>
  int Count(const std::string& png, Pred pred) {
    OwnedImage img = LoadPng(png);
    const Image& v = img.view();
    std::vector<float> row(size_t(v.width) * size_t(v.channels));
    int n = 0;
    for (int y = 0; y < v.height; ++y) {
      v.RowToFloat(y, row.data());
      for (int x = 0; x < v.width; ++x) {
        const float* p = &row[size_t(x) * size_t(v.channels)];
        n += pred(p[0], p[1], p[2]);
      }
    }
    return n;
  }
  std::string Shot(const std::string& hash) {
    const std::string png = dir_ / ("shot_" + hash + ".png");
    EXPECT_EQ(Chromium("--window-size=1000,1400 --screenshot=" + png + " '" + url_ + "#" + hash + "'", "shot_" + hash), 0);
    ExpectNoConsoleErrors(ReadFileText(dir_ / ("shot_" + hash + ".err")));
    if (const char* keep = std::getenv("XNT_KEEP_SCREENSHOTS")) {
      std::filesystem::copy_file(png, std::string(keep) + "/diff_" + hash.substr(5, 1) + ".png",
                                 std::filesystem::copy_options::overwrite_existing);
    }
    return png;
  }
};

TEST_F(DiffHtmlViews, PageHasTheNewViewsAndControls) {
  ASSERT_EQ(Chromium("--dump-dom '" + url_ + "#view=m&jump'", "dom"), 0);
  const std::string dom = ReadFileText(dir_ / "dom.out");
  ExpectNoConsoleErrors(ReadFileText(dir_ / "dom.err"));
  EXPECT_NE(dom.find(">ok views=m images=8<"), std::string::npos) << dom.substr(0, 2000);
  EXPECT_NE(dom.find("data-masks=\"2\""), std::string::npos) << "mask and amplified views computed for both items";
  for (const char* v : {"m", "x", "s", "p", "f"}) {
    EXPECT_NE(dom.find(std::string("data-view=\"") + v + "\""), std::string::npos) << v;
  }
  EXPECT_NE(dom.find("data-jump"), std::string::npos);
  EXPECT_NE(dom.find("class=\"split\""), std::string::npos);
  // The mask counted every differing pixel: 5,000 in the block, 1 in the small frame.
  EXPECT_NE(dom.find("data-any=\"5000\""), std::string::npos);
  EXPECT_NE(dom.find("5000 pixel(s) differ at all"), std::string::npos);
  EXPECT_NE(dom.find("data-any=\"1\""), std::string::npos);
  // #jump: the largest error is marked.
  EXPECT_NE(dom.find("class=\"mark on\""), std::string::npos);
  // Fit zoom: the 16x12 frame is enlarged by a whole factor; the 200x120 one too.
  std::regex zoom_re("data-w=\"16\"[^>]*data-zoom=\"([0-9.]+)\"");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dom, m, zoom_re)) << dom.substr(0, 3000);
  EXPECT_GE(std::stod(m[1]), 8.0);
  EXPECT_EQ(std::stod(m[1]), std::floor(std::stod(m[1])));
}

TEST_F(DiffHtmlViews, OneLsbBlockIsVisibleInMaskAndAmplifiedViews) {
  auto magenta = [](float r, float g, float b) { return r > 0.98f && g < 0.02f && b > 0.98f; };
  auto dim_red = [](float r, float g, float b) { return r > 0.1f && r < 0.16f && g < 0.02f && b < 0.02f; };
  const std::string before = Shot("view=a"), after = Shot("view=b"), diff = Shot("view=d");
  const std::string mask = Shot("view=m"), amplified = Shot("view=x");
  Shot("view=s");
  Shot("view=p");
  // The mask shows the whole block (at the fit zoom, 4x: 80,000 screen pixels), nothing else.
  const int mask_px = Count(mask, magenta);
  EXPECT_GT(mask_px, 5000 * 4) << "mask view does not show the 1-LSB block";
  EXPECT_LT(Count(before, magenta), 10);
  EXPECT_GT(Count(amplified, dim_red), 5000 * 4) << "amplified view does not show the block";
  // The old views alone do not show it: that is why the new ones exist.
  EXPECT_LT(Count(diff, magenta), 10);
  EXPECT_LT(Count(after, magenta), 10);
}

}  // namespace
}  // namespace xnt::diff
