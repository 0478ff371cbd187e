// Line rasterization matching the fbo path's host (see geometry.h RasterizeLine).
//
// Why rectangles: the fbo path creates its pipelines with lineWidth 1 and no
// VkPipelineRasterizationLineStateCreateInfo, so lineRasterizationMode is DEFAULT, whose pixels
// Vulkan leaves to the implementation; lavapipe turns every mode but BRESENHAM into llvmpipe's
// rectangular lines (Mesa src/gallium/frontends/lavapipe/lvp_pipeline.c: line_rectangular =
// mode != BRESENHAM), which lp_setup_line.c rasterizes as a 4-edge polygon with the triangle
// fill convention. The construction is reproduced here in the same arithmetic (float32 for the
// half-width vector, round-to-nearest-even snapping to 1/256 pixel), so the covered samples are
// the same; the result is also Vulkan's strict rectangular line.
//
// Wide lines: PA_SU_LINE_CNTL's width (state.line_width) scales the half-width vector, as
// lp_setup_line.c scales it by the rasterizer's line_width (the fbo path sets the host's dynamic
// line width to the register's times the scale). At a resolution scale the width is in guest
// pixels and the quad is the guest's mapped to host pixels (gpu/line_width.h LineHalfWidth). Derivatives: the hardware shades lines in 2x2 quads like every
// primitive, so with state.quads the pixels beside a covered one are emitted as helpers with
// the attributes extrapolated along the segment (the plane llvmpipe's line_linear_coef builds:
// constant across the line, linear along it).
#include <algorithm>
#include <array>
#include <cmath>

#include "geometry.h"
#include "xnt/gpu/line_width.h"
#include "xnt/gpu/pixel_inputs.h"

