// The interval of a host-filtered texel (check_bounds.h).
#include "check_bounds.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "xnt/gpu/texture_descriptor.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk::check {
namespace {

using ucode::FetchInstruction;
using ucode::Float4;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr double kHugeTexel = 0x1p100;   // a weighted sum of such texels may overflow
constexpr double kFarCoordinate = 0x1p20;  // texel centres no longer representable around it
constexpr int64_t kCubeReach = 2;  // texels past a cube face's edge a bounded footprint may reach
constexpr int64_t kMostSamples = 16384;  // texels one bound may read (a long anisotropic footprint)

// The distance to the next float above |v| (the smallest denormal's for 0).
double Ulp(double v) {
  const float a = float(std::abs(v));
  return double(std::nextafter(a, std::numeric_limits<float>::infinity())) - double(a);
}

// One axis of the footprint at one level: the coordinate in that level's texels (offsets
// included), and the coordinate that puts a point sample at the centre of its texel i.
// Unnormalized coordinates and offsets are in level-0 texels (TextureUnit::Prepare).
struct Axis {
  double base = 1, size = 1, offset = 0;  // level-0 texels, this level's texels, normalized offset
  bool denorm = false;
  double origin = 0;  // a cube face coordinate runs over [1, 2] (after the compiler's `cube`)
  double Texel(float coordinate) const {
    return ((denorm ? coordinate / base : coordinate - origin) + offset) * size;
  }
  float CentreOf(double i) const {
    const double normalized = (i + 0.5) / size - offset;
    return float(denorm ? normalized * base : normalized + origin);
  }
};

// The levels the host sampler may read: the sampler's LOD range as the fbo path sets it (and the
// texture unit model takes it, TextureUnit::Prepare) within the levels the texture has.
std::pair<uint32_t, uint32_t> LevelRange(const xenos::TextureFetchConstant& t, const FetchInstruction& f,
                                         uint32_t levels) {
  uint32_t min_lod = 0, max_lod = 0;
  if (t.mip_filter != xenos::TextureFilter::kBaseMap && t.mip_address != 0) {
    min_lod = t.mip_min_level;
    max_lod = std::max(t.mip_max_level, t.mip_min_level);
  }
  const uint32_t mip = f.mip_filter != 3 ? f.mip_filter : uint32_t(t.mip_filter);
  if (mip == uint32_t(xenos::TextureFilter::kBaseMap)) max_lod = min_lod;
  return {std::min(min_lod, levels - 1), std::min(max_lod, levels - 1)};
}

// What a fetch's footprint spans: 1 axis (1D), 2 (2D, a stack's layer) or 3 (a volume); a 3D
// fetch of a stack reads one layer, z scaled by the stack depth (TextureUnit::FilterAt), which
// the host may pick one apart at a rounding boundary.
struct Shape {
  uint32_t axes = 2;
  bool stack_layers = false;
  // A cube face (z the face index): the model clamps to the face's edge, the host's seamless
  // filter reads the next face there (CubeTexelAcrossEdge).
  bool cube = false;
  explicit Shape(const FetchInstruction& f, const gpu::TextureDescriptor& desc) {
    const bool fetch_3d = f.dimension == ucode::TextureDimension::k3D;
    cube = f.dimension == ucode::TextureDimension::kCube;
    axes = f.dimension == ucode::TextureDimension::k1D ? 1 : fetch_3d && desc.volume() ? 3 : 2;
    stack_layers = fetch_3d && !desc.volume() && desc.layers > 1;
  }
};

// The smallest and largest of each component over the texels around the coordinate on every
// level the host may read, point-sampled by the model: along each axis from floor(x - e) - 1 to
// floor(x + e) + 1, e the half-extent (`extent`, in coordinate units: an anisotropic footprint's
// parallelogram, +-ddx/2 +-ddy/2; 0 otherwise, 3 texels), and the stack layers around the
// coordinate's layer; false when a coordinate is too far out or more than kMostSamples texels
// would be read. A component that is not finite or above kHugeTexel in one of the texels is
// marked `unbounded` (each component is filtered on its own: the others keep their range). A
// cube footprint past its face's edge (by kCubeReach texels at most, else false) adds, for each
// texel outside the face, the texel across the edge on the next face and its 8 neighbours there,
// those past that face's own edge on the third face (past a corner, the neighbourhoods across
// both edges too: Vulkan lets an implementation average the three faces' texels at a corner; the
// rounding of the reprojection stays within the neighbours); `crossed` says so.
bool FootprintRange(const ucode::InterpreterCallbacks& exact, uint32_t slot, const Float4& coords,
                    const Float4& extent, const FetchInstruction& f, const gpu::TextureDescriptor& desc,
                    const xenos::TextureFetchConstant& t, std::pair<uint32_t, uint32_t> levels, Float4& mn,
                    Float4& mx, double x0[3], bool& crossed, std::array<bool, 4>& unbounded) {
  const Shape shape(f, desc);
  FetchInstruction point = f;
  point.mag_filter = point.min_filter = point.mip_filter = 0;
  point.aniso_filter = 0;
  point.vol_mag_filter = point.vol_min_filter = 0;
  point.lod_bias = 0;
  point.use_reg_lod = true;
  point.use_reg_gradients = false;
  bool first = true;
  for (uint32_t level = levels.first; level <= levels.second; ++level) {
    const uint32_t sizes[3] = {desc.width, desc.height, desc.depth};
    const int32_t offsets[3] = {f.offset_x, f.offset_y, f.offset_z};
    Axis axis[3];
    for (uint32_t a = 0; a < 3; ++a) {
      axis[a] = {double(sizes[a]), double(std::max(sizes[a] >> level, 1u)), double(offsets[a]) * 0.5 / double(sizes[a]),
                 f.tx_coord_denorm};
    }
    // A stack's layers: z over the stack depth plus the z offset (half layers), the same on
    // every level.
    if (shape.stack_layers) {
      axis[2] = {double(desc.layers), double(desc.layers), double(f.offset_z) * 0.5 / double(desc.layers),
                 f.tx_coord_denorm};
    }
    // A cube face's s and t: normalized over [1, 2] whatever tx_coord_denorm says
    // (TextureUnit::FilterAt).
    for (uint32_t a = 0; a < 2 && shape.cube; ++a) {
      axis[a].denorm = false;
      axis[a].origin = 1.0;
    }
    const uint32_t spans = shape.axes + (shape.stack_layers ? 1 : 0);
    double x[3] = {0, 0, 0};
    int64_t first_texel[3] = {0, 0, 0}, span[3] = {1, 1, 1};
    int64_t samples = 1;
    for (uint32_t a = 0; a < spans; ++a) {
      x[a] = axis[a].Texel(coords[a]);
      const double e = a < shape.axes ? double(extent[a]) * axis[a].size / (axis[a].denorm ? axis[a].base : 1.0) : 0.0;
      if (!(std::abs(x[a]) + e < kFarCoordinate)) return false;
      if (level == levels.first) x0[a] = x[a];
      first_texel[a] = int64_t(std::floor(x[a] - e)) - 1;
      span[a] = int64_t(std::floor(x[a] + e)) + 2 - first_texel[a];
      if (shape.cube && (first_texel[a] < 0 || first_texel[a] + span[a] > int64_t(axis[a].size))) {
        // Only a footprint near its face: far past the edge the host samples another face
        // around a point of its own, which the texels next to this face do not bound.
        if (first_texel[a] < -kCubeReach || first_texel[a] + span[a] > int64_t(axis[a].size) + kCubeReach) {
          return false;
        }
        crossed = true;
      }
      samples *= span[a];
      if (samples * int64_t(levels.second - levels.first + 1) > kMostSamples) return false;
    }
    // The register LOD that, with the fetch constant's bias (1/32 steps, exact), makes lambda
    // this level, which the point mip filter then reads.
    ucode::TextureRegisters registers;
    registers.lod = float(level) - float(t.lod_bias) / 32.0f;
    const auto read = [&](const Float4& at) {
      const Float4 texel = exact.texture_fetch_explicit ? exact.texture_fetch_explicit(slot, at, point, registers)
                                                        : exact.texture_fetch(slot, at, point);
      for (uint32_t c = 0; c < 4; ++c) {
        if (!(std::abs(double(texel[c])) <= kHugeTexel)) unbounded[c] = true;
        mn[c] = first ? texel[c] : std::min(mn[c], texel[c]);
        mx[c] = first ? texel[c] : std::max(mx[c], texel[c]);
      }
      first = false;
    };
    // The face as the model picks it (TextureUnit: the nearest index, clamped to 0..5).
    const int32_t face = shape.cube ? int32_t(std::clamp(std::floor(double(coords[2]) + 0.5), 0.0, 5.0)) : 0;
    for (int64_t n = 0; n < samples; ++n) {
      Float4 at = coords;
      int64_t rest = n, index[3] = {0, 0, 0};
      for (uint32_t a = 0; a < spans; ++a) {
        index[a] = first_texel[a] + rest % span[a];
        at[a] = axis[a].CentreOf(double(index[a]));
        rest /= span[a];
      }
      read(at);
      const int64_t size = int64_t(axis[0].size);
      const bool out_i = index[0] < 0 || index[0] >= size, out_j = index[1] < 0 || index[1] >= size;
      if (!shape.cube || (!out_i && !out_j)) continue;
      // Past one edge: the next face's texel. Past a corner: the faces across both edges too (the
      // corner's value may be the three faces' texels averaged).
      std::array<FaceTexel, 3> across{};
      size_t count = 0;
      across[count++] = CubeTexelAcrossEdge(face, index[0], index[1], size);
      if (out_i && out_j) {
        across[count++] = CubeTexelAcrossEdge(face, std::clamp<int64_t>(index[0], 0, size - 1), index[1], size);
        across[count++] = CubeTexelAcrossEdge(face, index[0], std::clamp<int64_t>(index[1], 0, size - 1), size);
      }
      for (size_t k = 0; k < count; ++k) {
        for (int64_t dj = -1; dj <= 1; ++dj) {
          for (int64_t di = -1; di <= 1; ++di) {
            // A neighbour past the next face's own edge (near a cube corner) is the third face's.
            const FaceTexel neighbour = CubeTexelAcrossEdge(across[k].face, across[k].i + di, across[k].j + dj, size);
            Float4 next = coords;
            next[0] = axis[0].CentreOf(double(neighbour.i));
            next[1] = axis[1].CentreOf(double(neighbour.j));
            next[2] = float(neighbour.face);
            read(next);
          }
        }
      }
    }
  }
  return true;
}

// No bound: the whole line. Its infinite ends keep their meaning through the monotone ops (a
// NaN end would not: Xenos max/min drop a NaN operand), and an export end that stays infinite is
// not compared (kNoBound).
struct Interval {
  Float4 lo{-kInf, -kInf, -kInf, -kInf}, hi{kInf, kInf, kInf, kInf};
};

// The interval of one bounded fetch at `coords` (check_bounds.h), `e` the model's own result.
Interval Bound(const ucode::InterpreterCallbacks& exact, uint32_t slot, const Float4& coords, const Float4& ddx,
               const Float4& ddy, const FetchInstruction& f, const Float4& e, const uint32_t* fetch_constants,
               uint32_t sub_texel_bits) {
  Interval r;
  const uint32_t* d = fetch_constants + (slot & 31) * 6;
  const gpu::TextureDescriptor desc = gpu::TextureDescriptor::FromFetchConstant(d);
  const xenos::TextureFetchConstant t = xenos::TextureFetchConstant::Decode(d);
  const std::pair<uint32_t, uint32_t> levels = LevelRange(t, f, desc.levels);
  if (levels.second > levels.first && !exact.texture_fetch_explicit) return r;
  const auto resolved = [](uint32_t instruction, xenos::TextureFilter constant) {
    return instruction == 3 ? uint32_t(constant) : instruction;
  };
  const uint32_t aniso = f.aniso_filter != 7 ? f.aniso_filter : uint32_t(t.aniso_filter);
  const bool anisotropic = aniso >= 2 && aniso <= 5;
  // An anisotropic footprint: the host's walk stays within the parallelogram its derivatives
  // span around the coordinate (+-ddx/2 +-ddy/2), each tap a bilinear footprint.
  Float4 extent{};
  for (uint32_t a = 0; a < 3 && anisotropic; ++a) extent[a] = 0.5f * (std::abs(ddx[a]) + std::abs(ddy[a]));
  // A footprint without area (a 1D fetch, a zero or a degenerate pair of derivatives): its minor
  // axis is 0 and the ratio to it infinite, where lavapipe's anisotropic filter returned NaN for
  // finite texels (Vulkan's formula takes the anisotropy limit there): no bound.
  if (anisotropic && (f.dimension == ucode::TextureDimension::k1D ||
                      double(ddx[0]) * double(ddy[1]) - double(ddx[1]) * double(ddy[0]) == 0.0)) {
    return r;
  }
  Float4 mn{}, mx{};
  double x[3] = {0, 0, 0};
  bool crossed = false;  // a cube footprint read texels of the next face
  std::array<bool, 4> unbounded{};
  if (!FootprintRange(exact, slot, coords, extent, f, desc, t, levels, mn, mx, x, crossed, unbounded)) {
    return r;
  }
  const Shape shape(f, desc);
  const xenos::TextureSign signs[4] = {t.sign_x, t.sign_y, t.sign_z, t.sign_w};
  const bool affine = std::find(std::begin(signs), std::end(signs), xenos::TextureSign::kGamma) == std::end(signs);
  // The weight error where one level (and one layer) is read, linearly whatever the LOD.
  const bool weights = affine && !anisotropic && !crossed && levels.first == levels.second && !shape.stack_layers &&
                       resolved(f.mag_filter, t.mag_filter) == 1 && resolved(f.min_filter, t.min_filter) == 1;
  double step = 0;  // weight error per unit of the footprint's range, summed over the axes
  for (uint32_t a = 0; a < shape.axes; ++a) step += std::ldexp(1.0, -int(sub_texel_bits)) + 2.0 * Ulp(x[a]);
  const double lerps = double((1u << shape.axes) - 1);  // 1, 3 or 7
  for (uint32_t c = 0; c < 4; ++c) {
    if (unbounded[c]) continue;  // the whole line
    const double low = mn[c], high = mx[c];
    const double slack = 3.0 * lerps * Ulp(std::max(std::abs(low), std::abs(high)));
    double lo = low - slack, hi = high + slack;
    if (weights && std::isfinite(e[c])) {
      const double w = step * (high - low) + slack;
      lo = std::max(lo, double(e[c]) - w);
      hi = std::min(hi, double(e[c]) + w);
    }
    // Rounded outwards to floats.
    r.lo[c] = std::nextafter(float(lo), -kInf);
    r.hi[c] = std::nextafter(float(hi), kInf);
  }
  return r;
}

}  // namespace

