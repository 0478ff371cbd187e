// Whole-shader decoding: control-flow pairs, then the ALU/fetch slots that the execs reference.
#include <algorithm>
#include <string>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode {
namespace {

// Dword index of CF instruction i (two CF instructions per three dwords).
uint32_t CfDword(uint32_t i) { return (i / 2) * 3 + (i % 2); }

[[noreturn]] void Fail(uint32_t dword, const std::string& what) {
  throw Error("microcode dword " + std::to_string(dword) + ": " + what, uint64_t(dword) * 4);
}

bool HasCfTarget(CfOpcode op) {
  return op == CfOpcode::kLoopStart || op == CfOpcode::kLoopEnd || op == CfOpcode::kCondCall ||
         op == CfOpcode::kCondJmp;
}

}  // namespace

std::vector<uint32_t> LoadMicrocodeBE(std::span<const uint8_t> bytes) {
  if (bytes.size() % 4 != 0) {
    throw Error("microcode size " + std::to_string(bytes.size()) + " is not a multiple of 4 bytes",
                bytes.size() & ~size_t(3));
  }
  std::vector<uint32_t> out(bytes.size() / 4);
  for (size_t i = 0; i < out.size(); ++i) out[i] = LoadBE32(bytes.data() + 4 * i);
  return out;
}

std::vector<uint8_t> StoreMicrocodeBE(std::span<const uint32_t> dwords) {
  std::vector<uint8_t> out(dwords.size() * 4);
  for (size_t i = 0; i < dwords.size(); ++i) StoreBE32(out.data() + 4 * i, dwords[i]);
  return out;
}

Shader Decode(std::span<const uint32_t> dwords, ShaderType type) {
  if (dwords.empty()) throw Error("empty microcode", 0);
  if (dwords.size() % 3 != 0) {
    Fail(uint32_t(dwords.size()), "microcode is " + std::to_string(dwords.size()) +
                                      " dwords, not a whole number of 3-dword instructions");
  }
  Shader shader;
  shader.type = type;
  shader.dwords.assign(dwords.begin(), dwords.end());
  const uint32_t total_slots = uint32_t(dwords.size() / 3);

  // Control flow occupies the slots before the first instruction any exec references (Xenia
  // shader_translator.cc stops the CF scan at the lowest exec address as well).
  uint32_t limit = total_slots;
  uint32_t pair = 0;
  for (; pair < limit; ++pair) {
    const uint32_t* d = &dwords[pair * 3];
    uint64_t a = uint64_t(d[0]) | (uint64_t(d[1] & 0xFFFF) << 32);
    uint64_t b = uint64_t((d[1] >> 16) | (d[2] << 16)) | (uint64_t(d[2] >> 16) << 32);
    for (uint64_t bits : {a, b}) {
      CfInstruction cf = DecodeCf(bits);
      const uint32_t index = uint32_t(shader.cf.size());
      if (IsExec(cf.opcode) && cf.count > 0) {
        if (cf.count > 6) {
          Fail(CfDword(index), "exec count " + std::to_string(cf.count) +
                                   " exceeds the 6 instructions its sequence bits describe");
        }
        if (cf.address <= pair) {
          Fail(CfDword(index), "exec at CF " + std::to_string(index) + " targets slot " +
                                   std::to_string(cf.address) + " inside the control-flow area");
        }
        limit = std::min(limit, cf.address);
      }
      shader.cf.push_back(cf);
    }
  }
  shader.cf_slots = pair;

  const uint32_t cf_count = uint32_t(shader.cf.size());
  for (uint32_t i = 0; i < cf_count; ++i) {
    const CfInstruction& cf = shader.cf[i];
    if (HasCfTarget(cf.opcode) && cf.address >= cf_count) {
      Fail(CfDword(i), "CF " + std::to_string(i) + " targets L" + std::to_string(cf.address) +
                           ", outside the " + std::to_string(cf_count) +
                           " control-flow instructions");
    }
    if (IsExec(cf.opcode) && cf.count > 0 && cf.address + cf.count > total_slots) {
      Fail(CfDword(i), "exec at CF " + std::to_string(i) + " runs slots " +
                           std::to_string(cf.address) + "-" +
                           std::to_string(cf.address + cf.count - 1) + " past the end (" +
                           std::to_string(total_slots) + " slots)");
    }
  }

  shader.slots.resize(total_slots - shader.cf_slots);
  for (uint32_t s = shader.cf_slots; s < total_slots; ++s) {
    Instruction& ins = shader.slots[s - shader.cf_slots];
    ins.slot = s;
    ins.raw = {dwords[3 * s], dwords[3 * s + 1], dwords[3 * s + 2]};
  }
  for (uint32_t i = 0; i < cf_count; ++i) {
    const CfInstruction& cf = shader.cf[i];
    if (!IsExec(cf.opcode)) continue;
    for (uint32_t k = 0; k < cf.count; ++k) {
      const uint32_t s = cf.address + k;
      Instruction& ins = shader.slots[s - shader.cf_slots];
      const SlotKind kind = cf.IsFetch(k) ? SlotKind::kFetch : SlotKind::kAlu;
      if (ins.kind != SlotKind::kUnreferenced) {
        if (ins.kind != kind) {
          Fail(3 * s, "slot " + std::to_string(s) +
                          " is executed both as an ALU and as a fetch instruction");
        }
        continue;
      }
      try {
        if (kind == SlotKind::kFetch) {
          ins.fetch = DecodeFetch(ins.raw);
        } else {
          ins.alu = DecodeAlu(ins.raw);
        }
      } catch (const Error& e) {
        Fail(3 * s, "slot " + std::to_string(s) + ": " + e.bare_message());
      }
      ins.kind = kind;
    }
  }
  return shader;
}

}  // namespace xnt::ucode
