// The fixture of the tests that open the HTML diff report in headless Chromium: folders A and B
// in a temporary folder (the test fills them), the report of A against B written to rep/, and
// chromium run on it with its output kept per run tag. Skips when chromium is not installed.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "diff_test_util.h"
#include "headless_chromium.h"
#include "prerequisite.h"
#include "xnt/diff/driver.h"

namespace xnt::diff::test {

class ReportPageFixture : public ::testing::Test {
 protected:
  explicit ReportPageFixture(const std::string& tag) : dir_(tag) {}

  void SetUp() override {
    if (!::xnt::test::ChromiumInstalled()) XNT_MISSING_PREREQUISITE() << "chromium not installed";
    std::filesystem::create_directories(dir_ / "A");
    std::filesystem::create_directories(dir_ / "B");
  }

  // Writes the report of A against B; url_ is its page.
  void WriteReport() {
    DiffOptions o;
    o.report_dir = dir_ / "rep";
    WriteReportDir(DiffPaths(dir_ / "A", dir_ / "B", o), o.report_dir);
    url_ = "file://" + (dir_ / "rep/report.html");
  }

  // chromium on `args`; stdout and stderr in TAG.out and TAG.err. Returns its exit status.
  int Chromium(const std::string& args, const std::string& tag) {
    return ::xnt::test::RunChromium(dir_ / ("profile_" + tag), args, dir_ / (tag + ".out"),
                                    dir_ / (tag + ".err"));
  }

  TempDir dir_;
  std::string url_;
};

}  // namespace xnt::diff::test
