// Directory mode and the report writers: statuses, ordering, exit codes, JSON, JUnit, HTML
// self-containment, diff and heatmap images.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "diff_test_util.h"
#include "test_files.h"
#include "xnt/diff/driver.h"
#include "xnt/base/error.h"
#include "xnt/diff/png.h"

namespace xnt::diff {
namespace {

using test::Gradient;
using test::Make8;
using test::TempDir;

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

using ::xnt::test::ReadFileText;

class DiffReport : public ::testing::Test {
 protected:
  void SetUp() override {
    namespace fs = std::filesystem;
    fs::create_directories(dir_ / "A/sub");
    fs::create_directories(dir_ / "B/sub");
    OwnedImage g = Gradient(false), sq = Gradient(true);
    SavePng(dir_ / "A/same.png", g.view());
    SavePng(dir_ / "B/same.png", g.view());
    SavePng(dir_ / "A/sub/changed.png", g.view());
    SavePng(dir_ / "B/sub/changed.png", sq.view());
    SavePng(dir_ / "A/only_a.png", g.view());
    SavePng(dir_ / "B/only_b.png", g.view());
    // B at 2x2: each pixel of the gradient repeated 2x2.
    OwnedImage big = Make8(192, 128, 4, [&](int x, int y, int c) { return g.view().Row(y / 2)[(x / 2) * 4 + c]; });
    SavePng(dir_ / "A/scaled.png", g.view());
    SavePng(dir_ / "B/scaled.png", big.view());
    std::ofstream(dir_ / "A/notes.txt") << "not an image, ignored";
  }
  void AddCorrupt() {
    SavePng(dir_ / "A/corrupt.png", Gradient(false).view());
    std::ofstream(dir_ / "B/corrupt.png") << "\x89PNG\r\n\x1a\n garbage";
  }
  TempDir dir_{"report"};
};

TEST_F(DiffReport, DirectoryModeStatusesAndExitCodes) {
  DiffOptions o;
  Report r = DiffPaths(dir_ / "A", dir_ / "B", o);
  ASSERT_EQ(r.items.size(), 5u);
  EXPECT_EQ(r.Count(Status::kPass), 2);    // same, scaled
  EXPECT_EQ(r.Count(Status::kDiffer), 3);  // changed, only_a (missing), only_b (extra)
  EXPECT_EQ(r.CountKind(ItemKind::kMissing), 1);
  EXPECT_EQ(r.CountKind(ItemKind::kExtra), 1);
  EXPECT_EQ(r.ExitCode(), 1);
  auto ordered = r.Ordered();
  EXPECT_NE(ordered.front()->status, Status::kPass);  // failing first
  EXPECT_EQ(ordered.back()->status, Status::kPass);
  for (const auto& it : r.items) {
    if (it.name == "scaled.png") {
      EXPECT_EQ(it.note, "B box-downsampled 2x2");
    }
    if (it.name == "sub/changed.png") {
      EXPECT_EQ(it.metrics.pixels_differing, 361u);
      EXPECT_EQ(it.metrics.max_x, 41);
      EXPECT_EQ(it.metrics.max_y, 21 + 18);  // green error grows with y: largest on the last row
    }
  }
  // A loose enough policy for the changed frame passes it; missing/extra still differ.
  o.policy = Policy::Parse("[sub/*]\nmax_error = 1\n", "mem");
  Report loose = DiffPaths(dir_ / "A", dir_ / "B", o);
  EXPECT_EQ(loose.Count(Status::kDiffer), 2);
  AddCorrupt();
  Report with_error = DiffPaths(dir_ / "A", dir_ / "B", {});
  EXPECT_EQ(with_error.Count(Status::kError), 1);
  EXPECT_EQ(with_error.ExitCode(), 2);
  EXPECT_EQ(with_error.Ordered().front()->name, "corrupt.png");
  EXPECT_NE(with_error.Ordered().front()->error.find("corrupt.png"), std::string::npos);
  // Two files; a folder against a file is an error.
  EXPECT_EQ(DiffPaths(dir_ / "A/same.png", dir_ / "B/same.png", {}).ExitCode(), 0);
  EXPECT_THROW(DiffPaths(dir_ / "A", dir_ / "B/same.png", {}), Error);
  EXPECT_THROW(DiffPaths(dir_ / "nope", dir_ / "B", {}), Error);
  std::filesystem::create_directories(dir_ / "empty1");
  std::filesystem::create_directories(dir_ / "empty2");
  EXPECT_THROW(DiffPaths(dir_ / "empty1", dir_ / "empty2", {}), Error);
}

TEST_F(DiffReport, JsonJunitHtmlAndImages) {
  AddCorrupt();
  DiffOptions o;
  o.report_dir = dir_ / "rep";
  Report r = DiffPaths(dir_ / "A", dir_ / "B", o);
  WriteReportDir(r, o.report_dir);

  const std::string json = ReadFileText(dir_ / "rep/report.json");
  EXPECT_NE(json.find("\"verdict\": \"error\""), std::string::npos);
  EXPECT_NE(json.find("\"exit_code\": 2"), std::string::npos);
  EXPECT_NE(json.find("\"missing\": 1, \"extra\": 1, \"error\": 1"), std::string::npos);
  EXPECT_NE(json.find("\"name\": \"sub/changed.png\", \"status\": \"differ\""), std::string::npos);
  EXPECT_NE(json.find("\"pixels_differing\": 361"), std::string::npos);
  EXPECT_NE(json.find("\"psnr\": null"), std::string::npos);  // identical: infinite PSNR
  EXPECT_LT(json.find("corrupt.png"), json.find("same.png"));  // errors first

  const std::string xml = ToJunit(r);
  EXPECT_EQ(Count(xml, "<testcase "), 6u);
  EXPECT_EQ(Count(xml, "<failure "), 3u);
  EXPECT_EQ(Count(xml, "<error "), 1u);
  EXPECT_NE(xml.find("tests=\"6\" failures=\"3\" errors=\"1\""), std::string::npos);
  EXPECT_NE(xml.find("name=\"sub/changed.png\""), std::string::npos);

  const std::string html = ReadFileText(dir_ / "rep/report.html");
  EXPECT_EQ(Count(html, "src=\"data:image/png;base64,"), 3u * 4u);  // same, changed, scaled
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("src=\"images/"), std::string::npos);
  EXPECT_EQ(Count(html, "<details class=\"item pass\""), 2u);
  EXPECT_EQ(Count(html, "<details class=\"item pass\" open"), 0u);  // passing: collapsed
  EXPECT_EQ(Count(html, "<details class=\"item differ\" open"), 3u);
  EXPECT_LT(html.find("corrupt.png"), html.find("sub/changed.png"));
  EXPECT_LT(html.find("sub/changed.png"), html.find("</span> same.png"));

