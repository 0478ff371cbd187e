// What every Vulkan render path's engine shares, below what differs between them (fbo: host
// render targets and the EDRAM render-target cache; fsi: the EDRAM as a storage buffer and the
// output merger in the pixel shader). As Xenia's render-target caches over one base and Dolphin's
// thin backends over VideoCommon: the base holds the command stream and ring, the shared-memory
// mirror and its sync, the set layouts of the draw interface, the texture and sampler caches and
// the per-draw texture descriptor sets, the resolution-scaled resolve copies, translated shader
// modules, memexport around a draw and the notes; a path adds its draws, resolves and swap.
#pragma once

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "xnt/gpu/draw_plan.h"
#include "xnt/gpu/front_buffer.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/gpu/path_stats.h"
#include "xnt/gpu/polygon_mode.h"
#include "xnt/gpu/register_values.h"
#include "xnt/gpu/renderer_options.h"
#include "xnt/gpu/resolve.h"
#include "xnt/gpu/scaled_resolve.h"
#include "xnt/gpu/vertex_exports.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/descriptor_set_ring.h"
#include "xnt/vk/draw_input.h"
#include "xnt/vk/draw_set_layouts.h"
#include "xnt/vk/draw_state.h"
#include "xnt/vk/guest_constants.h"
#include "xnt/vk/sampler_cache.h"
#include "xnt/vk/shared_memory.h"
#include "xnt/vk/texture_cache.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

class ScaledResolveMirror;

class PathRenderer {
 public:
  // Host-visible ring per submission: uploads, uniforms, indices, readbacks. It starts at
  // kInitialRingSize (four times the submission bound below, so a draw that starts a submission
  // never finds it full) and grows up to kRingSize for a transfer larger than that (CommandStream).
  static constexpr uint64_t kRingSize = 64ull << 20;
  static constexpr uint64_t kInitialRingSize = 16ull << 20;
  // Readbacks and uploads through the ring go in pieces of this many bytes (a quarter of the
  // largest ring).
  static constexpr uint64_t kTransferChunk = 16ull << 20;
  // A draw starts a new submission once the current one's ring data passed this many bytes, so
  // a frame of many draws is recorded, submitted and retired in parts: the ring pages touched,
  // the driver's command memory and a software rasterizer's binned scene stay bounded by the
  // part, not by the frame (a 5,000-draw capture-shaped frame is about 21 MiB of ring data,
  // mostly its fresh vertex pages). (When lavapipe still copied a descriptor set per draw for
  // dynamic offsets, a 4 KiB mapping each until the submission ended, the 100-frame capture
  // trace peaked at 517 MiB on fbo at 8 MiB and 458 MiB at 4 MiB: docs/speed.md.)
  static constexpr uint64_t kSubmissionRingBound = 4ull << 20;
  // And once it holds this many draws: lavapipe's fsi path (unordered) was seen to crash in its
  // queue thread on a single submission of 20,000 draws, which a full ring used to split at
  // about 7,000.
  static constexpr uint32_t kSubmissionDrawBound = 4096;

  virtual ~PathRenderer();
  PathRenderer(const PathRenderer&) = delete;
  PathRenderer& operator=(const PathRenderer&) = delete;

  // A module for translated SPIR-V, cached by the caller's key (the translation's identity).
  VkShaderModule ShaderModule(uint64_t key, const std::vector<uint32_t>& spirv);

  // False when the draw was skipped (reason counted in notes()).
  virtual bool Draw(const DrawInput& draw, const gpu::GuestMemoryAccess& memory) = 0;
  virtual void Resolve(gpu::RegisterValues regs, const gpu::GuestMemoryAccess& memory) = 0;
  virtual gpu::SwapImage Swap(gpu::RegisterValues regs, uint32_t frontbuffer_address,
                              uint32_t width, uint32_t height,
                              const gpu::GuestMemoryAccess& memory) = 0;
  // An EDRAM snapshot record: the whole EDRAM replaced by its guest bytes, every tile given to
  // the neutral snapshot owner (gpu/edram_snapshot.h), in stream order with the draws.
  virtual void RestoreEdram(std::span<const uint8_t> guest) = 0;
  // Submits pending work and waits.
  virtual void Flush();
  // The four counters every path keeps (the path's own stats extend them).
  virtual const gpu::PathStats& path_stats() const = 0;

  // Memexport (path_memexport.cpp): byte ranges a draw's shaders may store into.
  using MemoryRange = gpu::MemExportRange;
  // Before the draw: the ranges' mirror bound and ready for shader stores.
  void PrepareMemExport(const std::vector<MemoryRange>& ranges);
  // After the draw: the ranges copied from the mirror into guest memory (so indices, resolves,
  // the front buffer and later uploads see the exported data), without uploading them again.
  void ReadBackMemExport(const std::vector<MemoryRange>& ranges,
                         const gpu::GuestMemoryAccess& memory);

