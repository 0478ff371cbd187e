// Scaled resolve copies on the GPU (see scaled_resolve_mirror.h).
#include "xnt/vk/scaled_resolve_mirror.h"

#include <algorithm>
#include <cstring>

#include "xnt/base/error.h"

namespace xnt::vk {

namespace {
constexpr uint64_t kSlotAlignment = 64 * 1024;  // one sparse chunk (shared_memory.cpp)
constexpr uint32_t kPage = gpu::GuestPageSource::kPageSize;
}  // namespace

ScaledResolveMirror::ScaledResolveMirror(VulkanContext& context, CommandStream& stream,
                                         const gpu::ScaledResolveMemory& copies)
    : context_(context), stream_(stream), copies_(copies) {
  page_generations_.assign(gpu::GuestPageSource::kPageCount, 0);
  source_.generation = [this] { return generation_; };
  source_.page_generation = [this](uint32_t page) {
    return page < page_generations_.size() ? page_generations_[page] : 0;
  };
  source_.page_data = [this](uint32_t page) { return PageData(page); };
}

ScaledResolveMirror::~ScaledResolveMirror() = default;

SharedMemory& ScaledResolveMirror::memory() {
  if (!memory_) {
    memory_ = std::make_unique<SharedMemory>(context_, stream_);
    memory_->EnableWriteTracking();
  }
  return *memory_;
}

void ScaledResolveMirror::Store(const gpu::ScaledCopy& copy) {
  const uint64_t size = std::max<uint64_t>(copy.bytes.size(), 1);
  const Key key = KeyOf(copy);
  Slot& slot = slots_[key];
  if (slot.capacity < size) {
    const uint64_t capacity = (size + kSlotAlignment - 1) / kSlotAlignment * kSlotAlignment;
    if (next_ + capacity > SharedMemory::kSize) {
      throw Error("scaled resolve copies exceed the 512 MiB scaled arena");
    }
    if (slot.capacity != 0) owners_.erase(slot.offset);  // the old slot reads zeros from now on
    slot.offset = uint32_t(next_);
    slot.capacity = uint32_t(capacity);
    next_ += capacity;
    slot_bytes_ += capacity;
    owners_[slot.offset] = key;
  }
  ++generation_;
  // Every page of the copy (a rewrite may have cleared bytes an earlier one wrote); the upload
  // reads them from `copy` itself (PageData).
  for (uint64_t at = 0; at < copy.bytes.size(); at += kPage) {
    page_generations_[(slot.offset + at) / kPage] = generation_;
    if (memory_) memory_->Invalidate(uint32_t(slot.offset + at), kPage);
  }
}

const uint8_t* ScaledResolveMirror::PageData(uint32_t page) const {
  const uint64_t address = uint64_t(page) * kPage;
  auto owner = owners_.upper_bound(uint32_t(std::min<uint64_t>(address, UINT32_MAX)));
  if (owner == owners_.begin()) return nullptr;
  --owner;
  const Slot& slot = slots_.at(owner->second);
  if (address >= uint64_t(slot.offset) + slot.capacity) return nullptr;
  // The live copy of that destination (copies are few: one per resolve destination in use). One
  // dropped by a CPU write, or replaced by a resolve to another destination, reads as zeros; no
  // texture reads it any more (ScaledResolveMemory::Find no longer names it).
  const auto [base, pitch, format, tiled] = owner->second;
  for (const auto& [start, c] : copies_.copies()) {
    if (c.dest_base != base || c.dest_pitch != pitch || uint32_t(c.format) != format ||
        c.tiled != tiled) {
      continue;
    }
    const uint64_t at = address - slot.offset;
    if (at >= c.bytes.size()) return nullptr;
    if (c.bytes.size() - at >= kPage) return c.bytes.data() + at;
    std::memcpy(tail_.data(), c.bytes.data() + at, size_t(c.bytes.size() - at));
    std::memset(tail_.data() + (c.bytes.size() - at), 0, size_t(kPage - (c.bytes.size() - at)));
    return tail_.data();
  }
  return nullptr;
}

std::optional<std::array<uint32_t, 6>> ScaledResolveMirror::Fetch(
    const uint32_t fetch[6], const gpu::ScaledCopy& copy) const {
  auto it = slots_.find(KeyOf(copy));
  if (it == slots_.end() || it->second.capacity < copy.bytes.size()) return std::nullopt;
  std::array<uint32_t, 6> d = gpu::ScaledResolveMemory::ScaledFetch(fetch, copy);
  // dword 1 bits 12-31: the base address in 4 KiB units (slots are 64 KiB aligned).
  d[1] = (d[1] & 0xFFFu) | (it->second.offset & ~0xFFFu);
  return d;
}

const TextureCache::Texture* ScaledResolveMirror::LoadTexture(
    const uint32_t fetch[6], TextureCache& textures, const std::function<void()>& before_transfer) {
  const gpu::ScaledCopy* copy = copies_.Find(fetch);
  if (!copy) return nullptr;
  const std::optional<std::array<uint32_t, 6>> scaled = Fetch(fetch, *copy);
  if (!scaled) return nullptr;
  SharedMemory& arena = memory();
  if (arena.MayNeedSync(source_)) {
    // Sync records buffer copies, which a render pass instance must not contain.
    if (before_transfer) before_transfer();
    arena.Sync(source_);
  }
  return &textures.GetScaled(scaled->data(), source_, arena);
}

}  // namespace xnt::vk
