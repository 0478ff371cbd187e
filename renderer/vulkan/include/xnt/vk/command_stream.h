// The renderer's command buffer stream: one primary command buffer being recorded at a time, a
// host-visible ring for per-submission data (uploads, uniforms, indices), and Flush(), which
// submits, waits and starts again. Replay is offline, so a synchronous flush at resolves and
// swaps (which read results back on the CPU) costs little and keeps lifetimes trivial.
//
// Beside it, an upload command buffer that the same vkQueueSubmit runs first: guest-memory
// uploads that no command of the submission has read yet are recorded there (shared_memory.h
// SyncAhead), so the draws between them need no copy, no barrier and no break of the render pass
// each; one barrier at its end makes them all visible (as Xenia's D3D12/Vulkan command processors
// batch shared-memory uploads ahead of the draws: SharedMemory::RequestRange before the pass).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

class CommandStream {
 public:
  // `ring_size`: bytes of host-visible memory for data consumed by one submission, allocated at
  // first; an allocation larger than the ring (up to `max_ring_size`) replaces it by one twice as
  // large (or more) once nothing uses it, i.e. after the flush its caller makes (TryAllocate).
  // A driver that pins host-visible memory counts all of the ring as resident from the start
  // (on the NVIDIA H200 a 64 MiB ring was 66 MiB of resident memory and 25 ms of start-up), so
  // replays that never need a large ring never allocate one.
  CommandStream(VulkanContext& context, uint64_t ring_size, uint64_t max_ring_size = 0);
  ~CommandStream();
  CommandStream(const CommandStream&) = delete;
  CommandStream& operator=(const CommandStream&) = delete;

  // The command buffer being recorded (begun lazily).
  VkCommandBuffer cmd();
  bool has_commands() const { return recording_; }
  // The upload command buffer of the submission cmd() belongs to: it executes before every
  // command of cmd(). What is recorded here directly must carry its own barrier; copies come
  // through UploadFromRing, and the submission ends the buffer with one transfer -> all-commands
  // barrier after them.
  VkCommandBuffer upload_cmd();
  // A copy from the ring into `dst` for the upload buffer, recorded when the submission ends:
  // copies that continue the previous one in both buffers (consecutive pages through consecutive
  // ring space, as a frame's fresh vertex pages arrive) become one region, and all regions of
  // one destination one vkCmdCopyBuffer. Anything recorded in upload_cmd() meanwhile (sparse
  // chunk fills) runs before them.
  void UploadFromRing(VkBuffer dst, const VkBufferCopy& region);

  struct Allocation {
    VkBuffer buffer;
    uint64_t offset;
    uint8_t* data;
  };
  // Space for `size` bytes at `alignment` in the ring, valid until the next Flush; nullopt when
  // the ring is full or smaller than `size` (flush and retry: an empty ring grows). Throws
  // xnt::Error when size exceeds the largest ring. A ring that grows is another VkBuffer
  // (ring_buffer(), ring_generation()), and submission_count() moves on, so nothing bound to the
  // old one within a submission is used again.
  std::optional<Allocation> TryAllocate(uint64_t size, uint64_t alignment);
  // Ring space for an upload recorded ahead (UploadFromRing), carved in order from a block of at
  // least kAheadBlock bytes reserved at once: the pages of consecutive ahead uploads then lie back
  // to back in the ring as they do in guest memory, however many constants and indices the draws
  // between them allocate, so their copies merge into one region. (One 4 KiB region per
  // capture-shaped draw cost the device per region: docs/speed.md, "per-stage GPU time".)
  std::optional<Allocation> TryAllocateAhead(uint64_t size);
  static constexpr uint64_t kAheadBlock = 1ull << 20;
  // Like TryAllocate but flushes by itself when full. Invalidates cmd() when it flushes, so
  // callers that already opened a render pass must not use it; `on_flush` runs before it does.
  Allocation Allocate(uint64_t size, uint64_t alignment);

  // Runs before every submission (the renderer ends its render pass here).
  void set_before_submit(std::function<void(VkCommandBuffer)> fn) { before_submit_ = std::move(fn); }
  // Runs when a submission ends, recording into its upload buffer after the copies and their
  // barrier: commands that read what the submission starts with (texture loads moved ahead of
  // the draws, TextureCache), each carrying its own barriers.
  void set_ahead_commands(std::function<void(VkCommandBuffer)> fn) { ahead_commands_ = std::move(fn); }

