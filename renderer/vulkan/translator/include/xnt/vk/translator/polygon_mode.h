// The geometry shader that draws triangles by PA_SU_SC_MODE_CNTL's polygon modes: a face as its
// three vertices, its three edges or itself (gpu/polygon_mode.h, the rule the cpu path follows).
//
// Why not the host's polygonMode: Vulkan has one mode for both faces, draws polygon edges with
// its own line rasterization (one host pixel wide at a resolution scale, Bresenham or not as the
// driver likes) and points as squares of gl_PointSize. The edges and vertices here are the line
// and point quads of the line-quad and point-quad geometry shaders (the guest's width and point
// size, at any scale), which the cpu path rasterizes as lines and sprites.
#pragma once

#include <cstdint>
#include <string>

namespace xnt::vk {

// What a triangle becomes, gpu::PolygonFill's values (the translator has no gpu model).
enum class PolygonModeFill : uint32_t { kPoints = 0, kLines = 1, kTriangles = 2, kNothing = 3 };

struct PolygonModeShader {
  // What a clockwise and a counter-clockwise triangle (on the host framebuffer, y down) become:
  // gpu::PolygonModes::For of the draw's face and culling.
  PolygonModeFill clockwise = PolygonModeFill::kTriangles;
  PolygonModeFill counter_clockwise = PolygonModeFill::kTriangles;
  uint32_t passed_interpolators = 16;
  // The vertex shader's distances (ShaderReflection); `kill_clip_distance`: its last clip
  // distance is vertex kill by the any-vertex rule.
  uint32_t clip_distances = 0;
  uint32_t cull_distances = 0;
  bool kill_clip_distance = false;
  bool float64 = true;  // the facing in double precision (shaderFloat64)
};

// GLSL: triangles in, up to three 4-vertex strips out. The facing is gpu/polygon_mode.h's: the
// area of the vertices snapped to 1/256 host pixel (SnappedClockwise), or with a vertex at
// w <= 0 the determinant of gl_Position's x, y, w (TriangleClockwise). Vertex kill and cull distances remove the triangle as the host removes
// a filled one (all three vertices outside a cull distance; any killed under the any-vertex
// rule), and the emitted vertices carry no cull or kill distance, so no edge or vertex of a kept
// triangle is removed by its own ends. Edges: the line-quad shader's quad of the part of the
// edge with w >= 2^-20 (the cpu path clips edges at w > 0; the host clips the quads at the depth
// planes), vertices: the point-quad shader's sprite of a vertex at w > 0; both wound as the
// triangle is, so gl_FrontFacing and host culling see the triangle's face. Filled faces: the
// triangle itself. Reads XeSystemConstants::line_quad (x, y and the width) and
// point_size_min_max.zw, and gl_in[].gl_PointSize as the point quads do.
std::string PolygonModeGeometryShaderGlsl(const PolygonModeShader& shader);

}  // namespace xnt::vk
