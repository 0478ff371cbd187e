// translate --check (xnt/vk/translate_check.h) on lavapipe, validation on: every corpus shader
// (1x1 and random real textures) and 300 random valid shaders (1,000 by hand) agree lane for lane; planted disagreements (an altered CPU
// result, a different shader on the CPU side, an altered kill) are found and reported with the
// lane, the export and the instruction; the tolerance and "not compared" rules are worked by hand.
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <thread>

#include "../test_env.h"
#include "checker_fixture.h"
#include "prerequisite.h"
#include "random_microcode.h"
#include "test_util.h"
#include "xnt/base/error.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/container.h"
#include "xnt/vk/translate_check.h"

namespace xnt::vk::test {
namespace {

using TranslateCheck = CheckerFixture;

TEST_F(TranslateCheck, EveryCorpusShaderAgrees) {
  const auto names = ucode::test::CorpusShaders();
  if (names.empty()) XNT_MISSING_PREREQUISITE() << "corpus not found under " << ucode::test::CorpusDir();
  uint64_t exact = 0, real_exact = 0;
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const ucode::ContainerFile c =
        ucode::LoadContainer(ucode::test::ReadBytes(ucode::test::CorpusDir() / name / "container.bin"));
    const ucode::Shader shader = ucode::Decode(c.microcode, c.type);
    TranslateCheckOptions options;
    options.lanes = 256;
    if (c.type == ucode::ShaderType::kPixel && !c.interpolators.empty()) {
      uint32_t count = 0;
      for (const auto& i : c.interpolators) count = std::max(count, i.reg + 1);
      options.ps_interpolator_count = count;
    }
    // Seeds 1-3 with 1x1 textures, 4-6 with random real ones (the cpu path's texture unit on the
    // interpreter's side); the fsi path's translation options once each.
    uint64_t shader_real = 0;
    for (uint64_t seed : {1u, 2u, 3u, 4u, 5u, 6u}) {
      options.seed = seed;
      options.fsi = seed == 3 || seed == 6;
      if (seed >= 4) options.texture_unit = CpuTextureUnit;
      const TranslateCheckResult r = checker_->Check(shader, options);
      EXPECT_TRUE(r.agree()) << r.Text();
      // A real texture the host filters bilinearly leaves every texel-fed export uncompared;
      // across the three real-texture seeds some export is compared.
      if (seed < 4) {
        EXPECT_GT(r.compared_exact, 0u) << r.Text();
      }
      (seed < 4 ? exact : real_exact) += r.compared_exact;
      shader_real += seed >= 4 ? r.compared_exact : 0;
    }
    EXPECT_GT(shader_real, 0u);
  }
  std::printf("corpus: %zu shaders x 6 seeds x 256 lanes, %llu components bit for bit with 1x1 "
              "textures, %llu with real ones\n",
              names.size(), (unsigned long long)exact, (unsigned long long)real_exact);
}

// random_microcode.h's generator (the batch-interpreter test's): every ALU op, fetch op,
// predication, kills, loops, calls and jumps. "Valid": it decodes and Analyze accepts its
// control flow (what the translator requires). Each shader costs a glslang compile and one or
// two lavapipe pipeline compiles, so the shaders are split over two sessions (one context and
// checker per thread; the development machine has two cores). XNT_CHECK_RANDOM_SHADERS sets how
// many (default 300 in ctest, so that a sanitized build stays near a minute of CPU; 1,000 by
// hand), XNT_CHECK_RANDOM_SEED the generator's seed, XNT_CHECK_RANDOM_LANES the
// lanes per shader (default 32), for longer explorations.
struct RandomShader {
  ucode::Shader shader;
  uint64_t seed = 0;
};

std::vector<RandomShader> RandomShaders(int count, int& attempts) {
  std::mt19937 g(EnvOr("XNT_CHECK_RANDOM_SEED", 20261126));
  std::vector<RandomShader> shaders;
  attempts = 0;
  while (int(shaders.size()) < count && attempts < 20 * count) {
    ++attempts;
    const bool vertex = g() % 3 == 0;
    RandomShader r;
    try {
      r.shader = ucode::Decode(ucode::test::RandomMicrocode(g, vertex),
                               vertex ? ucode::ShaderType::kVertex : ucode::ShaderType::kPixel);
      (void)ucode::Analyze(r.shader);
    } catch (const Error&) {
      continue;
    }
    r.seed = g();
    shaders.push_back(std::move(r));
  }
  return shaders;
}

struct Totals {
  int checked = 0, pixel = 0;
  uint64_t lanes = 0, exact = 0, tolerance = 0, skipped = 0, validation = 0;
  std::map<std::string, uint64_t> why;
  std::string failure;
};

void CheckRange(const std::vector<RandomShader>& shaders, size_t first, size_t step, Totals& t) {
  try {
    std::unique_ptr<VulkanContext> context = MakeLavapipeContext();
    TranslateChecker checker(*context);
    for (size_t i = first; i < shaders.size(); i += step) {
      TranslateCheckOptions options;
      options.lanes = EnvOr("XNT_CHECK_RANDOM_LANES", 32);
      options.seed = shaders[i].seed;
      options.texture_unit = CpuTextureUnit;
      const TranslateCheckResult r = checker.Check(shaders[i].shader, options);
      if (!r.agree()) {
        t.failure = "shader " + std::to_string(i) + ", dwords " +
                    ::testing::PrintToString(shaders[i].shader.dwords) + "\n" + r.Text();
        break;
      }
      ++t.checked;
      t.pixel += shaders[i].shader.type == ucode::ShaderType::kPixel;
      t.lanes += r.lanes;
      t.exact += r.compared_exact;
      t.tolerance += r.compared_tolerance;
      t.skipped += r.not_compared;
      for (const auto& [why, n] : r.not_compared_why) t.why[why] += n;
    }
    t.validation = context->validation_message_count();
    if (t.validation) t.failure += ValidationReport(*context);
  } catch (const std::exception& e) {
    t.failure = e.what();
  }
}

TEST(TranslateCheckRandom, RandomShadersAgree) {
  const char* env = std::getenv("XNT_CHECK_RANDOM_SHADERS");
  const int count = env && *env ? std::atoi(env) : 300;
  int attempts = 0;
  const std::vector<RandomShader> shaders = RandomShaders(count, attempts);
  ASSERT_EQ(int(shaders.size()), count);
  const auto start = std::chrono::steady_clock::now();
  Totals totals[2];
  std::thread second(CheckRange, std::cref(shaders), 1, 2, std::ref(totals[1]));
  CheckRange(shaders, 0, 2, totals[0]);
  second.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Totals all;
  for (const Totals& t : totals) {
    EXPECT_EQ(t.failure, "");
    all.checked += t.checked;
    all.pixel += t.pixel;
    all.lanes += t.lanes;
    all.exact += t.exact;
    all.tolerance += t.tolerance;
    all.skipped += t.skipped;
    for (const auto& [why, n] : t.why) all.why[why] += n;
  }
  std::printf("random: %d shaders (%d pixel, %d vertex) of %d generated, %llu lanes, %llu "
              "components bit for bit, %llu within a tolerance, %llu not compared, %.1f s\n",
              all.checked, all.pixel, all.checked - all.pixel, attempts,
              (unsigned long long)all.lanes, (unsigned long long)all.exact,
              (unsigned long long)all.tolerance, (unsigned long long)all.skipped, seconds);
  for (const auto& [why, n] : all.why) std::printf("  not compared: %llu %s\n", (unsigned long long)n, why.c_str());
  EXPECT_EQ(all.checked, count);
  EXPECT_GT(all.exact, uint64_t(count) * 20);
  EXPECT_GT(all.tolerance, 0u);
}

const char* const kMulShader = R"(xps_3_0
    exec
    mul r1, r0, c0
    alloc colors
    exece
    mov oC0, r1
)";

