// The fixed-function tessellator of a patch: tessellation factors in, domain points and the
// triangles over them out. Every path draws a tessellated draw from this one output, so cpu, fbo
// and fsi generate the same points and triangles bit for bit.
//
// Xenia maps the Xenos tessellator onto the Direct3D 11 one (d3d12 pipeline_cache.cc, the
// `*_hs.hlsl` hull shaders): VGT_HOS_CNTL discrete is integer partitioning, continuous and
// adaptive are fractional_even. The rules followed here are those of Microsoft's reference
// tessellator (MIT, carried by Mesa as src/gallium/auxiliary/tessellator/tessellator.cpp):
// - factor processing: integer clamps to [1, 64] and rounds up (the parity of the result picks
//   the odd or even point layout); fractional_even clamps to [2, 64];
// - the 1D point placement of an edge (ComputeTessFactorContext / PlacePointIn1D): the edge is
//   split in two mirrored halves of `factor / 2` segments; a fractional half factor blends the
//   layouts of its floor and ceiling, the one segment that differs chosen by RemoveMSB, so that
//   new points grow out of the edge's middle as the factor rises;
// - the ring structure: the outer ring takes each edge's own factor, the inner rings the inside
//   factor(s) (triangle rings inset by 2/3 of the inside location, barycentric); the innermost
//   ring is a point, a line, a triangle or a one-segment strip.
// What is this model's own: how a ring side is joined to the next ring where the two have a
// different number of segments. The reference uses fixed transition tables; here the side is
// zipped by position along the edge (always the point that comes first next). Both triangulate
// the strip between the two sides without degenerate triangles and with one triangle per
// segment, so the points and the triangle count are the reference's; the diagonals chosen across
// a transition can differ. Locations are computed in float, the reference in 16.16 fixed point.
//
// Orientation: the triangles wind as the patch corners do (triangle: corner u -> v -> w, the
// domain's x, y, z weights; quad: (0,0) -> (1,0) -> (1,1) -> (0,1) in (u, v)), so a patch at
// factor 1 is its own corners in their own order. Xenia asks Direct3D for triangle_cw in the
// domain's picture, which is this order.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace xnt::gpu {

enum class TessellationPartitioning : uint32_t {
  kInteger,         // VGT_HOS_CNTL tess_mode discrete
  kFractionalEven,  // continuous and adaptive
};

// Tessellation factors in Direct3D order. Triangle: edges[0..2] are the edges where u, v, w = 0,
// inside[0] the inside factor. Quad: edges[0..3] where u = 0, v = 0, u = 1, v = 1; inside[0]
// along u, inside[1] along v.
struct TessellationFactors {
  std::array<float, 4> edges{};
  std::array<float, 2> inside{};
};

struct TessellatedPatch {
  // Triangle domain: barycentric (u, v, w) weights of the corners, each from its place on its
  // ring side, so that a point on an outer edge has exactly 0 for the opposite corner (patches
  // sharing the edge then place it alike). Quad domain: (u, v, 0).
  std::vector<std::array<float, 3>> points;
  std::vector<uint32_t> triangles;  // 3 point numbers per triangle
};

// The points of one edge (or inside axis) at `factor`: locations in [0, 1], in order, the first
// 0 and the last 1; symmetric about 0.5.
std::vector<float> PlaceEdgePoints(float factor, TessellationPartitioning partitioning);

TessellatedPatch TessellateTriangle(const TessellationFactors& factors,
                                    TessellationPartitioning partitioning);
TessellatedPatch TessellateQuad(const TessellationFactors& factors,
                                TessellationPartitioning partitioning);

}  // namespace xnt::gpu
