// Texture cache (texture_cache.h).
#include "xnt/vk/texture_cache.h"

#include <algorithm>
#include <cstdio>
#include <future>
#include <span>
#include <string>
#include <system_error>
#include <tuple>

#include "xnt/vk/host_shaders.h"
#include "xnt/vk/kept_objects.h"
#include "xnt/vk/pipeline_cache_file.h"
#include "xnt/base/error.h"
#include "xnt/gpu/texture_descriptor.h"
#include "xnt/gpu/texture_formats.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk {

namespace {
// Storage-image sets (one per texture level) per descriptor pool; more pools as needed.
constexpr uint32_t kStoreSetsPerPool = 1024;
}  // namespace

TextureLoadConstants LoadConstantsOf(const gpu::TextureDescriptor& d, uint32_t level) {
  const gpu::TextureFormatInfo info = gpu::GetTextureFormatInfo(d.format);
  const gpu::TextureDescriptor::Level l = d.GetLevel(level);
  TextureLoadConstants c{};
  c.base_address = l.address;
  c.width = l.width;
  c.height = l.height;
  c.layers = d.volume() ? l.depth : d.layers;
  c.height_blocks = l.height_blocks;
  c.format = d.format;
  c.endian = d.endian;
  c.tiled = d.tiled ? 1 : 0;
  c.bpb_log2 = info.bpb_log2;
  c.signed_mask = d.signed_mask;
  c.block_width = info.block_width;
  c.block_height = info.block_height;
  c.pitch_blocks = l.pitch_blocks;
  c.layer_stride = l.layer_stride;
  c.offset_x_blocks = l.offset_x_blocks;
  c.offset_y_blocks = l.offset_y_blocks;
  c.offset_z = l.offset_z;
  return c;
}

TextureCache::TextureCache(VulkanContext& context, CommandStream& stream,
                           SharedMemory& shared_memory)
    : context_(context), stream_(stream), shared_memory_(shared_memory),
      device_(context.device()) {
  stream_.set_ahead_commands([this](VkCommandBuffer cmd) { RecordAheadLoads(cmd); });
  VkDescriptorSetLayoutBinding binding{};
  binding.binding = 0;
  binding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  binding.descriptorCount = 1;
  binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  // Layouts and the load pipelines are kept with the device for its later sessions
  // (kept_objects.h).
  store_layout_ =
      context_.kept().SetLayout({&binding, 1}, "vkCreateDescriptorSetLayout(texture load)");
  AddPool();
  const VkDescriptorSetLayout sets[2] = {shared_memory_.set_layout(), store_layout_};
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(TextureLoadConstants)};
  pipeline_layout_ =
      context_.kept().PipelineLayout(sets, {&push, 1}, "vkCreatePipelineLayout(texture load)");
  // The 2D loader is what nearly every trace needs, and its compile is most of the cache's cost
  // at start-up (lavapipe: tens of ms of NIR and LLVM work): it runs on a second thread while
  // the caller goes on (device set-up, reading the trace, translating and compiling the first
  // draw's shaders). Pipeline creation needs no external synchronisation of the device; the
  // thread compiles through a pipeline cache of its own, never the one the caller goes on using
  // (CreateWorkerPipelineCache says why). Without a thread the first load creates it. A kept
  // device (an earlier session's) has it made already.
  if (!context_.kept().HasPipeline(LoadPipelineKey(LoadModule(false)))) {
    pending_cache_ = CreateWorkerPipelineCache(device_, context_.pipeline_cache());
    try {
      // Without a cache of its own (the driver refused one) it compiles uncached rather than
      // share.
      pending_pipeline_ = std::async(std::launch::async, [this, cache = pending_cache_] {
        return CreateLoadPipeline(false, cache);
      });
    } catch (const std::system_error&) {
    }
  }
  try {
    CreateDummies();
  } catch (...) {
    JoinPendingPipeline();  // the thread must not outlive a failed constructor's members
    throw;
  }
}

VkShaderModule TextureCache::LoadModule(bool volume) const {
  // Two variants: 2D-array destinations and 3D (volume) destinations, built by glslc.
  return context_.kept().Module(TextureLoadSpirv(volume));
}

std::string TextureCache::LoadPipelineKey(VkShaderModule module) const {
  std::string key = "texture load";
  AppendKeyBytes(key, pipeline_layout_, module);
  return key;
}

VkPipeline TextureCache::CreateLoadPipeline(bool volume, VkPipelineCache cache) const {
  const VkShaderModule module = LoadModule(volume);
  return context_.kept().Pipeline(LoadPipelineKey(module), [&] {
    return CreateComputePipeline(device_, cache, module, pipeline_layout_, false,
                                 "vkCreateComputePipelines(texture load)");
  });
}

