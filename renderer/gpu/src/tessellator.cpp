// The patch tessellator (see tessellator.h).
#include "xnt/gpu/tessellator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace xnt::gpu {
namespace {

constexpr float kMaxFactor = 64.0f;  // D3D11_TESSELLATOR_MAX_TESSELLATION_FACTOR

// The value without its most significant set bit (the reference's RemoveMSB), which spreads the
// one shorter segment of a fractional half over the half as the factor grows.
uint32_t RemoveMsb(uint32_t v) {
  if (v == 0) return 0;
  uint32_t msb = 1u << 31;
  while (!(v & msb)) msb >>= 1;
  return v & ~msb;
}

float ClampFactor(float f, TessellationPartitioning p) {
  const float lo = p == TessellationPartitioning::kInteger ? 1.0f : 2.0f;
  if (!(f >= lo)) return lo;  // NaN too
  return std::min(f, kMaxFactor);
}

// One side of a ring, walked in the ring's direction: its points (numbers into the patch) and
// each point's location along the side, in the same frame for the ring outside and inside it.
struct Side {
  std::vector<uint32_t> points;
  std::vector<float> along;
};

class Builder {
 public:
  explicit Builder(TessellatedPatch& out) : out_(out) {}
  uint32_t Add(float u, float v, float w) {
    out_.points.push_back({u, v, w});
    return uint32_t(out_.points.size() - 1);
  }
  void Triangle(uint32_t a, uint32_t b, uint32_t c) {
    out_.triangles.insert(out_.triangles.end(), {a, b, c});
  }
  // Joins a side of a ring to the matching side of the ring inside it. Both start at the side's
  // first corner; each triangle takes one segment of one side, the one whose next point comes
  // first along the side, and winds as the ring is walked (outer edge forward, then inward).
  void Stitch(const Side& outer, const Side& inner) {
    size_t i = 0, j = 0;
    const size_t a = outer.points.size() - 1, b = inner.points.size() - 1;
    while (i < a || j < b) {
      const bool outer_next = j == b || (i < a && outer.along[i + 1] <= inner.along[j + 1]);
      if (outer_next) {
        Triangle(outer.points[i], outer.points[i + 1], inner.points[j]);
        ++i;
      } else {
        Triangle(outer.points[i], inner.points[j + 1], inner.points[j]);
        ++j;
      }
    }
  }

 private:
  TessellatedPatch& out_;
};

Side Reversed(Side s) {
  std::reverse(s.points.begin(), s.points.end());
  std::reverse(s.along.begin(), s.along.end());
  for (float& t : s.along) t = 1.0f - t;
  return s;
}

// An inside factor with no interior point while an edge is split would leave the edge's points
// nothing to join to; such an axis gets the smallest factor that has one.
float InsideFactor(float inside, float largest_edge, TessellationPartitioning p) {
  const float f = ClampFactor(inside, p);
  if (p == TessellationPartitioning::kInteger && std::ceil(f) <= 1.0f &&
      std::ceil(ClampFactor(largest_edge, p)) > 1.0f) {
    return 2.0f;
  }
  return f;
}

}  // namespace

std::vector<float> PlaceEdgePoints(float factor, TessellationPartitioning partitioning) {
  const float f = ClampFactor(factor, partitioning);
  // Integer: the rounded-up factor, odd or even by itself. Fractional even: always even parity.
  bool odd = false;
  float half = f * 0.5f;
  if (partitioning == TessellationPartitioning::kInteger) {
    const uint32_t n = uint32_t(std::ceil(f));
    odd = n & 1u;
    half = float(n) * 0.5f + (odd ? 0.5f : 0.0f);
  }
  const float floor_half = std::floor(half), ceil_half = std::ceil(half);
  const float fraction = half - floor_half;
  const uint32_t half_points = uint32_t(ceil_half);
  uint32_t split = half_points + 1;  // no split when the half factor is whole
  if (ceil_half != floor_half) split = (RemoveMsb(uint32_t(floor_half)) << 1) + 1;
  const float floor_segments = 2.0f * floor_half - (odd ? 1.0f : 0.0f);
  const float ceil_segments = 2.0f * ceil_half - (odd ? 1.0f : 0.0f);
  const uint32_t count = uint32_t(ceil_segments) + 1;
  std::vector<float> points(count);
  for (uint32_t pt = 0; pt < count; ++pt) {
    uint32_t p = pt;
    const bool flip = p >= half_points;
    if (flip) p = 2 * half_points - p - (odd ? 1 : 0);
    float location = 0.5f;
    if (p != half_points) {
      const uint32_t on_floor = p > split ? p - 1 : p;
      const float lo = float(on_floor) / floor_segments, hi = float(p) / ceil_segments;
      location = lo + (hi - lo) * fraction;
      if (flip) location = 1.0f - location;
    }
    points[pt] = location;
  }
  return points;
}

