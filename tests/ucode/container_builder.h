// Builds synthetic XDK shader containers in the layout container.h documents, so the loader can
// be tested (and fuzzed) without copying the corpus blobs into the project.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "xnt/base/byte_order.h"
#include "xnt/ucode/container.h"

namespace xnt::ucode::test {

struct ContainerSpec {
  ShaderType type = ShaderType::kVertex;
  std::vector<ConstantDecl> constants;
  std::vector<LiteralConstant> literals;         // consecutive registers, one table entry
  std::vector<VertexFetchBinding> fetches;       // VS
  std::vector<InterpolatorDecl> interpolators;
  std::vector<uint32_t> microcode;
  uint32_t vs_resource = 1;
};

class BeWriter {
 public:
  void U32(uint32_t v) {
    uint8_t b[4];
    StoreBE32(b, v);
    bytes.insert(bytes.end(), b, b + 4);
  }
  void U16(uint16_t v) {
    bytes.push_back(uint8_t(v >> 8));
    bytes.push_back(uint8_t(v));
  }
  void Str(const std::string& s) {
    bytes.insert(bytes.end(), s.begin(), s.end());
    bytes.push_back(0);
    while (bytes.size() % 4) bytes.push_back(0xAB);
  }
  void Patch(size_t at, uint32_t v) { StoreBE32(bytes.data() + at, v); }
  std::vector<uint8_t> bytes;
};

inline std::vector<uint8_t> BuildContainer(const ContainerSpec& s) {
  // Constant table (big-endian D3DXSHADER_CONSTANTTABLE).
  BeWriter ctab;
  const uint32_t n = uint32_t(s.constants.size());
  ctab.U32(28);
  ctab.U32(0);  // creator, patched
  ctab.U32(s.type == ShaderType::kVertex ? 0xFFFE0300 : 0xFFFF0300);
  ctab.U32(n);
  ctab.U32(28);
  ctab.U32(0);
  ctab.U32(0);  // target, patched
  for (uint32_t i = 0; i < n; ++i) {
    for (int k = 0; k < 5; ++k) ctab.U32(0);  // patched below
  }
  std::vector<uint32_t> type_offsets, name_offsets;
  for (const auto& c : s.constants) {
    name_offsets.push_back(uint32_t(ctab.bytes.size()));
    ctab.Str(c.name);
    type_offsets.push_back(uint32_t(ctab.bytes.size()));
    ctab.U16(uint16_t(c.param_class));
    ctab.U16(uint16_t(c.param_type));
    ctab.U16(uint16_t(c.rows));
    ctab.U16(uint16_t(c.columns));
    ctab.U16(uint16_t(c.elements));
    ctab.U16(0);
    ctab.U32(0);
  }
  for (uint32_t i = 0; i < n; ++i) {
    const size_t e = 28 + 20 * i;
    ctab.Patch(e, name_offsets[i]);
    const auto& c = s.constants[i];
    ctab.Patch(e + 4, (c.register_set << 16) | c.register_index);
    ctab.Patch(e + 8, c.register_count << 16);
    ctab.Patch(e + 12, type_offsets[i]);
  }
  ctab.Patch(24, uint32_t(ctab.bytes.size()));
  ctab.Str(s.type == ShaderType::kVertex ? "vs_3_0" : "ps_3_0");
  ctab.Patch(4, uint32_t(ctab.bytes.size()));
  ctab.Str("xenotrace-test");

  BeWriter out;
  for (int i = 0; i < 9; ++i) out.U32(0);
  out.Patch(0, s.type == ShaderType::kVertex ? kContainerMagicVertex : kContainerMagicPixel);
  out.Patch(16, uint32_t(out.bytes.size()));
  out.U32(uint32_t(ctab.bytes.size()));
  out.bytes.insert(out.bytes.end(), ctab.bytes.begin(), ctab.bytes.end());

  // Definition table: 4 unknown words, entry bytes, one float4 entry, three list terminators.
  const bool pixel = s.type == ShaderType::kPixel;
  const uint32_t literal_bytes = uint32_t(s.literals.size() * 16);
  if (!s.literals.empty()) {
    out.Patch(20, uint32_t(out.bytes.size()));
    out.U32(0);
    out.U32(1);
    out.U32(0);
    out.U32(0);
    out.U32(20);
    out.U32(((s.literals[0].register_index + (pixel ? 256 : 0)) << 16) |
            uint32_t(s.literals.size() * 4));
    out.U32(0);  // byte offset in the program data
    for (int i = 0; i < 3; ++i) out.U32(0);
  }
  const uint32_t code_bytes = uint32_t(s.microcode.size() * 4 + 12);
  out.Patch(24, uint32_t(out.bytes.size()));
  out.U32(literal_bytes);
  out.U32(code_bytes);
  const uint32_t n_interp = uint32_t(s.interpolators.size());
  if (pixel) {
    out.U32(0x10000000);          // SQ_PROGRAM_CNTL: no PsMaxReg
    out.U32(1u << 2);             // SQ_CONTEXT_MISC: sample at centres
    out.U32(0);
    out.U32(n_interp | n_interp << 5);
    uint32_t centers = 0;
    for (const auto& d : s.interpolators) {
      if (!d.centroid) centers |= 1u << (16 + d.reg);
    }
    out.U32(centers | 1);
    out.U32(1);                   // oC0
    for (const auto& d : s.interpolators) {
      out.U32((d.mask << 12) | (d.reg << 8) | (d.semantic.usage << 4) | d.semantic.usage_index);
    }
  } else {
    out.U32(2 | (s.vs_resource << 16));  // VsMaxReg=2
    out.U32(0);
    out.U32(0);
    out.U32(n_interp | n_interp << 5);
    out.U32(1);
    out.U32(uint32_t(s.fetches.size()));
    out.U32(0);
    out.U32(0x290);  // dcl_index r0.x
    for (const auto& f : s.fetches) {
      out.U32((f.semantic.usage_index << 16) | (f.semantic.usage << 12) | f.slot);
    }
    for (const auto& d : s.interpolators) {
      out.U32((d.mask << 12) | (d.reg << 8) | (d.semantic.usage << 4) | d.semantic.usage_index);
    }
  }
  const uint32_t program = uint32_t(out.bytes.size());
  for (const auto& l : s.literals) {
    for (float f : l.value) {
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      out.U32(bits);
    }
  }
  for (uint32_t w : s.microcode) out.U32(w);
  for (int i = 0; i < 3; ++i) out.U32(0);
  out.Patch(4, program);
  out.Patch(8, uint32_t(out.bytes.size()) - program);
  return std::move(out.bytes);
}

}  // namespace xnt::ucode::test
