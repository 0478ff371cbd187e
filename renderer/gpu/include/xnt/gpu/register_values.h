// The register file as every render path sees it: the 0x5003 dwords by index (constants
// included), read-only for the duration of one draw, resolve or swap.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

namespace xnt::gpu {

// Register values by dword index (at least xenos::kRegisterCount of them).
using RegisterValues = std::span<const uint32_t>;

// A register's bits as a float; 0 for an index past the span.
inline float RegisterFloat(RegisterValues regs, uint32_t index) {
  return std::bit_cast<float>(index < regs.size() ? regs[index] : 0u);
}

}  // namespace xnt::gpu