TessellatedPatch TessellateTriangle(const TessellationFactors& factors,
                                    TessellationPartitioning partitioning) {
  TessellatedPatch out;
  Builder b(out);
  const float largest = std::max({factors.edges[0], factors.edges[1], factors.edges[2]});
  const std::vector<float> inside =
      PlaceEdgePoints(InsideFactor(factors.inside[0], largest, partitioning), partitioning);
  const uint32_t n = uint32_t(inside.size() - 1);
  // A point on the side from corner `from` to corner `from + 1` at `along`, inset by `perp`
  // (the weight of the third corner; 2/3 of the ring's inside location, the reference's
  // barycentric ring inset).
  auto point_on = [&b](int from, float along, float perp) {
    std::array<float, 3> w{};
    w[(from + 1) % 3] = along - perp * 0.5f;
    w[(from + 2) % 3] = perp;
    w[from] = 1.0f - w[(from + 1) % 3] - perp;
    return b.Add(w[0], w[1], w[2]);
  };
  // Corners u, v, w; the ring is walked u -> v (edge w = 0), v -> w (u = 0), w -> u (v = 0).
  static constexpr int kEdgeOfSide[3] = {2, 0, 1};
  std::array<uint32_t, 3> corner{b.Add(1, 0, 0), b.Add(0, 1, 0), b.Add(0, 0, 1)};
  std::vector<Side> ring(3);
  for (int s = 0; s < 3; ++s) {
    const std::vector<float> e = PlaceEdgePoints(factors.edges[kEdgeOfSide[s]], partitioning);
    ring[s] = {{corner[s]}, {0.0f}};
    for (size_t i = 1; i + 1 < e.size(); ++i) {
      ring[s].points.push_back(point_on(s, e[i], 0.0f));
      ring[s].along.push_back(e[i]);
    }
    ring[s].points.push_back(corner[(s + 1) % 3]);
    ring[s].along.push_back(1.0f);
  }
  for (uint32_t r = 1; 2 * r <= n; ++r) {
    const float perp = inside[r] * (2.0f / 3.0f);
    const bool centre = 2 * r == n;
    const uint32_t c0 = point_on(0, inside[r], perp);
    corner = centre ? std::array<uint32_t, 3>{c0, c0, c0}
                    : std::array<uint32_t, 3>{c0, point_on(1, inside[r], perp),
                                              point_on(2, inside[r], perp)};
    std::vector<Side> inner(3);
    for (int s = 0; s < 3; ++s) {
      inner[s] = {{corner[s]}, {inside[r]}};
      for (uint32_t q = r + 1; q < n - r; ++q) {
        inner[s].points.push_back(point_on(s, inside[q], perp));
        inner[s].along.push_back(inside[q]);
      }
      if (!centre) {
        inner[s].points.push_back(corner[(s + 1) % 3]);
        inner[s].along.push_back(inside[n - r]);
      }
    }
    for (int s = 0; s < 3; ++s) b.Stitch(ring[s], inner[s]);
    ring = std::move(inner);
  }
  if (n % 2 == 1) {  // the innermost ring (the patch at factor 1) has no point inside
    b.Triangle(ring[0].points[0], ring[1].points[0], ring[2].points[0]);
  }
  return out;
}

