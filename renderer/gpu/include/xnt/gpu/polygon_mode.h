// How a draw's triangles are filled (PA_SU_SC_MODE_CNTL poly_mode, polymode_front_ptype,
// polymode_back_ptype), the rule every render path follows.
//
// With poly_mode 1 ("dual mode") the setup unit draws each triangle by its facing as its three
// vertices (ptype 0), its three edges (1) or itself (2): OpenGL's glPolygonMode with separate
// front and back modes, which the R400 lineage of the Xenos was built to run. Any other poly_mode
// fills: Xenia (registers.h, xenos.h) records a title that writes poly_mode 2 with both ptypes 0
// and means filled triangles, so only the value 1 turns the modes on. A ptype of 3..7 is no mode
// and fills too.
//
// The model (docs/cpu.md "Polygon fill modes" gives the reasons):
// - Facing is the triangle's own, before clipping: with every vertex in front of the eye the
//   sign of the area of its vertices snapped to the rasterizer's 1/256 pixel, as a filled
//   triangle's (SnappedClockwise: exact, so a triangle whose snapped vertices are collinear has
//   no facing on any path); otherwise TriangleClockwise, the orientation of the part of the
//   triangle in front of the eye. A face that PA_SU_SC_MODE_CNTL culls draws nothing in any
//   mode; a triangle without area draws nothing.
// - Vertex kill and cull-only user planes remove the triangle as they remove a filled one (the
//   clipper sees the triangle before the setup unit splits it).
// - Lines: the edges v0 -> v1, v1 -> v2, v2 -> v0 as lines of the draw's width (gpu/line_width.h),
//   each clipped as a line is: a clipped triangle's edges end at the clip planes, and no edge is
//   drawn along them. Points: the three vertices as point sprites of the draw's point size
//   (gpu/point_size.h), removed when outside a clipping plane.
// - Their pixels keep the triangle's facing (two-sided stencil, vFace, the param gen back-face
//   bit) and are a polygon's to param gen (no line or point bit, no sprite coordinate).
// - Polygon offset is not applied in a draw that draws a face as lines or points (which slope
//   the hardware takes for an edge is not public): gpu::ReadPolygonOffsets gives none, and the
//   paths note it.
// - Quads and fans reach the setup unit as triangles (gpu/primitive_processor.h), so a quad
//   drawn as lines shows the diagonal between its two triangles.
#pragma once

#include <cstdint>

#include "xnt/gpu/register_values.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

enum class PolygonFill : uint32_t { kPoints = 0, kLines = 1, kTriangles = 2, kNothing = 3 };

struct PolygonModes {
  // By facing, culling applied: kNothing for a culled face.
  PolygonFill front = PolygonFill::kTriangles;
  PolygonFill back = PolygonFill::kTriangles;
  // True when a face that is drawn is drawn as points or lines.
  bool Active() const {
    auto special = [](PolygonFill f) {
      return f == PolygonFill::kPoints || f == PolygonFill::kLines;
    };
    return special(front) || special(back);
  }
  // The fill of a triangle by its screen orientation (y down) and PA_SU_SC_MODE_CNTL face.
  PolygonFill For(bool clockwise, bool front_is_cw) const {
    return clockwise == front_is_cw ? front : back;
  }
};

// The modes of a draw's triangles (not rectangles: those are screen-space blits, never culled
// and always filled).
inline PolygonModes ReadPolygonModes(RegisterValues regs) {
  const auto mode = DecodeRegister<xenos::reg::PA_SU_SC_MODE_CNTL>(regs);
  PolygonModes m;
  auto fill = [&](xenos::PolygonType ptype, bool culled) {
    if (culled) return PolygonFill::kNothing;
    if (mode.poly_mode != xenos::PolygonModeEnable::kDualMode) return PolygonFill::kTriangles;
    const uint32_t t = uint32_t(ptype);
    return t <= 1 ? PolygonFill(t) : PolygonFill::kTriangles;
  };
  m.front = fill(mode.polymode_front_ptype, mode.cull_front);
  m.back = fill(mode.polymode_back_ptype, mode.cull_back);
  return m;
}

// The note a path counts for a triangle draw whose polygon offset the modes turn off (empty when
// they do not): an offset the title asked for is not applied.
inline const char* PolygonModeOffsetNote(RegisterValues regs) {
  const auto mode = DecodeRegister<xenos::reg::PA_SU_SC_MODE_CNTL>(regs);
  if (!(mode.poly_offset_front_enable || mode.poly_offset_back_enable)) return "";
  if (!ReadPolygonModes(regs).Active()) return "";
  return "polygon offset of triangles drawn as points or lines (PA_SU_SC_MODE_CNTL poly_mode 1): "
         "not modelled, not applied";
}

// The orientation of a triangle from its vertices' screen positions (host pixels, y down)
// snapped to 1/256 pixel: +1 clockwise, -1 counter-clockwise, 0 collinear. Exact for snapped
// positions within +-2^23 pixels (every product below is an integer under 2^53).
inline int SnappedClockwise(const double x[3], const double y[3]) {
  const double area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
  return area > 0.0 ? 1 : area < 0.0 ? -1 : 0;
}

// The screen orientation of a triangle from its clip-space positions (x, y, w of each; the
// screen x / w, y / w under any viewport whose scales are positive, y down): the sign of the
// determinant of the three (x, y, w) rows, which is w0 w1 w2 times the screen area's, and is the
// orientation of the triangle's part in front of the eye even when a vertex is behind it.
// +1 clockwise on screen, -1 counter-clockwise, 0 no area. Double precision from float
// positions: every product of two is exact, so only a triangle within rounding of no area can
// take another sign elsewhere.
inline int TriangleClockwise(const double a[3], const double b[3], const double c[3]) {
  const double det = a[0] * (b[1] * c[2] - c[1] * b[2]) - a[1] * (b[0] * c[2] - c[0] * b[2]) +
                     a[2] * (b[0] * c[1] - c[0] * b[1]);
  return det > 0.0 ? 1 : det < 0.0 ? -1 : 0;
}

}  // namespace xnt::gpu
