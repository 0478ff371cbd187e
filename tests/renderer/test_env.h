// Shared set-up for renderer tests: pin the Vulkan loader to Mesa lavapipe (deterministic, the
// CI device) and create contexts with the validation layer on, synchronization validation
// included. Linking test_env.cpp also installs one global check: a GoogleTest listener that fails
// every test during which any Vulkan context of the process reported a validation message (so a
// test that forgets to check its own count still fails).
#pragma once

#include <memory>
#include <string>

#include "xnt/vk/vulkan_context.h"

namespace xnt::vk::test {

// Path of lavapipe's ICD json; empty when not installed.
std::string LavapipeIcd();
// Points VK_DRIVER_FILES / VK_ICD_FILENAMES at lavapipe (once per process).
void UseLavapipe();
// A validating lavapipe context; fails the calling test (gtest ASSERT) when impossible. `base`
// gives the options validation does not decide (the GPU timeout).
std::unique_ptr<VulkanContext> MakeLavapipeContext(const ContextOptions& base = {});
// The calling test provokes validation messages on purpose: the global check lets it pass.
void ExpectValidationMessages();
// Formats the messages counted so far, for a test failure message.
std::string ValidationReport(const VulkanContext& context);

}  // namespace xnt::vk::test
