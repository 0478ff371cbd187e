// Xbox 360 fxc shader container loader. The layout is documented in container.h; it was worked
// out from the 8 corpus blobs (no public specification), so every offset and count is checked
// against the blob size before use.
#include "xnt/ucode/container.h"

#include <cstring>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"

namespace xnt::ucode {
namespace {

class Blob {
 public:
  explicit Blob(std::span<const uint8_t> bytes) : b_(bytes) {}
  size_t size() const { return b_.size(); }
  void Need(uint64_t offset, uint64_t length, const char* what) const {
    if (offset > b_.size() || length > b_.size() - offset) {
      throw Error(std::string("shader container: ") + what + " (" + std::to_string(length) +
                      " bytes at " + std::to_string(offset) + ") runs past the end of the " +
                      std::to_string(b_.size()) + "-byte blob",
                  offset);
    }
  }
  uint32_t U32(uint64_t offset, const char* what) const {
    Need(offset, 4, what);
    return LoadBE32(b_.data() + offset);
  }
  uint16_t U16(uint64_t offset, const char* what) const {
    Need(offset, 2, what);
    return uint16_t((b_[offset] << 8) | b_[offset + 1]);
  }
  std::string CString(uint64_t offset, uint64_t end, const char* what) const {
    Need(offset, 0, what);
    std::string s;
    for (uint64_t i = offset; i < end && i < b_.size(); ++i) {
      if (b_[i] == 0) return s;
      s += char(b_[i]);
    }
    throw Error(std::string("shader container: unterminated ") + what, offset);
  }

 private:
  std::span<const uint8_t> b_;
};

void LoadConstantTable(const Blob& b, uint32_t offset, ContainerFile& out) {
  const uint32_t size = b.U32(offset, "constant table size");
  const uint64_t base = uint64_t(offset) + 4;
  b.Need(base, size, "constant table");
  const uint64_t end = base + size;
  if (size < 28) throw Error("shader container: constant table shorter than its header", base);
  // D3DXSHADER_CONSTANTTABLE: Size, Creator, Version, Constants, ConstantInfo, Flags, Target.
  const uint32_t creator = b.U32(base + 4, "CTAB creator");
  const uint32_t count = b.U32(base + 12, "CTAB constant count");
  const uint32_t info = b.U32(base + 16, "CTAB constant info");
  const uint32_t target = b.U32(base + 24, "CTAB target");
  if (creator < size) out.creator = b.CString(base + creator, end, "CTAB creator string");
  if (target < size) out.target = b.CString(base + target, end, "CTAB target string");
  if (uint64_t(count) * 20 > size || info > size - uint64_t(count) * 20) {
    throw Error("shader container: " + std::to_string(count) +
                    " constant entries do not fit the constant table",
                base + 12);
  }
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t e = base + info + uint64_t(i) * 20;
    ConstantDecl d;
    const uint32_t name = b.U32(e, "constant name");
    if (name >= size) throw Error("shader container: constant name outside the table", e);
    d.name = b.CString(base + name, end, "constant name");
    d.register_set = b.U16(e + 4, "register set");
    d.register_index = b.U16(e + 6, "register index");
    d.register_count = b.U16(e + 8, "register count");
    const uint32_t type = b.U32(e + 12, "type info");
    if (type > size - 16) throw Error("shader container: type info outside the table", e + 12);
    const uint64_t t = base + type;
    d.param_class = b.U16(t, "class");
    d.param_type = b.U16(t + 2, "type");
    d.rows = b.U16(t + 4, "rows");
    d.columns = b.U16(t + 6, "columns");
    d.elements = b.U16(t + 8, "elements");
    out.constants.push_back(std::move(d));
  }
}

}  // namespace

bool ContainerFile::ps_centroid_flag() const {
  return type == ShaderType::kPixel && info.size() > 2 && (info[2] & 0x100) != 0;
}

uint32_t ContainerFile::vs_resource() const {
  return type == ShaderType::kVertex && info.size() > 6 ? info[6] : 0;
}

bool IsContainer(std::span<const uint8_t> bytes) {
  if (bytes.size() < 4) return false;
  const uint32_t magic = LoadBE32(bytes.data());
  return magic == kContainerMagicPixel || magic == kContainerMagicVertex;
}