  // Things the renderer could not do exactly, with counts ("resolve of depth ...": 3).
  const std::map<std::string, uint64_t>& notes() const { return notes_; }
  SharedMemory& shared_memory() { return shared_memory_; }
  // Submissions, ring fills (each a wait) and the ring's size and peak use (bench replay).
  const CommandStream& command_stream() const { return stream_; }
  TextureCache& textures() { return textures_; }
  // Resolution scaling (RendererOptions scale_x/y > 1): resolves write 1x guest memory plus
  // scaled copies (gpu/scaled_resolve.h) that textures and the front buffer read at the scaled
  // size. A CPU write or memexport over a copy's guest range drops it.
  const gpu::ScaledResolveMemory& scaled_resolves() const { return scaled_; }
  void InvalidateScaled(uint32_t address, uint64_t size) { scaled_.Invalidate(address, size); }

  // bench replay --gpu-profile: the GPU time of what is recorded from Begin to End counts as
  // resolves (CommandStream::BeginResolveStage); nothing without stage timestamps.
  void BeginResolveStage() { stream_.BeginResolveStage(); }
  void EndResolveStage() { stream_.EndResolveStage(); }

  // A debug label region on the stream's command buffer while the returned object lives
  // (debug_labels.h: a guest draw, a resolve, a swap).
  template <class MakeText>
  [[nodiscard]] DebugLabelRegion Label(MakeText&& make_text) {
    return DebugLabelRegion(context_.labels(), stream_, make_text);
  }

 protected:
  PathRenderer(VulkanContext& context, gpu::RendererOptions options);

  // Ends the dynamic-rendering instance a path has open, before transfers and dispatches.
  virtual void EndRendering() = 0;
  void Note(const std::string& what) { ++notes_[what]; }
  // The draw's guest constants in the ring (guest_constants.h: only the rows its shaders read,
  // only the parts that changed since their last copy in this submission), and the draw's own
  // set 1 (descriptor_set_ring.h) that WriteConstantsSet points at them. May flush when the ring
  // is full: a caller that allocated before checks stream_.submission_count() and allocates again.
  struct GuestConstants {
    VkDescriptorSet set = VK_NULL_HANDLE;
    GuestConstantBinding binding;
  };
  GuestConstants PlaceGuestConstants(const DrawInput& draw);
  // `size` bytes of the draw's own data at `alignment` in the ring and its guest constants
  // (`constants`), both in the same submission.
  CommandStream::Allocation AllocateDrawData(const DrawInput& draw, uint64_t size,
                                             uint64_t alignment, GuestConstants& constants);
  // Writes the draw's set 1: the guest constant parts where PlaceGuestConstants put them, the
  // system constants at `system_offset` into `allocation`, and a tessellated draw's domain inputs
  // at `domain_offset` (ReserveDomainInputs) over its `domain_bytes` (0: not tessellated).
  void WriteConstantsSet(const GuestConstants& constants,
                         const CommandStream::Allocation& allocation, uint64_t system_offset,
                         uint64_t domain_offset, uint64_t domain_bytes);
  // True when one of the plan's skip reasons in `order` holds for the draw: the first one's note
  // is counted, and the draw in `stats`. Each path asks in the order its checks always ran.
  bool SkipDraw(const gpu::DrawPlan& plan, std::initializer_list<gpu::DrawSkip> order,
                gpu::PathStats& stats);
  // `size` bytes at `alignment` in the ring, after flushing when it is full (the renderer's
  // Flush: rendering ended, the submission waited for).
  CommandStream::Allocation RingAllocate(uint64_t size, uint64_t alignment);
  // The ring alignment of a draw's uniform buffers: the device's minimum offset alignment, at
  // least 16 bytes.
  uint64_t UniformAlignment() const {
    return std::max<uint64_t>(16, context_.capabilities().min_uniform_buffer_offset_alignment);
  }
  // The same for storage buffers (a tessellated draw's domain inputs).
  uint64_t StorageAlignment() const {
    return std::max<uint64_t>(16, context_.capabilities().min_storage_buffer_offset_alignment);
  }
  // A tessellated draw's domain inputs (TranslationOptions::domain_inputs) in the draw's ring
  // allocation after its other `total` bytes: returns where they start (aligned for a storage
  // buffer; 0 without `tess`) and grows `total` by DomainInputBytes(tess) and `alignment` to the
  // storage buffers'.
  uint64_t ReserveDomainInputs(const gpu::TessellatedDraw* tess, uint64_t& total,
                               uint64_t& alignment) const;
  // The bytes of those inputs (0 without `tess`).
  static uint64_t DomainInputBytes(const gpu::TessellatedDraw* tess);
  // r0 then r1 of each generated vertex, as the translated prologue reads them.
  static void WriteDomainInputs(const gpu::TessellatedDraw& tess, uint8_t* dst);
  // How a draw's points or lines reach the rasterizer, decided once per draw: the PrimitiveQuads
  // (draw_state.h) and the geometry shader that draws them (made on first use for the vertex
  // shader's clip/cull distance counts, DrawInput; null for kNone). Rectangle lists (kind
  // kNone) get the rectangle-list geometry shader here too. Where the device cannot, the
  // reason points are not the guest's shape is noted.
  struct DrawQuads {
    PrimitiveQuads kind = PrimitiveQuads::kNone;
    VkShaderModule shader = VK_NULL_HANDLE;
  };
  DrawQuads QuadsOf(const gpu::DrawPlan& plan, const DrawInput& draw);
  // The polygon-mode geometry shader for the draw's modes and distances (QuadsOf).
  VkShaderModule PolygonModeShaderModule(const gpu::PolygonModes& modes, const DrawInput& draw);
  // PA_SU_LINE_CNTL's width for line draws, through wideLines (lavapipe draws a rectangle that
  // wide, as the cpu path's RasterizeLine does); the dynamic state is set for every draw.
  void SetLineWidth(VkCommandBuffer cmd, gpu::RegisterValues regs, gpu::HostTopology topology,
                    PrimitiveQuads quads);
  // The width SetLineWidth records (noting what the device cannot draw).
  float DrawLineWidth(gpu::RegisterValues regs, gpu::HostTopology topology, PrimitiveQuads quads);
  // raster.depth_clamp where the device has depthClamp; without it false, with a note (the
  // pipeline then clips depth).
  bool HostDepthClamp(const HostRasterizer& raster);
  // The device's kept module of these words (kept_objects.h): translated shaders and the host
  // shaders a path makes for itself.
  VkShaderModule CreateModule(const std::vector<uint32_t>& spirv);
  // Brings the shared-memory mirror up to date for a draw before anything of it is recorded
  // (first submitting what was recorded when the ring data passed kSubmissionRingBound or the
  // draws kSubmissionDrawBound):
  // pages no command of the submission has read go ahead of it (SharedMemory::SyncAhead, render
  // pass kept open), the rest in stream order after ending rendering; then marks the draw's
  // vertex fetch ranges as read. Returns the pages uploaded.
  uint32_t SyncSharedMemory(const DrawInput& draw, const gpu::GuestMemoryAccess& memory);
  // The draw's texture set (path_textures.cpp); *scaled_slots: bit i set when slot i is bound
  // to a scaled resolve copy.
  VkDescriptorSet BindTextures(const DrawInput& draw, gpu::RegisterValues regs,
                               const gpu::GuestMemoryAccess& memory, uint32_t* scaled_slots);

