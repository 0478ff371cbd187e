// Guest memory mirror (see shared_memory.h).
#include "xnt/vk/shared_memory.h"

#include "device_wide_call.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "xnt/base/error.h"
#include "xnt/vk/kept_objects.h"
#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

namespace {
constexpr uint64_t kMinChunkSize = 64 * 1024;
constexpr uint64_t kPoolSize = 32ull << 20;
}  // namespace

SharedMemory::SharedMemory(VulkanContext& context, CommandStream& stream, bool force_whole)
    : context_(context), stream_(stream), device_(context.device()) {
  static_assert(kSize == kSharedMemorySize);
  const Capabilities& caps = context.capabilities();
  // Under RenderDoc's capture layer (ENABLE_VULKAN_RENDERDOC_CAPTURE=1, set by replay
  // --renderdoc-capture and renderdoccmd capture) the validation layer sits below it, and the
  // validation layer's core checks (Debian's 1.3.239) crash in the vkQueueBindSparse that
  // RenderDoc 1.24 passes down (lavapipe; no message first; fine with core checks disabled, or
  // without RenderDoc): the mirror is then bound whole, as on a device without sparse binding.
  const char* renderdoc = std::getenv("ENABLE_VULKAN_RENDERDOC_CAPTURE");
  const bool validated_capture =
      context.validation_enabled() && renderdoc && std::strcmp(renderdoc, "1") == 0;
  sparse_ = caps.sparse_binding && context.queue_supports_sparse() && !force_whole &&
            !validated_capture;

  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = kSize;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (sparse_) {
    info.flags = VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT;
  }
  CheckVk(vkCreateBuffer(device_, &info, nullptr, &buffer_), "vkCreateBuffer(shared memory)");
  context.labels().Name(buffer_, "shared memory (guest memory mirror, 512 MiB)");
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, buffer_, &req);
  memory_type_ = context.FindMemoryType(req.memoryTypeBits, 0,
                                        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  try {
    if (sparse_) {
      chunk_size_ = std::max<uint64_t>(kMinChunkSize, req.alignment);
      // Chunks must tile 128 MiB exactly, so a chunk never straddles two descriptor ranges.
      if (kSharedMemoryBindingSize % chunk_size_ != 0) {
        throw Error("sparse block size " + std::to_string(req.alignment) +
                    " does not divide 128 MiB");
      }
      pool_size_ = std::max(kPoolSize, chunk_size_);
      chunk_bound_.assign(size_t(kSize / chunk_size_), false);
    } else {
      VkMemoryAllocateInfo mem{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      mem.allocationSize = req.size;
      mem.memoryTypeIndex = memory_type_;
      VkDeviceMemory memory = VK_NULL_HANDLE;
      CheckVk(vkAllocateMemory(device_, &mem, nullptr, &memory),
              "vkAllocateMemory(512 MiB shared memory)");
      pools_.push_back(memory);
      CheckVk(vkBindBufferMemory(device_, buffer_, memory, 0), "vkBindBufferMemory");
      bound_bytes_ = kSize;
      // Pages the trace never wrote read as zero, as in replay::GuestMemory.
      // In the upload buffer, which runs first, so uploads recorded ahead land after it.
      vkCmdFillBuffer(stream_.upload_cmd(), buffer_, 0, VK_WHOLE_SIZE, 0);
      // The fill lands before anything that follows: upload copies, shader reads and writes.
      CmdMemoryBarrier(stream_.upload_cmd(), VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                       VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
    }
    uploaded_generation_.assign(gpu::GuestPageSource::kPageCount, 0);
    touched_.assign(gpu::GuestPageSource::kPageCount, 0);
    in_stream_.assign(gpu::GuestPageSource::kPageCount, 0);

    VkDescriptorSetLayoutBinding binding{};
    binding.binding = kSharedMemoryBinding;
    binding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    binding.descriptorCount = kSharedMemoryBindingCount;
    binding.stageFlags = VK_SHADER_STAGE_ALL_GRAPHICS | VK_SHADER_STAGE_COMPUTE_BIT;
    // Kept with the device: the draw and texture-load pipelines' layouts begin with it.
    set_layout_ =
        context_.kept().SetLayout({&binding, 1}, "vkCreateDescriptorSetLayout(shared memory)");
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSharedMemoryBindingCount};
    descriptor_pool_ =
        CreateDescriptorPool(device_, 1, &size, 1, "vkCreateDescriptorPool(shared memory)");
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = descriptor_pool_;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &set_layout_;
    CheckVk(vkAllocateDescriptorSets(device_, &alloc, &set_), "vkAllocateDescriptorSets");
    VkDescriptorBufferInfo ranges[kSharedMemoryBindingCount];
    for (uint32_t i = 0; i < kSharedMemoryBindingCount; ++i) {
      ranges[i] = {buffer_, i * kSharedMemoryBindingSize, kSharedMemoryBindingSize};
    }
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set_;
    write.dstBinding = kSharedMemoryBinding;
    write.descriptorCount = kSharedMemoryBindingCount;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = ranges;
    vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  } catch (...) {
    Destroy();
    throw;
  }
}

SharedMemory::~SharedMemory() { Destroy(); }

void SharedMemory::Destroy() {
  if (!device_) return;
  context_.WaitIdle();
  if (descriptor_pool_) vkDestroyDescriptorPool(device_, descriptor_pool_, nullptr);
  if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
  for (VkDeviceMemory m : pools_) vkFreeMemory(device_, m, nullptr);
  descriptor_pool_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
  buffer_ = VK_NULL_HANDLE;
  pools_.clear();
  device_ = VK_NULL_HANDLE;
}

void SharedMemory::EnsureBound(uint64_t offset, uint64_t size) {
  if (!sparse_ || size == 0) return;
  uint64_t first = offset / chunk_size_;
  uint64_t last = (offset + size - 1) / chunk_size_;
  std::vector<VkSparseMemoryBind> binds;
  for (uint64_t c = first; c <= last; ++c) {
    if (chunk_bound_[size_t(c)]) continue;
    if (pools_.empty() || pool_used_ + chunk_size_ > pool_size_) {
      VkMemoryAllocateInfo mem{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      mem.allocationSize = pool_size_;
      mem.memoryTypeIndex = memory_type_;
      VkDeviceMemory memory = VK_NULL_HANDLE;
      CheckVk(vkAllocateMemory(device_, &mem, nullptr, &memory),
              "vkAllocateMemory(shared memory sparse pool)");
      pools_.push_back(memory);
      pool_used_ = 0;
    }
    VkSparseMemoryBind bind{};
    bind.resourceOffset = c * chunk_size_;
    bind.size = chunk_size_;
    bind.memory = pools_.back();
    bind.memoryOffset = pool_used_;
    pool_used_ += chunk_size_;
    binds.push_back(bind);
    chunk_bound_[size_t(c)] = true;
    bound_bytes_ += chunk_size_;
  }
  if (binds.empty()) return;
  VkSparseBufferMemoryBindInfo buffer_bind{buffer_, uint32_t(binds.size()), binds.data()};
  VkBindSparseInfo info{VK_STRUCTURE_TYPE_BIND_SPARSE_INFO};
  info.bufferBindCount = 1;
  info.pBufferBinds = &buffer_bind;
  // Waiting here orders the binding before the submission that uses it (it has not been
  // submitted yet) without semaphores.
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  CheckVk(vkCreateFence(device_, &fence_info, nullptr, &fence), "vkCreateFence");
  {
    std::lock_guard device_wide(DeviceWideCallMutex());
    const VkResult r = vkQueueBindSparse(context_.queue(), 1, &info, fence);
    if (r != VK_SUCCESS) {
      vkDestroyFence(device_, fence, nullptr);
      CheckVk(r, "vkQueueBindSparse(shared memory)");
    }
    // On a timeout the fence is left to the hung device: the bind may still be pending on it.
    context_.WaitForFence(fence, "sparse binding of guest memory");
  }
  vkDestroyFence(device_, fence, nullptr);
  // Fresh chunks hold garbage; zero them so unrecorded bytes next to recorded pages read as 0.
  // Always in the upload buffer, which runs before everything of the submission: an upload of
  // another page of the chunk may go ahead later in this submission (SyncAhead) and must land
  // after the fill, whether the chunk was bound for an upload ahead, one in stream order or a
  // memexport. Nothing of the submission used the chunk before it was bound.
  const VkCommandBuffer cmd = stream_.upload_cmd();
  for (const auto& b : binds) {
    vkCmdFillBuffer(cmd, buffer_, b.resourceOffset, b.size, 0);
  }
  CmdMemoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                   VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
}

void SharedMemory::Invalidate(uint32_t address, uint64_t size) {
  if (!write_tracking_ || size == 0) return;
  if (dirty_.empty()) dirty_.assign(gpu::GuestPageSource::kPageCount, false);
  uint64_t first = address / kPageSize;
  uint64_t last = std::min<uint64_t>((uint64_t(address) + size - 1) / kPageSize,
                                     gpu::GuestPageSource::kPageCount - 1);
  for (uint64_t p = first; p <= last; ++p) {
    if (!dirty_[size_t(p)]) {
      dirty_[size_t(p)] = true;
      dirty_pages_.push_back(uint32_t(p));
    }
  }
}

void SharedMemory::PrepareForShaderWrites(uint32_t address, uint64_t size) {
  if (size == 0) return;
  size = std::min<uint64_t>(size, kSize - std::min<uint64_t>(address, kSize));
  if (size == 0) return;
  // The shaders' stores are not described page by page: later uploads keep their place.
  CloseAhead();
  EnsureBound(address, size);
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(stream_.cmd(), VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void SharedMemory::MarkCurrent(uint32_t address, uint64_t size,
                               const gpu::GuestPageSource& source) {
  if (size == 0 || address >= kSize) return;
  const uint64_t last = std::min<uint64_t>((uint64_t(address) + size - 1) / kPageSize,
                                           gpu::GuestPageSource::kPageCount - 1);
  for (uint64_t p = address / kPageSize; p <= last; ++p) {
    uploaded_generation_[size_t(p)] = source.page_generation(uint32_t(p));
  }
}

void SharedMemory::UploadRun(const gpu::GuestPageSource& source, uint32_t first, uint32_t end,
                             bool ahead) {
  const uint64_t bytes = uint64_t(end - first) * kPageSize;
  EnsureBound(uint64_t(first) * kPageSize, bytes);
  // Ahead, through the stream's upload blocks: the pages of one draw after another then sit back
  // to back in the ring and their copies merge (CommandStream::TryAllocateAhead).
  auto allocate = [&] {
    return ahead ? stream_.TryAllocateAhead(bytes) : stream_.TryAllocate(bytes, 16);
  };
  auto alloc = allocate();
  if (!alloc) {
    // Flushing submits the copies recorded so far; the ring is empty afterwards.
    stream_.Flush();
    alloc = allocate();
  }
  const uint64_t epoch = Epoch();
  for (uint32_t p = first; p < end; ++p) {
    const uint8_t* data = source.page_data(p);
    uint8_t* dst = alloc->data + uint64_t(p - first) * kPageSize;
    if (data) {
      std::memcpy(dst, data, kPageSize);
    } else {
      std::memset(dst, 0, kPageSize);
    }
    uploaded_generation_[p] = source.page_generation(p);
    // A second upload of the page in this submission must stay behind this one.
    touched_[p] = epoch;
    if (!ahead) in_stream_[p] = epoch;
  }
  const VkBufferCopy region{alloc->offset, uint64_t(first) * kPageSize, bytes};
  if (ahead) {
    stream_.UploadFromRing(buffer_, region);
  } else {
    vkCmdCopyBuffer(stream_.cmd(), alloc->buffer, buffer_, 1, &region);
  }
}

void SharedMemory::MarkRead(uint32_t address, uint64_t size) {
  if (size == 0 || address >= kSize) return;
  const uint64_t epoch = Epoch();
  const uint64_t last = std::min<uint64_t>((uint64_t(address) + size - 1) / kPageSize,
                                           gpu::GuestPageSource::kPageCount - 1);
  for (uint64_t p = address / kPageSize; p <= last; ++p) touched_[size_t(p)] = epoch;
}

bool SharedMemory::ReadableAhead(uint32_t address, uint64_t size,
                                 const gpu::GuestPageSource& source) const {
  if (!write_tracking_ || !full_scan_done_ || ahead_closed_ == Epoch() || size == 0 ||
      uint64_t(address) + size > kSize) {
    return false;
  }
  const uint64_t epoch = Epoch();
  const uint64_t last = (uint64_t(address) + size - 1) / kPageSize;
  for (uint64_t p = address / kPageSize; p <= last; ++p) {
    if (in_stream_[size_t(p)] == epoch) return false;
    if (source.page_generation(uint32_t(p)) != uploaded_generation_[size_t(p)]) return false;
  }
  return true;
}

uint32_t SharedMemory::SyncAhead(const gpu::GuestPageSource& source) {
  if (!write_tracking_ || !full_scan_done_ || source.generation() == last_generation_ ||
      ahead_closed_ == Epoch()) {
    return 0;
  }
  std::vector<uint32_t> pages;
  pages.swap(dirty_pages_);
  std::sort(pages.begin(), pages.end());
  auto changed = [&](uint32_t p) { return source.page_generation(p) != uploaded_generation_[p]; };
  uint32_t uploaded = 0;
  size_t i = 0;
  while (i < pages.size()) {
    const uint32_t page = pages[i];
    if (!changed(page)) {
      dirty_[page] = false;
      ++i;
      continue;
    }
    if (touched_[page] == Epoch()) {
      dirty_pages_.push_back(page);  // still dirty_: Sync uploads it in stream order
      ++i;
      continue;
    }
    size_t j = i;
    while (j < pages.size() && pages[j] == page + (j - i) && changed(pages[j]) &&
           touched_[pages[j]] != Epoch() && j - i < 4096) {
      dirty_[pages[j]] = false;
      ++j;
    }
    UploadRun(source, page, page + uint32_t(j - i), true);
    uploaded += uint32_t(j - i);
    i = j;
  }
  if (dirty_pages_.empty()) last_generation_ = source.generation();
  uploaded_pages_total_ += uploaded;
  return uploaded;
}

uint32_t SharedMemory::Sync(const gpu::GuestPageSource& source) {
  uint64_t generation = source.generation();
  if (generation == last_generation_) return 0;
  // Candidate pages: all of them, or (write tracking after the first scan) the invalidated ones,
  // sorted so neighbours still merge into one copy.
  std::vector<uint32_t> candidates;
  bool full = !write_tracking_ || !full_scan_done_;
  if (!full) {
    candidates.swap(dirty_pages_);
    std::sort(candidates.begin(), candidates.end());
    for (uint32_t p : candidates) dirty_[p] = false;
  } else {
    for (uint32_t p : dirty_pages_) dirty_[p] = false;
    dirty_pages_.clear();
    full_scan_done_ = true;
  }
  const uint32_t count = full ? gpu::GuestPageSource::kPageCount : uint32_t(candidates.size());
  auto page_at = [&](uint32_t i) { return full ? i : candidates[i]; };
  uint32_t uploaded = 0;
  uint32_t i = 0;
  while (i < count) {
    uint32_t page = page_at(i);
    if (source.page_generation(page) == uploaded_generation_[page]) {
      ++i;
      continue;
    }
    // A run of changed consecutive pages becomes one copy region, as long as the ring has room.
    uint32_t j = i;
    while (j < count && page_at(j) == page + (j - i) &&
           source.page_generation(page_at(j)) != uploaded_generation_[page_at(j)] &&
           j - i < 4096) {
      ++j;
    }
    uint32_t run_end = page + (j - i);
    if (uploaded == 0) {
      // Commands earlier in the stream may still read the old bytes (write after read): an
      // execution dependency orders them before the copies.
      vkCmdPipelineBarrier(stream_.cmd(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 0, nullptr);
    }
    UploadRun(source, page, run_end, false);
    uploaded += run_end - page;
    i = j;
  }
  last_generation_ = generation;
  if (uploaded) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask =
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(stream_.cmd(), VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                             VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT |
                             VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT |
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         0, 1, &barrier, 0, nullptr, 0, nullptr);
  }
  uploaded_pages_total_ += uploaded;
  return uploaded;
}

}  // namespace xnt::vk
