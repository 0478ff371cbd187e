// Register -> host draw state (see draw_state.h).
#include "xnt/vk/draw_state.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "xnt/base/error.h"
#include "xnt/gpu/line_width.h"
#include "xnt/gpu/point_size.h"
#include "xnt/gpu/polygon_mode.h"
#include "xnt/gpu/polygon_offset.h"
#include "xnt/gpu/primitive_clip.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {

using gpu::RegisterFloat;

using xenos::Reg;
using xenos::RegIndex;


PrimitiveQuads ComputePrimitiveQuads(gpu::HostTopology topology, ResolutionScale scale,
                                     bool geometry_shader, bool geometry_point_size,
                                     bool polygon_modes) {
  if (topology == gpu::HostTopology::kTriangleList && polygon_modes && geometry_point_size) {
    return PrimitiveQuads::kPolygonModes;
  }
  if (topology == gpu::HostTopology::kPointList && geometry_point_size) {
    return PrimitiveQuads::kPoints;
  }
  if (topology == gpu::HostTopology::kLineList && scale.x != scale.y && geometry_shader) {
    return PrimitiveQuads::kLines;
  }
  return PrimitiveQuads::kNone;
}

XeSystemConstants ComputeSystemConstants(gpu::RegisterValues regs, const HostViewport& viewport,
                                         gpu::HostTopology topology, PrimitiveQuads quads) {
  XeSystemConstants c{};
  auto vte = gpu::DecodeRegister<xenos::reg::PA_CL_VTE_CNTL>(regs);
  if (vte.vtx_xy_fmt) c.flags |= kXeSysFlagXyDividedByW;
  if (vte.vtx_z_fmt) c.flags |= kXeSysFlagZDividedByW;
  if (vte.vtx_w0_fmt) c.flags |= kXeSysFlagWNotReciprocal;
  if (topology == gpu::HostTopology::kPointList) c.flags |= kXeSysFlagPrimitivePoint;
  if (topology == gpu::HostTopology::kLineList) c.flags |= kXeSysFlagPrimitiveLine;
  c.flags |= kXeSysFlagViewportInShader;
  auto colorcontrol = gpu::DecodeRegister<xenos::reg::RB_COLORCONTROL>(regs);
  if (colorcontrol.alpha_test_enable &&
      colorcontrol.alpha_func != xenos::CompareFunction::kAlways) {
    c.flags |= kXeSysFlagAlphaTest;
  }
  c.alpha_test_func = uint32_t(colorcontrol.alpha_func);
  c.alpha_test_reference = gpu::RegisterFloat(regs, RegIndex(Reg::RB_ALPHA_REF));
  auto dma = gpu::DecodeRegister<xenos::reg::VGT_DMA_SIZE>(regs);
  c.vertex_index_endian = uint32_t(dma.swap_mode);
  // VGT_INDX_OFFSET and the index clamp are in the host indices already (the primitive
  // processor applies gpu/vertex_index.h), so the shader adds nothing.
  c.vertex_base_index = 0;
  // The enabled user clip planes, compacted as the translated vertex shader reads them.
  const gpu::PrimitiveClip clip = gpu::ReadPrimitiveClip(regs, false);
  for (uint32_t n = 0; n < clip.plane_count; ++n) {
    for (uint32_t k = 0; k < 4; ++k) c.user_clip_planes[n][k] = clip.planes[n][k];
  }
  const bool polygon_modes = quads == PrimitiveQuads::kPolygonModes;
  if (topology == gpu::HostTopology::kLineList || topology == gpu::HostTopology::kPointList ||
      polygon_modes) {
    c.line_quad[0] = viewport.ndc_per_pixel[0];
    c.line_quad[1] = viewport.ndc_per_pixel[1];
  }
  if (topology == gpu::HostTopology::kLineList || polygon_modes) {
    c.line_quad[2] = gpu::LineWidth(regs);
  }
  if (quads == PrimitiveQuads::kPoints || polygon_modes) c.flags |= kXeSysFlagPointQuads;
  for (int i = 0; i < 3; ++i) {
    c.ndc_scale[i] = viewport.ndc_scale[i];
    c.ndc_offset[i] = viewport.ndc_offset[i];
  }
  const gpu::PointSizes points = gpu::ReadPointSizes(regs);
  c.point_size_min_max[0] = points.min_diameter;
  c.point_size_min_max[1] = points.max_diameter;
  c.point_size_min_max[2] = points.width;
  c.point_size_min_max[3] = points.height;
  for (uint32_t i = 0; i < 4; ++i) {
    auto info = xenos::reg::RB_COLOR_INFO::Decode(gpu::RegisterValue(regs, xenos::kColorInfoRegs[i]));
    c.color_exp_bias[i] = info.color_exp_bias;
  }
  WriteExactDepthConstants(regs, viewport, topology, c);
  return c;
}

