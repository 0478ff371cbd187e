// XDK-listing-style disassembler. The layout (4-space indent, exec lines followed by their
// instructions, `alloc`, collapsed swizzles, `oPos.xy01` export masks, `vfetch r, r0.x, position`)
// is taken from the fxc listings in the corpus; spellings not in the corpus follow Xenia's
// shader_translator_disasm.cc, which imitates the XDK. Fields the syntax does not show are
// printed as `Name=value` options when they differ from syntax.h's defaults, so the output always
// assembles back to the same bits.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "container_listing.h"
#include "syntax.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/disasm.h"

namespace xnt::ucode {
namespace {

constexpr char kComp[] = "xyzw";

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string MaskLetters(uint32_t mask) {
  if (mask == 0xF) return "";
  if (mask == 0) return "._";
  std::string s = ".";
  for (uint32_t c = 0; c < 4; ++c) {
    if (mask & (1u << c)) s += kComp[c];
  }
  return s;
}

// Relative-encoded ALU swizzle -> component per position.
std::array<uint32_t, 4> SwizzleComponents(uint32_t swz) {
  std::array<uint32_t, 4> c{};
  for (uint32_t i = 0; i < 4; ++i) c[i] = ((swz >> (2 * i)) + i) & 3;
  return c;
}

// XDK collapses trailing repeats: xyzw -> "", xxxx -> ".x", zwww -> ".zw".
std::string VectorSwizzleText(uint32_t swz) {
  auto c = SwizzleComponents(swz);
  if (swz == 0) return "";
  uint32_t n = 4;
  while (n > 1 && c[n - 1] == c[n - 2]) --n;
  std::string s = ".";
  for (uint32_t i = 0; i < n; ++i) s += kComp[c[i]];
  return s;
}

std::string FullSwizzleText(uint32_t swz) {
  auto c = SwizzleComponents(swz);
  std::string s = ".";
  for (uint32_t i = 0; i < 4; ++i) s += kComp[c[i]];
  return s;
}

// Scalar operands read position w (a) and x (b). fxc prints a two-operand scalar op's source
// with two components, a then b, for the layout it writes (b in x and y, a in z and w:
// `subs r14.x, r13.wx` is r13.xxww); any other layout keeps all four.
std::string ScalarSwizzleText(uint32_t swz, bool two) {
  auto c = SwizzleComponents(swz);
  if (!two) {
    if (c[0] == c[3] && c[1] == c[3] && c[2] == c[3]) return std::string(".") + kComp[c[3]];
  } else if (c[1] == c[0] && c[2] == c[3]) {
    return std::string(".") + kComp[c[3]] + kComp[c[0]];
  }
  return FullSwizzleText(swz);
}

// fxc prints absolute-value sources after the number (`r5_abs`, `c107_abs`); a relative one
// keeps the bracket form (`r_abs[5+aL]`, Xenia's spelling, not seen in an fxc listing).
std::string RegisterText(char prefix, uint32_t index, bool abs, const char* rel) {
  std::string s(1, prefix);
  if (rel) return s + (abs ? "_abs" : "") + "[" + std::to_string(index) + "+" + rel + "]";
  return s + std::to_string(index) + (abs ? "_abs" : "");
}

std::string SourceBaseText(const AluInstruction& a, uint32_t i) {
  const AluSource& s = a.src[i];
  std::string t = s.negate ? "-" : "";
  if (s.is_temp) {
    return t + RegisterText('r', s.reg & 0x3F, (s.reg & 0x80) != 0, (s.reg & 0x40) ? "aL" : nullptr);
  }
  bool rel = syntax::ConstSlot(a, i) ? a.const_1_rel : a.const_0_rel;
  return t + RegisterText('c', s.reg, a.abs_constants,
                          rel ? (a.const_address_register_relative ? "a0" : "aL") : nullptr);
}

struct Options {
  std::vector<std::string> items;
  void Add(const std::string& s) { items.push_back(s); }
  void Flag(bool cond, const char* name) {
    if (cond) items.push_back(std::string(name) + "=true");
  }
};

std::string JoinOptions(const Options& o, bool leading_comma) {
  std::string s;
  for (size_t i = 0; i < o.items.size(); ++i) {
    s += (i == 0 && !leading_comma) ? " " : ", ";
    s += o.items[i];
  }
  return s;
}

std::string PredPrefix(bool predicated, bool condition) {
  if (!predicated) return "";
  return condition ? "(p0) " : "(!p0) ";
}

class Disassembler {
 public:
  Disassembler(const Shader& shader, const DisassembleOptions& options)
      : s_(shader), o_(options) {
    if (o_.container) {
      build_ = syntax::CompilerBuild(o_.container->creator);
      unused_ = syntax::UnusedRegister(s_.type, o_.container->interpolators);
      for (const auto& b : o_.container->vertex_fetches) bindings_[b.slot] = b.semantic;
    }
  }

