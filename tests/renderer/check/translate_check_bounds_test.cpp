// translate --check: linear-filtered texels of one-level 1D/2D textures compared within the host
// filter's bound (check_bounds.h) on lavapipe, validation on. Random real textures agree, and a
// planted fault is found exactly at the bound: a device value one float above the bound's top or
// below its bottom is reported at its lane with the bound named; one on the bound's edge is not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "../test_env.h"
#include "check_bounds.h"
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

// The texel a seamless cube filter reads past a face's edge, worked by hand at 4x4 texels:
// +X's texel (-1, 1) has sc = 2 * -0.5 / 4 - 1 = -1.25, tc = -0.25, the direction (1, 0.25,
// 1.25), +Z major: sc' = x / 1.25 = 0.8, tc' = -y / 1.25 = -0.2, texel (floor(0.9 * 4),
// floor(0.4 * 4)) = (3, 1) of +Z: the left edge of +X meets the right edge of +Z. Below -Y's
// bottom row: (1, 4) of -Y has tc = 1.25, the direction (-0.25, -1, -1.25), -Z major: sc' =
// -x / 1.25 = 0.2, tc' = -y / 1.25 = 0.8, texel (2, 3) of -Z. Inside a face, the texel itself;
// and every texel just past an edge lands on another face's edge row or column, whose own
// texel just past the shared edge comes back to the first face.
TEST(CubeTexelAcrossEdge, FaceTableByHandAndEveryEdgeRoundTrips) {
  using check::CubeTexelAcrossEdge;
  const auto same = [](check::FaceTexel a, check::FaceTexel b) {
    return a.face == b.face && a.i == b.i && a.j == b.j;
  };
  EXPECT_TRUE(same(CubeTexelAcrossEdge(0, -1, 1, 4), {4, 3, 1}));
  EXPECT_TRUE(same(CubeTexelAcrossEdge(3, 1, 4, 4), {5, 2, 3}));
  EXPECT_TRUE(same(CubeTexelAcrossEdge(2, 3, 0, 4), {2, 3, 0}));
  const int64_t n = 8;
  for (int32_t face = 0; face < 6; ++face) {
    for (int64_t k = 0; k < n; ++k) {
      const std::pair<int64_t, int64_t> past[4] = {{-1, k}, {n, k}, {k, -1}, {k, n}};
      for (const auto& [i, j] : past) {
        const check::FaceTexel t = CubeTexelAcrossEdge(face, i, j, n);
        EXPECT_NE(t.face, face) << face << " " << i << "," << j;
        EXPECT_TRUE(t.i == 0 || t.i == n - 1 || t.j == 0 || t.j == n - 1) << face << " " << i << "," << j;
        // Back across: step from t one texel further out of its face, towards the first face.
        const check::FaceTexel back[4] = {CubeTexelAcrossEdge(t.face, t.i - 1, t.j, n),
                                          CubeTexelAcrossEdge(t.face, t.i + 1, t.j, n),
                                          CubeTexelAcrossEdge(t.face, t.i, t.j - 1, n),
                                          CubeTexelAcrossEdge(t.face, t.i, t.j + 1, n)};
        const check::FaceTexel inside{face, std::clamp<int64_t>(i, 0, n - 1), std::clamp<int64_t>(j, 0, n - 1)};
        EXPECT_TRUE(std::any_of(std::begin(back), std::end(back), [&](const auto& b) { return same(b, inside); }))
            << face << " " << i << "," << j << " -> " << t.face << " " << t.i << "," << t.j;
      }
    }
  }
}

}  // namespace
}  // namespace xnt::vk::test
