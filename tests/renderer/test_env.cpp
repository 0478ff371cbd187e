#include "test_env.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "xnt/vk/translator/spirv_cache.h"

namespace xnt::vk::test {

namespace {

// Every message any context reported since the last test started (SetValidationObserver).
std::mutex g_mutex;
std::vector<std::string> g_messages;
uint64_t g_message_count = 0;
bool g_expected = false;

void Observe(const char* message) {
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_message_count;
  if (g_messages.size() < 32) g_messages.emplace_back(message);
}

// Takes what arrived so far; empty when nothing did.
std::string TakeReport() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::string out;
  if (g_message_count == 0) return out;
  out = std::to_string(g_message_count) + " validation message(s)";
  for (const auto& m : g_messages) out += "\n  " + m;
  g_messages.clear();
  g_message_count = 0;
  return out;
}

// The SPIR-V cache folder every test process of this build tree shares. Each process would
// otherwise run glslang and the SPIR-V optimiser over the same translated and host shaders again
// (under the sanitizers' allocator that was half or more of a short replay test's CPU time:
// FsiMatchesCpu of clear_draws_resolve_swap 2.8 -> 1.3 s user+sys, of edram_depth_prepass_kdepth
// 6.8 -> 2.2 s, in the ASan/UBSan build). A text compiles once per build
// tree, in the first test that emits it; later tests get the same words, checked by the entry's
// hash (spirv_cache.h). Compile errors are never stored, so a test expecting one still gets it.
// XNT_TEST_SPIRV_CACHE=0 compiles every shader in every test again.
void UseBuildTreeSpirvCache() {
  const char* v = std::getenv("XNT_TEST_SPIRV_CACHE");
  if (v && std::string(v) == "0") return;
  SetSpirvCacheDirectory((std::filesystem::path(XNT_BINARY_DIR) / "tests" / "spirv-cache").string());
}

class ValidationListener : public ::testing::EmptyTestEventListener {
  // Here rather than in the static initialiser below: the cache's own globals live in another
  // translation unit, initialised in an order the language leaves open.
  void OnTestProgramStart(const ::testing::UnitTest&) override { UseBuildTreeSpirvCache(); }
  void OnTestStart(const ::testing::TestInfo&) override {
    // Messages from a suite's set-up (a shared context made in SetUpTestSuite) land here.
    const std::string before = TakeReport();
    g_expected = false;
    if (!before.empty()) {
      ADD_FAILURE() << "the Vulkan validation layer reported before this test started (suite "
                       "set-up or a previous suite's tear-down):\n"
                    << before;
    }
  }
  // End events reach listeners in reverse order, so this runs before the result printer and the
  // failure is part of the test's result.
  void OnTestEnd(const ::testing::TestInfo&) override {
    const std::string report = TakeReport();
    if (!report.empty() && !g_expected) {
      ADD_FAILURE() << "the Vulkan validation layer reported during this test (global check, "
                       "tests/renderer/test_env.cpp):\n"
                    << report;
    }
  }
  void OnTestProgramEnd(const ::testing::UnitTest&) override {
    const std::string report = TakeReport();
    if (!report.empty()) {
      ADD_FAILURE() << "the Vulkan validation layer reported after the last test (tear-down):\n"
                    << report;
    }
  }
};

// Installed once per test binary that links test_env.cpp, before main() runs.
[[maybe_unused]] const bool g_installed = [] {
  SetValidationObserver(&Observe);
  ::testing::UnitTest::GetInstance()->listeners().Append(new ValidationListener);
  return true;
}();

}  // namespace

void ExpectValidationMessages() { g_expected = true; }


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

std::unique_ptr<VulkanContext> MakeLavapipeContext(const ContextOptions& base) {
  UseLavapipe();
  if (!UseSystemDriver()) {
    EXPECT_FALSE(LavapipeIcd().empty()) << "Mesa lavapipe (mesa-vulkan-drivers) is not installed";
  }
  ContextOptions options = base;
  options.validate = true;
  options.synchronization_validation = true;
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