  std::string Run() {
    if (o_.header) Header();
    Body();
    if (o_.header && o_.container) out_ += TrailerLines(*o_.container);
    return out_;
  }

 private:
  void Line(const std::string& text) { out_ += text + "\n"; }

  // fxc's "// Parameters:" / "// Registers:" block (container_listing.cpp), then the shader type.
  void CompilerComments(const ContainerFile& c) {
    out_ += ParameterComments(c);
    Line(std::string("// Shader type: ") + (s_.type == ShaderType::kVertex ? "vertex " : "pixel "));
    Line("");
  }

  void Header() {
    // fxc opens every listing with the compiler build that wrote it; the container keeps it as
    // the constant table's creator string, and `asm` reads it back from this line.
    if (o_.container && !o_.container->creator.empty()) {
      Line("//");
      Line("// Generated by " + o_.container->creator);
      Line("//");
    }
    if (o_.container && o_.compiler_comments) CompilerComments(*o_.container);
    Line(s_.type == ShaderType::kVertex ? "xvs_3_0" : "xps_3_0");
    const ContainerFile* c = o_.container;
    if (c) ContainerHeader(*c);
    Line("");
    Line("");
  }

  void ContainerHeader(const ContainerFile& c) {
    // defconst / config / dcl_ / def lines: container_listing.cpp.
    out_ += ContainerDeclarations(c, s_);
  }

  void Body() {
    std::set<uint32_t> targets;
    for (const auto& cf : s_.cf) {
      if (cf.opcode == CfOpcode::kLoopStart || cf.opcode == CfOpcode::kLoopEnd ||
          cf.opcode == CfOpcode::kCondCall || cf.opcode == CfOpcode::kCondJmp) {
        targets.insert(cf.address);
      }
    }
    size_t cf_count = s_.cf.size();
    // The pad nop that completes the last CF pair is implied.
    if (cf_count > 0 && EncodeCf(s_.cf[cf_count - 1]) == 0 && targets.count(uint32_t(cf_count - 1)) == 0) {
      --cf_count;
    }
    uint32_t cursor = s_.cf_slots;
    std::vector<bool> printed(s_.slots.size(), false);
    for (uint32_t i = 0; i < cf_count; ++i) {
      // fxc numbers a label after the CF instruction it marks: `label L7` precedes CF 7.
      if (targets.count(i)) Line("label L" + std::to_string(i));
      const CfInstruction& cf = s_.cf[i];
      // A predicated CF instruction starts at column 0: `(p0) exec`, `(!p0) jmp L28`.
      const std::string cf_text = CfText(cf, cursor);
      Line((cf_text[0] == '(' ? "" : "    ") + cf_text);
      if (IsExec(cf.opcode) && cf.count > 0) {
        for (uint32_t k = 0; k < cf.count; ++k) {
          const uint32_t slot = cf.address + k;
          const Instruction& ins = s_.AtSlot(slot);
          printed[slot - s_.cf_slots] = true;
          // The exec's serialize bit for instruction k is a `serialize` line before it.
          if (cf.IsSerialized(k)) Line("    serialize");
          std::vector<std::string> lines = ins.kind == SlotKind::kFetch ? FetchLines(ins)
                                                                        : AluLines(ins.alu);
          for (size_t l = 0; l < lines.size(); ++l) {
            // Co-issued scalar lines: `  + mulsc r10.z, c13.z, r1.w` (the `+ ` takes two
            // columns of the indent).
            std::string text = (lines[l][0] == '+' ? "  " : "    ") + lines[l];
            if (o_.slot_comments && l == 0) text += "    // slot " + std::to_string(slot);
            Line(text);
          }
        }
        cursor = cf.address + cf.count;
      }
    }
    for (size_t i = 0; i < s_.slots.size(); ++i) {
      if (printed[i]) continue;
      const Instruction& ins = s_.slots[i];
      Line("    .slot " + std::to_string(ins.slot) + ", " + Hex(ins.raw[0]) + ", " +
           Hex(ins.raw[1]) + ", " + Hex(ins.raw[2]));
    }
  }