  // Submits what was recorded, waits for the GPU, resets the ring.
  void Flush();
  // Submissions made, plus one per ring growth (an epoch for per-submission caches).
  uint64_t submission_count() const { return submissions_ + ring_generation_; }
  uint64_t submitted() const { return submissions_; }
  // Copy regions the upload buffers have recorded so far (UploadFromRing after merging).
  uint64_t upload_copy_regions() const { return upload_copy_regions_; }
  // GPU time of every submission so far (timestamp queries at the start and end of each command
  // buffer, times timestampPeriod), in seconds; 0 where the queue has no timestamps.
  double gpu_seconds() const { return gpu_seconds_; }
  bool gpu_timing() const { return timestamps_ != VK_NULL_HANDLE; }
  // With ContextOptions::gpu_stage_timestamps (bench replay --gpu-profile): the commands recorded
  // between these two count as a resolve's in the context's GpuStageSeconds (the pair is split
  // at a flush in between). Timestamps are written at the bottom of the pipe, so each stage is the
  // time from the end of the work before it to the end of its own: the stages add up to the
  // submission's time. Past kResolveStamps pairs in one submission, further resolves count as
  // draws. No-ops without stage timestamps.
  void BeginResolveStage();
  void EndResolveStage();
  static constexpr uint32_t kResolveStamps = 64;
  uint64_t ring_size() const { return ring_size_; }
  VkBuffer ring_buffer() const { return ring_; }
  // How many times the ring was replaced by a larger one.
  uint64_t ring_generation() const { return ring_generation_; }
  // Bytes of the ring the current submission has allocated, and the most any submission held.
  uint64_t ring_used() const { return ring_used_; }
  uint64_t peak_ring_used() const { return peak_ring_used_; }
  // Allocations refused because the ring had no room left in the current submission: each makes
  // its caller flush, i.e. wait for the device. (Submissions cut at the renderer's bound before
  // the ring fills are not counted here.)
  uint64_t ring_fills() const { return ring_fills_; }

 private:
  VulkanContext& context_;
  VkDevice device_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkCommandBuffer upload_cmd_ = VK_NULL_HANDLE;
  bool upload_barrier_ = false;
  VkBuffer upload_dst_ = VK_NULL_HANDLE;
  std::vector<VkBufferCopy> upload_regions_;  // UploadFromRing, into upload_dst_
  uint64_t upload_copy_regions_ = 0;
  void RecordUploadCopies();
  VkFence fence_ = VK_NULL_HANDLE;
  VkQueryPool timestamps_ = VK_NULL_HANDLE;
  double timestamp_period_ns_ = 0.0;
  uint64_t timestamp_mask_ = 0;
  double gpu_seconds_ = 0.0;
  // Stage timestamps: queries 0 and 2 start and end the submission, 1 ends its upload buffer,
  // 3 + 2k and 4 + 2k are resolve pair k.
  bool stage_timestamps_ = false;
  uint32_t resolve_pairs_ = 0;
  bool resolve_open_ = false;
  bool resolve_reopen_ = false;  // a resolve stage was open at the last flush
  void ReadTimestamps();
  bool recording_ = false;
  VkBuffer ring_ = VK_NULL_HANDLE;
  VkDeviceMemory ring_memory_ = VK_NULL_HANDLE;
  uint8_t* ring_data_ = nullptr;
  uint64_t ring_size_ = 0;
  uint64_t max_ring_size_ = 0;
  uint64_t ring_generation_ = 0;
  uint64_t ring_used_ = 0;
  uint64_t peak_ring_used_ = 0;
  uint64_t ring_fills_ = 0;
  void CreateRing(uint64_t size);
  void DestroyRing();
  // TryAllocateAhead's block: [ahead_offset_, ahead_end_) of the ring in submission ahead_epoch_.
  uint64_t ahead_offset_ = 0, ahead_end_ = 0, ahead_epoch_ = ~uint64_t(0);
  bool ring_coherent_ = true;
  uint64_t submissions_ = 0;
  std::function<void(VkCommandBuffer)> before_submit_;
  std::function<void(VkCommandBuffer)> ahead_commands_;
};

}  // namespace xnt::vk
