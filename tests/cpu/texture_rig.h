// What the cpu path's texture tests (texture_lod_test, texture_aniso_test, point_line_lod_test)
// draw with: a 64x64 k_8_8_8_8 2D texture in fetch constant 0 (level 0 at kTextureBase, its mips
// at kTextureMips), a 128-pixel-wide k_8_8_8_8 colour target in EDRAM, and pixel jobs that shade
// 1 interpolator with one tfetch2D. Each test fills the levels and edits the fetch constant.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "pixel_stage.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu::test {

constexpr uint32_t kTextureBase = 0x00100000, kTextureMips = 0x00200000;

// A pixel shader that writes tfetch2D(tf0) at `coord` (r0.xy: interpolator 0) to oC0.
inline ucode::Shader TfetchPs(const std::string& coord) {
  return ucode::Decode(ucode::Assemble("xps_3_0\n    exec\n    tfetch2D r0, " + coord +
                                       ", tf0\n    alloc colors\n    exece\n    mov oC0, r0\n"),
                       ucode::ShaderType::kPixel);
}

// A vertex at screen (x, y) with interpolator 0 = (u, v, 0, 0).
inline ClipVertex TexturedVertex(double x, double y, float u, float v) {
  ClipVertex c;
  c.pos = {x, y, 0.5, 1.0};
  c.interpolators[0] = {u, v, 0.0f, 0.0f};
  return c;
}

struct TextureRig {
  replay::RegisterFile regs;
  replay::GuestMemory memory;
  gpu::edram::Edram edram;
  ucode::InterpreterConstants constants{};

  // The fetch constant TextureFetch2D makes for the 64x64 texture, linear, no endian swap (memory
  // bytes R, G, B, A), for the test to edit before SetTexture.
  static std::array<uint32_t, 6> Fetch() {
    return capture::TextureFetch2D(kTextureBase, 64, 64, xenos::TextureFormat::k_8_8_8_8, false,
                                   xenos::Endian::kNone);
  }

  // The texture unit reads the register file; the interpreter applies the swizzle from its copy
  // of the constants: both get `fetch`. Also sets up the colour target (blend: src * 1).
  void SetTexture(const std::array<uint32_t, 6>& fetch) {
    for (uint32_t i = 0; i < 6; ++i) {
      regs.Set(xenos::kFetchConstantBase + i, fetch[i]);
      constants.fetch_constants[i] = fetch[i];
    }
    regs.Set(xenos::Reg::RB_SURFACE_INFO, 128);
    regs.Set(xenos::Reg::RB_COLOR_INFO,
             uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8) << 16);
    regs.Set(xenos::Reg::RB_COLOR_MASK, 0xF);
    regs.Set(xenos::Reg::RB_BLENDCONTROL0, 0x00010001);
  }

  // A job over the 128x128 screen shading `ps` with this rig's state; the test adds primitives.
  PixelJob Job(const ucode::Shader& ps) {
    PixelJob job;
    job.state.x0 = 0, job.state.y0 = 0, job.state.x1 = 128, job.state.y1 = 128;
    job.state.interpolator_count = 1;
    job.pixel_shader = &ps;
    job.pixel_constants = &constants;
    job.registers = &regs;
    job.memory = &memory;
    job.edram = &edram;
    job.color_used[0] = true;
    return job;
  }

  // Pixel (x, y) of the colour target as RGBA bytes (R in the low byte).
  uint32_t Pixel(uint32_t x, uint32_t y) {
    gpu::edram::Surface s;
    s.pitch_pixels = 128;
    s.format = uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8);
    return uint32_t(edram.Load(s, x, y, 0));
  }
};

}  // namespace xnt::cpu::test
