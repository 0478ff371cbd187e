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
  const std::string report = CheckAllCases([&](const PostOptions& o, const FloatImage& input) {
    return xnt::vk::MakeVulkanPostProcessor(*context, o)->Run(input).image;
  });
  std::fputs(report.c_str(), stdout);
  EXPECT_EQ(context->validation_message_count(), 0u) << xnt::vk::test::ValidationReport(*context);
}

}  // namespace
}  // namespace xnt::present::test
