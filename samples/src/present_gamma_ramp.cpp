// present_gamma_ramp: the display's 256-entry gamma table, written the way Direct3D's
// VdSetDisplayGamma path does (DC_LUT_RW_MODE 0, DC_LUT_WRITE_EN_MASK 7, DC_LUT_RW_INDEX 0, then
// red, green, blue of each entry through DC_LUT_SEQ_COLOR, 16-bit values whose bits 5:0 the port
// drops, the index advancing after blue), changes what scan-out shows, not the front buffer.
// Red is inverted (1023 - i * 1023 / 255), green squared (i^2 * 1023 / 255^2), blue brightened
// (i * 1023 / 255 + 100, at most 1023); scan-out rounds the 10-bit result to 8 bits as
// (v * 255 + 511) / 1023.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "edram_scenarios.h"
#include "edram_scene_builder.h"

namespace xnt::samples {

namespace {

using namespace edram_scene;

constexpr uint32_t kWidth = 64, kHeight = 32;
constexpr std::array<uint8_t, 4> kBackground = {16, 24, 32, 255};
constexpr std::array<std::array<uint8_t, 4>, 4> kBars = {{{255, 0, 0, 255},
                                                          {0, 255, 0, 255},
                                                          {40, 128, 200, 255},
                                                          {200, 100, 30, 255}}};

uint32_t Ramp10(uint32_t channel, uint32_t i) {
  const uint32_t linear = i * 1023 / 255;
  if (channel == 0) return 1023 - linear;
  if (channel == 1) return i * i * 1023 / (255 * 255);
  return std::min(1023u, linear + 100);
}

uint8_t ScanOut(uint32_t channel, uint8_t value) {
  return uint8_t((Ramp10(channel, value) * 255 + 511) / 1023);
}

Rect Bar(uint32_t n) {
  // Rows 4 + 6n .. 4 + 6n + 3 (edges at k - 0.25 / k + 0.75), columns 8..55.
  const float top = 4.0f + 6.0f * float(n);
  const auto& c = kBars[n];
  return Rect{7.75f, top - 0.25f, 55.75f, top + 3.75f, 0.0f, C8(c[0], c[1], c[2])};
}

void Build(SceneBuilder& s) {
  RenderTargetSetup rt;
  rt.surface_pitch = kWidth;
  s.Target(rt, kWidth, kHeight);
  s.Resolve(ResolveOpts{.width = kWidth, .height = kHeight, .clear_color = true,
                        .clear_color_value = Packed8888(kBackground)});
  for (uint32_t n = 0; n < kBars.size(); ++n) s.Draw(Bar(n));
  s.Record([](Pm4Builder& b) {
    b.WriteRegister(Reg::DC_LUT_RW_MODE, 0);
    b.WriteRegister(Reg::DC_LUT_WRITE_EN_MASK, 7);
    b.WriteRegister(Reg::DC_LUT_RW_INDEX, 0);
    for (uint32_t i = 0; i < 256; ++i) {
      for (uint32_t c = 0; c < 3; ++c) b.WriteRegister(Reg::DC_LUT_SEQ_COLOR, Ramp10(c, i) << 6);
    }
  });
  s.Present(kFrontA, kWidth, kHeight);
}

std::vector<Image> Frames() {
  auto through = [](const std::array<uint8_t, 4>& c) {
    return std::array<uint8_t, 4>{ScanOut(0, c[0]), ScanOut(1, c[1]), ScanOut(2, c[2]), 255};
  };
  Image img = Fill(kWidth, kHeight, through(kBackground));
  for (uint32_t n = 0; n < kBars.size(); ++n) Paint(img, Bar(n), through(kBars[n]));
  return {img};
}

}  // namespace

std::vector<EdramScenario> GammaRampScenarios() {
  return {{MakeSample("present_gamma_ramp",
                      "The display's 256-entry gamma table written through DC_LUT_SEQ_COLOR "
                      "(red inverted, green squared, blue brightened) before the swap: scan-out "
                      "applies it to the front buffer",
                      "64x32: background (16,24,32) shown as (239,2,57); bars in rows 4..7, "
                      "10..13, 16..19, 22..25, columns 8..55: red (255,0,0) -> (0,0,25), green "
                      "(0,255,0) -> (255,255,25), (40,128,200) -> (215,64,225), (200,100,30) -> "
                      "(55,39,55). All pixels exact.",
                      Build, Frames),
           Frames, 0, "one colour target", ""}};
}

}  // namespace xnt::samples
