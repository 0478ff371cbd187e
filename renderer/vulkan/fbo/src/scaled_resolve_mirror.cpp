// Scaled resolve copies on the GPU (see scaled_resolve_mirror.h).
#include "scaled_resolve_mirror.h"

#include <algorithm>
#include <cstring>

#include "xnt/base/error.h"

namespace xnt::vk {

namespace {
constexpr uint64_t kSlotAlignment = 64 * 1024;  // one sparse chunk (shared_memory.cpp)
constexpr uint32_t kPage = gpu::GuestPageSource::kPageSize;
}  // namespace

ScaledResolveMirror::ScaledResolveMirror(VulkanContext& context, CommandStream& stream)
    : context_(context), stream_(stream) {
  pages_.resize(gpu::GuestPageSource::kPageCount);
  page_generations_.assign(gpu::GuestPageSource::kPageCount, 0);
  source_.generation = [this] { return generation_; };
  source_.page_generation = [this](uint32_t page) {
    return page < page_generations_.size() ? page_generations_[page] : 0;
  };
  source_.page_data = [this](uint32_t page) -> const uint8_t* {
    return page < pages_.size() ? pages_[page].get() : nullptr;
  };
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
  Slot& slot = slots_[KeyOf(copy)];
  if (slot.capacity < size) {
    const uint64_t capacity = (size + kSlotAlignment - 1) / kSlotAlignment * kSlotAlignment;
    if (next_ + capacity > SharedMemory::kSize) {
      throw Error("scaled resolve copies exceed the 512 MiB scaled arena");
    }
    slot.offset = uint32_t(next_);
    slot.capacity = uint32_t(capacity);
    next_ += capacity;
    stored_bytes_ += capacity;
  }
  ++generation_;
  // Every page of the copy (a rewrite may have cleared bytes an earlier one wrote).
  for (uint64_t at = 0; at < copy.bytes.size(); at += kPage) {
    const uint32_t page = uint32_t((slot.offset + at) / kPage);
    if (!pages_[page]) pages_[page] = std::make_unique<uint8_t[]>(kPage);
    const size_t n = size_t(std::min<uint64_t>(kPage, copy.bytes.size() - at));
    std::memcpy(pages_[page].get(), copy.bytes.data() + at, n);
    std::memset(pages_[page].get() + n, 0, kPage - n);
    page_generations_[page] = generation_;
    if (memory_) memory_->Invalidate(uint32_t(slot.offset + at), kPage);
  }
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

}  // namespace xnt::vk
