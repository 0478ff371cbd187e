// Primitive assembly and clipping on the cpu path (see primitive_assembly.h).
#include "primitive_assembly.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "xnt/gpu/point_size.h"
#include "xnt/gpu/polygon_mode.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu {

namespace {

// True when the primitive's vertices remove it before clipping: vertex kill by the draw's rule,
// or, with cull-only planes, every vertex outside one plane (as a host's cull distances do).
bool Removed(std::initializer_list<const ClipVertex*> v, const gpu::PrimitiveClip& clip) {
  size_t killed = 0;
  for (const ClipVertex* p : v) killed += p->killed ? 1 : 0;
  if (clip.kill == gpu::VertexKillRule::kAny && killed != 0) return true;
  if (clip.kill == gpu::VertexKillRule::kAll && killed == v.size()) return true;
  for (uint32_t n = 0; clip.planes_cull_only && n < clip.plane_count; ++n) {
    bool all_outside = true;
    for (const ClipVertex* p : v) all_outside = all_outside && p->user_distance[n] < 0.0;
    if (all_outside) return true;
  }
  return false;
}

// The user planes that clip (the others only cull).
uint32_t ClippingPlanes(const gpu::PrimitiveClip& clip) {
  return clip.planes_cull_only ? 0 : clip.plane_count;
}

// A sprite against the user planes by ps_ucp_mode (gpu/primitive_clip.h): false when the planes
// remove it; with a clipping plane through it (modes 2-3), its corner distances for the
// rasterizer to clip it.
bool PointPlanes(PointSprite& p, float width, float height, const gpu::Viewport& viewport,
                 const gpu::PrimitiveClip& clip) {
  const ClipVertex& v = p.vertex;
  if (!gpu::PointPlanesAtCorners(clip)) {
    for (uint32_t n = 0; n < clip.plane_count; ++n) {
      if (v.user_distance[n] < 0.0) return false;
    }
    return true;
  }
  bool crossed = false;
  for (uint32_t i = 0; i < 4; ++i) {
    // Top-left, bottom-left, top-right, bottom-right: x by bit 1, y by bit 0.
    const double dx =
        gpu::PointCornerOffset(i & 2 ? 1.0 : -1.0, width, v.pos[3], viewport.screen_scale[0]);
    const double dy =
        gpu::PointCornerOffset(i & 1 ? 1.0 : -1.0, height, v.pos[3], viewport.screen_scale[1]);
    for (uint32_t n = 0; n < clip.plane_count; ++n) {
      p.corner_distance[i][n] = gpu::PointCornerDistance(clip, n, v.user_distance[n], dx, dy);
    }
  }
  for (uint32_t n = 0; n < clip.plane_count; ++n) {
    bool all_outside = true;
    for (const auto& d : p.corner_distance) {
      all_outside = all_outside && d[n] < 0.0;
      crossed = crossed || d[n] < 0.0;
    }
    if (all_outside) return false;
  }
  // Cull-only planes remove the sprite or leave it whole.
  if (crossed && !clip.planes_cull_only) p.clip_planes = clip.plane_count;
  return true;
}

void AssemblePoints(const gpu::HostPrimitives& prims, VertexStage& vertices,
                    gpu::RegisterValues regs, uint32_t scale_x, uint32_t scale_y,
                    const gpu::PrimitiveClip& clip, std::vector<PointSprite>& points) {
  // Width x height from PA_SU_POINT_SIZE, or the vertex shader's oPts.x clamped to
  // PA_SU_POINT_MINMAX on both axes (gpu/point_size.h).
  const gpu::PointSizes sizes = gpu::ReadPointSizes(regs);
  // Vertex kill decides on the vertex alone; the planes by ps_ucp_mode (PointPlanes).
  gpu::PrimitiveClip kill_only = clip;
  kill_only.plane_count = 0;
  for (uint32_t index : prims.indices) {
    PointSprite p;
    p.vertex = vertices.Get(index);
    if (Removed({&p.vertex}, kill_only)) continue;
    float width = 0.0f, height = 0.0f;
    sizes.Size(p.vertex.point_size_exported, p.vertex.point_size, width, height);
    if (!PointPlanes(p, width, height, vertices.viewport(), clip)) continue;
    // Sizes are guest pixels: S x T times as many host pixels.
    p.size = width * float(scale_x);
    p.height = height * float(scale_y);
    points.push_back(p);
  }
}

void AssembleLines(const gpu::HostPrimitives& prims, VertexStage& vertices, bool clip_depth,
                   const gpu::PrimitiveClip& clip, std::vector<Line>& segments) {
  // Strips and loops arrive as lists (gpu::ProcessPrimitives), one segment per index pair.
  for (size_t i = 0; i + 1 < prims.indices.size(); i += 2) {
    const ClipVertex& a = vertices.Get(prims.indices[i]);
    const ClipVertex& b = vertices.Get(prims.indices[i + 1]);
    Line l;
    if (!Removed({&a, &b}, clip) && ClipLine(a, b, l, clip_depth, ClippingPlanes(clip))) {
      segments.push_back(l);
    }
  }
}

void ClipToTriangles(const ClipVertex& a, const ClipVertex& b, const ClipVertex& c,
                     bool clip_depth, std::vector<Triangle>& triangles,
                     uint32_t user_planes = 0) {
  const Polygon poly = ClipTriangle(a, b, c, clip_depth, user_planes);
  for (size_t i = 1; i + 1 < poly.size(); ++i) triangles.push_back({poly[0], poly[i], poly[i + 1]});
}

// Sizes of a point sprite at `v` in host pixels (AssemblePoints' rule).
void SpriteSize(const gpu::PointSizes& sizes, const ClipVertex& v, uint32_t scale_x,
                uint32_t scale_y, PointSprite& p) {
  float width = 0.0f, height = 0.0f;
  sizes.Size(v.point_size_exported, v.point_size, width, height);
  p.size = width * float(scale_x);
  p.height = height * float(scale_y);
}

// A triangle of a draw whose faces PA_SU_SC_MODE_CNTL may draw as points or lines
// (gpu/polygon_mode.h): its fill by its own facing, then itself, its three edges or its three
// vertices, in that order in `out.order`.
void AssembleInMode(const ClipVertex& a, const ClipVertex& b, const ClipVertex& c,
                    const gpu::PolygonModes& modes, bool front_is_cw, bool clip_depth,
                    const gpu::PrimitiveClip& clip, const gpu::PointSizes& sizes,
                    uint32_t scale_x, uint32_t scale_y, AssembledPrimitives& out) {
  using Kind = PrimitiveKind;
  if (Removed({&a, &b, &c}, clip)) return;
  const ClipVertex* v[3] = {&a, &b, &c};
  int orientation = 0;
  if (a.pos[3] > 0.0 && b.pos[3] > 0.0 && c.pos[3] > 0.0) {
    // The rasterizer's snapping (1/256 pixel, halves away from zero).
    double x[3], y[3];
    for (int i = 0; i < 3; ++i) {
      x[i] = std::round(v[i]->pos[0] / v[i]->pos[3] * 256.0) / 256.0;
      y[i] = std::round(v[i]->pos[1] / v[i]->pos[3] * 256.0) / 256.0;
    }
    orientation = gpu::SnappedClockwise(x, y);
  } else {
    const double pa[3] = {a.pos[0], a.pos[1], a.pos[3]};
    const double pb[3] = {b.pos[0], b.pos[1], b.pos[3]};
    const double pc[3] = {c.pos[0], c.pos[1], c.pos[3]};
    orientation = gpu::TriangleClockwise(pa, pb, pc);
  }
  if (orientation == 0) return;
  const bool clockwise = orientation > 0;
  const bool front = clockwise == front_is_cw;
  switch (modes.For(clockwise, front_is_cw)) {
    case gpu::PolygonFill::kNothing:
      return;
    case gpu::PolygonFill::kTriangles: {
      const size_t first = out.triangles.size();
      ClipToTriangles(a, b, c, clip_depth, out.triangles, ClippingPlanes(clip));
      for (size_t i = first; i < out.triangles.size(); ++i) {
        out.order.push_back({Kind::kTriangle, uint32_t(i)});
      }
      return;
    }
    case gpu::PolygonFill::kLines:
      for (int e = 0; e < 3; ++e) {
        Line l;
        if (!ClipLine(*v[e], *v[(e + 1) % 3], l, clip_depth, ClippingPlanes(clip))) continue;
        l.polygon = true;
        l.front = front;
        out.order.push_back({Kind::kLine, uint32_t(out.lines.size())});
        out.lines.push_back(l);
      }
      return;
    case gpu::PolygonFill::kPoints:
      for (const ClipVertex* p : v) {
        // A vertex outside a clipping plane is not drawn; the sprite is never cut (its corners
        // share the vertex's distances).
        bool inside = true;
        for (uint32_t n = 0; n < ClippingPlanes(clip); ++n) inside = inside && p->user_distance[n] >= 0.0;
        if (!inside) continue;
        PointSprite s;
        s.vertex = *p;
        SpriteSize(sizes, *p, scale_x, scale_y, s);
        s.polygon = true;
        s.front = front;
        out.order.push_back({Kind::kPoint, uint32_t(out.points.size())});
        out.points.push_back(s);
      }
      return;
  }
}

}  // namespace

