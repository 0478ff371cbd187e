// The patch tessellator (see tessellator.h): Microsoft's reference tessellator (Mesa
// src/gallium/auxiliary/tessellator/tessellator.cpp, CHWTessellator) re-implemented. The
// reference walks flat point numbers and patches them where a ring wraps around; here each ring
// side is an explicit list of point numbers (its last point the next side's first), which the
// stitching reads, so the same triangles come out without the index patching.
#include "xnt/gpu/tessellator.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace xnt::gpu {
namespace {

// 16.16 unsigned fixed point, the reference's FXP: every location and factor is exact in it,
// which keeps a point shared by two patches at the same value in both.
using Fxp = uint32_t;
constexpr int kFractionBits = 16;
constexpr Fxp kOne = 1u << kFractionBits;
constexpr Fxp kHalf = kOne / 2;
constexpr Fxp kOneThird = 0x5555;    // the triangle's centre, rounded down as the reference has it
constexpr Fxp kTwoThirds = 0xaaaa;   // inset of a triangle ring per unit of inside location
constexpr float kMaxFactor = 64.0f;  // D3D11_TESSELLATOR_MAX_TESSELLATION_FACTOR

Fxp FloorFxp(Fxp x) { return x & ~(kOne - 1); }
Fxp CeilFxp(Fxp x) { return (x & (kOne - 1)) ? FloorFxp(x) + kOne : x; }

// The reference's floatToFixed rounds to nearest, ties to even; a processed factor lies in
// [1, 64], so double(f) * 2^16 is exact and nearbyint in the default mode does the same.
Fxp ToFixed(float f) { return Fxp(std::nearbyint(double(f) * double(kOne))); }
float ToFloat(Fxp x) { return float(x) / float(kOne); }  // exact below 2^24

// 1 / segments in fixed point, rounded to nearest (the reference's s_fixedReciprocal table).
Fxp Reciprocal(uint32_t segments) { return segments ? (kOne + segments / 2) / segments : ~Fxp(0); }

// The value without its most significant set bit (the reference's RemoveMSB), which spreads the
// one shorter segment of a fractional half over the half as the factor grows.
uint32_t RemoveMsb(uint32_t v) { return v ? v & ~std::bit_floor(v) : 0; }

// A factor after the reference's processing: clamped, rounded up for integer partitioning, in
// fixed point, with the parity that picks its point layout.
struct Factor {
  Fxp value = kOne;
  bool odd = false;
};

Factor ProcessFactor(float f, TessellationPartitioning p, bool inside) {
  const bool integer = p == TessellationPartitioning::kInteger;
  const float lo = integer ? 1.0f : 2.0f;
  if (!(f >= lo)) f = lo;  // NaN and denormals too (the reference's flushing fmax)
  if (f > kMaxFactor) f = kMaxFactor;
  if (integer) f = std::ceil(f);
  // Integer: a factor's own parity, except that an inside factor of 1 is laid out as even (a
  // centre point to join the edges to). Fractional even: always even.
  const bool odd = integer && (uint32_t(f) & 1u) && !(inside && f == 1.0f);
  return {ToFixed(f), odd};
}

// One edge's (or inside axis's) point layout: the reference's TESS_FACTOR_CONTEXT
// (ComputeTessFactorContext) and its NumPointsForTessFactor.
struct Layout {
  bool odd = false;
  uint32_t half_points = 0;         // points on one half; an even layout's middle point not counted
  uint32_t split = 0;               // points past it sit one place earlier on the floor layout
  Fxp fraction = 0;                 // where the half factor lies between its floor and its ceiling
  Fxp inv_floor = 0, inv_ceil = 0;  // 1 / the whole edge's segments at floor and ceiling
  uint32_t count = 0;               // points along the edge, both ends included

  explicit Layout(Factor f) : odd(f.odd) {
    Fxp half = (f.value + 1) / 2;
    // A factor of 1 laid out as even would have a half of 1/2: it is given a whole half instead.
    if (odd || half == kHalf) half += kHalf;
    const Fxp lo = FloorFxp(half), hi = CeilFxp(half);
    fraction = half - lo;
    half_points = hi >> kFractionBits;
    if (lo == hi) {
      split = half_points + 1;  // no point moves
    } else if (odd) {
      split = lo == kOne ? 0 : (RemoveMsb((lo >> kFractionBits) - 1) << 1) + 1;
    } else {
      split = (RemoveMsb(lo >> kFractionBits) << 1) + 1;
    }
    const uint32_t odd_bias = odd ? 1 : 0;
    inv_floor = Reciprocal(((lo * 2) >> kFractionBits) - odd_bias);
    inv_ceil = Reciprocal(((hi * 2) >> kFractionBits) - odd_bias);
    count = odd ? (CeilFxp(kHalf + (f.value + 1) / 2) * 2) >> kFractionBits
                : ((CeilFxp((f.value + 1) / 2) * 2) >> kFractionBits) + 1;
  }