  // ---- Control flow ------------------------------------------------------------------------------

  std::string CfText(const CfInstruction& cf, uint32_t cursor) {
    Options opt;
    std::string text;
    bool comma = false;  // options follow an operand
    bool clean_comment = false;
    switch (cf.opcode) {
      case CfOpcode::kExec:
      case CfOpcode::kExecEnd:
      case CfOpcode::kCondExec:
      case CfOpcode::kCondExecEnd:
      case CfOpcode::kCondExecPred:
      case CfOpcode::kCondExecPredEnd:
      case CfOpcode::kCondExecPredClean:
      case CfOpcode::kCondExecPredCleanEnd: {
        const bool end = IsExecEnd(cf.opcode);
        if (IsCondExecBool(cf.opcode)) {
          text = std::string(end ? "cexece " : "cexec ") + (cf.condition ? "" : "!") + "b" +
                 std::to_string(cf.CondBoolAddress());
          comma = true;
        } else if (IsCondExecPred(cf.opcode)) {
          text = PredPrefix(true, cf.condition) + (end ? "exece" : "exec");
        } else {
          text = end ? "exece" : "exec";
        }
        opt.Flag(cf.yield, "Yield");
        // Xenia shader_translator_disasm.cc marks execs that keep the predicate with
        // "PredicateClean=false" (cexec: opcodes 3/4; 13/14 are the cleaning cexec).
        clean_comment = !cf.CleansPredicate();
        if (cf.address_mode) opt.Add("AddressMode=absolute");
        const uint32_t expected = cf.count > 0 ? cursor : s_.cf_slots;
        if (cf.address != expected) opt.Add("Addr=" + std::to_string(cf.address));
        uint32_t fetch_bits = 0, serialize = 0, vc = 0;
        for (uint32_t k = 0; k < cf.count; ++k) {
          const Instruction& ins = s_.AtSlot(cf.address + k);
          if (ins.kind == SlotKind::kFetch) {
            fetch_bits |= 1u << (2 * k);
            if (ins.fetch.IsVertex()) vc |= 1u << k;
          }
          if (cf.IsSerialized(k)) serialize |= 1u << k;
        }
        uint32_t derived = fetch_bits;
        for (uint32_t k = 0; k < 6; ++k) {
          if (serialize & (1u << k)) derived |= 2u << (2 * k);
        }
        if (cf.sequence != derived) opt.Add("Sequence=" + Hex(cf.sequence));
        if (cf.vc != vc) opt.Add("VC=" + Hex(cf.vc));
        break;
      }
      case CfOpcode::kLoopStart:
        text = "loop i" + std::to_string(cf.loop_id) + ", L" + std::to_string(cf.address);
        comma = true;
        opt.Flag(cf.is_repeat, "Repeat");
        if (cf.address_mode) opt.Add("AddressMode=absolute");
        break;
      case CfOpcode::kLoopEnd:
        text = PredPrefix(cf.is_predicated_break, cf.condition) + "endloop i" +
               std::to_string(cf.loop_id) + ", L" + std::to_string(cf.address);
        comma = true;
        if (!cf.is_predicated_break && cf.condition) opt.Add("Condition=true");
        if (cf.address_mode) opt.Add("AddressMode=absolute");
        break;
      case CfOpcode::kCondCall:
      case CfOpcode::kCondJmp: {
        const bool call = cf.opcode == CfOpcode::kCondCall;
        const std::string target = "L" + std::to_string(cf.address);
        if (cf.is_unconditional) {
          text = std::string(call ? "call " : "jmp ") + target;
          opt.Flag(cf.is_predicated, "Predicated");
          if (cf.condition) opt.Add("Condition=true");
          if (cf.bool_address) opt.Add("Bool=" + std::to_string(cf.bool_address));
        } else if (cf.is_predicated) {
          text = PredPrefix(true, cf.condition) + (call ? "call " : "jmp ") + target;
          if (cf.bool_address) opt.Add("Bool=" + std::to_string(cf.bool_address));
        } else {
          text = std::string(call ? "ccall " : "cjmp ") + (cf.condition ? "" : "!") + "b" +
                 std::to_string(cf.bool_address) + ", " + target;
        }
        comma = true;
        opt.Flag(cf.direction, "Direction");
        if (cf.address_mode) opt.Add("AddressMode=absolute");
        break;
      }
      case CfOpcode::kReturn:
        text = "ret";
        if (cf.address_mode) opt.Add("AddressMode=absolute");
        break;
      case CfOpcode::kAlloc:
        switch (cf.alloc_type) {
          case AllocType::kNone: text = "alloc none"; break;
          case AllocType::kPosition: text = "alloc position"; break;
          case AllocType::kInterpolators:
            text = s_.type == ShaderType::kVertex ? "alloc interpolators" : "alloc colors";
            break;
          case AllocType::kMemory: text = "alloc export"; break;
        }
        comma = true;
        // fxc: `alloc export=2` (public XDK memexport listing); other kinds keep an option.
        if (cf.alloc_type == AllocType::kMemory) {
          text += "=" + std::to_string(cf.alloc_size);
        } else if (cf.alloc_size) {
          opt.Add("Size=" + std::to_string(cf.alloc_size));
        }
        opt.Flag(cf.is_unserialized, "Unserialized");
        break;
      case CfOpcode::kNop:
        text = "cnop";
        break;
      case CfOpcode::kMarkVsFetchDone:
        text = "mark_vs_fetch_done";
        break;
    }
    uint64_t pad = cf.pad;
    if (cf.opcode == CfOpcode::kCondExecPredClean || cf.opcode == CfOpcode::kCondExecPredCleanEnd) {
      pad &= ~(uint64_t(0x7F) << 34);  // part of the bool constant index
    }
    if (pad) opt.Add("Pad=" + Hex(pad));
    // Exec attributes are comments in fxc listings: `exec    // PredicateClean=false`.
    return text + JoinOptions(opt, comma) + (clean_comment ? "    // PredicateClean=false" : "");
  }

