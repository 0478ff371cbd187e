// A resolve's plan from its registers (see resolve_plan.h).
#include "xnt/gpu/resolve_plan.h"

namespace xnt::gpu {

ResolvePlan PlanResolve(RegisterValues regs, const GuestMemoryAccess& memory,
                        ResolutionScale scale) {
  ResolvePlan plan;
  plan.info = ComputeResolveInfo(regs, memory);
  const ResolveInfo& info = plan.info;
  if (info.empty()) {
    plan.skip = ResolveSkip::kEmptyRectangle;
    return plan;
  }
  if (info.surface_pitch == 0) {
    plan.skip = ResolveSkip::kSurfacePitch;
    return plan;
  }
  plan.targets = EdramTargetsForResolve(info);
  if (info.copy) {
    plan.copy = info.unsupported.empty();
    plan.copy_note = plan.copy ? info.note : info.unsupported;
  }
  plan.color_clear = info.color_clear && info.source_select < 4;
  plan.depth_clear = info.depth_clear;
  plan.host_rect = HostRect(info.x0, info.y0, info.x1, info.y1, scale);
  return plan;
}

const char* ResolveSkipNote(ResolveSkip reason) {
  static constexpr const char* kNotes[] = {
      "",                                                      // kNone
      "resolve with an empty rectangle",                       // kEmptyRectangle
      "resolve with RB_SURFACE_INFO surface_pitch 0 skipped",  // kSurfacePitch
  };
  return kNotes[uint32_t(reason)];
}

ResolvePlan PlanPathResolve(RegisterValues regs, const GuestMemoryAccess& memory,
                            ResolutionScale scale, PathStats& stats,
                            std::map<std::string, uint64_t>& notes) {
  ++stats.resolves;
  ResolvePlan plan = PlanResolve(regs, memory, scale);
  if (plan.skip != ResolveSkip::kNone) ++notes[ResolveSkipNote(plan.skip)];
  return plan;
}

}  // namespace xnt::gpu