  // The location of point `point` (0 .. count - 1): the second half mirrors the first; a point
  // of the first half lerps its places on the floor and ceiling layouts by the fraction.
  Fxp Place(uint32_t point) const {
    const bool flip = point >= half_points;
    if (flip) point = 2 * half_points - point - (odd ? 1 : 0);
    if (point == half_points) return kHalf;  // the fixed-point lerp cannot make 1/2 exactly
    const uint32_t on_floor = point > split ? point - 1 : point;
    Fxp location = on_floor * inv_floor * (kOne - fraction) + point * inv_ceil * fraction;
    location = (location + kHalf) >> kFractionBits;
    return flip ? kOne - location : location;
  }

  // The half point count StitchTransition compares against the ruler order: an odd layout's
  // half includes its middle segment, which the transition handles on its own.
  uint32_t StitchHalf() const { return half_points - (odd ? 1 : 0); }
};

// A ring side: the point numbers from one corner to the next, both included.
using Side = std::vector<uint32_t>;

// When the point at place `i` (1 .. 32, counted from the corner) of a half edge cut into 32
// segments appears as the half factor grows: a half of `h` points holds exactly the places whose
// arrival is below `h` (the reference's finalPointPositionTable, the ruler function's split
// order). With x = i - 1 and t its trailing zero bits, x arrives at 16 / 2^t + x / 2^(t + 1): the
// more trailing zeros, the earlier (x = 16 first, at 1; then 8 and 24; ...; the odd x last, from
// 16 on); x = 0, next to the corner, only at 32 (factor 64 never adds it: h is at most 32).
uint32_t Arrival(uint32_t i) {
  const uint32_t x = i - 1;
  if (x == 0) return 32;
  const int t = std::countr_zero(x);
  return (16u >> t) + (x >> (t + 1));
}

enum class Diagonals { kInsideToOutside, kInsideToOutsideExceptMiddle, kMirrored };

class Emitter {
 public:
  Emitter(TessellatedPatch& out, bool triangle) : out_(out), triangle_(triangle) {}

  uint32_t Point(Fxp u, Fxp v) {
    const float w = triangle_ ? ToFloat(Fxp(int64_t(kOne) - int64_t(u) - int64_t(v))) : 0.0f;
    out_.points.push_back({ToFloat(u), ToFloat(v), w});
    return uint32_t(out_.points.size() - 1);
  }
  // Triangles are kept in the reference's clockwise order (Xenia's triangle_cw).
  void Triangle(uint32_t a, uint32_t b, uint32_t c) {
    out_.triangles.insert(out_.triangles.end(), {a, b, c});
  }

  // Joins the first inner ring's side to the outer ring's (StitchTransition): the two sides'
  // points are merged by their place on a half edge of factor 64, from both corners towards the
  // middle, each step a triangle with one segment of one side.
  void StitchTransition(const Side& in, const Layout& in_layout, const Side& out,
                        const Layout& out_layout) {
    const uint32_t in_half = in_layout.StitchHalf(), out_half = out_layout.StitchHalf();
    size_t i = 0, o = 0;
    auto advance_out = [&] {
      Triangle(out[o], out[o + 1], in[i]);
      ++o;
    };
    auto advance_in = [&] {
      Triangle(in[i], out[o], in[i + 1]);
      ++i;
    };
    if (out_half > 0) advance_out();  // the place at the corner: every layout has it
    for (uint32_t place = 1; place <= 32; ++place) {
      if (Arrival(place) < in_half) advance_in();
      if (Arrival(place) < out_half) advance_out();
    }
    // The middle: an odd layout's middle segment, joined to the other side's middle.
    if (in_layout.odd && out_layout.odd) {
      Triangle(in[i], out[o], in[i + 1]);
      Triangle(in[i + 1], out[o], out[o + 1]);
      ++i, ++o;
    } else if (out_layout.odd) {
      Triangle(in[i], out[o], out[o + 1]);
      ++o;
    } else if (in_layout.odd) {
      advance_in();
    }
    for (uint32_t place = 32; place >= 1; --place) {
      if (Arrival(place) < out_half) advance_out();
      if (Arrival(place) < in_half) advance_in();
    }
    if (out_half > 0) advance_out();
  }

