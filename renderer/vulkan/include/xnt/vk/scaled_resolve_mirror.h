// Scaled resolve copies on the GPU: a Vulkan path (fbo and fsi) keeps the
// copies a resolve at a resolution scale writes (gpu/scaled_resolve.h, the CPU-side bytes every
// path shares) in a second shared-memory buffer (shared_memory.h) that the texture cache loads
// from, so a texture whose fetch constant names a copy is decoded at the scaled size by the same
// load shader, as the cpu path samples it.
//
// Each destination (base, pitch, format, tiling) gets a slot in a 512 MiB arena, aligned to the
// 64 KiB sparse chunks, allocated when it is first resolved to; only the pages a copy wrote are
// uploaded, and with sparse binding (lavapipe 25, NVIDIA) only the chunks holding them get device
// memory, so nothing mirrors the guest memory at the scale. A copy that grows past its slot moves
// to a new one (the old slot stays, unused). The arena's pages are a GuestPageSource whose page
// generations the mirror bumps when it rewrites a copy, which is what makes the texture cache
// reload textures over it. The pages hold no bytes of their own: an upload reads them in place
// from the copy in gpu::ScaledResolveMemory that owns the slot now (a dropped copy's pages read as
// zeros), so each scaled copy exists once on the CPU side.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "xnt/gpu/guest_access.h"
#include "xnt/gpu/scaled_resolve.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/shared_memory.h"
#include "xnt/vk/texture_cache.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

class ScaledResolveMirror {
 public:
  // `copies` holds the bytes the arena's pages read; it must outlive the mirror.
  ScaledResolveMirror(VulkanContext& context, CommandStream& stream,
                      const gpu::ScaledResolveMemory& copies);
  ~ScaledResolveMirror();
  ScaledResolveMirror(const ScaledResolveMirror&) = delete;
  ScaledResolveMirror& operator=(const ScaledResolveMirror&) = delete;

  // Gives `copy` (held by the ScaledResolveMemory) its slot, or marks the slot rewritten; throws
  // xnt::Error when the arena is full.
  void Store(const gpu::ScaledCopy& copy);
  // The fetch constant of `copy` read from the arena (gpu::ScaledResolveMemory::ScaledFetch with
  // the slot's address as the base), or nothing when the copy was never stored.
  std::optional<std::array<uint32_t, 6>> Fetch(const uint32_t fetch[6],
                                               const gpu::ScaledCopy& copy) const;
  // The texture `fetch` names when it reads a stored copy: the arena synced (`before_transfer`
  // runs first when that records copies: the caller ends its render pass) and the texture loaded
  // at the scaled size through `textures` (TextureCache::GetScaled). Null when the fetch constant
  // reads guest memory at 1x (no copy matches, or the copy was never stored).
  const TextureCache::Texture* LoadTexture(const uint32_t fetch[6], TextureCache& textures,
                                           const std::function<void()>& before_transfer);
  // The arena as guest pages, for SharedMemory::Sync and the texture cache's page checks.
  const gpu::GuestPageSource& pages() const { return source_; }
  // The device buffer (created on first use); Sync it before loading textures from it.
  SharedMemory& memory();
  bool created() const { return memory_ != nullptr; }
  // Bytes of the arena's address space given to slots (no CPU memory behind them) and bound on
  // the device.
  uint64_t slot_bytes() const { return slot_bytes_; }
  uint64_t device_bytes() const { return memory_ ? memory_->bound_bytes() : 0; }

 private:
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, bool>;  // base, pitch, format, tiled
  struct Slot {
    uint32_t offset = 0;
    uint32_t capacity = 0;
  };
  static Key KeyOf(const gpu::ScaledCopy& c) {
    return {c.dest_base, c.dest_pitch, uint32_t(c.format), c.tiled};
  }
  // The bytes of arena page `page` (kPageSize of them), read from the copy owning its slot; null
  // (zeros) where no live copy covers it.
  const uint8_t* PageData(uint32_t page) const;

  VulkanContext& context_;
  CommandStream& stream_;
  const gpu::ScaledResolveMemory& copies_;
  std::unique_ptr<SharedMemory> memory_;
  std::map<Key, Slot> slots_;
  std::map<uint32_t, Key> owners_;  // arena offset of each slot in use -> its destination
  uint64_t next_ = 0;  // the bump allocator's next free arena byte
  uint64_t slot_bytes_ = 0;
  // A copy's last page padded with zeros (the upload copies whole pages right away).
  mutable std::array<uint8_t, gpu::GuestPageSource::kPageSize> tail_{};
  std::vector<uint64_t> page_generations_;
  uint64_t generation_ = 1;
  gpu::GuestPageSource source_;
};

}  // namespace xnt::vk
