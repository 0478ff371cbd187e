// A tessellated draw's patches and domain-shader inputs (see tessellated_draw.h).
#include "xnt/gpu/tessellated_draw.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <string>

#include "xnt/base/error.h"
#include "xnt/gpu/index_buffer.h"
#include "xnt/gpu/register_values.h"
#include "xnt/replay/register_file.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {
namespace {

using xenos::PrimitiveType;
using xenos::TessellationMode;

// The patch kind of the draw, or an Error naming why the hardware or this model draws nothing.
PatchKind KindOf(PrimitiveType type, TessellationMode mode) {
  const std::string where = "tessellated draw (VGT_OUTPUT_PATH_CNTL tessellation, VGT_HOS_CNTL "
                            "tess_mode " + std::to_string(uint32_t(mode)) + ", " +
                            std::string(xenos::PrimitiveTypeName(uint32_t(type))) + "): ";
  if (uint32_t(mode) > 2) throw Error(where + "tess_mode 3 is not a tessellation mode");
  const bool adaptive = mode == TessellationMode::kAdaptive;
  switch (type) {
    case PrimitiveType::kTrianglePatch: return PatchKind::kTrianglePatch;
    case PrimitiveType::kQuadPatch: return PatchKind::kQuadPatch;
    case PrimitiveType::kLinePatch:
      throw Error(where + "line patches not implemented: the registers the sequencer loads "
                          "for a line patch's vertex shader are not publicly documented");
    case PrimitiveType::kTriangleList:
    case PrimitiveType::kTriangleStrip:
    case PrimitiveType::kTriangleFan:
      if (!adaptive) return PatchKind::kTriangleControlPoints;
      break;
    case PrimitiveType::kQuadList:
    case PrimitiveType::kQuadStrip:
      if (!adaptive) return PatchKind::kQuadControlPoints;
      break;
    case PrimitiveType::kLineList:
    case PrimitiveType::kLineStrip:
      throw Error(where + "tessellated lines not implemented: the registers the sequencer "
                          "loads for a line's vertex shader are not publicly documented");
    default:
      throw Error(where + "not a patch type (line, triangle or quad patch, or a triangle or "
                          "quad list, strip or fan of control points)");
  }
  // Edge factors come one per patch edge; a list's vertices are control points, not edges.
  throw Error(where + "adaptive factors for a list of control points (only triangle and quad "
                      "patches take adaptive factors)");
}

bool IsTriangle(PatchKind k) {
  return k == PatchKind::kTriangleControlPoints || k == PatchKind::kTrianglePatch;
}

// Direct3D's clamp, max(lo, min(hi, x)), whose min and max return the other operand for a NaN
// (Xenia tessellation_adaptive.vs.hlsl): a NaN factor takes the top of the range.
float HlslClamp(float x, float lo, float hi) {
  const float m = std::isnan(x) ? hi : std::min(hi, x);
  return std::isnan(m) ? lo : std::max(lo, m);
}

struct Stream {
  PrimitiveDraw prim;  // its vertex_index rule: the draw's VGT_INDX_OFFSET and index clamp