  // Diff image: white where the square changed the pixels most, black where nothing changed.
  const ReportItem* changed = nullptr;
  for (const auto& it : r.items)
    if (it.name == "sub/changed.png") changed = &it;
  ASSERT_NE(changed, nullptr);
  OwnedImage diff = LoadPng(dir_ / ("rep/" + changed->image_diff));
  ASSERT_EQ(diff.view().width, 96);
  EXPECT_EQ(diff.view().Row(0)[0], 0);
  const uint8_t* in_square = diff.view().Row(30) + 50 * 3;
  EXPECT_GT(in_square[0] + in_square[1] + in_square[2], 0);
  // Heatmap: legend rows below the image; the max-error pixel is white (top of the ramp).
  OwnedImage heat = LoadPng(dir_ / ("rep/" + changed->image_heat));
  EXPECT_EQ(heat.view().width, 96);
  EXPECT_GT(heat.view().height, 64);
  const uint8_t* peak = heat.view().Row(changed->metrics.max_y) + changed->metrics.max_x * 3;
  EXPECT_EQ(peak[0], 255);
  EXPECT_EQ(peak[1], 255);
  EXPECT_EQ(peak[2], 255);
  const uint8_t* calm = heat.view().Row(5) + 5 * 3;
  EXPECT_EQ(calm[0] + calm[1] + calm[2], 0);
  const uint8_t* bar_right = heat.view().Row(64 + 2 * 1 + 2) + 95 * 3;  // the colour bar's bright end
  EXPECT_GT(bar_right[0], 200);
}

TEST(DiffReportImages, HeatmapRampAndDiffScaling) {
  ErrorMaps maps;
  maps.width = 4;
  maps.height = 1;
  maps.max_abs = {0.0f, 0.1f, 0.2f, 0.4f};
  OwnedImage h = MakeHeatmap(maps);
  const uint8_t* row = h.view().Row(0);
  EXPECT_EQ(row[0] + row[1] + row[2], 0);
  EXPECT_EQ(row[9], 255);  // the peak: white
  EXPECT_EQ(row[10], 255);
  EXPECT_EQ(row[11], 255);
  int lum1 = row[3] + row[4] + row[5], lum2 = row[6] + row[7] + row[8];
  EXPECT_GT(lum2, lum1);  // brighter with error
  EXPECT_THROW(MakeHeatmap(ErrorMaps{}), Error);

  OwnedImage a = Make8(2, 1, 3, [](int, int, int) { return 100; });
  OwnedImage b = Make8(2, 1, 3, [](int x, int, int c) { return x == 1 && c == 2 ? 110 : 100; });
  OwnedImage d = MakeDiffImage(a.view(), b.view(), false);
  EXPECT_EQ(d.view().Row(0)[5], 255);  // largest error scaled to full
  EXPECT_EQ(d.view().Row(0)[3], 0);
}

}  // namespace
}  // namespace xnt::diff