  // ---- ALU ---------------------------------------------------------------------------------------

  // `fold`: the scalar line stands alone for an export, so it shows the 0/1 components too.
  std::string DestText(const AluInstruction& a, bool vector, bool fold = false) {
    if (!a.export_data) {
      const uint32_t reg = vector ? a.vector_dest : a.scalar_dest;
      const bool rel = vector ? a.vector_dest_rel : a.scalar_dest_rel;
      const uint32_t mask = vector ? a.vector_write_mask : a.scalar_write_mask;
      return RegisterText('r', reg, false, rel ? "aL" : nullptr) + MaskLetters(mask);
    }
    bool indexed = false;
    std::string name(syntax::ExportName(s_.type, a.vector_dest, &indexed));
    if (indexed) {
      uint32_t base = a.vector_dest >= kExportData0 && a.vector_dest < kExportData0 + 5
                          ? kExportData0
                          : 0;
      name += std::to_string(a.vector_dest - base);
    }
    if (!vector && !fold) return name + MaskLetters(a.ScalarResultMask());
    const uint32_t v = vector ? a.VectorResultMask() : a.ScalarResultMask();
    const uint32_t c0 = a.Constant0Mask(), c1 = a.Constant1Mask();
    if (!c0 && !c1) return name + MaskLetters(v);
    std::string s = name + ".";
    for (uint32_t c = 0; c < 4; ++c) {
      const uint32_t bit = 1u << c;
      s += (v & bit) ? kComp[c] : (c1 & bit) ? '1' : (c0 & bit) ? '0' : '_';
    }
    return s;
  }

