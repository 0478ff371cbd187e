// How far down the render target a draw can reach, found by running its vertex shader on the CPU
// for the draw's vertices (index buffer or auto-index) with the microcode interpreter and applying
// the viewport transform (PA_CL_VTE_CNTL, PA_CL_VPORT_*, the window offset, the half-pixel
// offset) - the idea of Xenia's draw_extent_estimator.cc. The EDRAM cache uses it for draws whose
// scissor does not bound them, instead of claiming the rest of the EDRAM.
//
// The estimate is conservative for what it covers: every vertex is run (no sampling), the bottom
// is the row holding the lowest vertex (rectangle lists include each rectangle's derived fourth
// corner; points and lines reach half their largest size or width further; a tessellated draw
// runs its domain shader per generated vertex). It gives up (estimated = false, `reason` says
// why) where a bound cannot be had this way: more vertices than the cap, a memexport shader, a
// vertex shader that does not decode, a vertex behind the eye (w <= 0) or a non-finite position,
// or runaway control flow in the shader.
#pragma once

#include <cstdint>
#include <string>

#include "xnt/gpu/primitive_processor.h"
#include "xnt/gpu/tessellated_draw.h"
#include "xnt/replay/backend.h"

namespace xnt::gpu {

struct DrawExtentOptions {
  uint32_t max_vertices = 65536;  // work cap: more indices than this -> not estimated
  uint32_t max_rows = 8192;       // the hardware's render-target height limit
};

struct DrawExtent {
  bool estimated = false;
  std::string reason;       // why not estimated (empty when estimated)
  uint32_t rows = 0;        // rows [0, rows) hold every vertex (clamped to max_rows)
  float max_y = 0.0f;       // lowest vertex, in render-target pixels (y down)
  float min_y = 0.0f;       // highest vertex
  uint32_t vertices = 0;    // vertex shader invocations run
};

// Never throws for bad guest data: a short index buffer or unreadable memory gives up with a reason.
// `primitives`: the draw's stream as gpu/index_buffer.h ReadPrimitiveDraw read it (a path that
// already read it passes it in, so the indices are read once per draw).
DrawExtent EstimateDrawExtent(const replay::DrawCall& draw, const PrimitiveDraw& primitives,
                              const DrawExtentOptions& options = {});
// Reads the primitive stream itself.
DrawExtent EstimateDrawExtent(const replay::DrawCall& draw, const DrawExtentOptions& options = {});
// A tessellated draw: its domain shader run per generated vertex of `tess` (what TessellateDraw
// made of `draw`), with at most options.max_vertices of them.
DrawExtent EstimateDrawExtent(const replay::DrawCall& draw, const TessellatedDraw& tess,
                              const DrawExtentOptions& options = {});

}  // namespace xnt::gpu
