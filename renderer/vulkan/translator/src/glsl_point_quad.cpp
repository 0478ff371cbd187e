// The point-quad geometry shader (see point_quad.h).
#include "xnt/vk/translator/point_quad.h"

#include <algorithm>

#include "glsl_prelude.h"
#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

namespace {

// The cpu path's sprite (RasterizePoint): [c - width/2, c + width/2) x [c - height/2, c +
// height/2) in guest pixels, which the host viewport maps to host pixels; the corners share the
// point's depth and W, so the quad is the point's plane and its interpolators stay constant.
// This part: the sprite's centre and half size in host clip space; the corner loop follows
// (CornerLoop).
constexpr const char kHead[] = R"GLSL(
void main() {
  vec4 p = gl_in[0].gl_Position;
  if (!(p.w > 0.0)) return;
  float diameter = gl_in[0].gl_PointSize;
  vec2 size = diameter >= 0.0 ? vec2(diameter) : xe_system.point_size_min_max.zw;
  if (!(size.x > 0.0) || !(size.y > 0.0)) return;
  vec2 radius = size * 0.5 * xe_system.line_quad.xy * p.w;
)GLSL";

// A corner's offset in guest clip space: the host clip offset over ndc_scale (the guest to host
// clip transform, shader_interface.h), 0 on an axis the viewport does not scale.
constexpr const char kGuestOffset[] = R"GLSL(vec2 XeGuestOffset(vec2 host) {
  vec2 s = xe_system.ndc_scale.xy;
  return vec2(s.x != 0.0 ? host.x / s.x : 0.0, s.y != 0.0 ? host.y / s.y : 0.0);
}
)GLSL";

std::string CornerLoop(uint32_t corner_planes, bool corner_cull) {
  // Plane k's distance at `corner` (0..1 on each axis, top-left first).
  const auto distance = [](const std::string& array, uint32_t k) {
    const std::string n = std::to_string(k);
    return "gl_in[0]." + array + "[" + n + "] + dot(xe_system.user_clip_planes[" + n +
           "].xy, XeGuestOffset((corner * 2.0 - 1.0) * radius))";
  };
  std::string s;
  if (corner_cull) {
    // ps_ucp_mode 3, cull-only planes: the sprite goes when its four corners are outside one
    // plane, else it is drawn whole (its cull distances are not the centre's).
    for (uint32_t k = 0; k < corner_planes; ++k) {
      s += "  {\n    bool outside = true;\n    for (int i = 0; i < 4; ++i) {\n"
           "      vec2 corner = vec2(float(i >> 1), float(i & 1));\n"
           "      outside = outside && " + distance("gl_CullDistance", k) + " < 0.0;\n"
           "    }\n    if (outside) return;\n  }\n";
    }
  }
  s += R"GLSL(  for (int i = 0; i < 4; ++i) {
    vec2 corner = vec2(float(i >> 1), float(i & 1));
    gl_Position = vec4(xe_sprite_corner(p, size, corner) * p.w, p.zw);
    xe_point_coord = corner;
    for (int k = 0; k < XE_PASSED; ++k) xe_interpolators[k] = xe_in[0][k];
    for (int k = XE_PASSED; k < 16; ++k) xe_interpolators[k] = vec4(0.0);
    XeDistances(0);
)GLSL";
  for (uint32_t k = 0; k < corner_planes; ++k) {
    // ps_ucp_mode 2-3 with clipping planes: each corner's own distance, so the host clips the
    // quad; with cull-only planes (mode 3, decided above) nothing more is culled.
    const std::string n = std::to_string(k);
    s += corner_cull ? "    gl_CullDistance[" + n + "] = 0.0;\n"
                     : "    gl_ClipDistance[" + n + "] = " + distance("gl_ClipDistance", k) + ";\n";
  }
  return s + "    EmitVertex();\n  }\n  EndPrimitive();\n}\n";
}

}  // namespace

std::string PointQuadGeometryShaderGlsl(uint32_t passed_interpolators, uint32_t clip_distances,
                                        uint32_t cull_distances, uint32_t corner_planes,
                                        bool corner_cull) {
  corner_planes = std::min(corner_planes, corner_cull ? cull_distances : clip_distances);
  return GlslQuadGeometryShaderHead("points", passed_interpolators, clip_distances,
                                    cull_distances) +
         "layout(location = " + std::to_string(kXePointCoordLocation) +
         ") out vec2 xe_point_coord;\n" + (corner_planes ? kGuestOffset : "") + kHead +
         CornerLoop(corner_planes, corner_cull);
}

}  // namespace xnt::vk
