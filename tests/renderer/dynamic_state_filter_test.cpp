// DynamicStateFilter: a dynamic state is recorded again only when its value changed within the
// same render pass instance and pipeline; a new instance or pipeline forgets everything, so the
// first draw after one records every state.
#include <gtest/gtest.h>

#include <array>

#include "xnt/vk/dynamic_state_filter.h"

namespace xnt::vk {
namespace {

VkPipeline FakePipeline(uintptr_t n) { return reinterpret_cast<VkPipeline>(n); }

TEST(DynamicStateFilter, RecordsOnlyChangesWithinOneInstanceAndPipeline) {
  DynamicStateFilter f;
  const VkViewport vp{0.0f, 0.0f, 320.0f, 240.0f, 0.0f, 1.0f};
  // First draw: bind and record.
  EXPECT_TRUE(f.BindPipeline(1, FakePipeline(7)));
  EXPECT_TRUE(f.Changed(DynamicStateFilter::kViewport, vp));
  EXPECT_TRUE(f.Changed(DynamicStateFilter::kLineWidth, 1.0f));
  // Same instance, pipeline and values: nothing recorded.
  EXPECT_FALSE(f.BindPipeline(1, FakePipeline(7)));
  EXPECT_FALSE(f.Changed(DynamicStateFilter::kViewport, vp));
  EXPECT_FALSE(f.Changed(DynamicStateFilter::kLineWidth, 1.0f));
  // One field of a state differs: that state only.
  VkViewport deeper = vp;
  deeper.maxDepth = 0.5f;
  EXPECT_TRUE(f.Changed(DynamicStateFilter::kViewport, deeper));
  EXPECT_FALSE(f.Changed(DynamicStateFilter::kLineWidth, 1.0f));
  EXPECT_FALSE(f.Changed(DynamicStateFilter::kViewport, deeper));
  // Slots are separate: the same bytes in another state are still recorded once.
  EXPECT_TRUE(f.Changed(DynamicStateFilter::kDepthBias, std::array<float, 3>{0.0f, 0.0f, 0.0f}));
  EXPECT_TRUE(f.Changed(DynamicStateFilter::kBlendConstants,
                        std::array<float, 4>{0.0f, 0.0f, 0.0f, 0.0f}));
}

TEST(DynamicStateFilter, NewInstanceOrPipelineForgetsEveryState) {
  DynamicStateFilter f;
  const VkRect2D scissor{{0, 0}, {64, 64}};
  EXPECT_TRUE(f.BindPipeline(1, FakePipeline(7)));
  EXPECT_TRUE(f.Changed(DynamicStateFilter::kScissor, scissor));
  // Another render pass instance (a new command buffer, or rendering ended for a copy).
  EXPECT_TRUE(f.BindPipeline(2, FakePipeline(7)));
  EXPECT_TRUE(f.Changed(DynamicStateFilter::kScissor, scissor));
  // Another pipeline in the same instance.
  EXPECT_TRUE(f.BindPipeline(2, FakePipeline(8)));
  EXPECT_TRUE(f.Changed(DynamicStateFilter::kScissor, scissor));
  EXPECT_FALSE(f.Changed(DynamicStateFilter::kScissor, scissor));
  // A null pipeline is never taken as bound.
  EXPECT_TRUE(f.BindPipeline(3, VK_NULL_HANDLE));
  EXPECT_TRUE(f.BindPipeline(3, VK_NULL_HANDLE));
}

}  // namespace
}  // namespace xnt::vk