TEST_F(TranslateCheck, AlteredCpuResultIsFoundAtItsLane) {
  TranslateCheckOptions options;
  options.lanes = 100;
  options.seed = 5;
  options.alter_cpu = [](uint32_t lane, ucode::ShaderResult& r) {
    if (lane == 37) r.colors[0][1] = std::bit_cast<float>(std::bit_cast<uint32_t>(r.colors[0][1]) ^ 1u);
  };
  const ucode::Shader shader = Assembled(kMulShader);
  const TranslateCheckResult r = checker_->Check(shader, options);
  ASSERT_FALSE(r.agree());
  EXPECT_EQ(r.disagreement->lane, 37u);
  EXPECT_EQ(r.disagreement->what, "oC0.y");
  EXPECT_EQ(r.disagreement->rule, "exact bits");
  // `mov oC0, r1` is the second instruction after the control-flow slots.
  ASSERT_EQ(r.disagreement->slots.size(), 1u);
  EXPECT_EQ(r.disagreement->slots[0], shader.cf_slots + 1);
  ASSERT_EQ(r.disagreement->exports.size(), 1u);
  const CheckedExport& e = r.disagreement->exports[0];
  EXPECT_EQ(e.name, "oC0");
  EXPECT_EQ(std::bit_cast<uint32_t>(e.gpu[1]) ^ std::bit_cast<uint32_t>(e.cpu[1]), 1u);
  EXPECT_EQ(std::bit_cast<uint32_t>(e.gpu[0]), std::bit_cast<uint32_t>(e.cpu[0]));
  EXPECT_NE(r.Text().find("lane 37 disagrees: oC0.y"), std::string::npos) << r.Text();
  EXPECT_NE(r.Json().find("\"lane\": 37"), std::string::npos) << r.Json();
  // Without the alteration the same inputs agree.
  options.alter_cpu = nullptr;
  EXPECT_TRUE(checker_->Check(shader, options).agree());
}

