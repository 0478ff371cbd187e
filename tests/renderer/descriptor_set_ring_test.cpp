// DescriptorSetRing: a set per draw, written on the host with the draw's offsets, in place of one
// set bound with dynamic offsets. Within a submission no set is handed out twice (a command
// recorded earlier still reads the one it was given); a later submission gets the same sets
// again from the start, so a replay allocates as many as its busiest submission drew. On lavapipe
// with validation on: sets handed out again are written again without a message.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "test_env.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/descriptor_set_ring.h"

namespace xnt::vk {
namespace {

TEST(DescriptorSetRing, ASubmissionNeverGetsASetTwiceAndTheNextOneReusesThem) {
  auto ctx = test::MakeLavapipeContext();
  ASSERT_TRUE(ctx);
  const VkDevice device = ctx->device();
  const VkDescriptorSetLayoutBinding binding =
      LayoutBinding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_SHADER_STAGE_ALL_GRAPHICS);
  const VkDescriptorSetLayout layout = CreateSetLayout(device, &binding, 1, "test layout");
  {
    // What every set holds alike is written once per set made, not per draw.
    std::vector<VkDescriptorSet> created;
    DescriptorSetRing ring(device, layout, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}}, "test pool",
                           [&](VkDescriptorSet set) { created.push_back(set); });
    CommandStream stream(*ctx, 1 << 20);
    const auto ubo = stream.TryAllocate(256, 256);
    ASSERT_TRUE(ubo);

    // Past one pool's worth: every set distinct, each written with its own offset.
    const uint32_t first_count = DescriptorSetRing::kSetsPerPool + 44;
    std::vector<VkDescriptorSet> first;
    for (uint32_t i = 0; i < first_count; ++i) {
      const VkDescriptorSet set = ring.Next(7);
      ASSERT_NE(set, VK_NULL_HANDLE);
      first.push_back(set);
      const VkDescriptorBufferInfo info{ubo->buffer, ubo->offset, 16 + 16 * (i % 4)};
      const VkWriteDescriptorSet write =
          BufferWrite(set, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &info);
      vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
    }
    EXPECT_EQ(std::set<VkDescriptorSet>(first.begin(), first.end()).size(), first_count);
    EXPECT_EQ(ring.size(), first_count);
    EXPECT_EQ(created, first);

    // The next submission starts over with the same sets, and makes more only past them.
    for (uint32_t i = 0; i < first_count; ++i) EXPECT_EQ(ring.Next(8), first[i]) << i;
    const VkDescriptorSet extra = ring.Next(8);
    EXPECT_EQ(std::count(first.begin(), first.end(), extra), 0);
    EXPECT_EQ(ring.size(), first_count + 1);
    // A submission of fewer draws uses the first ones only.
    EXPECT_EQ(ring.Next(9), first[0]);
    EXPECT_EQ(ring.Next(9), first[1]);
    EXPECT_EQ(ring.size(), first_count + 1);
    ASSERT_EQ(created.size(), first_count + 1);
    EXPECT_EQ(created.back(), extra);
    EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
  }
  vkDestroyDescriptorSetLayout(device, layout, nullptr);
}

}  // namespace
}  // namespace xnt::vk
