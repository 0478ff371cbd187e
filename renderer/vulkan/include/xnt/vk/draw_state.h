// Register -> host draw state, on the CPU, so it can be unit-tested: the viewport transform folded
// into XeSystemConstants (ndc_scale/ndc_offset), depth/stencil, blending and rasterizer state as
// Vulkan enums.
//
// The viewport and scissor come from gpu/viewport.h (shared with every path).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>

#include "xnt/base/resolution_scale.h"
#include "xnt/gpu/primitive_processor.h"
#include "xnt/gpu/register_values.h"
#include "xnt/gpu/viewport.h"
#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

using gpu::RegisterValues;
using HostViewport = gpu::Viewport;

inline VkRect2D ToVkRect(const gpu::ScissorRect& r) {
  return {{r.offset.x, r.offset.y}, {r.extent.width, r.extent.height}};
}

// Which host geometry shader, if any, draws a draw's points or lines as quads (decided once per
// draw, PathRenderer::QuadsOf).
enum class PrimitiveQuads : uint32_t {
  kNone,
  // Line lists through the line-quad geometry shader (xnt/vk/translator/line_quad.h): at a
  // non-square resolution scale, where a host line cannot be the guest's line.
  kLines,
  // Point lists through the point-quad geometry shader (xnt/vk/translator/point_quad.h): at
  // every scale, since a host point is square and the guest's is width x height.
  kPoints,
  // Triangles whose faces PA_SU_SC_MODE_CNTL draws as points or lines (gpu/polygon_mode.h)
  // through the polygon-mode geometry shader (xnt/vk/translator/polygon_mode.h): edges and
  // vertices as the line and point quads.
  kPolygonModes,
};
// `geometry_shader`: the device has geometry shaders; `geometry_point_size`: and they may read
// gl_PointSize (VulkanCapabilities). Without them points and lines stay host primitives (noted
// by the path where that is not the guest's shape), and triangles in polygon modes take the
// host's polygonMode (ComputeRasterizer). `polygon_modes`: gpu::ReadPolygonModes(...).Active().
PrimitiveQuads ComputePrimitiveQuads(gpu::HostTopology topology, ResolutionScale scale,
                                     bool geometry_shader, bool geometry_point_size,
                                     bool polygon_modes = false);

// The per-draw system constants (shader_interface.h), apart from vertex_base_index's use.
// `quads` == kPoints or kPolygonModes sets kXeSysFlagPointQuads (and line_quad for the latter).
XeSystemConstants ComputeSystemConstants(gpu::RegisterValues regs, const HostViewport& viewport,
                                         gpu::HostTopology topology,
                                         PrimitiveQuads quads = PrimitiveQuads::kNone);
// Its depth_* fields: what a pixel shader needs to compute the cpu path's depth of a triangle
// (TranslationOptions::fsi_exact_polygon_offset).
void WriteExactDepthConstants(gpu::RegisterValues regs, const HostViewport& viewport,
                              gpu::HostTopology topology, XeSystemConstants& c);

struct HostDepthStencil {
  bool depth_test = false;
  bool depth_write = false;
  VkCompareOp depth_compare = VK_COMPARE_OP_ALWAYS;
  bool stencil_test = false;
  VkStencilOpState front{};
  VkStencilOpState back{};
};
// `has_depth_target` false turns everything off (no depth buffer bound).
HostDepthStencil ComputeDepthStencil(gpu::RegisterValues regs, bool has_depth_target);

struct HostRasterizer {
  VkCullModeFlags cull = VK_CULL_MODE_NONE;
  VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL;
  // PA_CL_CLIP_CNTL clip_disable (gpu::Viewport::clip_depth off): depthClampEnable, which stops
  // the host clipping against depth and clamps each fragment's depth to the viewport's 0..1.
  bool depth_clamp = false;
};
// Polygon modes (gpu/polygon_mode.h) become the host's polygonMode only without the
// polygon-mode geometry shader (`quads` != kPolygonModes): one mode for both faces, the most
// special of the faces drawn (points, then lines), as Xenia picks it.
HostRasterizer ComputeRasterizer(gpu::RegisterValues regs, gpu::HostTopology topology,
                                 PrimitiveQuads quads = PrimitiveQuads::kNone);

// The dynamic line width of a draw: PA_SU_LINE_CNTL's width for line lists (gpu/line_width.h)
// times the resolution scale (the smaller axis's when they differ: a non-square scale without
// geometry shaders, see PrimitiveQuads::kLines), clamped to the device's lineWidthRange; 1
// without wideLines and for every other topology (polygon-mode lines stay 1 wide). `note` gets why the
// line is not the register's width in guest pixels, if it is not (a non-square scale included).
float HostLineWidth(gpu::RegisterValues regs, gpu::HostTopology topology, ResolutionScale scale,
                    bool wide_lines, const float line_width_range[2], std::string* note);


// One colour target's blending (RB_BLENDCONTROLn) and write mask (RB_COLOR_MASK).
VkPipelineColorBlendAttachmentState ComputeBlend(gpu::RegisterValues regs, uint32_t target);
VkBlendFactor TranslateBlendFactor(uint32_t xenos_factor);
VkBlendOp TranslateBlendOp(uint32_t xenos_op);

}  // namespace xnt::vk
