// The pixel side of a cpu-path draw: rasterization, the pixel shader in the interpreter and the
// output merger, spread over threads by bands of screen rows. Each band runs every triangle of
// the draw in primitive order, so every pixel sees the same sequence of fragments as with one
// thread: the result is identical for any thread count. Bands run in parallel only when the
// draw's targets cannot alias each other's EDRAM (no surface wraps onto itself within the rows
// drawn, no two used surfaces share tiles); otherwise one thread does all rows.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "geometry.h"
#include "xnt/cpu/pixel_watch.h"
#include "xnt/gpu/edram.h"
#include "xnt/gpu/renderer_options.h"
#include "xnt/gpu/scaled_resolve.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/ucode.h"

namespace xnt::cpu {

using Triangle = std::array<ClipVertex, 3>;

struct PixelJob {
  const std::vector<Triangle>* triangles = nullptr;
  const std::vector<PointSprite>* points = nullptr;  // a point-list draw's sprites
  const std::vector<Line>* lines = nullptr;          // a line draw's clipped segments
  // Not empty: the order to rasterize the three in (primitive_assembly.h, triangles drawn as
  // points or lines).
  const std::vector<std::pair<PrimitiveKind, uint32_t>>* order = nullptr;
  RasterState state;                      // scissor, culling, interpolators, samples
  const ucode::Shader* pixel_shader = nullptr;  // null: depth/stencil only
  const ucode::InterpreterConstants* pixel_constants = nullptr;  // with pixel_shader
  int param_gen_register = -1;
  const replay::RegisterFile* registers = nullptr;
  const replay::GuestMemory* memory = nullptr;
  // Memexport writes (thread-safe; vertex_stage.h MakeMemExportWriter). Export shaders are
  // shaded one pixel at a time: BatchInterpreter refuses them.
  std::function<bool(uint32_t byte_address, uint32_t value, uint32_t mask)> write_memory;
  gpu::edram::Edram* edram = nullptr;
  // Resolution scaling: fragments are host pixels, S x T per guest pixel (param gen gives guest
  // positions); textures resolved at the scale are read from their scaled copies.
  const gpu::ScaledResolveMemory* scaled = nullptr;
  uint32_t scale_x = 1, scale_y = 1;
  // What the quads' derivatives measure at that scale (gpu/renderer_options.h).
  gpu::ScaledDerivatives derivatives = gpu::ScaledDerivatives::kGuest;
  bool color_used[4] = {};
  bool parallel_safe = false;  // the targets cannot alias (see above)
  // Shade fragments in batches with ucode::BatchInterpreter (false: one at a time with the
  // scalar interpreter; the images are the same either way).
  bool batched = true;
  // Pixel history: every fragment sample on a watched EDRAM word is recorded (the draw must
  // then run on one thread: RunPixels takes one).
  PixelWatch* watch = nullptr;
};

struct PixelStats {
  uint64_t pixels_shaded = 0;
  uint32_t threads = 1;  // how many ran the bands
  uint64_t diverged_batches = 0;  // batches shaded again one pixel at a time (p0 divergence)
  std::set<std::string> notes;  // once per draw, whatever the thread count
};

// `threads`: 0 = every core. Bands are 16 rows.
PixelStats RunPixels(const PixelJob& job, uint32_t threads);

}  // namespace xnt::cpu
