// Homogeneous clipping (Sutherland-Hodgman) of one triangle against the planes of geometry.h.
// Near and far planes are the hardware's, in guest clip space (the vertex stage measures them);
// x and y are clipped only against the guard band, the scissor does the rest; the
// user clip planes (gpu/primitive_clip.h) come last, as distances the vertex stage computed.
#include <algorithm>
#include <cmath>

#include "geometry.h"

namespace xnt::cpu {

namespace {

// w, the depth range and the guard band; user planes follow.
constexpr int kFixedPlanes = 7;

// Signed distance of `v` to plane `p` (inside >= 0).
double Distance(const ClipVertex& v, int plane) {
  const auto& p = v.pos;
  switch (plane) {
    case 0: return p[3] - 1e-9 * std::fabs(p[3]) - 1e-30;  // w > 0 (strictly; kMinW)
    case 1: return v.depth_distance[0];                    // near, in guest clip space
    case 2: return v.depth_distance[1];                    // far
    case 3: return p[0] + kGuardBandPixels * p[3];         // x >= -G
    case 4: return kGuardBandPixels * p[3] - p[0];         // x <= G
    case 5: return p[1] + kGuardBandPixels * p[3];         // y >= -G
    case 6: return kGuardBandPixels * p[3] - p[1];         // y <= G
    default: return v.user_distance[size_t(plane - kFixedPlanes)];
  }
}

ClipVertex Lerp(const ClipVertex& a, const ClipVertex& b, double t) {
  ClipVertex r;
  for (int i = 0; i < 4; ++i) r.pos[i] = a.pos[i] + (b.pos[i] - a.pos[i]) * t;
  for (size_t i = 0; i < 2; ++i) {
    r.depth_distance[i] = a.depth_distance[i] + (b.depth_distance[i] - a.depth_distance[i]) * t;
  }
  for (size_t i = 0; i < r.user_distance.size(); ++i) {
    r.user_distance[i] = a.user_distance[i] + (b.user_distance[i] - a.user_distance[i]) * t;
  }
  for (size_t k = 0; k < r.interpolators.size(); ++k) {
    for (int c = 0; c < 4; ++c) {
      const double x = a.interpolators[k][c], y = b.interpolators[k][c];
      r.interpolators[k][c] = float(x + (y - x) * t);
    }
  }
  return r;
}

// A position with an infinite or NaN coordinate has no place on any plane: its distances are
// NaN or infinite, and an intersection with it is NaN. A primitive with such a vertex is
// dropped whole, as the fixed-point rasterizer cannot place it (what Xenos does with such a
// position is not documented; the Vulkan paths leave it to the host GPU's clipper).
bool FinitePosition(const ClipVertex& v) {
  return std::isfinite(v.pos[0]) && std::isfinite(v.pos[1]) && std::isfinite(v.pos[2]) &&
         std::isfinite(v.pos[3]);
}

// What the fixed-point rasterizer can place: w > 0 and the screen position inside twice the
// guard band (snapped coordinates then stay far from int64 overflow in the edge functions).
bool Rasterizable(const ClipVertex& v) {
  const double limit = 2.0 * kGuardBandPixels * v.pos[3];
  return FinitePosition(v) && v.pos[3] > 0.0 && std::fabs(v.pos[0]) <= limit &&
         std::fabs(v.pos[1]) <= limit;
}

// The smallest w plane 0 keeps (Distance).
constexpr double kMinW = 1e-30;

// A crossing of the segment s -> e at t. Every point kept after plane 0 has w > 0 exactly, but
// the crossing's w, computed near the w plane or at t rounding to 1, can come out 0 or below;
// it is put back at the plane's w.
ClipVertex Crossing(const ClipVertex& s, const ClipVertex& e, double t) {
  ClipVertex r = Lerp(s, e, t);
  r.pos[3] = std::max(r.pos[3], kMinW);
  return r;
}

// Planes 1 and 2 are the depth range's (Distance).
bool Skipped(int plane, bool clip_depth) { return !clip_depth && (plane == 1 || plane == 2); }

}  // namespace

Polygon ClipTriangle(const ClipVertex& a, const ClipVertex& b, const ClipVertex& c,
                     bool clip_depth, uint32_t user_planes) {
  const int planes = kFixedPlanes + int(user_planes);
  if (!FinitePosition(a) || !FinitePosition(b) || !FinitePosition(c)) return {};
  Polygon poly = {a, b, c};
  // Most triangles are wholly inside: no copies then.
  bool inside = true;
  for (int plane = 0; plane < planes && inside; ++plane) {
    if (Skipped(plane, clip_depth)) continue;
    for (const ClipVertex& v : poly) inside = inside && Distance(v, plane) >= 0.0;
  }
  if (inside) return poly;
  Polygon next;
  for (int plane = 0; plane < planes && !poly.empty(); ++plane) {
    if (Skipped(plane, clip_depth)) continue;
    next.clear();
    for (size_t i = 0; i < poly.size(); ++i) {
      const ClipVertex& s = poly[i];
      const ClipVertex& e = poly[(i + 1) % poly.size()];
      const double ds = Distance(s, plane), de = Distance(e, plane);
      if (ds >= 0.0) next.push_back(s);
      // A NaN distance (a user plane's NaN constants) counts as outside, with no crossing.
      const double t = ds / (ds - de);
      if ((ds >= 0.0) != (de >= 0.0) && t >= 0.0 && t <= 1.0) next.push_back(Crossing(s, e, t));
    }
    poly.swap(next);
  }
  // Finite ends 1e308 apart make an infinite difference, so a crossing can still be non-finite;
  // such a polygon (garbage positions only) is dropped rather than handed on.
  if (poly.size() < 3 || !std::all_of(poly.begin(), poly.end(), Rasterizable)) poly.clear();
  return poly;
}

bool ClipLine(const ClipVertex& a, const ClipVertex& b, Line& out, bool clip_depth,
              uint32_t user_planes) {
  // Parametric clipping (Liang-Barsky on the plane distances): the part of a -> b with t in
  // [t0, t1] is inside every plane; the new ends are interpolated linearly in clip space.
  double t0 = 0.0, t1 = 1.0;
  // Whether an end is outside some plane: its crossing replaces it even where t rounds to 0 or 1
  // (an end just outside by the w plane's margin).
  bool cut_a = false, cut_b = false;
  if (!FinitePosition(a) || !FinitePosition(b)) return false;
  for (int plane = 0; plane < kFixedPlanes + int(user_planes); ++plane) {
    if (Skipped(plane, clip_depth)) continue;
    const double da = Distance(a, plane), db = Distance(b, plane);
    if (da < 0.0 && db < 0.0) return false;
    if (da >= 0.0 && db >= 0.0) continue;
    const double t = da / (da - db);
    if (!(t >= 0.0 && t <= 1.0)) return false;  // a NaN distance: outside
    if (da < 0.0) {
      t0 = std::max(t0, t);
      cut_a = true;
    } else {
      t1 = std::min(t1, t);
      cut_b = true;
    }
    if (t0 > t1) return false;
  }
  out.a = cut_a ? Crossing(a, b, t0) : a;
  out.b = cut_b ? Crossing(a, b, t1) : b;
  return Rasterizable(out.a) && Rasterizable(out.b);
}

}  // namespace xnt::cpu
