// Texture coordinates that no float -> int conversion may take as they are: +-1e30 (beyond
// int32) and NaN. The cpu path's rule (texture_unit.cpp FloorIndex, shared by the fsi path's
// exact bilinear filter): NaN is texel 0, magnitudes are held to 2^30 before the clamp mode, so
// the results below are worked out by hand from that rule. A 64x64 k_8_8_8_8 texture whose texel
// (x, y) is (4x, 4y, 0x80, 0xFF); each case draws a square whose three vertices carry the same
// coordinate and reads pixel (2, 2).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "texture_rig.h"

namespace xnt::cpu {
namespace {

using test::kTextureBase;

uint32_t Texel(uint32_t x, uint32_t y) { return (4 * x) | (4 * y) << 8 | 0x80u << 16 | 0xFFu << 24; }

struct ExtremeRig : test::TextureRig {
  ucode::Shader ps = test::TfetchPs("r0.xy");

  // clamp: the Xenos clamp mode of both axes; linear: mag and min filters.
  ExtremeRig(xenos::ClampMode clamp, bool linear) {
    std::vector<uint8_t> texels(64 * 64 * 4);
    for (uint32_t y = 0; y < 64; ++y) {
      for (uint32_t x = 0; x < 64; ++x) {
        const uint32_t t = Texel(x, y);
        for (uint32_t b = 0; b < 4; ++b) texels[(y * 64 + x) * 4 + b] = uint8_t(t >> (8 * b));
      }
    }
    memory.Write(kTextureBase, texels);
    std::array<uint32_t, 6> fetch = Fetch();
    fetch[0] = (fetch[0] & ~(0x3Fu << 10)) | uint32_t(clamp) << 10 | uint32_t(clamp) << 13;
    fetch[3] &= ~(0xFu << 19);
    if (linear) fetch[3] |= 1u << 19 | 1u << 21;
    fetch[5] &= ~3u;  // border: ABGR black (0, 0, 0, 0)
    SetTexture(fetch);
  }

  uint32_t Draw(float u, float v) {
    const auto c = test::TexturedVertex;
    std::vector<Triangle> tris = {{c(0, 0, u, v), c(8, 0, u, v), c(0, 8, u, v)},
                                  {c(8, 0, u, v), c(8, 8, u, v), c(0, 8, u, v)}};
    PixelJob job = Job(ps);
    job.triangles = &tris;
    job.state.never_cull = true;
    RunPixels(job, 1);
    return Pixel(2, 2);
  }
};

constexpr float kHuge = 1e30f;
const float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kRow2 = 2.5f / 64.0f, kColumn5 = 5.5f / 64.0f;  // texel centres

TEST(CpuTextureExtremeCoords, ClampToEdgeHoldsHugeCoordinatesAtTheEdges) {
  ExtremeRig point(xenos::ClampMode::kClampToEdge, false);
  EXPECT_EQ(point.Draw(kHuge, kRow2), Texel(63, 2));
  EXPECT_EQ(point.Draw(-kHuge, kRow2), Texel(0, 2));
  EXPECT_EQ(point.Draw(kColumn5, kHuge), Texel(5, 63));
  // Bilinear: the footprint's x0 and x0 + 1 both clamp to 63, and the weight fx - floor(fx) of a
  // float that large is 0; v at a texel centre has weight 0 too.
  ExtremeRig linear(xenos::ClampMode::kClampToEdge, true);
  EXPECT_EQ(linear.Draw(kHuge, kRow2), Texel(63, 2));
  EXPECT_EQ(linear.Draw(-kHuge, kRow2), Texel(0, 2));
}

TEST(CpuTextureExtremeCoords, RepeatAndMirrorTakeTheHeldIndex) {
  // 2^30 and -2^30 are multiples of 64 and of the mirror's period 128: texel 0.
  ExtremeRig repeat(xenos::ClampMode::kRepeat, false);
  EXPECT_EQ(repeat.Draw(kHuge, kRow2), Texel(0, 2));
  EXPECT_EQ(repeat.Draw(-kHuge, kRow2), Texel(0, 2));
  ExtremeRig mirror(xenos::ClampMode::kMirroredRepeat, false);
  EXPECT_EQ(mirror.Draw(kHuge, kRow2), Texel(0, 2));
  // Mirrored once around 0 then clamped: -1 - (-2^30) = 2^30 - 1 -> 63.
  ExtremeRig mirror_once(xenos::ClampMode::kMirrorClampToEdge, false);
  EXPECT_EQ(mirror_once.Draw(-kHuge, kRow2), Texel(63, 2));
}

TEST(CpuTextureExtremeCoords, BorderOutsideAndNaNAtTexelZero) {
  ExtremeRig border(xenos::ClampMode::kClampToBorder, false);
  EXPECT_EQ(border.Draw(kHuge, kRow2), 0u);
  EXPECT_EQ(border.Draw(kColumn5, -kHuge), 0u);
  ExtremeRig point(xenos::ClampMode::kClampToEdge, false);
  EXPECT_EQ(point.Draw(kNaN, kRow2), Texel(0, 2));
  EXPECT_EQ(point.Draw(kColumn5, kNaN), Texel(5, 0));
  // Under clamp-to-border NaN is texel 0 too, not the border (x86's INT_MIN would be outside).
  EXPECT_EQ(border.Draw(kNaN, kRow2), Texel(0, 2));
}

TEST(CpuTextureExtremeCoords, BilinearWeightOfInfinityAndNaNIsZero) {
  // The texture unit weighs in fixed point (gpu::BilinearWeight): +-inf is held like +-1e30
  // (footprint at the held index, weight 0) and NaN is texel 0 with weight 0, where the float
  // fraction inf - floor(inf) would be NaN and so would the texel (0 bytes in this target).
  const float inf = std::numeric_limits<float>::infinity();
  ExtremeRig linear(xenos::ClampMode::kClampToEdge, true);
  EXPECT_EQ(linear.Draw(inf, kRow2), Texel(63, 2));
  EXPECT_EQ(linear.Draw(-inf, kRow2), Texel(0, 2));
  EXPECT_EQ(linear.Draw(kColumn5, -inf), Texel(5, 0));
  EXPECT_EQ(linear.Draw(kColumn5, inf), Texel(5, 63));
  EXPECT_EQ(linear.Draw(kNaN, kRow2), Texel(0, 2));
  EXPECT_EQ(linear.Draw(kColumn5, kNaN), Texel(5, 0));
  // Repeat: -2^30 is a multiple of 64, so -inf reads texel 0 and its right-hand neighbour
  // with weight 0.
  ExtremeRig repeat(xenos::ClampMode::kRepeat, true);
  EXPECT_EQ(repeat.Draw(-inf, kRow2), Texel(0, 2));
  // Border: -2^30 and its neighbour are outside: the border colour (0).
  ExtremeRig border(xenos::ClampMode::kClampToBorder, true);
  EXPECT_EQ(border.Draw(-inf, kRow2), 0u);
}

}  // namespace
}  // namespace xnt::cpu
