// translate --check: linear-filtered texels of one-level 1D/2D textures compared within the host
// filter's bound (check_bounds.h) on lavapipe, validation on. Random real textures agree, and a
// planted fault is found exactly at the bound: a device value one float above the bound's top or
// below its bottom is reported at its lane with the bound named; one on the bound's edge is not.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "../test_env.h"
#include "checker_fixture.h"
#include "xnt/vk/translate_check.h"

namespace xnt::vk::test {
namespace {

using TranslateCheckBounds = CheckerFixture;

// A 2D and a 1D fetch whose instruction filters linearly: every lane magnifies (lone points), so
// the host weighs the footprint with its own subTexelPrecisionBits; r1 moves through max/min and
// a saturate, which keep the bound (monotone), r2 through an add, which does not.
constexpr const char* kShader = R"(xps_3_0
    exec
    tfetch2D r1, r0.xy, tf0, MagFilter=linear, MinFilter=linear, MipFilter=point, AnisoFilter=disabled
    tfetch1D r3, r0.z, tf1, MagFilter=linear, MinFilter=linear, MipFilter=point, AnisoFilter=disabled
    max r2, r1, r1
    min_sat r4, r3, c0
    add r5, r1, c1
    alloc colors
    exec
    mov oC0, r2
    mov oC1, r4
    exece
    mov oC2, r5
)";

TranslateCheckOptions BoundOptions(uint64_t seed) {
  TranslateCheckOptions options;
  options.lanes = 64;
  options.seed = seed;
  options.texture_unit = CpuTextureUnit;
  return options;
}

// The first seed (of 1..64) whose textures give bounded components (one-level, single-layer).
uint64_t SeedWithBounds(TranslateChecker& checker, const ucode::Shader& shader, uint64_t* bounded_total) {
  uint64_t found = 0;
  for (uint64_t seed = 1; seed <= 64; ++seed) {
    const TranslateCheckResult r = checker.Check(shader, BoundOptions(seed));
    EXPECT_TRUE(r.agree()) << "seed " << seed << "\n" << r.Text();
    *bounded_total += r.compared_bounded;
    if (!found && r.compared_bounded >= 64) found = seed;
  }
  return found;
}

TEST_F(TranslateCheckBounds, FilteredTexelsLieInTheirBoundAndAPushedOneIsFound) {
  const ucode::Shader shader = Assembled(kShader);
  uint64_t bounded = 0;
  const uint64_t seed = SeedWithBounds(*checker_, shader, &bounded);
  ASSERT_NE(seed, 0u) << "no seed gave a one-level 2D or 1D texture";
  EXPECT_GT(bounded, 1000u);
  // A value one float above the bound's top (or below its bottom) in the first component with a
  // finite bound from lane 37 on: reported at that lane and component, with the bound.
  for (const bool above : {true, false}) {
    TranslateCheckOptions options = BoundOptions(seed);
    uint32_t planted = ~0u;
    std::string what;
    options.alter_gpu = [&](uint32_t lane, uint32_t target, ucode::Float4& gpu, const ucode::Float4& low,
                            const ucode::Float4& high) {
      if (lane < 37 || planted != ~0u) return;
      for (uint32_t c = 0; c < 4 && planted == ~0u; ++c) {
        if (!std::isfinite(low[c]) || !std::isfinite(high[c])) continue;
        planted = lane;
        what = "oC" + std::to_string(target) + "." + "xyzw"[c];
        const float inf = std::numeric_limits<float>::infinity();
        gpu[c] = above ? std::nextafter(std::max(low[c], high[c]), inf) : std::nextafter(std::min(low[c], high[c]), -inf);
      }
    };
    const TranslateCheckResult r = checker_->Check(shader, options);
    ASSERT_NE(planted, ~0u);
    ASSERT_FALSE(r.agree());
    EXPECT_EQ(r.disagreement->lane, planted);
    EXPECT_EQ(r.disagreement->what, what);
    EXPECT_NE(r.disagreement->rule.find("within the host filter's bound"), std::string::npos) << r.disagreement->rule;
    EXPECT_NE(r.disagreement->slots.size(), 0u);
  }
  // On the bound's edges: inside, so no disagreement.
  TranslateCheckOptions options = BoundOptions(seed);
  options.alter_gpu = [](uint32_t, uint32_t, ucode::Float4& gpu, const ucode::Float4& low, const ucode::Float4& high) {
    for (uint32_t c = 0; c < 4; ++c) {
      if (std::isfinite(low[c]) && std::isfinite(high[c])) gpu[c] = c % 2 ? std::max(low[c], high[c]) : std::min(low[c], high[c]);
    }
  };
  const TranslateCheckResult edge = checker_->Check(shader, options);
  EXPECT_TRUE(edge.agree()) << edge.Text();
  EXPECT_GT(edge.compared_bounded, 0u);
}

}  // namespace
}  // namespace xnt::vk::test
