// The viewport transform and scissor of a draw from its registers, as every render path applies
// them (backend-free: the fbo path folds it into its system constants, a CPU path rasterizes
// with it, the EDRAM tracker bounds a draw's extent with the scissor).
//
// Viewport semantics (as in Xenia's draw_util GetHostViewportInfo,
// src/xenia/gpu/draw_util.cc): guest screen position = NDC * PA_CL_VPORT_*SCALE +
// PA_CL_VPORT_*OFFSET for each axis whose PA_CL_VTE_CNTL enable bit is set (1 and 0 otherwise,
// i.e. the shader already output screen coordinates), plus PA_SC_WINDOW_OFFSET when
// PA_SU_SC_MODE_CNTL vtx_window_offset_enable is set, plus 0.5 when PA_SU_VTX_CNTL pix_center is
// 0 (Direct3D 9 puts pixel centres on integers; Vulkan on halves — Xenia's resolve code reverses
// the same half pixel, draw_util.cc GetResolveInfo). The host viewport covers the whole host
// render target, so host NDC = screen * 2 / size - 1 and depth = Z screen.
#pragma once

#include <cstdint>
#include <string>

#include "xnt/gpu/register_values.h"

namespace xnt::gpu {

// Field names as VkRect2D's, so host code converts member for member.
struct ScissorRect {
  struct {
    int32_t x = 0, y = 0;
  } offset;
  struct {
    uint32_t width = 0, height = 0;
  } extent;
};

struct Viewport {
  // Guest screen position = shader position (after the VTE formats) * screen_scale +
  // screen_offset, in render-target pixels with pixel centres on halves (the half-pixel offset of
  // pix_center = 0 folded in) and z as stored depth. A path that rasterizes itself uses these.
  float screen_scale[3];
  float screen_offset[3];
  // The same transform to host NDC for a host viewport covering the whole target.
  float ndc_scale[3];
  float ndc_offset[3];
  // Host NDC units per guest pixel (2 / the target's width, height): what a guest-pixel distance
  // is in NDC at any resolution scale (the host viewport covers the whole scaled target).
  float ndc_per_pixel[2];
  ScissorRect scissor;  // clamped to the render target; extent 0 when nothing can be drawn
  // Depth clipping (PA_CL_CLIP_CNTL clip_disable off). Every path clips at the hardware's
  // clip-space planes, before the viewport: 0 <= z <= w for Direct3D, -w <= z <= w for OpenGL's
  // dx_clip_space_def 0 (clip_z_from_minus_w), whatever depth range PA_CL_VPORT_ZSCALE /
  // ZOFFSET then map that onto (Xenia draw_util.cc GetHostViewportInfo). With clip_disable
  // nothing is clipped against depth and each sample's depth is clamped to [0, 1] instead, as
  // Xenia does (host depth clamp, viewport depth 0..1).
  bool clip_depth = true;
  bool clip_z_from_minus_w = false;
  // The Vulkan paths' viewport depth range (minDepth, maxDepth). With clipping, z leaves the
  // vertex shader in clip space (ndc_scale / ndc_offset z only move OpenGL's -w..w onto 0..w), so
  // the host clips where the hardware does and maps 0..1 onto the guest's range here; without
  // clipping ndc z already holds the stored depth and the range is 0..1. A host range must lie
  // in 0..1, so a guest range reaching outside is clamped (host_depth_range_clamped, named at
  // run time: depths there differ from the cpu path, which clamps each sample instead).
  float host_depth_min = 0.0f, host_depth_max = 1.0f;
  bool host_depth_range_clamped = false;
};
Viewport ComputeViewport(RegisterValues regs, uint32_t target_width, uint32_t target_height);

// Viewport::clip_depth alone (PA_CL_CLIP_CNTL clip_disable off), for the host rasterizer state
// and the fsi output merger, which need nothing else of the viewport.
bool DepthClipped(RegisterValues regs);

// The note a Vulkan path counts for a draw whose host_depth_range_clamped is set, else "".
std::string HostDepthRangeNote(const Viewport& viewport);

}  // namespace xnt::gpu
