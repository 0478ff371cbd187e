// Shared memory: the 512 MiB of guest physical memory mirrored in one device buffer that every
// translated shader reads (descriptor set 0, shader_interface.h). Only pages the trace recorded
// (or the GPU resolved into) are uploaded, and only again when their write generation changes.
//
// Two ways to back the buffer, chosen from the device's capabilities:
//  - sparse (sparseBinding + sparseResidencyBuffer, e.g. lavapipe and NVIDIA): memory is bound
//    in chunks of max(64 KiB, the sparse block size) when a page inside is first uploaded;
//    unbound chunks are never read by a valid trace (and read as zero where residency is strict);
//  - whole: one 512 MiB allocation, zero-filled at start.
// Either way the buffer is exposed as 4 descriptor ranges of 128 MiB, because lavapipe's
// maxStorageBufferRange is 128 MiB.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "xnt/gpu/guest_access.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

class SharedMemory {
 public:
  static constexpr uint64_t kSize = uint64_t(512) << 20;
  static constexpr uint32_t kPageSize = 4096;

  // `force_whole` disables sparse binding even where supported (tests cover both paths).
  SharedMemory(VulkanContext& context, CommandStream& stream, bool force_whole = false);
  ~SharedMemory();
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;

  // Uploads every page whose generation changed since its last upload. Records copies into the
  // stream's command buffer (and a barrier making them visible to shaders and transfers); must be
  // called outside a render pass. Returns the number of pages uploaded.
  uint32_t Sync(const gpu::GuestPageSource& source);
  // Uploads ahead (write tracking only, after the first full scan): every changed page that no
  // command of the current submission has touched (MarkRead, an upload of it, or anything after
  // CloseAhead) is copied in the stream's upload command buffer, which runs before the whole
  // submission, so the caller need not leave its render pass. Pages some command already saw keep
  // their place in the stream: they are left dirty for Sync. Returns the pages uploaded.
  uint32_t SyncAhead(const gpu::GuestPageSource& source);
  // The bytes [address, address + size) are read by a command of the current submission (a
  // draw's vertex fetches): an upload of those pages must not move before it.
  void MarkRead(uint32_t address, uint64_t size);
  // A command the renderer cannot describe by ranges (a texture load, a memexport, a resolve
  // into the mirror) was recorded: no further upload of this submission moves ahead.
  void CloseAhead() { ahead_closed_ = Epoch(); }
  // True when a command placed at the start of the current submission (in the stream's upload
  // buffer, after its copies: CommandStream::set_ahead_commands) would read the bytes [address,
  // address + size) of the mirror as a command recorded now would: every page is current, none
  // was uploaded in stream order in this submission, and nothing since CloseAhead. The caller
  // then MarkReads the range, so that a later upload of those pages stays behind it. False
  // without write tracking (uploads are then in stream order).
  bool ReadableAhead(uint32_t address, uint64_t size, const gpu::GuestPageSource& source) const;

  // Write tracking: once enabled, Sync examines only the pages passed to Invalidate since the
  // last Sync (after one full scan), instead of every page whose owner bumped the global
  // generation. The replay backend enables it and forwards Backend::OnMemoryWritten; without it
  // each Sync after a change scans all 131072 page generations (~0.5 ms).
  // False when Sync would certainly upload nothing (lets the renderer keep its render pass open).
  bool MayNeedSync(const gpu::GuestPageSource& source) const {
    return source.generation() != last_generation_ &&
           (!write_tracking_ || !full_scan_done_ || !dirty_pages_.empty());
  }
  void EnableWriteTracking() { write_tracking_ = true; }
  void Invalidate(uint32_t address, uint64_t size);

  // Memexport: before a draw whose shaders store into [address, address + size), binds (and
  // zero-fills) whatever sparse chunks the range lacks and makes the mirror visible to shader
  // writes. Records commands: call outside a render pass.
  void PrepareForShaderWrites(uint32_t address, uint64_t size);
  // After the guest memory of the range was updated from this mirror (memexport read back): its
  // pages count as uploaded at their current generation, so Sync does not upload them again.
  void MarkCurrent(uint32_t address, uint64_t size, const gpu::GuestPageSource& source);

  VkBuffer buffer() const { return buffer_; }
  bool is_sparse() const { return sparse_; }
  uint64_t bound_bytes() const { return bound_bytes_; }
  uint64_t uploaded_pages_total() const { return uploaded_pages_total_; }
  // Descriptor set 0 (binding 0 = 4 storage buffer ranges) and its layout.
  VkDescriptorSetLayout set_layout() const { return set_layout_; }
  VkDescriptorSet descriptor_set() const { return set_; }

 private:
  // Binds (and zero-fills, in the stream's upload buffer) whatever sparse chunks the range lacks.
  void EnsureBound(uint64_t offset, uint64_t size);
  // Copies pages [first, end) from `source` through the ring into the mirror, in `cmd` (the
  // stream's or its upload buffer; re-fetched after a flush when the ring is full).
  void UploadRun(const gpu::GuestPageSource& source, uint32_t first, uint32_t end, bool ahead);
  // The current submission's number for touched_ / ahead_closed_ (0 is never current).
  uint64_t Epoch() const { return stream_.submission_count() + 1; }
  void Destroy();

  VulkanContext& context_;
  CommandStream& stream_;
  VkDevice device_;
  bool sparse_ = false;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  uint32_t memory_type_ = 0;
  uint64_t chunk_size_ = 0;
  std::vector<bool> chunk_bound_;
  // Sparse: memory pools chunks are carved from.
  std::vector<VkDeviceMemory> pools_;
  uint64_t pool_size_ = 0;
  uint64_t pool_used_ = 0;
  uint64_t bound_bytes_ = 0;

  std::vector<uint64_t> uploaded_generation_;
  bool write_tracking_ = false;
  bool full_scan_done_ = false;
  std::vector<bool> dirty_;
  std::vector<uint32_t> dirty_pages_;
  uint64_t last_generation_ = ~uint64_t(0);
  uint64_t uploaded_pages_total_ = 0;
  // Per page, the Epoch() of the last submission that read or uploaded it, and of the last that
  // uploaded it in stream order (not ahead).
  std::vector<uint64_t> touched_;
  std::vector<uint64_t> in_stream_;
  uint64_t ahead_closed_ = 0;

  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

}  // namespace xnt::vk
