// Texture LOD for point sprites and lines on the cpu path: the hardware shades every primitive in
// 2x2 quads, so a point sprite's or a line's pixels have screen derivatives like a triangle's
// (helpers beside the covered pixels continue the sprite coordinate's or the line's attribute
// plane). A 64x64 k_8_8_8_8 texture with a red level 0, green level 1 and blue level 2 (nearest
// mip, point filters): a coordinate that moves 1/s per pixel gives rho = 64/s texels per pixel,
// lambda = log2(64/s): level 0 for s = 64, 1 for s = 32, 2 for s = 16.
#include <gtest/gtest.h>

#include "texture_rig.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::cpu::point_line_lod_test {
namespace {

using test::kTextureBase;
using test::kTextureMips;

constexpr uint32_t kRed = 0xFF0000FFu, kGreen = 0xFF00FF00u, kBlue = 0xFFFF0000u;

struct PrimitiveLodRig : test::TextureRig {
  // Points: the sprite coordinate from param gen's z/w (r1 here); lines: interpolator r0.
  ucode::Shader point_ps = test::TfetchPs("r1.zw");
  ucode::Shader line_ps = test::TfetchPs("r0.xy");

  PrimitiveLodRig() {
    // Uniform levels. Without packed mips every mip storage is 32x32 blocks with 256-byte rows
    // (texture_descriptor.cpp): level 1 at kTextureMips, level 2 at kTextureMips + 8 KiB.
    std::vector<uint8_t> red(64 * 64 * 4), mips(0x4000);
    for (size_t i = 0; i < red.size(); i += 4) red[i] = 0xFF, red[i + 3] = 0xFF;
    for (size_t i = 0; i < mips.size(); i += 4) {
      mips[i + (i < 0x2000 ? 1 : 2)] = 0xFF;
      mips[i + 3] = 0xFF;
    }
    memory.Write(kTextureBase, red);
    memory.Write(kTextureMips, mips);
    std::array<uint32_t, 6> fetch = Fetch();
    fetch[3] &= ~(0x3Fu << 19);                    // mag, min, mip point
    fetch[4] = (fetch[4] & ~0x3FCu) | (2u << 6);   // mip levels 0..2
    fetch[5] = (fetch[5] & 0xFFFu) | (kTextureMips >> 12 << 12);
    SetTexture(fetch);
  }

  // A job over the whole screen with no triangles; the test adds points or lines.
  PixelJob Job(const ucode::Shader& ps) {
    PixelJob job = TextureRig::Job(ps);
    job.triangles = &no_triangles;
    return job;
  }

  // A sprite of `size` pixels centred on (64.25, 64.25); returns pixel (64, 64).
  uint32_t Point(float size) {
    std::vector<PointSprite> points(1);
    points[0].vertex.pos = {64.25, 64.25, 0.5, 1.0};
    points[0].size = points[0].height = size;
    PixelJob job = Job(point_ps);
    job.points = &points;
    job.param_gen_register = 1;
    RunPixels(job, 1);
    return Pixel(64, 64);
  }

  // A horizontal line (1 pixel wide, row 8) from x = 4 to 4 + length with u 0..1; returns
  // pixel (8, 8).
  uint32_t Line(double length) {
    auto v = [](double x, float u) {
      ClipVertex c;
      c.pos = {x, 8.25, 0.5, 1.0};
      c.interpolators[0] = {u, 0.5f, 0.0f, 0.0f};
      return c;
    };
    std::vector<cpu::Line> lines = {{v(4.0, 0.0f), v(4.0 + length, 1.0f)}};
    PixelJob job = Job(line_ps);
    job.lines = &lines;
    RunPixels(job, 1);
    return Pixel(8, 8);
  }