TEST_F(TranslateCheck, DifferentShaderOnTheCpuSideDisagrees) {
  // The GPU multiplies by c0, the interpreter adds c0: lane 0's inputs (seeded) tell them apart.
  const ucode::Shader gpu = Assembled(kMulShader);
  const ucode::Shader cpu = Assembled(R"(xps_3_0
    exec
    add r1, r0, c0
    alloc colors
    exece
    mov oC0, r1
)");
  TranslateCheckOptions options;
  options.lanes = 64;
  options.cpu_shader = &cpu;
  const TranslateCheckResult r = checker_->Check(gpu, options);
  ASSERT_FALSE(r.agree());
  EXPECT_EQ(r.disagreement->what.substr(0, 4), "oC0.");
  EXPECT_NE(r.disagreement->inputs.find("r0 = "), std::string::npos);
}

TEST_F(TranslateCheck, PlantedKillDisagreementIsFound) {
  const ucode::Shader shader = Assembled(R"(xps_3_0
    exec
    kill_gt r2, r0.xxxx, c0.xxxx
    alloc colors
    exece
    mov oC0, r0
)");
  TranslateCheckOptions options;
  options.lanes = 64;
  options.seed = 9;
  const TranslateCheckResult clean = checker_->Check(shader, options);
  ASSERT_TRUE(clean.agree()) << clean.Text();
  EXPECT_GT(clean.lanes_killed, 0u);
  EXPECT_LT(clean.lanes_killed, 64u);
  options.alter_cpu = [](uint32_t, ucode::ShaderResult& r) { r.killed = !r.killed; };
  const TranslateCheckResult r = checker_->Check(shader, options);
  ASSERT_FALSE(r.agree());
  EXPECT_EQ(r.disagreement->lane, 0u);
  EXPECT_EQ(r.disagreement->what, "kill");
  ASSERT_EQ(r.disagreement->slots.size(), 1u);
  EXPECT_EQ(r.disagreement->slots[0], shader.cf_slots);
}