  // fxc prints nothing for a half that does nothing. The vector half: `max` of the default
  // sources writing no component of its own (in an export, components both halves write are the
  // constant 1, and the scalar line shows them); its destination register, when not the one fxc
  // leaves there (syntax.h UnusedRegister), is an option. The scalar half: `retain_prev` writing
  // nothing; its destination likewise.
  bool VectorIsNop(const AluInstruction& a, bool scalar_reads_src3) const {
    // Outside exports the sources are the register fxc leaves there (syntax.h UnusedRegister).
    auto nop_source = [&](const AluSource& s) {
      if (a.export_data) return syntax::IsDefaultSource(s);
      const AluSource u = syntax::UnusedSource(NopRegister(a, scalar_reads_src3));
      return s.is_temp == u.is_temp && s.reg == u.reg && s.swizzle == u.swizzle && s.negate == u.negate;
    };
    if (a.vector_op != syntax::kNopVectorOp || a.vector_dest_rel || a.vector_clamp || !nop_source(a.src[0]) ||
        !nop_source(a.src[1])) {
      return false;
    }
    return a.export_data ? a.VectorResultMask() == 0 : a.vector_write_mask == 0;
  }
  uint32_t NopRegister(const AluInstruction& a, bool scalar_reads_src3) const {
    return syntax::NopVectorRegister(unused_, scalar_reads_src3 && a.src[2].is_temp);
  }
  static bool ScalarIsNop(const AluInstruction& a) {
    if (a.scalar_op != ScalarOp::kRetainPrev || a.scalar_clamp) return false;
    return a.export_data ? a.ScalarResultMask() == 0 : a.scalar_write_mask == 0;
  }

