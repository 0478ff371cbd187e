// translate --check over 2x2 pixel quads (TranslateCheckOptions::quads) on lavapipe, validation
// on: getGradients bit for bit against the quad's differences worked by hand, getCompTexLOD
// within its tolerance, implicit-LOD fetches of mipmapped textures compared on the lanes that
// magnify on both sides, helper pixels feeding partly covered quads; a planted LOD error in one
// lane is reported at that lane; and random derivative shaders (random_derivative_shader.h) on the
// fbo and fsi translations agree (1,000 with XNT_CHECK_QUAD_SHADERS=1000).
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cstdio>
#include <random>

#include "../test_env.h"
#include "checker_fixture.h"
#include "random_derivative_shader.h"
#include "xnt/vk/translate_check.h"

namespace xnt::vk::test {
namespace {

using TranslateCheckQuads = CheckerFixture;

// `lanes` pixels in quads, random real textures sampled by the cpu path's texture unit.
TranslateCheckOptions QuadOptions(uint32_t lanes) {
  TranslateCheckOptions options;
  options.lanes = lanes;
  options.quads = true;
  options.texture_unit = CpuTextureUnit;
  return options;
}

// getGradients of r0.xy is (d/dx x, d/dy x, d/dx y, d/dy y), coarse: the quad's top pair for x,
// its left pair for y. Worked from the exported interpolants of every fully covered quad (a
// helper's interpolants are not exported); partly covered quads are compared by the check alone.
TEST_F(TranslateCheckQuads, GradientsAreTheQuadsDifferences) {
  const ucode::Shader shader = Assembled(R"(xps_3_0
    exec
    getGradients r4, r0.xy, tf0
    getCompTexLOD2D r5, r0.xy, tf0
    alloc colors
    exec
    mov oC0, r4
    mov oC1, r0
    exece
    mov oC2, r5
)");
  TranslateCheckOptions options;
  options.lanes = 256;
  options.quads = true;
  options.seed = 7;
  std::vector<ucode::ShaderResult> lanes(options.lanes);
  options.alter_cpu = [&](uint32_t lane, ucode::ShaderResult& r) { lanes[lane] = r; };
  const TranslateCheckResult r = checker_->Check(shader, options);
  ASSERT_TRUE(r.agree()) << r.Text();
  EXPECT_TRUE(r.quads);
  EXPECT_GT(r.helper_lanes, 10u);
  const uint32_t covered = options.lanes - r.helper_lanes;
  // oC0 and oC1 bit for bit, oC2 (getCompTexLOD's register) within its tolerance.
  EXPECT_EQ(r.compared_exact, uint64_t(covered) * 8);
  EXPECT_EQ(r.compared_tolerance, uint64_t(covered) * 4);
  EXPECT_EQ(r.not_compared, 0u);
  uint32_t worked = 0, nonzero = 0;
  for (uint32_t q = 0; q < options.lanes; q += 4) {
    bool full = true;
    for (uint32_t i = 0; i < 4; ++i) full &= lanes[q + i].color_mask != 0;
    if (!full) continue;
    const auto& v = [&](uint32_t i, uint32_t c) { return lanes[q + i].colors[1][c]; };
    const float want[4] = {v(1, 0) - v(0, 0), v(2, 0) - v(0, 0), v(1, 1) - v(0, 1), v(2, 1) - v(0, 1)};
    for (uint32_t i = 0; i < 4; ++i) {
      for (uint32_t c = 0; c < 4; ++c) {
        EXPECT_EQ(std::bit_cast<uint32_t>(lanes[q + i].colors[0][c]), std::bit_cast<uint32_t>(want[c]))
            << "lane " << q + i << " component " << c;
      }
    }
    // The 1x1 view: the LOD is log2 of the longer derivative (in texels of a 1-texel texture).
    const float lod = std::log2(std::max(std::sqrt(want[0] * want[0] + want[2] * want[2]),
                                         std::sqrt(want[1] * want[1] + want[3] * want[3])));
    EXPECT_EQ(lanes[q].colors[2][0], lod) << "quad " << q / 4;
    ++worked;
    nonzero += want[0] != 0.0f || want[1] != 0.0f;
  }
  EXPECT_GT(worked, 30u);
  EXPECT_GT(nonzero, worked / 2);  // most planes vary across the quad
}

// A planted LOD error in one lane: getCompTexLOD 2^-12 off in lane 37 (beyond the 2^-18
// tolerance), and in another check the texel of a magnified mipmapped fetch changed in one lane.
TEST_F(TranslateCheckQuads, PlantedLodErrorIsFound) {
  const ucode::Shader shader = Assembled(R"(xps_3_0
    exec
    getCompTexLOD2D r5, r0.xy, tf0
    alloc colors
    exece
    mov oC0, r5
)");
  TranslateCheckOptions options = QuadOptions(64);
  uint32_t planted = 0;
  options.alter_cpu = [&](uint32_t lane, ucode::ShaderResult& r) {
    if (lane != 37 || r.color_mask == 0) return;
    r.colors[0][0] += std::ldexp(1.0f, -12);
    planted = 1;
  };
  const TranslateCheckResult off = checker_->Check(shader, options);
  ASSERT_EQ(planted, 1u) << "lane 37 is a helper with this seed";
  ASSERT_FALSE(off.agree());
  EXPECT_EQ(off.disagreement->lane, 37u);
  EXPECT_EQ(off.disagreement->what, "oC0.x");
  EXPECT_EQ(off.disagreement->rule, "getCompTexLOD within 4 ulp or 2^-18 absolute");
  options.alter_cpu = {};
  const TranslateCheckResult on = checker_->Check(shader, options);
  EXPECT_TRUE(on.agree()) << on.Text();
  EXPECT_GT(on.compared_tolerance, 40u);
}

// Implicit-LOD point fetches of mipmapped 2D textures over seeds: lanes whose lambda is clearly
// below 0 compare bit for bit (the translated shader picks the texel as the texture unit does);
// the others are compared within the host filter's bound over the LOD range (check_bounds.h).
TEST_F(TranslateCheckQuads, MagnifiedLanesOfMipmappedTexturesCompare) {
  const ucode::Shader shader = Assembled(R"(xps_3_0
    exec
    mul r4, r0, c0
    tfetch2D r6, r0.xy, tf0, MagFilter=point, MinFilter=point, MipFilter=point, AnisoFilter=disabled
    tfetch2D r7, r4.zw, tf1, MagFilter=point, MinFilter=linear, MipFilter=linear, AnisoFilter=disabled
    alloc colors
    exec
    mov oC0, r6
    exece
    mov oC1, r7
)");
  TranslateCheckOptions options = QuadOptions(512);
  uint64_t exact = 0, lod_lanes = 0, bounded = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    options.seed = seed;
    const TranslateCheckResult r = checker_->Check(shader, options);
    ASSERT_TRUE(r.agree()) << r.Text();
    exact += r.compared_exact;
    // The lanes that may not magnify alike: within the host filter's bound over the LOD range
    // (check_bounds.h), or left out where no bound holds.
    lod_lanes += r.compared_bounded;
    for (const auto& [why, n] : r.not_compared_why) {
      if (why.rfind("host LOD: this lane", 0) == 0) lod_lanes += n;
    }
    bounded += r.compared_bounded;
  }
  EXPECT_GT(exact, 2000u);
  EXPECT_GT(lod_lanes, 500u);
  EXPECT_GT(bounded, 500u);
}

// XNT_CHECK_QUAD_SHADERS random derivative shaders (default 24: each costs a glslang and a
// lavapipe compile), from generator seed XNT_CHECK_QUAD_SEED, XNT_CHECK_QUAD_FIRST skipped first
// (shards), in two sessions; every disagreement is reported.
TEST(TranslateCheckQuadsRandom, RandomDerivativeShadersAgree) {
  const uint32_t count = EnvOr("XNT_CHECK_QUAD_SHADERS", 24);
  const uint32_t first = EnvOr("XNT_CHECK_QUAD_FIRST", 0);
  std::mt19937 g(EnvOr("XNT_CHECK_QUAD_SEED", 20261129));
  std::vector<std::string> shaders;
  for (uint32_t i = 0; i < first + count; ++i) shaders.push_back(RandomDerivativeShader(g));
  const auto start = std::chrono::steady_clock::now();
  const CheckTotals all = CheckInTwoSessions(first, shaders.size(), [&](size_t i, TranslateChecker& checker, CheckTotals& t) {
    TranslateCheckOptions options = QuadOptions(EnvOr("XNT_CHECK_QUAD_LANES", 64));
    options.seed = 5000 + i;
    options.fsi = (i / 2) % 2 == 1;  // every other pair with the fsi path's translation options
    t.Add(i, shaders[i], checker.Check(Assembled(shaders[i]), options), options.fsi);
  });
  EXPECT_EQ(all.failure, "");
  std::printf("derivative shaders in quads: %u (%u with the fsi options), %llu components bit for bit, "
              "%llu within a tolerance, %llu within a host filter's bound, %llu not compared, %llu helper "
              "lanes, %.1f s\n",
              all.checked, all.fsi, (unsigned long long)all.exact, (unsigned long long)all.tolerance,
              (unsigned long long)all.bounded, (unsigned long long)all.skipped, (unsigned long long)all.helpers,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  for (const auto& [why, n] : all.why) std::printf("  not compared: %llu %s\n", (unsigned long long)n, why.c_str());
  EXPECT_EQ(all.checked, count);
  EXPECT_GT(all.tolerance, 0u);  // getCompTexLOD
  EXPECT_GT(all.exact, all.skipped / 8);
}

}  // namespace
}  // namespace xnt::vk::test
