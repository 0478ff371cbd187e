// Texture cache (texture_cache.h).
#include "xnt/vk/texture_cache.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "xnt/vk/host_shaders.h"
#include "xnt/base/error.h"
#include "xnt/gpu/texture_formats.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk {

namespace {
// Host images are RGBA32F; refuse absurd sizes instead of allocating them.
// Host images are RGBA32F; refuse absurd sizes instead of allocating them.
constexpr uint64_t kMaxHostImageBytes = uint64_t(256) << 20;
// maxImageDimension2D every Vulkan 1.3 device has (a 1D texture is one row of a 2D image).
constexpr uint32_t kMaxHostTextureSide = 8192;
// Storage-image sets (one per texture level) per descriptor pool; more pools as needed.
constexpr uint32_t kStoreSetsPerPool = 1024;
uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
uint32_t Log2Ceil(uint32_t v) {
  uint32_t l = 0;
  while ((1u << l) < v) ++l;
  return l;
}
uint32_t Log2Floor(uint32_t v) {
  uint32_t l = 0;
  while (v >> (l + 1)) ++l;
  return l;
}
uint32_t NextPow2(uint32_t v) { return 1u << Log2Ceil(v); }

// Texel offset of packed mip `level` inside the tail (Xenia texture_util.cc GetPackedMipOffset;
// the layout was reverse-engineered there from DDS dumps): levels 16 texels and smaller sit in
// one 32x32 tile, the first three along the longer axis' perpendicular at 16 >> n, the smaller
// ones along the longer axis at (side >> (n - 2)).
void PackedMipOffset(uint32_t width, uint32_t height, uint32_t level, uint32_t& x, uint32_t& y) {
  uint32_t log2_w = Log2Ceil(width), log2_h = Log2Ceil(height);
  uint32_t log2_size = std::min(log2_w, log2_h);
  uint32_t base = log2_size > 4 ? log2_size - 4 : 0;
  uint32_t packed = level - base;
  x = y = 0;
  if (packed < 3) {
    (log2_w > log2_h ? y : x) = 16u >> packed;
  } else if (log2_w > log2_h) {
    x = (1u << (log2_w - base)) >> (packed - 2);
  } else {
    y = (1u << (log2_h - base)) >> (packed - 2);
  }
}
}  // namespace