ContainerFile LoadContainer(std::span<const uint8_t> bytes) {
  Blob b(bytes);
  ContainerFile out;
  out.magic = b.U32(0, "magic");
  if (out.magic != kContainerMagicPixel && out.magic != kContainerMagicVertex) {
    throw Error("not an Xbox 360 shader container (magic " + std::to_string(out.magic) + ")", 0);
  }
  out.type = out.magic == kContainerMagicVertex ? ShaderType::kVertex : ShaderType::kPixel;
  const uint32_t program = b.U32(4, "program offset");
  const uint32_t program_size = b.U32(8, "program size");
  if (uint64_t(program) + program_size != bytes.size()) {
    throw Error("shader container: program offset " + std::to_string(program) + " + size " +
                    std::to_string(program_size) + " != blob size " + std::to_string(bytes.size()),
                4);
  }
  const uint32_t ctab = b.U32(16, "constant table offset");
  const uint32_t literals = b.U32(20, "literal table offset");
  const uint32_t info = b.U32(24, "info block offset");
  if (ctab) LoadConstantTable(b, ctab, out);

  // Info block: from its offset to the program data.
  if (info < 28 || info >= program) {
    throw Error("shader container: info block offset " + std::to_string(info) +
                    " is not between the header and the program",
                24);
  }
  for (uint64_t o = info; o + 4 <= program; o += 4) out.info.push_back(b.U32(o, "info block"));
  auto word = [&](size_t i) -> uint32_t {
    if (i >= out.info.size()) {
      throw Error("shader container: info block too short (word " + std::to_string(i) + ")",
                  info + 4 * uint64_t(i));
    }
    return out.info[i];
  };
  const uint32_t literal_bytes = word(0);
  const uint32_t code_bytes = word(1);
  if (uint64_t(literal_bytes) + code_bytes != program_size || code_bytes < 12 ||
      literal_bytes % 16 != 0 || (code_bytes - 12) % 12 != 0) {
    throw Error("shader container: literal (" + std::to_string(literal_bytes) + ") and code (" +
                    std::to_string(code_bytes) + ") sizes do not add up to the program size " +
                    std::to_string(program_size),
                info);
  }
  if (out.type == ShaderType::kPixel) {
    const uint32_t n = word(3) / 4;
    for (uint32_t i = 0; i < n; ++i) {
      InterpolatorDecl d;
      d.raw = word(8 + i);
      d.mask = (d.raw >> 12) & 0xF;
      d.reg = (d.raw >> 8) & 0xF;
      d.semantic = {(d.raw >> 4) & 0xF, d.raw & 0xF};
      // Inferred from pstex2clr4360 (the one corpus shader with dcl_color_centroid).
      d.centroid = out.ps_centroid_flag() && d.semantic.usage == 10;
      out.interpolators.push_back(d);
    }
  } else {
    const uint32_t fetches = word(7), interps = word(8);
    if (fetches > out.info.size() || interps > out.info.size()) {
      throw Error("shader container: binding counts exceed the info block", info + 28);
    }
    size_t at = 10;
    for (uint32_t i = 0; i < fetches; ++i, ++at) {
      VertexFetchBinding v;
      v.raw = word(at);
      v.semantic = {(v.raw >> 12) & 0xF, (v.raw >> 8) & 0xF};
      v.slot = v.raw & 0xFF;
      out.vertex_fetches.push_back(v);
    }
    for (uint32_t i = 0; i < interps; ++i, ++at) {
      InterpolatorDecl d;
      d.raw = word(at);
      d.mask = (d.raw >> 12) & 0xF;
      d.reg = (d.raw >> 8) & 0xF;
      d.semantic = {(d.raw >> 4) & 0xF, d.raw & 0xF};
      out.interpolators.push_back(d);
    }
    for (uint32_t i = 0; i < interps; ++i, ++at) out.export_slots.push_back(word(at) & 0xFFF);
  }

  // Literal constants: float4 values at the start of the program, registers from the table.
  if (literals) {
    if (literals >= info) throw Error("shader container: literal table overlaps the info block", 20);
    const uint32_t entries = b.U32(literals + 4, "literal entry count");
    if (entries > (info - literals) / 4) {
      throw Error("shader container: literal entry count " + std::to_string(entries) +
                      " exceeds its table",
                  literals + 4);
    }
    uint64_t data = program;
    uint64_t consumed = 0;
    for (uint32_t i = 0; i < entries; ++i) {
      const uint32_t e = b.U32(literals + 20 + 4 * uint64_t(i), "literal entry");
      const uint32_t reg = e >> 16, floats = e & 0xFFFF;
      if (floats % 4 != 0 || consumed + uint64_t(floats) * 4 > literal_bytes) {
        throw Error("shader container: literal entry " + std::to_string(i) +
                        " does not match the literal data",
                    literals + 20 + 4 * uint64_t(i));
      }
      for (uint32_t k = 0; k < floats / 4; ++k) {
        LiteralConstant l;
        l.register_index = reg + k;
        for (uint32_t c = 0; c < 4; ++c) {
          const uint32_t bits = b.U32(data + consumed, "literal value");
          std::memcpy(&l.value[c], &bits, 4);
          consumed += 4;
        }
        out.literals.push_back(l);
      }
    }
  }

  out.microcode_offset = program + literal_bytes;
  const uint32_t code_dwords = (code_bytes - 12) / 4;
  for (uint32_t i = 0; i < code_dwords; ++i) {
    out.microcode.push_back(b.U32(out.microcode_offset + 4 * uint64_t(i), "microcode"));
  }
  for (uint32_t i = 0; i < 3; ++i) {
    out.trailer.push_back(b.U32(out.microcode_offset + 4 * uint64_t(code_dwords + i), "trailer"));
  }
  return out;
}

}  // namespace xnt::ucode