  uint32_t Raw(uint32_t i) const {
    return prim.indexed ? ReadGuestIndex(prim.index_bytes, prim.index_format, prim.index_endian, i)
                        : i;
  }
  // A control point's or patch's index as the sequencer hands it over (Xenia
  // tessellation_indexed.vs.hlsl / adaptive_*.hs.hlsl): the same rule as any vertex index.
  float Index(uint32_t raw) const { return float(prim.vertex_index.Apply(raw)); }
};

// One patch's factors in Direct3D order (gpu/tessellator.h) from the guest's edge order.
TessellationFactors AdaptiveFactors(const Stream& s, uint32_t patch, bool tri, float lo, float hi) {
  const uint32_t edges = tri ? 3 : 4;
  std::array<float, 4> guest{};
  for (uint32_t e = 0; e < edges; ++e) {
    guest[e] = HlslClamp(std::bit_cast<float>(s.Raw(patch * edges + e)) + 1.0f, lo, hi);
  }
  TessellationFactors f;
  if (tri) {
    // Guest v0->v1, v1->v2, v2->v0; Direct3D names an edge by the corner it lies opposite
    // (Xenia adaptive_triangle.hs.hlsl).
    f.edges = {guest[1], guest[2], guest[0], 0.0f};
    f.inside[0] = std::min({guest[0], guest[1], guest[2]});
  } else {
    // Guest around the perimeter from (0,0) along v = 0; Direct3D u = 0, v = 0, u = 1, v = 1
    // (Xenia adaptive_quad.hs.hlsl); inside: the smaller of the two edges along each axis.
    f.edges = {guest[3], guest[0], guest[1], guest[2]};
    f.inside = {std::min(f.edges[1], f.edges[3]), std::min(f.edges[0], f.edges[2])};
  }
  return f;
}

// The control points of every patch of a list, strip or fan, `per_patch` indices each with the
// vertex index rule applied, in the order the domain inputs name them (see the header). A list's
// patches are its consecutive runs; a strip's and a fan's triangles are the primitive
// processor's, which honours primitive resets, in Direct3D's vertex order: triangle i of a strip
// (i, i + 1, i + 2), every odd one (i, i + 2, i + 1) so that all wind alike, and of a fan
// (0, i + 1, i + 2); quad k of a strip (2k, 2k + 1, 2k + 3, 2k + 2), around its perimeter as a
// quad list's four are.
std::vector<float> ControlPoints(const Stream& s, PrimitiveType type, uint32_t per_patch) {
  std::vector<float> out;
  if (type == PrimitiveType::kTriangleList || type == PrimitiveType::kQuadList) {
    const uint32_t n = s.prim.vertex_count / per_patch * per_patch;
    out.reserve(n);
    for (uint32_t i = 0; i < n; ++i) out.push_back(s.Index(s.Raw(i)));
    return out;
  }
  PrimitiveDraw runs = s.prim;
  runs.type = type;
  const HostPrimitives list = ProcessPrimitives(runs);
  const std::vector<uint32_t>& v = list.indices;
  if (type != PrimitiveType::kQuadStrip) {
    for (size_t t = 0; t + 2 < v.size(); t += 3) {
      // The processor's fan triangle is (i + 1, i + 2, 0), Vulkan's rotation of Direct3D's.
      if (type == PrimitiveType::kTriangleFan) {
        out.insert(out.end(), {float(v[t + 2]), float(v[t]), float(v[t + 1])});
      } else {
        out.insert(out.end(), {float(v[t]), float(v[t + 1]), float(v[t + 2])});
      }
    }
    return out;
  }
  // The processor's quad is two triangles (2k, 2k+1, 2k+3) and (2k, 2k+3, 2k+2).
  for (size_t t = 0; t + 5 < v.size(); t += 6) {
    out.insert(out.end(), {float(v[t]), float(v[t + 1]), float(v[t + 2]), float(v[t + 5])});
  }
  return out;
}

DomainVertex Inputs(PatchKind kind, const std::array<float, 3>& p, const std::array<float, 4>& cp,
                    float patch_index) {
  DomainVertex d;
  switch (kind) {
    case PatchKind::kTriangleControlPoints:
      d.r0 = {p[2], p[1], p[0], 0.0f};
      d.r1 = {cp[0], cp[1], cp[2], 0.0f};
      break;
    case PatchKind::kTrianglePatch:
      d.r0 = {p[2], p[1], p[0], 0.0f};
      d.r1 = {patch_index, 0.0f, 0.0f, 0.0f};
      break;
    case PatchKind::kQuadControlPoints:
      d.r0 = {p[0], p[1], cp[0], 0.0f};
      d.r1 = {cp[1], cp[2], cp[3], 0.0f};
      break;
    case PatchKind::kQuadPatch:
      d.r0 = {patch_index, p[0], p[1], 0.0f};
      break;
  }
  return d;
}

}  // namespace

