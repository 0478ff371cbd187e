// Assembler for the XDK listing syntax that disasm.cpp prints. Two passes: parse every line into
// CF entries with their ALU/fetch instructions, then lay the instructions out after the control
// flow (execs take consecutive slots unless an `Addr=` option says otherwise) and pack the bits.
// This file holds that driver: directives, labels, control flow, grouping statements into ALU
// instructions, and layout. Lexing and operands are in assembler_operands.cpp, ALU/fetch encoding
// in assembler_encode.cpp.
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "assembler_internal.h"
#include "syntax.h"
#include "xnt/base/error.h"
#include "xnt/ucode/assembler.h"

namespace xnt::ucode {
namespace assembler_internal {
namespace {

// ---- Parsed program ----------------------------------------------------------------------------

struct InstrEntry {
  bool fetch = false;
  std::array<uint32_t, 3> raw{};
  bool vertex = false;
  std::optional<Semantic> semantic;
  uint32_t line = 0;
};

struct CfEntry {
  CfInstruction cf;
  uint32_t line = 0, col = 0;
  std::vector<InstrEntry> instrs;
  std::optional<uint32_t> addr;
  std::optional<uint32_t> serialize, sequence, vc;
  std::optional<std::pair<Piece, std::string>> target_label;  // label text to resolve
};

class Assembler {
 public:
  Assembler(std::string_view text, std::optional<ShaderType> default_type)
      : text_(text), default_type_(default_type) {}

  AssembledShader Run() {
    SplitLines();
    for (size_t i = 0; i < lines_.size(); ++i) Line(uint32_t(i + 1), lines_[i]);
    FlushAlu();
    if (!type_) {
      if (!default_type_) Fail(1, 1, "missing 'xvs_3_0' or 'xps_3_0' line");
      type_ = *default_type_;
    }
    out_.type = *type_;
    // ALU/fetch statements were encoded as they were read; exports need the type, so the ALU
    // statements are kept and encoded here.
    for (auto& pending : pending_alu_) {
      cfs_[pending.cf].instrs[pending.index].raw = EncodeAlu(BuildAlu(pending.build, *type_));
    }
    Layout();
    return std::move(out_);
  }

 private:
  struct PendingAlu {
    size_t cf = 0, index = 0;
    AluBuild build;
  };

  void SplitLines() {
    size_t start = 0;
    while (start <= text_.size()) {
      size_t end = text_.find('\n', start);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view l = text_.substr(start, end - start);
      size_t comment = l.find("//");
      if (comment != std::string_view::npos) {
        // fxc prints exec attributes as comments: `exec    // PredicateClean=false`.
        if (l.substr(comment).find("PredicateClean=false") != std::string_view::npos) {
          unclean_lines_.insert(uint32_t(lines_.size() + 1));
        }
        l = l.substr(0, comment);
      }
      lines_.push_back(l);
      if (end == text_.size()) break;
      start = end + 1;
    }
  }

