// The line-quad geometry shader (see line_quad.h).
#include "xnt/vk/translator/line_quad.h"

#include "glsl_prelude.h"

namespace xnt::vk {

namespace {

// The extrusion, in the order gpu::LineHalfWidth reasons in: the segment in guest pixels (the
// host NDC difference over NDC per guest pixel), (-dy, dx) times half the width over its length,
// back to NDC. The host viewport then maps the guest's rectangle to host pixels.
constexpr const char kBody[] = R"GLSL(
void XeCorner(int i, vec2 offset_ndc) {
  gl_Position = gl_in[i].gl_Position;
  gl_Position.xy += offset_ndc * gl_in[i].gl_Position.w;
  for (int k = 0; k < XE_PASSED; ++k) xe_interpolators[k] = xe_in[i][k];
  for (int k = XE_PASSED; k < 16; ++k) xe_interpolators[k] = vec4(0.0);
  XeDistances(i);
  EmitVertex();
}

void main() {
  vec4 a = gl_in[0].gl_Position, b = gl_in[1].gl_Position;
  if (!(a.w > 0.0) || !(b.w > 0.0)) return;
  vec2 ndc_per_pixel = xe_system.line_quad.xy;
  vec2 d = (a.xy / a.w - b.xy / b.w) / ndc_per_pixel;
  float len = length(d);
  if (!(len > 0.0) || !(xe_system.line_quad.z > 0.0)) return;
  vec2 t = vec2(-d.y, d.x) * (xe_system.line_quad.z * 0.5 / len) * ndc_per_pixel;
  XeCorner(0, -t);
  XeCorner(1, -t);
  XeCorner(0, t);
  XeCorner(1, t);
  EndPrimitive();
}
)GLSL";

}  // namespace

std::string LineQuadGeometryShaderGlsl(uint32_t passed_interpolators, uint32_t clip_distances,
                                       uint32_t cull_distances) {
  return GlslQuadGeometryShaderHead("lines", passed_interpolators, clip_distances,
                                    cull_distances) +
         kBody;
}

}  // namespace xnt::vk
