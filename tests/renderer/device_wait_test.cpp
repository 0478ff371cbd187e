// The device watchdog (VulkanContext::WaitForFence): a submission the device never finishes
// fails within the GPU timeout with a message naming the path and the event in flight, and the
// context refuses further work instead of waiting again. The hang is made on lavapipe with a
// vkCmdWaitEvents on an event the host sets only after the timeout (the queue waits for it as a
// stuck GPU would). Set afterwards, the device was only slow: it is idled and everything is
// destroyed as usual (the validation layer would name a leaked object); never set, the objects
// of the pending work are left alone.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "test_env.h"
#include "xnt/vk/command_stream.h"

namespace xnt::vk {
namespace {

TEST(DeviceWait, UnfinishedSubmissionTimesOutNamingTheEvent) {
  ContextOptions options;
  options.gpu_timeout_ms = 300;
  auto ctx = test::MakeLavapipeContext(options);
  ASSERT_TRUE(ctx);
  VkEventCreateInfo event_info{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkEvent event = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateEvent(ctx->device(), &event_info, nullptr, &event), VK_SUCCESS);
  {
    CommandStream stream(*ctx, 1 << 16);
    ctx->SetEventInFlight("fbo", "draw", 0, 42);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdWaitEvents(stream.cmd(), 1, &event, VK_PIPELINE_STAGE_HOST_BIT,
                    VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &barrier, 0, nullptr, 0, nullptr);
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    try {
      stream.Flush();
    } catch (const DeviceTimeout& e) {
      message = e.what();
    }
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_NE(message.find("fbo: the Vulkan device"), std::string::npos) << message;
    EXPECT_NE(message.find("did not finish draw 0.42 within 0.3 s"), std::string::npos) << message;
    EXPECT_NE(message.find("--gpu-timeout"), std::string::npos) << message;
    EXPECT_GE(waited, 0.25);
    EXPECT_LT(waited, 30.0);  // bounded: the event is never set before the throw
    EXPECT_TRUE(ctx->hung());
    // Every later submission or wait says the same instead of touching the pending work.
    ctx->SetEventInFlight("fbo", "resolve", 1, 3);
    EXPECT_THROW(stream.cmd(), DeviceTimeout);
    try {
      ctx->SubmitAndWait([](VkCommandBuffer) {});
      ADD_FAILURE() << "SubmitAndWait on a hung device returned";
    } catch (const DeviceTimeout& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
    // The device was only slow: once it finishes, the destructors idle it and destroy as usual.
    ASSERT_EQ(vkSetEvent(ctx->device(), event), VK_SUCCESS);
    EXPECT_TRUE(ctx->WaitIdle());
  }
  vkDestroyEvent(ctx->device(), event, nullptr);
}

TEST(DeviceWait, SwapAndSetUpWorkAreNamed) {
  ContextOptions options;
  options.gpu_timeout_ms = 200;
  for (const bool swap : {false, true}) {
    auto ctx = test::MakeLavapipeContext(options);
    ASSERT_TRUE(ctx);
    VkEventCreateInfo event_info{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    VkEvent event = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateEvent(ctx->device(), &event_info, nullptr, &event), VK_SUCCESS);
    if (swap) ctx->SetEventInFlight("fsi", "swap of frame", 7, VulkanContext::kNoEventIndex);
    std::string message;
    try {
      ctx->SubmitAndWait([&](VkCommandBuffer cmd) {
        vkCmdWaitEvents(cmd, 1, &event, VK_PIPELINE_STAGE_HOST_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0, nullptr, 0, nullptr);
      });
    } catch (const DeviceTimeout& e) {
      message = e.what();
    }
    const std::string expected = swap ? "fsi: the Vulkan device (" : "vulkan: the Vulkan device (";
    EXPECT_EQ(message.rfind(expected, 0), 0u) << message;
    EXPECT_NE(message.find(swap ? "did not finish the swap of frame 7 within 0.2 s"
                                : "did not finish set-up work (before the first event)"),
              std::string::npos)
        << message;
    if (swap) {
      // Still hung when the destructors come: one more bounded wait, then nothing is idled or
      // destroyed under the pending work (the context leaves its device to the process's end).
      const auto start = std::chrono::steady_clock::now();
      EXPECT_FALSE(ctx->WaitIdle());
      EXPECT_FALSE(ctx->WaitIdle());  // at once now
      EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                30.0);
      ASSERT_EQ(vkSetEvent(ctx->device(), event), VK_SUCCESS);
      vkDeviceWaitIdle(ctx->device());  // the test's own clean-up of lavapipe's queue
    } else {
      ASSERT_EQ(vkSetEvent(ctx->device(), event), VK_SUCCESS);
      EXPECT_TRUE(ctx->WaitIdle());
    }
    vkDestroyEvent(ctx->device(), event, nullptr);
  }
}

}  // namespace
}  // namespace xnt::vk