void WriteExactDepthConstants(gpu::RegisterValues regs, const HostViewport& viewport,
                              gpu::HostTopology topology, XeSystemConstants& c) {
  // The screen transform does not depend on the target's size (which only bounds the scissor),
  // so it is the one the cpu path's vertex stage applies.
  for (int i = 0; i < 3; ++i) {
    c.depth_screen_scale[i] = viewport.screen_scale[i];
    c.depth_screen_offset[i] = viewport.screen_offset[i];
  }
  const uint32_t depth_format =
      uint32_t(gpu::DecodeRegister<xenos::reg::RB_DEPTH_INFO>(regs).depth_format);
  const bool polygonal = topology != gpu::HostTopology::kPointList &&
                         topology != gpu::HostTopology::kLineList;
  const gpu::PolygonOffsets offsets = gpu::ReadPolygonOffsets(regs, polygonal);
  c.depth_offsets[0] = gpu::DepthBiasSlopeFactor(offsets.front);
  c.depth_offsets[1] = gpu::DepthBiasSlopeFactor(offsets.back);
  c.depth_offsets[2] = gpu::ShaderPolygonOffsetConstant(offsets.front, depth_format);
  c.depth_offsets[3] = gpu::ShaderPolygonOffsetConstant(offsets.back, depth_format);
  if (depth_format == uint32_t(xenos::DepthRenderTargetFormat::kD24FS8)) {
    c.depth_flags[0] |= kXeSysDepth20e4;
  }
  if (!viewport.clip_depth) c.depth_flags[0] |= kXeSysDepthClamp;
}

HostDepthStencil ComputeDepthStencil(gpu::RegisterValues regs, bool has_depth_target) {
  HostDepthStencil s;
  if (!has_depth_target) return s;
  auto dc = gpu::DecodeRegister<xenos::reg::RB_DEPTHCONTROL>(regs);
  s.depth_test = dc.z_enable;
  s.depth_write = dc.z_enable && dc.z_write_enable;
  // CompareFunction and VkCompareOp share their order (never, less, equal, ... always).
  s.depth_compare = VkCompareOp(uint32_t(dc.zfunc));
  s.stencil_test = dc.stencil_enable;
  auto front_mask = gpu::DecodeRegister<xenos::reg::RB_STENCILREFMASK>(regs);
  auto back_mask = xenos::reg::RB_STENCILREFMASK::Decode(gpu::RegisterValue(regs, Reg::RB_STENCILREFMASK_BF));
  // StencilOp and VkStencilOp share their order too (keep, zero, replace, incr clamp, ...).
  s.front.failOp = VkStencilOp(uint32_t(dc.stencilfail));
  s.front.passOp = VkStencilOp(uint32_t(dc.stencilzpass));
  s.front.depthFailOp = VkStencilOp(uint32_t(dc.stencilzfail));
  s.front.compareOp = VkCompareOp(uint32_t(dc.stencilfunc));
  s.front.reference = front_mask.stencilref;
  s.front.compareMask = front_mask.stencilmask;
  s.front.writeMask = front_mask.stencilwritemask;
  if (dc.backface_enable) {
    s.back.failOp = VkStencilOp(uint32_t(dc.stencilfail_bf));
    s.back.passOp = VkStencilOp(uint32_t(dc.stencilzpass_bf));
    s.back.depthFailOp = VkStencilOp(uint32_t(dc.stencilzfail_bf));
    s.back.compareOp = VkCompareOp(uint32_t(dc.stencilfunc_bf));
    s.back.reference = back_mask.stencilref;
    s.back.compareMask = back_mask.stencilmask;
    s.back.writeMask = back_mask.stencilwritemask;
  } else {
    s.back = s.front;
  }
  return s;
}

