// translate --check on lavapipe, validation on, for what reaches memory and the vertex outputs
// past o#: vertex fetches in every format with the endian swaps, oPts and the vertex kill it
// makes, memexport's stores compared dword for dword in guest memory (stores several lanes make
// to one dword counted as not compared), and random valid shaders that fetch and export
// (random_fetch_export_shader.h).
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <random>
#include <thread>

#include "../test_env.h"
#include "checker_fixture.h"
#include "random_fetch_export_shader.h"
#include "xnt/base/error.h"
#include "xnt/cpu/texture_callbacks.h"
#include "xnt/ucode/assembler.h"
#include "xnt/vk/translate_check.h"

namespace xnt::vk::test {
namespace {

float F(uint32_t bits) { return std::bit_cast<float>(bits); }

// A memexport stream constant (xenos.h xe_gpu_memexport_stream_t): base, index 0, format, count.
ucode::Float4 Stream(uint32_t base_bytes, uint32_t format, uint32_t count) {
  return {F(0x40000000u | (base_bytes >> 2)), F(0x4B000000u), F(0x4B000000u | (format << 8)),
          F(0x4B000000u | count)};
}

using TranslateCheckFetch = CheckerFixture;

TEST_F(TranslateCheckFetch, EveryVertexFormatWithEveryEndianSwap) {
  // 15 formats x (unsigned normalised, signed integer with the signed-RF mode), 64 lanes, two
  // seeds: the check points the fetch constant at its memory with a seeded endian swap (0-3).
  const char* const formats[] = {"FMT_8_8_8_8", "FMT_2_10_10_10", "FMT_10_11_11", "FMT_11_11_10",
                                 "FMT_16_16", "FMT_16_16_16_16", "FMT_16_16_FLOAT",
                                 "FMT_16_16_16_16_FLOAT", "FMT_32", "FMT_32_32", "FMT_32_32_32_32",
                                 "FMT_32_FLOAT", "FMT_32_32_FLOAT", "FMT_32_32_32_32_FLOAT",
                                 "FMT_32_32_32_FLOAT"};
  uint64_t exact = 0;
  for (const char* format : formats) {
    for (const char* kind : {"", ", Signed=true, NumFormat=integer, SignedRFMode=true"}) {
      const std::string text = std::string(R"(xvs_3_0
    exec
    vfetch_full r1, r0.x, vf60, DataFormat=)") + format + ", Stride=4, Offset=1" + kind + R"(
    alloc position
    exec
    mov oPos, r0
    alloc interpolators
    exece
    mov o0, r1
)";
      SCOPED_TRACE(text);
      TranslateCheckOptions options;
      options.lanes = 64;
      for (uint64_t seed : {3u, 4u}) {
        options.seed = seed;
        const TranslateCheckResult r = checker_->Check(Assembled(text), options);
        ASSERT_TRUE(r.agree()) << r.Text();
        // oPos, o0, oPts and the kill, all exact.
        EXPECT_EQ(r.compared_exact, 64u * 13) << r.Text();
        exact += r.compared_exact;
      }
    }
  }
  // A changed decode is found: the CPU side reads the element as the next format's.
  const ucode::Shader gpu = Assembled(R"(xvs_3_0
    exec
    vfetch_full r1, r0.x, vf60, DataFormat=FMT_8_8_8_8, Stride=1
    alloc interpolators
    exece
    mov o0, r1
)");
  const ucode::Shader cpu = Assembled(R"(xvs_3_0
    exec
    vfetch_full r1, r0.x, vf60, DataFormat=FMT_2_10_10_10, Stride=1
    alloc interpolators
    exece
    mov o0, r1
)");
  TranslateCheckOptions options;
  options.lanes = 16;
  options.cpu_shader = &cpu;
  const TranslateCheckResult bad = checker_->Check(gpu, options);
  ASSERT_FALSE(bad.agree());
  EXPECT_EQ(bad.disagreement->what.substr(0, 3), "o0.") << bad.Text();
  std::printf("vertex formats: 30 fetch kinds x 2 seeds x 64 lanes, %llu components bit for bit\n",
              (unsigned long long)exact);
}

TEST_F(TranslateCheckFetch, ZeroFromTheMicrocodePlusNegativeZeroIsPositive) {
  // IEEE round to nearest: +0 + -0 = +0. The +0 comes from a fetch swizzle's constant 0 (r1.y),
  // from a register never written (r5) and from the previous scalar result before any (ps); c0
  // is all -0. A compiler that sees a literal zero operand may return the other one (-0). oPos.x
  // is the export mask's 0, to which the viewport transform adds 0 * w = -0 (c1 = -1).
  const ucode::Shader shader = Assembled(R"(xvs_3_0
    exec
    vfetch_full r1.x0y_, r0.x, vf60, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4
    add r2, r1, c0
    add r3, r5, c0
    adds_prev r4.x, c0.x
    alloc position
    exec
    mov oPos.0yzw, c1
    alloc interpolators
    exec
    mov o0, r2
    mov o1, r3
    exece
    mov o2, r4.x
)");
  TranslateCheckOptions options;
  options.lanes = 16;
  options.float_constants = {{0, {-0.0f, -0.0f, -0.0f, -0.0f}}, {1, {-1.0f, -1.0f, -1.0f, -1.0f}}};
  const TranslateCheckResult r = checker_->Check(shader, options);
  ASSERT_TRUE(r.agree()) << r.Text();
  EXPECT_EQ(r.not_compared, 0u) << r.Text();
  // -0 planted on the interpreter's side is found: the device's o1 is +0, bit for bit.
  options.alter_cpu = [](uint32_t, ucode::ShaderResult& result) { result.interpolators[1][2] = -0.0f; };
  const TranslateCheckResult planted = checker_->Check(shader, options);
  ASSERT_FALSE(planted.agree());
  EXPECT_EQ(planted.disagreement->what, "o1.z") << planted.Text();
  bool found = false;
  for (const CheckedExport& e : planted.disagreement->exports) {
    if (e.name != "o1") continue;
    found = true;
    for (float v : e.gpu) EXPECT_EQ(std::bit_cast<uint32_t>(v), 0u) << planted.Text();
  }
  EXPECT_TRUE(found) << planted.Text();
}

TEST_F(TranslateCheckFetch, PointSizeEdgeFlagAndVertexKill) {
  // oPts = frc(index * (0.5, 0.25, 0.5, 1)): z is 0 for even vertices (kept) and 0.5 for odd ones
  // (killed), so both outcomes occur; x and y are compared as exported.
  const ucode::Shader shader = Assembled(R"(xvs_3_0
    exec
    mul r1, r0.xxxx, c1
    frc r2, r1
    alloc position
    exece
    mov oPos, r1
    mov oPts.xyz, r2
)");
  TranslateCheckOptions options;
  options.lanes = 100;
  options.float_constants = {{1, {0.5f, 0.25f, 0.5f, 1.0f}}};
  const TranslateCheckResult r = checker_->Check(shader, options);
  ASSERT_TRUE(r.agree()) << r.Text();
  EXPECT_EQ(r.compared_exact, 100u * 9);  // oPos, oPts, the kill
  std::printf("denormal results flushed: pixel shaders %s, vertex shaders %s\n",
              checker_->DeviceFlushesDenormals(true) ? "yes" : "no",
              checker_->DeviceFlushesDenormals(false) ? "yes" : "no");
  options.alter_cpu = [](uint32_t lane, ucode::ShaderResult& res) {
    if (lane == 41) res.point_size[1] = 0.75f;
  };
  const TranslateCheckResult bad = checker_->Check(shader, options);
  ASSERT_FALSE(bad.agree());
  EXPECT_EQ(bad.disagreement->lane, 41u);
  EXPECT_EQ(bad.disagreement->what, "oPts.y");
  // oPts.z from rcp: within a tolerance as a value, but the kill it decides is not compared.
  const ucode::Shader imprecise = Assembled(R"(xvs_3_0
    exec
    rcp r2.z, r0.x
    alloc position
    exece
    mov oPos, r0
    mov oPts.z, r2.z
)");
  options.alter_cpu = nullptr;
  const TranslateCheckResult ri = checker_->Check(imprecise, options);
  ASSERT_TRUE(ri.agree()) << ri.Text();
  EXPECT_EQ(ri.not_compared_why.at("an imprecise oPts.z decides the vertex kill"), 100u) << ri.Text();
  EXPECT_NE(ri.Text().find("\nnot compared: 100 (100 an imprecise oPts.z decides the vertex kill)\n"),
            std::string::npos) << ri.Text();
  EXPECT_NE(ri.Json().find("\"not_compared_why\": {\"an imprecise oPts.z decides the vertex kill\": 100}"),
            std::string::npos) << ri.Json();
}

TEST_F(TranslateCheckFetch, MemexportStoresAreComparedInGuestMemory) {
  // Vertex v stores (v, v * 2, c2.z, c2.w) as FMT_32_32_32_32_FLOAT element v of a stream at
  // 0x1000 with 5000 elements: every lane's 16 bytes land in the check's first window.
  const char* const text = R"(xvs_3_0
    alloc export
    exec
    mad eA, r0.xxxx, c1, c0
    mul r1, r0.xxxx, c2
    mov eM0, r1
    alloc position
    exece
    mov oPos, r0
)";
  const ucode::Shader shader = Assembled(text);
  TranslateCheckOptions options;
  options.lanes = 64;
  options.float_constants = {{0, Stream(0x1000, 38, 5000)}, {1, {0.0f, 1.0f, 0.0f, 0.0f}},
                             {2, {1.0f, 2.0f, 3.0f, 4.0f}}};
  const TranslateCheckResult r = checker_->Check(shader, options);
  ASSERT_TRUE(r.agree()) << r.Text();
  // Every dword of the four 64 KiB windows, stored to or not.
  EXPECT_EQ(r.memory_compared, 4u * 16384u) << r.Text();
  EXPECT_NE(r.Text().find(", 65536 guest memory dwords bit for bit)"), std::string::npos) << r.Text();
  // The interpreter storing other values: found at the first differing dword.
  const ucode::Shader cpu = Assembled(std::string(text).replace(std::string(text).find("mov eM0, r1"), 11, "mov eM0, r1.yxzw"));
  options.cpu_shader = &cpu;
  const TranslateCheckResult bad = checker_->Check(shader, options);
  ASSERT_FALSE(bad.agree());
  EXPECT_EQ(bad.disagreement->what.substr(0, 18), "guest memory dword") << bad.Text();
  EXPECT_EQ(bad.disagreement->rule, "exact bits (the dword no lane or one lane stores to)");
  // Every lane storing to element 0 (index multiplier 0): the four dwords have no single
  // expected value and are counted as not compared, the rest of memory still is.
  options.cpu_shader = nullptr;
  options.float_constants[1].second = {0.0f, 0.0f, 0.0f, 0.0f};
  const TranslateCheckResult shared = checker_->Check(shader, options);
  ASSERT_TRUE(shared.agree()) << shared.Text();
  EXPECT_EQ(shared.memory_compared, 4u * 16384u - 4u);
  EXPECT_EQ(shared.not_compared_why.at(
                "a guest dword several lanes store different bits to (the device orders the lanes)"),
            4u);
}

// The cpu side of the check's real textures: the cpu path's texture unit over fetch constants and
// guest bytes alone. A 4x2 k_32_FLOAT texture, linear, texel (x, y) = 10 y + x + 1, sampled at
// points worked by hand with the hardware's coordinate rule (gpu/texel_coordinate.h: the texel
// coordinate rounded to 1/256 texel, then floored) and the four address modes of four slots.
TEST(CpuTextureCallbacks, PointSamplesFollowTheFixedPointCoordinateAndClampModes) {
  constexpr uint32_t kBase = 0x10000;
  std::vector<uint8_t> bytes(4096);
  for (uint32_t y = 0; y < 2; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      const float v = float(10 * y + x + 1);
      // Linear rows are 256 bytes apart (Xenia texture_util.cc: linear row pitch aligned to 256).
      std::memcpy(bytes.data() + y * 256 + x * 4, &v, 4);
    }
  }
  std::vector<uint32_t> fetch(192, 0u);
  // Slot s: clamp mode kModes[s] on x and y, border colour white, 2D, point filters.
  const uint32_t kModes[4] = {0 /* repeat */, 2 /* clamp to edge */, 6 /* border */, 1 /* mirror */};
  for (uint32_t s = 0; s < 4; ++s) {
    uint32_t* d = fetch.data() + s * 6;
    d[0] = 2u | (kModes[s] << 10) | (kModes[s] << 13) | (1u << 22);
    d[1] = 36u | kBase;  // k_32_FLOAT, no endian swap, base address >> 12 in bits 12..31
    d[2] = 3u | (1u << 13);  // 4 x 2
    d[5] = 1u | (1u << 9);   // white border, 2D
  }
  cpu::TextureCallbacks unit(fetch, kBase, bytes);
  ucode::InterpreterCallbacks cb;
  unit.Bind(cb);
  ucode::FetchInstruction f;
  f.dimension = ucode::TextureDimension::k2D;
  auto x_at = [&](uint32_t slot, float u, float v) {
    f.const_index = slot;
    return cb.texture_fetch(slot, {u, v, 0.0f, 0.0f}, f)[0];
  };
  EXPECT_EQ(x_at(0, 0.25f, 0.25f), 2.0f);    // u * 4 = 1 exactly: texel 1 (row 0.5 -> 0)
  EXPECT_EQ(x_at(0, 0.2499f, 0.25f), 2.0f);  // 0.9996 texels = 255.9 / 256: rounds up to texel 1
  EXPECT_EQ(x_at(0, 0.249f, 0.25f), 1.0f);   // 0.996 texels = 254.98 / 256: stays in texel 0
  EXPECT_EQ(x_at(0, -0.125f, 0.75f), 14.0f); // texel -1 wraps to 3; row 1.5 -> 1
  EXPECT_EQ(x_at(0, std::nanf(""), 0.25f), 1.0f);  // NaN is texel 0
  EXPECT_EQ(x_at(1, 1.5f, 0.25f), 4.0f);     // texel 6 clamped to 3
  EXPECT_EQ(x_at(1, -3.0f, 0.75f), 11.0f);   // texel -12 clamped to 0, row 1
  EXPECT_EQ(x_at(2, 1.5f, 0.25f), 1.0f);     // outside: the white border's 1
  EXPECT_EQ(x_at(2, 0.75f, 0.25f), 4.0f);    // inside: texel 3
  EXPECT_EQ(x_at(3, -0.125f, 0.25f), 1.0f);  // texel -1 mirrored to 0
  EXPECT_EQ(x_at(3, 1.125f, 0.25f), 4.0f);   // texel 4.5 -> 4, mirrored to 3
  const ucode::TextureQuerySize size = cb.texture_size(0, f);
  EXPECT_EQ(size.width, 4.0f);
  EXPECT_EQ(size.height, 2.0f);
}