  void Line(uint32_t number, std::string_view raw) {
    Piece p = Trim({raw, 1});
    if (p.text.empty()) return;
    std::string_view t = p.text;
    if (t == "xvs_3_0" || t == "xps_3_0") {
      ShaderType type = t == "xvs_3_0" ? ShaderType::kVertex : ShaderType::kPixel;
      if (type_ && *type_ != type) Fail(number, p.col, "conflicting shader type line");
      if (!cfs_.empty()) Fail(number, p.col, "shader type line must come before instructions");
      type_ = type;
      return;
    }
    if (t.substr(0, 9) == "defconst " || t.substr(0, 7) == "config ") return;  // informational
    if (t.substr(0, 4) == "dcl_") return Dcl(number, p);
    if (t.substr(0, 4) == "def ") return Def(number, p);
    if (t.substr(0, 5) == "defi ") return;  // container_assembler.cpp reads it
    // Labels: fxc's `label L7` line, or `L7:`.
    const bool label_line = t.substr(0, 7) == "label L" && t.size() > 7;
    if (label_line || (t.back() == ':' && t.size() > 1 && t[0] == 'L')) {
      std::string name(label_line ? t.substr(7) : t.substr(1, t.size() - 2));
      for (char c : name) {
        if (!IsIdent(c)) Fail(number, p.col, "bad label name '" + name + "'");
      }
      if (labels_.count(name)) Fail(number, p.col, "label L" + name + " defined twice");
      labels_[name] = uint32_t(cfs_.size());
      return;
    }
    if (t.substr(0, 6) == ".slot ") return RawSlot(number, p);
    if (t == "serialize") {
      // Sets the exec's serialize bit of the instruction that follows.
      FlushAlu();
      CfEntry& e = CurrentExec(number, p.col, "serialize");
      if (pending_serialize_) Fail(number, p.col, "two 'serialize' lines in a row");
      pending_serialize_ = true;
      (void)e;
      return;
    }
    statements_.push_back(std::make_unique<Statement>(ParseStatement(p, number)));
    const Statement& st = *statements_.back();
    if (IsCfMnemonic(st.mnemonic)) {
      FlushAlu();
      Cf(st);
      return;
    }
    Instruction(st);
  }

  // -- declarations --

  void Dcl(uint32_t line, Piece p) {
    Statement st = ParseStatement(p, line);
    std::string_view m = st.mnemonic.substr(4);
    // `dcl_index r0.x` / `dcl_index1 r1.x`: where the vertex (or another) index arrives;
    // container_assembler.cpp records it, the microcode does not need it.
    if (m.substr(0, 5) == "index" &&
        m.substr(5).find_first_not_of("0123456789") == std::string_view::npos) {
      return;
    }
    bool centroid = false;
    if (m.size() > 9 && m.substr(m.size() - 9) == "_centroid") {
      centroid = true;
      m = m.substr(0, m.size() - 9);
    }
    auto sem = syntax::ParseSemantic(m);
    if (!sem) st.Error("unknown declaration usage '" + std::string(m) + "'");
    st.ExpectOperands(1);
    RegRef r = ParseReg(st, st.operands[0]);
    if ((r.name != "r" && r.name != "o") || !r.has_index || r.index > 15) {
      st.Error(st.operands[0], "expected r0-r15 or o0-o15");
    }
    InterpolatorDecl d;
    d.semantic = *sem;
    d.reg = r.index;
    d.centroid = centroid;
    d.mask = r.has_swizzle ? LetterMask(st, st.operands[0], r.swizzle) : 0xF;
    out_.interpolators.push_back(d);
  }

  void Def(uint32_t line, Piece p) {
    Statement st = ParseStatement(p, line);
    st.ExpectOperands(5);
    RegRef r = ParseReg(st, st.operands[0]);
    if (r.name != "c" || !r.has_index || r.index > 255 || r.has_swizzle) {
      st.Error(st.operands[0], "expected a float constant c0-c255");
    }
    LiteralConstant l;
    l.register_index = r.index;
    for (int i = 0; i < 4; ++i) {
      if (!ParseFloat(st.operands[1 + i].text, l.value[i])) {
        st.Error(st.operands[1 + i], "expected a number");
      }
    }
    out_.literals.push_back(l);
  }

  void RawSlot(uint32_t line, Piece p) {
    Statement st = ParseStatement({p.text.substr(1), p.col + 1}, line);
    st.ExpectOperands(4);
    uint32_t slot = 0;
    std::array<uint32_t, 3> raw{};
    if (!ParseInt(st.operands[0].text, slot) || slot > 4095) {
      st.Error(st.operands[0], "expected a slot number");
    }
    for (int i = 0; i < 3; ++i) {
      if (!ParseInt(st.operands[1 + i].text, raw[i])) st.Error(st.operands[1 + i], "expected a dword");
    }
    raw_slots_.push_back({slot, raw, line});
  }