  std::vector<std::string> AluLines(const AluInstruction& a) {
    const ScalarForm form = ScalarOpForm(a.scalar_op);
    const bool scalar_line = !ScalarIsNop(a);
    const bool scalar_reads_src3 = scalar_line && form != ScalarForm::kNone;
    uint32_t n_vec = VectorOpOperandCount(a.vector_op);
    // Sources neither op reads but that differ from the default are printed as extra operands.
    uint32_t m = n_vec;
    for (uint32_t i = n_vec; i < 3; ++i) {
      if (i == 2 && scalar_reads_src3) continue;
      if (!syntax::IsDefaultSource(a.src[i])) m = i + 1;
    }
    // An export always shows its register: a lone vector half that does nothing still prints.
    const bool vector_line = !VectorIsNop(a, scalar_reads_src3) || m > n_vec || (a.export_data && !scalar_line);
    const std::string pred = PredPrefix(a.is_predicated, a.predicate_condition);

    // Which constant flags / modes the printed operands show.
    bool shown_slot[2] = {false, false};
    bool any_const = false, any_rel_const = false;
    auto note_const = [&](uint32_t i) {
      if (a.src[i].is_temp) return;
      any_const = true;
      const uint32_t slot = syntax::ConstSlot(a, i);
      shown_slot[slot] = true;
      if (slot ? a.const_1_rel : a.const_0_rel) any_rel_const = true;
    };

    std::vector<std::string> lines;
    if (vector_line) {
      std::string name(VectorOpName(a.vector_op));
      const bool is_mov = a.vector_op == VectorOp::kMax && m <= 2 &&
                          a.src[0].is_temp == a.src[1].is_temp && a.src[0].reg == a.src[1].reg &&
                          a.src[0].swizzle == a.src[1].swizzle &&
                          a.src[0].negate == a.src[1].negate &&
                          (a.src[0].is_temp || a.const_0_rel == a.const_1_rel);
      uint32_t shown = m;
      if (is_mov) {
        name = "mov";
        shown = 1;
        note_const(1);
      }
      std::string line = pred + name + (a.vector_clamp ? "_sat " : " ") + DestText(a, true);
      for (uint32_t i = 0; i < shown; ++i) {
        line += ", " + SourceBaseText(a, i) + VectorSwizzleText(a.src[i].swizzle);
        note_const(i);
      }
      lines.push_back(line);
    }
    if (scalar_line) {
      // fxc shows maxs / maxas of one component with itself as movs / movas.
      const auto comps = SwizzleComponents(a.src[2].swizzle);
      const bool smov = (a.scalar_op == ScalarOp::kMaxs || a.scalar_op == ScalarOp::kMaxAs) &&
                        comps[0] == comps[3] && comps[1] == comps[3] && comps[2] == comps[3];
      std::string name(ScalarOpName(a.scalar_op));
      if (smov) name = a.scalar_op == ScalarOp::kMaxs ? "movs" : "movas";
      std::string line = (vector_line ? "+ " : "") + pred + name +
                         (a.scalar_clamp ? "_sat " : " ") + DestText(a, false, !vector_line);
      switch (form) {
        case ScalarForm::kNone:
          break;
        case ScalarForm::kOne:
        case ScalarForm::kTwoComponent:
          line += ", " + SourceBaseText(a, 2) +
                  ScalarSwizzleText(a.src[2].swizzle, form == ScalarForm::kTwoComponent && !smov);
          note_const(2);
          break;
        case ScalarForm::kConstTemp: {
          const auto ops = a.ScalarOperands();
          const std::string neg = a.src[2].negate ? "-" : "";
          const bool rel = syntax::ConstSlot(a, 2) ? a.const_1_rel : a.const_0_rel;
          any_const = true;
          shown_slot[syntax::ConstSlot(a, 2)] = true;
          if (rel) any_rel_const = true;
          line += ", " + neg +
                  RegisterText('c', a.src[2].reg, a.abs_constants,
                               rel ? (a.const_address_register_relative ? "a0" : "aL") : nullptr) +
                  "." + kComp[ops[0].swizzle[0]];
          line += ", " + neg + "r" + std::to_string(ops[1].index) + "." + kComp[ops[1].swizzle[0]];
          break;
        }
      }
      lines.push_back(line);
    }
    if (lines.empty()) lines.push_back(pred + "nop");

    Options opt;
    if (!a.is_predicated && a.predicate_condition) opt.Add("PredCondition=true");
    if (!any_const && a.abs_constants) opt.Add("AbsConstants=true");
    if (!any_rel_const && a.const_address_register_relative) opt.Add("ConstA0=true");
    if (!shown_slot[0] && a.const_0_rel) opt.Add("Const0Rel=true");
    if (!shown_slot[1] && a.const_1_rel) opt.Add("Const1Rel=true");
    if (a.export_data) {
      if (a.scalar_dest) opt.Add("ScalarDest=" + std::to_string(a.scalar_dest));
      // With all four components written, the write-0 flag shows in no mask: an option where it
      // differs from what the compiler build sets (syntax.h).
      const uint32_t written = a.vector_write_mask | a.scalar_write_mask;
      if (written == 0xF &&
          a.scalar_dest_rel != syntax::DefaultExportScalarDestRel(build_, !scalar_line, written,
                                                                  a.vector_write_mask & a.scalar_write_mask)) {
        opt.Add(a.scalar_dest_rel ? "ScalarDestRel=true" : "ScalarDestRel=false");
      }
      if (a.vector_dest_rel) opt.Add("VectorDestRel=true");
    } else {
      if (!vector_line && a.vector_dest != NopRegister(a, scalar_reads_src3)) {
        opt.Add("VectorDest=" + std::to_string(a.vector_dest));
      }
      if (!scalar_line && a.scalar_dest != unused_) {
        opt.Add("ScalarDest=" + std::to_string(a.scalar_dest));
      }
      if (!scalar_line && a.scalar_dest_rel) opt.Add("ScalarDestRel=true");
    }
    if (!opt.items.empty()) lines.back() += JoinOptions(opt, true);
    return lines;
  }

