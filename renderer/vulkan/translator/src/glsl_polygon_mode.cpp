// The polygon-mode geometry shader (see polygon_mode.h).
#include "xnt/vk/translator/polygon_mode.h"

#include <algorithm>

#include "glsl_prelude.h"

namespace xnt::vk {

namespace {

// One emitted vertex: input vertices i and j mixed at t (the w clip of an edge), moved by
// offset_ndc times its W. The cull distances and the kill distance were decided for the whole
// triangle (main) and are neutral here.
std::string VertexFunction(const PolygonModeShader& s) {
  std::string f = R"GLSL(
void XeVertex(int i, int j, float t, vec2 offset_ndc) {
  // t = 0 takes vertex i as it is (a mix would turn an infinite value of j into NaN).
  gl_Position = t == 0.0 ? gl_in[i].gl_Position : mix(gl_in[i].gl_Position, gl_in[j].gl_Position, t);
  if (offset_ndc != vec2(0.0)) gl_Position.xy += offset_ndc * gl_Position.w;
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

// The line quad of edge i -> j (glsl_line_quad.cpp's extrusion) over its part at w >= 2^-20;
// `s` -1 mirrors the counter-clockwise quad into a clockwise one.
constexpr const char kEdge[] = R"GLSL(
void XeEdge(int i, int j, float s) {
  const float kMinW = 1.0 / 1048576.0;
  float wa = gl_in[i].gl_Position.w, wb = gl_in[j].gl_Position.w;
  if (!(wa >= kMinW) && !(wb >= kMinW)) return;
  float ta = wa >= kMinW ? 0.0 : (kMinW - wa) / (wb - wa);
  float tb = wb >= kMinW ? 1.0 : (kMinW - wa) / (wb - wa);
  vec4 a = mix(gl_in[i].gl_Position, gl_in[j].gl_Position, ta);
  vec4 b = mix(gl_in[i].gl_Position, gl_in[j].gl_Position, tb);
  vec2 ndc_per_pixel = xe_system.line_quad.xy;
  vec2 d = (a.xy / a.w - b.xy / b.w) / ndc_per_pixel;
  float len = length(d);
  if (!(len > 0.0) || !(xe_system.line_quad.z > 0.0)) return;
  vec2 t = vec2(-d.y, d.x) * (xe_system.line_quad.z * 0.5 / len) * ndc_per_pixel * s;
  XeVertex(i, j, ta, -t);
  XeVertex(i, j, tb, -t);
  XeVertex(i, j, ta, t);
  XeVertex(i, j, tb, t);
  EndPrimitive();
}

void XeSprite(int i, float s) {
  vec4 p = gl_in[i].gl_Position;
  if (!(p.w > 0.0)) return;
  float diameter = gl_in[i].gl_PointSize;
  vec2 size = diameter >= 0.0 ? vec2(diameter) : xe_system.point_size_min_max.zw;
  if (!(size.x > 0.0) || !(size.y > 0.0)) return;
  vec2 radius = size * 0.5 * xe_system.line_quad.xy;
  for (int c = 0; c < 4; ++c) {
    // Top-left, bottom-left, top-right, bottom-right (counter-clockwise); x and y swapped for a
    // clockwise strip.
    vec2 corner = s > 0.0 ? vec2(float(c >> 1), float(c & 1)) : vec2(float(c & 1), float(c >> 1));
    XeVertex(i, i, 0.0, (corner * 2.0 - 1.0) * radius);
  }
  EndPrimitive();
}
)GLSL";

std::string FillCode(PolygonModeFill fill) {
  switch (fill) {
    case PolygonModeFill::kPoints:
      return "XeSprite(0, s); XeSprite(1, s); XeSprite(2, s);";
    case PolygonModeFill::kLines:
      return "XeEdge(0, 1, s); XeEdge(1, 2, s); XeEdge(2, 0, s);";
    case PolygonModeFill::kTriangles:
      return "XeVertex(0, 0, 0.0, vec2(0.0)); XeVertex(1, 1, 0.0, vec2(0.0)); "
             "XeVertex(2, 2, 0.0, vec2(0.0)); EndPrimitive();";
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
  const std::string real = s.float64 ? "dvec3" : "vec3";
  const std::string scalar = s.float64 ? "double" : "float";
  m += "  " + real + " a = " + real + "(gl_in[0].gl_Position.xyw), b = " + real +
       "(gl_in[1].gl_Position.xyw), c = " + real + "(gl_in[2].gl_Position.xyw);\n";
  m += "  " + scalar +
       " det = a.x * (b.y * c.z - c.y * b.z) - a.y * (b.x * c.z - c.x * b.z) + "
       "a.z * (b.x * c.y - c.x * b.y);\n";
  m += "  if (det > 0.0) {\n    float s = -1.0;\n    " + FillCode(s.clockwise) + "\n  }\n";
  m += "  if (det < 0.0) {\n    float s = 1.0;\n    " + FillCode(s.counter_clockwise) + "\n  }\n";
  return m + "}\n";
}

}  // namespace

std::string PolygonModeGeometryShaderGlsl(const PolygonModeShader& shader) {
  return GlslQuadGeometryShaderHead("triangles", shader.passed_interpolators,
                                    shader.clip_distances, shader.cull_distances, 12) +
         VertexFunction(shader) + kEdge + Main(shader);
}

}  // namespace xnt::vk
