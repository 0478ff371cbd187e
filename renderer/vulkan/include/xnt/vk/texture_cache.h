// Texture cache: guest textures read from the shared-memory mirror exactly as the console lays
// them out (memory is memory: resolved data and trace-written data alike), decoded by a compute
// shader (texture_load.h) into host RGBA32F 2D-array images.
//
// Keyed by the fetch constant's fields that affect the texels (address, format, endian, size,
// pitch, tiling, dimension) plus the memory range; an entry records the guest pages it covers and
// their generations and is reloaded when one changed or when Invalidate() overlapped it.
//
// Implemented: 2D and stacked / cube (one layer per face) textures, linear and 32x32-tiled, mip
// levels from the fetch constant's mip address with packed mip tails (Xenia texture_util.cc
// GetGuestTextureLayout / GetPackedMipOffset); TextureSign kSigned per component (the loader
// knows the bit widths); 3D textures (32x32x4 tiles, Xenia GetTiledOffset3D) as host 3D images,
// base level only; 1D textures as one-row 2D arrays. Not implemented (Get() throws xnt::Error
// saying so): mips without a base level, the formats texture_formats.h marks not loadable.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "xnt/gpu/texture_descriptor.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/shared_memory.h"
#include "xnt/vk/texture_load.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

using gpu::TextureDescriptor;
// The load shader's parameters for one level of `d`.
TextureLoadConstants LoadConstantsOf(const gpu::TextureDescriptor& d, uint32_t level = 0);

class TextureCache {
 public:
  struct Texture {
    VkImage image = VK_NULL_HANDLE;
    // VK_IMAGE_VIEW_TYPE_2D_ARRAY (1D, 2D, stacked, cube faces) or _3D (volumes), RGBA32F, all
    // loaded levels, layout GENERAL.
    VkImageView view = VK_NULL_HANDLE;
    VkImageView cube_view = VK_NULL_HANDLE;  // VK_IMAGE_VIEW_TYPE_CUBE for cube maps, else null
    VkDeviceMemory memory = VK_NULL_HANDLE;
    std::vector<VkImageView> level_views;    // one 2D-array view per mip level (the loader's)
    std::vector<VkDescriptorSet> store_sets;  // one per level
    std::vector<VkDescriptorPool> store_pools;  // the pool each came from
    uint32_t width = 0, height = 0, layers = 0, levels = 0, depth = 1;
    std::vector<std::pair<uint32_t, uint32_t>> page_ranges;  // first page, count
    std::vector<uint64_t> page_generations;                  // per page, in range order
    bool stale = false;
    bool scaled = false;  // loaded from a scaled resolve copy's buffer (Get's `memory`)
    // The CommandStream::submission_count() of the last submission that used the image (a load,
    // a draw that sampled it): a texture first used by a submission may be loaded ahead of it.
    uint64_t used_submission = UINT64_MAX;
    std::string inexact;  // what the load could not do exactly (empty when exact)
  };

  TextureCache(VulkanContext& context, CommandStream& stream, SharedMemory& shared_memory);
  ~TextureCache();
  // Waits for the loader's start-up compile and folds its pipeline cache into the device's, as
  // the destructor does (before VulkanContext::SaveBeforeExit, so the saved cache holds it).
  void FinishStartupCompile() { JoinPendingPipeline(); }
  TextureCache(const TextureCache&) = delete;
  TextureCache& operator=(const TextureCache&) = delete;

  // The texture for a fetch constant, loaded (or reloaded) if needed; the caller must have
  // synced `shared_memory` for the pages first. A load is recorded ahead of the submission (in
  // the stream's upload buffer, after its copies) when nothing of the submission has used the
  // image yet and the mirror holds the texture's bytes from the submission's start
  // (SharedMemory::ReadableAhead): then nothing is recorded in the stream here and the caller's
  // render pass stays open. Otherwise the compute dispatch goes into the stream's command buffer,
  // after before_load (outside a render pass). The result is valid until the next Get that
  // reloads it or until the cache is destroyed.
  //
  // Why ahead: a load between draws ends the render pass and makes the device finish every draw
  // before it (a barrier from all graphics to compute); a frame that binds hundreds of textures
  // it has just uploaded (a capture's first frame, a title streaming its materials) paid that per
  // texture. Ahead, the submission's loads are one batch between two barriers.
  const Texture& Get(const uint32_t fetch_dwords[6], const gpu::GuestPageSource& source);
  // The same from another mirror laid out as shared memory: the scaled resolve copies of the fbo
  // path at a resolution scale (its fetch constants address that buffer; `source` its pages).
  // Its entries are kept apart from the guest ones and reload when those pages change.
  const Texture& GetScaled(const uint32_t fetch_dwords[6], const gpu::GuestPageSource& source,
                           SharedMemory& memory);
  // Marks entries overlapping the range stale (resolves, memexport).
  void Invalidate(uint32_t address, uint64_t size);
  // Called before Get records a load (the renderer ends its render pass there); Get records
  // nothing when the texture is current, so a render pass can stay open across draws.
  void set_before_load(std::function<void()> fn) { before_load_ = std::move(fn); }
  // 1x1 zero textures for unbound slots, per shader_interface.h texture binding (0 = 2D array,
  // 1 = cube, 2 = 3D), in layout GENERAL.
  VkImageView dummy_view(uint32_t binding) const { return dummies_[binding % 3].view; }

