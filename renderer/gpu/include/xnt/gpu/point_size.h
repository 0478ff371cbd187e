// The size of a point-list draw's points as PA_SU_POINT_SIZE / PA_SU_POINT_MINMAX give it,
// shared by every render path.
//
// Both registers hold half-sizes in 12.4 fixed point (8 is a 1-pixel point), the unit of
// PA_SU_LINE_CNTL: PA_SU_POINT_SIZE height in bits 0-15 and width in bits 16-31,
// PA_SU_POINT_MINMAX the minimum in bits 0-15 and the maximum in bits 16-31. A point is width x
// height guest pixels unless the vertex shader exports a size (oPts.x), which is a diameter
// clamped to [min, max] and used for both axes. Sources: Xenia's register layout
// (xenos registers PA_SU_POINT_SIZE / PA_SU_POINT_MINMAX) and how its command processors turn
// them into point_constant_diameter[2] and point_vertex_diameter_min/max (times 2/16), with its
// point-list geometry shader taking the vertex's diameter, when written, for both axes.
#pragma once

#include <algorithm>
#include <cstdint>

#include "xnt/gpu/register_values.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

// Diameters in guest pixels.
struct PointSizes {
  float width = 0.0f, height = 0.0f;              // the constant size (PA_SU_POINT_SIZE)
  float min_diameter = 0.0f, max_diameter = 0.0f;  // an exported size's clamp (PA_SU_POINT_MINMAX)

  // The point's width and height given the vertex shader's oPts.x (`exported` when it writes
  // it). The clamp is max then min, so a minimum above the maximum yields the maximum.
  void Size(bool exported, float vertex_diameter, float& w, float& h) const {
    if (!exported) {
      w = width;
      h = height;
      return;
    }
    w = h = std::min(std::max(vertex_diameter, min_diameter), max_diameter);
  }
};

inline PointSizes ReadPointSizes(RegisterValues regs) {
  const uint32_t size = RegisterValue(regs, xenos::Reg::PA_SU_POINT_SIZE);
  const uint32_t minmax = RegisterValue(regs, xenos::Reg::PA_SU_POINT_MINMAX);
  constexpr float kHalfFixedToDiameter = 2.0f / 16.0f;
  PointSizes p;
  p.width = float(size >> 16) * kHalfFixedToDiameter;
  p.height = float(size & 0xFFFFu) * kHalfFixedToDiameter;
  p.min_diameter = float(minmax & 0xFFFFu) * kHalfFixedToDiameter;
  p.max_diameter = float(minmax >> 16) * kHalfFixedToDiameter;
  return p;
}

}  // namespace xnt::gpu