  // -- control flow --

  static bool IsCfMnemonic(std::string_view m) {
    static constexpr std::string_view kNames[] = {
        "exec", "exece", "cexec", "cexece", "loop",
        "endloop", "call", "ccall", "jmp", "cjmp", "ret", "alloc", "cnop", "mark_vs_fetch_done"};
    for (auto n : kNames) {
      if (n == m) return true;
    }
    return false;
  }

  uint32_t BoolOperand(const Statement& st, const Piece& p, bool* condition) {
    std::string_view t = p.text;
    *condition = true;
    if (!t.empty() && t[0] == '!') {
      *condition = false;
      t.remove_prefix(1);
    }
    uint32_t b = 0;
    if (t.empty() || t[0] != 'b' || !ParseInt(t.substr(1), b) || b > 255) {
      st.Error(p, "expected a bool constant b0-b255");
    }
    return b;
  }

  void Cf(const Statement& st) {
    if (pending_serialize_) st.Error("'serialize' must precede an instruction of the same exec");
    if (st.plus) st.Error("'+' only prefixes a co-issued scalar instruction");
    CfEntry e;
    e.line = st.line;
    e.col = st.col;
    CfInstruction& cf = e.cf;
    OptionSet opt(st);
    const std::string_view m = st.mnemonic;
    auto need_no_pred = [&] {
      if (st.pred >= 0) st.Error("'" + std::string(m) + "' cannot be predicated");
    };
    auto target = [&](const Piece& p) {
      if (p.text.size() < 2 || p.text[0] != 'L') st.Error(p, "expected a label L<n>");
      e.target_label = std::make_pair(p, std::string(p.text.substr(1)));
    };
    auto address_mode = [&] {
      if (const Piece* v = opt.Find("AddressMode")) {
        if (v->text == "absolute") cf.address_mode = true;
        else if (v->text != "relative") st.Error(*v, "AddressMode is absolute or relative");
      }
    };
    if (m == "exec" || m == "exece" || m == "cexec" || m == "cexece") {
      const bool end = m == "exece" || m == "cexece";
      if (m[0] == 'c') {
        need_no_pred();
        st.ExpectOperands(1);
        // The predicate-cleaning cexec (13/14) is the plain spelling; see ucode.h.
        cf.opcode = opt.Bool("PredicateClean", true) && !unclean_lines_.count(st.line)
                        ? (end ? CfOpcode::kCondExecPredCleanEnd : CfOpcode::kCondExecPredClean)
                        : (end ? CfOpcode::kCondExecEnd : CfOpcode::kCondExec);
        const uint32_t b = BoolOperand(st, st.operands[0], &cf.condition);
        if (cf.opcode == CfOpcode::kCondExec || cf.opcode == CfOpcode::kCondExecEnd) {
          cf.bool_address = b;
        } else {
          // See CfInstruction::CondBoolAddress().
          cf.pad = uint64_t(b & 0x7F) << 34;
          cf.predicate_clean = (b & 0x80) != 0;
        }
      } else {
        st.ExpectOperands(0);
        if (st.pred >= 0) {
          cf.opcode = end ? CfOpcode::kCondExecPredEnd : CfOpcode::kCondExecPred;
          cf.condition = st.pred == 1;
        } else {
          cf.opcode = end ? CfOpcode::kExecEnd : CfOpcode::kExec;
        }
        cf.predicate_clean = opt.Bool("PredicateClean", true) && !unclean_lines_.count(st.line);
      }
      cf.yield = opt.Bool("Yield", false);
      address_mode();
      e.addr = opt.Int<uint32_t>("Addr", 0, 4095);
      e.serialize = opt.Int<uint32_t>("Serialize", 0, 63);
      e.sequence = opt.Int<uint32_t>("Sequence", 0, 4095);
      e.vc = opt.Int<uint32_t>("VC", 0, 63);
    } else if (m == "loop") {
      need_no_pred();
      st.ExpectOperands(2);
      cf.opcode = CfOpcode::kLoopStart;
      cf.loop_id = LoopOperand(st, st.operands[0]);
      target(st.operands[1]);
      cf.is_repeat = opt.Bool("Repeat", false);
      address_mode();
    } else if (m == "endloop") {
      st.ExpectOperands(2);
      cf.opcode = CfOpcode::kLoopEnd;
      cf.loop_id = LoopOperand(st, st.operands[0]);
      target(st.operands[1]);
      cf.is_predicated_break = st.pred >= 0;
      cf.condition = st.pred == 1 || opt.Bool("Condition", false);
      address_mode();
    } else if (m == "call" || m == "jmp" || m == "ccall" || m == "cjmp") {
      const bool call = m == "call" || m == "ccall";
      cf.opcode = call ? CfOpcode::kCondCall : CfOpcode::kCondJmp;
      if (m[0] == 'c' && m != "call") {
        need_no_pred();
        st.ExpectOperands(2);
        cf.bool_address = BoolOperand(st, st.operands[0], &cf.condition);
        target(st.operands[1]);
      } else {
        st.ExpectOperands(1);
        target(st.operands[0]);
        if (st.pred >= 0) {
          cf.is_predicated = true;
          cf.condition = st.pred == 1;
        } else {
          cf.is_unconditional = true;
          cf.is_predicated = opt.Bool("Predicated", false);
          cf.condition = opt.Bool("Condition", false);
        }
        if (auto b = opt.Int<uint32_t>("Bool", 0, 255)) cf.bool_address = *b;
      }
      cf.direction = opt.Bool("Direction", false);
      address_mode();
    } else if (m == "ret") {
      need_no_pred();
      st.ExpectOperands(0);
      cf.opcode = CfOpcode::kReturn;
      address_mode();
    } else if (m == "alloc") {
      need_no_pred();
      cf.opcode = CfOpcode::kAlloc;
      // fxc: `alloc export=2` (the statement parser reads it as the option "export").
      const bool export_size = st.operands.empty() && opt.Find("export");
      if (!export_size) st.ExpectOperands(1);
      std::string_view kind = export_size ? std::string_view("export") : st.operands[0].text;
      if (kind == "none") cf.alloc_type = AllocType::kNone;
      else if (kind == "position") cf.alloc_type = AllocType::kPosition;
      else if (kind == "interpolators" || kind == "colors") cf.alloc_type = AllocType::kInterpolators;
      else if (kind == "export") cf.alloc_type = AllocType::kMemory;
      else st.Error(st.operands[0], "alloc takes position, interpolators, colors, export or none");
      if (auto s = opt.Int<uint32_t>("Size", 0, 7)) cf.alloc_size = *s;
      // fxc: `alloc export=2` (the option parser reads it as key "export").
      if (auto s = opt.Int<uint32_t>("export", 0, 15)) {
        cf.alloc_type = AllocType::kMemory;
        cf.alloc_size = *s;
      }
      cf.is_unserialized = opt.Bool("Unserialized", false);
    } else if (m == "cnop" || m == "mark_vs_fetch_done") {
      need_no_pred();
      st.ExpectOperands(0);
      cf.opcode = m == "cnop" ? CfOpcode::kNop : CfOpcode::kMarkVsFetchDone;
    }
    if (auto pad = opt.Int<uint64_t>("Pad", 0, (int64_t(1) << 44) - 1)) cf.pad |= *pad;
    opt.Done();
    cfs_.push_back(std::move(e));
  }

