// The coordinate -> texel rule (texel_coordinate.h).
#include "xnt/gpu/texel_coordinate.h"

#include <algorithm>
#include <cmath>

namespace xnt::gpu {

float TexelFixedPoint(float texel_coord) {
  if (std::isnan(texel_coord)) return 0.0f;
  const float steps = texel_coord * float(1u << kTexelSubBits);
  const float whole = std::floor(steps);
  // steps - whole is exact; beyond 2^23 steps have no fraction (and inf - inf is NaN: no bump).
  return steps - whole >= 0.5f ? whole + 1.0f : whole;
}

int32_t PointTexelIndexGeneral(float texel_coord) {
  const float texel = std::floor(TexelFixedPoint(texel_coord) / float(1u << kTexelSubBits));
  return int32_t(std::clamp(texel, -1073741824.0f, 1073741824.0f));
}

float BilinearWeight(float f) { return std::isfinite(f) ? f - std::floor(f) : 0.0f; }

}  // namespace xnt::gpu
