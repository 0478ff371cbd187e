// Command buffer + per-submission ring (see command_stream.h).
#include "xnt/vk/command_stream.h"

#include <algorithm>
#include <vector>

#include "xnt/base/error.h"

namespace xnt::vk {

CommandStream::CommandStream(VulkanContext& context, uint64_t ring_size, uint64_t max_ring_size)
    : context_(context), device_(context.device()),
      max_ring_size_(std::max(ring_size, max_ring_size)) {
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = context.queue_family();
  CheckVk(vkCreateCommandPool(device_, &pool, nullptr, &pool_), "vkCreateCommandPool");
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 2;
  VkCommandBuffer buffers[2];
  CheckVk(vkAllocateCommandBuffers(device_, &alloc, buffers), "vkAllocateCommandBuffers");
  upload_cmd_ = buffers[0];
  cmd_ = buffers[1];
  VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  CheckVk(vkCreateFence(device_, &fence, nullptr, &fence_), "vkCreateFence");
  // GPU time per submission where the queue writes timestamps (lavapipe does too).
  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(context.physical_device(), &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(context.physical_device(), &family_count,
                                           families.data());
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context.physical_device(), &props);
  const uint32_t valid_bits =
      context.queue_family() < family_count ? families[context.queue_family()].timestampValidBits : 0;
  if (valid_bits > 0 && props.limits.timestampPeriod > 0.0f) {
    stage_timestamps_ = context.gpu_stage_timestamps();
    VkQueryPoolCreateInfo query{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    query.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query.queryCount = stage_timestamps_ ? 3 + 2 * kResolveStamps : 2;
    CheckVk(vkCreateQueryPool(device_, &query, nullptr, &timestamps_), "vkCreateQueryPool");
    timestamp_period_ns_ = double(props.limits.timestampPeriod);
    timestamp_mask_ = valid_bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << valid_bits) - 1;
  }

  CreateRing(ring_size);
}

void CommandStream::CreateRing(uint64_t size) {
  ring_size_ = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  CheckVk(vkCreateBuffer(device_, &info, nullptr, &ring_), "vkCreateBuffer(ring)");
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, ring_, &req);
  VkMemoryAllocateInfo mem{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mem.allocationSize = req.size;
  mem.memoryTypeIndex =
      context_.FindMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                             VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  ring_coherent_ = (context_.memory_properties().memoryTypes[mem.memoryTypeIndex].propertyFlags &
                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
  CheckVk(vkAllocateMemory(device_, &mem, nullptr, &ring_memory_), "vkAllocateMemory(ring)");
  CheckVk(vkBindBufferMemory(device_, ring_, ring_memory_, 0), "vkBindBufferMemory(ring)");
  context_.labels().Name(ring_, "ring (per-submission uploads, constants, indices, readbacks)");
  void* mapped = nullptr;
  CheckVk(vkMapMemory(device_, ring_memory_, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory(ring)");
  ring_data_ = static_cast<uint8_t*>(mapped);
}

void CommandStream::DestroyRing() {
  if (ring_memory_) vkFreeMemory(device_, ring_memory_, nullptr);
  if (ring_) vkDestroyBuffer(device_, ring_, nullptr);
  ring_memory_ = VK_NULL_HANDLE;
  ring_ = VK_NULL_HANDLE;
  ring_data_ = nullptr;
}

CommandStream::~CommandStream() {
  // A hung device still runs (or never ends) the last submission: its command buffers and the
  // ring it reads are left to the device, which the context does not destroy either.
  if (!context_.WaitIdle()) return;
  DestroyRing();
  if (fence_) vkDestroyFence(device_, fence_, nullptr);
  if (timestamps_) vkDestroyQueryPool(device_, timestamps_, nullptr);
  if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
}

VkCommandBuffer CommandStream::cmd() {
  if (!recording_) {
    context_.ThrowIfHung();  // the buffers are still pending on a hung device
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    CheckVk(vkBeginCommandBuffer(upload_cmd_, &begin), "vkBeginCommandBuffer(uploads)");
    CheckVk(vkBeginCommandBuffer(cmd_, &begin), "vkBeginCommandBuffer");
    recording_ = true;
    // The submission's GPU time starts with the upload buffer, which runs first.
    if (timestamps_) {
      vkCmdResetQueryPool(upload_cmd_, timestamps_, 0,
                          stage_timestamps_ ? 3 + 2 * kResolveStamps : 2);
      vkCmdWriteTimestamp(upload_cmd_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestamps_, 0);
    }
    resolve_pairs_ = 0;
    if (resolve_reopen_) {
      resolve_reopen_ = false;
      BeginResolveStage();
    }
  }
  return cmd_;
}

void CommandStream::BeginResolveStage() {
  if (!stage_timestamps_ || resolve_open_) return;
  cmd();
  if (resolve_pairs_ >= kResolveStamps) return;
  vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_,
                      3 + 2 * resolve_pairs_);
  resolve_open_ = true;
}

void CommandStream::EndResolveStage() {
  resolve_reopen_ = false;  // ended after a flush, before the next submission recorded anything
  if (!resolve_open_) return;
  vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_,
                      4 + 2 * resolve_pairs_);
  ++resolve_pairs_;
  resolve_open_ = false;
}

void CommandStream::UploadFromRing(VkBuffer dst, const VkBufferCopy& region) {
  cmd();
  if (dst != upload_dst_) RecordUploadCopies();
  upload_dst_ = dst;
  upload_barrier_ = true;
  if (!upload_regions_.empty()) {
    VkBufferCopy& last = upload_regions_.back();
    if (last.srcOffset + last.size == region.srcOffset &&
        last.dstOffset + last.size == region.dstOffset) {
      last.size += region.size;
      return;
    }
  }
  upload_regions_.push_back(region);
}

void CommandStream::RecordUploadCopies() {
  if (upload_regions_.empty()) return;
  vkCmdCopyBuffer(upload_cmd_, ring_, upload_dst_, uint32_t(upload_regions_.size()),
                  upload_regions_.data());
  upload_copy_regions_ += upload_regions_.size();
  upload_regions_.clear();
}

VkCommandBuffer CommandStream::upload_cmd() {
  cmd();
  return upload_cmd_;
}

std::optional<CommandStream::Allocation> CommandStream::TryAllocate(uint64_t size,
                                                                    uint64_t alignment) {
  if (size > max_ring_size_) {
    throw Error("upload of " + std::to_string(size) + " bytes exceeds the " +
                std::to_string(max_ring_size_) + "-byte upload ring");
  }
  if (size > ring_size_) {
    // Only an idle ring is replaced: after a Flush the device has finished with it and nothing
    // recorded since refers to it.
    if (recording_ || ring_used_ != 0) return std::nullopt;
    uint64_t grown = ring_size_;
    while (grown < size) grown *= 2;
    DestroyRing();
    CreateRing(std::min(grown, max_ring_size_));
    ++ring_generation_;
  }
  if (alignment == 0) alignment = 1;
  uint64_t offset = (ring_used_ + alignment - 1) / alignment * alignment;
  if (offset + size > ring_size_) {
    ++ring_fills_;
    return std::nullopt;
  }
  ring_used_ = offset + size;
  return Allocation{ring_, offset, ring_data_ + offset};
}

std::optional<CommandStream::Allocation> CommandStream::TryAllocateAhead(uint64_t size) {
  size = (size + 15) / 16 * 16;
  if (ahead_epoch_ != submission_count() || ahead_offset_ + size > ahead_end_) {
    // A new block; near the ring's end, whatever still fits the upload.
    std::optional<Allocation> block = TryAllocate(std::max(size, kAheadBlock), 16);
    uint64_t block_size = std::max(size, kAheadBlock);
    if (!block && size < kAheadBlock) {
      block = TryAllocate(size, 16);
      block_size = size;
    }
    if (!block) return std::nullopt;
    ahead_offset_ = block->offset;
    ahead_end_ = block->offset + block_size;
    ahead_epoch_ = submission_count();
  }
  const Allocation allocation{ring_, ahead_offset_, ring_data_ + ahead_offset_};
  ahead_offset_ += size;
  return allocation;
}

CommandStream::Allocation CommandStream::Allocate(uint64_t size, uint64_t alignment) {
  if (auto a = TryAllocate(size, alignment)) return *a;
  Flush();
  return *TryAllocate(size, alignment);
}

void CommandStream::Flush() {
  if (!recording_) {
    ring_used_ = 0;
    return;
  }
  if (before_submit_) before_submit_(cmd_);
  if (resolve_open_) {
    EndResolveStage();
    resolve_reopen_ = true;
  }
  if (timestamps_) {
    vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_,
                        stage_timestamps_ ? 2 : 1);
  }
  if (!ring_coherent_ && ring_used_) {
    VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = ring_memory_;
    range.size = VK_WHOLE_SIZE;
    CheckVk(vkFlushMappedMemoryRanges(device_, 1, &range), "vkFlushMappedMemoryRanges");
  }
  RecordUploadCopies();
  if (upload_barrier_) {
    // Every upload recorded ahead lands before anything of the submission reads or overwrites it.
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(upload_cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    upload_barrier_ = false;
  }
  if (ahead_commands_) ahead_commands_(upload_cmd_);
  if (stage_timestamps_) {
    vkCmdWriteTimestamp(upload_cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 1);
  }
  CheckVk(vkEndCommandBuffer(upload_cmd_), "vkEndCommandBuffer(uploads)");
  CheckVk(vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");
  recording_ = false;
  const VkCommandBuffer buffers[2] = {upload_cmd_, cmd_};
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 2;
  submit.pCommandBuffers = buffers;
  CheckVk(vkQueueSubmit(context_.queue(), 1, &submit, fence_), "vkQueueSubmit");
  peak_ring_used_ = std::max(peak_ring_used_, ring_used_);
  context_.WaitForFence(fence_, "its command buffer submission");
  CheckVk(vkResetFences(device_, 1, &fence_), "vkResetFences");
  if (timestamps_) ReadTimestamps();
  CheckVk(vkResetCommandBuffer(upload_cmd_, 0), "vkResetCommandBuffer(uploads)");
  CheckVk(vkResetCommandBuffer(cmd_, 0), "vkResetCommandBuffer");
  ring_used_ = 0;
  ++submissions_;
}

void CommandStream::ReadTimestamps() {
  // Only the queries this submission wrote: waiting on one never written would not return.
  const uint32_t count = stage_timestamps_ ? 3 + 2 * resolve_pairs_ : 2;
  uint64_t ticks[3 + 2 * kResolveStamps] = {};
  CheckVk(vkGetQueryPoolResults(device_, timestamps_, 0, count, count * sizeof(uint64_t), ticks,
                                sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
          "vkGetQueryPoolResults");
  const auto seconds = [&](uint32_t from, uint32_t to) {
    return double((ticks[to] - ticks[from]) & timestamp_mask_) * timestamp_period_ns_ * 1e-9;
  };
  const double total = seconds(0, stage_timestamps_ ? 2 : 1);
  gpu_seconds_ += total;
  context_.AddGpuSeconds(total);
  if (!stage_timestamps_) return;
  GpuStageSeconds stages;
  stages.uploads = seconds(0, 1);
  for (uint32_t k = 0; k < resolve_pairs_; ++k) stages.resolves += seconds(3 + 2 * k, 4 + 2 * k);
  stages.draws = std::max(0.0, total - stages.uploads - stages.resolves);
  context_.AddGpuStageSeconds(stages);
}

}  // namespace xnt::vk
