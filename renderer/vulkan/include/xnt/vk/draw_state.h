// Register -> host draw state, on the CPU and without Vulkan objects, so it can be unit-tested:
// the viewport transform folded into XeSystemConstants (ndc_scale/ndc_offset), the scissor,
// depth/stencil, blending and rasterizer state.
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

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

#include "xnt/vk/primitive_processor.h"
#include "xnt/vk/shader_interface.h"

namespace xnt::vk {

// Register values by dword index (at least xenos::kRegisterCount of them).
using RegisterValues = std::span<const uint32_t>;

float RegisterFloat(RegisterValues regs, uint32_t index);

struct HostViewport {
  float ndc_scale[3];
  float ndc_offset[3];
  VkRect2D scissor;  // clamped to the render target; extent 0 when nothing can be drawn
};
HostViewport ComputeViewport(RegisterValues regs, uint32_t target_width, uint32_t target_height);

// The per-draw system constants (shader_interface.h), apart from vertex_base_index's use.
XeSystemConstants ComputeSystemConstants(RegisterValues regs, const HostViewport& viewport,
                                         HostTopology topology);

struct HostDepthStencil {
  bool depth_test = false;
  bool depth_write = false;
  VkCompareOp depth_compare = VK_COMPARE_OP_ALWAYS;
  bool stencil_test = false;
  VkStencilOpState front{};
  VkStencilOpState back{};
};
// `has_depth_target` false turns everything off (no depth buffer bound).
HostDepthStencil ComputeDepthStencil(RegisterValues regs, bool has_depth_target);

struct HostRasterizer {
  VkCullModeFlags cull = VK_CULL_MODE_NONE;
  VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL;
};
HostRasterizer ComputeRasterizer(RegisterValues regs, HostTopology topology);

// One colour target's blending (RB_BLENDCONTROLn) and write mask (RB_COLOR_MASK).
VkPipelineColorBlendAttachmentState ComputeBlend(RegisterValues regs, uint32_t target);
VkBlendFactor TranslateBlendFactor(uint32_t xenos_factor);
VkBlendOp TranslateBlendOp(uint32_t xenos_op);

}  // namespace xnt::vk
