// Xbox 360 fxc shader container loader and writer. The layout and its sources are documented in
// container.h. Every offset and count is checked against the blob before use; a failure names the
// byte offset and the field ("shader container: byte 140: info block: ...").
#include "xnt/ucode/container.h"

#include <algorithm>
#include <cstring>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"

namespace xnt::ucode {
namespace {

[[noreturn]] void Fail(uint64_t offset, const std::string& field, const std::string& what) {
  throw Error("shader container: byte " + std::to_string(offset) + ": " + field + ": " + what,
              offset);
}

class Blob {
 public:
  explicit Blob(std::span<const uint8_t> bytes) : b_(bytes) {}
  size_t size() const { return b_.size(); }
  std::span<const uint8_t> bytes() const { return b_; }
  void Need(uint64_t offset, uint64_t length, const char* what) const {
    if (offset > b_.size() || length > b_.size() - offset) {
      Fail(offset, what,
           std::to_string(length) + " bytes run past the end of the " + std::to_string(b_.size()) +
               "-byte blob");
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
  // A NUL-terminated string that must end before `end`.
  std::string CString(uint64_t offset, uint64_t end, const char* what) const {
    Need(offset, 0, what);
    std::string s;
    for (uint64_t i = offset; i < end && i < b_.size(); ++i) {
      if (b_[i] == 0) return s;
      s += char(b_[i]);
    }
    Fail(offset, what, "string not terminated inside its table");
  }

 private:
  std::span<const uint8_t> b_;
};

// ---- Constant table (D3DXSHADER_CONSTANTTABLE, big-endian) -----------------------------------

class ConstantTableReader {
 public:
  ConstantTableReader(const Blob& b, uint64_t base, uint32_t size)
      : b_(b), base_(base), size_(size), end_(base + size) {}

  // Offsets inside the table are relative to its start (as in D3D9).
  uint64_t At(uint32_t rel, uint32_t length, uint64_t field_at, const char* what) const {
    if (rel > size_ || length > size_ - rel) {
      Fail(field_at, what,
           "offset " + std::to_string(rel) + " lies outside the " + std::to_string(size_) +
               "-byte constant table");
    }
    return base_ + rel;
  }

  ConstantType Type(uint32_t rel, uint64_t field_at, int depth) {
    if (depth > 8) Fail(field_at, "CTAB type info", "struct members nested deeper than 8");
    const uint64_t t = At(rel, 16, field_at, "CTAB type info");
    ConstantType type;
    type.param_class = b_.U16(t, "CTAB class");
    type.param_type = b_.U16(t + 2, "CTAB type");
    type.rows = b_.U16(t + 4, "CTAB rows");
    type.columns = b_.U16(t + 6, "CTAB columns");
    type.elements = b_.U16(t + 8, "CTAB elements");
    const uint32_t members = b_.U16(t + 10, "CTAB struct member count");
    const uint32_t member_info = b_.U32(t + 12, "CTAB struct member info");
    if (members) {
      // D3DXSHADER_STRUCTMEMBERINFO: name offset, type info offset (8 bytes each).
      if (uint64_t(members) * 8 > size_) Fail(t + 10, "CTAB struct member count", "too many members");
      budget_ += members;
      if (budget_ > 4096) Fail(t + 10, "CTAB struct member count", "more than 4096 members in all");
      const uint64_t m = At(member_info, members * 8, t + 12, "CTAB struct member info");
      for (uint32_t i = 0; i < members; ++i) {
        ConstantMember member;
        const uint32_t name = b_.U32(m + 8 * i, "CTAB member name");
        member.name = b_.CString(At(name, 1, m + 8 * i, "CTAB member name"), end_, "CTAB member name");
        member.type = Type(b_.U32(m + 8 * i + 4, "CTAB member type"), m + 8 * i + 4, depth + 1);
        type.members.push_back(std::move(member));
      }
    }
    return type;
  }

  void Read(ContainerFile& out) {
    if (size_ < 28) Fail(base_, "CTAB header", "table shorter than its 28-byte header");
    const uint32_t creator = b_.U32(base_ + 4, "CTAB creator");
    const uint32_t count = b_.U32(base_ + 12, "CTAB constant count");
    const uint32_t info = b_.U32(base_ + 16, "CTAB constant info");
    const uint32_t target = b_.U32(base_ + 24, "CTAB target");
    if (creator) out.creator = b_.CString(At(creator, 1, base_ + 4, "CTAB creator"), end_, "CTAB creator");
    if (target) out.target = b_.CString(At(target, 1, base_ + 24, "CTAB target"), end_, "CTAB target");
    if (uint64_t(count) * 20 > size_) Fail(base_ + 12, "CTAB constant count", "entries do not fit the table");
    const uint64_t entries = At(info, count * 20, base_ + 16, "CTAB constant info");
    for (uint32_t i = 0; i < count; ++i) {
      const uint64_t e = entries + uint64_t(i) * 20;
      ConstantDecl d;
      const uint32_t name = b_.U32(e, "CTAB constant name");
      d.name = b_.CString(At(name, 1, e, "CTAB constant name"), end_, "CTAB constant name");
      d.register_set = b_.U16(e + 4, "CTAB register set");
      d.register_index = b_.U16(e + 6, "CTAB register index");
      d.register_count = b_.U16(e + 8, "CTAB register count");
      ConstantType type = Type(b_.U32(e + 12, "CTAB type info"), e + 12, 0);
      d.param_class = type.param_class;
      d.param_type = type.param_type;
      d.rows = type.rows;
      d.columns = type.columns;
      d.elements = type.elements;
      d.members = std::move(type.members);
      const uint32_t def = b_.U32(e + 16, "CTAB default value");
      if (def) {
        // D3D9 stores a default as whole registers of four 32-bit values.
        const uint64_t words = uint64_t(d.register_count) * 4;
        const uint64_t at = At(def, uint32_t(std::min<uint64_t>(words * 4, size_ + 1)), e + 16,
                               "CTAB default value");
        for (uint64_t k = 0; k < words; ++k) d.default_value.push_back(b_.U32(at + 4 * k, "CTAB default value"));
      }
      out.constants.push_back(std::move(d));
    }
  }

 private:
  const Blob& b_;
  uint64_t base_;
  uint32_t size_;
  uint64_t end_;
  uint32_t budget_ = 0;
};

// ---- Definition table ------------------------------------------------------------------------

void ReadDefinitions(const Blob& b, uint64_t at, uint64_t end, uint64_t program,
                     uint64_t literal_bytes, ContainerFile& out) {
  if (end - at < 20) Fail(at, "definition table", "shorter than its 20-byte header");
  const uint32_t size = b.U32(at + 16, "definition table size");
  if (size % 4 || size > end - at - 20) {
    Fail(at + 16, "definition table size",
         std::to_string(size) + " bytes do not fit before the info block");
  }
  for (uint64_t o = at; o < end; o += 4) out.definition_table.push_back(b.U32(o, "definition table"));
  uint64_t p = at + 20;
  const uint64_t stop = at + 20 + size;
  auto word = [&](const char* what) {
    if (p + 4 > stop) Fail(p, what, "list runs past the table (missing 0 terminator)");
    const uint32_t w = b.U32(p, what);
    p += 4;
    return w;
  };
  const bool pixel = out.type == ShaderType::kPixel;
  // float4 literals: register, float count, byte offset into the program data.
  for (uint32_t w; (w = word("float literal entry")) != 0;) {
    const uint64_t entry_at = p - 4;
    const uint32_t reg = w >> 16, floats = w & 0xFFFF;
    const uint32_t offset = word("float literal offset");
    if (uint64_t(offset) + uint64_t(floats) * 4 > literal_bytes) {
      Fail(entry_at, "float literal entry",
           std::to_string(floats) + " floats at offset " + std::to_string(offset) +
               " run past the " + std::to_string(literal_bytes) + " literal bytes");
    }
    if (pixel && reg < 256) Fail(entry_at, "float literal entry", "pixel-shader register below 256");
    for (uint32_t k = 0; k * 4 < floats; ++k) {
      LiteralConstant l;
      l.register_index = reg + k - (pixel ? 256 : 0);
      for (uint32_t c = 0; c < 4 && k * 4 + c < floats; ++c) {
        const uint32_t bits = b.U32(program + offset + 16 * uint64_t(k) + 4 * c, "float literal value");
        std::memcpy(&l.value[c], &bits, 4);
      }
      out.literals.push_back(l);
    }
  }
  // int4 literals: register (loop-constant register number, 4 per constant from 0x2320 as
  // XenosRecomp reads it), count, then one packed int8x4 word per constant.
  for (uint32_t w; (w = word("int literal entry")) != 0;) {
    const uint64_t entry_at = p - 4;
    const uint32_t reg = w >> 16, count = w & 0xFFFF;
    if (count > (stop - p) / 4) Fail(entry_at, "int literal entry", "count runs past the table");
    for (uint32_t k = 0; k < count; ++k) {
      const uint32_t v = word("int literal value");
      IntLiteralConstant l;
      l.register_index = (reg >= 0x2320 ? (reg - 0x2320) / 4 : reg) + k;
      for (uint32_t c = 0; c < 4; ++c) l.value[c] = int8_t(uint8_t(v >> (8 * c)));
      out.int_literals.push_back(l);
    }
  }
  // Boolean literals: the layout is not known; the words stay in definition_table.
}

// ---- Info block ------------------------------------------------------------------------------

InterpolatorDecl Interpolator(uint32_t raw) {
  InterpolatorDecl d;
  d.raw = raw;
  d.semantic = {(raw >> 4) & 0xF, raw & 0xF};
  d.reg = (raw >> 8) & 0xF;
  d.mask = (raw >> 12) & 0xF;
  return d;
}

void ReadInfo(const Blob& b, uint64_t at, uint64_t end, ContainerFile& out) {
  for (uint64_t o = at; o + 4 <= end; o += 4) out.info.push_back(b.U32(o, "info block"));
  size_t next = 0;
  auto word = [&](const char* what) {
    if (next >= out.info.size()) {
      Fail(at + 4 * uint64_t(next), what,
           "info block (" + std::to_string(out.info.size()) + " words) ends before this word");
    }
    return out.info[next++];
  };
  word("microcode offset");
  word("microcode size");
  word("program control");
  word("context misc");
  word("info word 4");
  const uint32_t interp_info = word("interpolator info");
  const uint32_t interps = (interp_info >> 5) & 0x1F;
  if (out.type == ShaderType::kPixel) {
    const uint32_t sampling = word("interpolator sampling");
    word("pixel shader outputs");
    for (uint32_t i = 0; i < interps; ++i) {
      InterpolatorDecl d = Interpolator(word("interpolator"));
      d.centroid = ((sampling >> (16 + d.reg)) & 1) == 0;
      out.interpolators.push_back(d);
    }
  } else {
    const uint32_t indexes = word("index declaration count");
    const uint32_t elements = word("vertex element count");
    const uint32_t exports = word("export slot count");
    const uint64_t need = uint64_t(indexes) + elements + interps + exports;
    if (need > out.info.size() - next) {
      Fail(at + 24, "vertex shader info counts",
           std::to_string(indexes) + " index declarations + " + std::to_string(elements) +
               " vertex elements + " + std::to_string(interps) + " interpolators + " +
               std::to_string(exports) + " export slots exceed the " +
               std::to_string(out.info.size() - next) + " words left in the info block");
    }
    for (uint32_t i = 0; i < indexes; ++i) {
      IndexDecl d;
      d.raw = word("index declaration");
      // Three public samples: r0.x -> 0x290, r1.x -> 0x391, r0.xyz -> 0xE90 (usage 9 in bits
      // 4-7, usage index in bits 0-3): bit 8 is the register's low bit and bits 9-12 the
      // component mask; the higher register bits are taken to continue at bit 13.
      d.usage_index = d.raw & 0xF;
      d.reg = ((d.raw >> 8) & 1) | ((d.raw >> 13) << 1);
      d.mask = (d.raw >> 9) & 0xF;
      out.index_decls.push_back(d);
    }
    for (uint32_t i = 0; i < elements; ++i) {
      VertexFetchBinding v;
      v.raw = word("vertex element");
      v.slot = v.raw & 0xFFF;
      v.semantic = {(v.raw >> 12) & 0xF, (v.raw >> 16) & 0xF};
      out.vertex_fetches.push_back(v);
    }
    for (uint32_t i = 0; i < interps; ++i) out.interpolators.push_back(Interpolator(word("interpolator")));
    for (uint32_t i = 0; i < exports; ++i) out.export_slots.push_back(word("export slot"));
  }
  // Words after the declarations (none in any sample) stay in `info` unprinted.
}

void PutBE32(std::vector<uint8_t>& out, uint32_t v) {
  uint8_t b[4];
  StoreBE32(b, v);
  out.insert(out.end(), b, b + 4);
}

}  // namespace

bool ContainerFile::ps_centroid_flag() const {
  for (const auto& i : interpolators) {
    if (i.centroid) return true;
  }
  return false;
}

bool IsContainer(std::span<const uint8_t> bytes) {
  if (bytes.size() < 4) return false;
  const uint32_t magic = LoadBE32(bytes.data());
  return (magic & 0xFFFFFF00u) == 0x102A1100u;
}

ContainerFile LoadContainer(std::span<const uint8_t> bytes) {
  Blob b(bytes);
  ContainerFile out;
  for (uint32_t i = 0; i < 9; ++i) out.header[i] = b.U32(4 * i, "header");
  out.magic = out.header[0];
  if ((out.magic & 0xFFFFFF00u) != 0x102A1100u) {
    Fail(0, "magic", "not an Xbox 360 shader container (0x102A11xx expected)");
  }
  // Observed: 0x102A1100 pixel, 0x102A1101 / 0x102A1111 vertex; bit 0 is the shader type.
  out.type = (out.magic & 1) ? ShaderType::kVertex : ShaderType::kPixel;
  const uint32_t program = out.header[1];
  const uint32_t program_size = out.header[2];
  if (uint64_t(program) + program_size != bytes.size()) {
    Fail(4, "program offset",
         std::to_string(program) + " + program size " + std::to_string(program_size) +
             " != blob size " + std::to_string(bytes.size()));
  }
  if (program % 4) Fail(4, "program offset", std::to_string(program) + " is not a multiple of 4");
  const uint32_t ctab = out.header[4], defs = out.header[5], info = out.header[6];
  const uint32_t debug = out.header[3];
  // The compiler writes header, constant table, definitions, info, program in that order; other
  // layouts are accepted as long as the regions lie between the header and the program without
  // overlapping (each region ends where the next one starts, or before it: gap bytes are kept).
  auto check_start = [&](uint32_t at, uint64_t field, const char* what) {
    if (at < 36 || at >= program || at % 4) {
      Fail(field, what, std::to_string(at) + " is not a 4-aligned offset between the 36-byte header and the program at " +
                            std::to_string(program));
    }
  };
  check_start(info, 24, "info block offset");
  if (debug) check_start(debug, 12, "debug-information offset");
  if (defs) check_start(defs, 20, "definition table offset");
  if (ctab) check_start(ctab, 16, "constant table offset");
  if ((ctab && (ctab == defs || ctab == info || ctab == debug)) || (defs && (defs == info || defs == debug)) ||
      debug == info) {
    Fail(16, "region offsets", "two regions start at the same byte");
  }
  auto region_end = [&](uint32_t start) {
    uint32_t end = program;
    for (uint32_t o : {ctab, defs, info, debug}) {
      if (o > start && o < end) end = o;
    }
    return end;
  };
  out.layout = {ctab, defs, info, region_end(info)};
  if (ctab) {
    const uint32_t ctab_end = region_end(ctab);
    const uint32_t size = b.U32(ctab, "constant table size");
    if (uint64_t(size) + 4 > ctab_end - ctab) {
      Fail(ctab, "constant table size",
           std::to_string(size) + " bytes do not fit before byte " + std::to_string(ctab_end));
    }
    ConstantTableReader(b, uint64_t(ctab) + 4, size).Read(out);
    out.constant_table.assign(bytes.begin() + ctab + 4, bytes.begin() + ctab + 4 + size);
  }
  ReadInfo(b, info, region_end(info), out);
  const uint32_t code_offset = out.info[0], code_bytes = out.info[1];
  if (code_offset % 4 || code_bytes % 4 || code_bytes < 12 ||
      uint64_t(code_offset) + code_bytes > program_size) {
    Fail(info, "microcode offset/size",
         "literal bytes " + std::to_string(code_offset) + " + microcode bytes " +
             std::to_string(code_bytes) + " do not fit the " + std::to_string(program_size) +
             "-byte program");
  }
  if (defs) ReadDefinitions(b, defs, region_end(defs), program, code_offset, out);
  for (uint32_t at = debug; debug && at < region_end(debug); at += 4) {
    out.debug_info.push_back(b.U32(at, "debug-information block"));
  }
  out.program.assign(bytes.begin() + program, bytes.end());
  out.underlay.assign(bytes.begin(), bytes.end());
  out.microcode_offset = program + code_offset;
  const uint32_t code_dwords = (code_bytes - 12) / 4;
  for (uint32_t i = 0; i < code_dwords; ++i) {
    out.microcode.push_back(b.U32(out.microcode_offset + 4 * uint64_t(i), "microcode"));
  }
  for (uint32_t i = 0; i < 3; ++i) {
    out.trailer.push_back(b.U32(out.microcode_offset + 4 * uint64_t(code_dwords + i), "microcode tail"));
  }
  return out;
}

namespace {

// The loaded layout, if every region still has its loaded size.
bool KeepsLayout(const ContainerFile& c) {
  if (c.underlay.empty() || c.underlay.size() != uint64_t(c.header[1]) + c.program.size()) return false;
  const auto& l = c.layout;
  if (!l[2] || c.info.size() * 4 != l[3] - l[2]) return false;
  if ((l[0] != 0) != !c.constant_table.empty() || (l[1] != 0) != !c.definition_table.empty()) return false;
  auto fits = [&](uint32_t at, uint64_t length) {
    return at >= 36 && at + length <= c.header[1];
  };
  if (l[0] && !fits(l[0], 4 + c.constant_table.size())) return false;
  if (l[1] && !fits(l[1], 4 * c.definition_table.size())) return false;
  if ((c.header[3] != 0) != !c.debug_info.empty()) return false;
  if (c.header[3] && !fits(c.header[3], 4 * c.debug_info.size())) return false;
  return fits(l[2], 4 * c.info.size());
}

}  // namespace

std::vector<uint8_t> WriteContainer(const ContainerFile& c) {
  std::vector<uint8_t> out;
  std::array<uint32_t, 9> h = c.header;
  if (KeepsLayout(c)) {
    // The regions go back where they were; the bytes between them (padding or data no field
    // describes) come from the loaded blob.
    out = c.underlay;
    auto put = [&](uint32_t at, uint32_t v) { StoreBE32(out.data() + at, v); };
    if (c.layout[0]) {
      put(c.layout[0], uint32_t(c.constant_table.size()));
      std::copy(c.constant_table.begin(), c.constant_table.end(), out.begin() + c.layout[0] + 4);
    }
    for (size_t i = 0; i < c.definition_table.size(); ++i) put(c.layout[1] + 4 * uint32_t(i), c.definition_table[i]);
    for (size_t i = 0; i < c.info.size(); ++i) put(c.layout[2] + 4 * uint32_t(i), c.info[i]);
    for (size_t i = 0; i < c.debug_info.size(); ++i) put(h[3] + 4 * uint32_t(i), c.debug_info[i]);
    std::copy(c.program.begin(), c.program.end(), out.begin() + h[1]);
    h[4] = c.layout[0];
    h[5] = c.layout[1];
    h[6] = c.layout[2];
  } else {
    // The compiler's order: header, debug-information block, constant table, definition
    // table, info block, program (every public container with a block has it at byte 36).
    out.assign(36, 0);
    h[3] = c.debug_info.empty() ? 0 : uint32_t(out.size());
    for (uint32_t w : c.debug_info) PutBE32(out, w);
    uint32_t ctab = 0, defs = 0;
    if (!c.constant_table.empty()) {
      ctab = uint32_t(out.size());
      PutBE32(out, uint32_t(c.constant_table.size()));
      out.insert(out.end(), c.constant_table.begin(), c.constant_table.end());
      while (out.size() % 4) out.push_back(0);
    }
    if (!c.definition_table.empty()) {
      defs = uint32_t(out.size());
      for (uint32_t w : c.definition_table) PutBE32(out, w);
    }
    const uint32_t info = uint32_t(out.size());
    for (uint32_t w : c.info) PutBE32(out, w);
    h[1] = uint32_t(out.size());
    out.insert(out.end(), c.program.begin(), c.program.end());
    h[4] = ctab;
    h[5] = defs;
    h[6] = info;
  }
  h[2] = uint32_t(c.program.size());
  for (uint32_t i = 0; i < 9; ++i) StoreBE32(out.data() + 4 * i, h[i]);
  return out;
}

std::optional<DebuggerHint> ReadDebuggerHint(std::span<const uint32_t> block) {
  if (block.size() < 2) return std::nullopt;
  const uint32_t length = block[1];
  if (length == 0 || uint64_t(block.size() - 2) * 4 != (uint64_t(length) + 3) / 4 * 4) return std::nullopt;
  DebuggerHint hint;
  hint.timestamp = block[0];
  for (uint32_t i = 0; i < (length + 3) / 4 * 4; ++i) {
    const char ch = char(block[2 + i / 4] >> (24 - 8 * (i % 4)));
    if (i >= length) {
      if (ch) return std::nullopt;  // padding other than zeros would be lost
    } else if (ch < 0x20 || ch > 0x7E) {
      return std::nullopt;  // not printable on the listing's one line
    } else {
      hint.updb_path += ch;
    }
  }
  return hint;
}

std::vector<uint32_t> DebuggerHintWords(const DebuggerHint& hint) {
  std::vector<uint32_t> out = {hint.timestamp, uint32_t(hint.updb_path.size())};
  for (size_t i = 0; i < hint.updb_path.size(); ++i) {
    if (i % 4 == 0) out.push_back(0);
    out.back() |= uint32_t(uint8_t(hint.updb_path[i])) << (24 - 8 * (i % 4));
  }
  return out;
}

}  // namespace xnt::ucode
