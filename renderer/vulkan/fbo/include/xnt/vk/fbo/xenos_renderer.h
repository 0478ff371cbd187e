// The fbo render path's engine: executes guest draws, resolves and swaps on Vulkan with host
// render targets. It knows registers, translated shader modules and guest memory, but not the
// trace player or the translator (fbo_backend.cpp connects those).
//
// Per draw: RB_MODECONTROL picks colour+depth / depth-only / copy; colour targets are bound only
// when the pixel shader writes them and RB_COLOR_MASK lets something through, the depth target
// only with depth or stencil testing on (a binding is not a use: a target bound but never written or tested holds no data of this draw). Guest memory is
// mirrored first (shared_memory), indices are converted (primitive_processor), constants copied
// straight from the register file into a ring, and the draw recorded with dynamic rendering.
// Resolves and swaps flush and read back on the CPU (resolve.h, swap.h).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "xnt/gpu/draw_plan.h"
#include "xnt/gpu/vertex_exports.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/draw_input.h"
#include "xnt/vk/draw_state.h"
#include "xnt/vk/dynamic_state_filter.h"
#include "xnt/vk/fbo/edram_cache.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/vk/path_renderer.h"
#include "xnt/vk/pipeline_cache.h"
#include "xnt/gpu/primitive_processor.h"
#include "xnt/vk/fbo/render_targets.h"
#include "xnt/gpu/resolve.h"
#include "xnt/gpu/scaled_resolve.h"
#include "xnt/vk/sampler_cache.h"
#include "xnt/vk/translator/shader_interface.h"
#include "xnt/vk/shared_memory.h"
#include "xnt/gpu/front_buffer.h"
#include "xnt/vk/texture_cache.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

using gpu::RendererOptions;

struct RendererStats : gpu::PathStats {
  uint64_t submissions = 0;
  // The most ring data one submission held: PathRenderer::kSubmissionRingBound plus what the
  // draw that passed it allocated (its data, and a block for uploads ahead).
  uint64_t peak_submission_ring_bytes = 0;
  uint64_t pages_uploaded = 0;
};

class XenosRenderer final : public PathRenderer {
 public:
  explicit XenosRenderer(VulkanContext& context, gpu::RendererOptions options = {});
  ~XenosRenderer() override;

  bool Draw(const DrawInput& draw, const gpu::GuestMemoryAccess& memory) override;
  void Resolve(gpu::RegisterValues regs, const gpu::GuestMemoryAccess& memory) override;
  gpu::SwapImage Swap(gpu::RegisterValues regs, uint32_t frontbuffer_address, uint32_t width,
                      uint32_t height, const gpu::GuestMemoryAccess& memory) override;
  void Flush() override;
  void RestoreEdram(std::span<const uint8_t> guest) override { edram_.Restore(guest); }

  const RendererStats& stats() const { return stats_; }
  const gpu::PathStats& path_stats() const override { return stats_; }
  RenderTargetCache& render_targets() { return render_targets_; }
  // The draw pipelines (made ahead from an earlier replay's list, and listed for the next).
  PipelineCache& pipelines() { return pipelines_; }
  // EDRAM ownership, transfers and their log (edram_cache.h).
  EdramCache& edram() { return edram_; }
  // At a resolution scale host render targets are S x T times the guest size, and resolves
  // leave scaled copies (path_renderer.h). Device bytes backing the scaled copies (sparse chunks bound), 0 when none were made.
  uint64_t scaled_device_bytes() const;
  // Address space of the arena the scaled copies are uploaded to, given to slots; no host memory
  // stands behind it (uploads read the copies in place, scaled_resolve_mirror.h).
  uint64_t scaled_arena_bytes() const;

 private:
  struct Attachments {
    std::array<const RenderTarget*, 4> color{};
    const RenderTarget* depth = nullptr;
    // With no target at all (a draw run for its pixel-shader exports only): the render area in
    // host pixels and the rasterization sample count.
    uint32_t empty_width = 0, empty_height = 0, empty_samples = 1;
    bool operator==(const Attachments& o) const {
      return color == o.color && depth == o.depth && empty_width == o.empty_width &&
             empty_height == o.empty_height && empty_samples == o.empty_samples;
    }
  };
  // One draw's data in the ring: its indices at the allocation's start, then the guest and the
  // system constants at these offsets.
  struct DrawUpload {
    CommandStream::Allocation allocation{};
    uint64_t system_offset = 0, domain_offset = 0;
    GuestConstants constants;  // set 1 and where the guest constants are
  };
  // Draw's steps, in pipeline order: the plan's checks (noted and counted as skipped when one
  // of `order` holds), the render targets of the used surfaces, indices and constants into the
  // ring, the system constants for the targets' host formats, the pipeline, the dynamic state.
  bool Skipped(const gpu::DrawPlan& plan, std::initializer_list<gpu::DrawSkip> order) {
    return SkipDraw(plan, order, stats_);
  }
  Attachments DrawAttachments(const gpu::DrawPlan& plan);
  DrawUpload UploadDrawData(const DrawInput& draw, const gpu::HostPrimitives& prims);
  // `output_modes`: XeSystemConstants::color_output_modes for the targets (ColorOutputModes in
  // xenos_renderer.cpp), computed once a draw for the constants and the pipeline's specialization.
  void WriteSystemConstants(gpu::RegisterValues regs, const gpu::DrawPlan& plan,
                            const Attachments& attachments, uint32_t output_modes,
                            uint32_t scaled_slots, PrimitiveQuads quads, uint8_t* out);
  VkPipeline DrawPipeline(const DrawInput& draw, gpu::RegisterValues regs,
                          const gpu::DrawPlan& plan, const Attachments& attachments,
                          uint32_t output_modes, const DrawQuads& quads,
                          HostRasterizer& raster);
  // `exact_depth`: the pixel shader writes the guest's depth, polygon offset included.
  void SetDynamicState(gpu::RegisterValues regs, const gpu::DrawPlan& plan,
                       const Attachments& attachments, const HostRasterizer& raster,
                       PrimitiveQuads quads, bool exact_depth);
  void BeginRendering(const Attachments& attachments);
  // Fills the render area and sample count of a draw that has no attachment (run for its
  // pixel-shader exports only) for a surface `pitch` guest pixels wide; false (noted) when the
  // device cannot hold it.
  bool SetUpAttachmentless(uint32_t pitch, uint32_t guest_samples, Attachments& a);
  void EndRendering() override;
  void BarrierAttachmentsToTransfer(const RenderTarget& rt);
  void BarrierTransferToAttachments(const RenderTarget& rt);
  void ClearRect(RenderTarget& rt, const VkRect2D& rect, const VkClearValue& value);

  RenderTargetCache render_targets_;
  PipelineCache pipelines_;
  EdramCache edram_;
  // ExactDepthFragmentShaderGlsl, made on first use (depth-only draws taking the exact depth).
  VkShaderModule exact_depth_ps_ = VK_NULL_HANDLE;

  bool rendering_ = false;
  uint64_t rendering_instance_ = 0;  // counts vkCmdBeginRendering: the filter's scope
  DynamicStateFilter recorded_;
  Attachments current_;
  uint32_t render_width_ = 0, render_height_ = 0;

  RendererStats stats_;
};

}  // namespace xnt::vk