// translate --check with real textures: a point fetch of a random texture (the instruction asks
// for point filters; seed 3 draws a 2D texture whose LOD range starts at level 0 and whose
// swizzle reads texel components, so the translated shader picks the texel itself) is compared
// bit for bit on every lane, and a texture unit that returns a texel one bit off is found.
TEST_F(TranslateCheckFetch, RealTexturePointFetchIsComparedAndAWrongTexelFound) {
  TranslateCheckOptions options;
  options.texture_unit = CpuTextureUnit;
  options.seed = 3;
  options.lanes = 64;
  const ucode::Shader shader = Assembled(R"(xps_3_0
    exec
    tfetch2D r2, r0.xy, tf0, MagFilter=point, MinFilter=point, MipFilter=point, AnisoFilter=disabled
    alloc colors
    exece
    mov oC0, r2
)");
  const TranslateCheckResult r = checker_->Check(shader, options);
  EXPECT_TRUE(r.agree()) << r.Text();
  ASSERT_EQ(r.textures.size(), 1u);
  EXPECT_EQ(r.compared_exact, 64u * 4) << r.Text();
  EXPECT_EQ(r.not_compared, 0u) << r.Text();
  options.texture_unit = [](std::span<const uint32_t> fetch_constants, uint32_t address,
                            std::span<const uint8_t> bytes, ucode::InterpreterCallbacks& cb) {
    std::shared_ptr<void> unit = CpuTextureUnit(fetch_constants, address, bytes, cb);
    auto flip = [](ucode::Float4 t) {
      for (float& v : t) v = std::bit_cast<float>(std::bit_cast<uint32_t>(v) ^ 1u);
      return t;
    };
    auto fetch = cb.texture_fetch;
    cb.texture_fetch = [fetch, flip](uint32_t slot, const ucode::Float4& c, const ucode::FetchInstruction& f) {
      return flip(fetch(slot, c, f));
    };
    auto fetch_explicit = cb.texture_fetch_explicit;
    cb.texture_fetch_explicit = [fetch_explicit, flip](uint32_t slot, const ucode::Float4& c,
                                                       const ucode::FetchInstruction& f,
                                                       const ucode::TextureRegisters& registers) {
      return flip(fetch_explicit(slot, c, f, registers));
    };
    return unit;
  };
  const TranslateCheckResult off = checker_->Check(shader, options);
  ASSERT_FALSE(off.agree()) << off.Text();
  EXPECT_EQ(off.disagreement->what.rfind("oC0.", 0), 0u) << off.Text();
}

