// Memexport of a draw that rasterizes nothing. The vertex shader runs for every vertex the
// vertex grouper hands it whatever happens after it: clipping, culling, the scissor, the
// viewport and the render-backend state (RB_MODECONTROL, surface pitch, colour masks) only
// decide whether any pixel follows. So a draw a path skips for one of those reasons still
// writes what its vertex shader exports (Xenia keeps such draws for the same reason:
// draw_util.h IsRasterizationPotentiallyDone "dropping draw calls can only be done if the
// vertex shader doesn't memexport", and its Vulkan backend draws them with rasterizer discard).
// The pixel shader does not run when no pixel is produced, so its exports are not made here;
// a draw that produces pixels but writes no target is not skipped: every path rasterizes it for
// its pixel shader's exports (fbo with no attachment, fsi with nothing merged, cpu without
// writing the EDRAM).
//
// Both paths call this for the draws they skip, so they export identically (the same
// interpreter and packing rules as the cpu path's vertex stage and the translator's GLSL:
// ucode/include/xnt/ucode/memexport.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "xnt/gpu/primitive_processor.h"
#include "xnt/replay/backend.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::gpu {

struct VertexExportRun {
  uint64_t vertices = 0;  // vertex shader invocations
  uint64_t elements = 0;  // eM# elements flushed (ucode::ShaderResult::memexport_elements)
  uint64_t dropped_outside_memory = 0;  // dwords past guest memory: dropped, never written
  uint32_t lo = UINT32_MAX, hi = 0;  // guest bytes written: [lo, hi) (empty when lo >= hi)
  std::string note;  // why the shader did not run (empty when it ran)
};

// Runs draw.vertex_shader once per index of the draw (in draw order, primitive-reset indices
// skipped, base index VGT_INDX_OFFSET added) with the vertex shader's constants, reading vertex
// data from guest memory and writing its exports into `memory` (dword read-modify-write).
// `bind_textures` sets the interpreter's texture callbacks (texture_fetch, texture_fetch_explicit,
// texture_size) for vertex texture fetches (empty: zeros, as the interpreter does).
VertexExportRun RunVertexShaderExports(
    const replay::DrawCall& draw, const PrimitiveDraw& prim, replay::GuestMemory& memory,
    const std::function<void(ucode::InterpreterCallbacks&)>& bind_textures = {});

// What a GPU path that rasterized nothing for `draw` still owes: its vertex shader's exports
// (RunVertexShaderExports, vertex texture fetches reading zeros), with the notes a replay shows
// by name for what it cannot do.
struct SkippedDrawExports {
  VertexExportRun run;
  std::vector<std::string> notes;
};
SkippedDrawExports ExportSkippedDraw(const replay::DrawCall& draw, const PrimitiveDraw& prim,
                                     replay::GuestMemory& memory, bool vertex_fetches_textures,
                                     const std::string& path);

// The guest ranges a draw's exporting shaders can store into (every stream constant they read,
// replay::FindMemExportStreams), for a GPU path to mirror before the draw and read back after it.
struct MemExportRange {
  uint32_t address = 0;
  uint64_t size = 0;
};
// `past_memory` is set when a stream reaches past guest memory (that part is dropped).
std::vector<MemExportRange> MemExportRanges(const replay::DrawCall& draw, bool& past_memory);

}  // namespace xnt::gpu
