// The fbo render path's engine: executes guest draws, resolves and swaps on Vulkan with host
// render targets. It knows registers, translated shader modules and guest memory, but not the
// trace player or the translator (fbo_backend.cpp connects those).
//
// Per draw: RB_MODECONTROL picks colour+depth / depth-only / copy; colour targets are bound only
// when the pixel shader writes them and RB_COLOR_MASK lets something through, the depth target
// only with depth or stencil testing on (DESIGN.md: a binding is not a use). Guest memory is
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
#include "xnt/vk/fbo/edram_cache.h"
#include "xnt/gpu/guest_access.h"
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

class ScaledResolveMirror;


using gpu::RendererOptions;

struct RendererStats {
  uint64_t draws = 0;          // recorded on the GPU
  uint64_t draws_skipped = 0;  // nothing to draw (see notes)
  uint64_t resolves = 0;
  uint64_t swaps = 0;
  uint64_t submissions = 0;
  uint64_t pages_uploaded = 0;
};

class XenosRenderer {
 public:
  explicit XenosRenderer(VulkanContext& context, gpu::RendererOptions options = {});
  ~XenosRenderer();
  XenosRenderer(const XenosRenderer&) = delete;
  XenosRenderer& operator=(const XenosRenderer&) = delete;

  // A module for translated SPIR-V, cached by the caller's key (e.g. microcode hash + options).
  VkShaderModule ShaderModule(uint64_t key, const std::vector<uint32_t>& spirv);

  // Returns false when the draw was skipped (reason counted in notes()).
  bool Draw(const DrawInput& draw, const gpu::GuestMemoryAccess& memory);
  void Resolve(gpu::RegisterValues regs, const gpu::GuestMemoryAccess& memory);
  gpu::SwapImage Swap(gpu::RegisterValues regs, uint32_t frontbuffer_address, uint32_t width,
                 uint32_t height, const gpu::GuestMemoryAccess& memory);
  // Submits pending work and waits.
  void Flush();

  // Memexport (memexport.cpp): byte ranges a draw's shaders may store into.
  using MemoryRange = gpu::MemExportRange;
  // Before the draw: the ranges' mirror bound and ready for shader stores.
  void PrepareMemExport(const std::vector<MemoryRange>& ranges);
  // After the draw: the ranges copied from the mirror into guest memory (so indices, resolves,
  // the front buffer and later uploads see the exported data), without uploading them again.
  void ReadBackMemExport(const std::vector<MemoryRange>& ranges,
                         const gpu::GuestMemoryAccess& memory);

  const RendererStats& stats() const { return stats_; }
  // Things the renderer could not do exactly, with counts ("resolve of depth ...": 3).
  const std::map<std::string, uint64_t>& notes() const { return notes_; }
  RenderTargetCache& render_targets() { return render_targets_; }
  // EDRAM ownership, transfers and their log (edram_cache.h).
  EdramCache& edram() { return edram_; }
  SharedMemory& shared_memory() { return shared_memory_; }
  TextureCache& textures() { return textures_; }
  // Resolution scaling (RendererOptions scale_x/y > 1): host render targets S x T times the
  // guest size, resolves writing 1x guest memory plus scaled copies (gpu/scaled_resolve.h) that
  // textures and the front buffer read at the scaled size. A CPU write or memexport over a
  // copy's guest range drops it.
  const gpu::ScaledResolveMemory& scaled_resolves() const { return scaled_; }
  void InvalidateScaled(uint32_t address, uint64_t size) { scaled_.Invalidate(address, size); }
  // Device bytes backing the scaled copies (sparse chunks bound), 0 when none were made.
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
    uint64_t constants_offset = 0, system_offset = 0;
  };
  void Note(const std::string& what) { ++notes_[what]; }
  // Draw's steps, in pipeline order: the plan's checks (noted and counted as skipped when one
  // of `order` holds), the render targets of the used surfaces, indices and constants into the
  // ring, the system constants for the targets' host formats, the pipeline, the dynamic state.
  bool Skipped(const gpu::DrawPlan& plan, std::initializer_list<gpu::DrawSkip> order);
  Attachments DrawAttachments(const gpu::DrawPlan& plan);
  DrawUpload UploadDrawData(gpu::RegisterValues regs, const gpu::HostPrimitives& prims);
  void WriteSystemConstants(gpu::RegisterValues regs, const gpu::DrawPlan& plan,
                            const Attachments& attachments, uint32_t scaled_slots, uint8_t* out);
  VkPipeline DrawPipeline(const DrawInput& draw, gpu::RegisterValues regs,
                          const gpu::DrawPlan& plan, const Attachments& attachments,
                          HostRasterizer& raster);
  void SetDynamicState(gpu::RegisterValues regs, const gpu::DrawPlan& plan,
                       const Attachments& attachments, const HostRasterizer& raster);
  void BeginRendering(const Attachments& attachments);
  // Fills the render area and sample count of a draw that has no attachment (run for its
  // pixel-shader exports only) for a surface `pitch` guest pixels wide; false (noted) when the
  // device cannot hold it.
  bool SetUpAttachmentless(uint32_t pitch, uint32_t guest_samples, Attachments& a);
  void EndRendering();
  void BarrierAttachmentsToTransfer(const RenderTarget& rt);
  void BarrierTransferToAttachments(const RenderTarget& rt);
  void ClearRect(RenderTarget& rt, const VkRect2D& rect, const VkClearValue& value);
  // *scaled_slots: bit i set when slot i is bound to a scaled resolve copy.
  VkDescriptorSet BindTextures(const DrawInput& draw, gpu::RegisterValues regs,
                               const gpu::GuestMemoryAccess& memory, uint32_t* scaled_slots);
  // The scaled copy a fetch constant names, loaded from the scaled mirror (null: read guest
  // memory at 1x).
  const TextureCache::Texture* ScaledTexture(const uint32_t fetch[6]);

  VulkanContext& context_;
  VkDevice device_;
  gpu::RendererOptions options_;
  CommandStream stream_;
  SharedMemory shared_memory_;
  RenderTargetCache render_targets_;
  PipelineCache pipelines_;
  EdramCache edram_;
  std::unordered_map<uint64_t, VkShaderModule> modules_;
  TextureCache textures_;
  SamplerCache samplers_;
  gpu::ScaledResolveMemory scaled_;
  std::unique_ptr<ScaledResolveMirror> scaled_mirror_;

  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  VkDescriptorSet constants_set_ = VK_NULL_HANDLE;
  VkDescriptorSet textures_set_ = VK_NULL_HANDLE;  // every slot a dummy (draws sampling nothing)
  // Per-draw texture sets: allocated from a pool reset once a submission has completed (Flush
  // waits), reused within a submission for identical bindings.
  VkDescriptorPool texture_pool_ = VK_NULL_HANDLE;
  uint64_t texture_pool_epoch_ = UINT64_MAX;
  std::map<std::vector<uint64_t>, VkDescriptorSet> texture_sets_;

  bool rendering_ = false;
  Attachments current_;
  uint32_t render_width_ = 0, render_height_ = 0;

  RendererStats stats_;
  std::map<std::string, uint64_t> notes_;
};

}  // namespace xnt::vk