VkPipeline TextureCache::LoadPipeline(bool volume) {
  VkPipeline& pipeline = volume ? volume_pipeline_ : pipeline_;
  if (!volume && pending_pipeline_.valid()) {
    VkPipeline compiled = VK_NULL_HANDLE;
    try {
      compiled = pending_pipeline_.get();  // rethrows the thread's error, once
    } catch (...) {
      MergePendingCache();
      throw;
    }
    MergePendingCache();
    pipeline = compiled;
  }
  if (!pipeline) pipeline = CreateLoadPipeline(volume, context_.pipeline_cache());
  return pipeline;
}

void TextureCache::MergePendingCache() {
  MergeWorkerPipelineCache(device_, context_.pipeline_cache(), pending_cache_);
  pending_cache_ = VK_NULL_HANDLE;
}

void TextureCache::JoinPendingPipeline() {
  if (pending_pipeline_.valid()) {
    try {
      pipeline_ = pending_pipeline_.get();
    } catch (...) {
      // Its error does not matter any more: the cache is going away.
    }
  }
  MergePendingCache();
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
    context_.CreateImage(info, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, d.image, d.memory,
                         "dummy texture image");
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
  stream_.set_ahead_commands({});
  JoinPendingPipeline();
  context_.WaitIdle();
  for (auto& [desc, texture] : entries_) Destroy(texture);
  for (Dummy& d : dummies_) {
    if (d.view) vkDestroyImageView(device_, d.view, nullptr);
    if (d.image) vkDestroyImage(device_, d.image, nullptr);
    if (d.memory) vkFreeMemory(device_, d.memory, nullptr);
  }
  for (VkDescriptorPool pool : pools_) vkDestroyDescriptorPool(device_, pool, nullptr);
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
  return Get(fetch_dwords, source, shared_memory_, false);
}

const TextureCache::Texture& TextureCache::GetScaled(const uint32_t fetch_dwords[6],
                                                     const gpu::GuestPageSource& source,
                                                     SharedMemory& memory) {
  return Get(fetch_dwords, source, memory, true);
}

