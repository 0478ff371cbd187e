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

bool PointPlanesAtCorners(const PrimitiveClip& clip) {
  if (clip.plane_count == 0) return false;
  return clip.planes_cull_only ? clip.point_mode == 3 : clip.point_mode >= 2;
}

double PointCornerDistance(const PrimitiveClip& clip, uint32_t n, double centre_distance, double dx,
                           double dy) {
  return centre_distance + double(clip.planes[n][0]) * dx + double(clip.planes[n][1]) * dy;
}

double PointCornerOffset(double sign, double size_pixels, double w, double screen_scale) {
  return screen_scale != 0.0 ? sign * size_pixels * 0.5 * w / screen_scale : 0.0;
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
