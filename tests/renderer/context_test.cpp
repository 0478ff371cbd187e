// VulkanContext on lavapipe: device choice, capability record, validation message counting.
#include <gtest/gtest.h>

#include "test_env.h"
#include "xnt/base/error.h"

namespace xnt::vk {
namespace {

TEST(VulkanContext, CreatesLavapipeDeviceWithCapabilities) {
  auto ctx = test::MakeLavapipeContext();
  const Capabilities& caps = ctx->capabilities();
  EXPECT_NE(caps.device_name.find("llvmpipe"), std::string::npos) << caps.device_name;
  EXPECT_GE(caps.api_version, uint32_t(VK_API_VERSION_1_3));
  // lavapipe's storage buffer range is 128 MiB or more (it is why shared memory is split in 4).
  EXPECT_GE(caps.max_storage_buffer_range, uint64_t(128) << 20);
  EXPECT_TRUE(caps.depth_stencil_format == VK_FORMAT_D24_UNORM_S8_UINT ||
              caps.depth_stencil_format == VK_FORMAT_D32_SFLOAT_S8_UINT);
  EXPECT_TRUE(caps.geometry_shader);
  EXPECT_TRUE(ctx->validation_enabled());
  EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
}

TEST(VulkanContext, CountsValidationMessages) {
  auto ctx = test::MakeLavapipeContext();
  test::ExpectValidationMessages();  // on purpose: the global check lets this test pass
  // A buffer with size 0 is invalid usage (VUID-VkBufferCreateInfo-size-00912); the layer must
  // report it, which proves the counter is wired (tests elsewhere rely on it reading zero).
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 0;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult r = vkCreateBuffer(ctx->device(), &info, nullptr, &buffer);
  if (r == VK_SUCCESS && buffer) vkDestroyBuffer(ctx->device(), buffer, nullptr);
  EXPECT_GE(ctx->validation_message_count(), 1u);
  ASSERT_FALSE(ctx->validation_messages().empty());
  EXPECT_NE(ctx->validation_messages()[0].find("size"), std::string::npos);
  ctx->ResetValidationMessages();
  EXPECT_EQ(ctx->validation_message_count(), 0u);
}

TEST(VulkanContext, RejectsOutOfRangeDeviceIndex) {
  test::UseLavapipe();
  ContextOptions options;
  options.device_index = 99;
  EXPECT_THROW(VulkanContext{options}, Error);
}

TEST(VulkanContext, SubmitAndWaitRunsCommands) {
  auto ctx = test::MakeLavapipeContext();
  int recorded = 0;
  ctx->SubmitAndWait([&](VkCommandBuffer cmd) {
    EXPECT_NE(cmd, VK_NULL_HANDLE);
    ++recorded;
  });
  EXPECT_EQ(recorded, 1);
  EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
}

}  // namespace
}  // namespace xnt::vk
