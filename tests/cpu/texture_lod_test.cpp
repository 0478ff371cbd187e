// Mip selection on the cpu path, against values worked out by hand: a 64x64 k_8_8_8_8 texture
// whose level 0 is red and level 1 green, drawn on screen squares of different sizes with
// texture coordinates 0..1. The batched interpreter shades 2x2 quads, so a tfetch has the
// coordinates' derivatives: d(u)/dx = 1 / size, rho = 64 / size texels per pixel, lambda =
// log2(rho) + biases, clamped to the fetch constant's mip range.
#include <gtest/gtest.h>

#include "pixel_stage.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu {
namespace {

using xenos::Reg;

constexpr uint32_t kBase = 0x00100000, kMips = 0x00200000;

struct LodRig {
  replay::RegisterFile regs;
  replay::GuestMemory memory;
  gpu::edram::Edram edram;
  ucode::InterpreterConstants constants{};
  ucode::Shader ps = ucode::Decode(
      ucode::Assemble("xps_3_0\n    exec\n    tfetch2D r0, r0.xy, tf0\n    alloc colors\n"
                      "    exece\n    mov oC0, r0\n"),
      ucode::ShaderType::kPixel);

  // mip_filter: 0 point, 1 linear; lod_bias in 1/32.
  LodRig(uint32_t mip_filter, int32_t lod_bias) {
    // Uniform levels: the layout inside each level does not matter. Linear, no endian swap:
    // memory bytes R, G, B, A.
    std::vector<uint8_t> red(64 * 64 * 4), green(0x10000);
    for (size_t i = 0; i < red.size(); i += 4) red[i] = 0xFF, red[i + 3] = 0xFF;
    for (size_t i = 0; i < green.size(); i += 4) green[i + 1] = 0xFF, green[i + 3] = 0xFF;
    memory.Write(kBase, red);
    memory.Write(kMips, green);
    std::array<uint32_t, 6> fetch = capture::TextureFetch2D(
        kBase, 64, 64, xenos::TextureFormat::k_8_8_8_8, false, xenos::Endian::kNone);
    fetch[3] &= ~(0x3Fu << 19);  // mag, min point
    fetch[3] |= mip_filter << 23;
    fetch[4] = (fetch[4] & ~0x3FFFFCu) | (0u << 2) | (1u << 6) |
               ((uint32_t(lod_bias) & 0x3FF) << 12);  // mip levels 0..1, LOD bias
    fetch[5] = (fetch[5] & 0xFFFu) | (kMips >> 12 << 12);
    // The texture unit reads the register file; the interpreter applies the swizzle from its
    // copy of the constants.
    for (uint32_t i = 0; i < 6; ++i) {
      regs.Set(xenos::kFetchConstantBase + i, fetch[i]);
      constants.fetch_constants[i] = fetch[i];
    }
    regs.Set(Reg::RB_SURFACE_INFO, 128);
    regs.Set(Reg::RB_COLOR_INFO, uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8) << 16);
    regs.Set(Reg::RB_COLOR_MASK, 0xF);
    regs.Set(Reg::RB_BLENDCONTROL0, 0x00010001);
  }

  // Draws a size x size square at the origin with u, v 0..1; returns pixel (2, 2) as RGBA bytes.
  uint32_t Draw(double size) {
    auto v = [](double x, double y, float u, float w) {
      ClipVertex c;
      c.pos = {x, y, 0.5, 1.0};
      c.interpolators[0] = {u, w, 0.0f, 0.0f};
      return c;
    };
    std::vector<Triangle> tris = {{v(0, 0, 0, 0), v(size, 0, 1, 0), v(0, size, 0, 1)},
                                  {v(size, 0, 1, 0), v(size, size, 1, 1), v(0, size, 0, 1)}};
    PixelJob job;
    job.triangles = &tris;
    job.state.x0 = 0, job.state.y0 = 0, job.state.x1 = 128, job.state.y1 = 128;
    job.state.interpolator_count = 1;
    job.state.never_cull = true;
    job.pixel_shader = &ps;
    job.pixel_constants = &constants;
    job.registers = &regs;
    job.memory = &memory;
    job.edram = &edram;
    job.color_used[0] = true;
    RunPixels(job, 1);
    gpu::edram::Surface s;
    s.pitch_pixels = 128;
    s.format = uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8);
    return uint32_t(edram.Load(s, 2, 2, 0));
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
