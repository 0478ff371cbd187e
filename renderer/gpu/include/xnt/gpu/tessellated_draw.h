// A tessellated draw as every path draws it: the patches it names (VGT_DRAW_INITIATOR, the index
// stream, VGT_HOS_*), each through the shared tessellator (gpu/tessellator.h), and per generated
// vertex the registers the sequencer loads before the guest vertex shader runs as the domain
// shader. A path runs that shader once per generated vertex with those r0 / r1 and draws the
// triangle list over them, so cpu, fbo and fsi draw the same triangles from the same inputs.
//
// From Xenia (primitive_processor.cc Process, d3d12 pipeline_cache.cc, the hull shaders
// `*_hs.hlsl`, tessellation_*.vs.hlsl, dxbc_shader_translator.cc StartVertexOrDomainShader):
// - which draws: triangle / quad lists with tess_mode discrete or continuous are patches of 3 / 4
//   indexed control points; triangle_patch (0x11) and quad_patch (0x12) are patches of their own
//   index in every mode. Triangle strips and fans and quad strips tessellate too, their
//   primitives as control-point patches in Direct3D's vertex order (Microsoft's Xbox 360
//   SimpleTessellation sample draws strips and fans, discrete and continuous, with the very vertex
//   shader it gives triangle lists, so their registers are a list's; AMD_vertex_shader_tessellator,
//   the same tessellator on the PC, allows quad strips). The same sample draws line lists, strips
//   and line patches (its shaders take an int2 or int INDEX, a float BARYCENTRIC and a QUADID), but
//   which registers the sequencer loads them into is not public: tessellated lines, adaptive
//   lists and tess_mode 3 are refused (named).
// - factors: VGT_HOS_MAX_TESS_LEVEL / VGT_HOS_MIN_TESS_LEVEL as float32 plus 1 (the hardware's
//   factor counts segments from 0). Discrete and continuous use max + 1 on every edge and
//   inside. Adaptive reads one float32 per edge from the index buffer (its swap mode applied),
//   adds 1 and clamps to [min + 1, max + 1]; num_indices is patches x edges. The edges go
//   v0->v1, v1->v2, v2->v0 (quads around the perimeter from (0,0)); the inside factor is the
//   smallest edge (quads: the smaller of the two edges along each axis).
// - domain shader inputs, by patch kind:
//     triangle, control points: r0.xyz = (w, v, u) (u weights v0), r1.xyz = the 3 indices;
//     triangle_patch:            r0.xyz = (w, v, u), r1.x = patch index, r1.y = 0 (the
//                                coordinate order the game's shader is told: identity);
//     quad, control points:      r0.xy = (u, v), r0.z = index of the (0,0) corner, r1.xyz = the
//                                (1,0), (1,1), (0,1) corners;
//     quad_patch:                r0.x = patch index, r0.yz = (u, v), r1.x = 0 (identity).
//   Indices get VGT_INDX_OFFSET, the 24-bit mask and the VGT_MIN_VTX_INDX / VGT_MAX_VTX_INDX
//   clamp; an adaptive patch's index is its number in the draw, treated the same way. Every
//   other register starts at 0.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "xnt/gpu/tessellator.h"
#include "xnt/replay/backend.h"

namespace xnt::gpu {

enum class PatchKind : uint32_t {
  kTriangleControlPoints,
  kTrianglePatch,
  kQuadControlPoints,
  kQuadPatch,
};

struct DomainVertex {
  std::array<float, 4> r0{}, r1{};
};

struct TessellatedDraw {
  PatchKind kind = PatchKind::kTrianglePatch;
  TessellationPartitioning partitioning = TessellationPartitioning::kInteger;
  uint32_t patches = 0;
  std::vector<DomainVertex> vertices;
  std::vector<uint32_t> indices;  // triangle list over `vertices`
  // Where each patch's vertices and triangles begin in `vertices` and `indices`, in patch
  // order; a patch's triangles use its own vertices only.
  std::vector<uint32_t> patch_first_vertex, patch_first_index;
};

// What every path names for a tessellated draw it skips (no target, ...) whose domain shader
// exports: the exports of a skipped draw run on the CPU per guest vertex (gpu/vertex_exports.h),
// which a tessellated draw does not have.
inline constexpr const char* kSkippedTessellatedExportsNote =
    "memexport of a skipped tessellated draw not run (its domain shader's exports are dropped)";

// Generated vertices one draw may make; a draw past it is refused, not allocated.
constexpr size_t kMaxTessellatedVertices = size_t(1) << 22;

// `draw` cut at patch boundaries into consecutive parts of at most `max_vertices` generated
// vertices each, every part's indices counted from its own first vertex: drawn one after the
// other they rasterize the same triangles in the same order as the whole draw. Throws xnt::Error
// when one patch alone has more than `max_vertices`.
std::vector<TessellatedDraw> SplitTessellatedDraw(const TessellatedDraw& draw,
                                                  size_t max_vertices);

// The draw tessellated (IsTessellated(call) must hold). Throws xnt::Error naming the registers
// for what the hardware does not tessellate or this model refuses, and for a short index buffer.
TessellatedDraw TessellateDraw(const replay::DrawCall& call);

}  // namespace xnt::gpu
