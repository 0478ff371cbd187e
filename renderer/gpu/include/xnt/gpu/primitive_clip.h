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
// Point sprites (PA_CL_CLIP_CNTL ps_ucp_mode, bits 15:14): every path keeps or removes a sprite
// whole by its centre, the reading of mode 0. What is known of the others: Xenia names the field
// only (registers.h) and leaves it unimplemented, its point-list geometry shaders noting that
// modes 0, 1 and 2 cull by the distance from the centre and modes 2 and 3 clip per vertex of the
// expanded sprite; the R300's VAP_CLIP_CNTL has the same field in the same bits (Mesa r300_reg.h:
// 0 DIST_COP, 1 RADIUS_COP, 2 RADIUS_COP_CLIP, 3 CLIP_AS_TRIFAN, i.e. cull by the centre's
// distance, cull by that distance against the point's radius, the same and clip when the sprite
// crosses a plane, always clip the expanded sprite as a fan). Neither says how the radius is
// measured against a clip-space plane, nor whether lines are concerned, so modes 1 to 3 are
// drawn as mode 0 and named at run time (PointClipModeNote).
#pragma once

#include <array>
#include <cstdint>
#include <string>

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

// For a point-list draw under user planes with ps_ucp_mode 1 to 3, the note naming that its
// sprites are still kept or removed by their centre (mode 0); else "".
std::string PointClipModeNote(const PrimitiveClip& clip, bool point_list);

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
