// Shaders the renderer core itself needs (not translated from the guest): the rectangle-list,
// line-quad and point-quad geometry shaders, and GLSL compilation for them and for tests'
// hand-written pipelines.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "xnt/vk/draw_state.h"

namespace xnt::vk {

// GLSL 450 -> SPIR-V (Vulkan 1.1 environment) through libshaderc; throws xnt::Error with the
// compiler log on failure.
std::vector<uint32_t> CompileHostGlsl(std::string_view source, VkShaderStageFlagBits stage,
                                      std::string_view name);

// The rectangle-list geometry shader (xnt/vk/translator/rectangle_list.h): each guest triangle
// drawn as the whole rectangle, the fourth corner's position, interpolators and clip distances
// the diagonal's ends minus the right-angle corner (exact for anything affine across a
// parallelogram). `passed_interpolators`: GeometryShaderInterpolators; the rest are written as
// zero, so rectangle lists lose interpolators 14-15 on lavapipe. `clip` / `cull`: the vertex
// shader's distance counts; `kill_clip_distance`: its last clip distance marks vtx_kill_or 1's
// killed vertices (ShaderReflection::kill_clip_distance).
std::vector<uint32_t> RectangleListGeometryShader(uint32_t passed_interpolators, uint32_t clip,
                                                  uint32_t cull, bool kill_clip_distance);

// How many of the 16 interpolators a host geometry shader passes on for `device`: those that fit
// its maxGeometryInputComponents next to the gl_PerVertex block (GeometryPerVertexComponents:
// gl_Position, gl_PointSize, the `clip` and `cull` distance arrays, all counted against the
// limit). lavapipe: 64 components -> 14 with up to 2 clip and 1 cull distances, 13 with 3-6.
uint32_t GeometryShaderInterpolators(VkPhysicalDevice device, uint32_t clip, uint32_t cull);
// The same for a device whose maxGeometryInputComponents is `limit` (what the build bakes).
uint32_t GeometryShaderInterpolators(uint32_t limit, uint32_t clip, uint32_t cull);

// The line-quad or point-quad geometry shader (xnt/vk/translator/line_quad.h, point_quad.h) for
// `kind` (not kNone), passing `passed_interpolators` (GeometryShaderInterpolators) and the vertex
// shader's `clip` / `cull` distances on; points measure the first `corner_planes` of them (cull
// distances with `corner_cull`) at each corner (DrawInput::point_corner_planes).
std::vector<uint32_t> QuadGeometryShader(PrimitiveQuads kind, uint32_t passed_interpolators,
                                         uint32_t clip, uint32_t cull, uint32_t corner_planes = 0,
                                         bool corner_cull = false);

}  // namespace xnt::vk
