// The viewport transform and scissor from registers (see viewport.h).
#include "xnt/gpu/viewport.h"

#include <algorithm>

#include "xnt/xenos/registers.h"

namespace xnt::gpu {

using xenos::Reg;
using xenos::RegIndex;

bool DepthClipped(RegisterValues regs) {
  return !DecodeRegister<xenos::reg::PA_CL_CLIP_CNTL>(regs).clip_disable;
}

std::string HostDepthRangeNote(const Viewport& viewport) {
  if (!viewport.host_depth_range_clamped) return "";
  return "the viewport's depth range reaches outside 0..1: the host viewport maps clip space onto "
         "its part inside, so depths differ from the cpu path's (which clamps each sample)";
}

Viewport ComputeViewport(RegisterValues regs, uint32_t target_width, uint32_t target_height) {
  auto vte = DecodeRegister<xenos::reg::PA_CL_VTE_CNTL>(regs);
  auto mode = DecodeRegister<xenos::reg::PA_SU_SC_MODE_CNTL>(regs);
  auto window_offset = DecodeRegister<xenos::reg::PA_SC_WINDOW_OFFSET>(regs);
  // PA_SU_VTX_CNTL pix_center (bit 0): 0 = Direct3D (centres on integers), 1 = OpenGL.
  bool half_pixel = (RegisterValue(regs, Reg::PA_SU_VTX_CNTL) & 1u) == 0;

  float scale[3] = {
      vte.vport_x_scale_ena ? RegisterFloat(regs, RegIndex(Reg::PA_CL_VPORT_XSCALE)) : 1.0f,
      vte.vport_y_scale_ena ? RegisterFloat(regs, RegIndex(Reg::PA_CL_VPORT_YSCALE)) : 1.0f,
      vte.vport_z_scale_ena ? RegisterFloat(regs, RegIndex(Reg::PA_CL_VPORT_ZSCALE)) : 1.0f};
  float offset[3] = {
      vte.vport_x_offset_ena ? RegisterFloat(regs, RegIndex(Reg::PA_CL_VPORT_XOFFSET)) : 0.0f,
      vte.vport_y_offset_ena ? RegisterFloat(regs, RegIndex(Reg::PA_CL_VPORT_YOFFSET)) : 0.0f,
      vte.vport_z_offset_ena ? RegisterFloat(regs, RegIndex(Reg::PA_CL_VPORT_ZOFFSET)) : 0.0f};
  if (mode.vtx_window_offset_enable) {
    offset[0] += float(window_offset.window_x_offset);
    offset[1] += float(window_offset.window_y_offset);
  }
  if (half_pixel) {
    offset[0] += 0.5f;
    offset[1] += 0.5f;
  }
  Viewport v{};
  v.clip_depth = DepthClipped(regs);
  for (int i = 0; i < 3; ++i) {
    v.screen_scale[i] = scale[i];
    v.screen_offset[i] = offset[i];
  }
  float w = float(std::max(1u, target_width));
  float h = float(std::max(1u, target_height));
  v.ndc_scale[0] = scale[0] * 2.0f / w;
  v.ndc_offset[0] = offset[0] * 2.0f / w - 1.0f;
  v.ndc_scale[1] = scale[1] * 2.0f / h;
  v.ndc_offset[1] = offset[1] * 2.0f / h - 1.0f;
  v.ndc_scale[2] = scale[2];
  v.ndc_offset[2] = offset[2];
  const auto clip = DecodeRegister<xenos::reg::PA_CL_CLIP_CNTL>(regs);
  v.clip_z_from_minus_w = !clip.dx_clip_space_def;
  if (v.clip_depth) {
    // Stored depth = offset + scale * z/w over z/w in 0..1 (Direct3D) or -1..1 (OpenGL, moved
    // onto 0..1 by z' = (z + w) / 2).
    const float lo = v.clip_z_from_minus_w ? offset[2] - scale[2] : offset[2];
    const float hi = offset[2] + scale[2];
    v.ndc_scale[2] = v.clip_z_from_minus_w ? 0.5f : 1.0f;
    v.ndc_offset[2] = v.clip_z_from_minus_w ? 0.5f : 0.0f;
    v.host_depth_min = std::clamp(lo, 0.0f, 1.0f);
    v.host_depth_max = std::clamp(hi, 0.0f, 1.0f);
    v.host_depth_range_clamped = v.host_depth_min != lo || v.host_depth_max != hi;
  }
  v.ndc_per_pixel[0] = 2.0f / w;
  v.ndc_per_pixel[1] = 2.0f / h;

  // Window scissor (moved by the window offset unless window_offset_disable) ∩ screen scissor.
  auto wtl = DecodeRegister<xenos::reg::PA_SC_WINDOW_SCISSOR_TL>(regs);
  auto wbr = DecodeRegister<xenos::reg::PA_SC_WINDOW_SCISSOR_BR>(regs);
  auto stl = DecodeRegister<xenos::reg::PA_SC_SCREEN_SCISSOR_TL>(regs);
  auto sbr = DecodeRegister<xenos::reg::PA_SC_SCREEN_SCISSOR_BR>(regs);
  int64_t x0 = wtl.tl_x, y0 = wtl.tl_y, x1 = wbr.br_x, y1 = wbr.br_y;
  if (!wtl.window_offset_disable) {
    x0 += window_offset.window_x_offset;
    x1 += window_offset.window_x_offset;
    y0 += window_offset.window_y_offset;
    y1 += window_offset.window_y_offset;
  }
  x0 = std::max<int64_t>({x0, stl.tl_x, 0});
  y0 = std::max<int64_t>({y0, stl.tl_y, 0});
  x1 = std::min<int64_t>({x1, sbr.br_x, int64_t(target_width)});
  y1 = std::min<int64_t>({y1, sbr.br_y, int64_t(target_height)});
  if (x1 <= x0 || y1 <= y0) {
    v.scissor = {{0, 0}, {0, 0}};
  } else {
    v.scissor = {{int32_t(x0), int32_t(y0)}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
  }
  return v;
}

}  // namespace xnt::gpu
