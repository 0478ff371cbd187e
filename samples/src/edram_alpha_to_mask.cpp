// edram_alpha_to_mask: RB_COLORCONTROL alpha_to_mask_enable, the Xenos alpha-to-coverage. Each
// sample of a pixel passes when oC0's alpha reaches its threshold, lowered by the dither offset
// of the pixel's place in its 2x2 quad (alpha_to_mask_offset0..3 for the pixels (0,0), (0,1),
// (1,0), (1,1), x the high bit): threshold = base - offset / (4 * samples), base 3/4, 1/4, 1/2,
// 1 for 4x samples 0..3 and 1 at 1x (renderer/cpu/src/output_merger.cpp AlphaToMask has the
// sources). alpha >= threshold covers the sample.
//
// Frame 0, a 4x MSAA k_8_8_8_8 target (tile 0): 8 columns of 8x8-pixel blocks, one alpha each
// (0, 1/8, 1/4, 3/8, 1/2, 11/16, 13/16, 1: dyadic, several equal to a threshold so the >=
// counts), over 4 rows with the offsets 0,0,0,0 / 2,2,2,2 / 3,1,0,2 / 0,1,2,3. The draws write
// red 252/255 (RGB only, the clear's alpha stays) over a black clear, and the present averages
// the four samples (copy_sample_select 0123): red = 252 * k / 4 = 63 k for k covered samples,
// exact whatever the averaging rounds. Frame 1, the same blocks at 1x (tile 16): a pixel is
// drawn (red 252) when alpha >= 1 - offset / 4. Frame 2, at 2x (tile 24; thresholds 1/2 and 1
// minus offset / 8), presented averaging both samples (copy_sample_select 01): red = 126 k. Block
// edges lie on whole pixels on screen, so no pixel is partly covered by the geometry.
#include <array>
#include <string>
#include <vector>

#include "edram_scenarios.h"
#include "edram_scene_builder.h"

namespace xnt::samples {

namespace {

using namespace edram_scene;

constexpr uint32_t kWidth = 64, kHeight = 32, kBlock = 8;
constexpr float kAlpha[8] = {0.0f, 0.125f, 0.25f, 0.375f, 0.5f, 0.6875f, 0.8125f, 1.0f};
constexpr uint32_t kOffsets[4][4] = {{0, 0, 0, 0}, {2, 2, 2, 2}, {3, 1, 0, 2}, {0, 1, 2, 3}};
constexpr uint8_t kRed = 252;

uint32_t ColorControl(const uint32_t (&offsets)[4]) {
  // alpha_func always (7), alpha test off, alpha_to_mask_enable (bit 4), offsets from bit 24.
  uint32_t v = 7u | (1u << 4);
  for (uint32_t q = 0; q < 4; ++q) v |= offsets[q] << (24 + 2 * q);
  return v;
}

// Samples of pixel (x, y) the rule covers, out of `samples`.
uint32_t Covered(uint32_t x, uint32_t y, uint32_t samples) {
  const uint32_t col = x / kBlock, row = y / kBlock;
  const uint32_t offset = kOffsets[row][((x & 1u) << 1) | (y & 1u)];
  static constexpr double k4[4] = {0.75, 0.25, 0.5, 1.0};
  uint32_t n = 0;
  for (uint32_t s = 0; s < samples; ++s) {
    static constexpr double k2[2] = {0.5, 1.0};
    const double base = samples == 4 ? k4[s] : samples == 2 ? k2[s] : 1.0;
    if (double(kAlpha[col]) >= base - double(offset) / (4.0 * samples)) ++n;
  }
  return n;
}

void DrawBlocks(SceneBuilder& s) {
  s.ColorMask(0x7u);
  for (uint32_t row = 0; row < 4; ++row) {
    s.Record([row](Pm4Builder& b) {
      b.WriteRegister(Reg::RB_COLORCONTROL, ColorControl(kOffsets[row]));
    });
    for (uint32_t col = 0; col < 8; ++col) {
      // Authored positions are half a pixel left/up of the screen (Direct3D's pixel-centre
      // offset): the screen edges fall on x = 8 col, 8 col + 8.
      const float x0 = float(col * kBlock) - 0.5f, x1 = x0 + float(kBlock);
      const float y0 = float(row * kBlock) - 0.5f, y1 = y0 + float(kBlock);
      s.DrawFlat({{x0, y0, 0.0f}, {x1, y0, 0.0f}, {x0, y1, 0.0f}, {x1, y1, 0.0f}},
                 Rgba{float(kRed) / 255.0f, 0.0f, 0.0f, kAlpha[col]},
                 xenos::PrimitiveType::kTriangleStrip);
    }
  }
}

void Build(SceneBuilder& s) {
  for (const uint32_t samples : {4u, 1u, 2u}) {
    RenderTargetSetup rt;
    rt.surface_pitch = kWidth;
    rt.color_base_tiles = samples == 4 ? 0 : samples == 1 ? 16 : 24;
    if (samples == 4) rt.msaa = xenos::MsaaSamples::k4X;
    if (samples == 2) rt.msaa = xenos::MsaaSamples::k2X;
    s.Target(rt, kWidth, kHeight);
    s.ColorMask(0xFu);
    s.Resolve(ResolveOpts{.width = kWidth, .height = kHeight, .clear_color = true,
                          .clear_color_value = Packed8888({0, 0, 0, 255})});
    DrawBlocks(s);
    ResolveOpts present;
    present.width = kWidth;
    present.height = kHeight;
    present.sample_select = uint32_t(samples == 4   ? xenos::CopySampleSelect::k0123
                                     : samples == 2 ? xenos::CopySampleSelect::k01
                                                    : xenos::CopySampleSelect::k0);
    present.dest = kFrontA;
    s.Resolve(present);
    s.Swap(kFrontA, kWidth, kHeight);
  }
}

std::vector<Image> Frames() {
  std::vector<Image> frames;
  for (const uint32_t samples : {4u, 1u, 2u}) {
    Image img = Fill(kWidth, kHeight, {0, 0, 0, 255});
    for (uint32_t y = 0; y < kHeight; ++y) {
      for (uint32_t x = 0; x < kWidth; ++x) {
        img.rgba[(size_t(y) * kWidth + x) * 4] = uint8_t(kRed * Covered(x, y, samples) / samples);
      }
    }
    frames.push_back(img);
  }
  return frames;
}

}  // namespace

std::vector<EdramScenario> AlphaToMaskScenarios() {
  return {{MakeSample(
               "edram_alpha_to_mask",
               "RB_COLORCONTROL alpha_to_mask_enable with the four dither offsets, at 4x MSAA "
               "and 2x (resolved averaging the samples) and at 1x",
               "Three 64x32 frames of 8x8 blocks on black: columns of alpha 0, 1/8, 1/4, 3/8, 1/2, "
               "11/16, 13/16, 1; rows of offsets 0000, 2222, 3102, 0123. Frame 0 (4x): red = 63 "
               "times the samples covered (threshold 3/4, 1/4, 1/2, 1 minus offset/16): row 0 "
               "reads 0, 0, 63, 63, 126, 126, 189, 252 across; the dithered rows alternate per "
               "pixel. Frame 1 (1x): red 252 where alpha >= 1 - offset/4, else black (row 1: "
               "columns 4..7). Frame 2 (2x): red = 126 times the samples covered (1/2, 1 minus "
               "offset/8). All pixels exact.",
               Build, Frames),
           Frames, 0, "the 4x, 1x and 2x targets use their own tiles", ""}};
}

}  // namespace xnt::samples