FaceTexel CubeTexelAcrossEdge(int32_t face, int64_t i, int64_t j, int64_t size) {
  if (i >= 0 && j >= 0 && i < size && j < size) return {face, i, j};
  const double sc = 2.0 * (double(i) + 0.5) / double(size) - 1.0;
  const double tc = 2.0 * (double(j) + 0.5) / double(size) - 1.0;
  double d[3];
  switch (face) {
    case 0: d[0] = 1, d[1] = -tc, d[2] = -sc; break;
    case 1: d[0] = -1, d[1] = -tc, d[2] = sc; break;
    case 2: d[0] = sc, d[1] = 1, d[2] = tc; break;
    case 3: d[0] = sc, d[1] = -1, d[2] = -tc; break;
    case 4: d[0] = sc, d[1] = -tc, d[2] = 1; break;
    default: d[0] = -sc, d[1] = -tc, d[2] = -1; break;
  }
  const double ax = std::abs(d[0]), ay = std::abs(d[1]), az = std::abs(d[2]);
  int32_t to;
  double s2, t2, ma;
  if (ax >= ay && ax >= az) {
    to = d[0] >= 0 ? 0 : 1, ma = ax, s2 = d[0] >= 0 ? -d[2] : d[2], t2 = -d[1];
  } else if (ay >= az) {
    to = d[1] >= 0 ? 2 : 3, ma = ay, s2 = d[0], t2 = d[1] >= 0 ? d[2] : -d[2];
  } else {
    to = d[2] >= 0 ? 4 : 5, ma = az, s2 = d[2] >= 0 ? d[0] : -d[0], t2 = -d[1];
  }
  const auto index = [&](double c) {
    return std::clamp<int64_t>(int64_t(std::floor((c / ma + 1.0) * 0.5 * double(size))), 0, size - 1);
  };
  return {to, index(s2), index(t2)};
}

