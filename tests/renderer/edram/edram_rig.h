// What the EDRAM tests drive the fbo renderer with: a validating lavapipe context, an
// XenosRenderer, a fake guest memory and a register file, and the resolve event they all record
// (its rectangle as three big-endian float2 vertices through vertex fetch constant 0).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "../fake_guest.h"
#include "../test_env.h"
#include "xnt/vk/fbo/xenos_renderer.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk::test {

struct EdramRig {
  std::unique_ptr<VulkanContext> ctx;
  std::unique_ptr<XenosRenderer> renderer;
  FakeGuest guest;
  std::vector<uint32_t> regs = std::vector<uint32_t>(xenos::kRegisterCount, 0);
  static constexpr uint32_t kRect = 0x20000;  // the resolve rectangle's vertices
  uint32_t msaa = 0;                          // RB_SURFACE_INFO msaa_samples

  explicit EdramRig(const gpu::RendererOptions& options = {}) {
    ctx = MakeLavapipeContext();
    renderer = std::make_unique<XenosRenderer>(*ctx, options);
    Set(xenos::Reg::PA_SC_WINDOW_SCISSOR_BR, 8192u | (8192u << 16));
    Set(xenos::Reg::PA_SU_VTX_CNTL, 1);
  }
  void Set(xenos::Reg r, uint32_t v) { regs[xenos::RegIndex(r)] = v; }

  // Sets up a resolve event over [x0, x1) x [y0, y1) of a target `pitch` wide with
  // RB_COPY_CONTROL = `copy_control`; the caller adds the clear values or the destination and
  // calls renderer->Resolve.
  void ResolveRect(uint32_t pitch, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                   uint32_t copy_control) {
    guest.WriteBEFloats(kRect, {float(x0), float(y0), float(x1), float(y0), float(x1), float(y1)});
    regs[xenos::VertexFetchConstantIndex(0)] = 3u | kRect;
    regs[xenos::VertexFetchConstantIndex(0) + 1] = 2u | (6u << 2);
    Set(xenos::Reg::RB_SURFACE_INFO, pitch | (msaa << 16));
    Set(xenos::Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kCopy));
    Set(xenos::Reg::RB_COPY_CONTROL, copy_control);
  }
  // RB_COPY_CONTROL of a resolve that only clears (no copy).
  static uint32_t ClearOnly(bool colour, bool depth) {
    return (colour ? 1u << 8 : 0u) | (depth ? 1u << 9 : 0u) |
           (uint32_t(xenos::CopyCommand::kNull) << 20);
  }
};

}  // namespace xnt::vk::test