  // ---- Fetch -------------------------------------------------------------------------------------

  static std::string FetchDestText(const FetchInstruction& f) {
    static constexpr char kDst[] = "xyzw01?_";
    std::string s = RegisterText('r', f.dst_reg, false, f.dst_rel ? "aL" : nullptr);
    if (f.dst_swizzle != 0x688) {
      s += ".";
      for (uint32_t c = 0; c < 4; ++c) s += kDst[f.DestComponent(c)];
    }
    return s;
  }

  std::vector<std::string> FetchLines(const Instruction& ins) {
    const FetchInstruction& f = ins.fetch;
    Options opt;
    std::string text = PredPrefix(f.is_predicated, f.predicate_condition);
    if (!f.is_predicated && f.predicate_condition) opt.Add("PredCondition=true");
    const std::string src = RegisterText('r', f.src_reg, false, f.src_rel ? "aL" : nullptr);
    if (f.IsVertex()) {
      auto binding = bindings_.find(ins.slot);
      // A fetch the container binds to a vertex element names its semantic when its fetch
      // constant is the placeholder the container's writer leaves there (syntax.h
      // BoundFetchPlaceholder); any other constant keeps `vf<n>`.
      const bool semantic =
          binding != bindings_.end() && !f.is_mini_fetch && f.const_index_sel != 3 &&
          f.VertexFetchConstant() == syntax::BoundFetchPlaceholder(!o_.container->creator.empty());
      text += semantic ? "vfetch " : f.is_mini_fetch ? "vfetch_mini " : "vfetch_full ";
      text += FetchDestText(f) + ", " + src + "." + kComp[f.src_swizzle & 3] + ", ";
      // Xenia shader_translator_disasm.cc prints vertex fetch constant k as vf(95 - k).
      // const_index_sel 3 has no vf number of its own; it is printed as an option.
      const uint32_t constant = f.const_index * 3 + (f.const_index_sel == 3 ? 0 : f.const_index_sel);
      text += semantic ? syntax::SemanticName(binding->second)
                       : "vf" + std::to_string(95 - constant);
      if (f.const_index_sel == 3) opt.Add("ConstIndexSel=3");
      if (f.offset) opt.Add("Offset=" + std::to_string(f.offset));
      if (f.format) {
        std::string_view name = syntax::VertexFormatName(f.format);
        opt.Add("DataFormat=" + (name.empty() ? std::to_string(f.format) : std::string(name)));
      }
      if (f.stride) opt.Add("Stride=" + std::to_string(f.stride));
      opt.Flag(f.is_signed, "Signed");
      if (f.is_integer) opt.Add("NumFormat=integer");
      opt.Flag(f.signed_rf_mode, "SignedRFMode");
      if (f.exp_adjust) opt.Add("ExpAdjust=" + std::to_string(f.exp_adjust));
      opt.Flag(f.is_index_rounded, "RoundIndex");
      if (f.prefetch_count) opt.Add("PrefetchCount=" + std::to_string(f.prefetch_count + 1));
      if (!f.must_be_one) opt.Add("MustBeOne=false");
    } else {
      text += syntax::TextureMnemonic(f) + " ";
      const bool has_dest = f.HasDestination();
      if (has_dest) text += FetchDestText(f) + ", ";
      static constexpr char kSrc[] = "xyzw";
      const uint32_t n = syntax::TextureSourceComponents(f.opcode, f.dimension);
      // As many components as the dimension uses unless the others differ from what
      // FillSourceSwizzle puts there (then all three, so the text stays lossless).
      uint32_t shown = syntax::FillSourceSwizzle(f.src_swizzle, n) == (f.src_swizzle & 0x3F) ? n : 3;
      text += src + ".";
      for (uint32_t c = 0; c < shown; ++c) text += kSrc[(f.src_swizzle >> (2 * c)) & 3];
      text += ", tf" + std::to_string(f.const_index);
      if (!has_dest && (f.dst_reg || f.dst_rel || f.dst_swizzle != syntax::kNoDestSwizzle)) {
        opt.Add("Dest=" + FetchDestText(f));
      }
      if (!syntax::TextureMnemonicHasDimension(f.opcode) && f.dimension != syntax::kDefaultDimension) {
        static const char* kDims[] = {"1D", "2D", "3D", "Cube"};
        opt.Add(std::string("Dimension=") + kDims[uint32_t(f.dimension) & 3]);
      }
      if (!f.fetch_valid_only) opt.Add("FetchValidOnly=false");
      opt.Flag(f.tx_coord_denorm, "UnnormalizedTextureCoords");
      if (f.mag_filter != 3) opt.Add("MagFilter=" + std::string(syntax::FilterName(f.mag_filter)));
      if (f.min_filter != 3) opt.Add("MinFilter=" + std::string(syntax::FilterName(f.min_filter)));
      if (f.mip_filter != 3) opt.Add("MipFilter=" + std::string(syntax::FilterName(f.mip_filter)));
      if (f.aniso_filter != 7) {
        std::string_view nm = syntax::AnisoName(f.aniso_filter);
        opt.Add("AnisoFilter=" + (nm.empty() ? std::to_string(f.aniso_filter) : std::string(nm)));
      }
      if (f.arbitrary_filter != 0) {
        std::string_view nm = syntax::ArbitraryName(f.arbitrary_filter);
        opt.Add("ArbitraryFilter=" +
                (nm.empty() ? std::to_string(f.arbitrary_filter) : std::string(nm)));
      }
      if (f.vol_mag_filter != 3) {
        opt.Add("VolMagFilter=" + std::string(syntax::FilterName(f.vol_mag_filter)));
      }
      if (f.vol_min_filter != 3) {
        opt.Add("VolMinFilter=" + std::string(syntax::FilterName(f.vol_min_filter)));
      }
      if (!f.use_comp_lod) opt.Add("UseComputedLOD=false");
      opt.Flag(f.use_reg_lod, "UseRegisterLOD");
      opt.Flag(f.use_reg_gradients, "UseRegisterGradients");
      if (f.sample_location) opt.Add("SampleLocation=1");
      if (f.lod_bias) opt.Add("LODBias=" + syntax::FormatFloat(float(f.lod_bias) / 16.0f));
      if (f.offset_x) opt.Add("OffsetX=" + syntax::FormatFloat(float(f.offset_x) / 2.0f));
      if (f.offset_y) opt.Add("OffsetY=" + syntax::FormatFloat(float(f.offset_y) / 2.0f));
      if (f.offset_z) opt.Add("OffsetZ=" + syntax::FormatFloat(float(f.offset_z) / 2.0f));
    }
    for (uint32_t d = 0; d < 3; ++d) {
      if (f.pad[d]) opt.Add("Pad" + std::to_string(d) + "=" + Hex(f.pad[d]));
    }
    return {text + JoinOptions(opt, true)};
  }

  const Shader& s_;
  const DisassembleOptions& o_;
  std::map<uint32_t, Semantic> bindings_;
  uint32_t build_ = 0;  // compiler build of the container (0: none)
  uint32_t unused_ = 0;  // syntax.h UnusedRegister for the container's inputs
  std::string out_;
};

}  // namespace

std::string Disassemble(const Shader& shader, const DisassembleOptions& options) {
  return Disassembler(shader, options).Run();
}

std::string Disassemble(const ContainerFile& container, bool header) {
  Shader shader = Decode(container.microcode, container.type);
  DisassembleOptions options;
  options.header = header;
  options.container = &container;
  return Disassemble(shader, options);
}

}  // namespace xnt::ucode
