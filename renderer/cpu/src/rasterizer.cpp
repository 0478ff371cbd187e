// Triangle rasterization with the Direct3D 9 / Xenos rules (see geometry.h): vertices snapped to
// 1/256 pixel, coverage tested at pixel centres with exact 64-bit edge functions, the top-left
// rule deciding pixels whose centre lies exactly on an edge, barycentrics from the same edge
// values (so shared edges never double-shade or leave gaps), depth interpolated linearly in
// screen space and attributes perspective-correctly.
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "geometry.h"
#include "xnt/gpu/pixel_inputs.h"

namespace xnt::cpu {

namespace {

constexpr int64_t kSubPixel = 256;

struct Snapped {
  int64_t x, y;      // 1/256 pixel
  double z, inv_w;   // depth (z/w) and 1/w
};

Snapped Snap(const ClipVertex& v) {
  const double inv_w = 1.0 / v.pos[3];
  return {int64_t(std::llround(v.pos[0] * inv_w * kSubPixel)),
          int64_t(std::llround(v.pos[1] * inv_w * kSubPixel)), v.pos[2] * inv_w, inv_w};
}

// Edge function of a -> b at p (all 1/256 pixel): positive on the interior side of a
// counter-clockwise-in-math (clockwise on a y-down screen) ordering made positive below.
int64_t Edge(const Snapped& a, const Snapped& b, int64_t px, int64_t py) {
  return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
}

// Top edge: horizontal with the interior below (y down); left edge: the interior to its right.
bool TopLeft(const Snapped& a, const Snapped& b) {
  const int64_t dx = b.x - a.x, dy = b.y - a.y;
  return dy < 0 || (dy == 0 && dx > 0);
}

}  // namespace

float OffsetDepth(float z, double bias) {
  if (bias == 0.0) return z;
  return float(std::clamp(double(z) + bias, 0.0, 1.0));
}

float SampleDepth(float z, double bias, const RasterState& state) {
  const float d = OffsetDepth(z, bias);
  return state.clamp_depth ? std::clamp(d, 0.0f, 1.0f) : d;
}

const SamplePosition* SamplePositions(uint32_t samples) {
  static constexpr SamplePosition k1[1] = {{128, 128}};
  static constexpr SamplePosition k2[2] = {{64, 64}, {192, 192}};
  static constexpr SamplePosition k4[4] = {{96, 32}, {224, 96}, {32, 160}, {160, 224}};
  return samples >= 4 ? k4 : samples == 2 ? k2 : k1;
}

namespace {

// Triangle setup: the vertices snapped and ordered clockwise on screen, facing, the polygon
// offset and the bounding box within the scissor.
struct TriangleSetup {
  const ClipVertex* v[3] = {};
  Snapped s[3] = {};
  int64_t abs_area = 0;
  bool front = false;
  double offset = 0.0;
  int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// Polygon offset: the face's PA_SU_POLY_OFFSET_* with the slope of the triangle's depth plane
// in depth per pixel (a guest pixel at a scale unless derivatives are per host pixel),
// max(|dz/dx|, |dz/dy|) (gpu/polygon_offset.h; Vulkan "Depth Bias" allows
// the max form and llvmpipe uses it), the same for every fragment of the triangle.
double TriangleDepthOffset(const Snapped s[3], bool front, const RasterState& state) {
  const gpu::PolygonOffset& po = front ? state.polygon_offset.front : state.polygon_offset.back;
  if (!po.enabled) return 0.0;
  const double x10 = double(s[1].x - s[0].x) / kSubPixel, y10 = double(s[1].y - s[0].y) / kSubPixel;
  const double x20 = double(s[2].x - s[0].x) / kSubPixel, y20 = double(s[2].y - s[0].y) / kSubPixel;
  const double z10 = s[1].z - s[0].z, z20 = s[2].z - s[0].z;
  const double det = x10 * y20 - x20 * y10;
  const double dzdx = (z10 * y20 - z20 * y10) / det * state.slope_scale_x;
  const double dzdy = (x10 * z20 - x20 * z10) / det * state.slope_scale_y;
  const double max_z = std::max({std::fabs(s[0].z), std::fabs(s[1].z), std::fabs(s[2].z)});
  return gpu::PolygonOffsetDepth(po, state.depth_format,
                                 std::max(std::fabs(dzdx), std::fabs(dzdy)), max_z);
}

// False when the triangle has no area or its face is culled.
bool SetUpTriangle(const ClipVertex& va, const ClipVertex& vb, const ClipVertex& vc,
                   const RasterState& state, TriangleSetup& t) {
  t.v[0] = &va, t.v[1] = &vb, t.v[2] = &vc;
  t.s[0] = Snap(va), t.s[1] = Snap(vb), t.s[2] = Snap(vc);
  Snapped* s = t.s;
  const int64_t area = Edge(s[0], s[1], s[2].x, s[2].y);
  if (area == 0) return false;
  // Vulkan's facing rule in y-down framebuffer coordinates: a positive area here is clockwise on
  // screen. face = 0 makes counter-clockwise triangles front-facing.
  const bool clockwise = area > 0;
  t.front = state.front_is_cw ? clockwise : !clockwise;
  if (!state.never_cull && ((t.front && state.cull_front) || (!t.front && state.cull_back))) {
    return false;
  }
  if (area < 0) {
    std::swap(s[1], s[2]);
    std::swap(t.v[1], t.v[2]);
  }
  t.abs_area = std::llabs(area);
  t.offset = TriangleDepthOffset(s, t.front, state);
  // Bounding box in pixels, clipped to the scissor.
  auto floor_px = [](int64_t f) { return int32_t((f >= 0 ? f : f - (kSubPixel - 1)) / kSubPixel); };
  t.x0 = std::max(floor_px(std::min({s[0].x, s[1].x, s[2].x})), state.x0);
  t.x1 = std::min(floor_px(std::max({s[0].x, s[1].x, s[2].x})) + 1, state.x1);
  t.y0 = std::max(floor_px(std::min({s[0].y, s[1].y, s[2].y})), state.y0);
  t.y1 = std::min(floor_px(std::max({s[0].y, s[1].y, s[2].y})) + 1, state.y1);
  return true;
}

// Coverage, depth and attributes of a set-up triangle, pixel by pixel or in 2x2 quads.
class TriangleRaster {
 public:
  TriangleRaster(const TriangleSetup& t, const RasterState& state);
  void Pixels(const std::function<void(const FragmentRun&)>& emit) const;
  void Quads(const std::function<void(const FragmentRun&)>& emit) const;

