// The cpu path's output merger on EDRAM guest bits, against values worked out by hand: stencil
// ops through the write mask, the stencil-then-depth order, depth at the stored 24-bit
// precision, source-alpha blending into k_8_8_8_8, and PWL-gamma targets blended in linear space
// (what the hardware does; blending the encoded values would saturate).
#include <gtest/gtest.h>

#include <bit>
#include <limits>
#include <map>

#include "output_merger.h"
#include "xnt/replay/register_file.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu {
namespace {

using xenos::Reg;
namespace edram = gpu::edram;

struct Rig {
  replay::RegisterFile regs;
  edram::Edram ram;
  std::map<std::string, uint64_t> notes;
  edram::Surface color, depth;
  Rig(xenos::ColorRenderTargetFormat color_format) {
    regs.Set(Reg::RB_SURFACE_INFO, 80);  // pitch 80, 1x
    regs.Set(Reg::RB_COLOR_INFO, uint32_t(color_format) << 16);  // base tile 0
    regs.Set(Reg::RB_DEPTH_INFO, 4);  // base tile 4, kD24S8
    regs.Set(Reg::RB_COLOR_MASK, 0xF);
    regs.Set(Reg::RB_BLENDCONTROL0, 0x00010001);  // one * src + zero * dst
    color.pitch_pixels = depth.pitch_pixels = 80;
    color.format = uint32_t(color_format);
    depth.base_tiles = 4;
    depth.is_depth = true;
  }
  OutputMerger Make() {
    const bool used[4] = {true, false, false, false};
    return OutputMerger(regs.values(), ram, used, true, notes);
  }
};

uint32_t DepthControl(bool stencil, bool z, bool z_write, uint32_t zfunc, uint32_t sfunc,
                      uint32_t fail, uint32_t zpass, uint32_t zfail) {
  return uint32_t(stencil) | (uint32_t(z) << 1) | (uint32_t(z_write) << 2) | (zfunc << 4) |
         (sfunc << 8) | (fail << 11) | (zpass << 14) | (zfail << 17);
}

TEST(CpuOutputMerger, StencilReplaceGoesThroughTheWriteMask) {
  Rig r(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  // Stencil ALWAYS, zpass REPLACE; ref 0x5A, write mask 0x0F; no depth test.
  r.regs.Set(Reg::RB_DEPTHCONTROL, DepthControl(true, false, false, 7, 7, 0, 2, 0));
  r.regs.Set(Reg::RB_STENCILREFMASK, 0x5A | (0xFF << 8) | (0x0F << 16));
  r.ram.Store(r.depth, 3, 2, 0, (0x123456u << 8) | 0xF0);
  OutputMerger om = r.Make();
  EXPECT_EQ(om.DepthStencilTest(3, 2, 1, {0.9f}, true), 1u);
  // (0xF0 & ~0x0F) | (0x5A & 0x0F) = 0xFA; the depth bits stay.
  EXPECT_EQ(r.ram.Load(r.depth, 3, 2, 0), (0x123456u << 8) | 0xFA);
}

TEST(CpuOutputMerger, StencilFailsBeforeDepthAndDepthFailRunsZfail) {
  Rig r(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  // Stencil EQUAL ref 3 (fail: INCR_CLAMP), depth LESS with writes (zfail: DECR_WRAP).
  r.regs.Set(Reg::RB_DEPTHCONTROL, DepthControl(true, true, true, 1, 2, 3, 0, 7));
  r.regs.Set(Reg::RB_STENCILREFMASK, 3 | (0xFF << 8) | (0xFF << 16));
  const uint32_t half = 0x800000;  // unorm24 0.5 (8388608 / 16777215)
  r.ram.Store(r.depth, 0, 0, 0, (half << 8) | 2);  // stencil 2: fails EQUAL 3
  r.ram.Store(r.depth, 1, 0, 0, (half << 8) | 3);  // stencil passes; depth 0.75 fails LESS
  r.ram.Store(r.depth, 2, 0, 0, (half << 8) | 3);  // both pass at depth 0.25
  OutputMerger om = r.Make();
  EXPECT_EQ(om.DepthStencilTest(0, 0, 1, {0.25f}, true), 0u);
  EXPECT_EQ(r.ram.Load(r.depth, 0, 0, 0), (half << 8) | 3);  // incremented, depth untouched
  EXPECT_EQ(om.DepthStencilTest(1, 0, 1, {0.75f}, true), 0u);
  EXPECT_EQ(r.ram.Load(r.depth, 1, 0, 0), (half << 8) | 2);  // decremented (zfail)
  EXPECT_EQ(om.DepthStencilTest(2, 0, 1, {0.25f}, true), 1u);
  // 0.25 * 16777215 = 4194303.75 -> 4194304 (0x400000), stencil kept (zpass KEEP).
  EXPECT_EQ(r.ram.Load(r.depth, 2, 0, 0), (0x400000u << 8) | 3);
}

TEST(CpuOutputMerger, SourceAlphaBlendInto8888) {
  Rig r(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  // colour and alpha: src_alpha * src + (1 - src_alpha) * dst.
  r.regs.Set(Reg::RB_BLENDCONTROL0, 6 | (7 << 8) | (6 << 16) | (7 << 24));
  r.ram.Store(r.color, 5, 5, 0, 0xFFFF0000u);  // dst (0, 0, 1, 1)
  OutputMerger om = r.Make();
  om.WriteColors(5, 5, 1, {ucode::Float4{1.0f, 0.0f, 0.0f, 0.5f}});
  // (0.5, 0, 0.5, 0.75): 0.5 * 255 + 0.5 = 128 (0x80); 0.75 * 255 + 0.5 = 191.75 -> 0xBF.
  EXPECT_EQ(r.ram.Load(r.color, 5, 5, 0), 0xBF800080u);
}

TEST(CpuOutputMerger, PwlGammaTargetBlendsInLinearSpace) {
  Rig r(xenos::ColorRenderTargetFormat::k_8_8_8_8_GAMMA);
  r.regs.Set(Reg::RB_BLENDCONTROL0, 1 | (1 << 8) | (1 << 16) | (1 << 24));  // one + one
  // Stored gamma 128: PWL segment [96, 192): 128 * 4 - 256 = 256, + trunc(256 * 4 / 1024) = 257
  // -> linear 257 / 1023. Adding the same again: 514 / 1023, whose 10-bit value 514 is in the
  // top segment: (514 + 1024) / 8 = 192.25 -> gamma 192 (0xC0). Blending the encoded values
  // would give 128 + 128 = 255.
  r.ram.Store(r.color, 0, 0, 0, 0xFF000080u);
  OutputMerger om = r.Make();
  om.WriteColors(0, 0, 1, {ucode::Float4{257.0f / 1023.0f, 0.0f, 0.0f, 0.0f}});
  EXPECT_EQ(r.ram.Load(r.color, 0, 0, 0) & 0xFFu, 0xC0u);
}

TEST(CpuOutputMerger, WriteMaskKeepsTheMaskedComponentsBits) {
  Rig r(xenos::ColorRenderTargetFormat::k_2_10_10_10);
  r.regs.Set(Reg::RB_COLOR_MASK, 0x5);  // R and B only
  r.ram.Store(r.color, 1, 1, 0, 0xFFFFFFFFu);
  OutputMerger om = r.Make();
  om.WriteColors(1, 1, 1, {ucode::Float4{0.0f, 0.0f, 0.0f, 0.0f}});
  // R (bits 9:0) and B (29:20) cleared; G (19:10) and A (31:30) kept.
  EXPECT_EQ(r.ram.Load(r.color, 1, 1, 0), 0xC00FFC00u);
}

TEST(CpuOutputMerger, BatchOfPixelsStoresWhatWriteColorsStores) {
  // k_8_8_8_8, exponent bias +1 (x2), no blending: the batch path (one call for 32 lanes).
  Rig r(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  r.regs.Set(Reg::RB_COLOR_INFO, (uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8) << 16) |
                                     (1u << 20));
  OutputMerger om = r.Make();
  ASSERT_EQ(om.batch_target(), 0);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::array<std::array<ucode::Float4, 4>, OutputMerger::kBatchLanes> colors{};
  // Lane 0: x2 gives (1.0, 0.5, 0.25, -0.5): 255; 0.5 * 255 + 0.5 = 128; 64.25 -> 64; 0.
  colors[0][0] = {0.5f, 0.25f, 0.125f, -0.25f};
  // Lane 1: NaN and -0 store 0, +inf 255; 0.0039 x2 = 0.0078: 1.989 + 0.5 -> 2.
  colors[1][0] = {nan, -0.0f, inf, 0.0039f};
  // Lane 2 is not written (a killed or uncovered lane); lane 3 writes the same pixel as lane 0
  // after it: (2, 0.25, 0, 0.5) x2 = (4 clamped to 1, 0.5, 0, 1): 255, 128, 0, 255.
  colors[2][0] = {1.0f, 1.0f, 1.0f, 1.0f};
  colors[3][0] = {2.0f, 0.25f, 0.0f, 0.5f};
  const uint32_t xs[4] = {2, 3, 4, 2}, ys[4] = {1, 1, 1, 1};
  const uint8_t write[4] = {1, 1, 0, 1};
  r.ram.Store(r.color, 4, 1, 0, 0x12345678u);
  om.WriteColorsBatch(4, xs, ys, write, colors.data());
  EXPECT_EQ(r.ram.Load(r.color, 2, 1, 0), 0xFF0080FFu);  // lane 3 replaced lane 0's 0x004080FF
  EXPECT_EQ(r.ram.Load(r.color, 3, 1, 0), 0x02FF0000u);
  EXPECT_EQ(r.ram.Load(r.color, 4, 1, 0), 0x12345678u);  // lane 2 kept the stored bits
  // The same values one pixel at a time give the same bits.
  om.WriteColors(5, 1, 1, colors[0]);
  om.WriteColors(6, 1, 1, colors[1]);
  EXPECT_EQ(r.ram.Load(r.color, 5, 1, 0), 0x004080FFu);
  EXPECT_EQ(r.ram.Load(r.color, 6, 1, 0), 0x02FF0000u);
}

TEST(CpuOutputMerger, BatchPathOnlyWithoutTestsBlendingOrMasks) {
  Rig blend(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  blend.regs.Set(Reg::RB_BLENDCONTROL0, 6 | (7 << 8) | (6 << 16) | (7 << 24));
  EXPECT_EQ(blend.Make().batch_target(), -1);
  Rig mask(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  mask.regs.Set(Reg::RB_COLOR_MASK, 0x7);
  EXPECT_EQ(mask.Make().batch_target(), -1);
  Rig depth(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  depth.regs.Set(Reg::RB_DEPTHCONTROL, DepthControl(false, true, true, 1, 7, 0, 0, 0));
  EXPECT_EQ(depth.Make().batch_target(), -1);
  Rig other(xenos::ColorRenderTargetFormat::k_2_10_10_10);
  EXPECT_EQ(other.Make().batch_target(), -1);
}

TEST(CpuOutputMerger, AlphaToMaskThresholdsAndDitherOffsets) {
  Rig r(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  // 4x MSAA; alpha to mask on with offsets (pixel (0,0), (0,1), (1,0), (1,1)) = 0, 1, 2, 3.
  r.regs.Set(Reg::RB_SURFACE_INFO, 80 | (2u << 16));
  r.regs.Set(Reg::RB_COLORCONTROL, 7u | (1u << 4) | (0u << 24) | (1u << 26) | (2u << 28) | (3u << 30));
  OutputMerger om = r.Make();
  ASSERT_TRUE(om.alpha_to_mask());
  // Offset 0 at (0,0): thresholds 0.75, 0.25, 0.5, 1.0 for samples 0-3.
  EXPECT_EQ(om.AlphaToMask(0, 0, 0.2f), 0x0u);
  EXPECT_EQ(om.AlphaToMask(0, 0, 0.25f), 0x2u);
  EXPECT_EQ(om.AlphaToMask(0, 0, 0.6f), 0x6u);
  EXPECT_EQ(om.AlphaToMask(0, 0, 0.75f), 0x7u);
  EXPECT_EQ(om.AlphaToMask(0, 0, 1.0f), 0xFu);
  // Offset 2 at (1,0) lowers each threshold by 2/16: 0.625, 0.125, 0.375, 0.875.
  EXPECT_EQ(om.AlphaToMask(1, 0, 0.125f), 0x2u);
  EXPECT_EQ(om.AlphaToMask(1, 0, 0.875f), 0xFu);
  // Offset 3 at (1,1) (and at (3,5), the same quad position): 1.0 - 3/16 = 0.8125 for sample 3.
  EXPECT_EQ(om.AlphaToMask(1, 1, 0.8125f), 0xFu);
  EXPECT_EQ(om.AlphaToMask(3, 5, 0.8f), 0x7u);
  // Offset 1 at (0,1): 0.6875 covers sample 0 (0.75 - 1/16) but 0.68 does not.
  EXPECT_EQ(om.AlphaToMask(0, 1, 0.6875f), 0x7u);
  EXPECT_EQ(om.AlphaToMask(0, 1, 0.68f), 0x6u);
  EXPECT_EQ(om.AlphaToMask(0, 0, std::numeric_limits<float>::quiet_NaN()), 0x0u);
  // 1x: one threshold, 1.0 - offset / 4.
  r.regs.Set(Reg::RB_SURFACE_INFO, 80);
  OutputMerger one = r.Make();
  EXPECT_EQ(one.AlphaToMask(1, 0, 0.5f), 0x1u);   // offset 2: 0.5
  EXPECT_EQ(one.AlphaToMask(0, 0, 0.99f), 0x0u);  // offset 0: 1.0
}

}  // namespace
}  // namespace xnt::cpu
