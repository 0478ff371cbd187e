// Primitive assembly and clipping on the cpu path: the assembled index list (gpu/
// primitive_processor.h) through the vertex stage into clipped triangles, point sprites and line
// segments in host pixels, ready for the rasterizers (geometry.h).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "geometry.h"
#include "pixel_stage.h"
#include "vertex_stage.h"
#include "xnt/gpu/primitive_clip.h"
#include "xnt/gpu/primitive_processor.h"
#include "xnt/gpu/register_values.h"

namespace xnt::cpu {

struct AssembledPrimitives {
  std::vector<Triangle> triangles;
  std::vector<PointSprite> points;
  std::vector<Line> lines;
  // Triangles drawn as points or lines (gpu/polygon_mode.h) mix the three kinds: the order to
  // rasterize them in, each entry the kind and its index in that vector. Empty: triangles, then
  // points, then lines (a draw makes only one kind otherwise).
  std::vector<std::pair<PrimitiveKind, uint32_t>> order;
  size_t count() const { return triangles.size() + points.size() + lines.size(); }
};

// Shades each vertex the primitives name (once per index, VertexStage caches) and assembles them
// by topology: rectangles get their fourth corner as the hardware derives it, triangles and lines
// are clipped (depth too when `clip_depth`), point sizes come from PA_SU_POINT_SIZE /
// PA_SU_POINT_MINMAX or the shader's oPts, scaled by scale_x x scale_y. `clip` (the planes the
// vertex stage measured) removes primitives by vertex kill and cull-only planes and clips them
// against the other user planes; points are removed when outside any plane; rectangles are
// removed by their three guest corners and clipped whole (gpu/primitive_clip.h). Triangles whose
// face PA_SU_SC_MODE_CNTL draws as points or lines become those (gpu/polygon_mode.h), in order.
// One rectangle-list primitive from its three guest corners (gpu/primitive_clip.h
// RectangleCorners): nothing when vertex kill or a cull-only plane removes it by those three, else
// its two halves (c, a, b) and (a, a + b - c, b) clipped like triangles, against the clipping
// user planes too.
void AssembleRectangle(const ClipVertex& a, const ClipVertex& b, const ClipVertex& c,
                       bool clip_depth, const gpu::PrimitiveClip& clip,
                       std::vector<Triangle>& triangles);

AssembledPrimitives AssemblePrimitives(const gpu::HostPrimitives& prims, VertexStage& vertices,
                                       gpu::RegisterValues regs, bool clip_depth,
                                       uint32_t scale_x, uint32_t scale_y,
                                       const gpu::PrimitiveClip& clip = {});

}  // namespace xnt::cpu