 private:
  // Edge values at pixel (x, y)'s top-left corner.
  void Corner(int32_t x, int32_t y, int64_t o[3]) const {
    for (int i = 0; i < 3; ++i) {
      o[i] = ea_[i] * (int64_t(x) * kSubPixel) + eb_[i] * (int64_t(y) * kSubPixel) + ec_[i];
    }
  }
  void CoverAt(const int64_t o[3], Fragment& f) const;
  bool QuadOutside(const int64_t o[3]) const {
    for (int i = 0; i < 3; ++i) {
      if (o[i] + quad_reach_[i] + bias_[i] < 0) return true;
    }
    return false;
  }
  // Whether every sample of the 2x2 quad at corner values `o` is inside all three edges.
  bool QuadInside(const int64_t o[3]) const {
    for (int i = 0; i < 3; ++i) {
      if (o[i] + quad_low_[i] + bias_[i] < 0) return false;
    }
    return true;
  }
  void Interpolate(const int64_t w[3], uint32_t mask, Fragment& f) const;
  void Attributes(int32_t x, int32_t y, Fragment& f) const;
  void Centroid(const int64_t o[3], Fragment& f) const;
  void QuadCentroid(const int64_t o[3], uint32_t coverage, int32_t j, Fragment& scratch,
                    QuadFloats (*quad)[4]) const;
  void QuadAttributes(const int32_t* qx, int32_t qy, const int64_t (*o)[3], uint32_t quads,
                      Fragment* quad, QuadFloats (*interpolators)[16][4]) const;