  uint32_t LoopOperand(const Statement& st, const Piece& p) {
    uint32_t i = 0;
    if (p.text.size() < 2 || p.text[0] != 'i' || !ParseInt(p.text.substr(1), i) || i > 31) {
      st.Error(p, "expected a loop constant i0-i31");
    }
    return i;
  }

  // -- ALU / fetch: grouping into the current exec (assembler_encode.cpp builds the bits) --

  CfEntry& CurrentExec(const Statement& st) {
    return CurrentExec(st.line, st.col, st.mnemonic);
  }
  CfEntry& CurrentExec(uint32_t line, uint32_t col, std::string_view what) {
    if (cfs_.empty() || !IsExec(cfs_.back().cf.opcode)) {
      Fail(line, col, "instruction '" + std::string(what) + "' outside an exec clause");
    }
    return cfs_.back();
  }

  // The instruction about to be appended to `e` takes a pending `serialize`.
  void TakeSerialize(CfEntry& e) {
    if (!pending_serialize_) return;
    pending_serialize_ = false;
    const uint32_t k = uint32_t(e.instrs.size());
    if (k >= 6) Fail(e.line, e.col, "serialize on instruction " + std::to_string(k) + " of an exec (0-5)");
    e.serialize = e.serialize.value_or(0) | (1u << k);
  }