TessellatedDraw TessellateDraw(const replay::DrawCall& call) {
  const replay::RegisterFile& regs = *call.registers;
  const TessellationMode mode = regs.Decode<xenos::reg::VGT_HOS_CNTL>().tess_mode;
  TessellatedDraw out;
  out.kind = KindOf(call.initiator.prim_type, mode);
  out.partitioning = mode == TessellationMode::kDiscrete
                         ? TessellationPartitioning::kInteger
                         : TessellationPartitioning::kFractionalEven;
  std::vector<uint8_t> scratch;
  Stream s;
  s.prim = ReadDrawStream(call, scratch);
  const bool tri = IsTriangle(out.kind);
  const bool adaptive = mode == TessellationMode::kAdaptive;
  const bool control_points =
      out.kind == PatchKind::kTriangleControlPoints || out.kind == PatchKind::kQuadControlPoints;
  const uint32_t per_patch = control_points || adaptive ? (tri ? 3u : 4u) : 1u;
  std::vector<float> points;
  if (control_points) points = ControlPoints(s, call.initiator.prim_type, per_patch);
  out.patches = control_points ? uint32_t(points.size() / per_patch)
                               : call.initiator.num_indices / per_patch;
  const float lo = std::bit_cast<float>(regs.Get(xenos::Reg::VGT_HOS_MIN_TESS_LEVEL)) + 1.0f;
  const float hi = std::bit_cast<float>(regs.Get(xenos::Reg::VGT_HOS_MAX_TESS_LEVEL)) + 1.0f;
  TessellationFactors uniform;
  uniform.edges.fill(hi);
  uniform.inside.fill(hi);
  // Patches of equal factors tessellate alike: each factor set once.
  std::map<std::array<float, 6>, TessellatedPatch> done;
  for (uint32_t p = 0; p < out.patches; ++p) {
    const TessellationFactors f = adaptive ? AdaptiveFactors(s, p, tri, lo, hi) : uniform;
    const std::array<float, 6> key{f.edges[0], f.edges[1], f.edges[2],
                                   f.edges[3], f.inside[0], f.inside[1]};
    auto it = done.find(key);
    if (it == done.end()) {
      it = done.emplace(key, tri ? TessellateTriangle(f, out.partitioning)
                                 : TessellateQuad(f, out.partitioning)).first;
    }
    const TessellatedPatch& patch = it->second;
    if (out.vertices.size() + patch.points.size() > kMaxTessellatedVertices) {
      throw Error("tessellated draw of " + std::to_string(out.patches) +
                  " patches makes more than " + std::to_string(kMaxTessellatedVertices) +
                  " vertices (VGT_DRAW_INITIATOR num_indices, VGT_HOS_MAX_TESS_LEVEL)");
    }
    std::array<float, 4> cp{};
    if (control_points) {
      for (uint32_t c = 0; c < per_patch; ++c) cp[c] = points[size_t(p) * per_patch + c];
    }
    const float patch_index = s.Index(adaptive ? p : s.Raw(p));
    const uint32_t base = uint32_t(out.vertices.size());
    out.patch_first_vertex.push_back(base);
    out.patch_first_index.push_back(uint32_t(out.indices.size()));
    for (const auto& point : patch.points) out.vertices.push_back(Inputs(out.kind, point, cp, patch_index));
    for (uint32_t i : patch.triangles) out.indices.push_back(base + i);
  }
  return out;
}

std::vector<TessellatedDraw> SplitTessellatedDraw(const TessellatedDraw& draw,
                                                  size_t max_vertices) {
  std::vector<TessellatedDraw> parts;
  const size_t patches = draw.patch_first_vertex.size();
  auto vertex_end = [&](size_t p) {
    return p + 1 < patches ? draw.patch_first_vertex[p + 1] : draw.vertices.size();
  };
  auto index_end = [&](size_t p) {
    return p + 1 < patches ? draw.patch_first_index[p + 1] : draw.indices.size();
  };
  for (size_t first = 0; first < patches;) {
    const size_t v0 = draw.patch_first_vertex[first];
    size_t last = first;  // one past the part's last patch
    while (last < patches && vertex_end(last) - v0 <= max_vertices) ++last;
    if (last == first) {
      throw Error("tessellated patch " + std::to_string(first) + " makes " +
                  std::to_string(vertex_end(first) - v0) + " vertices, more than a part's " +
                  std::to_string(max_vertices));
    }
    TessellatedDraw part;
    part.kind = draw.kind;
    part.partitioning = draw.partitioning;
    part.patches = uint32_t(last - first);
    part.vertices.assign(draw.vertices.begin() + v0, draw.vertices.begin() + vertex_end(last - 1));
    const size_t i0 = draw.patch_first_index[first];
    part.indices.reserve(index_end(last - 1) - i0);
    for (size_t i = i0; i < index_end(last - 1); ++i) {
      part.indices.push_back(draw.indices[i] - uint32_t(v0));
    }
    for (size_t p = first; p < last; ++p) {
      part.patch_first_vertex.push_back(uint32_t(draw.patch_first_vertex[p] - v0));
      part.patch_first_index.push_back(uint32_t(draw.patch_first_index[p] - i0));
    }
    parts.push_back(std::move(part));
    first = last;
  }
  return parts;
}

}  // namespace xnt::gpu