// rcp straight to an export is compared within its tolerance; exp through an add is not
// compared; the exact half of the same shader still is.
TEST_F(TranslateCheck, ImpreciseOpsGetTheirRulesByHand) {
  const ucode::Shader shader = Assembled(R"(xps_3_0
    exec
    mov r1, r0
    + rcp r1.x, r0.y
    mov r2, r0
    + exp r2.x, r0.z
    add r2, r2, c0
    alloc colors
    exece
    mov oC0, r1
    mov oC1, r2
    mov oC2, r0
)");
  TranslateCheckOptions options;
  options.lanes = 64;
  const TranslateCheckResult r = checker_->Check(shader, options);
  EXPECT_TRUE(r.agree()) << r.Text();
  // Lanes alive x (oC0: 4 toleranced (flow-insensitive: the whole register), oC1: 4 not
  // compared, oC2: 4 exact).
  EXPECT_EQ(r.compared_tolerance, 64u * 4);
  EXPECT_EQ(r.not_compared, 64u * 4);
  EXPECT_EQ(r.compared_exact, 64u * 4);
  // A GPU value 1 ulp off the interpreter's rcp passes; 8 ulps do not.
  options.alter_cpu = [](uint32_t, ucode::ShaderResult& res) {
    uint32_t b = std::bit_cast<uint32_t>(res.colors[0][0]);
    if ((b & 0x7F800000u) != 0x7F800000u && (b & 0x7FFFFFFFu) > 16) res.colors[0][0] = std::bit_cast<float>(b - 1);
  };
  EXPECT_TRUE(checker_->Check(shader, options).agree());
  options.alter_cpu = [](uint32_t, ucode::ShaderResult& res) {
    uint32_t b = std::bit_cast<uint32_t>(res.colors[0][0]);
    if ((b & 0x7F800000u) != 0x7F800000u && (b & 0x7FFFFFFFu) > 16) res.colors[0][0] = std::bit_cast<float>(b - 8);
  };
  const TranslateCheckResult off = checker_->Check(shader, options);
  ASSERT_FALSE(off.agree());
  EXPECT_EQ(off.disagreement->what, "oC0.x");
  EXPECT_EQ(off.disagreement->rule, "rcp within 3.5 ulp");
}

// getWeights is compared bit for bit (random coordinates times the 1x1 views' size, half-texel
// offsets, 1D/2D/3D with the fetch constant's stack depth); getCompTexLOD and getGradients need
// 2x2 quads, which one point per lane does not give: not compared.
TEST_F(TranslateCheck, TextureQueries) {
  const ucode::Shader shader = Assembled(R"(xps_3_0
    exec
    getWeights2D r1, r0.xy, tf0, OffsetX=0.5, OffsetY=-1.5
    getWeights3D r2, r0.zyx, tf3
    getWeights1D r3, r0.w, tf1, UnnormalizedTextureCoords=true
    getCompTexLOD2D r4, r0.xy, tf0
    alloc colors
    exec
    mov oC0, r1
    mov oC1, r2
    mov oC2, r3
    exece
    mov oC3, r4
)");
  TranslateCheckOptions options;
  options.lanes = 64;
  const TranslateCheckResult r = checker_->Check(shader, options);
  EXPECT_TRUE(r.agree()) << r.Text();
  EXPECT_EQ(r.compared_exact, 64u * 12);
  EXPECT_EQ(r.not_compared, 64u * 4);
  // One wrong fraction is found.
  options.alter_cpu = [](uint32_t lane, ucode::ShaderResult& res) {
    if (lane == 5) res.colors[1][2] = res.colors[1][2] == 0.5f ? 0.25f : 0.5f;
  };
  const TranslateCheckResult off = checker_->Check(shader, options);
  ASSERT_FALSE(off.agree());
  EXPECT_EQ(off.disagreement->what, "oC1.z");
}

