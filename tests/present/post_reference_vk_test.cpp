// Our Vulkan chain (lavapipe, validation on) against the reference outputs
// (tests/present/reference, README there).
#include <gtest/gtest.h>

#include <cstdio>

#include "reference_cases.h"
#include "test_env.h"
#include "xnt/vk/present/post_vk.h"

namespace xnt::present::test {
namespace {

TEST(PostReferenceVk, VulkanChainWithinTwoLevels) {
  auto context = xnt::vk::test::MakeLavapipeContext();
  ASSERT_TRUE(context);
  // One processor for all 108 cases: each pass kind is compiled once (lavapipe's compile under
  // the sanitizers was most of this test's time), and every case after the first also checks that
  // a processor switched to other options and sizes gives what a fresh one would.
  const auto post = xnt::vk::MakeVulkanPostProcessor(*context, PostOptions{});
  const std::string report = CheckAllCases([&](const PostOptions& o, const FloatImage& input) {
    post->set_options(o);
    return post->Run(input).image;
  });
  std::fputs(report.c_str(), stdout);
  EXPECT_EQ(context->validation_message_count(), 0u) << xnt::vk::test::ValidationReport(*context);
}

}  // namespace
}  // namespace xnt::present::test
