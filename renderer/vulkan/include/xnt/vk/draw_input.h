// What a Vulkan path's renderer needs for one guest draw, and the steps the fbo and fsi backends
// share around it: the translated shaders' modules and texture bindings merged into one input,
// the primitive stream read once (the primitive processor and the draw-extent estimate share
// the bytes), and the memexport steps around the renderer's Draw (gpu/vertex_exports.h: stream
// ranges mirrored before and read back after; a draw that rasterizes nothing still exports,
// run on the CPU). Each path keeps its own shader translation options and renderer.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "xnt/base/error.h"
#include "xnt/gpu/draw_extent.h"
#include "xnt/gpu/draw_plan.h"
#include "xnt/gpu/edram_tracker.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/gpu/index_buffer.h"
#include "xnt/gpu/primitive_processor.h"
#include "xnt/gpu/register_values.h"
#include "xnt/gpu/tessellated_draw.h"
#include "xnt/gpu/vertex_exports.h"
#include "xnt/vk/translator/shader_interface.h"
#include "xnt/vk/translator/shader_translator.h"

namespace xnt::vk {

struct DrawInput {
  gpu::RegisterValues regs;
  VkShaderModule vertex_shader = VK_NULL_HANDLE;
  VkShaderModule pixel_shader = VK_NULL_HANDLE;  // null: no pixel shader (depth/stencil only)
  uint32_t pixel_shader_color_mask = 0;          // bit i: the PS writes oC<i>
  bool pixel_shader_exports = false;             // the PS writes eA / eM# (memexport)
  uint32_t texture_slots = 0;  // bit i: the VS or PS samples texture fetch constant i
  // Per slot, the fetch instructions' filter overrides (ShaderReflection::texture_filters).
  std::array<uint32_t, kTextureBindingCount> texture_filters = KeepTextureFilters();
  uint32_t texture_host_lod_slots = 0;  // ShaderReflection::texture_host_lod_slots, VS | PS
  // Vertex fetch constants either shader reads (ShaderReflection::vertex_fetch_slots, VS | PS):
  // the shared-memory ranges the draw reads (shared_memory.h MarkRead).
  std::array<uint32_t, 3> vertex_fetch_slots{};
  gpu::PrimitiveDraw primitives;  // index bytes must stay valid during Draw
  // A tessellated draw (gpu/index_buffer.h IsTessellated): its triangles and domain inputs from
  // the shared tessellator, the vertex shader translated with TranslationOptions::domain_inputs;
  // `primitives` then names a triangle list.
  std::shared_ptr<const gpu::TessellatedDraw> tessellation;
  // A later part of a tessellated draw drawn in parts (DrawTessellatedInParts): the renderer
  // counts the guest draw once, at its first part.
  bool continues_draw = false;
  // Rows the geometry reaches, asked only when no scissor bounds the draw (edram_cache.h).
  gpu::DrawRowsEstimate estimate_rows;
  // fsi: the shaders were translated with TranslationOptions::fsi_exact_polygon_offset, so a
  // triangle draw needs the geometry shader that passes the vertex positions (fsi_renderer.cpp).
  bool exact_polygon_offset = false;
  // The vertex shader's gl_ClipDistance / gl_CullDistance entries (ShaderReflection), which a
  // geometry shader between it and the pixel shader must pass on.
  uint32_t clip_distances = 0, cull_distances = 0;
  bool kill_clip_distance = false;  // ShaderReflection::kill_clip_distance
  // With exact_polygon_offset: ShaderReflection::position_location, the geometry shader's
  // interpolator count and the position's location.
  uint32_t exact_position_location = 15;
  // A point list whose user planes are measured at the sprite's corners (gpu/primitive_clip.h
  // PointPlanesAtCorners): the first `point_corner_planes` clip distances (cull distances with
  // point_corner_cull) are the planes', which the point-quad geometry shader measures again at
  // each corner.
  uint32_t point_corner_planes = 0;
  bool point_corner_cull = false;
  // The guest constant rows the shaders read (ShaderReflection::constant_reads, VS and PS
  // merged); everything unless the shaders say otherwise.
  XeConstantReads constant_reads;
};

// The draw's plan (gpu/draw_plan.h) from what the translated shaders say of themselves.
inline gpu::DrawPlan PlanDrawInput(const DrawInput& draw, gpu::ResolutionScale scale) {
  return gpu::PlanDraw(draw.regs, draw.primitives.type,
                       {draw.pixel_shader != VK_NULL_HANDLE, draw.pixel_shader_color_mask,
                        draw.pixel_shader_exports},
                       scale);
}

// The host primitives of the draw: the primitive processor's, or a tessellated draw's
// triangles over its generated vertices.
inline gpu::HostPrimitives DrawPrimitives(const DrawInput& draw) {
  if (!draw.tessellation) return gpu::ProcessPrimitives(draw.primitives);
  gpu::HostPrimitives prims;
  prims.topology = gpu::HostTopology::kTriangleList;
  prims.indices = draw.tessellation->indices;
  prims.guest_primitive_count = draw.tessellation->patches;
  return prims;
}

// Notes a backend counts by text (FboBackend::notes, FsiBackend::notes).
using DrawNotes = std::map<std::string, uint64_t>;

// Fills `input` for `call`: its registers (`regs`, call.registers' values), the shader modules, the texture slots both shaders
// sample (a slot's filter overrides are the pixel shader's where it has any, else the vertex
// shader's), the primitive stream (read into `index_scratch`) and the lazy extent estimate (its
// vertex shader run on the CPU). `input` must stay where it is while the estimate can be asked.
// Returns false, with a note, when the indices cannot be read.
inline bool BuildDrawInput(const replay::DrawCall& call, gpu::RegisterValues regs,
                           VkShaderModule vs_module,
                           const ShaderReflection& vs, VkShaderModule ps_module,
                           const ShaderReflection* ps, std::vector<uint8_t>& index_scratch,
                           DrawInput& input, DrawNotes& notes) {
  input.regs = regs;
  input.vertex_shader = vs_module;
  input.texture_slots = vs.texture_slots;
  input.texture_filters = vs.texture_filters;
  input.texture_host_lod_slots = vs.texture_host_lod_slots;
  input.vertex_fetch_slots = vs.vertex_fetch_slots;
  input.constant_reads = vs.constant_reads;
  if (ps) {
    input.constant_reads.Merge(ps->constant_reads);
    for (size_t i = 0; i < 3; ++i) input.vertex_fetch_slots[i] |= ps->vertex_fetch_slots[i];
    input.pixel_shader = ps_module;
    input.pixel_shader_color_mask = ps->color_targets_written;
    input.pixel_shader_exports = ps->uses_memexport;
    input.texture_slots |= ps->texture_slots;
    input.texture_host_lod_slots |= ps->texture_host_lod_slots;
    for (uint32_t i = 0; i < kTextureBindingCount; ++i) {
      if (ps->texture_filters[i] != kTextureFiltersKeep) {
        input.texture_filters[i] = ps->texture_filters[i];
      }
    }
  }
  try {
    if (gpu::IsTessellated(call)) {
      input.tessellation = std::make_shared<const gpu::TessellatedDraw>(gpu::TessellateDraw(call));
      input.primitives = {};
      input.primitives.type = xenos::PrimitiveType::kTriangleList;
      input.primitives.vertex_count = uint32_t(input.tessellation->indices.size());
    } else {
      input.primitives = gpu::ReadPrimitiveDraw(call, index_scratch);
    }
  } catch (const Error& e) {
    ++notes["draw skipped: " + std::string(e.what())];
    return false;
  }
  input.estimate_rows = [&call, &input]() -> std::optional<uint32_t> {
    const gpu::DrawExtent extent = input.tessellation
                                       ? gpu::EstimateDrawExtent(call, *input.tessellation)
                                       : gpu::EstimateDrawExtent(call, input.primitives);
    if (!extent.estimated) return std::nullopt;
    return extent.rows;
  };
  return true;
}

// Renderer::Draw of `input`. A tessellated draw with more generated vertices than the
// domain-input binding holds (kDomainInputsRange, fixed in the descriptor) goes as several host
// draws of whole patches in order (gpu::SplitTessellatedDraw), which rasterize the same
// triangles in the same order. Every part has the same plan, so when the first is skipped the
// rest are too: none is tried.
template <class Renderer>
bool DrawTessellatedInParts(Renderer& renderer, const DrawInput& input,
                            const gpu::GuestMemoryAccess& access) {
  const size_t most = kDomainInputsRange / sizeof(gpu::DomainVertex);
  if (!input.tessellation || input.tessellation->vertices.size() <= most) {
    return renderer.Draw(input, access);
  }
  DrawInput part = input;
  for (gpu::TessellatedDraw& piece : gpu::SplitTessellatedDraw(*input.tessellation, most)) {
    part.primitives.vertex_count = uint32_t(piece.indices.size());
    part.tessellation = std::make_shared<const gpu::TessellatedDraw>(std::move(piece));
    if (!renderer.Draw(part, access)) return part.continues_draw;
    part.continues_draw = true;
  }
  return true;
}

// Draws `input` on `renderer` (PrepareMemExport, Draw -> drawn, ReadBackMemExport) with the
// memexport steps around it. When the renderer rasterizes nothing, the vertex shader's exports
// are run through the interpreter the cpu path uses (gpu::ExportSkippedDraw; `path` names the
// path in its notes) and `memory_written` is told the guest range they wrote. A malformed draw
// (short index buffer, ...) is noted and skipped, not fatal: false when that happened before
// Renderer::Draw returned (the renderer did not count it), true otherwise (an error after it, in
// the export readback, is noted but the draw was counted).
template <class Renderer>
bool DrawWithMemExport(Renderer& renderer, const replay::DrawCall& call, const DrawInput& input,
                       const gpu::GuestMemoryAccess& access, replay::GuestMemory* memory,
                       const ShaderReflection& vs, const char* path,
                       DrawNotes& notes,
                       const std::function<void(uint32_t, uint32_t)>& memory_written) {
  bool past_memory = false;
  const std::vector<gpu::MemExportRange> export_ranges = gpu::MemExportRanges(call, past_memory);
  if (past_memory) {
    ++notes["memexport: a stream reaches past guest memory (the part outside is dropped)"];
  }
  bool counted = false;
  try {
    if (!export_ranges.empty()) renderer.PrepareMemExport(export_ranges);
    const bool drawn = DrawTessellatedInParts(renderer, input, access);
    counted = true;
    if (!export_ranges.empty()) renderer.ReadBackMemExport(export_ranges, access);
    if (!drawn && memory && input.tessellation) {
      if (vs.uses_memexport) ++notes[gpu::kSkippedTessellatedExportsNote];
    } else if (!drawn && memory) {
      const gpu::SkippedDrawExports e = gpu::ExportSkippedDraw(
          call, input.primitives, *memory, vs.uses_memexport && vs.texture_slots, path);
      for (const std::string& n : e.notes) ++notes[n];
      if (e.run.hi > e.run.lo) memory_written(e.run.lo, e.run.hi - e.run.lo);
    }
  } catch (const Error& e) {
    ++notes["draw skipped: " + std::string(e.what())];
    return counted;
  }
  return true;
}

}  // namespace xnt::vk
