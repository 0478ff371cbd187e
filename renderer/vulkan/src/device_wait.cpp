// The watchdog over the device's work (VulkanContext::WaitForFence and friends, vulkan_context.h).
// A fence the device never signals (a GPU hang, a shader that never ends, a driver deadlock
// behind the queue) used to block the replay forever: compare in CI then hung until its job was
// killed, with nothing said about where. Every wait is bounded; the first one that times out
// marks the context hung, names the event whose work was in flight, and every later wait and
// submission throws the same message instead of touching the pending work again.
#include <cinttypes>
#include <cstdio>
#include <string>

#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

namespace {

std::string Seconds(uint32_t ms) {
  char text[32];
  if (ms % 1000 == 0) {
    std::snprintf(text, sizeof(text), "%u s", ms / 1000);
  } else {
    std::snprintf(text, sizeof(text), "%.3g s", double(ms) / 1000.0);
  }
  return text;
}

}  // namespace

void VulkanContext::WaitForFence(VkFence fence, const char* what) {
  ThrowIfHung();
  const uint64_t timeout_ns =
      gpu_timeout_ms_ == 0 ? UINT64_MAX : uint64_t(gpu_timeout_ms_) * 1000000ull;
  const VkResult r = vkWaitForFences(device_, 1, &fence, VK_TRUE, timeout_ns);
  if (r == VK_SUCCESS) return;
  hung_fence_ = fence;
  char event[64] = "set-up work (before the first event)";
  if (event_kind_ && event_index_ == kNoEventIndex) {
    std::snprintf(event, sizeof(event), "the %s %" PRIu64, event_kind_, event_frame_);
  } else if (event_kind_) {
    std::snprintf(event, sizeof(event), "%s %" PRIu64 ".%u", event_kind_, event_frame_,
                  event_index_);
  }
  const std::string where = std::string(event_path_) + ": the Vulkan device (" +
                            caps_.device_name + ")";
  if (r == VK_TIMEOUT) {
    hang_message_ = where + " did not finish " + event + " within " + Seconds(gpu_timeout_ms_) +
                    " (" + what +
                    "): the GPU or its driver is hung, or the work is far slower than expected; "
                    "--gpu-timeout SECONDS sets the limit (0: none)";
  } else {
    hang_message_ = where + " stopped during " + event + " (" + what +
                    "): vkWaitForFences returned " + std::to_string(int(r)) +
                    (r == VK_ERROR_DEVICE_LOST ? " (VK_ERROR_DEVICE_LOST)" : "");
  }
  throw DeviceTimeout(hang_message_);
}

void VulkanContext::ThrowIfHung() const {
  if (!hang_message_.empty()) throw DeviceTimeout(hang_message_);
}

bool VulkanContext::WaitIdle() {
  if (!device_) return true;
  if (!hang_message_.empty() && !hang_settled_) {
    hang_settled_ = true;
    const uint64_t timeout_ns =
        gpu_timeout_ms_ == 0 ? UINT64_MAX : uint64_t(gpu_timeout_ms_) * 1000000ull;
    drained_ = vkWaitForFences(device_, 1, &hung_fence_, VK_TRUE, timeout_ns) == VK_SUCCESS;
  }
  if (!hang_message_.empty() && !drained_) return false;
  vkDeviceWaitIdle(device_);
  return true;
}

}  // namespace xnt::vk