TextureDescriptor TextureDescriptor::FromFetchConstant(const uint32_t dwords[6]) {
  auto f = xenos::TextureFetchConstant::Decode(dwords);
  if (f.type != xenos::FetchConstantType::kTexture) {
    throw Error("texture fetch constant: dword 0 type is " + std::to_string(uint32_t(f.type)) +
                ", not a texture (2)");
  }
  TextureDescriptor d;
  d.base_address = f.base_address_bytes();
  d.format = uint32_t(f.format);
  d.endian = uint32_t(f.endianness);
  d.dimension = uint32_t(f.dimension);
  d.tiled = f.tiled;
  d.width = f.width();
  d.height = f.height();
  d.pitch_texels = f.pitch << 5;
  const xenos::TextureSign signs[4] = {f.sign_x, f.sign_y, f.sign_z, f.sign_w};
  for (uint32_t c = 0; c < 4; ++c) {
    if (signs[c] == xenos::TextureSign::kSigned) d.signed_mask |= 1u << c;
  }
  const std::string fmt_name(xenos::TextureFormatName(d.format));
  if (!gpu::GetTextureFormatInfo(d.format).loadable) {
    throw Error("texture cache: format " + fmt_name + " (dword 1 bits 0..5 = " +
                std::to_string(d.format) + ") is not implemented");
  }
  switch (f.dimension) {
    case xenos::DataDimension::k2DOrStacked: d.layers = f.depth(); break;
    case xenos::DataDimension::kCube: d.layers = 6; break;
    case xenos::DataDimension::k1D:
      // A row of texels (Xenia: never tiled or packed); stored as a 2D array of height 1.
      if (d.width > kMaxHostTextureSide) {
        throw Error("texture cache: 1D texture width " + std::to_string(d.width) +
                    " (dword 2) exceeds the host image limit of " +
                    std::to_string(kMaxHostTextureSide));
      }
      break;
    case xenos::DataDimension::k3D: d.depth = f.depth(); break;
  }
  if (d.pitch_texels == 0) d.pitch_texels = AlignUp(d.width, 32);
  if (d.pitch_texels < d.width && !d.tiled) {
    throw Error("texture fetch constant: pitch " + std::to_string(d.pitch_texels) +
                " (dword 0 bits 22..30 << 5) is less than the width " + std::to_string(d.width));
  }
  // Mip levels (Xenia texture_util.cc GetSubresourcesFromFetchConstant): none without a mip
  // address; otherwise up to mip_max_level (dword 4 bits 6..9), clamped to the size's chain.
  uint32_t size_max_level = Log2Floor(std::max(d.width, d.height));
  if (f.mip_address != 0 && d.depth > 1) {
    d.inexact = "mip levels of a 3D texture not loaded (base level only)";
  } else if (f.mip_address != 0) {
    uint32_t min_level = std::min(f.mip_min_level, size_max_level);
    uint32_t max_level = std::max(std::min(f.mip_max_level, size_max_level), min_level);
    d.levels = max_level + 1;
    if (d.levels > 1) {
      if (f.base_address == 0) {
        throw Error("texture cache: a mip chain without a base level (dword 1 base address 0) "
                    "is not implemented");
      }
      d.mip_address = f.mip_address_bytes();
      d.packed_mips = f.packed_mips;
    }
  }
  uint64_t texels = 0;
  for (uint32_t l = 0; l < d.levels; ++l) {
    texels += uint64_t(std::max(d.width >> l, 1u)) * std::max(d.height >> l, 1u);
  }
  if (texels * d.layers * d.depth * 16 > kMaxHostImageBytes) {
    throw Error("texture cache: " + std::to_string(d.width) + "x" + std::to_string(d.height) +
                "x" + std::to_string(d.layers) + " texture exceeds the 256 MiB host image limit");
  }
  for (const auto& [address, size] : d.ByteRanges()) {
    if (uint64_t(address) + size > SharedMemory::kSize) {
      throw Error("texture fetch constant: texture data at " + std::to_string(address) +
                  " extends past the 512 MiB of guest memory");
    }
  }
  return d;
}

uint32_t TextureDescriptor::PackedLevel() const {
  if (!packed_mips) return UINT32_MAX;
  uint32_t log2_size = std::min(Log2Ceil(width), Log2Ceil(height));
  return log2_size > 4 ? log2_size - 4 : 0;
}

TextureDescriptor::Level TextureDescriptor::GetLevel(uint32_t level) const {
  // Xenia texture_util.cc GetGuestTextureLayout: the base takes its row pitch from the fetch
  // constant; mips have strides of a power-of-two-sized texture's mip; every storage is aligned
  // to 32x32 blocks and each layer to 4 KiB; mip storages follow each other from the mip
  // address, all of a level's layers together; levels from the packed level on share the
  // packed level's storage at offsets inside it.
  gpu::TextureFormatInfo info = gpu::GetTextureFormatInfo(format);
  const uint32_t packed_level = PackedLevel();
  auto storage = [&](uint32_t s, bool is_base, Level& out) {
    uint32_t pitch_texels_s = is_base ? pitch_texels : std::max(NextPow2(width) >> s, 1u);
    uint32_t rows_texels = is_base ? height : std::max(NextPow2(height) >> s, 1u);
    uint32_t pitch_blocks = AlignUp((pitch_texels_s + info.block_width - 1) / info.block_width, 32);
    uint32_t rows = AlignUp((rows_texels + info.block_height - 1) / info.block_height, 32);
    if (dimension == uint32_t(xenos::DataDimension::k1D)) rows = 1;
    if (!tiled && is_base) {
      // Linear base: the fetch constant's pitch as it is, rows 256-byte-aligned below (xenia.md
      // §4.6; Xenia instead tile-aligns the pitch and trusts D3D to have made the rows 256-byte
      // multiples, which gives the same stride for the pitches D3D sets).
      pitch_blocks = (pitch_texels_s + info.block_width - 1) / info.block_width;
    }
    uint32_t row_bytes = pitch_blocks << info.bpb_log2;
    if (!tiled) row_bytes = AlignUp(row_bytes, 256);
    out.pitch_blocks = pitch_blocks;
    out.height_blocks = rows;
    // 3D: layer_stride is the (unaligned) depth-slice stride; the whole volume spans
    // align(depth, 4) slices rounded to 4 KiB (ByteSize).
    out.layer_stride = depth > 1 ? row_bytes * rows : AlignUp(row_bytes * rows, 4096);
  };
  Level l;
  l.width = std::max(width >> level, 1u);
  l.height = std::max(height >> level, 1u);
  if (level == 0) {
    storage(0, true, l);
    l.address = base_address;
  } else {
    uint32_t last = std::min(level, packed_level);
    uint32_t offset = 0;
    // Mip storages from level 1 (or the packed level 0 tail) up to this one.
    for (uint32_t s = packed_level == 0 ? 0 : 1; s < last; ++s) {
      Level prev;
      storage(s, false, prev);
      offset += prev.layer_stride * layers;
    }
    storage(last, false, l);
    l.address = mip_address + offset;
  }
  if (level >= packed_level) {
    uint32_t x = 0, y = 0;
    PackedMipOffset(width, height, level, x, y);
    l.offset_x_blocks = x / info.block_width;
    l.offset_y_blocks = y / info.block_height;
  }
  return l;
}

