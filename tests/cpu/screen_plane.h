// What the randomized clipping tests (clipper_random_test.cpp, rectangle_clip_random_test.cpp)
// measure their scalar reference with: user planes as screen-space lines, and distances from a
// line through two points.
#pragma once

#include <array>
#include <cmath>

namespace xnt::cpu::test {

// A plane in screen space a x + b y + c >= 0 with (a, b) a unit normal (At is then in pixels);
// in homogeneous form a x + b y + c w, linear in ClipVertex::pos as the vertex stage's
// clip-space distances are.
struct Plane {
  double a, b, c;
  double At(double x, double y) const { return a * x + b * y + c; }
};

// Signed distance in pixels of (x, y) from the line through p and q (positive on the right of
// p -> q with y down).
inline double LineDistance(const std::array<double, 2>& p, const std::array<double, 2>& q,
                           double x, double y) {
  const double dx = q[0] - p[0], dy = q[1] - p[1];
  return ((x - p[0]) * dy - (y - p[1]) * dx) / std::hypot(dx, dy);
}

}  // namespace xnt::cpu::test