  void FlushAlu() {
    if (!alu_.vector && !alu_.scalar && !alu_.nop) return;
    CfEntry& e = cfs_.back();
    TakeSerialize(e);
    InstrEntry ins;
    ins.line = (alu_.vector ? alu_.vector : alu_.scalar ? alu_.scalar : alu_.nop)->line;
    e.instrs.push_back(ins);
    pending_alu_.push_back({cfs_.size() - 1, e.instrs.size() - 1, alu_});
    alu_ = {};
  }

  void Instruction(const Statement& st) {
    CurrentExec(st);
    VectorOp vop;
    ScalarOp sop;
    const std::string_view base = StripSat(st.mnemonic);
    if (st.plus) {
      if (!alu_.vector || alu_.scalar) st.Error("'+' must follow a vector ALU instruction");
      if (!IsScalarMnemonic(base, &sop)) st.Error("'" + std::string(base) + "' is not a scalar ALU op");
      alu_.scalar = &st;
      return;
    }
    FlushAlu();
    if (st.mnemonic == "nop") {
      alu_.nop = &st;
      return;
    }
    if (IsVectorMnemonic(base, &vop)) {
      alu_.vector = &st;
      return;
    }
    if (IsScalarMnemonic(base, &sop)) {
      alu_.scalar = &st;
      return;
    }
    InstrEntry ins;
    ins.fetch = true;
    ins.line = st.line;
    FetchInstruction f = BuildFetch(st, &ins.semantic);
    ins.vertex = f.IsVertex();
    ins.raw = EncodeFetch(f);
    TakeSerialize(cfs_.back());
    cfs_.back().instrs.push_back(ins);
  }

  // ---- Layout ----------------------------------------------------------------------------------

  uint32_t ResolveLabel(const CfEntry& e) {
    const auto& [piece, name] = *e.target_label;
    auto it = labels_.find(name);
    if (it != labels_.end()) return it->second;
    uint32_t n = 0;
    if (ParseInt(name, n)) return n;
    Fail(e.line, piece.col, "undefined label L" + name);
  }

