// Polygon offset registers and units (see polygon_offset.h for the sources).
#include "xnt/gpu/polygon_offset.h"

#include <algorithm>
#include <cmath>

#include "xnt/gpu/polygon_mode.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

namespace {

// xenos::kPolygonOffsetScaleSubpixelUnit in Xenia: the slope is measured per 1/16 pixel.
constexpr double kScaleSubpixelUnit = 1.0 / 16.0;

float Float(RegisterValues regs, xenos::Reg r) { return RegisterFloat(regs, xenos::RegIndex(r)); }

bool IsFloat24(uint32_t depth_format) {
  return depth_format == uint32_t(xenos::DepthRenderTargetFormat::kD24FS8);
}

}  // namespace

PolygonOffsets ReadPolygonOffsets(RegisterValues regs, bool polygonal) {
  const auto mode = DecodeRegister<xenos::reg::PA_SU_SC_MODE_CNTL>(regs);
  PolygonOffset front{false, Float(regs, xenos::Reg::PA_SU_POLY_OFFSET_FRONT_SCALE),
                      Float(regs, xenos::Reg::PA_SU_POLY_OFFSET_FRONT_OFFSET)};
  PolygonOffset back{false, Float(regs, xenos::Reg::PA_SU_POLY_OFFSET_BACK_SCALE),
                     Float(regs, xenos::Reg::PA_SU_POLY_OFFSET_BACK_OFFSET)};
  PolygonOffsets out;
  if (polygonal && ReadPolygonModes(regs).Active()) {
    // A face drawn as points or lines: which slope and which register the hardware takes for
    // them is not public (gpu/polygon_mode.h), so no face of the draw is offset.
  } else if (polygonal) {
    front.enabled = mode.poly_offset_front_enable;
    back.enabled = mode.poly_offset_back_enable;
    out.front = front;
    out.back = back;
  } else {
    // Lines and points: "para" with the front registers (Xenia's non-polygonal branch).
    front.enabled = mode.poly_offset_para_enable;
    out.front = out.back = front;
  }
  if (!out.front.enabled) out.front = {};
  if (!out.back.enabled) out.back = {};
  return out;
}

PolygonOffset PreferredPolygonOffset(const PolygonOffsets& o, bool cull_front, bool cull_back) {
  PolygonOffset p;
  if (!cull_front && o.front.enabled) p = o.front;
  // Xenia takes the back face's values only when the front gave none (both zero).
  if (!cull_back && o.back.enabled && p.scale == 0.0f && p.offset == 0.0f) p = o.back;
  return p;
}

float DepthBiasConstantFactor(const PolygonOffset& o, uint32_t depth_format) {
  if (!o.enabled) return 0.0f;
  return o.offset * (IsFloat24(depth_format) ? float(1 << 21) : float(1 << 24));
}

float DepthBiasSlopeFactor(const PolygonOffset& o) {
  return o.enabled ? float(o.scale * kScaleSubpixelUnit) : 0.0f;
}

double MinimumResolvableDifference(uint32_t depth_format, double max_abs_depth) {
  if (!IsFloat24(depth_format)) return std::ldexp(1.0, -24);
  // Vulkan "Depth Bias": r = 2^(e - n) for a floating-point depth buffer, n = 23 mantissa bits
  // of the host's 32-bit float depth, e the exponent of the largest depth of the primitive.
  const double z = std::max(std::fabs(max_abs_depth), double(std::ldexp(1.0f, -126)));
  return std::ldexp(1.0, std::ilogb(z) - 23);
}

double PolygonOffsetDepth(const PolygonOffset& o, uint32_t depth_format, double max_slope,
                          double max_abs_depth) {
  if (!o.enabled) return 0.0;
  return std::fabs(max_slope) * double(DepthBiasSlopeFactor(o)) +
         MinimumResolvableDifference(depth_format, max_abs_depth) *
             double(DepthBiasConstantFactor(o, depth_format));
}

float ShaderPolygonOffsetConstant(const PolygonOffset& o, uint32_t depth_format) {
  if (!o.enabled) return 0.0f;
  if (IsFloat24(depth_format)) return DepthBiasConstantFactor(o, depth_format);
  return float(MinimumResolvableDifference(depth_format, 0.0) *
               double(DepthBiasConstantFactor(o, depth_format)));
}

}  // namespace xnt::gpu