TextureLoadConstants TextureDescriptor::LoadConstants(uint32_t level) const {
  gpu::TextureFormatInfo info = gpu::GetTextureFormatInfo(format);
  Level l = GetLevel(level);
  TextureLoadConstants c{};
  c.base_address = l.address;
  c.width = l.width;
  c.height = l.height;
  c.layers = depth > 1 ? depth : layers;
  c.height_blocks = l.height_blocks;
  c.format = format;
  c.endian = endian;
  c.tiled = tiled ? 1 : 0;
  c.bpb_log2 = info.bpb_log2;
  c.signed_mask = signed_mask;
  c.block_width = info.block_width;
  c.block_height = info.block_height;
  c.pitch_blocks = l.pitch_blocks;
  c.layer_stride = l.layer_stride;
  c.offset_x_blocks = l.offset_x_blocks;
  c.offset_y_blocks = l.offset_y_blocks;
  return c;
}

uint64_t TextureDescriptor::ByteSize() const {
  if (depth > 1) return AlignUp(GetLevel(0).layer_stride * AlignUp(depth, 4), 4096);
  return uint64_t(GetLevel(0).layer_stride) * layers;
}

std::vector<std::pair<uint32_t, uint64_t>> TextureDescriptor::ByteRanges() const {
  std::vector<std::pair<uint32_t, uint64_t>> ranges{{base_address, ByteSize()}};
  if (levels > 1) {
    // The last mip storage: the packed tail's level, or level 1's when the tail holds the base.
    uint32_t last = std::max(std::min(levels - 1, PackedLevel()), 1u);
    Level l = GetLevel(last);
    ranges.push_back({mip_address, uint64_t(l.address - mip_address) +
                                       uint64_t(l.layer_stride) * layers});
  }
  return ranges;
}

bool TextureDescriptor::operator<(const TextureDescriptor& o) const {
  return std::tie(base_address, format, endian, dimension, tiled, width, height, layers,
                  pitch_texels, signed_mask, mip_address, levels, packed_mips, depth) <
         std::tie(o.base_address, o.format, o.endian, o.dimension, o.tiled, o.width, o.height,
                  o.layers, o.pitch_texels, o.signed_mask, o.mip_address, o.levels,
                  o.packed_mips, o.depth);
}