// The fsi path's exact bilinear filter at coordinates that are infinite or NaN: twice the random
// interpolants (NaN and FLT_MAX among their special values, huge random exponents too; the
// interpolants themselves are finite, as every device can pass them) overflow to +-inf or stay
// NaN. The texture unit weighs in fixed point (gpu::BilinearWeight): such a coordinate has weight
// 0, so the 1x1 view's texel is read as it is; the float fraction -inf - floor(-inf) would make
// it NaN. The coordinate is exported too so that those lanes can be counted on the CPU side.
TEST_F(TranslateCheck, ExactBilinearOfInfiniteCoordinates) {
  const ucode::Shader shader = Assembled(R"(xps_3_0
    exec
    add r2, r0, r0
    tfetch2D r1, r2.xy, tf0, MagFilter=linear, MinFilter=linear, AnisoFilter=disabled
    alloc colors
    exec
    mov oC0, r1
    exece
    mov oC1, r2
)");
  TranslateCheckOptions options;
  options.lanes = 1024;
  options.fsi = true;
  uint32_t extreme = 0, infinite = 0, texel_finite = 0;
  options.alter_cpu = [&](uint32_t, ucode::ShaderResult& res) {
    if (std::isfinite(res.colors[1][0]) && std::isfinite(res.colors[1][1])) return;
    ++extreme;
    infinite += std::isinf(res.colors[1][0]) || std::isinf(res.colors[1][1]);
    texel_finite += std::isfinite(res.colors[0][0]) && std::isfinite(res.colors[0][1]) &&
                    std::isfinite(res.colors[0][2]) && std::isfinite(res.colors[0][3]);
  };
  const TranslateCheckResult r = checker_->Check(shader, options);
  EXPECT_TRUE(r.agree()) << r.Text();
  EXPECT_EQ(r.not_compared, 0u) << r.Text();
  EXPECT_GT(extreme, 10u);
  EXPECT_GT(infinite, 10u);
  // The check's texels are finite: every such lane read one, as the interpreter's texel is.
  EXPECT_EQ(texel_finite, extreme);
}

// oDepth through the D32 attachment: compared bit for bit inside [0, 1], not compared outside
// (undefined there); a planted 1-ulp change inside the range is found.
TEST_F(TranslateCheck, DepthExport) {
  const ucode::Shader shader = Assembled(R"(xps_3_0
    exec
    mul r1, r0, c0
    alloc colors
    exece
    mov oC0, r1
    mov oDepth, r0.x
)");
  TranslateCheckOptions options;
  options.lanes = 128;
  const TranslateCheckResult r = checker_->Check(shader, options);
  EXPECT_TRUE(r.agree()) << r.Text();
  EXPECT_EQ(r.compared_exact + r.not_compared, 128u * 5);
  // Interpolants are small multiples of 1/64 half the time: some depths land in [0, 1].
  EXPECT_GT(r.compared_exact, 128u * 4 + 4);
  EXPECT_GT(r.not_compared, 0u);
  options.alter_cpu = [](uint32_t, ucode::ShaderResult& res) {
    if (res.depth > 0.0f && res.depth < 1.0f) res.depth = std::nextafter(res.depth, 2.0f);
  };
  const TranslateCheckResult bad = checker_->Check(shader, options);
  ASSERT_FALSE(bad.agree());
  EXPECT_EQ(bad.disagreement->what, "oDepth");
}

TEST_F(TranslateCheck, VertexShaderPositionAndInterpolators) {
  const ucode::Shader shader = Assembled(R"(xvs_3_0
    exec
    mul r1, r0.xxxx, c1
    add r2, r1, c2
    alloc position
    exec
    mov oPos, r2
    alloc interpolators
    exece
    mov o0, r1
    mov o3, r2.wzyx
)");
  TranslateCheckOptions options;
  options.lanes = 300;
  const TranslateCheckResult r = checker_->Check(shader, options);
  EXPECT_TRUE(r.agree()) << r.Text();
  EXPECT_EQ(r.compared_exact, 300u * 17);  // oPos, o0, o3, oPts (unwritten: zeros) and the kill
  options.alter_cpu = [](uint32_t lane, ucode::ShaderResult& res) {
    if (lane == 299) res.interpolators[3][2] += 1.0f;
  };
  const TranslateCheckResult bad = checker_->Check(shader, options);
  ASSERT_FALSE(bad.agree());
  EXPECT_EQ(bad.disagreement->lane, 299u);
  EXPECT_EQ(bad.disagreement->what, "o3.z");
}

}  // namespace
}  // namespace xnt::vk::test
