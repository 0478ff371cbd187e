// Anisotropic filtering on the cpu path against values worked out by hand (texture_aniso.cpp):
// a 64x64 k_8_8_8_8 texture of vertical stripes, drawn on a 16x16 screen square whose texture
// coordinates stretch u k times more than v, so the footprint is k:1 with the major axis along
// screen x. Pixel (2, 2) has its centre at x = 2.5: u = k * 2.5 texels, v = 2.5.
// With N probes the samples sit at u + (i / (N + 1) - 1/2) * k texels, i = 1..N (the Vulkan
// reference walk), each point-sampled, and the texel is their mean.
#include <gtest/gtest.h>

#include "texture_rig.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::cpu::texture_aniso_test {
namespace {

using test::kTextureBase;
using test::kTextureMips;

struct AnisoRig : test::TextureRig {
  ucode::Shader ps = test::TfetchPs("r0.xy");

  // `white(x)`: whether texel column x is white (else black). aniso: the fetch constant's aniso
  // filter field (0 off, 2..5 max 2:1 .. 16:1). With `mips`, level 1 (and the mip range 0..1) is
  // uniform green and the mip filter picks the nearest level.
  AnisoRig(bool (*white)(uint32_t), uint32_t aniso, bool mips) {
    std::vector<uint8_t> level0(64 * 64 * 4), green(0x10000);
    for (uint32_t y = 0; y < 64; ++y) {
      for (uint32_t x = 0; x < 64; ++x) {
        const uint8_t v = white(x) ? 0xFF : 0x00;
        uint8_t* t = &level0[(size_t(y) * 64 + x) * 4];
        t[0] = t[1] = t[2] = v, t[3] = 0xFF;
      }
    }
    for (size_t i = 0; i < green.size(); i += 4) green[i + 1] = 0xFF, green[i + 3] = 0xFF;
    memory.Write(kTextureBase, level0);
    memory.Write(kTextureMips, green);
    std::array<uint32_t, 6> fetch = Fetch();
    fetch[3] &= ~(0x3Fu << 19);  // mag, min, mip point
    fetch[3] |= (aniso & 7u) << 25;
    if (mips) {
      fetch[4] = (fetch[4] & ~0x3FCu) | (1u << 6);  // mip levels 0..1
      fetch[5] = (fetch[5] & 0xFFFu) | (kTextureMips >> 12 << 12);
    }
    SetTexture(fetch);
  }

  // A 16x16 square with u = 0..16k/64 and v = 0..16kv/64: k texels of u and kv of v per pixel.
  // Returns pixel (2, 2) as RGBA bytes (R in the low byte).
  uint32_t Draw(float k, float kv = 1.0f) {
    const auto v = test::TexturedVertex;
    const float u1 = 16.0f * k / 64.0f, v1 = 16.0f * kv / 64.0f;
    std::vector<Triangle> tris = {{v(0, 0, 0, 0), v(16, 0, u1, 0), v(0, 16, 0, v1)},
                                  {v(16, 0, u1, 0), v(16, 16, u1, v1), v(0, 16, 0, v1)}};
    PixelJob job = Job(ps);
    job.triangles = &tris;
    job.state.never_cull = true;
    RunPixels(job, 1);
    return Pixel(2, 2);
  }
};

constexpr uint32_t kWhite = 0xFFFFFFFFu, kBlack = 0xFF000000u, kGreen = 0xFF00FF00u;
constexpr uint32_t Grey(uint32_t v) { return 0xFF000000u | v << 16 | v << 8 | v; }

bool Odd(uint32_t x) { return (x & 1) != 0; }
bool NotThirdOfFour(uint32_t x) { return (x & 3) != 3; }

TEST(CpuTextureAniso, TwoToOneFootprintAveragesTwoProbes) {
  // k = 2: u = 5 texels at the pixel centre. Isotropic point sampling reads texel 5 (odd:
  // white). Anisotropic, N = min(ceil(2 / 1), 16) = 2 probes at 5 - 1/3 and 5 + 1/3 texels:
  // texels 4 (black) and 5 (white), mean 0.5 -> 127.5, stored as 128.
  EXPECT_EQ(AnisoRig(Odd, 0, false).Draw(2.0f), kWhite);
  EXPECT_EQ(AnisoRig(Odd, 5, false).Draw(2.0f), Grey(128));
  // max 1:1 (field value 1) is isotropic.
  EXPECT_EQ(AnisoRig(Odd, 1, false).Draw(2.0f), kWhite);
}

TEST(CpuTextureAniso, ProbeCountIsTheRatioCappedByTheMaximum) {
  // k = 4: u = 10 texels. Stripes white but every fourth column (3, 7, 11, ...) black.
  // 16:1 allowed: N = 4 probes at 10 + (i/5 - 1/2) * 4 = 8.8, 9.6, 10.4, 11.2: texels 8, 9,
  // 10 (white) and 11 (black): 3/4 -> 191.25, stored as 191.
  EXPECT_EQ(AnisoRig(NotThirdOfFour, 5, false).Draw(4.0f), Grey(191));
  // 2:1 allowed: N = 2 probes at 10 -+ 4/6: 9.33 (texel 9) and 10.67 (texel 10), both white.
  EXPECT_EQ(AnisoRig(NotThirdOfFour, 2, false).Draw(4.0f), kWhite);
  // Isotropic: texel 10, white.
  EXPECT_EQ(AnisoRig(NotThirdOfFour, 0, false).Draw(4.0f), kWhite);
}

TEST(CpuTextureAniso, LevelOfDetailComesFromTheMajorAxisOverN) {
  // k = 4 with a green level 1: isotropic lambda = log2(4) = 2 -> level 1 (the range's top):
  // green. 16:1: N = 4, lambda = log2(4 / 4) = 0 -> level 0, the 3/4 mean as above. 2:1: N = 2,
  // lambda = log2(4 / 2) = 1 -> level 1: green.
  EXPECT_EQ(AnisoRig(NotThirdOfFour, 0, true).Draw(4.0f), kGreen);
  EXPECT_EQ(AnisoRig(NotThirdOfFour, 5, true).Draw(4.0f), Grey(191));
  EXPECT_EQ(AnisoRig(NotThirdOfFour, 2, true).Draw(4.0f), kGreen);
}

TEST(CpuTextureAniso, LevelOfDetailUsesTheRatioNotTheProbeCount) {
  // k = 2.25, kv = 1.5: ratio 1.5 within 16:1, so eta = 1.5 and lambda = log2(2.25 / 1.5) =
  // log2(1.5) = 0.585 -> nearest level 1: green. (Dividing by the 2 probes the ratio rounds up
  // to would give log2(1.125) = 0.17 -> level 0, the stripes.) Isotropic: log2(2.25) = 1.17 ->
  // level 1, green too.
  EXPECT_EQ(AnisoRig(Odd, 5, true).Draw(2.25f, 1.5f), kGreen);
  EXPECT_EQ(AnisoRig(Odd, 0, true).Draw(2.25f, 1.5f), kGreen);
}

TEST(CpuTextureAniso, MagnifiedFootprintIsNotWalked) {
  // k = 0.5: Px = 0.5, Py = 1 texel per pixel, no minification (Pmax = 1): one sample even at
  // 16:1. u = 1.25 texels: texel 1 (odd: white).
  EXPECT_EQ(AnisoRig(Odd, 5, false).Draw(0.5f), kWhite);
}

}  // namespace
}  // namespace xnt::cpu::texture_aniso_test
