// The fsi render path's engine: the whole EDRAM (10 MiB x resolution scale) is one storage
// buffer of guest bits, and every draw's pixel shader ends in the output merger
// (translator glsl_output_merger.cpp) that tests depth/stencil, blends and packs into it, so
// there are no host render targets, no ownership transfers and every format is exact.
//
// Ordering: on a device with VK_EXT_fragment_shader_interlock the merger runs inside a
// pixel-ordered critical section. Without it, the `unordered` mode (asked for by name only,
// FsiOrdering::kUnordered) runs the same shaders with no interlock and a barrier between draws:
// correct only where the rasterizer itself shades overlapping fragments of one draw in primitive
// order (llvmpipe's tile rasterizer does; docs/fsi.md says how it was checked).
//
// Resolves and clears run in compute on the buffer (fsi/src/edram_compute.h): the copy writes the
// guest-memory mirror bit for bit as the CPU resolve engine (gpu::ResolveCopy) would, and the
// written bytes come back into guest memory; clears write the buffer. Only copies the shader
// must not do (edram_compute.h says which) read the buffer back into an EDRAM model for the CPU
// engine, with a note saying so.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "xnt/gpu/draw_plan.h"
#include "xnt/gpu/vertex_exports.h"
#include "xnt/gpu/edram.h"
#include "xnt/gpu/edram_snapshot.h"
#include "xnt/gpu/edram_tracker.h"
#include "xnt/gpu/front_buffer.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/gpu/primitive_processor.h"
#include "xnt/gpu/renderer_options.h"
#include "xnt/gpu/scaled_resolve.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/draw_input.h"
#include "xnt/vk/draw_state.h"
#include "xnt/vk/path_renderer.h"
#include "xnt/vk/sampler_cache.h"
#include "xnt/vk/scaled_resolve_mirror.h"
#include "xnt/vk/shared_memory.h"
#include "xnt/vk/texture_cache.h"
#include "xnt/vk/translator/shader_interface.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk::fsi {

struct OutputMergerInput;

enum class FsiOrdering : uint8_t {
  kInterlock,  // VK_EXT_fragment_shader_interlock, pixel-ordered critical section
  kUnordered,  // no interlock: the named test mode (see above)
};
const char* FsiOrderingName(FsiOrdering ordering);

// The draw input every Vulkan path takes (vk/draw_input.h).
using FsiDrawInput = DrawInput;

struct FsiStats : gpu::PathStats {
  uint64_t readbacks = 0, uploads = 0;  // whole-EDRAM transfers (CPU-engine resolves, snapshots)
  uint64_t gpu_resolves = 0, cpu_resolves = 0, gpu_clears = 0;  // copies (guest and scaled)
};

class EdramCompute;

class FsiRenderer final : public PathRenderer {
 public:
  // Throws xnt::Error when `ordering` is kInterlock and the device lacks the extension.
  FsiRenderer(VulkanContext& context, FsiOrdering ordering, gpu::RendererOptions options);
  ~FsiRenderer() override;

  bool Draw(const FsiDrawInput& draw, const gpu::GuestMemoryAccess& memory) override;
  void Resolve(gpu::RegisterValues regs, const gpu::GuestMemoryAccess& memory) override;
  gpu::SwapImage Swap(gpu::RegisterValues regs, uint32_t frontbuffer_address, uint32_t width,
                      uint32_t height, const gpu::GuestMemoryAccess& memory) override;

  void RestoreEdram(std::span<const uint8_t> guest) override;
  // The EDRAM's guest bits now (read back from the buffer when draws wrote it since).
  const gpu::edram::Edram& Snapshot();

  FsiOrdering ordering() const { return ordering_; }
  const FsiStats& stats() const { return stats_; }
  const gpu::PathStats& path_stats() const override { return stats_; }
  gpu::EdramTracker& tracker() { return tracker_; }

