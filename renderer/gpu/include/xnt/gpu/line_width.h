// The width of a line draw as PA_SU_LINE_CNTL gives it, shared by every render path.
//
// PA_SU_LINE_CNTL bits 0-15 (WIDTH) hold half the line width in 12.4 fixed point, the unit of
// PA_SU_POINT_SIZE: 8 is a 1-pixel line. Sources: AMD's R6xx register reference ("1/2 width of
// line, in sub-pixels (1/16th) units"; the R6xx PA descends from the Xenos one) and Mesa
// freedreno a2xx (fd2_rasterizer.c writes A2XX_PA_SU_LINE_CNTL_WIDTH(line_width / 2) with the
// 12.4 conversion of a2xx.xml.h). Xenia draws every line 1 pixel wide and does not read the field.
#pragma once

#include <cmath>
#include <cstdint>

#include "xnt/base/resolution_scale.h"
#include "xnt/gpu/register_values.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

// Line width in guest pixels. A WIDTH of 0 is taken as 1 pixel: the register as a trace leaves
// it when the title never wrote it (the bundled samples' D3D device defaults do not), and the
// width every path drew before the field was read.
inline float LineWidth(RegisterValues regs) {
  const uint32_t half = RegisterValue(regs, xenos::Reg::PA_SU_LINE_CNTL) & 0xFFFFu;
  return half == 0 ? 1.0f : float(half) / 8.0f;
}

// Half of a wide line's extrusion, in host pixels: the vector from the segment to one long side
// of the quad the line is rasterized as. The quad is the guest's (its sides `width` guest
// pixels apart, perpendicular to the segment in guest pixels) mapped to host pixels by the
// resolution scale, as the hardware rasterizing S x T times the resolution draws it: each host
// pixel then samples the point of the guest line it covers, and a non-square scale turns the
// rectangle into a parallelogram (a host line's width, perpendicular on the host, cannot).
// `dx`, `dy`: the segment's first end minus its second, in host pixels.
//
// The arithmetic is llvmpipe's rectangular-line setup (lp_setup_line.c: (-dy, dx) times half
// the width over the length, in float) with the guest length written through host deltas:
// |d_guest| = |(dx, dy * S/T)| / S. At 1x1, and at any S x S where it is the host line of width
// `width` * S, every factor below is an exact 1, so the corners are the host rasterizer's.
struct LineExtrusion {
  float x = 0.0f, y = 0.0f;
};
inline LineExtrusion LineHalfWidth(float dx, float dy, float width, ResolutionScale scale) {
  const float sx = float(scale.x), sy = float(scale.y);
  const float x_over_y = sx / sy, y_over_x = sy / sx;
  const float dy_guest_x = dy * x_over_y;  // dy in units of S host pixels per guest pixel
  const float k = (width * 0.5f * sx) / std::sqrt(dx * dx + dy_guest_x * dy_guest_x);
  return {-dy * x_over_y * k, dx * y_over_x * k};
}

}  // namespace xnt::gpu