// A rectangle from its three guest corners (gpu::RectangleRightAngle): the fourth is a + b - c in
// clip space, for every interpolator and every plane distance (linear in the position: summing
// the distances measures the summed position; renderer/vulkan's rectangle geometry shader sums
// them the same way). Kill and cull-only planes look at the three
// guest corners only (gpu/primitive_clip.h); the clipping planes cut the whole rectangle.
void AssembleRectangle(const ClipVertex& a, const ClipVertex& b, const ClipVertex& c,
                       bool clip_depth, const gpu::PrimitiveClip& clip,
                       std::vector<Triangle>& triangles) {
  if (Removed({&a, &b, &c}, clip)) return;
  const ClipVertex* v[3] = {&a, &b, &c};
  std::array<std::array<double, 2>, 3> screen;
  for (int i = 0; i < 3; ++i) screen[i] = {v[i]->pos[0] / v[i]->pos[3], v[i]->pos[1] / v[i]->pos[3]};
  const gpu::RectangleCorners corner = gpu::RectangleRightAngle(screen);
  const ClipVertex& ra = *v[corner.a];
  const ClipVertex& rb = *v[corner.b];
  const ClipVertex& rc = *v[corner.c];
  auto sum = [](double x, double y, double z) { return x + y - z; };
  ClipVertex d;
  for (int k = 0; k < 4; ++k) d.pos[k] = sum(ra.pos[k], rb.pos[k], rc.pos[k]);
  for (size_t k = 0; k < d.interpolators.size(); ++k) {
    for (int comp = 0; comp < 4; ++comp) {
      d.interpolators[k][comp] =
          ra.interpolators[k][comp] + rb.interpolators[k][comp] - rc.interpolators[k][comp];
    }
  }
  for (size_t n = 0; n < d.user_distance.size(); ++n) {
    d.user_distance[n] = sum(ra.user_distance[n], rb.user_distance[n], rc.user_distance[n]);
  }
  for (size_t n = 0; n < d.depth_distance.size(); ++n) {
    d.depth_distance[n] = sum(ra.depth_distance[n], rb.depth_distance[n], rc.depth_distance[n]);
  }
  ClipToTriangles(rc, ra, rb, clip_depth, triangles, ClippingPlanes(clip));
  ClipToTriangles(ra, d, rb, clip_depth, triangles, ClippingPlanes(clip));
}

