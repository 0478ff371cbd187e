// How the renderer reaches guest memory without depending on a particular memory class:
// page generations and data for the shared-memory mirror, plus byte reads and writes for the
// CPU-side resolve and swap. replay::GuestMemory maps onto it one to one (vulkan_backend.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "xnt/vk/shared_memory.h"

namespace xnt::vk {

struct GuestMemoryAccess {
  GuestPageSource pages;
  // Both throw xnt::Error when the range leaves the 512 MiB physical space.
  std::function<void(uint32_t address, std::span<uint8_t> out)> read;
  std::function<void(uint32_t address, std::span<const uint8_t> bytes)> write;
};

}  // namespace xnt::vk
