// How a render path reaches guest memory without depending on a particular memory class: page
// generations and data for a mirror of the 512 MiB physical space (the Vulkan shared-memory
// buffer, a CPU path's reads), plus byte reads and writes for resolves and the swap.
// replay::GuestMemory maps onto it one to one (GuestAccessOf).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

namespace xnt::replay {
class GuestMemory;
}

namespace xnt::gpu {

struct GuestPageSource {
  static constexpr uint32_t kPageSize = 4096;
  static constexpr uint32_t kPageCount = uint32_t((512ull << 20) / kPageSize);
  // Bumped on every write anywhere (lets an unchanged memory skip the page scan).
  std::function<uint64_t()> generation;
  // Per page: 0 = never written.
  std::function<uint64_t(uint32_t page)> page_generation;
  // The page's 4 KiB, or nullptr if never written.
  std::function<const uint8_t*(uint32_t page)> page_data;
};

struct GuestMemoryAccess {
  GuestPageSource pages;
  // Both throw xnt::Error when the range leaves the 512 MiB physical space.
  std::function<void(uint32_t address, std::span<uint8_t> out)> read;
  std::function<void(uint32_t address, std::span<const uint8_t> bytes)> write;
};

// The access a path gets to the trace player's guest memory (resolves write into it).
GuestMemoryAccess GuestAccessOf(replay::GuestMemory& memory);

}  // namespace xnt::gpu