// A volume whose z filter differs from its x/y filter is filtered in the translated shader as the
// texture unit filters it (glsl_volume_filter.cpp): with the instruction's linear x/y and point z
// filters, and the other way round, every random volume whose LOD range is one level is compared
// bit for bit on every lane (plain and with the fsi options), and a
// texture unit whose z filter is the x/y one (the host sampler's) is found.
TEST_F(TranslateCheckFetch, VolumeWithItsOwnZFilterIsComparedExactly) {
  const char* kShaders[] = {
      R"(xps_3_0
    exec
    tfetch3D r2, r0.xyz, tf0, MagFilter=linear, MinFilter=linear, VolMagFilter=point, VolMinFilter=point, AnisoFilter=disabled
    alloc colors
    exece
    mov oC0, r2
)",
      R"(xps_3_0
    exec
    tfetch3D r2, r0.xyz, tf0, MagFilter=point, MinFilter=point, VolMagFilter=linear, VolMinFilter=linear, AnisoFilter=disabled
    alloc colors
    exece
    mov oC0, r2
)"};
  uint32_t volumes = 0, first_volume = 0;
  uint64_t exact = 0;
  auto options_for = [](uint32_t seed) {
    TranslateCheckOptions options;
    options.texture_unit = CpuTextureUnit;
    options.seed = seed;
    options.lanes = 32;
    options.fsi = seed % 2 == 0;
    return options;
  };
  // Until four volumes of one level were drawn (the seeds draw volumes and stacks, with and
  // without mips).
  for (uint32_t seed = 1; seed <= 16 && volumes < 4; ++seed) {
    const TranslateCheckResult r = checker_->Check(Assembled(kShaders[seed % 2]), options_for(seed));
    EXPECT_TRUE(r.agree()) << "seed " << seed << "\n" << r.Text();
    ASSERT_EQ(r.textures.size(), 1u);
    if (r.compared_exact == 32u * 4 && r.textures[0].find(" dimension 2 ") != std::string::npos) {
      exact += r.compared_exact;
      if (!volumes++) first_volume = seed;
    }
  }
  EXPECT_EQ(volumes, 4u);
  std::printf("volumes with a separate z filter compared bit for bit: %u (%llu components)\n", volumes,
              (unsigned long long)exact);
  ASSERT_NE(first_volume, 0u);
  // The texture unit with the z filter made the x/y one, as a host 3D sampler filters.
  TranslateCheckOptions options = options_for(first_volume);
  options.texture_unit = [](std::span<const uint32_t> fetch_constants, uint32_t address,
                            std::span<const uint8_t> bytes, ucode::InterpreterCallbacks& cb) {
    std::shared_ptr<void> unit = CpuTextureUnit(fetch_constants, address, bytes, cb);
    auto fetch = cb.texture_fetch;
    cb.texture_fetch = [fetch](uint32_t slot, const ucode::Float4& c, const ucode::FetchInstruction& f) {
      ucode::FetchInstruction one_filter = f;
      one_filter.vol_mag_filter = f.mag_filter;
      one_filter.vol_min_filter = f.min_filter;
      return fetch(slot, c, one_filter);
    };
    return unit;
  };
  const TranslateCheckResult off = checker_->Check(Assembled(kShaders[first_volume % 2]), options);
  ASSERT_FALSE(off.agree()) << off.Text();
  EXPECT_EQ(off.disagreement->what.rfind("oC0.", 0), 0u) << off.Text();
}

