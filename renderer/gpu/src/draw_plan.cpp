// A draw's plan from its registers (see draw_plan.h).
#include "xnt/gpu/draw_plan.h"

#include <algorithm>

#include "xnt/xenos/registers.h"

namespace xnt::gpu {

namespace {

void Hold(DrawPlan& plan, DrawSkip reason) { plan.skips |= 1u << uint32_t(reason); }

// RB_COLOR_INFO / RB_DEPTH_INFO of the targets the draw uses (output merger inputs).
void PlanTargets(DrawPlan& plan, RegisterValues regs, const DrawShaders& shaders) {
  const bool pixel_shader_runs = plan.mode == xenos::ModeControl::kColorDepth && shaders.pixel_shader;
  const uint32_t targets = shaders.pixel_shader ? DrawColorTargets(regs, shaders.pixel_shader_color_mask) : 0;
  for (uint32_t i = 0; i < 4; ++i) {
    if (!(targets & (1u << i))) continue;
    const auto info =
        xenos::reg::RB_COLOR_INFO::Decode(RegisterValue(regs, xenos::kColorInfoRegs[i]));
    plan.color[i] = {true, info.color_base, uint32_t(info.color_format)};
    plan.color_used[i] = true;
  }
  const auto depth_control = DecodeRegister<xenos::reg::RB_DEPTHCONTROL>(regs);
  const auto depth_info = DecodeRegister<xenos::reg::RB_DEPTH_INFO>(regs);
  plan.depth = {depth_control.z_enable || depth_control.stencil_enable, depth_info.depth_base,
                uint32_t(depth_info.depth_format)};
  plan.exports_only = pixel_shader_runs && shaders.pixel_shader_exports;
  plan.no_target = !plan.depth.used && !plan.any_color_used();
  if (plan.no_target && !plan.exports_only) Hold(plan, DrawSkip::kNoTarget);
}

}  // namespace

uint32_t DrawColorTargets(RegisterValues regs, uint32_t written) {
  if (xenos::ModeControl(RegisterValue(regs, xenos::Reg::RB_MODECONTROL) & 7) != xenos::ModeControl::kColorDepth) {
    return 0;
  }
  const auto color_mask = DecodeRegister<xenos::reg::RB_COLOR_MASK>(regs);
  uint32_t targets = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    if ((written & (1u << i)) && color_mask.rt_mask(i)) targets |= 1u << i;
  }
  return targets;
}

DrawSkip DrawPlan::FirstSkip(std::initializer_list<DrawSkip> order) const {
  for (DrawSkip reason : order) {
    if (Holds(reason)) return reason;
  }
  return DrawSkip::kNone;
}

DrawPlan PlanDraw(RegisterValues regs, xenos::PrimitiveType primitive_type,
                  const DrawShaders& shaders, ResolutionScale scale) {
  DrawPlan plan;
  plan.scale = scale;
  plan.primitive_type = primitive_type;
  plan.mode = xenos::ModeControl(RegisterValue(regs, xenos::Reg::RB_MODECONTROL) & 7);
  plan.resolve = plan.mode == xenos::ModeControl::kCopy;
  if (plan.mode != xenos::ModeControl::kColorDepth && plan.mode != xenos::ModeControl::kDepth) {
    Hold(plan, DrawSkip::kEdramMode);
  }
  if (!IsSupportedPrimitiveType(primitive_type)) Hold(plan, DrawSkip::kPrimitiveType);
  const auto surface = DecodeRegister<xenos::reg::RB_SURFACE_INFO>(regs);
  plan.surface_pitch = surface.surface_pitch;
  plan.msaa_samples = uint32_t(surface.msaa_samples);
  plan.samples = 1u << std::min(plan.msaa_samples, 2u);
  if (plan.surface_pitch == 0) Hold(plan, DrawSkip::kSurfacePitch);
  PlanTargets(plan, regs, shaders);
  return plan;
}

void PlanPrimitives(DrawPlan& plan, const HostPrimitives& primitives) {
  plan.topology = primitives.topology;
  plan.polygonal = primitives.topology != HostTopology::kLineList &&
                   primitives.topology != HostTopology::kPointList;
  if (primitives.indices.empty()) Hold(plan, DrawSkip::kNoPrimitive);
}

void PlanScissor(DrawPlan& plan, RegisterValues regs, uint32_t width, uint32_t height) {
  plan.viewport = ComputeViewport(regs, width, height);
  plan.host_scissor = HostScissor(plan.viewport.scissor, plan.scale);
  if (plan.viewport.scissor.extent.width == 0 || plan.viewport.scissor.extent.height == 0) {
    Hold(plan, DrawSkip::kEmptyScissor);
  }
}

std::string DrawSkipNote(DrawSkip reason, const DrawPlan& plan) {
  switch (reason) {
    case DrawSkip::kNone:
      return {};
    case DrawSkip::kEdramMode:
      return "draw with RB_MODECONTROL edram_mode " + std::to_string(uint32_t(plan.mode)) +
             " (not colour/depth) skipped";
    case DrawSkip::kPrimitiveType:
      return "draw of primitive type " +
             std::string(xenos::PrimitiveTypeName(uint32_t(plan.primitive_type))) +
             " skipped (not implemented)";
    case DrawSkip::kSurfacePitch:
      return "draw with RB_SURFACE_INFO surface_pitch 0 skipped";
    case DrawSkip::kNoTarget:
      return "draw with no colour target written and no depth/stencil test skipped";
    case DrawSkip::kNoPrimitive:
      return "draw with no complete primitive skipped";
    case DrawSkip::kEmptyScissor:
      return "draw with an empty scissor skipped";
  }
  return {};
}

}  // namespace xnt::gpu
