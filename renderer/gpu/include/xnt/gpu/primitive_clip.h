// Per-vertex removal of primitives after the vertex shader, which every path applies the same
// way: user clip planes and vertex kill (PA_CL_CLIP_CNTL). Backend-free: the cpu path clips and
// culls in its clipper, the Vulkan paths write gl_ClipDistance / gl_CullDistance from the
// translated vertex shader with the planes this gives.
//
// User clip planes (Xenia d3d12 pipeline_cache.cc GetCurrentVertexShaderModification and
// dxbc_shader_translator.cc CompleteVertexOrDomainShader): plane n of ucp_ena keeps the points
// where dot(PA_CL_UCP_n_XYZW, position) >= 0, the position being the vertex shader's oPos after
// the PA_CL_VTE_CNTL formats are undone (W made W again, XY and Z multiplied back by W) and
// before the viewport transform, i.e. guest clip space. clip_disable turns them off with the rest
// of clipping. ucp_cull_only_ena: a primitive is culled whole when all its vertices are outside
// one plane, and otherwise drawn unclipped.
//
// Vertex kill (Xenia ucode.h kVSPointSizeEdgeFlagKillVertex): a vertex is killed when bits 30:0
// of the oPts.z export are not zero (the sign bit is ignored, and the bits are tested rather than
// the value, so a denormal kills). A primitive dies when all its vertices are killed, or with
// vtx_kill_or when any is. Only the export kills: the kill* ALU ops in a vertex shader kill
// nothing (Xenia emits them as pixel discards only; in a vertex shader they compute their 1.0 /
// 0.0 result, which a shader may move to oPts.z).
//
// Point sprites (PA_CL_CLIP_CNTL ps_ucp_mode, bits 15:14), as Xenia's point-list geometry shaders
// apply the field (d3d12/pipeline_cache.cc CreateDxbcGeometryShader and vulkan_pipeline_cache.cc
// CreateGeometryShader: `point_recalculate_clip_distances` for mode >= 2 with clipping planes,
// `point_recalculate_cull_distances` for mode 3 with cull-only planes). The R300's VAP_CLIP_CNTL
// has the same field in the same bits (Mesa r300_reg.h: 0 DIST_COP, 1 RADIUS_COP, 2
// RADIUS_COP_CLIP, 3 CLIP_AS_TRIFAN), which reads the same way: the lower modes decide on the
// vertex, the upper ones clip the expanded sprite as a polygon.
// - Clipping planes: modes 0 and 1 keep or remove a sprite whole by its centre's distance; modes
//   2 and 3 measure each corner of the expanded sprite and clip the sprite (two triangles) by the
//   planes like any polygon, so a plane through a sprite cuts it.
// - Cull-only planes: modes 0 to 2 remove a sprite whose centre is outside one plane; mode 3
//   removes it when all four corners are outside one plane, and otherwise draws it whole.
// A corner's distance is the centre's plus the plane's x and y times the corner's offset in
// guest clip space (distances are linear in the position): half the sprite's width and height in
// guest pixels, times W, over the viewport's scale (gpu/viewport.h screen_scale).
#pragma once

#include <array>
#include <cstdint>

#include "xnt/gpu/register_values.h"

namespace xnt::gpu {

enum class VertexKillRule : uint32_t {
  kNone,  // the vertex shader does not export oPts.z
  kAll,   // vtx_kill_or 0: a primitive dies when every vertex is killed
  kAny,   // vtx_kill_or 1: a primitive dies when one vertex is killed
};

inline constexpr uint32_t kUserClipPlaneCount = 6;

struct PrimitiveClip {
  // The enabled planes in order of their index (compacted: plane_count of them).
  std::array<std::array<float, 4>, kUserClipPlaneCount> planes{};
  uint32_t plane_count = 0;
  bool planes_cull_only = false;  // ucp_cull_only_ena
  VertexKillRule kill = VertexKillRule::kNone;
  uint32_t point_mode = 0;  // ps_ucp_mode
  bool active() const { return plane_count != 0 || kill != VertexKillRule::kNone; }
};

// The draw's rule from PA_CL_CLIP_CNTL and PA_CL_UCP_*; `vs_exports_kill` says whether the vertex
// shader writes oPts.z (ucode Analysis::point_size_mask bit 2).
PrimitiveClip ReadPrimitiveClip(RegisterValues regs, bool vs_exports_kill);

// Whether a point-list draw's user planes are measured at each corner of the expanded sprite
// (ps_ucp_mode 2-3 with clipping planes, 3 with cull-only planes) rather than at its centre.
bool PointPlanesAtCorners(const PrimitiveClip& clip);

// The distance to plane `n` of the sprite corner offset by (dx, dy) in guest clip space from a
// centre at `centre_distance` (PointCornerOffset gives the offsets).
double PointCornerDistance(const PrimitiveClip& clip, uint32_t n, double centre_distance, double dx,
                           double dy);

// The guest clip-space offset of a sprite's corner from its centre along one axis: `sign` (-1 or
// +1) times half of `size_pixels` (guest pixels), times `w`, over the viewport's `screen_scale`
// for the axis (0 when the viewport has no scale: the sprite has no extent to measure).
double PointCornerOffset(double sign, double size_pixels, double w, double screen_scale);

// True when an oPts.z export kills its vertex.
bool VertexKilled(float kill_export);

// Signed distance of a guest clip-space position to plane `n` of `clip` (inside >= 0).
double UserPlaneDistance(const PrimitiveClip& clip, uint32_t n, const std::array<double, 4>& pos);

// Rectangle lists (Xenia d3d12/pipeline_cache.cc CreateDxbcGeometryShader, its kRectangleList
// case, and the cull prologue every one of its geometry shaders starts with; the Vulkan backend's
// vulkan_pipeline_cache.cc builds the same). The guest sends three corners; the one opposite the
// longest screen-space edge is the right angle c, the diagonal's ends are a and b, and the fourth
// corner is a + b - c. Everything linear in the position follows the same sum, so the fourth
// corner's distance to a user plane is d(a) + d(b) - d(c) (the rectangle is affine in clip
// space), and the whole rectangle is clipped by the planes like any polygon. The decisions that
// remove a primitive whole are taken on the three corners the guest sent, never on the derived
// one: vertex kill (vtx_kill_or 1: any of the three killed; 0: all three) and cull-only planes
// (all three outside one plane). A derived corner is not a vertex the shader ran for, so it has
// no oPts.z of its own to be killed by.
struct RectangleCorners {
  // Indices into the three guest corners: c the right angle; a, b the diagonal's ends, in the
  // guest's cyclic order after c (so triangles (c, a, b) and (a, fourth, b) keep its winding).
  int c = 0, a = 1, b = 2;
};
// From the corners' screen positions (x/w, y/w). A tie for the longest edge (three corners of no
// rectangle) resolves the same way in the Vulkan paths' geometry shader (rectangle_list.h).
RectangleCorners RectangleRightAngle(const std::array<std::array<double, 2>, 3>& screen);

}  // namespace xnt::gpu
