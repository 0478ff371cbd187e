// getWeights and getCompTexLOD arithmetic (see texture_queries.h).
#include "xnt/ucode/texture_queries.h"

#include <algorithm>
#include <cmath>

namespace xnt::ucode {

namespace {

// How many coordinate components a fetch dimension reads (cube: the face's s and t).
uint32_t Axes(TextureDimension d) {
  switch (d) {
    case TextureDimension::k1D: return 1;
    case TextureDimension::k3D: return 3;
    default: return 2;
  }
}

float SizeOf(const TextureQuerySize& s, uint32_t axis) {
  return axis == 0 ? s.width : axis == 1 ? s.height : s.depth;
}

}  // namespace

Float4 TextureWeights(const FetchInstruction& f, const Float4& coords, const TextureQuerySize& size) {
  const int32_t offsets[3] = {f.offset_x, f.offset_y, f.offset_z};
  Float4 out{0.0f, 0.0f, 0.0f, 0.0f};
  for (uint32_t a = 0; a < Axes(f.dimension); ++a) {
    // The instruction's offsets are in half texels.
    float t = f.tx_coord_denorm ? coords[a] : coords[a] * SizeOf(size, a);
    t = t + float(offsets[a]) * 0.5f;
    t = t - 0.5f;
    // The filter's weight (gpu::BilinearWeight, which this library cannot include): an infinite
    // or NaN coordinate has none, as the texture unit weighs in fixed point.
    out[a] = std::isfinite(t) ? t - std::floor(t) : 0.0f;
  }
  return out;
}

float TextureComputedLod(const FetchInstruction& f, const Float4& ddx, const Float4& ddy,
                         const TextureQuerySize& size) {
  // Only a volume's z is a filtered axis; a stacked texture's layer is not part of the footprint.
  uint32_t axes = Axes(f.dimension);
  if (f.dimension == TextureDimension::k3D && !size.volume) axes = 2;
  float px = 0.0f, py = 0.0f;
  for (uint32_t a = 0; a < axes; ++a) {
    const float scale = f.tx_coord_denorm ? 1.0f : SizeOf(size, a);
    const float x = ddx[a] * scale, y = ddy[a] * scale;
    px = px + x * x;
    py = py + y * y;
  }
  return std::log2(std::max(std::sqrt(px), std::sqrt(py)));
}

}  // namespace xnt::ucode