  uint64_t load_count() const { return loads_; }
  uint64_t ahead_load_count() const { return ahead_loads_; }
  size_t entry_count() const { return entries_.size(); }

 private:
  struct Dummy {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
  };
  const Texture& Get(const uint32_t fetch_dwords[6], const gpu::GuestPageSource& source,
                     SharedMemory& memory, bool scaled);
  void Load(const TextureDescriptor& desc, Texture& texture, bool create, SharedMemory& memory);
  // "texture load 0xADDRESS FORMAT WxH": a load's debug label.
  static std::string LoadLabel(const TextureDescriptor& desc);
  // The image, its views and the loader's per-level storage sets of a new entry.
  void CreateImage(const TextureDescriptor& desc, Texture& texture);
  // The barriers around loads: each image's own before them (LoadBarrier), with the mirror's
  // writes made visible to the loader; after them, the texels to the draws.
  static VkImageMemoryBarrier LoadBarrier(const Texture& texture, bool create);
  static void BarrierBeforeLoads(VkCommandBuffer cmd, std::span<const VkImageMemoryBarrier> images);
  static void BarrierAfterLoads(VkCommandBuffer cmd, std::span<VkImageMemoryBarrier> images);
  // The dispatches of one load, one per level, with `pipeline` bound.
  void RecordDispatches(VkCommandBuffer cmd, const TextureDescriptor& desc, const Texture& texture,
                        VkPipeline pipeline, VkDescriptorSet source_set) const;
  // Records the loads moved ahead into the submission's upload buffer (the stream's
  // set_ahead_commands), between one barrier before them all and one after.
  void RecordAheadLoads(VkCommandBuffer cmd);
  void Destroy(Texture& texture);
  void CreateDummies();
  void AddPool();
  // The load pipeline for 2D-array (volume false) or 3D destinations, created on first use; the
  // 2D one is usually already compiled by then on the thread the constructor started.
  VkPipeline LoadPipeline(bool volume);
  // The device's kept load pipeline (kept_objects.h), made through `cache` when it has none: the
  // device's, or the start-up thread's own (VK_NULL_HANDLE: uncached).
  VkPipeline CreateLoadPipeline(bool volume, VkPipelineCache cache) const;
  // The kept module of the loader's variant (volume: 3D destinations), and the key its pipeline
  // is kept under.
  VkShaderModule LoadModule(bool volume) const;
  std::string LoadPipelineKey(VkShaderModule module) const;
  // Waits for that thread (the destructor: nothing may outlive the device) and merges its
  // pipeline cache into the device's.
  void JoinPendingPipeline();
  // Folds the start-up thread's cache into the device's once the thread is done.
  void MergePendingCache();

  VulkanContext& context_;
  CommandStream& stream_;
  SharedMemory& shared_memory_;
  VkDevice device_;
  VkDescriptorSetLayout store_layout_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorPool> pools_;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkPipeline volume_pipeline_ = VK_NULL_HANDLE;
  std::future<VkPipeline> pending_pipeline_;  // the 2D pipeline while its thread compiles it
  VkPipelineCache pending_cache_ = VK_NULL_HANDLE;  // that thread's own (pipeline_cache_file.h)
  std::map<std::pair<bool, TextureDescriptor>, Texture> entries_;  // (scaled, descriptor)
  std::array<Dummy, 3> dummies_{};
  std::function<void()> before_load_;
  // The current submission's loads moved ahead of it (entries_ never moves a Texture).
  struct AheadLoad {
    Texture* texture;
    TextureDescriptor desc;
    bool create;
    VkPipeline pipeline;
  };
  std::vector<AheadLoad> ahead_;
  uint64_t loads_ = 0;
  uint64_t ahead_loads_ = 0;
};

}  // namespace xnt::vk
