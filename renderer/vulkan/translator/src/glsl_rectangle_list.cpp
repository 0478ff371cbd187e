// The rectangle-list geometry shader (see rectangle_list.h).
#include "xnt/vk/translator/rectangle_list.h"

#include "glsl_prelude.h"

namespace xnt::vk {

namespace {

// Which guest corner is the right angle: the one opposite the longest screen edge, ties as
// gpu::RectangleRightAngle resolves them (the cpu path's choice).
constexpr const char kBody[] = R"GLSL(
void XeCorner(int i) {
  gl_Position = gl_in[i].gl_Position;
  for (int k = 0; k < XE_PASSED; ++k) xe_interpolators[k] = xe_in[i][k];
  for (int k = XE_PASSED; k < 16; ++k) xe_interpolators[k] = vec4(0.0);
  XeDistances(i);
  EmitVertex();
}

void main() {
  if (XeRectangleRemoved()) return;
  vec2 p0 = gl_in[0].gl_Position.xy / gl_in[0].gl_Position.w;
  vec2 p1 = gl_in[1].gl_Position.xy / gl_in[1].gl_Position.w;
  vec2 p2 = gl_in[2].gl_Position.xy / gl_in[2].gl_Position.w;
  float d01 = dot(p1 - p0, p1 - p0);
  float d12 = dot(p2 - p1, p2 - p1);
  float d20 = dot(p0 - p2, p0 - p2);
  int c = 0, a = 1, b = 2;
  if (d20 > d12 && d20 >= d01) { c = 1; a = 2; b = 0; }
  else if (d01 > d12 && d01 > d20) { c = 2; a = 0; b = 1; }
  XeCorner(c);
  XeCorner(a);
  XeCorner(b);
  gl_Position = gl_in[a].gl_Position + gl_in[b].gl_Position - gl_in[c].gl_Position;
  for (int k = 0; k < XE_PASSED; ++k) {
    xe_interpolators[k] = xe_in[a][k] + xe_in[b][k] - xe_in[c][k];
  }
  for (int k = XE_PASSED; k < 16; ++k) xe_interpolators[k] = vec4(0.0);
  XeFourthDistances(a, b, c);
  EmitVertex();
  EndPrimitive();
}
)GLSL";

// `bool XeRectangleRemoved()`: the whole-rectangle decisions on the three guest corners.
std::string RemovedFunction(uint32_t clip, uint32_t cull, bool kill_clip_distance) {
  std::string s = "bool XeRectangleRemoved() {\n";
  auto corners = [](const std::string& member, const char* join) {
    std::string e;
    for (int v = 0; v < 3; ++v) {
      e += (v ? join : std::string()) + "gl_in[" + std::to_string(v) + "]." + member + " < 0.0";
    }
    return e;
  };
  for (uint32_t k = 0; k < cull; ++k) {
    s += "  if (" + corners("gl_CullDistance[" + std::to_string(k) + "]", " && ") +
         ") return true;\n";
  }
  if (kill_clip_distance && clip != 0) {
    s += "  if (" + corners("gl_ClipDistance[" + std::to_string(clip - 1) + "]", " || ") +
         ") return true;\n";
  }
  return s + "  return false;\n}\n";
}

// `void XeFourthDistances(int a, int b, int c)`: the derived corner's clip distances.
std::string FourthDistancesFunction(uint32_t clip) {
  std::string s = "void XeFourthDistances(int a, int b, int c) {\n";
  for (uint32_t k = 0; k < clip; ++k) {
    const std::string d = "].gl_ClipDistance[" + std::to_string(k) + "]";
    s += "  gl_ClipDistance[" + std::to_string(k) + "] = gl_in[a" + d + " + gl_in[b" + d +
         " - gl_in[c" + d + ";\n";
  }
  return s + "}\n";
}

}  // namespace

std::string RectangleListGeometryShaderGlsl(uint32_t passed_interpolators, uint32_t clip_distances,
                                            uint32_t cull_distances, bool kill_clip_distance) {
  // Cull distances are read, never written: the corners carry the clip distances alone.
  return GlslQuadGeometryShaderHead("triangles", passed_interpolators, clip_distances, 0) +
         RemovedFunction(clip_distances, cull_distances, kill_clip_distance) +
         FourthDistancesFunction(clip_distances) + kBody;
}

}  // namespace xnt::vk
