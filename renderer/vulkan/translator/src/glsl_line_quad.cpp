// The line-quad geometry shader (see line_quad.h).
#include "xnt/vk/translator/line_quad.h"

#include "glsl_prelude.h"

namespace xnt::vk {

namespace {

// The extrusion in host pixels as the cpu path's RasterizeLine builds it (xe_line_quad_corners,
// glsl_prelude.cpp: gpu::LineHalfWidth's vector), corners given in NDC.
constexpr const char kBody[] = R"GLSL(
void XeCorner(int i, vec2 ndc) {
  gl_Position = gl_in[i].gl_Position;
  gl_Position.xy = ndc * gl_in[i].gl_Position.w;
  for (int k = 0; k < XE_PASSED; ++k) xe_interpolators[k] = xe_in[i][k];
  for (int k = XE_PASSED; k < 16; ++k) xe_interpolators[k] = vec4(0.0);
  XeDistances(i);
  EmitVertex();
}

void main() {
  vec4 a = gl_in[0].gl_Position, b = gl_in[1].gl_Position;
  if (!(a.w > 0.0) || !(b.w > 0.0)) return;
  vec2 c[4];
  if (!xe_line_quad_corners(a, b, c)) return;
  XeCorner(0, c[0]);
  XeCorner(1, c[1]);
  XeCorner(0, c[2]);
  XeCorner(1, c[3]);
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
