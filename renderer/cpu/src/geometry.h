// The cpu path's geometry: vertices after the vertex shader and the viewport transform (clip
// space whose x/w, y/w are guest screen pixels and z/w the stored depth), clipping, and triangle
// rasterization with the Direct3D rules the Xenos follows.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "xnt/base/resolution_scale.h"
#include "xnt/gpu/polygon_offset.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::cpu {

using ucode::Float4;

struct ClipVertex {
  // Homogeneous position: screen x = pos[0] / pos[3], y = pos[1] / pos[3], depth = pos[2] / pos[3].
  std::array<double, 4> pos{};
  std::array<Float4, 16> interpolators{};
  float point_size = -1.0f;  // oPts.x when the vertex shader exports it
  bool point_size_exported = false;
  // Distances to the draw's enabled user clip planes (gpu/primitive_clip.h, in its order),
  // computed in guest clip space; linear in `pos`, so clipping interpolates them with it.
  std::array<double, 6> user_distance{};
  // Distances to the near and far clip planes in guest clip space (z >= 0, or z >= -w with
  // gpu::Viewport::clip_z_from_minus_w; z <= w), so depth is clipped before the viewport maps
  // it onto its range, as the hardware does.
  std::array<double, 2> depth_distance{};
  bool killed = false;  // oPts.z killed the vertex (gpu::VertexKilled)
};

// A clipped polygon (at most 3 + 5 planes vertices).
using Polygon = std::vector<ClipVertex>;

// Clips a triangle against w > 0, the near and far planes (ClipVertex::depth_distance; not with
// clip_depth false: PA_CL_CLIP_CNTL clip_disable, gpu::Viewport::clip_depth) and a guard band of
// +-kGuardBandPixels around the screen (so fixed-point rasterization cannot overflow); the
// interpolators are clipped linearly in clip space, as GPUs do.
// `user_planes` more planes are ClipVertex::user_distance[0..user_planes) >= 0.
constexpr double kGuardBandPixels = 32768.0;
Polygon ClipTriangle(const ClipVertex& a, const ClipVertex& b, const ClipVertex& c,
                     bool clip_depth = true, uint32_t user_planes = 0);

// What the rasterizers draw.
enum class PrimitiveKind : uint8_t { kTriangle, kPoint, kLine };

// A line segment after clipping.
struct Line {
  ClipVertex a, b;
  // An edge of a triangle drawn as lines (gpu/polygon_mode.h): its pixels are the triangle's,
  // with its facing, not a line's to param gen.
  bool polygon = false;
  bool front = true;
};
// Clips a segment against the same planes (the parametric form of ClipTriangle: interpolators
// linear in clip space). False when nothing is left.
bool ClipLine(const ClipVertex& a, const ClipVertex& b, Line& out, bool clip_depth = true,
              uint32_t user_planes = 0);

struct Fragment {
  uint32_t x = 0, y = 0;
  uint32_t coverage = 1;  // bit s: guest sample s is inside the triangle
  std::array<float, 4> depth{};  // per guest sample: z/w interpolated linearly in screen space
  bool front_facing = true;
  std::array<Float4, 16> interpolators{};  // perspective-correct (first `count` valid)
  bool point = false;                      // from a point sprite
  bool line = false;                       // from a line (PsParamGen reports the kind)
  float point_coord[2] = {0.0f, 0.0f};     // position in the sprite, 0..1 (gl_PointCoord)
  bool helper = false;  // a quad's uncovered pixel, shaded only for its neighbours' derivatives
};


struct RasterState {
  // Scissor in pixels, [x0, x1) x [y0, y1).
  int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  uint32_t interpolator_count = 0;
  bool cull_front = false, cull_back = false;
  bool front_is_cw = false;  // PA_SU_SC_MODE_CNTL face
  bool never_cull = false;   // rectangles are screen-space blits
  bool perspective = true;   // PA_SU_SC_MODE_CNTL persp_corr_dis clears it
  uint32_t samples = 1;      // 1, 2 or 4 (RB_SURFACE_INFO msaa_samples)
  // Bit i: interpolator i is taken at the centroid of the covered samples, not the pixel centre
  // (gpu::InterpolatorCentroidMask; where: gpu::CentroidSample).
  uint32_t centroid_mask = 0;
  // Emit whole 2x2 quads (helpers included) instead of covered pixels in row order: the
  // hardware shades every primitive (triangles, point sprites, lines) in 2x2 quads, so every
  // pixel has screen derivatives for its texture LOD.
  bool quads = false;
  // Line width in guest pixels (PA_SU_LINE_CNTL width: a half width in 12.4 fixed point).
  float line_width = 1.0f;
  // Host pixels per guest pixel: a line is extruded by its width in guest pixels, the quad then
  // mapped to host pixels (gpu/line_width.h LineHalfWidth).
  ResolutionScale scale;
  // Fragments need their per-sample depth (false when neither the depth nor the stencil test
  // runs: nothing reads it then, and triangles skip computing it).
  bool depth = true;
  // Polygon offset (gpu/polygon_offset.h) per face and the depth format its units depend on.
  gpu::PolygonOffsets polygon_offset;
  // The depth slope's pixel along x and y: host pixels per guest pixel when derivatives are per
  // guest pixel (gpu::ScaledDerivatives::kGuest), else 1.
  double slope_scale_x = 1.0, slope_scale_y = 1.0;
  uint32_t depth_format = 0;  // xenos::DepthRenderTargetFormat
  // Depth not clipped (PA_CL_CLIP_CNTL clip_disable): each sample's depth is clamped to [0, 1].
  bool clamp_depth = false;
};

