// One way for a test to react to a missing prerequisite (../shared, Chromium, the CLI binary):
//
//   if (!std::filesystem::exists(dir)) XNT_MISSING_PREREQUISITE() << dir << " is not present";
//
// On a developer's machine the test is skipped (GTEST_SKIP). In CI (the environment variable CI
// set to anything but "", "0" or "false"; .ci/run sets CI=true) it is a fatal failure instead, so
// a CI machine that lost ../shared or Chromium cannot pass by skipping. Like GTEST_SKIP it
// returns from the current function, so use it in a test body or a void helper / SetUp.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace xnt::test {

inline bool InCi() {
  const char* v = std::getenv("CI");
  if (!v || !*v) return false;
  const std::string s(v);
  return s != "0" && s != "false" && s != "FALSE" && s != "False";
}

}  // namespace xnt::test

#define XNT_MISSING_PREREQUISITE()                                                               \
  return ::testing::internal::AssertHelper(                                                      \
             ::xnt::test::InCi() ? ::testing::TestPartResult::kFatalFailure                      \
                                 : ::testing::TestPartResult::kSkip,                             \
             __FILE__, __LINE__,                                                                 \
             ::xnt::test::InCi() ? "missing prerequisite; CI is set, so this is a failure, not " \
                                   "a skip"                                                      \
                                 : "Skipped: missing prerequisite") = ::testing::Message()