  // Joins two sides whose point counts differ by 2 (trapezoid: a triangle at each end) or are
  // equal (a strip of quads), each quad split along the diagonal the mode asks for
  // (StitchRegular).
  void StitchRegular(bool trapezoid, Diagonals diagonals, const Side& in, const Side& out) {
    const size_t n = in.size();
    size_t i = 0, o = 0;
    if (trapezoid) Triangle(out[o], out[o + 1], in[i]), ++o;
    // Diagonal from the outer side's earlier point to the inner side's later one, or from the
    // inner side's earlier point to the outer side's later one.
    auto outer_diagonal = [&] {
      Triangle(out[o], in[i + 1], in[i]);
      Triangle(out[o], out[o + 1], in[i + 1]);
      ++i, ++o;
    };
    auto inner_diagonal = [&] {
      Triangle(in[i], out[o], out[o + 1]);
      Triangle(in[i], out[o + 1], in[i + 1]);
      ++i, ++o;
    };
    // The quad split with the inner diagonal, its first triangle started at the outer side.
    auto inner_diagonal_from_outside = [&] {
      Triangle(out[o], out[o + 1], in[i]);
      Triangle(in[i], out[o + 1], in[i + 1]);
      ++i, ++o;
    };
    switch (diagonals) {
      case Diagonals::kInsideToOutside:
        for (size_t q = 0; q + 1 < n; ++q) inner_diagonal();
        break;
      case Diagonals::kInsideToOutsideExceptMiddle:  // an odd strip: the middle quad turned
        for (size_t q = 0; q + 1 < n / 2; ++q) inner_diagonal_from_outside();
        outer_diagonal();
        for (size_t q = n / 2 + 1; q < n; ++q) inner_diagonal_from_outside();
        break;
      case Diagonals::kMirrored:  // symmetric about the side's middle
        for (size_t q = 0; q < n / 2; ++q) outer_diagonal();
        for (size_t q = n / 2; q + 1 < n; ++q) inner_diagonal();
        break;
    }
    if (trapezoid) Triangle(out[o], out[o + 1], in[i]);
  }

 private:
  TessellatedPatch& out_;
  bool triangle_;
};

// Closes each side of a ring with the first point of the next side.
void CloseRing(std::vector<Side>& ring) {
  for (size_t s = 0; s < ring.size(); ++s) ring[s].push_back(ring[(s + 1) % ring.size()][0]);
}

}  // namespace

std::vector<float> PlaceEdgePoints(float factor, TessellationPartitioning partitioning) {
  const Layout layout(ProcessFactor(factor, partitioning, /*inside=*/false));
  std::vector<float> points(layout.count);
  for (uint32_t p = 0; p < layout.count; ++p) points[p] = ToFloat(layout.Place(p));
  return points;
}

TessellatedPatch TessellateTriangle(const TessellationFactors& factors,
                                    TessellationPartitioning partitioning) {
  TessellatedPatch out;
  // A patch with an edge factor <= 0 or NaN is culled (TriProcessTessFactors).
  for (int e = 0; e < 3; ++e) {
    if (!(factors.edges[e] > 0.0f)) return out;
  }
  Emitter em(out, /*triangle=*/true);
  std::array<Factor, 3> edge_factor;
  for (int e = 0; e < 3; ++e) edge_factor[e] = ProcessFactor(factors.edges[e], partitioning, false);
  const Factor inside_factor = ProcessFactor(factors.inside[0], partitioning, true);
  if (partitioning == TessellationPartitioning::kInteger && inside_factor.value == kOne &&
      std::all_of(edge_factor.begin(), edge_factor.end(),
                  [](const Factor& f) { return f.value == kOne; })) {
    // The bare patch: v, w, u.
    const uint32_t v = em.Point(0, kOne), w = em.Point(0, 0), u = em.Point(kOne, 0);
    em.Triangle(v, w, u);
    return out;
  }
  const std::array<Layout, 3> edge{Layout(edge_factor[0]), Layout(edge_factor[1]),
                                   Layout(edge_factor[2])};
  const Layout inside(inside_factor);
  const uint32_t n = std::max(inside.odd ? 4u : 3u, inside.count);

  // The outer ring from the v corner: the u = 0 edge (v -> w), v = 0 (w -> u), w = 0 (u -> v).
  std::vector<Side> ring(3);
  for (int e = 0; e < 3; ++e) {
    const uint32_t last = edge[e].count - 1;
    for (uint32_t p = 0; p < last; ++p) {
      const Fxp t = edge[e].Place(e == 1 ? p : last - p);
      ring[e].push_back(e == 0 ? em.Point(0, t) : em.Point(t, e == 2 ? kOne - t : 0));
    }
  }
  CloseRing(ring);
  // The inner rings spiralling in, the same way round, each inset by 2/3 of its inside
  // location towards the centre (TriGeneratePoints).
  std::vector<std::vector<Side>> rings;
  for (uint32_t r = 1; r < n / 2; ++r) {
    const uint32_t last = n - 1 - r;
    const Fxp perp = (inside.Place(r) * kTwoThirds + kHalf) >> kFractionBits;
    const Fxp back = (perp + 1) / 2;  // how far along the side the inset moves a point
    std::vector<Side> inner(3);
    for (int e = 0; e < 3; ++e) {
      for (uint32_t p = r; p < last; ++p) {
        const Fxp t = inside.Place(e == 1 ? p : last - (p - r)) - back;
        inner[e].push_back(e == 0   ? em.Point(perp, t)
                           : e == 1 ? em.Point(t, perp)
                                    : em.Point(t, kOne - t - perp));
      }
    }
    CloseRing(inner);
    rings.push_back(std::move(inner));
  }
  if (!inside.odd) {  // an even layout ends in the centre point, every side of the last ring
    const uint32_t centre = em.Point(kOneThird, kOneThird);
    rings.push_back(std::vector<Side>(3, Side{centre}));
  }
  // TriGenerateConnectivity: the transition, then regular rings.
  for (size_t r = 0; r < rings.size(); ++r) {
    for (int e = 0; e < 3; ++e) {
      if (r == 0) {
        em.StitchTransition(rings[r][e], inside, ring[e], edge[e]);
      } else {
        em.StitchRegular(true, Diagonals::kMirrored, rings[r][e], ring[e]);
      }
    }
    ring = rings[r];
  }
  if (inside.odd) em.Triangle(ring[0][0], ring[1][0], ring[2][0]);  // the innermost triangle
  return out;
}