namespace xnt::cpu {

namespace {

constexpr int64_t kSubPixel = 256;

struct P {
  int64_t x, y;  // 1/256 pixel
};

// The same edge function and top-left rule as rasterizer.cpp, for a clockwise (on a y-down
// screen) ordering whose interior is positive.
int64_t Edge(const P& a, const P& b, int64_t px, int64_t py) {
  return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
}
bool TopLeft(const P& a, const P& b) {
  const int64_t dx = b.x - a.x, dy = b.y - a.y;
  return dy < 0 || (dy == 0 && dx > 0);
}

// llvmpipe's subpixel_snap(v - pixel_offset) with pixel_offset 0.5 (half_pixel_center), moved
// back by half a pixel so sample positions stay at pixel centres + offsets as everywhere else in
// this path.
int64_t Snap(float v) { return int64_t(std::lrint(float(kSubPixel) * (v - 0.5f))) + kSubPixel / 2; }

}  // namespace

bool RasterizeLine(const Line& line, const RasterState& state,
                   const std::function<void(const Fragment&)>& emit) {
  const ClipVertex& va = line.a;
  const ClipVertex& vb = line.b;
  if (!(va.pos[3] > 0.0) || !(vb.pos[3] > 0.0)) return false;
  const double inv_wa = 1.0 / va.pos[3], inv_wb = 1.0 / vb.pos[3];
  const double ax = va.pos[0] * inv_wa, ay = va.pos[1] * inv_wa, az = va.pos[2] * inv_wa;
  const double bx = vb.pos[0] * inv_wb, by = vb.pos[1] * inv_wb, bz = vb.pos[2] * inv_wb;
  if (!std::isfinite(ax) || !std::isfinite(ay) || !std::isfinite(bx) || !std::isfinite(by)) {
    return false;
  }

  // The rectangle, as lp_setup_line.c builds it: v1 = a, v2 = b, d = v1 - v2, half-width vector
  // (-dy, dx) * (width / 2) / |d| rounded to 1/256 on its own, corners v1 - t, v2 - t, v2 + t,
  // v1 + t.
  const float fax = float(ax), fay = float(ay), fbx = float(bx), fby = float(by);
  const float dx = fax - fbx, dy = fay - fby;
  const float area = dx * dx + dy * dy;
  if (area == 0.0f) return false;
  if (!(state.line_width > 0.0f)) return false;
  const gpu::LineExtrusion half = gpu::LineHalfWidth(dx, dy, state.line_width, state.scale);
  // At every scale: the Vulkan paths' line-quad geometry shaders place their corners the same
  // way (glsl_prelude.cpp xe_line_quad_corners), in host pixels before the host sees them.
  P c[4];
  const int64_t tx = int64_t(std::lrint(float(kSubPixel) * half.x));
  const int64_t ty = int64_t(std::lrint(float(kSubPixel) * half.y));
  const P a{Snap(fax), Snap(fay)}, b{Snap(fbx), Snap(fby)};
  c[0] = {a.x - tx, a.y - ty}, c[1] = {b.x - tx, b.y - ty};
  c[2] = {b.x + tx, b.y + ty}, c[3] = {a.x + tx, a.y + ty};
  // Interior positive (the triangle rasterizer's orientation); the rectangle's winding is the
  // same for every direction, but check rather than rely on it.
  if (Edge(c[0], c[1], c[2].x, c[2].y) < 0) std::swap(c[1], c[3]);
  int64_t bias[4];
  for (int i = 0; i < 4; ++i) bias[i] = TopLeft(c[i], c[(i + 1) % 4]) ? 0 : -1;

  auto floor_px = [](int64_t f) { return int32_t((f >= 0 ? f : f - (kSubPixel - 1)) / kSubPixel); };
  int64_t min_x = c[0].x, max_x = c[0].x, min_y = c[0].y, max_y = c[0].y;
  for (const P& p : c) {
    min_x = std::min(min_x, p.x), max_x = std::max(max_x, p.x);
    min_y = std::min(min_y, p.y), max_y = std::max(max_y, p.y);
  }
  const int32_t x0 = std::max(floor_px(min_x), state.x0);
  const int32_t x1 = std::min(floor_px(max_x) + 1, state.x1);
  const int32_t y0 = std::max(floor_px(min_y), state.y0);
  const int32_t y1 = std::min(floor_px(max_y) + 1, state.y1);
  if (x1 <= x0 || y1 <= y0) return true;

  // t of a screen point: its projection onto a -> b (unsnapped positions, as llvmpipe's
  // interpolants use), not clamped (the caps extrapolate by up to half a pixel). Projected in
  // guest pixels: at a non-square scale the quad is the guest's sheared, and attributes stay
  // constant along its guest-perpendicular sides (factors of exactly 1 at S x S).
  const double gx = 1.0 / double(state.scale.x), gy = 1.0 / double(state.scale.y);
  const double ex = (bx - ax) * gx, ey = (by - ay) * gy, len2 = ex * ex + ey * ey;
  auto param = [&](double px, double py) {
    return ((px - ax) * gx * ex + (py - ay) * gy * ey) / len2;
  };
  // Lines are not polygons: only the para offset's constant term applies (gpu/polygon_offset.h).
  const double offset = gpu::PolygonOffsetDepth(state.polygon_offset.front, state.depth_format,
                                                0.0, std::max(std::fabs(az), std::fabs(bz)));

  const uint32_t n = std::min<uint32_t>(state.interpolator_count, 16);
  const uint32_t samples = std::max<uint32_t>(1, state.samples);
  const SamplePosition* positions = SamplePositions(samples);
  // Coverage and per-sample depth of pixel (x, y) (nothing outside the scissored bounds).
  auto cover = [&](int32_t x, int32_t y, Fragment& f) {
    f.coverage = 0;
    if (x < x0 || x >= x1 || y < y0 || y >= y1) return;
    for (uint32_t s = 0; s < samples; ++s) {
      const int64_t px = int64_t(x) * kSubPixel + positions[s].x;
      const int64_t py = int64_t(y) * kSubPixel + positions[s].y;
      bool in = true;
      for (int i = 0; i < 4 && in; ++i) in = Edge(c[i], c[(i + 1) % 4], px, py) + bias[i] >= 0;
      if (!in) continue;
      f.coverage |= 1u << s;
      const double t = param(x + positions[s].x / 256.0, y + positions[s].y / 256.0);
      f.depth[s] = SampleDepth(float(az + (bz - az) * t), offset, state);
    }
  };
  // The interpolators in `mask` at (px, py) (extrapolated beyond the segment's ends and sides).
  auto interpolate = [&](double px, double py, uint32_t mask, Fragment& f) {
    const double t = param(px, py);
    double wa = 1.0 - t, wb = t;
    if (state.perspective) {
      wa *= inv_wa;
      wb *= inv_wb;
      const double sum = wa + wb;
      wa /= sum;
      wb /= sum;
    }
    for (uint32_t k = 0; k < n; ++k) {
      if (!((mask >> k) & 1u)) continue;
      for (int comp = 0; comp < 4; ++comp) {
        f.interpolators[k][comp] = float(wa * double(va.interpolators[k][comp]) +
                                         wb * double(vb.interpolators[k][comp]));
      }
    }
  };
  // Attributes at the pixel centre; the centroid-sampled ones of a partly covered pixel at its
  // centroid sample (gpu::CentroidSample), as for triangles.
  auto attributes = [&](int32_t x, int32_t y, Fragment& f) {
    interpolate(x + 0.5, y + 0.5, ~0u, f);
    const int32_t smp = gpu::CentroidSample(f.coverage, samples);
    if (smp >= 0 && state.centroid_mask) {
      interpolate(x + positions[smp].x / 256.0, y + positions[smp].y / 256.0, state.centroid_mask,
                  f);
    }
    f.x = uint32_t(x);
    f.y = uint32_t(y);
  };
  if (!state.quads) {
    Fragment f;
    f.front_facing = line.front;
    f.line = !line.polygon;
    for (int32_t y = y0; y < y1; ++y) {
      for (int32_t x = x0; x < x1; ++x) {
        cover(x, y, f);
        if (!f.coverage) continue;
        attributes(x, y, f);
        emit(f);
      }
    }
    return true;
  }
  // 2x2 quads aligned to even pixels, as rasterizer.cpp emits triangles'.
  std::array<Fragment, 4> quad;
  for (Fragment& f : quad) f.front_facing = line.front, f.line = !line.polygon;
  for (int32_t qy = y0 & ~1; qy < y1; qy += 2) {
    for (int32_t qx = x0 & ~1; qx < x1; qx += 2) {
      bool any = false;
      for (int32_t i = 0; i < 4; ++i) {
        cover(qx + (i & 1), qy + (i >> 1), quad[size_t(i)]);
        any |= quad[size_t(i)].coverage != 0;
      }
      if (!any) continue;
      for (int32_t i = 0; i < 4; ++i) {
        Fragment& f = quad[size_t(i)];
        attributes(qx + (i & 1), qy + (i >> 1), f);
        f.helper = f.coverage == 0;
        emit(f);
      }
    }
  }
  return true;
}

}  // namespace xnt::cpu