AssembledPrimitives AssemblePrimitives(const gpu::HostPrimitives& prims, VertexStage& vertices,
                                       gpu::RegisterValues regs, bool clip_depth,
                                       uint32_t scale_x, uint32_t scale_y,
                                       const gpu::PrimitiveClip& clip) {
  AssembledPrimitives out;
  if (prims.topology == gpu::HostTopology::kPointList) {
    AssemblePoints(prims, vertices, regs, scale_x, scale_y, clip, out.points);
    return out;
  }
  if (prims.topology == gpu::HostTopology::kLineList) {
    AssembleLines(prims, vertices, clip_depth, clip, out.lines);
    return out;
  }
  const gpu::PolygonModes modes = gpu::ReadPolygonModes(regs);
  const bool in_modes =
      prims.topology == gpu::HostTopology::kTriangleList && modes.Active();
  const bool front_is_cw = gpu::DecodeRegister<xenos::reg::PA_SU_SC_MODE_CNTL>(regs).face;
  const gpu::PointSizes sizes = gpu::ReadPointSizes(regs);
  for (size_t i = 0; i + 2 < prims.indices.size(); i += 3) {
    const ClipVertex& a = vertices.Get(prims.indices[i]);
    const ClipVertex& b = vertices.Get(prims.indices[i + 1]);
    const ClipVertex& c = vertices.Get(prims.indices[i + 2]);
    if (in_modes) {
      AssembleInMode(a, b, c, modes, front_is_cw, clip_depth, clip, sizes, scale_x, scale_y, out);
    } else if (prims.topology == gpu::HostTopology::kRectangleList) {
      AssembleRectangle(a, b, c, clip_depth, clip, out.triangles);
    } else if (!Removed({&a, &b, &c}, clip)) {
      ClipToTriangles(a, b, c, clip_depth, out.triangles, ClippingPlanes(clip));
    }
  }
  return out;
}

}  // namespace xnt::cpu