TessellatedPatch TessellateQuad(const TessellationFactors& factors,
                                TessellationPartitioning partitioning) {
  TessellatedPatch out;
  Builder b(out);
  const float largest = *std::max_element(factors.edges.begin(), factors.edges.end());
  const std::array<std::vector<float>, 2> axis = {
      PlaceEdgePoints(InsideFactor(factors.inside[0], largest, partitioning), partitioning),
      PlaceEdgePoints(InsideFactor(factors.inside[1], largest, partitioning), partitioning)};
  const uint32_t nu = uint32_t(axis[0].size() - 1), nv = uint32_t(axis[1].size() - 1);
  // Sides walked (0,0) -> (1,0) (edge v = 0), -> (1,1) (u = 1), -> (0,1) (v = 1), -> (0,0)
  // (u = 0); `along` runs 0 -> 1 in the walking direction, so the sides walked backwards place
  // their points at the mirrored location (the layout is symmetric).
  static constexpr int kEdgeOfSide[4] = {1, 2, 3, 0};
  std::array<uint32_t, 4> corner{b.Add(0, 0, 0), b.Add(1, 0, 0), b.Add(1, 1, 0), b.Add(0, 1, 0)};
  std::vector<Side> ring(4);
  for (int s = 0; s < 4; ++s) {
    const std::vector<float> e = PlaceEdgePoints(factors.edges[kEdgeOfSide[s]], partitioning);
    ring[s] = {{corner[s]}, {0.0f}};
    for (size_t i = 1; i + 1 < e.size(); ++i) {
      const float t = s < 2 ? e[i] : e[e.size() - 1 - i];
      const uint32_t p = s == 0   ? b.Add(t, 0, 0)
                         : s == 1 ? b.Add(1, t, 0)
                         : s == 2 ? b.Add(t, 1, 0)
                                  : b.Add(0, t, 0);
      ring[s].points.push_back(p);
      ring[s].along.push_back(e[i]);
    }
    ring[s].points.push_back(corner[(s + 1) % 4]);
    ring[s].along.push_back(1.0f);
  }
  for (uint32_t r = 1; 2 * r <= std::min(nu, nv); ++r) {
    // Ring r runs through inside points r .. n - r of each axis; an axis with no segment left
    // makes it a line (both: the centre), whose coinciding corners are one point.
    const uint32_t lo_u = r, hi_u = nu - r, lo_v = r, hi_v = nv - r;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> grid;
    auto at = [&](uint32_t iu, uint32_t iv) {
      auto [it, fresh] = grid.try_emplace({iu, iv}, 0u);
      if (fresh) it->second = b.Add(axis[0][iu], axis[1][iv], 0.0f);
      return it->second;
    };
    std::vector<Side> inner(4);
    for (uint32_t q = lo_u; q <= hi_u; ++q) {
      inner[0].points.push_back(at(q, lo_v));
      inner[0].along.push_back(axis[0][q]);
    }
    for (uint32_t q = lo_v; q <= hi_v; ++q) {
      inner[1].points.push_back(at(hi_u, q));
      inner[1].along.push_back(axis[1][q]);
    }
    for (uint32_t q = hi_u + 1; q-- > lo_u;) {
      inner[2].points.push_back(at(q, hi_v));
      inner[2].along.push_back(1.0f - axis[0][q]);
    }
    for (uint32_t q = hi_v + 1; q-- > lo_v;) {
      inner[3].points.push_back(at(lo_u, q));
      inner[3].along.push_back(1.0f - axis[1][q]);
    }
    for (int s = 0; s < 4; ++s) b.Stitch(ring[s], inner[s]);
    ring = std::move(inner);
  }
  const uint32_t su = nu - 2 * (std::min(nu, nv) / 2), sv = nv - 2 * (std::min(nu, nv) / 2);
  // An odd smaller axis leaves a strip one segment wide (no point inside it): its long sides
  // are joined. An even one leaves a line or the centre point, already joined.
  if (su > 0 && sv > 0) {
    if (su == 1) {
      b.Stitch(ring[1], Reversed(ring[3]));
    } else {
      b.Stitch(ring[0], Reversed(ring[2]));
    }
  }
  return out;
}

}  // namespace xnt::gpu
