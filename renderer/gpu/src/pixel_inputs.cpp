// Pixel-shader inputs the sequencer generates: centroid selection and PsParamGen (pixel_inputs.h).
#include "xnt/gpu/pixel_inputs.h"

#include <algorithm>
#include <bit>

#include "xnt/xenos/registers.h"

namespace xnt::gpu {

uint32_t InterpolatorCentroidMask(uint32_t samples, uint32_t sc_sample_cntl,
                                  uint32_t sampling_pattern) {
  constexpr uint32_t kAll = 0xFFFFu;  // 16 interpolators
  if (samples <= 1) return 0;
  switch (xenos::SampleControl(sc_sample_cntl)) {
    case xenos::SampleControl::kCentroidsOnly: return kAll;
    case xenos::SampleControl::kCentersOnly: return 0;
    case xenos::SampleControl::kCentroidsAndCenters: return ~sampling_pattern & kAll;
  }
  // Value 3 is not defined; the sequencer's default (0) reading of it is a guess, so centres,
  // which is what a host without MSAA would give anyway.
  return 0;
}

uint32_t InterpolatorCentroidMask(RegisterValues regs, uint32_t samples) {
  const auto misc = DecodeRegister<xenos::reg::SQ_CONTEXT_MISC>(regs);
  const auto cntl = DecodeRegister<xenos::reg::SQ_INTERPOLATOR_CNTL>(regs);
  return InterpolatorCentroidMask(samples, uint32_t(misc.sc_sample_cntl), cntl.sampling_pattern);
}

int32_t CentroidSample(uint32_t coverage, uint32_t samples) {
  const uint32_t all = samples >= 32 ? ~0u : (1u << samples) - 1;
  coverage &= all;
  if (coverage == 0 || coverage == all) return -1;
  return int32_t(std::countr_zero(coverage));
}

float ParamGenPosition(uint32_t host_pixel, uint32_t scale) {
  const uint32_t s = std::max(1u, scale);
  if (s == 1) return float(host_pixel);
  return std::max(0.0f, (float(host_pixel) + 0.5f) / float(s) - 0.5f);
}

std::array<float, 4> PsParamGen(float x, float y, ParamGenPrimitive primitive, bool back_facing,
                                float point_s, float point_t) {
  constexpr uint32_t kSign = 0x80000000u;
  auto with_sign = [](float v, bool set) {
    return std::bit_cast<float>(std::bit_cast<uint32_t>(v) ^ (set ? kSign : 0u));
  };
  const bool point = primitive == ParamGenPrimitive::kPoint;
  const bool line = primitive == ParamGenPrimitive::kLine;
  return {with_sign(x, primitive == ParamGenPrimitive::kPolygon && back_facing),
          with_sign(y, point), point ? point_s : with_sign(0.0f, line), point ? point_t : 0.0f};
}

}  // namespace xnt::gpu
