// The geometry shader that draws a line list as quads of the guest's line width, for the
// resolution scales at which a host line cannot be the guest's line (S != T).
//
// Why: a host line is a rectangle perpendicular to the segment in host pixels; the line the
// hardware draws at S x T the resolution is the guest's rectangle (perpendicular in guest pixels)
// mapped to host pixels, a parallelogram when S != T (gpu/line_width.h LineHalfWidth, which the
// cpu path rasterizes). Xenia expands primitives the host lacks (point sprites, rectangles) in
// geometry shaders the same way (its primitive processor and the shaders it pairs with them).
#pragma once

#include <cstdint>
#include <string>

namespace xnt::vk {

// GLSL for the geometry shader: lines in, a 4-vertex triangle strip out (corners a - t, b - t,
// a + t, b + t with t the half-width vector, counter-clockwise on the host, so a draw must set
// VK_FRONT_FACE_COUNTER_CLOCKWISE for lines to be front-facing as lines are), each end's first
// `passed_interpolators` interpolators carried to its two corners, the rest written as zero. It
// reads XeSystemConstants::line_quad. Nothing is emitted for a segment with no length or an end
// at w <= 0 (the cpu path clips such a segment first; the host clips the quad instead).
// `clip_distances` / `cull_distances`: the vertex shader's (ShaderReflection), each corner
// carrying its end's, so user clip planes and vertex kill apply to the quad as to the line (a
// quad's two triangles both hold both ends: culled when both ends are).
std::string LineQuadGeometryShaderGlsl(uint32_t passed_interpolators, uint32_t clip_distances = 0,
                                       uint32_t cull_distances = 0);

}  // namespace xnt::vk