TextureCache::TextureCache(VulkanContext& context, CommandStream& stream,
                           SharedMemory& shared_memory)
    : context_(context), stream_(stream), shared_memory_(shared_memory),
      device_(context.device()) {
  VkDescriptorSetLayoutBinding binding{};
  binding.binding = 0;
  binding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  binding.descriptorCount = 1;
  binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  VkDescriptorSetLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  layout_info.bindingCount = 1;
  layout_info.pBindings = &binding;
  CheckVk(vkCreateDescriptorSetLayout(device_, &layout_info, nullptr, &store_layout_),
          "vkCreateDescriptorSetLayout(texture load)");
  AddPool();
  VkDescriptorSetLayout sets[2] = {shared_memory_.set_layout(), store_layout_};
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(TextureLoadConstants)};
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 2;
  pl.pSetLayouts = sets;
  pl.pushConstantRangeCount = 1;
  pl.pPushConstantRanges = &push;
  CheckVk(vkCreatePipelineLayout(device_, &pl, nullptr, &pipeline_layout_),
          "vkCreatePipelineLayout(texture load)");
  // Two variants: 2D-array destinations and 3D (volume) destinations.
  for (int volume = 0; volume < 2; ++volume) {
    std::vector<uint32_t> spirv = CompileHostGlsl(TextureLoadShaderSource(volume != 0),
                                                  VK_SHADER_STAGE_COMPUTE_BIT, "texture_load");
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = spirv.size() * sizeof(uint32_t);
    module_info.pCode = spirv.data();
    VkShaderModule module;
    CheckVk(vkCreateShaderModule(device_, &module_info, nullptr, &module),
            "vkCreateShaderModule(texture load)");
    VkComputePipelineCreateInfo cp{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cp.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cp.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cp.stage.module = module;
    cp.stage.pName = "main";
    cp.layout = pipeline_layout_;
    VkPipeline& target = volume ? volume_pipeline_ : pipeline_;
    VkResult r = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cp, nullptr, &target);
    vkDestroyShaderModule(device_, module, nullptr);
    CheckVk(r, "vkCreateComputePipelines(texture load)");
  }
  CreateDummies();
}

void TextureCache::AddPool() {
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, kStoreSetsPerPool};
  VkDescriptorPoolCreateInfo pool{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool.maxSets = kStoreSetsPerPool;
  pool.poolSizeCount = 1;
  pool.pPoolSizes = &size;
  VkDescriptorPool handle = VK_NULL_HANDLE;
  CheckVk(vkCreateDescriptorPool(device_, &pool, nullptr, &handle),
          "vkCreateDescriptorPool(texture cache)");
  pools_.push_back(handle);
}

void TextureCache::CreateDummies() {
  VkCommandBuffer cmd = stream_.cmd();
  for (uint32_t i = 0; i < 3; ++i) {
    Dummy& d = dummies_[i];
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = i == 2 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
    info.format = VK_FORMAT_R32G32B32A32_SFLOAT;
    info.extent = {1, 1, 1};
    info.mipLevels = 1;
    info.arrayLayers = i == 1 ? 6 : 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (i == 1) info.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
    CheckVk(vkCreateImage(device_, &info, nullptr, &d.image), "vkCreateImage(dummy texture)");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device_, d.image, &req);
    VkMemoryAllocateInfo mem{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mem.allocationSize = req.size;
    mem.memoryTypeIndex =
        context_.FindMemoryType(req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    CheckVk(vkAllocateMemory(device_, &mem, nullptr, &d.memory), "vkAllocateMemory(dummy)");
    CheckVk(vkBindImageMemory(device_, d.image, d.memory, 0), "vkBindImageMemory(dummy)");
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = d.image;
    view.viewType = i == 0 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY
                    : i == 1 ? VK_IMAGE_VIEW_TYPE_CUBE
                             : VK_IMAGE_VIEW_TYPE_3D;
    view.format = info.format;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, info.arrayLayers};
    CheckVk(vkCreateImageView(device_, &view, nullptr, &d.view), "vkCreateImageView(dummy)");
    VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = d.image;
    barrier.subresourceRange = view.subresourceRange;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         0, 0, nullptr, 0, nullptr, 1, &barrier);
    VkClearColorValue zero{};
    vkCmdClearColorImage(cmd, d.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1,
                         &barrier.subresourceRange);
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                             VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT |
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 0, nullptr, 0, nullptr, 1, &barrier);
  }
}

TextureCache::~TextureCache() {
  vkDeviceWaitIdle(device_);
  for (auto& [desc, texture] : entries_) Destroy(texture);
  for (Dummy& d : dummies_) {
    if (d.view) vkDestroyImageView(device_, d.view, nullptr);
    if (d.image) vkDestroyImage(device_, d.image, nullptr);
    if (d.memory) vkFreeMemory(device_, d.memory, nullptr);
  }
  if (pipeline_) vkDestroyPipeline(device_, pipeline_, nullptr);
  if (volume_pipeline_) vkDestroyPipeline(device_, volume_pipeline_, nullptr);
  if (pipeline_layout_) vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
  for (VkDescriptorPool pool : pools_) vkDestroyDescriptorPool(device_, pool, nullptr);
  if (store_layout_) vkDestroyDescriptorSetLayout(device_, store_layout_, nullptr);
}