  std::vector<Triangle> no_triangles;
};

TEST(CpuPrimitiveLod, PointSpriteLevelFollowsItsSize) {
  // The sprite coordinate moves 1/size per pixel: rho = 64/size.
  EXPECT_EQ(PrimitiveLodRig().Point(64.0f), kRed);    // lambda 0
  EXPECT_EQ(PrimitiveLodRig().Point(32.0f), kGreen);  // lambda 1
  EXPECT_EQ(PrimitiveLodRig().Point(16.0f), kBlue);   // lambda 2
  EXPECT_EQ(PrimitiveLodRig().Point(8.0f), kBlue);    // lambda 3, clamped to mip_max_level 2
}

TEST(CpuPrimitiveLod, LineLevelFollowsItsLength) {
  // u moves 1/length per pixel along the line and not at all across it: rho = 64/length.
  EXPECT_EQ(PrimitiveLodRig().Line(64.0), kRed);
  EXPECT_EQ(PrimitiveLodRig().Line(32.0), kGreen);
  EXPECT_EQ(PrimitiveLodRig().Line(16.0), kBlue);
}

TEST(CpuPrimitiveLod, DivergedBatchKeepsItsQuadsDerivatives) {
  // A 32x32 square with u, v 0..1 (rho 2: level 1, green) whose pixel shader jumps on p0 before
  // its fetch, p0 = r0.z > 0 with z = 7.5 - x at the pixel centres: columns 0..7 jump, 8..31
  // do not (a jump the batch cannot take as one). A batch (32 lanes: 8 quads of rows 0-1, x 0..15) then
  // diverges, but no 2x2 quad does (quads start at even x): each quad is shaded again on its
  // own and keeps its derivatives, so every pixel reads level 1.
  PrimitiveLodRig rig;
  const ucode::Shader ps = ucode::Decode(ucode::Assemble(R"(xps_3_0
    exec
    setp_gt r2.x, r0.z
    (p0) jmp Lfetch
    exec
    mov r3, r0
Lfetch:
    exec
    tfetch2D r1, r0.xy, tf0
    alloc colors
    exece
    mov oC0, r1
)"),
                                         ucode::ShaderType::kPixel);
  auto v = [](double x, double y, float u, float w) {
    ClipVertex c;
    c.pos = {x, y, 0.5, 1.0};
    c.interpolators[0] = {u, w, float(8.0 - x), 0.0f};
    return c;
  };
  std::vector<Triangle> tris = {{v(0, 0, 0, 0), v(32, 0, 1, 0), v(0, 32, 0, 1)},
                                {v(32, 0, 1, 0), v(32, 32, 1, 1), v(0, 32, 0, 1)}};
  PixelJob job = rig.Job(ps);
  job.triangles = &tris;
  job.state.never_cull = true;
  const PixelStats stats = RunPixels(job, 1);
  EXPECT_GT(stats.diverged_batches, 0u);
  EXPECT_EQ(rig.Pixel(2, 2), kGreen);    // p0 true
  EXPECT_EQ(rig.Pixel(12, 2), kGreen);   // p0 false, same batch
  EXPECT_EQ(rig.Pixel(20, 20), kGreen);  // a batch that agrees
  for (const std::string& note : stats.notes) {
    EXPECT_EQ(note.find("without its 2x2 quad"), std::string::npos) << note;
  }
}

TEST(CpuPrimitiveLod, PointQuadsCarryHelpers) {
  // A 1-pixel sprite at (10.25, 21.25) covers pixel (10, 21) only: with quads it is emitted
  // with its three quad neighbours (10..11 x 20..21) as helpers whose sprite coordinate
  // continues the plane (1 / size per pixel).
  PointSprite p;
  p.vertex.pos = {10.25, 21.25, 0.5, 1.0};
  p.size = p.height = 1.0f;
  RasterState state;
  state.x0 = 0, state.y0 = 0, state.x1 = 64, state.y1 = 64;
  state.quads = true;
  std::vector<Fragment> out;
  RasterizePoint(p, state, [&](const Fragment& f) { out.push_back(f); });
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].x, 10u);
  EXPECT_EQ(out[0].y, 20u);
  EXPECT_TRUE(out[0].helper);
  EXPECT_FALSE(out[2].helper);  // (10, 21)
  EXPECT_EQ(out[2].coverage, 1u);
  EXPECT_TRUE(out[1].helper && out[3].helper);
  // Sprite [9.75, 10.75) x [20.75, 21.75): (10.5 - 9.75) / 1 = 0.75; the helper at x = 11: 1.75.
  EXPECT_FLOAT_EQ(out[2].point_coord[0], 0.75f);
  EXPECT_FLOAT_EQ(out[3].point_coord[0], 1.75f);
  EXPECT_FLOAT_EQ(out[0].point_coord[1], -0.25f);
}

}  // namespace
}  // namespace xnt::cpu::point_line_lod_test
