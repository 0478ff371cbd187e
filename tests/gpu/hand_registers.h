// A register file set by hand for the gpu/ functions that read RegisterValues: every register 0
// until a test sets it.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "xnt/gpu/register_values.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu::test {

struct HandRegisters {
  std::vector<uint32_t> v = std::vector<uint32_t>(xenos::kRegisterCount, 0u);
  void Set(xenos::Reg r, uint32_t x) { v[xenos::RegIndex(r)] = x; }
  void SetF(xenos::Reg r, float x) { Set(r, std::bit_cast<uint32_t>(x)); }
  RegisterValues span() const { return v; }
};

}  // namespace xnt::gpu::test