void TextureCache::Destroy(Texture& t) {
  for (size_t i = 0; i < t.store_sets.size(); ++i) {
    vkFreeDescriptorSets(device_, t.store_pools[i], 1, &t.store_sets[i]);
  }
  for (VkImageView v : t.level_views) vkDestroyImageView(device_, v, nullptr);
  if (t.view) vkDestroyImageView(device_, t.view, nullptr);
  if (t.cube_view) vkDestroyImageView(device_, t.cube_view, nullptr);
  if (t.image) vkDestroyImage(device_, t.image, nullptr);
  if (t.memory) vkFreeMemory(device_, t.memory, nullptr);
  t = Texture{};
}

const TextureCache::Texture& TextureCache::Get(const uint32_t fetch_dwords[6],
                                               const gpu::GuestPageSource& source) {
  TextureDescriptor desc = TextureDescriptor::FromFetchConstant(fetch_dwords);
  auto it = entries_.find(desc);
  bool create = it == entries_.end();
  if (create) it = entries_.emplace(desc, Texture{}).first;
  Texture& t = it->second;
  bool reload = create || t.stale;
  if (!reload) {
    size_t i = 0;
    for (const auto& [first, count] : t.page_ranges) {
      for (uint32_t p = 0; p < count && !reload; ++p, ++i) {
        reload = source.page_generation(first + p) != t.page_generations[i];
      }
      if (reload) break;
    }
  }
  if (reload) {
    t.page_ranges.clear();
    t.page_generations.clear();
    for (const auto& [address, size] : desc.ByteRanges()) {
      uint32_t first = address / gpu::GuestPageSource::kPageSize;
      uint64_t end = uint64_t(address) + std::max<uint64_t>(size, 1);
      uint32_t count =
          uint32_t((end + gpu::GuestPageSource::kPageSize - 1) / gpu::GuestPageSource::kPageSize) - first;
      t.page_ranges.push_back({first, count});
      for (uint32_t p = 0; p < count; ++p) {
        t.page_generations.push_back(source.page_generation(first + p));
      }
    }
    t.stale = false;
    if (before_load_) before_load_();
    try {
      Load(desc, t, create);
    } catch (...) {
      // A failed creation must not leave a half-made entry behind (the next Get would record a
      // load into it); the error reaches the caller, who reports it.
      if (create) {
        Destroy(t);  // nothing recorded uses it yet
        entries_.erase(it);
      } else {
        t.stale = true;
      }
      throw;
    }
  }
  return t;
}

