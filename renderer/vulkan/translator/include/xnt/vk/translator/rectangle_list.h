// The geometry shader that draws a Xenos rectangle list: each guest triangle becomes the whole
// rectangle, its fourth corner derived as the hardware derives it (gpu/primitive_clip.h
// RectangleCorners; Xenia does it in a geometry shader too, d3d12/pipeline_cache.cc and
// vulkan/vulkan_pipeline_cache.cc, because positions only exist after the guest vertex shader).
#pragma once

#include <cstdint>
#include <string>

namespace xnt::vk {

// GLSL for the geometry shader: triangles in, the strip (c, a, b, a + b - c) out, c being the
// corner opposite the longest screen-space edge and (a, b) kept in the guest's cyclic order, so
// both triangles keep the guest winding. The fourth corner's position, first
// `passed_interpolators` interpolators (the rest written as zero) and `clip_distances` clip
// distances are a + b - c; the three given corners pass theirs through.
// `cull_distances`: the vertex shader's cull distances (cull-only user planes, vtx_kill_or 0
// kill), tested on the three guest corners: the rectangle is dropped when all three are
// negative in one of them, and none is emitted (the host would test each half on its own, and
// the derived corner is no vertex the hardware tests). `kill_clip_distance`: the last clip
// distance is vtx_kill_or 1's kill marker (glsl_emitter.cpp EmitClipDistances), which drops the
// rectangle when any guest corner has it negative instead of being summed.
std::string RectangleListGeometryShaderGlsl(uint32_t passed_interpolators,
                                            uint32_t clip_distances = 0,
                                            uint32_t cull_distances = 0,
                                            bool kill_clip_distance = false);

}  // namespace xnt::vk
