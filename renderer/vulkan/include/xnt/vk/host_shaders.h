// Shaders the renderer core itself needs (not translated from the guest): the rectangle-list
// geometry shader, and GLSL compilation for them and for tests' hand-written pipelines.
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

// Geometry shader turning each triangle of a Xenos rectangle list into the full rectangle.
// The guest gives three corners; the hardware derives the fourth. The corner opposite the
// longest edge (the diagonal) is the right angle, and the fourth vertex is the sum of the
// diagonal's ends minus it, for the position and every interpolator alike (which is exact for
// affine attributes across a parallelogram). Xenia does the same in a geometry shader
// (src/xenia/gpu/vulkan/vulkan_pipeline_cache.cc, "rectangle list" GS) rather than on the CPU,
// because the vertex positions only exist after the guest vertex shader ran.
// `passed_interpolators`: GeometryShaderInterpolators; the rest are written as zero, so
// rectangle lists lose interpolators 14-15 on lavapipe.
std::vector<uint32_t> RectangleListGeometryShader(uint32_t passed_interpolators);

// How many of the 16 interpolators a host geometry shader passes on for `device`: those that fit
// its maxGeometryInputComponents next to the gl_PerVertex block, for which 8 components are kept
// (gl_Position, gl_PointSize and the clip/cull arrays, which validation counts against the limit
// too). lavapipe: 64 components -> 14.
uint32_t GeometryShaderInterpolators(VkPhysicalDevice device);
// The same for a device whose maxGeometryInputComponents is `limit` (what the build bakes).
uint32_t GeometryShaderInterpolators(uint32_t limit);

// The line-quad or point-quad geometry shader (xnt/vk/translator/line_quad.h, point_quad.h) for
// `kind` (not kNone), passing `passed_interpolators` (GeometryShaderInterpolators) and the vertex
// shader's `clip` / `cull` distances on.
std::vector<uint32_t> QuadGeometryShader(PrimitiveQuads kind, uint32_t passed_interpolators,
                                         uint32_t clip, uint32_t cull);

}  // namespace xnt::vk
