// The geometry shader that draws a point list as quads of the guest's point size, on the Vulkan
// paths at every resolution scale.
//
// Why: a host point is a square of one size (gl_PointSize), but a Xenos point is width x height
// guest pixels (PA_SU_POINT_SIZE holds the two half-sizes; a size the vertex shader exports in
// oPts.x, clamped to PA_SU_POINT_MINMAX, is used for both), and at S x T the resolution it is
// width * S by height * T host pixels, which no host point is when the two differ. Xenia expands
// points the same way (vulkan_pipeline_cache.cc, its point-list geometry shader: the constant
// diameters from PA_SU_POINT_SIZE width and height, the vertex's clamped diameter when it wrote
// one, zero-sized points dropped, sprite coordinates left to right and top to bottom).
#pragma once

#include <cstdint>
#include <string>

namespace xnt::vk {

// GLSL for the geometry shader: points in, a 4-vertex triangle strip out (top-left, bottom-left,
// top-right, bottom-right: counter-clockwise, front-facing with VK_FRONT_FACE_COUNTER_CLOCKWISE
// as points are), `width x height` guest pixels around the position. The diameter is
// gl_in[0].gl_PointSize when >= 0 (the vertex shader's under kXeSysFlagPointQuads), else
// XeSystemConstants::point_size_min_max.zw; XeSystemConstants::line_quad.xy converts guest
// pixels to NDC. Every corner carries the point's first `passed_interpolators` interpolators
// (the rest zero), its clip/cull distances, and the sprite coordinate at
// kXePointCoordLocation: (0, 0) at the top-left corner, (1, 1) at the bottom-right. Nothing is
// emitted for a point at w <= 0 or with a size that is not > 0 on both axes.
// `corner_planes`: PA_CL_CLIP_CNTL ps_ucp_mode 2-3 (gpu/primitive_clip.h PointPlanesAtCorners),
// the user planes being the first `corner_planes` clip distances (cull distances with
// `corner_cull`): each is measured again at every corner (the centre's distance plus the plane's
// xy times the corner's offset in guest clip space), so the host clips the quad by the planes;
// with `corner_cull` (mode 3, cull-only planes) the sprite is dropped when all four corners are
// outside one plane and otherwise drawn whole.
std::string PointQuadGeometryShaderGlsl(uint32_t passed_interpolators, uint32_t clip_distances,
                                        uint32_t cull_distances, uint32_t corner_planes = 0,
                                        bool corner_cull = false);

}  // namespace xnt::vk