const TextureCache::Texture& TextureCache::Get(const uint32_t fetch_dwords[6],
                                               const gpu::GuestPageSource& source,
                                               SharedMemory& memory, bool scaled) {
  TextureDescriptor desc = TextureDescriptor::FromFetchConstant(fetch_dwords);
  auto it = entries_.find({scaled, desc});
  bool create = it == entries_.end();
  if (create) it = entries_.emplace(std::make_pair(scaled, desc), Texture{}).first;
  Texture& t = it->second;
  t.scaled = scaled;
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
    const auto ranges = desc.ByteRanges();
    for (const auto& [address, size] : ranges) {
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
    const uint64_t submission = stream_.submission_count();
    bool ahead = !scaled && t.used_submission != submission;
    for (const auto& [address, size] : ranges) {
      ahead = ahead && shared_memory_.ReadableAhead(address, std::max<uint64_t>(size, 1), source);
    }
    try {
      if (ahead) {
        const VkPipeline pipeline = LoadPipeline(desc.volume());  // may throw: nothing made yet
        if (create) CreateImage(desc, t);
        stream_.upload_cmd();  // the submission is open, so its end records the load
        ahead_.push_back({&t, desc, create, pipeline});
        for (const auto& [address, size] : ranges) {
          shared_memory_.MarkRead(address, std::max<uint64_t>(size, 1));
        }
        ++loads_;
        ++ahead_loads_;
      } else {
        if (before_load_) before_load_();
        // Inside the draw's region, its texture uploads under a name of their own.
        const DebugLabelRegion label(context_.labels(), stream_, [&] { return LoadLabel(desc); });
        Load(desc, t, create, memory);
      }
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
  t.used_submission = stream_.submission_count();
  return t;
}

void TextureCache::Invalidate(uint32_t address, uint64_t size) {
  uint64_t first = address / gpu::GuestPageSource::kPageSize;
  uint64_t last = (uint64_t(address) + std::max<uint64_t>(size, 1) - 1) /
                  gpu::GuestPageSource::kPageSize;
  for (auto& [key, t] : entries_) {
    if (t.scaled) continue;  // other pages: reloaded through their own generations
    for (const auto& [p, count] : t.page_ranges) {
      if (count && first < uint64_t(p) + count && last >= p) t.stale = true;
    }
  }
}
std::string TextureCache::LoadLabel(const TextureDescriptor& desc) {
  char text[96];
  std::snprintf(text, sizeof(text), "texture load 0x%08X %s %ux%u", desc.base_address,
                std::string(xenos::TextureFormatName(desc.format)).c_str(), desc.width, desc.height);
  return text;
}

void TextureCache::CreateImage(const TextureDescriptor& desc, Texture& t) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  const bool volume = desc.volume();
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
  context_.CreateImage(info, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, t.image, t.memory,
                       "texture image");
  if (context_.labels().enabled()) {
    char name[128];
    std::snprintf(name, sizeof(name), "texture 0x%08X %s %ux%ux%u, %u level(s)",
                  desc.base_address, std::string(xenos::TextureFormatName(desc.format)).c_str(),
                  desc.width, desc.height, std::max(desc.depth, desc.layers), desc.levels);
    context_.labels().Name(t.image, name);
  }
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

void TextureCache::Load(const TextureDescriptor& desc, Texture& t, bool create,
                        SharedMemory& source_memory) {
  // The loader pipeline first: it may throw (the start-up thread's error, or the volume variant
  // built on first use), and nothing may be created or recorded for this texture before that -
  // Get's handler destroys a new image on the assumption that no command references it.
  const VkPipeline load_pipeline = LoadPipeline(desc.volume());
  if (create) CreateImage(desc, t);
  VkCommandBuffer cmd = stream_.cmd();
  VkImageMemoryBarrier barrier = LoadBarrier(t, create);
  BarrierBeforeLoads(cmd, {&barrier, 1});
  RecordDispatches(cmd, desc, t, load_pipeline, source_memory.descriptor_set());
  BarrierAfterLoads(cmd, {&barrier, 1});
  ++loads_;
}

VkImageMemoryBarrier TextureCache::LoadBarrier(const Texture& t, bool create) {
  // A new image from UNDEFINED; a reloaded one was last sampled (or copied) by earlier commands.
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = create ? 0 : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
  b.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  b.oldLayout = create ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_GENERAL;
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = t.image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, t.levels, 0, t.layers};
  return b;
}

void TextureCache::BarrierBeforeLoads(VkCommandBuffer cmd,
                                      std::span<const VkImageMemoryBarrier> images) {
  // The mirror's writes (upload copies, shader writes) visible to the loader's reads; the images
  // ready for its writes.
  VkMemoryBarrier memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  memory.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  memory.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  vkCmdPipelineBarrier(cmd,
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT |
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &memory, 0, nullptr,
                       uint32_t(images.size()), images.data());
}

void TextureCache::BarrierAfterLoads(VkCommandBuffer cmd, std::span<VkImageMemoryBarrier> images) {
  // The texels visible to the draws, transfers and dispatches that follow.
  for (VkImageMemoryBarrier& b : images) {
    b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
    b.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
  }
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT |
                           VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       0, 0, nullptr, 0, nullptr, uint32_t(images.size()), images.data());
}

void TextureCache::RecordDispatches(VkCommandBuffer cmd, const TextureDescriptor& desc,
                                    const Texture& t, VkPipeline pipeline,
                                    VkDescriptorSet source_set) const {
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  for (uint32_t level = 0; level < desc.levels; ++level) {
    TextureLoadConstants constants = LoadConstantsOf(desc, level);
    VkDescriptorSet sets[2] = {source_set, t.store_sets[level]};
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout_, 0, 2, sets, 0,
                            nullptr);
    vkCmdPushConstants(cmd, pipeline_layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants),
                       &constants);
    vkCmdDispatch(cmd, (constants.width + 7) / 8, (constants.height + 7) / 8, constants.layers);
  }
}

void TextureCache::RecordAheadLoads(VkCommandBuffer cmd) {
  if (ahead_.empty()) return;
  const DebugLabels& labels = context_.labels();
  if (labels.enabled()) {
    labels.Begin(cmd, "texture loads ahead of the submission: " + std::to_string(ahead_.size()));
  }
  // Before: the mirror's writes (this submission's upload copies, earlier submissions' shader
  // and transfer writes) visible to the loader's reads; every image to GENERAL for its writes
  // (a new one from UNDEFINED; a reloaded one was last sampled by an earlier submission).
  std::vector<VkImageMemoryBarrier> images;
  images.reserve(ahead_.size());
  for (const AheadLoad& a : ahead_) images.push_back(LoadBarrier(*a.texture, a.create));
  BarrierBeforeLoads(cmd, images);
  for (const AheadLoad& a : ahead_) {
    if (labels.enabled()) labels.Begin(cmd, LoadLabel(a.desc));
    RecordDispatches(cmd, a.desc, *a.texture, a.pipeline, shared_memory_.descriptor_set());
    if (labels.enabled()) labels.End(cmd);
  }
  BarrierAfterLoads(cmd, images);
  if (labels.enabled()) labels.End(cmd);
  ahead_.clear();
}

}  // namespace xnt::vk
