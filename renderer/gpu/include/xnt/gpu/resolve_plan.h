// A resolve's plan: what every render path decides before it moves a byte (gpu::ResolveInfo from
// the RB_COPY_* / RB_SURFACE_INFO registers, whether it is skipped and why, what the copy and
// the clears do, the EDRAM targets it uses and its rectangle in host pixels), taken once here.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "xnt/gpu/edram_tracker.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/gpu/path_stats.h"
#include "xnt/gpu/register_values.h"
#include "xnt/gpu/resolution_scale.h"
#include "xnt/gpu/resolve.h"

namespace xnt::gpu {

// Why a resolve does nothing; ResolveSkipNote gives each its one note text.
enum class ResolveSkip : uint32_t {
  kNone,
  kEmptyRectangle,  // the rectangle [x0, x1) x [y0, y1) is empty
  kSurfacePitch,    // RB_SURFACE_INFO surface_pitch 0
};

struct ResolvePlan {
  ResolveInfo info;
  ResolveSkip skip = ResolveSkip::kNone;
  // The copy runs (RB_COPY_CONTROL asks for one and the engine can do it); copy_note is counted
  // before it either way: why it cannot run (ResolveInfo::unsupported) or how it is inexact.
  bool copy = false;
  std::string copy_note;
  bool color_clear = false;  // a colour clear of source_select's target (0-3)
  bool depth_clear = false;
  EdramEventTargets targets;  // for the ownership tracker (skipped resolves have none)
  ScissorRect host_rect;      // the rectangle at the resolution scale
};

ResolvePlan PlanResolve(RegisterValues regs, const GuestMemoryAccess& memory,
                        ResolutionScale scale);

const char* ResolveSkipNote(ResolveSkip reason);

// PlanResolve as every path's Resolve begins: the resolve counted in `stats`, a skipped one's
// note (ResolveSkipNote) counted in `notes`; the caller does nothing more when plan.skip is set.
ResolvePlan PlanPathResolve(RegisterValues regs, const GuestMemoryAccess& memory,
                            ResolutionScale scale, PathStats& stats,
                            std::map<std::string, uint64_t>& notes);

}  // namespace xnt::gpu