float HostLineWidth(gpu::RegisterValues regs, gpu::HostTopology topology, ResolutionScale scale,
                    bool wide_lines, const float line_width_range[2], std::string* note) {
  if (topology != gpu::HostTopology::kLineList) return 1.0f;
  // The width is in guest pixels: at S x S the guest's rectangle is the host line S times as
  // wide (the cpu path's quad, gpu/line_width.h LineHalfWidth). A host line is a rectangle
  // perpendicular to it on the host, so at S x T with S != T it cannot be the guest's
  // parallelogram: the line-quad geometry shader draws it then (PrimitiveQuads::kLines);
  // without geometry shaders, drawn min(S, T) host pixels per guest pixel wide (the width the
  // line has along its scaled axis when it runs along the other one), and said.
  const uint32_t per_guest_pixel = std::min(scale.x, scale.y);
  const float wanted = gpu::LineWidth(regs) * float(per_guest_pixel);
  if (scale.x != scale.y && note) {
    *note = "lines at the non-square resolution scale " + scale.Name() + " are host lines " +
            std::to_string(per_guest_pixel) +
            " host pixel(s) per guest pixel wide, not the guest's quad sheared (the cpu path's)";
  }
  if (wanted == 1.0f) return 1.0f;
  if (!wide_lines) {
    if (note) *note = "line width " + std::to_string(wanted) + " drawn 1 pixel wide (no wideLines)";
    return 1.0f;
  }
  const float width = std::clamp(wanted, line_width_range[0], line_width_range[1]);
  if (width != wanted && note) *note = "line width clamped to the device's lineWidthRange";
  return width;
}

HostRasterizer ComputeRasterizer(gpu::RegisterValues regs, gpu::HostTopology topology,
                                 PrimitiveQuads quads) {
  HostRasterizer r;
  auto mode = gpu::DecodeRegister<xenos::reg::PA_SU_SC_MODE_CNTL>(regs);
  // Culling and fill modes apply to triangles only; rectangles are screen-space blits and are
  // never culled.
  if (topology == gpu::HostTopology::kTriangleList) {
    if (mode.cull_front) r.cull |= VK_CULL_MODE_FRONT_BIT;
    if (mode.cull_back) r.cull |= VK_CULL_MODE_BACK_BIT;
    const gpu::PolygonModes modes = gpu::ReadPolygonModes(regs);
    if (quads != PrimitiveQuads::kPolygonModes) {
      const gpu::PolygonFill fill = std::min(uint32_t(modes.front), uint32_t(modes.back)) ==
                                            uint32_t(gpu::PolygonFill::kPoints)
                                        ? gpu::PolygonFill::kPoints
                                        : modes.Active() ? gpu::PolygonFill::kLines
                                                         : gpu::PolygonFill::kTriangles;
      if (fill == gpu::PolygonFill::kPoints) r.polygon_mode = VK_POLYGON_MODE_POINT;
      if (fill == gpu::PolygonFill::kLines) r.polygon_mode = VK_POLYGON_MODE_LINE;
    }
  }
  // face = 0: counter-clockwise triangles are front-facing. The host framebuffer has the same
  // orientation as guest screen space (y down), so the winding carries over unchanged. Lines
  // and points are always front-facing: the line-quad geometry shader emits counter-clockwise
  // quads (line_quad.h), so they keep counter-clockwise (host lines and points ignore it).
  const bool polygon = topology == gpu::HostTopology::kTriangleList ||
                       topology == gpu::HostTopology::kRectangleList;
  r.front_face = mode.face && polygon ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE;
  r.depth_clamp = !gpu::DepthClipped(regs);
  return r;
}