namespace {

// The quad's inner points on the grid of the two inside layouts; ring sides are read off it,
// so a ring that has shrunk to a row of points (an even axis) shares that row's points between
// its two long sides as the reference's index inversion does.
class QuadGrid {
 public:
  QuadGrid(uint32_t nu, uint32_t nv) : nu_(nu), at_(size_t(nu) * nv, kNone) {}
  void Set(uint32_t iu, uint32_t iv, uint32_t point) { at_[size_t(iv) * nu_ + iu] = point; }
  uint32_t At(uint32_t iu, uint32_t iv) const { return at_[size_t(iv) * nu_ + iu]; }
  // Ring r's sides, each from its first corner: u = lo (v falling), v = lo (u rising),
  // u = hi (v rising), v = hi (u falling), as QuadGeneratePoints walks it.
  std::vector<Side> Ring(uint32_t r, uint32_t hi_u, uint32_t hi_v) const {
    std::vector<Side> s(4);
    for (uint32_t v = hi_v + 1; v-- > r;) s[0].push_back(At(r, v));
    for (uint32_t u = r; u <= hi_u; ++u) s[1].push_back(At(u, r));
    for (uint32_t v = r; v <= hi_v; ++v) s[2].push_back(At(hi_u, v));
    for (uint32_t u = hi_u + 1; u-- > r;) s[3].push_back(At(u, hi_v));
    return s;
  }

 private:
  static constexpr uint32_t kNone = ~0u;
  uint32_t nu_;
  std::vector<uint32_t> at_;
};

// QuadGeneratePoints past the outer ring: the inner rings, then an even axis's middle row.
void QuadInnerPoints(Emitter& em, const std::array<Layout, 2>& in, uint32_t nu, uint32_t nv,
                     QuadGrid& grid) {
  const std::array<uint32_t, 2> n{nu, nv};
  const uint32_t rings = std::min(nu, nv) / 2;
  for (uint32_t r = 1; r < rings; ++r) {
    const std::array<uint32_t, 2> last{nu - 1 - r, nv - 1 - r};
    for (int e = 0; e < 4; ++e) {
      const int along = (e + 1) & 1, across = e & 1;  // sides 0, 2 run along v
      const uint32_t fixed = e < 2 ? r : last[across];
      const Fxp perp = in[across].Place(fixed);
      for (uint32_t p = r; p < last[along]; ++p) {
        const uint32_t q = (e == 1 || e == 2) ? p : last[along] - (p - r);
        const Fxp t = in[along].Place(q);
        if (along == 1) {
          grid.Set(fixed, q, em.Point(perp, t));
        } else {
          grid.Set(q, fixed, em.Point(t, perp));
        }
      }
    }
  }
  if (n[0] > n[1] && !in[1].odd) {  // the middle row along u at v = 1/2, u rising
    for (uint32_t p = rings; p <= nu - 1 - rings; ++p)
      grid.Set(p, rings, em.Point(in[0].Place(p), kHalf));
  } else if (n[1] >= n[0] && !in[0].odd) {  // the middle column at u = 1/2, v falling
    for (uint32_t p = nv - 1 - rings + 1; p-- > rings;)
      grid.Set(rings, p, em.Point(kHalf, in[1].Place(p)));
  }
}

}  // namespace