// The depth a fragment stores after polygon offset: z + bias, clamped to [0, 1] as the depth
// range (Vulkan clamps biased depth to the viewport's range before the fixed-point conversion).
float OffsetDepth(float z, double bias);
// OffsetDepth, then clamped to [0, 1] with state.clamp_depth (the host's depth clamp on the
// Vulkan paths; the sample keeps a NaN as there).
float SampleDepth(float z, double bias, const RasterState& state);

// Where guest sample s of a pixel is covered, in 1/256 pixel from the pixel's top-left corner.
// The Xenos positions are not documented; these are the positions the fbo path gets from the
// host (Vulkan's standard locations, guest samples mapped as render_targets.cpp
// HostSampleOfGuest maps them: 2x sample 0 the upper one, 4x samples in EDRAM order top-left,
// top-right, bottom-left, bottom-right of the rotated grid), so the two paths agree.
struct SamplePosition {
  int32_t x, y;
};
const SamplePosition* SamplePositions(uint32_t samples);

// Rasterizes one triangle (already clipped; vertices in clip space) with the top-left fill rule at
// the sample positions (the pixel centre at 1x), 8 bits of sub-pixel precision, and calls `emit`
// for every pixel with a covered sample, in row-major order (with state.quads: for the four
// pixels of every 2x2 quad with a covered sample, quad by quad, uncovered ones marked helper).
// Attributes are evaluated at the pixel centre, those in state.centroid_mask of a partly covered
// pixel at its centroid sample (gpu::CentroidSample), depth at each sample. Returns false when
// the triangle was culled or had no area.
bool RasterizeTriangle(const ClipVertex& a, const ClipVertex& b, const ClipVertex& c,
                       const RasterState& state, const std::function<void(const Fragment&)>& emit);
// One value for the four pixels of a 2x2 quad, pixel j in element j (GCC vector extension).
using QuadFloats = float __attribute__((vector_size(16)));

// A run of fragments as RasterizeTriangleRuns hands them over. With state.quads: up to 8 whole
// 2x2 quads of one row, whose interpolators come side by side, interpolators[q][k][c] holding
// component c of interpolator k for the four fragments 4q..4q+3 (the batched interpreter's lane
// layout, so the pixel stage stores them without a transpose); the fragments' own
// `interpolators` are then left unset. Without quads: one fragment with its interpolators, and
// `interpolators` null.
struct FragmentRun {
  std::span<const Fragment> fragments;
  const QuadFloats (*interpolators)[16][4] = nullptr;
};

// The same fragments in the same order, handed over a run at a time: one call per run, for the
// pixel stage's hot loop.
bool RasterizeTriangleRuns(const ClipVertex& a, const ClipVertex& b, const ClipVertex& c,
                           const RasterState& state,
                           const std::function<void(const FragmentRun&)>& emit);

// A point sprite: a screen-aligned rectangle of `size` x `height` host pixels centred on the
// vertex (PA_SU_POINT_SIZE width and height, times the resolution scale).
struct PointSprite {
  ClipVertex vertex;
  float size = 1.0f;
  float height = 1.0f;
  // ps_ucp_mode 2-3 with a clipping plane through the sprite (gpu/primitive_clip.h): the first
  // `clip_planes` user plane distances at the corners, top-left, bottom-left, top-right,
  // bottom-right (the order of the Vulkan paths' point quad); 0: the sprite is drawn whole.
  uint32_t clip_planes = 0;
  std::array<std::array<double, 6>, 4> corner_distance{};
  // A vertex of a triangle drawn as points (gpu/polygon_mode.h): its pixels are the triangle's,
  // with its facing, not a point's to param gen.
  bool polygon = false;
  bool front = true;
};

// Rasterizes a point sprite: pixels whose sample positions fall in [c - size/2, c + size/2) on
// both axes (the half-open interval is the top-left rule for the square's edges), the vertex's
// interpolators flat, its depth at every sample. With state.quads, every 2x2 quad with a covered
// pixel is emitted whole, the others as helpers whose sprite coordinate continues the sprite's
// plane (so the quad has its derivative, 1 / size per pixel). False when it lies outside the
// depth range or behind the eye. A sprite with clip_planes is drawn as the Vulkan paths draw it:
// the quad's two triangles (top-left, bottom-left, top-right and top-right, bottom-left,
// bottom-right), each clipped by the planes and rasterized as a triangle (the sprite's edges
// snapped as triangle edges are), every fragment keeping the sprite's depth, interpolators and
// sprite coordinate.
bool RasterizePoint(const PointSprite& p, const RasterState& state,
                    const std::function<void(const Fragment&)>& emit);

// Rasterizes a line state.line_width guest pixels wide (at a resolution scale the guest's quad
// mapped to host pixels, gpu/line_width.h LineHalfWidth; t then projects in guest pixels) the
// way the fbo path's host does with the default
// lineRasterizationMode, which Mesa's lavapipe draws as a rectangle (line_rectangular is set for
// every mode but Bresenham: lvp_pipeline.c): the segment extruded by half the width on each side,
// the four corners snapped to 1/256 pixel (endpoints snapped, then the half-width vector rounded
// separately, as llvmpipe's lp_setup_line.c does), coverage at the sample positions with the
// top-left rule. Attributes and depth are interpolated with t, the projection of the sample onto
// the segment (Vulkan "Basic Line Segment Rasterization"), attributes perspective-correct at the
// pixel centre (state.centroid_mask ones of a partly covered pixel at the centroid sample), depth
// linear per sample. Lines are front-facing (an edge of a triangle drawn as lines: the triangle's facing) and never culled. With
// state.quads, whole 2x2 quads as for triangles (helpers get the attributes' extrapolation along
// the segment). False when the segment has no length on screen.
bool RasterizeLine(const Line& line, const RasterState& state,
                   const std::function<void(const Fragment&)>& emit);

}  // namespace xnt::cpu
