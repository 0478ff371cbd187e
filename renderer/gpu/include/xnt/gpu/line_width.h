// The width of a line draw as PA_SU_LINE_CNTL gives it, shared by every render path.
//
// PA_SU_LINE_CNTL bits 0-15 (WIDTH) hold half the line width in 12.4 fixed point, the unit of
// PA_SU_POINT_SIZE: 8 is a 1-pixel line. Sources: AMD's R6xx register reference ("1/2 width of
// line, in sub-pixels (1/16th) units"; the R6xx PA descends from the Xenos one) and Mesa
// freedreno a2xx (fd2_rasterizer.c writes A2XX_PA_SU_LINE_CNTL_WIDTH(line_width / 2) with the
// 12.4 conversion of a2xx.xml.h). Xenia draws every line 1 pixel wide and does not read the field.
#pragma once

#include <cstdint>

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

}  // namespace xnt::gpu
