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
#include <map>
#include <string>
#include <vector>

#include "xnt/vk/command_stream.h"
#include "xnt/vk/shared_memory.h"
#include "xnt/vk/texture_load.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

// What a fetch constant says about a texture's texels (decoded from its 6 dwords).
struct TextureDescriptor {
  uint32_t base_address = 0;  // bytes
  uint32_t format = 0;        // xenos::TextureFormat
  uint32_t endian = 0;        // xenos::Endian
  uint32_t dimension = 1;     // xenos::DataDimension
  bool tiled = false;
  uint32_t width = 1, height = 1, layers = 1;
  uint32_t pitch_texels = 0;  // row pitch (fetch constant pitch << 5)
  uint32_t signed_mask = 0;   // bit c: component c has TextureSign kSigned (applied by the loader)
  uint32_t mip_address = 0;   // bytes; levels 1.. (0: base level only)
  uint32_t levels = 1;        // 1 + the highest mip level loaded
  bool packed_mips = false;   // the small levels share one packed tail
  uint32_t depth = 1;         // 3D textures: slices (then layers is 1)
  std::string inexact;        // what will not be loaded exactly (not part of the key)

  // Where texture level `level` lies in guest memory.
  struct Level {
    uint32_t address = 0;       // start of the level's storage (its layer 0)
    uint32_t pitch_blocks = 0;  // row pitch of the storage in blocks
    uint32_t height_blocks = 0; // rows of one layer's storage (tile-aligned)
    uint32_t layer_stride = 0;  // bytes between layers, 4 KiB-aligned
    uint32_t width = 0, height = 0;  // texels of this level
    uint32_t offset_x_blocks = 0, offset_y_blocks = 0;  // inside a packed tail
  };
  Level GetLevel(uint32_t level) const;
  // The first level stored in the packed tail (UINT32_MAX without packed mips): the smaller
  // side rounded up to a power of two is 16 texels there (Xenia texture_util GetPackedMipLevel).
  uint32_t PackedLevel() const;
  // Derived: the load shader's parameters for a level and the guest byte ranges read.
  TextureLoadConstants LoadConstants(uint32_t level = 0) const;
  // [address, address + size) of the base storage and, with mips, of the mip storage.
  std::vector<std::pair<uint32_t, uint64_t>> ByteRanges() const;
  uint64_t ByteSize() const;  // of the base storage

  // Throws xnt::Error for what the cache cannot load (naming the field).
  static TextureDescriptor FromFetchConstant(const uint32_t dwords[6]);
  bool operator<(const TextureDescriptor& o) const;
};

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
    std::string inexact;  // what the load could not do exactly (empty when exact)
  };

  TextureCache(VulkanContext& context, CommandStream& stream, SharedMemory& shared_memory);
  ~TextureCache();
  TextureCache(const TextureCache&) = delete;
  TextureCache& operator=(const TextureCache&) = delete;

  // The texture for a fetch constant, loaded (or reloaded) if needed. Records the compute
  // dispatch into the stream's command buffer (outside a render pass); the caller must have
  // synced `shared_memory` for the pages first. The result is valid until the next Get that
  // reloads it or until the cache is destroyed.
  const Texture& Get(const uint32_t fetch_dwords[6], const gpu::GuestPageSource& source);
  // Marks entries overlapping the range stale (resolves, memexport).
  void Invalidate(uint32_t address, uint64_t size);
  // Called before Get records a load (the renderer ends its render pass there); Get records
  // nothing when the texture is current, so a render pass can stay open across draws.
  void set_before_load(std::function<void()> fn) { before_load_ = std::move(fn); }
  // 1x1 zero textures for unbound slots, per shader_interface.h texture binding (0 = 2D array,
  // 1 = cube, 2 = 3D), in layout GENERAL.
  VkImageView dummy_view(uint32_t binding) const { return dummies_[binding % 3].view; }

  uint64_t load_count() const { return loads_; }
  size_t entry_count() const { return entries_.size(); }

 private:
  struct Dummy {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
  };
  void Load(const TextureDescriptor& desc, Texture& texture, bool create);
  void Destroy(Texture& texture);
  void CreateDummies();
  void AddPool();

  VulkanContext& context_;
  CommandStream& stream_;
  SharedMemory& shared_memory_;
  VkDevice device_;
  VkDescriptorSetLayout store_layout_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorPool> pools_;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkPipeline volume_pipeline_ = VK_NULL_HANDLE;
  std::map<TextureDescriptor, Texture> entries_;
  std::array<Dummy, 3> dummies_{};
  std::function<void()> before_load_;
  uint64_t loads_ = 0;
};

}  // namespace xnt::vk
