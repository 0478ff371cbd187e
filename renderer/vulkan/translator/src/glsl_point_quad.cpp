// The point-quad geometry shader (see point_quad.h).
#include "xnt/vk/translator/point_quad.h"

#include "glsl_prelude.h"
#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

namespace {

// The cpu path's sprite (RasterizePoint): [c - width/2, c + width/2) x [c - height/2, c +
// height/2) in guest pixels, which the host viewport maps to host pixels; the corners share the
// point's depth and W, so the quad is the point's plane and its interpolators stay constant.
constexpr const char kBody[] = R"GLSL(
void main() {
  vec4 p = gl_in[0].gl_Position;
  if (!(p.w > 0.0)) return;
  float diameter = gl_in[0].gl_PointSize;
  vec2 size = diameter >= 0.0 ? vec2(diameter) : xe_system.point_size_min_max.zw;
  if (!(size.x > 0.0) || !(size.y > 0.0)) return;
  vec2 radius = size * 0.5 * xe_system.line_quad.xy * p.w;
  for (int i = 0; i < 4; ++i) {
    vec2 corner = vec2(float(i >> 1), float(i & 1));
    gl_Position = vec4(p.xy + (corner * 2.0 - 1.0) * radius, p.zw);
    xe_point_coord = corner;
    for (int k = 0; k < XE_PASSED; ++k) xe_interpolators[k] = xe_in[0][k];
    for (int k = XE_PASSED; k < 16; ++k) xe_interpolators[k] = vec4(0.0);
    XeDistances(0);
    EmitVertex();
  }
  EndPrimitive();
}
)GLSL";

}  // namespace

std::string PointQuadGeometryShaderGlsl(uint32_t passed_interpolators, uint32_t clip_distances,
                                        uint32_t cull_distances) {
  return GlslQuadGeometryShaderHead("points", passed_interpolators, clip_distances,
                                    cull_distances) +
         "layout(location = " + std::to_string(kXePointCoordLocation) +
         ") out vec2 xe_point_coord;\n" + kBody;
}

}  // namespace xnt::vk
