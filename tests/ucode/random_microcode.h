// Random microcode that usually decodes: CF pairs with every opcode (loops, calls, jumps on bools
// and predicates, predicated breaks), exec blocks over random ALU and fetch slots. Shared by the
// interpreter tests.
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "xnt/ucode/ucode.h"

namespace xnt::ucode::test {

inline std::vector<uint32_t> RandomMicrocode(std::mt19937& g, bool vertex_fetch) {
  auto below = [&](uint32_t n) { return uint32_t(g() % n); };
  const uint32_t cf_count = 2 * (1 + below(4));  // CF instructions come in pairs
  const uint32_t cf_slots = cf_count / 2;
  const uint32_t slots = 1 + below(8);
  std::vector<bool> is_fetch(slots);
  for (uint32_t i = 0; i < slots; ++i) is_fetch[i] = below(3) == 0;
  std::vector<CfInstruction> cf(cf_count);
  for (uint32_t i = 0; i < cf_count; ++i) {
    CfInstruction& c = cf[i];
    c.opcode = CfOpcode(i + 1 == cf_count ? uint32_t(CfOpcode::kExecEnd) : below(16));
    if (IsExec(c.opcode)) {
      const uint32_t first = below(slots);
      c.address = cf_slots + first;
      c.count = std::min<uint32_t>(below(7), slots - first);
      for (uint32_t k = 0; k < c.count; ++k) c.sequence |= uint32_t(is_fetch[first + k]) << (2 * k);
      c.condition = below(2);
      c.bool_address = below(256);
    } else if (c.opcode == CfOpcode::kLoopStart || c.opcode == CfOpcode::kLoopEnd ||
               c.opcode == CfOpcode::kCondCall || c.opcode == CfOpcode::kCondJmp) {
      c.address = below(cf_count);
      c.loop_id = below(32);
      c.is_unconditional = below(2);
      c.is_predicated = !c.is_unconditional && below(2);
      c.condition = below(2);
      c.bool_address = below(256);
      c.is_predicated_break = c.opcode == CfOpcode::kLoopEnd && below(2);
    } else if (c.opcode == CfOpcode::kAlloc) {
      c.alloc_type = AllocType(below(4));
    }
  }
  std::vector<uint32_t> dwords = PackCf(cf);
  for (uint32_t i = 0; i < slots; ++i) {
    std::array<uint32_t, 3> raw = {uint32_t(g()), uint32_t(g()), uint32_t(g())};
    if (is_fetch[i]) {
      constexpr uint32_t kOps[] = {0, 1, 16, 17, 18, 19, 24, 25, 26};
      // Vertex fetches (op 0) only when asked (the caller gives them guest memory).
      raw[0] = (raw[0] & ~0x1Fu) | kOps[vertex_fetch ? below(9) : 1 + below(8)];
    } else {
      uint32_t sop;
      do {
        sop = below(kScalarOpCount);
      } while (!IsValidScalarOp(sop));
      raw[0] = (raw[0] & 0x03FFFFFFu) | (sop << 26);
      raw[2] = (raw[2] & ~(0x1Fu << 24)) | (below(kVectorOpCount) << 24);
    }
    dwords.insert(dwords.end(), raw.begin(), raw.end());
  }
  return dwords;
}

}  // namespace xnt::ucode::test
