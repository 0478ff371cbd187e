// A draw's plan: the decisions every render path takes from the registers before it draws,
// taken once here so that cpu, fbo and fsi cannot drift apart. It says whether the draw is a
// resolve (RB_MODECONTROL edram_mode kCopy), which checks skip it and with what note, which
// EDRAM targets it uses (RB_SURFACE_INFO, RB_COLOR_INFO/RB_COLOR_MASK against the pixel shader's
// exports, RB_DEPTH_INFO/RB_DEPTHCONTROL), its MSAA sample count, and, once the path knows the
// target it draws on and the primitives assembly produced, the topology and the scissor in guest
// and in host pixels at the resolution scale.
//
// Every check that holds is recorded (DrawPlan::skips); a path asks FirstSkip for the first of
// the checks it makes at that point of its pipeline, in its order, so a draw failing two checks
// is noted the same way it always was on that path.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "xnt/gpu/primitive_processor.h"
#include "xnt/gpu/register_values.h"
#include "xnt/gpu/resolution_scale.h"
#include "xnt/gpu/viewport.h"
#include "xnt/xenos/enums.h"

namespace xnt::gpu {

// Why a draw draws nothing; DrawSkipNote gives each its one note text.
enum class DrawSkip : uint32_t {
  kNone,
  kEdramMode,      // RB_MODECONTROL edram_mode neither kColorDepth nor kDepth
  kPrimitiveType,  // VGT_DRAW_INITIATOR prim_type no path implements (tessellation patches)
  kSurfacePitch,   // RB_SURFACE_INFO surface_pitch 0: no target has a row
  kNoTarget,       // no colour target written, no depth/stencil test, no pixel-shader exports
  kNoPrimitive,    // primitive assembly left no complete primitive
  kEmptyScissor,   // the scissor does not meet the target
};

// What the draw's shaders contribute to the plan (from the path's translation or decoding).
struct DrawShaders {
  bool pixel_shader = false;            // a pixel shader runs (none: depth/stencil only)
  uint32_t pixel_shader_color_mask = 0;  // bit i: it writes oC<i>
  bool pixel_shader_exports = false;     // it writes eA / eM# (memexport)
};

// One EDRAM surface a draw may use.
struct DrawTarget {
  bool used = false;
  uint32_t base_tiles = 0;  // RB_COLOR_INFO color_base / RB_DEPTH_INFO depth_base
  uint32_t format = 0;      // xenos::ColorRenderTargetFormat / DepthRenderTargetFormat
};

struct DrawPlan {
  xenos::ModeControl mode = xenos::ModeControl::kIgnore;
  bool resolve = false;  // edram_mode kCopy: the draw packet is a resolve
  xenos::PrimitiveType primitive_type{};
  uint32_t skips = 0;  // bit per DrawSkip that holds

  uint32_t surface_pitch = 0;  // RB_SURFACE_INFO, guest pixels
  uint32_t msaa_samples = 0;   // RB_SURFACE_INFO msaa_samples as written (0 = 1x)
  uint32_t samples = 1;        // 1, 2 or 4 samples per pixel

  // Colour target i is used when the pixel shader writes oC<i> and RB_COLOR_MASK lets a channel
  // through (colour/depth mode only); depth when the depth or the stencil test is on. A
  // binding is not a use.
  DrawTarget color[4];
  DrawTarget depth;
  bool color_used[4] = {};  // color[i].used, in the form gpu::EdramTargetsForDraw takes
  // A pixel shader that exports memory runs on every covered pixel in colour/depth mode even
  // when no colour target is written and nothing is tested (Xenia draw_util.cc
  // IsPixelShaderNeededWithRasterization: memory export is a side effect that keeps it; in
  // kDepth mode the pixel shader does not run): such a draw is rasterized for its exports only.
  bool exports_only = false;
  bool no_target = false;  // no colour target and no depth: nothing of the EDRAM is touched

  ResolutionScale scale;

  // After PlanPrimitives.
  HostTopology topology = HostTopology::kTriangleList;
  bool polygonal = true;  // triangles or rectangles (polygon offset and culling apply)

  // After PlanScissor: the viewport on a target of the given guest size, its scissor in guest
  // pixels (Viewport::scissor) and in host pixels.
  Viewport viewport{};
  ScissorRect host_scissor;

  bool Holds(DrawSkip reason) const { return skips & (1u << uint32_t(reason)); }
  // The first of `order` that holds; kNone when none does.
  DrawSkip FirstSkip(std::initializer_list<DrawSkip> order) const;
  bool any_color_used() const {
    return color_used[0] || color_used[1] || color_used[2] || color_used[3];
  }
};

// The colour targets a draw writes, bit i for RB_COLOR_INFO i: in kColorDepth mode those of
// `written` (bit i: the pixel shader writes oC<i>) whose RB_COLOR_MASK rt_mask is not zero.
uint32_t DrawColorTargets(RegisterValues regs, uint32_t written);

// The register-decided part of the plan (every check up to kNoTarget).
DrawPlan PlanDraw(RegisterValues regs, xenos::PrimitiveType primitive_type,
                  const DrawShaders& shaders, ResolutionScale scale);
// Records the assembled primitives' topology; kNoPrimitive when there is none.
void PlanPrimitives(DrawPlan& plan, const HostPrimitives& primitives);
// Places the draw on a target `width` x `height` guest pixels: viewport, guest and host scissor;
// kEmptyScissor when the scissor does not meet it.
void PlanScissor(DrawPlan& plan, RegisterValues regs, uint32_t width, uint32_t height);

// The note a path counts for a skipped draw.
std::string DrawSkipNote(DrawSkip reason, const DrawPlan& plan);

}  // namespace xnt::gpu
