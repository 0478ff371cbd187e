// User clip planes and vertex kill (see primitive_clip.h).
#include "xnt/gpu/primitive_clip.h"

#include <bit>

#include "xnt/xenos/registers.h"

namespace xnt::gpu {

PrimitiveClip ReadPrimitiveClip(RegisterValues regs, bool vs_exports_kill) {
  const auto cntl = DecodeRegister<xenos::reg::PA_CL_CLIP_CNTL>(regs);
  PrimitiveClip clip;
  const uint32_t enabled = cntl.clip_disable ? 0u : cntl.ucp_ena;
  for (uint32_t n = 0; n < kUserClipPlaneCount; ++n) {
    if (!(enabled & (1u << n))) continue;
    const uint32_t first = xenos::RegIndex(xenos::Reg::PA_CL_UCP_0_X) + 4 * n;
    for (uint32_t k = 0; k < 4; ++k) clip.planes[clip.plane_count][k] = RegisterFloat(regs, first + k);
    ++clip.plane_count;
  }
  clip.planes_cull_only = clip.plane_count != 0 && cntl.ucp_cull_only_ena;
  if (vs_exports_kill) clip.kill = cntl.vtx_kill_or ? VertexKillRule::kAny : VertexKillRule::kAll;
  return clip;
}

bool VertexKilled(float kill_export) {
  return (std::bit_cast<uint32_t>(kill_export) & 0x7FFFFFFFu) != 0;
}

double UserPlaneDistance(const PrimitiveClip& clip, uint32_t n, const std::array<double, 4>& pos) {
  const auto& p = clip.planes[n];
  return double(p[0]) * pos[0] + double(p[1]) * pos[1] + double(p[2]) * pos[2] +
         double(p[3]) * pos[3];
}

std::string PrimitiveClipNote(const PrimitiveClip& clip, xenos::PrimitiveType type) {
  if (!clip.active() || type != xenos::PrimitiveType::kRectangleList) return "";
  return "user clip planes / vertex kill on a rectangle list not implemented: its primitives are "
         "drawn unclipped";
}

}  // namespace xnt::gpu