  void Layout() {
    std::vector<CfInstruction> cf;
    for (auto& e : cfs_) {
      if (e.target_label) e.cf.address = ResolveLabel(e);
      cf.push_back(e.cf);
    }
    if (cf.size() % 2) cf.push_back(CfInstruction{});
    if (cf.empty()) Fail(1, 1, "no instructions");
    const uint32_t cf_slots = uint32_t(cf.size() / 2);
    for (size_t i = 0; i < cfs_.size(); ++i) {
      if (cf[i].address >= cf.size() &&
          (cf[i].opcode == CfOpcode::kLoopStart || cf[i].opcode == CfOpcode::kLoopEnd ||
           cf[i].opcode == CfOpcode::kCondCall || cf[i].opcode == CfOpcode::kCondJmp)) {
        Fail(cfs_[i].line, cfs_[i].col, "target L" + std::to_string(cf[i].address) +
                                            " is past the last control-flow instruction");
      }
    }
    std::map<uint32_t, std::array<uint32_t, 3>> slots;
    auto place = [&](uint32_t slot, const std::array<uint32_t, 3>& raw, uint32_t line) {
      if (slot < cf_slots) {
        Fail(line, 1, "instruction slot " + std::to_string(slot) + " overlaps the " +
                          std::to_string(cf_slots) + " control-flow slots");
      }
      auto [it, inserted] = slots.emplace(slot, raw);
      if (!inserted && it->second != raw) {
        Fail(line, 1, "slot " + std::to_string(slot) + " is assembled twice with different contents");
      }
    };
    uint32_t cursor = cf_slots;
    for (size_t i = 0; i < cfs_.size(); ++i) {
      CfEntry& e = cfs_[i];
      if (!IsExec(e.cf.opcode)) {
        if (!e.instrs.empty()) Fail(e.line, e.col, "instructions follow a non-exec");
        continue;
      }
      const uint32_t count = uint32_t(e.instrs.size());
      if (count > 6) Fail(e.line, e.col, "an exec holds at most 6 instructions, this one has " +
                                             std::to_string(count));
      const uint32_t addr = e.addr ? *e.addr : (count ? cursor : cf_slots);
      uint32_t sequence = 0, vc = 0;
      for (uint32_t k = 0; k < count; ++k) {
        const InstrEntry& ins = e.instrs[k];
        place(addr + k, ins.raw, ins.line);
        if (ins.fetch) sequence |= 1u << (2 * k);
        if (ins.fetch && ins.vertex) vc |= 1u << k;
        if (ins.semantic) out_.vertex_fetches.push_back({*ins.semantic, addr + k, 0});
      }
      if (e.serialize) {
        for (uint32_t k = 0; k < 6; ++k) {
          if (*e.serialize & (1u << k)) sequence |= 2u << (2 * k);
        }
      }
      CfInstruction& c = cf[i];
      c.address = addr;
      c.count = count;
      c.sequence = e.sequence ? *e.sequence : sequence;
      c.vc = e.vc ? *e.vc : vc;
      if (count) cursor = addr + count;
    }
    for (const auto& r : raw_slots_) place(r.slot, r.raw, r.line);
    std::vector<uint32_t> words = PackCf(cf);
    const uint32_t total = slots.empty() ? cf_slots : std::max(cf_slots, slots.rbegin()->first + 1);
    words.resize(size_t(total) * 3, 0);
    for (const auto& [slot, raw] : slots) {
      for (int d = 0; d < 3; ++d) words[slot * 3 + d] = raw[d];
    }
    out_.microcode = std::move(words);
  }

  struct RawSlotEntry {
    uint32_t slot;
    std::array<uint32_t, 3> raw;
    uint32_t line;
  };

  std::string_view text_;
  std::optional<ShaderType> default_type_;
  std::optional<ShaderType> type_;
  std::vector<std::string_view> lines_;
  std::vector<std::unique_ptr<Statement>> statements_;
  std::vector<CfEntry> cfs_;
  std::map<std::string, uint32_t> labels_;
  std::set<uint32_t> unclean_lines_;  // lines with `// PredicateClean=false`
  bool pending_serialize_ = false;
  std::vector<RawSlotEntry> raw_slots_;
  std::vector<PendingAlu> pending_alu_;
  AluBuild alu_;
  AssembledShader out_;
};

}  // namespace
}  // namespace assembler_internal

AssembledShader AssembleShader(std::string_view text, std::optional<ShaderType> default_type) {
  return assembler_internal::Assembler(text, default_type).Run();
}

std::vector<uint32_t> Assemble(std::string_view text, ShaderType* type_out,
                               std::optional<ShaderType> default_type) {
  AssembledShader s = AssembleShader(text, default_type);
  if (type_out) *type_out = s.type;
  return std::move(s.microcode);
}

}  // namespace xnt::ucode