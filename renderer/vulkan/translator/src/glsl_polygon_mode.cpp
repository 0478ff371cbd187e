// The polygon-mode geometry shader (see polygon_mode.h).
#include "xnt/vk/translator/polygon_mode.h"

#include <algorithm>

#include "glsl_prelude.h"

namespace xnt::vk {

namespace {

// One emitted vertex: input vertices i and j mixed at t (the w clip of an edge), placed at
// `ndc` (times its W) when `at`. The cull distances and the kill distance were decided for the
// whole triangle (main) and are neutral here.
std::string VertexFunction(const PolygonModeShader& s) {
  std::string f = R"GLSL(
void XeVertex(int i, int j, float t, bool at, vec2 ndc) {
  // t = 0 takes vertex i as it is (a mix would turn an infinite value of j into NaN).
  gl_Position = t == 0.0 ? gl_in[i].gl_Position : mix(gl_in[i].gl_Position, gl_in[j].gl_Position, t);
  if (at) gl_Position.xy = ndc * gl_Position.w;
  for (int k = 0; k < XE_PASSED; ++k) {
    xe_interpolators[k] = t == 0.0 ? xe_in[i][k] : mix(xe_in[i][k], xe_in[j][k], t);
  }
  for (int k = XE_PASSED; k < 16; ++k) xe_interpolators[k] = vec4(0.0);
)GLSL";
  for (uint32_t k = 0; k < s.clip_distances; ++k) {
    const std::string n = std::to_string(k);
    if (s.kill_clip_distance && k + 1 == s.clip_distances) {
      f += "  gl_ClipDistance[" + n + "] = 1.0;\n";
    } else {
      const std::string di = "gl_in[i].gl_ClipDistance[" + n + "]";
      f += "  gl_ClipDistance[" + n + "] = t == 0.0 ? " + di + " : mix(" + di +
           ", gl_in[j].gl_ClipDistance[" + n + "], t);\n";
    }
  }
  for (uint32_t k = 0; k < s.cull_distances; ++k) {
    f += "  gl_CullDistance[" + std::to_string(k) + "] = 0.0;\n";
  }
  return f + "  EmitVertex();\n}\n";
}

// The line quad of edge i -> j over its part at w >= 2^-20, corners as the line-quad shader
// places them (xe_line_quad_corners); `cw` mirrors the counter-clockwise quad.
// The sprite of vertex i (the point-quad shader's corners, xe_sprite_corner).
constexpr const char kEdge[] = R"GLSL(
void XeEdge(int i, int j, bool cw) {
  const float kMinW = 1.0 / 1048576.0;
  float wa = gl_in[i].gl_Position.w, wb = gl_in[j].gl_Position.w;
  if (!(wa >= kMinW) && !(wb >= kMinW)) return;
  float ta = wa >= kMinW ? 0.0 : (kMinW - wa) / (wb - wa);
  float tb = wb >= kMinW ? 1.0 : (kMinW - wa) / (wb - wa);
  vec4 a = mix(gl_in[i].gl_Position, gl_in[j].gl_Position, ta);
  vec4 b = mix(gl_in[i].gl_Position, gl_in[j].gl_Position, tb);
  vec2 c[4];
  if (!xe_line_quad_corners(a, b, c)) return;
  // a - t, b - t, a + t, b + t is counter-clockwise; a + t, b + t, a - t, b - t clockwise.
  int first = cw ? 2 : 0, second = cw ? 0 : 2;
  XeVertex(i, j, ta, true, c[first]);
  XeVertex(i, j, tb, true, c[first + 1]);
  XeVertex(i, j, ta, true, c[second]);
  XeVertex(i, j, tb, true, c[second + 1]);
  EndPrimitive();
}

void XeSprite(int i, bool cw) {
  vec4 p = gl_in[i].gl_Position;
  if (!(p.w > 0.0)) return;
  float diameter = gl_in[i].gl_PointSize;
  vec2 size = diameter >= 0.0 ? vec2(diameter) : xe_system.point_size_min_max.zw;
  if (!(size.x > 0.0) || !(size.y > 0.0)) return;
  for (int k = 0; k < 4; ++k) {
    // Top-left, bottom-left, top-right, bottom-right (counter-clockwise); x and y swapped for a
    // clockwise strip.
    vec2 corner = cw ? vec2(float(k & 1), float(k >> 1)) : vec2(float(k >> 1), float(k & 1));
    XeVertex(i, i, 0.0, true, xe_sprite_corner(p, size, corner));
  }
  EndPrimitive();
}
)GLSL";

std::string FillCode(PolygonModeFill fill) {
  switch (fill) {
    case PolygonModeFill::kPoints:
      return "XeSprite(0, cw); XeSprite(1, cw); XeSprite(2, cw);";
    case PolygonModeFill::kLines:
      return "XeEdge(0, 1, cw); XeEdge(1, 2, cw); XeEdge(2, 0, cw);";
    case PolygonModeFill::kTriangles:
      return "XeVertex(0, 0, 0.0, false, vec2(0.0)); XeVertex(1, 1, 0.0, false, vec2(0.0)); "
             "XeVertex(2, 2, 0.0, false, vec2(0.0)); EndPrimitive();";
    case PolygonModeFill::kNothing:
      break;
  }
  return "";
}

std::string Main(const PolygonModeShader& s) {
  std::string m = "void main() {\n";
  if (s.kill_clip_distance && s.clip_distances) {
    const std::string n = std::to_string(s.clip_distances - 1);
    m += "  for (int v = 0; v < 3; ++v) if (gl_in[v].gl_ClipDistance[" + n + "] < 0.0) return;\n";
  }
  for (uint32_t k = 0; k < s.cull_distances; ++k) {
    const std::string n = "].gl_CullDistance[" + std::to_string(k) + "] < 0.0";
    m += "  if (gl_in[0" + n + " && gl_in[1" + n + " && gl_in[2" + n + ") return;\n";
  }
  // Facing (gpu/polygon_mode.h): with every W positive the area of the vertices snapped as the
  // rasterizer snaps them (exact in double), else the clip-space determinant.
  const std::string v2 = s.float64 ? "dvec2" : "vec2";
  const std::string v3 = s.float64 ? "dvec3" : "vec3";
  const std::string real = s.float64 ? "double" : "float";
  m += "  " + real + " det;\n";
  m += "  if (gl_in[0].gl_Position.w > 0.0 && gl_in[1].gl_Position.w > 0.0 && "
       "gl_in[2].gl_Position.w > 0.0) {\n";
  m += "    " + v2 + " p[3];\n";
  m += "    for (int i = 0; i < 3; ++i) p[i] = " + v2 +
       "(xe_snap_px(xe_ndc_to_px(gl_in[i].gl_Position.xy / gl_in[i].gl_Position.w)));\n";
  m += "    det = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x);\n";
  m += "  } else {\n";
  m += "    " + v3 + " a = " + v3 + "(gl_in[0].gl_Position.xyw), b = " + v3 +
       "(gl_in[1].gl_Position.xyw), c = " + v3 + "(gl_in[2].gl_Position.xyw);\n";
  m += "    det = a.x * (b.y * c.z - c.y * b.z) - a.y * (b.x * c.z - c.x * b.z) + "
       "a.z * (b.x * c.y - c.x * b.y);\n";
  m += "  }\n";
  m += "  if (det > 0.0) {\n    bool cw = true;\n    " + FillCode(s.clockwise) + "\n  }\n";
  m += "  if (det < 0.0) {\n    bool cw = false;\n    " + FillCode(s.counter_clockwise) + "\n  }\n";
  return m + "}\n";
}

}  // namespace

std::string PolygonModeGeometryShaderGlsl(const PolygonModeShader& shader) {
  return GlslQuadGeometryShaderHead("triangles", shader.passed_interpolators,
                                    shader.clip_distances, shader.cull_distances, 12) +
         VertexFunction(shader) + kEdge + Main(shader);
}

}  // namespace xnt::vk