TessellatedPatch TessellateQuad(const TessellationFactors& factors,
                                TessellationPartitioning partitioning) {
  TessellatedPatch out;
  for (int e = 0; e < 4; ++e) {  // culled (QuadProcessTessFactors)
    if (!(factors.edges[e] > 0.0f)) return out;
  }
  Emitter em(out, /*triangle=*/false);
  std::array<Factor, 4> edge_factor;
  for (int e = 0; e < 4; ++e) edge_factor[e] = ProcessFactor(factors.edges[e], partitioning, false);
  const std::array<Factor, 2> inside_factor{ProcessFactor(factors.inside[0], partitioning, true),
                                            ProcessFactor(factors.inside[1], partitioning, true)};
  auto is_one = [](const Factor& f) { return f.value == kOne; };
  if (partitioning == TessellationPartitioning::kInteger &&
      std::all_of(edge_factor.begin(), edge_factor.end(), is_one) &&
      std::all_of(inside_factor.begin(), inside_factor.end(), is_one)) {
    // The bare patch: (0,0), (1,0), (1,1), (0,1) as two triangles.
    const uint32_t a = em.Point(0, 0), b = em.Point(kOne, 0), c = em.Point(kOne, kOne),
                   d = em.Point(0, kOne);
    em.Triangle(a, b, d);
    em.Triangle(b, c, d);
    return out;
  }
  const std::array<Layout, 4> edge{Layout(edge_factor[0]), Layout(edge_factor[1]),
                                   Layout(edge_factor[2]), Layout(edge_factor[3])};
  const std::array<Layout, 2> in{Layout(inside_factor[0]), Layout(inside_factor[1])};
  const uint32_t nu = std::max(in[0].odd ? 4u : 3u, in[0].count);
  const uint32_t nv = std::max(in[1].odd ? 4u : 3u, in[1].count);

  // The outer ring from (0,1): u = 0 (v falling), v = 0 (u rising), u = 1 (v rising), v = 1
  // (u falling).
  std::vector<Side> ring(4);
  for (int e = 0; e < 4; ++e) {
    const uint32_t last = edge[e].count - 1;
    for (uint32_t p = 0; p < last; ++p) {
      const Fxp t = edge[e].Place((e == 1 || e == 2) ? p : last - p);
      ring[e].push_back(e & 1 ? em.Point(t, e == 3 ? kOne : 0) : em.Point(e == 2 ? kOne : 0, t));
    }
  }
  CloseRing(ring);
  QuadGrid grid(nu, nv);
  QuadInnerPoints(em, in, nu, nv, grid);

  // QuadGenerateConnectivity: rings down to the middle, each side stitched to the ring outside.
  const uint32_t rings = std::min((nu + 1) / 2, (nv + 1) / 2);
  for (uint32_t r = 1; r < rings; ++r) {
    const std::vector<Side> inner = grid.Ring(r, nu - 1 - r, nv - 1 - r);
    for (int e = 0; e < 4; ++e) {
      const int along = (e + 1) & 1;
      if (r == 1) {
        em.StitchTransition(inner[e], in[along], ring[e], edge[e]);
      } else {
        em.StitchRegular(true, Diagonals::kMirrored, inner[e], ring[e]);
      }
    }
    ring = inner;
  }
  // An odd axis leaves a strip one segment wide in the middle: joined along its long sides.
  const uint32_t r = rings - 1;
  if (nu > nv && in[1].odd) {
    Side low, high;  // the rows at v = lo and v = hi, u rising
    for (uint32_t u = r; u <= nu - 1 - r; ++u)
      low.push_back(grid.At(u, r)), high.push_back(grid.At(u, r + 1));
    em.StitchRegular(false, Diagonals::kInsideToOutside, high, low);
  } else if (nv >= nu && in[0].odd) {
    Side low, high;  // the columns at u = lo and u = hi, v falling
    for (uint32_t v = nv - r; v-- > r;)
      low.push_back(grid.At(r, v)), high.push_back(grid.At(r + 1, v));
    em.StitchRegular(
        false, in[1].odd ? Diagonals::kInsideToOutsideExceptMiddle : Diagonals::kInsideToOutside,
        high, low);
  }
  return out;
}

}  // namespace xnt::gpu