VkBlendFactor TranslateBlendFactor(uint32_t f) {
  switch (xenos::BlendFactor(f)) {
    case xenos::BlendFactor::kZero: return VK_BLEND_FACTOR_ZERO;
    case xenos::BlendFactor::kOne: return VK_BLEND_FACTOR_ONE;
    case xenos::BlendFactor::kSrcColor: return VK_BLEND_FACTOR_SRC_COLOR;
    case xenos::BlendFactor::kOneMinusSrcColor: return VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
    case xenos::BlendFactor::kSrcAlpha: return VK_BLEND_FACTOR_SRC_ALPHA;
    case xenos::BlendFactor::kOneMinusSrcAlpha: return VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    case xenos::BlendFactor::kDstColor: return VK_BLEND_FACTOR_DST_COLOR;
    case xenos::BlendFactor::kOneMinusDstColor: return VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR;
    case xenos::BlendFactor::kDstAlpha: return VK_BLEND_FACTOR_DST_ALPHA;
    case xenos::BlendFactor::kOneMinusDstAlpha: return VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA;
    case xenos::BlendFactor::kConstantColor: return VK_BLEND_FACTOR_CONSTANT_COLOR;
    case xenos::BlendFactor::kOneMinusConstantColor:
      return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
    case xenos::BlendFactor::kConstantAlpha: return VK_BLEND_FACTOR_CONSTANT_ALPHA;
    case xenos::BlendFactor::kOneMinusConstantAlpha:
      return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA;
    case xenos::BlendFactor::kSrcAlphaSaturate: return VK_BLEND_FACTOR_SRC_ALPHA_SATURATE;
  }
  // Reserved encodings (2, 3, 17+): treat as zero, like an unpopulated mux input.
  return VK_BLEND_FACTOR_ZERO;
}

VkBlendOp TranslateBlendOp(uint32_t op) {
  switch (xenos::BlendOp(op)) {
    case xenos::BlendOp::kAdd: return VK_BLEND_OP_ADD;
    case xenos::BlendOp::kSubtract: return VK_BLEND_OP_SUBTRACT;
    case xenos::BlendOp::kMin: return VK_BLEND_OP_MIN;
    case xenos::BlendOp::kMax: return VK_BLEND_OP_MAX;
    case xenos::BlendOp::kRevSubtract: return VK_BLEND_OP_REVERSE_SUBTRACT;
  }
  return VK_BLEND_OP_ADD;
}

VkPipelineColorBlendAttachmentState ComputeBlend(gpu::RegisterValues regs, uint32_t target) {
  VkPipelineColorBlendAttachmentState a{};
  auto mask = gpu::DecodeRegister<xenos::reg::RB_COLOR_MASK>(regs).rt_mask(target);
  a.colorWriteMask = mask;  // R, G, B, A from bit 0 up, as in VkColorComponentFlagBits
  auto b = xenos::reg::RB_BLENDCONTROL::Decode(gpu::RegisterValue(regs, xenos::kBlendControlRegs[target]));
  a.srcColorBlendFactor = TranslateBlendFactor(uint32_t(b.color_srcblend));
  a.dstColorBlendFactor = TranslateBlendFactor(uint32_t(b.color_destblend));
  a.colorBlendOp = TranslateBlendOp(uint32_t(b.color_comb_fcn));
  a.srcAlphaBlendFactor = TranslateBlendFactor(uint32_t(b.alpha_srcblend));
  a.dstAlphaBlendFactor = TranslateBlendFactor(uint32_t(b.alpha_destblend));
  a.alphaBlendOp = TranslateBlendOp(uint32_t(b.alpha_comb_fcn));
  bool passthrough = a.srcColorBlendFactor == VK_BLEND_FACTOR_ONE &&
                     a.dstColorBlendFactor == VK_BLEND_FACTOR_ZERO &&
                     a.colorBlendOp == VK_BLEND_OP_ADD &&
                     a.srcAlphaBlendFactor == VK_BLEND_FACTOR_ONE &&
                     a.dstAlphaBlendFactor == VK_BLEND_FACTOR_ZERO &&
                     a.alphaBlendOp == VK_BLEND_OP_ADD;
  a.blendEnable = passthrough ? VK_FALSE : VK_TRUE;
  if (!a.blendEnable) {
    a.srcColorBlendFactor = a.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    a.dstColorBlendFactor = a.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
  }
  return a;
}

}  // namespace xnt::vk
