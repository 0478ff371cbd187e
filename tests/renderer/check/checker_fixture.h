// A lavapipe context with validation and one TranslateChecker per test; every validation message
// fails the test at its end.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "../test_env.h"
#include "xnt/cpu/texture_callbacks.h"
#include "xnt/ucode/assembler.h"
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

// A listing assembled and decoded (its first line says vertex or pixel).
inline ucode::Shader Assembled(const std::string& text) {
  ucode::ShaderType type = ucode::ShaderType::kPixel;
  const std::vector<uint32_t> words = ucode::Assemble(text, &type);
  return ucode::Decode(words, type);
}

// What many checks of random shaders added up to; every disagreement is kept in `failure` (a long
// run reports them all, not the first).
struct CheckTotals {
  uint32_t checked = 0, pixel = 0, fsi = 0, memexport = 0;
  uint64_t exact = 0, tolerance = 0, bounded = 0, memory = 0, skipped = 0, helpers = 0;
  std::map<std::string, uint64_t> why;
  std::string failure;

  // One check of shader `index` (listing `text`): counted when it agrees, else its report kept.
  void Add(size_t index, const std::string& text, const TranslateCheckResult& r, bool with_fsi) {
    if (!r.agree()) {
      failure += "shader " + std::to_string(index) + ":\n" + text + r.Text() + "\n";
      return;
    }
    ++checked;
    pixel += r.pixel;
    fsi += with_fsi;
    memexport += r.memory_compared > 0;
    exact += r.compared_exact, tolerance += r.compared_tolerance, memory += r.memory_compared;
    bounded += r.compared_bounded;
    skipped += r.not_compared, helpers += r.helper_lanes;
    for (const auto& [reason, n] : r.not_compared_why) why[reason] += n;
  }
  void Merge(const CheckTotals& o) {
    checked += o.checked, pixel += o.pixel, fsi += o.fsi, memexport += o.memexport;
    exact += o.exact, tolerance += o.tolerance, memory += o.memory, skipped += o.skipped;
    bounded += o.bounded;
    helpers += o.helpers;
    for (const auto& [reason, n] : o.why) why[reason] += n;
    failure += o.failure;
  }
};

// Runs `check(i, checker, totals)` for i in [first, end) in two sessions (one lavapipe context
// each, on two threads: one per core), even and odd i apart, and adds up their totals; a
// validation message or an exception is a failure.
inline CheckTotals CheckInTwoSessions(size_t first, size_t end,
                                      const std::function<void(size_t, TranslateChecker&, CheckTotals&)>& check) {
  CheckTotals totals[2];
  auto session = [&](size_t start, CheckTotals& t) {
    try {
      std::unique_ptr<VulkanContext> context = MakeLavapipeContext();
      TranslateChecker checker(*context);
      for (size_t i = start; i < end; i += 2) check(i, checker, t);
      if (context->validation_message_count()) t.failure += ValidationReport(*context);
    } catch (const std::exception& e) {
      t.failure += e.what();
    }
  };
  std::thread second(session, first + 1, std::ref(totals[1]));
  session(first, totals[0]);
  second.join();
  totals[0].Merge(totals[1]);
  return totals[0];
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
