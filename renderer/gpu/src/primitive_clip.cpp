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
  clip.point_mode = cntl.ps_ucp_mode;
  if (vs_exports_kill) clip.kill = cntl.vtx_kill_or ? VertexKillRule::kAny : VertexKillRule::kAll;
  return clip;
}

std::string PointClipModeNote(const PrimitiveClip& clip, bool point_list) {
  if (!point_list || clip.plane_count == 0 || clip.point_mode == 0) return "";
  return "PA_CL_CLIP_CNTL ps_ucp_mode " + std::to_string(clip.point_mode) +
         " not implemented: point sprites are kept or removed whole by their centre against the "
         "user clip planes (mode 0)";
}

bool VertexKilled(float kill_export) {
  return (std::bit_cast<uint32_t>(kill_export) & 0x7FFFFFFFu) != 0;
}

double UserPlaneDistance(const PrimitiveClip& clip, uint32_t n, const std::array<double, 4>& pos) {
  const auto& p = clip.planes[n];
  return double(p[0]) * pos[0] + double(p[1]) * pos[1] + double(p[2]) * pos[2] +
         double(p[3]) * pos[3];
}

RectangleCorners RectangleRightAngle(const std::array<std::array<double, 2>, 3>& screen) {
  auto length2 = [&](int i0, int i1) {
    const double dx = screen[i1][0] - screen[i0][0];
    const double dy = screen[i1][1] - screen[i0][1];
    return dx * dx + dy * dy;
  };
  const double d01 = length2(0, 1), d12 = length2(1, 2), d20 = length2(2, 0);
  if (d20 > d12 && d20 >= d01) return {1, 2, 0};
  if (d01 > d12 && d01 > d20) return {2, 0, 1};
  return {0, 1, 2};
}

}  // namespace xnt::gpu