  const TriangleSetup& t_;
  const RasterState& state_;
  uint32_t n_ = 0, samples_ = 1;
  int64_t ea_[3], eb_[3], ec_[3], bias_[3], at_sample_[3][4], at_centre_[3];
  int64_t quad_reach_[3], quad_low_[3];
  double vd_[3][16][4];
};

TriangleRaster::TriangleRaster(const TriangleSetup& t, const RasterState& state)
    : t_(t), state_(state) {
  // Edge i is opposite vertex i; pixels on an edge that is not top/left are excluded.
  const Snapped* e0[3] = {&t.s[1], &t.s[2], &t.s[0]};
  const Snapped* e1[3] = {&t.s[2], &t.s[0], &t.s[1]};
  for (int i = 0; i < 3; ++i) bias_[i] = TopLeft(*e0[i], *e1[i]) ? 0 : -1;
  n_ = std::min<uint32_t>(state.interpolator_count, 16);
  samples_ = std::max<uint32_t>(1, state.samples);
  const SamplePosition* positions = SamplePositions(samples_);
  // Edge(a, b, px, py) is linear in the sample position: ea * px + eb * py + ec, exact in 64-bit
  // integers (positions are within the guard band, 2^23 sub-pixels), so a pixel's edge values are
  // its top-left corner's plus a constant per sample: the same integers as evaluating Edge there.
  for (int i = 0; i < 3; ++i) {
    ea_[i] = -(e1[i]->y - e0[i]->y);
    eb_[i] = e1[i]->x - e0[i]->x;
    ec_[i] = -(ea_[i] * e0[i]->x + eb_[i] * e0[i]->y);
    for (uint32_t smp = 0; smp < samples_; ++smp) {
      at_sample_[i][smp] = ea_[i] * positions[smp].x + eb_[i] * positions[smp].y;
    }
    at_centre_[i] = ea_[i] * (kSubPixel / 2) + eb_[i] * (kSubPixel / 2);
  }
  // An upper bound of edge i over every sample of the 2x2 quad at (qx, qy): when it is below
  // the edge's threshold for some edge, no sample of the quad is inside.
  for (int i = 0; i < 3; ++i) {
    int64_t best = at_sample_[i][0];
    for (uint32_t smp = 1; smp < samples_; ++smp) best = std::max(best, at_sample_[i][smp]);
    quad_reach_[i] = best + std::max<int64_t>(0, ea_[i] * kSubPixel) +
                     std::max<int64_t>(0, eb_[i] * kSubPixel);
    // And a lower bound: at or above the threshold for every edge, every sample is inside.
    int64_t least = at_sample_[i][0];
    for (uint32_t smp = 1; smp < samples_; ++smp) least = std::min(least, at_sample_[i][smp]);
    quad_low_[i] = least + std::min<int64_t>(0, ea_[i] * kSubPixel) +
                   std::min<int64_t>(0, eb_[i] * kSubPixel);
  }
  for (int i = 0; i < 3; ++i) {
    for (uint32_t k = 0; k < n_; ++k) {
      for (int c = 0; c < 4; ++c) vd_[i][k][c] = double(t.v[i]->interpolators[k][c]);
    }
  }
}

// Coverage and per-sample depth of the pixel whose corner edge values are `o`.
void TriangleRaster::CoverAt(const int64_t o[3], Fragment& f) const {
  const Snapped* s = t_.s;
  f.coverage = 0;
  for (uint32_t smp = 0; smp < samples_; ++smp) {
    int64_t w[3];
    bool in = true;
    for (int i = 0; i < 3 && in; ++i) {
      w[i] = o[i] + at_sample_[i][smp];
      in = w[i] + bias_[i] >= 0;
    }
    if (!in) continue;
    f.coverage |= 1u << smp;
    if (!state_.depth) continue;
    f.depth[smp] = SampleDepth(float((double(w[0]) * s[0].z + double(w[1]) * s[1].z +
                                      double(w[2]) * s[2].z) / double(t_.abs_area)),
                               t_.offset, state_);
  }
}

// The interpolators in `mask` at the point whose edge values are `w`: barycentrics from the
// same exact integers as coverage, perspective-correct (b_i / w_i, normalised).
void TriangleRaster::Interpolate(const int64_t w[3], uint32_t mask, Fragment& f) const {
  const Snapped* s = t_.s;
  double p0 = double(w[0]) / double(t_.abs_area);
  double p1 = double(w[1]) / double(t_.abs_area);
  double p2 = double(w[2]) / double(t_.abs_area);
  if (state_.perspective) {
    p0 *= s[0].inv_w;
    p1 *= s[1].inv_w;
    p2 *= s[2].inv_w;
    const double sum = p0 + p1 + p2;
    p0 /= sum;
    p1 /= sum;
    p2 /= sum;
  }
  for (uint32_t k = 0; k < n_; ++k) {
    if (!((mask >> k) & 1u)) continue;
    for (int c = 0; c < 4; ++c) {
      f.interpolators[k][c] = float(p0 * vd_[0][k][c] + p1 * vd_[1][k][c] + p2 * vd_[2][k][c]);
    }
  }
}

// Attributes at the pixel centre (outside the triangle for partly covered MSAA pixels and quad
// helpers: extrapolated), then the centroid-sampled ones of a partly covered pixel.
void TriangleRaster::Attributes(int32_t x, int32_t y, Fragment& f) const {
  int64_t o[3];
  Corner(x, y, o);
  const int64_t w[3] = {o[0] + at_centre_[0], o[1] + at_centre_[1], o[2] + at_centre_[2]};
  f.x = uint32_t(x);
  f.y = uint32_t(y);
  Interpolate(w, ~0u, f);
  Centroid(o, f);
}

// Interpolators in state.centroid_mask of a partly covered pixel (corner edge values `o`) again
// at its centroid sample, which lies inside the triangle (gpu::CentroidSample).
void TriangleRaster::Centroid(const int64_t o[3], Fragment& f) const {
  const uint32_t mask = state_.centroid_mask & ((1u << n_) - 1u);
  if (!mask) return;
  const int32_t smp = gpu::CentroidSample(f.coverage, samples_);
  if (smp < 0) return;
  const int64_t w[3] = {o[0] + at_sample_[0][smp], o[1] + at_sample_[1][smp],
                        o[2] + at_sample_[2][smp]};
  Interpolate(w, mask, f);
}

// Pixel j's (of a quad) centroid-sampled interpolators, as Centroid gives them, into element j of
// the quad's side-by-side values; `scratch` receives them first (Interpolate's output).
void TriangleRaster::QuadCentroid(const int64_t o[3], uint32_t coverage, int32_t j,
                                  Fragment& scratch, QuadFloats (*quad)[4]) const {
  const uint32_t mask = state_.centroid_mask & ((1u << n_) - 1u);
  if (!mask) return;
  const int32_t smp = gpu::CentroidSample(coverage, samples_);
  if (smp < 0) return;
  const int64_t w[3] = {o[0] + at_sample_[0][smp], o[1] + at_sample_[1][smp],
                        o[2] + at_sample_[2][smp]};
  Interpolate(w, mask, scratch);
  for (uint32_t k = 0; k < n_; ++k) {
    if (!((mask >> k) & 1u)) continue;
    for (int c = 0; c < 4; ++c) quad[k][c][j] = scratch.interpolators[k][c];
  }
}

// Four doubles as one value (GCC vector extensions): element-wise IEEE operations, the same
// roundings as four scalar ones (this library builds with -ffp-contract=off, so no product is
// fused into an add), done two or four at a time in vector registers.
using Double4 = double __attribute__((vector_size(32)));

// Quads rasterized before their attributes are worked out: enough that the divisions of one
// quad overlap those of the next (one quad's are a chain of two dependent divisions, mostly
// waiting on latency otherwise).
constexpr uint32_t kQuadRun = 8;

// The interpolators of `quads` 2x2 quads (element j of out[q][k][c] is pixel j's component c of
// interpolator k in quad q) from their pixels' exact edge values w[q][i][j]: barycentrics
// w / area, perspective-corrected when asked, then the vertices' values weighted. The same
// operations per pixel as TriangleRaster::Interpolate. Also built for AVX2 (four doubles per
// division instead of two); the results are the same bits.
[[gnu::target_clones("avx2", "default")]] void QuadInterpolators(
    const int64_t (*w)[3][4], uint32_t quads, double area, const double inv_w[3],
    bool perspective, const double (*vd)[16][4], uint32_t count, QuadFloats (*out)[16][4]) {
  for (uint32_t q = 0; q < quads; ++q) {
    Double4 p[3];
    for (int i = 0; i < 3; ++i) {
      p[i] = Double4{double(w[q][i][0]), double(w[q][i][1]), double(w[q][i][2]),
                     double(w[q][i][3])} / area;
    }
    if (perspective) {
      for (int i = 0; i < 3; ++i) p[i] *= inv_w[i];
      const Double4 sum = p[0] + p[1] + p[2];
      for (int i = 0; i < 3; ++i) p[i] /= sum;
    }
    for (uint32_t k = 0; k < count; ++k) {
      for (int c = 0; c < 4; ++c) {
        out[q][k][c] = __builtin_convertvector(
            p[0] * vd[0][k][c] + p[1] * vd[1][k][c] + p[2] * vd[2][k][c], QuadFloats);
      }
    }
  }
}

// The attributes of a run of quads in one row (quad q at qx[q], qy with corner edge values
// o[q]): the same operations per pixel as Attributes, the four pixels of a quad at once; the
// positions into the fragments, the interpolators side by side (FragmentRun).
void TriangleRaster::QuadAttributes(const int32_t* qx, int32_t qy, const int64_t (*o)[3],
                                    uint32_t quads, Fragment* quad,
                                    QuadFloats (*interpolators)[16][4]) const {
  int64_t w[kQuadRun][3][4];
  for (uint32_t q = 0; q < quads; ++q) {
    for (int i = 0; i < 3; ++i) {
      // Corner(qx + (j & 1), qy + (j >> 1)) plus the centre, as exact integers.
      const int64_t c = o[q][i] + at_centre_[i], dx = ea_[i] * kSubPixel, dy = eb_[i] * kSubPixel;
      w[q][i][0] = c, w[q][i][1] = c + dx, w[q][i][2] = c + dy, w[q][i][3] = c + dx + dy;
    }
  }
  const double inv_w[3] = {t_.s[0].inv_w, t_.s[1].inv_w, t_.s[2].inv_w};
  QuadInterpolators(w, quads, double(t_.abs_area), inv_w, state_.perspective, vd_, n_,
                    interpolators);
  for (uint32_t q = 0; q < quads; ++q) {
    for (int j = 0; j < 4; ++j) {
      Fragment& f = quad[q * 4 + uint32_t(j)];
      f.x = uint32_t(qx[q] + (j & 1));
      f.y = uint32_t(qy + (j >> 1));
    }
  }
}

// Covered pixels in row order.
void TriangleRaster::Pixels(const std::function<void(const FragmentRun&)>& emit) const {
  Fragment f;
  f.front_facing = t_.front;
  for (int32_t y = t_.y0; y < t_.y1; ++y) {
    for (int32_t x = t_.x0; x < t_.x1; ++x) {
      int64_t o[3];
      Corner(x, y, o);
      CoverAt(o, f);
      if (!f.coverage) continue;
      Attributes(x, y, f);
      emit({{&f, 1}, nullptr});
    }
  }
}

// 2x2 quads aligned to even pixels: every quad with a covered pixel is emitted whole, the
// uncovered ones (and those outside the scissor) as helpers.
void TriangleRaster::Quads(const std::function<void(const FragmentRun&)>& emit) const {
  const int32_t x0 = t_.x0, y0 = t_.y0, x1 = t_.x1, y1 = t_.y1;
  // A run of covered quads of one row (quad q is run[4 q .. 4 q + 3]): coverage first, then the
  // attributes of the whole run, then its fragments in the order they were rasterized.
  std::array<Fragment, 4 * kQuadRun> run;
  for (Fragment& f : run) f.front_facing = t_.front;
  QuadFloats interpolators[kQuadRun][16][4];
  Fragment scratch;  // a partly covered pixel's centroid-sampled interpolators
  int32_t run_qx[kQuadRun];
  int64_t run_o[kQuadRun][3];
  uint32_t count = 0;
  const uint32_t all_samples = (1u << samples_) - 1u;
  // The quad's corner values step along the row by two pixels (exact integer additions).
  int64_t step_x[3], step_pixel[4][3];
  for (int i = 0; i < 3; ++i) {
    step_x[i] = ea_[i] * 2 * kSubPixel;
    for (int j = 0; j < 4; ++j) {
      step_pixel[j][i] = ea_[i] * (kSubPixel * (j & 1)) + eb_[i] * (kSubPixel * (j >> 1));
    }
  }
  auto emit_run = [&](int32_t qy) {
    QuadAttributes(run_qx, qy, run_o, count, run.data(), interpolators);
    for (uint32_t q = 0; q < count; ++q) {
      for (int32_t i = 0; i < 4; ++i) {
        Fragment& f = run[q * 4 + uint32_t(i)];
        const int64_t op[3] = {run_o[q][0] + step_pixel[i][0], run_o[q][1] + step_pixel[i][1],
                               run_o[q][2] + step_pixel[i][2]};
        QuadCentroid(op, f.coverage, i, scratch, interpolators[q]);
        f.helper = f.coverage == 0;
      }
    }
    emit({{run.data(), count * 4}, interpolators});
    count = 0;
  };
  for (int32_t qy = y0 & ~1; qy < y1; qy += 2) {
    int64_t o[3];
    Corner(x0 & ~1, qy, o);
    for (int32_t qx = x0 & ~1; qx < x1;
         qx += 2, o[0] += step_x[0], o[1] += step_x[1], o[2] += step_x[2]) {
      if (QuadOutside(o)) continue;
      Fragment* const quad = &run[count * 4];
      // A quad inside the triangle and the scissor has every sample covered; without a depth
      // test there is nothing else per sample to compute (CoverAt would give the same mask).
      const bool whole = !state_.depth && qx >= x0 && qx + 2 <= x1 && qy >= y0 && qy + 2 <= y1 &&
                         QuadInside(o);
      bool any = whole;
      for (int32_t i = 0; i < 4 && whole; ++i) quad[i].coverage = all_samples;
      for (int32_t i = 0; i < 4 && !whole; ++i) {
        const int32_t x = qx + (i & 1), y = qy + (i >> 1);
        quad[i].coverage = 0;
        if (x >= x0 && x < x1 && y >= y0 && y < y1) {
          const int64_t op[3] = {o[0] + step_pixel[i][0], o[1] + step_pixel[i][1],
                                 o[2] + step_pixel[i][2]};
          CoverAt(op, quad[i]);
        }
        any |= quad[i].coverage != 0;
      }
      if (!any) continue;
      run_qx[count] = qx;
      std::copy(o, o + 3, run_o[count]);
      if (++count == kQuadRun) emit_run(qy);
    }
    if (count) emit_run(qy);
  }
}

}  // namespace

bool RasterizeTriangleRuns(const ClipVertex& va, const ClipVertex& vb, const ClipVertex& vc,
                           const RasterState& state,
                           const std::function<void(const FragmentRun&)>& emit) {
  TriangleSetup t;
  if (!SetUpTriangle(va, vb, vc, state, t)) return false;
  if (t.x1 <= t.x0 || t.y1 <= t.y0) return true;
  const TriangleRaster raster(t, state);
  if (state.quads) {
    raster.Quads(emit);
  } else {
    raster.Pixels(emit);
  }
  return true;
}

bool RasterizeTriangle(const ClipVertex& va, const ClipVertex& vb, const ClipVertex& vc,
                       const RasterState& state, const std::function<void(const Fragment&)>& emit) {
  const uint32_t count = std::min<uint32_t>(state.interpolator_count, 16);
  Fragment f;
  return RasterizeTriangleRuns(va, vb, vc, state, [&](const FragmentRun& run) {
    for (size_t i = 0; i < run.fragments.size(); ++i) {
      if (!run.interpolators) {
        emit(run.fragments[i]);
        continue;
      }
      f = run.fragments[i];
      for (uint32_t k = 0; k < count; ++k) {
        for (uint32_t c = 0; c < 4; ++c) f.interpolators[k][c] = run.interpolators[i / 4][k][c][i % 4];
      }
      emit(f);
    }
  });
}

bool RasterizePoint(const PointSprite& p, const RasterState& state,
                    const std::function<void(const Fragment&)>& emit) {
  const auto& pos = p.vertex.pos;
  if (!(pos[3] > 0.0)) return false;
  // Depth clipped in guest clip space (ClipVertex::depth_distance), as triangles and lines are.
  if (!state.clamp_depth && (p.vertex.depth_distance[0] < 0.0 || p.vertex.depth_distance[1] < 0.0)) {
    return false;
  }
  const double height = double(p.height);
  const double cx = pos[0] / pos[3], cy = pos[1] / pos[3], half = double(p.size) * 0.5;
  const double half_y = height * 0.5;
  // A point with no area on either axis draws nothing (as the Vulkan paths' point quads).
  if (!(half > 0.0) || !(half_y > 0.0) || !std::isfinite(cx) || !std::isfinite(cy)) return false;
  // The sprite's sides snapped to the rasterizer's 1/256 pixel, as a triangle's vertices are
  // (Snap) and as the Vulkan paths' point quads' corners are by the host: a side that lies on a
  // sample position then decides it by the half-open rule on every path.
  auto snap = [](double v) { return std::isfinite(v) ? std::round(v * kSubPixel) / kSubPixel : v; };
  const double left = snap(cx - half), top = snap(cy - half_y), right = snap(cx + half),
               bottom = snap(cy + half_y);
  // Clamped on both sides before the conversion: a finite centre may still lie 1e37 pixels away.
  auto pixel_bound = [](double v) { return int32_t(std::clamp(v, -1e6, 1e6)); };
  const int32_t x0 = std::max(state.x0, pixel_bound(std::floor(left)));
  const int32_t y0 = std::max(state.y0, pixel_bound(std::floor(top)));
  const int32_t x1 = std::min(state.x1, pixel_bound(std::ceil(right)) + 1);
  const int32_t y1 = std::min(state.y1, pixel_bound(std::ceil(bottom)) + 1);
  const uint32_t samples = std::max<uint32_t>(1, state.samples);
  const SamplePosition* positions = SamplePositions(samples);
  Fragment f;
  f.point = !p.polygon;
  f.front_facing = p.front;
  f.interpolators = p.vertex.interpolators;
  // Points are not polygons: the para offset's constant term only (gpu/polygon_offset.h).
  f.depth.fill(SampleDepth(float(pos[2] / pos[3]),
                           gpu::PolygonOffsetDepth(state.polygon_offset.front, state.depth_format,
                                                   0.0, std::fabs(pos[2] / pos[3])),
                           state));
  if (p.clip_planes) {
    // Cut by a user plane (ps_ucp_mode 2-3): the point quad's triangles, clipped. W is the
    // point's at every corner, so the corners are the screen rectangle times W.
    const double w = pos[3];
    std::array<ClipVertex, 4> corner;
    for (size_t i = 0; i < 4; ++i) {
      corner[i] = p.vertex;
      corner[i].pos = {(i & 2 ? right : left) * w, (i & 1 ? bottom : top) * w, pos[2], w};
      corner[i].user_distance = p.corner_distance[i];
    }
    RasterState triangles = state;
    triangles.never_cull = true;  // a sprite has no facing
    const auto sprite_fragment = [&](const Fragment& t) {
      Fragment g = t;
      g.point = !p.polygon;
      g.front_facing = p.front;
      g.interpolators = p.vertex.interpolators;
      g.depth = f.depth;
      g.point_coord[0] = float((g.x + 0.5 - left) / double(p.size));
      g.point_coord[1] = float((g.y + 0.5 - top) / height);
      emit(g);
    };
    constexpr std::array<std::array<size_t, 3>, 2> kHalves = {{{0, 1, 2}, {2, 1, 3}}};
    for (const std::array<size_t, 3>& t : kHalves) {
      // Depth was decided at the centre (above); only the planes clip here.
      const Polygon poly =
          ClipTriangle(corner[t[0]], corner[t[1]], corner[t[2]], false, p.clip_planes);
      for (size_t i = 1; i + 1 < poly.size(); ++i) {
        RasterizeTriangle(poly[0], poly[i], poly[i + 1], triangles, sprite_fragment);
      }
    }
    return true;
  }
  // Coverage of pixel (x, y) and its sprite coordinate (the sprite's plane, continued outside it
  // for helpers: the quad's derivative is 1 / size per pixel, as gl_PointCoord's on the host).
  auto pixel = [&](int32_t x, int32_t y, Fragment& frag) {
    frag.coverage = 0;
    if (x >= x0 && x < x1 && y >= y0 && y < y1) {
      for (uint32_t s = 0; s < samples; ++s) {
        const double sx = x + positions[s].x / 256.0, sy = y + positions[s].y / 256.0;
        if (sx >= left && sx < right && sy >= top && sy < bottom) frag.coverage |= 1u << s;
      }
    }
    frag.x = uint32_t(x);
    frag.y = uint32_t(y);
    frag.point_coord[0] = float((x + 0.5 - left) / double(p.size));
    frag.point_coord[1] = float((y + 0.5 - top) / height);
  };
  if (!state.quads) {
    for (int32_t y = y0; y < y1; ++y) {
      for (int32_t x = x0; x < x1; ++x) {
        pixel(x, y, f);
        if (f.coverage) emit(f);
      }
    }
    return true;
  }
  // 2x2 quads aligned to even pixels, as for triangles.
  std::array<Fragment, 4> quad;
  quad.fill(f);
  for (int32_t qy = y0 & ~1; qy < y1; qy += 2) {
    for (int32_t qx = x0 & ~1; qx < x1; qx += 2) {
      bool any = false;
      for (int32_t i = 0; i < 4; ++i) {
        pixel(qx + (i & 1), qy + (i >> 1), quad[size_t(i)]);
        any |= quad[size_t(i)].coverage != 0;
      }
      if (!any) continue;
      for (Fragment& q : quad) {
        q.helper = q.coverage == 0;
        emit(q);
      }
    }
  }
  return true;
}

}  // namespace xnt::cpu
