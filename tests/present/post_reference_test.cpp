// Our CPU chain against the reference outputs (tests/present/reference, README there).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "reference_cases.h"
#include "xnt/diff/png.h"

namespace xnt::present::test {
namespace {

TEST(PostReference, CpuChainWithinTwoLevels) {
  const std::string report = CheckAllCases([](const PostOptions& o, const FloatImage& input) {
    return MakeCpuPostProcessor(o, 2)->Run(input).image;
  });
  std::fputs(report.c_str(), stdout);
}

// XNT_POST_REFERENCE_DUMP=DIR writes our outputs there, to look at differences.
TEST(PostReference, DumpOnRequest) {
  const char* dump = std::getenv("XNT_POST_REFERENCE_DUMP");
  if (!dump) GTEST_SKIP() << "XNT_POST_REFERENCE_DUMP not set";
  for (const ReferenceCase& c : LoadReferenceCases()) {
    const gpu::SwapImage ours = MakeCpuPostProcessor(c.options, 2)->Run(LoadReferenceInput(c.input)).image;
    diff::SavePng(std::string(dump) + "/" + c.output,
                  diff::Rgba8View(int(ours.width), int(ours.height), ours.rgba.data()));
  }
}

}  // namespace
}  // namespace xnt::present::test