  VulkanContext& context_;
  VkDevice device_;
  gpu::RendererOptions options_;
  CommandStream stream_;
  SharedMemory shared_memory_;
  DrawSetLayouts layouts_;
  TextureCache textures_;
  SamplerCache samplers_;
  gpu::ScaledResolveMemory scaled_;
  // Those copies on the device for textures to sample (made by the path at a scale).
  std::unique_ptr<ScaledResolveMirror> scaled_mirror_;
  // Set 2 with every slot a dummy (draws sampling nothing).
  VkDescriptorSet textures_set_ = VK_NULL_HANDLE;
  std::map<std::string, uint64_t> notes_;
  // VkPhysicalDeviceLimits::lineWidthRange, read once: SetLineWidth runs for every draw.
  float line_width_range_[2] = {1.0f, 1.0f};

 private:
  void CreateDescriptorSets();
  VkDescriptorSet TextureSetFor(std::vector<VkDescriptorImageInfo>& images);
  // The image infos of a texture set with every slot a dummy.
  std::vector<VkDescriptorImageInfo> DummyImages();
  void WriteTextureSet(VkDescriptorSet set, const std::vector<VkDescriptorImageInfo>& images);

  GuestConstantUploads guest_constants_;
  // Set 1 of each draw of a submission.
  DescriptorSetRing constants_sets_;
  // Draws recorded into submission number draws_submission_ (kSubmissionDrawBound).
  uint32_t submission_draws_ = 0;
  uint64_t draws_submission_ = 0;
  // QuadsOf's geometry shaders by kind and distance counts.
  std::map<uint32_t, VkShaderModule> quad_shaders_;
  std::unordered_map<uint64_t, VkShaderModule> modules_;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  // Per-draw texture sets: one per distinct binding of a submission (texture_set_of_ finds the
  // submission's set for a binding it already wrote), from a ring whose sets are written again
  // once their submission has completed. No set limit of its own cuts a submission: a frame
  // whose draws bind hundreds of different textures (a real frame's materials) stays one
  // submission up to the draw bound, where a fixed pool of sets had to flush and wait for the
  // device every 256 of them.
  DescriptorSetRing texture_sets_;
  uint64_t texture_sets_submission_ = UINT64_MAX;
  std::map<std::vector<uint64_t>, VkDescriptorSet> texture_set_of_;
};

}  // namespace xnt::vk
