// Shared set-up for renderer tests: pin the Vulkan loader to Mesa lavapipe (deterministic, the
// CI device) and create contexts with the validation layer on.
#pragma once

#include <memory>
#include <string>

#include "xnt/vk/vulkan_context.h"

namespace xnt::vk::test {

// Path of lavapipe's ICD json; empty when not installed.
std::string LavapipeIcd();
// Points VK_DRIVER_FILES / VK_ICD_FILENAMES at lavapipe (once per process).
void UseLavapipe();
// A validating lavapipe context; fails the calling test (gtest ASSERT) when impossible.
std::unique_ptr<VulkanContext> MakeLavapipeContext();
// Formats the messages counted so far, for a test failure message.
std::string ValidationReport(const VulkanContext& context);

}  // namespace xnt::vk::test
