// The register file as every render path sees it: the 0x5003 dwords by index (constants
// included), read-only for the duration of one draw, resolve or swap, and the one typed reader
// of it.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

#include "xnt/xenos/registers.h"

namespace xnt::gpu {

// Register values by dword index (at least xenos::kRegisterCount of them).
using RegisterValues = std::span<const uint32_t>;

// A register's value; 0 for an index past the span (a hand-made file in a test may be short).
inline uint32_t RegisterValue(RegisterValues regs, uint32_t index) {
  return index < regs.size() ? regs[index] : 0u;
}
inline uint32_t RegisterValue(RegisterValues regs, xenos::Reg r) {
  return RegisterValue(regs, xenos::RegIndex(r));
}

// A register through its field decoder in xnt/xenos/registers.h, e.g.
// DecodeRegister<xenos::reg::RB_SURFACE_INFO>(regs).
template <class T>
T DecodeRegister(RegisterValues regs) {
  return T::Decode(RegisterValue(regs, T::kReg));
}

// A register's bits as a float; 0 for an index past the span.
inline float RegisterFloat(RegisterValues regs, uint32_t index) {
  return std::bit_cast<float>(RegisterValue(regs, index));
}

}  // namespace xnt::gpu