ucode::InterpreterCallbacks BoundCallbacks(const ucode::InterpreterCallbacks& exact, const uint32_t* fetch_constants,
                                           std::function<Value(const FetchInstruction&)> rule,
                                           uint32_t sub_texel_bits, bool high) {
  ucode::InterpreterCallbacks cb = exact;
  if (!exact.texture_fetch) return cb;
  const auto shared_rule = std::make_shared<std::function<Value(const FetchInstruction&)>>(std::move(rule));
  // The end of the interval when the fetch is bounded, else the model's texel `e` itself.
  // ddx, ddy: the coordinates' derivatives the fetch takes (zero for a lone point or a vertex).
  auto end = [&exact, fetch_constants, sub_texel_bits, high, shared_rule](
                 uint32_t slot, const Float4& coords, const Float4& ddx, const Float4& ddy, const FetchInstruction& f,
                 const Float4& e) {
    // A per-lane texel (exact where both sides magnify) is bounded too, for the lanes where
    // they may not: the exact comparison of the others does not read the ends.
    const Value rule = (*shared_rule)(f);
    if (!rule.bounded && !rule.per_lane) return e;
    const Interval i = Bound(exact, slot, coords, ddx, ddy, f, e, fetch_constants, sub_texel_bits);
    return high ? i.hi : i.lo;
  };
  cb.texture_fetch = [&exact, end](uint32_t slot, const Float4& coords, const FetchInstruction& f) {
    return end(slot, coords, {}, {}, f, exact.texture_fetch(slot, coords, f));
  };
  if (exact.texture_fetch_gradients) {
    cb.texture_fetch_gradients = [&exact, end](uint32_t slot, const Float4& coords, const FetchInstruction& f,
                                               const Float4& ddx, const Float4& ddy) {
      return end(slot, coords, ddx, ddy, f, exact.texture_fetch_gradients(slot, coords, f, ddx, ddy));
    };
  }
  if (exact.texture_fetch_explicit) {
    cb.texture_fetch_explicit = [&exact, end](uint32_t slot, const Float4& coords, const FetchInstruction& f,
                                              const ucode::TextureRegisters& registers) {
      const bool gradients = f.use_reg_gradients && f.use_comp_lod && !f.use_reg_lod;  // TextureUnit's walk
      return end(slot, coords, gradients ? registers.grad_h : Float4{}, gradients ? registers.grad_v : Float4{}, f,
                 exact.texture_fetch_explicit(slot, coords, f, registers));
    };
  }
  return cb;
}

}  // namespace xnt::vk::check