void TextureCache::Invalidate(uint32_t address, uint64_t size) {
  uint64_t first = address / gpu::GuestPageSource::kPageSize;
  uint64_t last = (uint64_t(address) + std::max<uint64_t>(size, 1) - 1) /
                  gpu::GuestPageSource::kPageSize;
  for (auto& [desc, t] : entries_) {
    for (const auto& [p, count] : t.page_ranges) {
      if (count && first < uint64_t(p) + count && last >= p) t.stale = true;
    }
  }
}
void TextureCache::Load(const TextureDescriptor& desc, Texture& t, bool create) {
  if (create) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    const bool volume = desc.depth > 1;
    info.imageType = volume ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
    info.format = VK_FORMAT_R32G32B32A32_SFLOAT;
    info.extent = {desc.width, desc.height, desc.depth};
    info.mipLevels = desc.levels;
    info.arrayLayers = desc.layers;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    if (desc.layers == 6 && desc.width == desc.height) {
      info.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
    }
    CheckVk(vkCreateImage(device_, &info, nullptr, &t.image), "vkCreateImage(texture)");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device_, t.image, &req);
    VkMemoryAllocateInfo mem{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mem.allocationSize = req.size;
    mem.memoryTypeIndex =
        context_.FindMemoryType(req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    CheckVk(vkAllocateMemory(device_, &mem, nullptr, &t.memory), "vkAllocateMemory(texture)");
    CheckVk(vkBindImageMemory(device_, t.image, t.memory, 0), "vkBindImageMemory(texture)");
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = t.image;
    view.viewType = volume ? VK_IMAGE_VIEW_TYPE_3D : VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    view.format = info.format;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, desc.levels, 0, desc.layers};
    CheckVk(vkCreateImageView(device_, &view, nullptr, &t.view), "vkCreateImageView(texture)");
    if (info.flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) {
      view.viewType = VK_IMAGE_VIEW_TYPE_CUBE;
      CheckVk(vkCreateImageView(device_, &view, nullptr, &t.cube_view),
              "vkCreateImageView(cube texture)");
    }
    // The loader writes one level per dispatch through a single-level storage view.
    for (uint32_t level = 0; level < desc.levels; ++level) {
      VkImageViewCreateInfo level_view = view;
      level_view.viewType = volume ? VK_IMAGE_VIEW_TYPE_3D : VK_IMAGE_VIEW_TYPE_2D_ARRAY;
      level_view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, level, 1, 0, desc.layers};
      VkImageView v = VK_NULL_HANDLE;
      CheckVk(vkCreateImageView(device_, &level_view, nullptr, &v),
              "vkCreateImageView(texture level)");
      t.level_views.push_back(v);
      VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      alloc.descriptorPool = pools_.back();
      alloc.descriptorSetCount = 1;
      alloc.pSetLayouts = &store_layout_;
      VkDescriptorSet set = VK_NULL_HANDLE;
      VkResult r = vkAllocateDescriptorSets(device_, &alloc, &set);
      if (r == VK_ERROR_OUT_OF_POOL_MEMORY || r == VK_ERROR_FRAGMENTED_POOL) {
        AddPool();  // the cache keeps every texture: grow instead of failing
        alloc.descriptorPool = pools_.back();
        r = vkAllocateDescriptorSets(device_, &alloc, &set);
      }
      CheckVk(r, "vkAllocateDescriptorSets(texture load)");
      t.store_sets.push_back(set);
      t.store_pools.push_back(alloc.descriptorPool);
      VkDescriptorImageInfo image_info{VK_NULL_HANDLE, v, VK_IMAGE_LAYOUT_GENERAL};
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = set;
      write.descriptorCount = 1;
      write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
      write.pImageInfo = &image_info;
      vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
    }
    t.width = desc.width;
    t.height = desc.height;
    t.layers = desc.layers;
    t.levels = desc.levels;
    t.depth = desc.depth;
    t.inexact = desc.inexact;
    gpu::TextureFormatInfo info_format = gpu::GetTextureFormatInfo(desc.format);
    bool integer_unorm = info_format.block_width == 1 &&
                         !(desc.format >= 22 && desc.format <= 23) &&
                         !(desc.format >= 27 && desc.format <= 40) && desc.format != 11 &&
                         desc.format != 12;
    if (desc.signed_mask && !integer_unorm) {
      t.inexact += std::string(t.inexact.empty() ? "" : "; ") + std::string("TextureSign signed on ") +
                  std::string(xenos::TextureFormatName(desc.format)) +
                  " (not an integer unorm format) ignored";
    }
  }
  VkCommandBuffer cmd = stream_.cmd();
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = create ? 0 : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.oldLayout = create ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_GENERAL;
  barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = t.image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, t.levels, 0, t.layers};
  // Shared-memory uploads (transfer writes) must be visible to the compute reads.
  VkMemoryBarrier memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  memory.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  memory.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  vkCmdPipelineBarrier(cmd,
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT |
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &memory, 0, nullptr, 1,
                       &barrier);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                    desc.depth > 1 ? volume_pipeline_ : pipeline_);
  for (uint32_t level = 0; level < desc.levels; ++level) {
    TextureLoadConstants constants = desc.LoadConstants(level);
    VkDescriptorSet sets[2] = {shared_memory_.descriptor_set(), t.store_sets[level]};
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout_, 0, 2, sets, 0,
                            nullptr);
    vkCmdPushConstants(cmd, pipeline_layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants),
                       &constants);
    vkCmdDispatch(cmd, (constants.width + 7) / 8, (constants.height + 7) / 8, constants.layers);
  }
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT |
                           VK_PIPELINE_STAGE_TRANSFER_BIT,
                       0, 0, nullptr, 0, nullptr, 1, &barrier);
  ++loads_;
}

}  // namespace xnt::vk
