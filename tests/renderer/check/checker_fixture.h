// A lavapipe context with validation and one TranslateChecker per test; every validation message
// fails the test at its end.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "../test_env.h"
#include "xnt/cpu/texture_callbacks.h"
#include "xnt/vk/translate_check.h"

namespace xnt::vk::test {

// TranslateCheckOptions::texture_unit: real textures, sampled on the cpu side by the cpu path's
// texture unit.
inline std::shared_ptr<void> CpuTextureUnit(std::span<const uint32_t> fetch_constants, uint32_t address,
                                            std::span<const uint8_t> bytes, ucode::InterpreterCallbacks& cb) {
  auto unit = std::make_shared<cpu::TextureCallbacks>(fetch_constants, address, bytes);
  unit->Bind(cb);
  return unit;
}

// A count from the environment (a long run by hand), else `fallback`.
inline uint32_t EnvOr(const char* name, uint32_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? uint32_t(std::strtoul(v, nullptr, 10)) : fallback;
}

class CheckerFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = MakeLavapipeContext();
    ASSERT_TRUE(context_->validation_enabled());
    checker_ = std::make_unique<TranslateChecker>(*context_);
  }
  void TearDown() override {
    checker_.reset();
    if (context_) {
      EXPECT_EQ(context_->validation_message_count(), 0u) << ValidationReport(*context_);
    }
  }
  std::unique_ptr<VulkanContext> context_;
  std::unique_ptr<TranslateChecker> checker_;
};

}  // namespace xnt::vk::test
