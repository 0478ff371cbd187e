#include "test_env.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace xnt::vk::test {

std::string LavapipeIcd() {
  for (const char* p : {"/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
                        "/usr/share/vulkan/icd.d/lvp_icd.json",
                        "/usr/local/share/vulkan/icd.d/lvp_icd.x86_64.json"}) {
    if (std::filesystem::exists(p)) return p;
  }
  return {};
}

// XNT_TEST_SYSTEM_DRIVER=1 keeps the machine's own Vulkan driver (used to run the renderer suites
// on the GPU machine); by default tests pin lavapipe so results are the same everywhere.
bool UseSystemDriver() {
  const char* v = std::getenv("XNT_TEST_SYSTEM_DRIVER");
  return v && *v && std::string(v) != "0";
}

void UseLavapipe() {
  static bool done = [] {
    if (UseSystemDriver()) return true;
    std::string icd = LavapipeIcd();
    if (!icd.empty()) {
      setenv("VK_DRIVER_FILES", icd.c_str(), 1);
      setenv("VK_ICD_FILENAMES", icd.c_str(), 1);
    }
    return true;
  }();
  (void)done;
}

std::unique_ptr<VulkanContext> MakeLavapipeContext() {
  UseLavapipe();
  if (!UseSystemDriver()) {
    EXPECT_FALSE(LavapipeIcd().empty()) << "Mesa lavapipe (mesa-vulkan-drivers) is not installed";
  }
  ContextOptions options;
  options.validate = true;
  // XNT_VK_PRINT_VALIDATION=1 echoes each message as it arrives (debugging a failing test).
  const char* print = std::getenv("XNT_VK_PRINT_VALIDATION");
  options.print_validation = print && *print && std::string(print) != "0";
  return std::make_unique<VulkanContext>(options);
}

std::string ValidationReport(const VulkanContext& context) {
  std::string out = std::to_string(context.validation_message_count()) + " validation message(s)";
  for (const auto& m : context.validation_messages()) out += "\n  " + m;
  return out;
}

}  // namespace xnt::vk::test