 private:
  struct PipelineKey {
    VkShaderModule vs = VK_NULL_HANDLE, ps = VK_NULL_HANDLE;
    uint32_t topology = 0, polygon_mode = 0, samples = 1;
    bool polygon_offset_gs = false;  // DrawInput::exact_polygon_offset on a triangle list
    bool depth_clamp = false;        // HostRasterizer::depth_clamp
    // With polygon_offset_gs: the vertex shader's clip / cull distances, which it passes on.
    uint32_t clip_distances = 0, cull_distances = 0;
    VkShaderModule quad_shader = VK_NULL_HANDLE;  // PathRenderer::QuadsOf
    bool operator==(const PipelineKey&) const = default;
  };
  struct PipelineKeyHash {
    size_t operator()(const PipelineKey& k) const;
  };
  // One draw's data in the ring: its indices at the allocation's start, then the guest, system
  // and output merger constants at these offsets.
  struct DrawUpload {
    CommandStream::Allocation allocation{};
    uint64_t system_offset = 0, om_offset = 0, domain_offset = 0;
    GuestConstants constants;  // set 1 and where the guest constants are
    VkDescriptorSet om_set = VK_NULL_HANDLE;  // set 3, written for this draw
  };
  // Draw's steps, in pipeline order: the plan's checks (noted and counted as skipped when one
  // of `order` holds), the host sample count, indices and constants into the ring, the
  // pipeline, the render pass instance the draw records into.
  bool Skipped(const gpu::DrawPlan& plan, std::initializer_list<gpu::DrawSkip> order) {
    return SkipDraw(plan, order, stats_);
  }
  // The rasterization samples for `guest_samples` without attachments (noted when the device
  // lacks the count).
  uint32_t HostSamples(uint32_t guest_samples);
  DrawUpload UploadDrawData(const FsiDrawInput& draw, const gpu::DrawPlan& plan,
                            const gpu::HostPrimitives& prims, const OutputMergerInput& om_input,
                            uint32_t scaled_slots, PrimitiveQuads quads);
  VkPipeline DrawPipeline(const FsiDrawInput& draw, gpu::RegisterValues regs,
                          const gpu::DrawPlan& plan, uint32_t host_samples,
                          const DrawQuads& quads, HostRasterizer& raster);
  void BeginDrawRendering(const gpu::DrawPlan& plan);
  // This session's pipeline for `key`: its own map, then the device's kept one, else made.
  VkPipeline GetPipeline(const PipelineKey& key);
  VkPipeline CreatePipeline(const PipelineKey& key) const;
  void CreateEdramBuffer();
  // Set 3 (the EDRAM and the output merger's constants) and the pipeline layout of sets 0-3.
  void CreateOutputMergerSet();
  void BeginRendering(uint32_t width, uint32_t height);
  void EndRendering() override;
  // Draws' EDRAM writes made visible to what comes next (transfers or the next draw).
  void BarrierAfterDraws(VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);
  // The tracker's mover: the buffer is the EDRAM of every owner, so nothing moves, except a
  // restored snapshot's tiles at a resolution scale, rewritten in the new owner's sample layout
  // through the model.
  void MoveEdram(const gpu::edram::Transfer& transfer, gpu::EdramLogEntry& entry);
  void ReadBack();  // buffer -> model_ (when draws wrote since the last one)
  void Upload();    // model_ -> buffer
  // Resolve copies (fsi_resolve.cpp): into guest memory through the mirror, into another
  // access (a scaled copy's bytes) through a scratch buffer, or on the CPU engine.
  gpu::ResolveCopyResult CopyToGuest(const gpu::ResolveInfo& info,
                                     const gpu::GuestMemoryAccess& memory);
  gpu::ResolveCopyResult CopyToAccess(const gpu::ResolveInfo& info,
                                      const gpu::GuestMemoryAccess& access);
  gpu::ResolveCopyResult CopyOnCpu(const gpu::ResolveInfo& info,
                                   const gpu::GuestMemoryAccess& memory, const std::string& why);
  void BarrierBeforeCompute();

  FsiOrdering ordering_;
  gpu::EdramTracker tracker_;
  gpu::edram::SnapshotRestore snapshot_;

  uint64_t edram_bytes_ = 0;
  VkBuffer edram_ = VK_NULL_HANDLE;
  VkDeviceMemory edram_memory_ = VK_NULL_HANDLE;
  gpu::edram::Edram model_;
  std::unique_ptr<EdramCompute> compute_;  // created at the first resolve
  bool gpu_wrote_ = false;  // draws wrote the buffer since the model was last read back

  VkDescriptorSetLayout om_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  // Set 3 of each draw of a submission (the EDRAM and its output merger constants).
  std::unique_ptr<DescriptorSetRing> om_sets_;

  VkShaderModule depth_only_ps_ = VK_NULL_HANDLE;
  VkShaderModule depth_only_exact_ps_ = VK_NULL_HANDLE;  // made on the first exact depth-only draw
  std::unordered_map<PipelineKey, VkPipeline, PipelineKeyHash> pipelines_;

  bool rendering_ = false;
  bool draws_since_barrier_ = false;
  uint32_t guest_height_ = 8192;  // rows the host viewport covers (guest pixels)
  uint32_t render_area_width_ = 0, render_area_height_ = 0;  // interlock: one area for all draws

  FsiStats stats_;
};

}  // namespace xnt::vk::fsi