// XNT_CHECK_FETCH_SHADERS shaders (default 60 here: each costs a glslang and a lavapipe compile;
// the 1,000-shader run is this test with XNT_CHECK_FETCH_SHADERS=1000), from generator seed
// XNT_CHECK_FETCH_SEED, in two sessions (one per core). XNT_CHECK_FETCH_FIRST skips that many
// of the generator's shaders first, so a long run can be cut into shards run side by side (shader
// i is the same shader with the same check seed in every shard).
TEST(TranslateCheckFetchRandom, RandomFetchAndExportShadersAgree) {
  const uint32_t count = EnvOr("XNT_CHECK_FETCH_SHADERS", 60);
  std::mt19937 g(EnvOr("XNT_CHECK_FETCH_SEED", 20261129));
  const uint32_t first = EnvOr("XNT_CHECK_FETCH_FIRST", 0);
  std::vector<FetchExportShader> shaders;
  for (uint32_t i = 0; i < first + count; ++i) shaders.push_back(RandomFetchExportShader(g));
  const auto start = std::chrono::steady_clock::now();
  const CheckTotals all = CheckInTwoSessions(first, shaders.size(), [&](size_t i, TranslateChecker& checker, CheckTotals& t) {
    TranslateCheckOptions options;
    options.lanes = EnvOr("XNT_CHECK_RANDOM_LANES", 32);
    options.seed = 1000 + i;
    options.float_constants = shaders[i].constants;
    // Every other pair with the fsi path's translation options.
    options.fsi = (i / 2) % 2 == 1;
    options.texture_unit = CpuTextureUnit;
    t.Add(i, shaders[i].text, checker.Check(Assembled(shaders[i].text), options), options.fsi);
  });
  EXPECT_EQ(all.failure, "");
  std::printf("fetch/export shaders: %u (%u pixel, %u with the fsi options, %u with memory compared), "
              "%llu components bit for bit, %llu within a tolerance, %llu within a host filter's bound, %llu "
              "guest memory dwords, %llu not compared, %.1f s\n",
              all.checked, all.pixel, all.fsi, all.memexport, (unsigned long long)all.exact,
              (unsigned long long)all.tolerance, (unsigned long long)all.bounded, (unsigned long long)all.memory,
              (unsigned long long)all.skipped,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  for (const auto& [why, n] : all.why) std::printf("  not compared: %llu %s\n", (unsigned long long)n, why.c_str());
  EXPECT_EQ(all.checked, count);
  EXPECT_GT(all.memexport, count / 4);
  // Most of what the shaders export is compared. Guest memory counts apart: a whole window is
  // left out when an eM value is not comparable (a texel the host sampler filtered, say).
  uint64_t memory_skipped = 0;
  for (const auto& [why, n] : all.why) memory_skipped += why.rfind("memory: ", 0) == 0 ? n : 0;
  EXPECT_LT(all.skipped - memory_skipped, all.exact / 4);
  EXPECT_GT(all.memory, memory_skipped);
}

}  // namespace
}  // namespace xnt::vk::test
