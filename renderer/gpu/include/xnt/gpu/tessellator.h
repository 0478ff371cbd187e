// The fixed-function tessellator of a patch: tessellation factors in, domain points and the
// triangles over them out. Every path draws a tessellated draw from this one output, so cpu, fbo
// and fsi generate the same points and triangles bit for bit.
//
// Xenia maps the Xenos tessellator onto the Direct3D 11 one (d3d12 pipeline_cache.cc, the
// `*_hs.hlsl` hull shaders): VGT_HOS_CNTL discrete is integer partitioning, continuous and
// adaptive are fractional_even (tess_mode has no value for fractional_odd or pow2, so those are
// not modelled). The whole output is that of Microsoft's reference tessellator (MIT, carried by
// Mesa as src/gallium/auxiliary/tessellator/tessellator.cpp, class CHWTessellator),
// re-implemented here: the same points in the same order and the same triangles (the same point
// triples, in the same order, wound the same way), in the reference's 16.16 fixed point.
// - factors (TriProcessTessFactors / QuadProcessTessFactors): a patch with an edge factor <= 0
//   or NaN is culled; edges clamp to [1, 64] (integer, then rounded up) or [2, 64]
//   (fractional_even), inside factors likewise with NaN to the bottom. Integer partitioning
//   gives each factor its own parity (odd or even point layout; an inside factor of 1 counts as
//   even), fractional_even always even. All factors 1 is the bare patch.
// - the 1D placement of an edge (ComputeTessFactorContext / PlacePointIn1D): two mirrored halves
//   of `factor / 2` segments; a fractional half blends the layouts of its floor and ceiling, the
//   segment that differs chosen by RemoveMSB, so new points grow out of the middle.
// - the points (TriGeneratePoints / QuadGeneratePoints): the outer ring from the edge factors,
//   then the inner rings spiralling in from the inside factor(s) (triangle rings inset by 2/3 of
//   the inside location, barycentric); an even inside layout ends in the centre point (triangle)
//   or a row of points through the middle (quad).
// - the triangles (TriGenerateConnectivity / QuadGenerateConnectivity): the outer ring is joined
//   to the first inner ring by StitchTransition (the ruler-function split order of the
//   finalPointPositionTable, walked from both ends of a side towards its middle), every further
//   ring by StitchRegular with mirrored diagonals; the middle is one triangle (odd triangle
//   layout) or a strip of quads (odd quad axis).
//
// Orientation: Xenia asks Direct3D for triangle_cw, the reference's own order. Triangle: the
// outer ring starts at the v corner and runs v -> w -> u, so a patch at factor 1 is (v, w, u),
// which winds as u -> v -> w. Quad: the outer ring starts at (0,1) and runs (0,1) -> (0,0) ->
// (1,0) -> (1,1); a patch at factor 1 is (0,0), (1,0), (1,1), (0,1) drawn as two triangles.
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
  // Triangle domain: barycentric (u, v, w), u and v from the reference's fixed point and
  // w = 1 - u - v (exact: every value is a multiple of 2^-16), so a point on an outer edge has
  // exactly 0 for the opposite corner. Quad domain: (u, v, 0). Empty for a culled patch.
  std::vector<std::array<float, 3>> points;
  std::vector<uint32_t> triangles;  // 3 point numbers per triangle
};

// The points of one edge (or inside axis) at `factor` as the outer ring places them: locations
// in [0, 1], in order, the first 0 and the last 1; symmetric about 0.5. `factor` is clamped and
// (integer) rounded up as an edge factor is.
std::vector<float> PlaceEdgePoints(float factor, TessellationPartitioning partitioning);

TessellatedPatch TessellateTriangle(const TessellationFactors& factors,
                                    TessellationPartitioning partitioning);
TessellatedPatch TessellateQuad(const TessellationFactors& factors,
                                TessellationPartitioning partitioning);

}  // namespace xnt::gpu
