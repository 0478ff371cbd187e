// compare --inspect through the CLI: fbo (lavapipe, validation on) against cpu with a draw the
// test hook makes fbo lose; the bisected draw links to the inspector page of that event on both
// combinations, and those sites hold images of that event only.
#include <gtest/gtest.h>

#include "site_test_util.h"
#include "test_env.h"

namespace xnt::inspect {
namespace {

TEST(CompareInspect, BisectedDrawLinksToBothCombinationsPages) {
  vk::test::UseLavapipe();
  const std::string trace = WriteSample("clear_draws_resolve_swap");
  const fs::path report = kWork / "compare";
  fs::remove_all(report);
  const auto r = ::xnt::test::RunShell(::xnt::test::XenotraceCli() + " compare " + trace +
                                       " --paths fbo,cpu --validate --test-fault-skip-draw "
                                       "fbo@1x1:0.2 --inspect -o " + report.string() + " 2>&1");
  EXPECT_EQ(r.code, 1) << r.out;  // differs
  const std::string html = ReadFileText(report / "report.html");
  const std::string site = "inspect/clear_draws_resolve_swap.xnt/";
  for (const std::string combo : {"fbo_1x1_f0_2", "cpu_1x1_f0_2"}) {
    EXPECT_NE(html.find("<a href=\"" + site + combo + "/index.html#0.2\">"), std::string::npos) << combo;
    for (const Json& e : SiteEvents(report / site / combo)) {
      if (e["kind"] == "swap") continue;
      EXPECT_EQ(e.contains("images"), e["id"] != "0.2") << combo << " " << e.dump();
    }
  }
  const Json fbo = ReadScript(report / site / "fbo_1x1_f0_2" / "data" / "events.js", "XNT.events");
  EXPECT_EQ(fbo["path"], "fbo");
  EXPECT_EQ(::xnt::test::RunShell(::xnt::test::XenotraceCli() + " compare " + trace +
                                  " --paths cpu --inspect 2>/dev/null").code, 2);
}

}  // namespace
}  // namespace xnt::inspect
