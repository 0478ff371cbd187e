// Mip selection on the cpu path, against values worked out by hand: a 64x64 k_8_8_8_8 texture
// whose level 0 is red and level 1 green, drawn on screen squares of different sizes with
// texture coordinates 0..1. The batched interpreter shades 2x2 quads, so a tfetch has the
// coordinates' derivatives: d(u)/dx = 1 / size, rho = 64 / size texels per pixel, lambda =
// log2(rho) + biases, clamped to the fetch constant's mip range.
#include <gtest/gtest.h>

#include "texture_rig.h"

namespace xnt::cpu {
namespace {

using test::kTextureBase;
using test::kTextureMips;

struct LodRig : test::TextureRig {
  ucode::Shader ps = test::TfetchPs("r0.xy");

  // mip_filter: 0 point, 1 linear; lod_bias in 1/32.
  LodRig(uint32_t mip_filter, int32_t lod_bias) {
    // Uniform levels: the layout inside each level does not matter.
    std::vector<uint8_t> red(64 * 64 * 4), green(0x10000);
    for (size_t i = 0; i < red.size(); i += 4) red[i] = 0xFF, red[i + 3] = 0xFF;
    for (size_t i = 0; i < green.size(); i += 4) green[i + 1] = 0xFF, green[i + 3] = 0xFF;
    memory.Write(kTextureBase, red);
    memory.Write(kTextureMips, green);
    std::array<uint32_t, 6> fetch = Fetch();
    fetch[3] &= ~(0x3Fu << 19);  // mag, min point
    fetch[3] |= mip_filter << 23;
    fetch[4] = (fetch[4] & ~0x3FFFFCu) | (0u << 2) | (1u << 6) |
               ((uint32_t(lod_bias) & 0x3FF) << 12);  // mip levels 0..1, LOD bias
    fetch[5] = (fetch[5] & 0xFFFu) | (kTextureMips >> 12 << 12);
    SetTexture(fetch);
  }

  // Draws a size x size square at the origin with u, v 0..1; returns pixel (2, 2) as RGBA bytes.
  uint32_t Draw(double size) {
    const auto v = test::TexturedVertex;
    std::vector<Triangle> tris = {{v(0, 0, 0, 0), v(size, 0, 1, 0), v(0, size, 0, 1)},
                                  {v(size, 0, 1, 0), v(size, size, 1, 1), v(0, size, 0, 1)}};
    PixelJob job = Job(ps);
    job.triangles = &tris;
    job.state.never_cull = true;
    RunPixels(job, 1);
    return Pixel(2, 2);
  }
};

constexpr uint32_t kRed = 0xFF0000FFu, kGreen = 0xFF00FF00u;

TEST(CpuTextureLod, NearestMipFollowsTheMinification) {
  LodRig r(0, 0);
  EXPECT_EQ(r.Draw(64), kRed);    // rho 1: lambda 0, magnification, level 0
  EXPECT_EQ(r.Draw(128), kRed);   // rho 1/2: lambda -1
  EXPECT_EQ(r.Draw(32), kGreen);  // rho 2: lambda 1, level 1
  EXPECT_EQ(r.Draw(16), kGreen);  // rho 4: lambda 2, clamped to mip_max_level 1
  // rho 64/46 = 1.39: lambda 0.48 rounds to level 0 (ceil(lambda + 0.5) - 1 = 0).
  EXPECT_EQ(r.Draw(46), kRed);
  // rho 64/42 = 1.52: lambda 0.61 rounds to level 1.
  EXPECT_EQ(r.Draw(42), kGreen);
}

TEST(CpuTextureLod, LodBiasMovesTheLevel) {
  LodRig up(0, 32);  // +1.0: the full-size square (lambda 0 + 1) samples level 1
  EXPECT_EQ(up.Draw(64), kGreen);
  LodRig down(0, -32);  // -1.0: the half-size square (lambda 1 - 1 = 0) samples level 0
  EXPECT_EQ(down.Draw(32), kRed);
}

TEST(CpuTextureLod, LinearMipBlendsTwoLevels) {
  // Half-size square (lambda 1) with bias -0.5: lambda 0.5, half of each level:
  // 0.5 * 255 = 127.5, stored as 128 (round to nearest).
  LodRig r(1, -16);
  EXPECT_EQ(r.Draw(32), 0xFF008080u);
}

}  // namespace
}  // namespace xnt::cpu
