// Assembler for the XDK listing syntax that disasm.cpp prints. Two passes: parse every line into
// CF entries with their ALU/fetch instructions, then lay the instructions out after the control
// flow (execs take consecutive slots unless an `Addr=` option says otherwise) and pack the bits.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include "syntax.h"
#include "xnt/base/error.h"
#include "xnt/ucode/assembler.h"

namespace xnt::ucode {
namespace {

// ---- Lexing -------------------------------------------------------------------------------------

struct Piece {
  std::string_view text;
  uint32_t col = 1;  // 1-based
};

[[noreturn]] void Fail(uint32_t line, uint32_t col, const std::string& what) {
  throw Error(std::to_string(line) + ":" + std::to_string(col) + ": " + what);
}

bool IsIdent(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

Piece Trim(Piece p) {
  size_t b = 0, e = p.text.size();
  while (b < e && (p.text[b] == ' ' || p.text[b] == '\t')) ++b;
  while (e > b && (p.text[e - 1] == ' ' || p.text[e - 1] == '\t' || p.text[e - 1] == '\r')) --e;
  return {p.text.substr(b, e - b), p.col + uint32_t(b)};
}

std::vector<Piece> SplitCommas(Piece p) {
  std::vector<Piece> out;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i <= p.text.size(); ++i) {
    if (i < p.text.size()) {
      if (p.text[i] == '[') ++depth;
      if (p.text[i] == ']') --depth;
      if (p.text[i] != ',' || depth > 0) continue;
    }
    out.push_back(Trim({p.text.substr(start, i - start), p.col + uint32_t(start)}));
    start = i + 1;
  }
  return out;
}

template <typename T>
bool ParseInt(std::string_view s, T& out) {
  if (s.empty()) return false;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    s.remove_prefix(2);
    base = 2;
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return ec == std::errc() && p == s.data() + s.size();
}

bool ParseFloat(std::string_view s, float& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// One instruction line: optional predicate, mnemonic, comma-separated operands and options.
struct Statement {
  uint32_t line = 0;
  uint32_t col = 0;
  bool plus = false;
  int pred = -1;  // -1 none, 1 (p0), 0 (!p0)
  std::string_view mnemonic;
  std::vector<Piece> operands;
  std::vector<std::pair<Piece, Piece>> options;  // key, value

  [[noreturn]] void Error(const Piece& p, const std::string& what) const { Fail(line, p.col, what); }
  [[noreturn]] void Error(const std::string& what) const { Fail(line, col, what); }

  void ExpectOperands(size_t n) const {
    if (operands.size() != n) {
      Error("'" + std::string(mnemonic) + "' takes " + std::to_string(n) + " operand" +
            (n == 1 ? "" : "s") + ", got " + std::to_string(operands.size()));
    }
  }
};

Statement ParseStatement(Piece text, uint32_t line) {
  Statement st;
  st.line = line;
  Piece p = Trim(text);
  if (!p.text.empty() && p.text[0] == '+') {
    st.plus = true;
    p = Trim({p.text.substr(1), p.col + 1});
  }
  if (p.text.substr(0, 4) == "(p0)") {
    st.pred = 1;
    p = Trim({p.text.substr(4), p.col + 4});
  } else if (p.text.substr(0, 5) == "(!p0)") {
    st.pred = 0;
    p = Trim({p.text.substr(5), p.col + 5});
  }
  st.col = p.col;
  size_t n = 0;
  while (n < p.text.size() && IsIdent(p.text[n])) ++n;
  if (n == 0) Fail(line, p.col, "expected an instruction mnemonic");
  st.mnemonic = p.text.substr(0, n);
  Piece rest = Trim({p.text.substr(n), p.col + uint32_t(n)});
  if (rest.text.empty()) return st;
  for (const Piece& piece : SplitCommas(rest)) {
    if (piece.text.empty()) Fail(line, piece.col, "empty operand");
    size_t eq = piece.text.find('=');
    if (eq != std::string_view::npos) {
      Piece key = Trim({piece.text.substr(0, eq), piece.col});
      Piece value = Trim({piece.text.substr(eq + 1), piece.col + uint32_t(eq) + 1});
      st.options.push_back({key, value});
    } else {
      if (!st.options.empty()) Fail(line, piece.col, "operand after an option");
      st.operands.push_back(piece);
    }
  }
  return st;
}

// Option reader that reports unknown options.
class OptionSet {
 public:
  explicit OptionSet(const Statement& st) : st_(st), used_(st.options.size(), false) {}
  const Piece* Find(std::string_view key) {
    for (size_t i = 0; i < st_.options.size(); ++i) {
      if (st_.options[i].first.text == key) {
        used_[i] = true;
        return &st_.options[i].second;
      }
    }
    return nullptr;
  }
  bool Bool(std::string_view key, bool def) {
    const Piece* v = Find(key);
    if (!v) return def;
    if (v->text == "true") return true;
    if (v->text == "false") return false;
    st_.Error(*v, "expected true or false for " + std::string(key));
  }
  template <typename T>
  std::optional<T> Int(std::string_view key, int64_t lo, int64_t hi) {
    const Piece* v = Find(key);
    if (!v) return std::nullopt;
    int64_t x = 0;
    if (!ParseInt(v->text, x) || x < lo || x > hi) {
      st_.Error(*v, "expected a number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                        "] for " + std::string(key));
    }
    return T(x);
  }
  void Done() const {
    for (size_t i = 0; i < used_.size(); ++i) {
      if (!used_[i]) {
        st_.Error(st_.options[i].first, "unknown option '" + std::string(st_.options[i].first.text) +
                                            "' for '" + std::string(st_.mnemonic) + "'");
      }
    }
  }
  const Statement& st() const { return st_; }

 private:
  const Statement& st_;
  std::vector<bool> used_;
};

// ---- Register operands --------------------------------------------------------------------------

struct RegRef {
  bool negate = false;
  char kind = 'r';     // r or c (or an export name)
  std::string_view name;  // for exports: "oPos", "oC", ...
  bool abs = false;
  uint32_t index = 0;
  bool has_index = false;
  RelativeMode rel = RelativeMode::kNone;
  std::string_view swizzle;  // after '.'
  bool has_swizzle = false;
};

RegRef ParseReg(const Statement& st, const Piece& p) {
  RegRef r;
  std::string_view t = p.text;
  if (!t.empty() && t[0] == '-') {
    r.negate = true;
    t.remove_prefix(1);
  }
  size_t n = 0;
  while (n < t.size() && ((t[n] >= 'a' && t[n] <= 'z') || (t[n] >= 'A' && t[n] <= 'Z'))) ++n;
  r.name = t.substr(0, n);
  t.remove_prefix(n);
  if (t.substr(0, 4) == "_abs") {
    r.abs = true;
    t.remove_prefix(4);
  }
  if (!t.empty() && t[0] == '[') {
    size_t close = t.find(']');
    if (close == std::string_view::npos) st.Error(p, "missing ']'");
    std::string_view inside = t.substr(1, close - 1);
    size_t plus = inside.find('+');
    std::string_view num = inside.substr(0, plus);
    if (!ParseInt(num, r.index)) st.Error(p, "bad register index '" + std::string(num) + "'");
    if (plus != std::string_view::npos) {
      std::string_view reg = inside.substr(plus + 1);
      if (reg == "a0") r.rel = RelativeMode::kA0;
      else if (reg == "aL") r.rel = RelativeMode::kAL;
      else st.Error(p, "relative addressing must use a0 or aL, not '" + std::string(reg) + "'");
    }
    r.has_index = true;
    t.remove_prefix(close + 1);
  } else {
    size_t d = 0;
    while (d < t.size() && t[d] >= '0' && t[d] <= '9') ++d;
    if (d > 0) {
      ParseInt(t.substr(0, d), r.index);
      r.has_index = true;
      t.remove_prefix(d);
    }
  }
  if (!t.empty()) {
    if (t[0] != '.') st.Error(p, "unexpected '" + std::string(t) + "' in operand");
    r.swizzle = t.substr(1);
    r.has_swizzle = true;
    if (r.swizzle.empty()) st.Error(p, "empty swizzle");
  }
  if (r.name == "r" || r.name == "c") r.kind = r.name[0];
  else r.kind = 'e';
  return r;
}

int ComponentIndex(char c) {
  switch (c) {
    case 'x': return 0;
    case 'y': return 1;
    case 'z': return 2;
    case 'w': return 3;
    default: return -1;
  }
}

// Component per position -> relative-encoded 8-bit swizzle.
uint32_t EncodeSwizzle(const std::array<int, 4>& comps) {
  uint32_t swz = 0;
  for (uint32_t p = 0; p < 4; ++p) swz |= uint32_t((comps[p] - int(p)) & 3) << (2 * p);
  return swz;
}

std::array<int, 4> SwizzleChars(const Statement& st, const Piece& p, std::string_view s) {
  std::array<int, 4> c{};
  for (size_t i = 0; i < s.size(); ++i) {
    c[i] = ComponentIndex(s[i]);
    if (c[i] < 0) st.Error(p, "bad swizzle component '" + std::string(1, s[i]) + "'");
  }
  return c;
}

uint32_t VectorSwizzle(const Statement& st, const Piece& p, const RegRef& r) {
  if (!r.has_swizzle) return 0;
  if (r.swizzle.size() > 4) st.Error(p, "swizzle has more than 4 components");
  auto c = SwizzleChars(st, p, r.swizzle);
  for (size_t i = r.swizzle.size(); i < 4; ++i) c[i] = c[r.swizzle.size() - 1];
  return EncodeSwizzle(c);
}

uint32_t ScalarSwizzle(const Statement& st, const Piece& p, const RegRef& r, bool two) {
  if (!r.has_swizzle) return 0;
  auto c = SwizzleChars(st, p, r.swizzle.substr(0, std::min<size_t>(4, r.swizzle.size())));
  if (r.swizzle.size() == 4) return EncodeSwizzle(c);
  if (!two && r.swizzle.size() == 1) return EncodeSwizzle({c[0], c[0], c[0], c[0]});
  // Two components a, b: a is read from position w, b from position x.
  if (two && r.swizzle.size() == 2) return EncodeSwizzle({c[1], c[1], c[1], c[0]});
  st.Error(p, std::string("scalar operand takes ") + (two ? "2" : "1") +
                  " swizzle component" + (two ? "s" : "") + " (or all 4)");
}

// ---- Parsed program ----------------------------------------------------------------------------

struct ConstUse {
  uint32_t src = 0;
  RelativeMode rel = RelativeMode::kNone;
  bool abs = false;
  Piece where;
};

struct AluBuild {
  const Statement* vector = nullptr;
  const Statement* scalar = nullptr;
  const Statement* nop = nullptr;
};

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
      cfs_[pending.cf].instrs[pending.index].raw = EncodeAlu(BuildAlu(pending.build));
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
      if (comment != std::string_view::npos) l = l.substr(0, comment);
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
    if (t.back() == ':' && t.size() > 1 && t[0] == 'L') {
      std::string name(t.substr(1, t.size() - 2));
      for (char c : name) {
        if (!IsIdent(c)) Fail(number, p.col, "bad label name '" + name + "'");
      }
      if (labels_.count(name)) Fail(number, p.col, "label L" + name + " defined twice");
      labels_[name] = uint32_t(cfs_.size());
      return;
    }
    if (t.substr(0, 6) == ".slot ") return RawSlot(number, p);
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
    if (m == "index") return;  // the vertex index arrives in the vfetch source register
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

  static uint32_t LetterMask(const Statement& st, const Piece& p, std::string_view s) {
    if (s == "_") return 0;
    uint32_t mask = 0;
    int last = -1;
    for (char c : s) {
      int i = ComponentIndex(c);
      if (i < 0 || i <= last) st.Error(p, "write mask must be components in xyzw order");
      mask |= 1u << i;
      last = i;
    }
    return mask;
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
        cf.opcode = opt.Bool("PredicateClean", true)
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
        cf.predicate_clean = opt.Bool("PredicateClean", true);
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
      st.ExpectOperands(1);
      cf.opcode = CfOpcode::kAlloc;
      std::string_view kind = st.operands[0].text;
      if (kind == "none") cf.alloc_type = AllocType::kNone;
      else if (kind == "position") cf.alloc_type = AllocType::kPosition;
      else if (kind == "interpolators" || kind == "colors") cf.alloc_type = AllocType::kInterpolators;
      else if (kind == "export") cf.alloc_type = AllocType::kMemory;
      else st.Error(st.operands[0], "alloc takes position, interpolators, colors, export or none");
      if (auto s = opt.Int<uint32_t>("Size", 0, 7)) cf.alloc_size = *s;
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

  // -- ALU / fetch --

  CfEntry& CurrentExec(const Statement& st) {
    if (cfs_.empty() || !IsExec(cfs_.back().cf.opcode)) {
      st.Error("instruction '" + std::string(st.mnemonic) + "' outside an exec clause");
    }
    return cfs_.back();
  }

  static bool IsVectorMnemonic(std::string_view m, VectorOp* op) {
    if (m == "mov") {
      *op = VectorOp::kMax;
      return true;
    }
    for (uint32_t i = 0; i < kVectorOpCount; ++i) {
      if (VectorOpName(VectorOp(i)) == m) {
        *op = VectorOp(i);
        return true;
      }
    }
    return false;
  }
  static bool IsScalarMnemonic(std::string_view m, ScalarOp* op) {
    for (uint32_t i = 0; i < kScalarOpCount; ++i) {
      if (IsValidScalarOp(i) && ScalarOpName(ScalarOp(i)) == m) {
        *op = ScalarOp(i);
        return true;
      }
    }
    return false;
  }
  static std::string_view StripSat(std::string_view m) {
    if (m.size() > 4 && m.substr(m.size() - 4) == "_sat") return m.substr(0, m.size() - 4);
    return m;
  }

  void FlushAlu() {
    if (!alu_.vector && !alu_.scalar && !alu_.nop) return;
    CfEntry& e = cfs_.back();
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
    cfs_.back().instrs.push_back(ins);
  }

  // Destination of a vector/scalar ALU line.
  struct Dest {
    bool is_export = false;
    uint32_t reg = 0;
    bool rel = false;
    uint32_t letters = 0, ones = 0, zeros = 0;
  };

  Dest ParseAluDest(const Statement& st, const Piece& p) {
    RegRef r = ParseReg(st, p);
    Dest d;
    if (r.negate || r.abs) st.Error(p, "a destination cannot be negated or absolute");
    if (r.kind == 'r') {
      if (!r.has_index || r.index > 63) st.Error(p, "temp register out of range (r0-r63)");
      if (r.rel == RelativeMode::kA0) st.Error(p, "destinations are relative to aL only");
      d.reg = r.index;
      d.rel = r.rel == RelativeMode::kAL;
      d.letters = r.has_swizzle ? LetterMask(st, p, r.swizzle) : 0xF;
      return d;
    }
    if (r.kind == 'c') st.Error(p, "a constant cannot be a destination");
    d.is_export = true;
    auto reg = syntax::ParseExportName(*type_, r.name,
                                       r.has_index ? std::optional<uint32_t>(r.index) : std::nullopt);
    if (!reg) st.Error(p, "unknown export register '" + std::string(p.text) + "' for this shader type");
    if (r.rel != RelativeMode::kNone) st.Error(p, "use the VectorDestRel option for relative exports");
    d.reg = *reg;
    if (!r.has_swizzle) {
      d.letters = 0xF;
    } else if (r.swizzle.find_first_of("01_") != std::string_view::npos && r.swizzle != "_") {
      if (r.swizzle.size() != 4) st.Error(p, "an export mask with 0/1/_ needs all 4 components");
      for (uint32_t c = 0; c < 4; ++c) {
        const char ch = r.swizzle[c];
        if (ch == "xyzw"[c]) d.letters |= 1u << c;
        else if (ch == '1') d.ones |= 1u << c;
        else if (ch == '0') d.zeros |= 1u << c;
        else if (ch != '_') st.Error(p, "bad export mask component '" + std::string(1, ch) + "'");
      }
    } else {
      d.letters = LetterMask(st, p, r.swizzle);
    }
    return d;
  }

  // Source operand -> AluSource, recording constant addressing for BuildAlu.
  AluSource ParseAluSource(const Statement& st, const Piece& p, uint32_t index, int scalar_form,
                           std::vector<ConstUse>& consts) {
    RegRef r = ParseReg(st, p);
    AluSource s;
    s.negate = r.negate;
    if (r.kind == 'e' || !r.has_index) st.Error(p, "expected a register r# or constant c#");
    if (r.kind == 'r') {
      if (r.index > 63) st.Error(p, "temp register out of range (r0-r63)");
      if (r.rel == RelativeMode::kA0) st.Error(p, "temp registers are relative to aL only");
      s.is_temp = true;
      s.reg = r.index | (r.rel == RelativeMode::kAL ? 0x40 : 0) | (r.abs ? 0x80 : 0);
    } else {
      if (r.index > 255) st.Error(p, "constant out of range (c0-c255)");
      s.is_temp = false;
      s.reg = r.index;
      consts.push_back({index, r.rel, r.abs, p});
    }
    s.swizzle = scalar_form < 0 ? VectorSwizzle(st, p, r)
                                : ScalarSwizzle(st, p, r, scalar_form == 2);
    return s;
  }

  AluInstruction BuildAlu(const AluBuild& b) {
    AluInstruction a;
    a.vector_op = syntax::kNopVectorOp;
    a.scalar_op = ScalarOp::kRetainPrev;
    std::array<std::optional<AluSource>, 3> srcs;
    std::vector<ConstUse> consts;
    const Statement* first = b.vector ? b.vector : b.scalar ? b.scalar : b.nop;
    auto set_src = [&](const Statement& st, const Piece& p, uint32_t i, const AluSource& s) {
      if (srcs[i] && (srcs[i]->is_temp != s.is_temp || srcs[i]->reg != s.reg ||
                      srcs[i]->swizzle != s.swizzle || srcs[i]->negate != s.negate)) {
        st.Error(p, "the vector and scalar ops share src3 and must name it identically");
      }
      srcs[i] = s;
    };
    int pred = first->pred;
    for (const Statement* st : {b.vector, b.scalar, b.nop}) {
      if (st && st->pred != pred) st->Error("co-issued ops must have the same predicate");
    }
    a.is_predicated = pred >= 0;
    a.predicate_condition = pred == 1;

    Dest vdest, sdest;
    bool have_vdest = false, have_sdest = false;
    if (b.vector) {
      const Statement& st = *b.vector;
      std::string_view m = st.mnemonic;
      a.vector_clamp = m != StripSat(m);
      m = StripSat(m);
      VectorOp op = VectorOp::kMax;
      IsVectorMnemonic(m, &op);
      a.vector_op = op;
      const bool mov = m == "mov";
      const uint32_t n = mov ? 1 : VectorOpOperandCount(op);
      if (st.operands.size() < 1 + n || st.operands.size() > 4 || (mov && st.operands.size() != 2)) {
        st.Error("'" + std::string(m) + "' takes " + std::to_string(n) + " source operand" +
                 (n == 1 ? "" : "s"));
      }
      vdest = ParseAluDest(st, st.operands[0]);
      have_vdest = true;
      for (uint32_t i = 0; i + 1 < st.operands.size(); ++i) {
        set_src(st, st.operands[1 + i], i,
                ParseAluSource(st, st.operands[1 + i], i, -1, consts));
      }
      if (mov) {
        srcs[1] = srcs[0];
        if (!srcs[0]->is_temp) {
          ConstUse copy = consts.back();
          copy.src = 1;
          consts.push_back(copy);
        }
      }
    }
    if (b.scalar) {
      const Statement& st = *b.scalar;
      std::string_view m = st.mnemonic;
      a.scalar_clamp = m != StripSat(m);
      ScalarOp op = ScalarOp::kRetainPrev;
      IsScalarMnemonic(StripSat(m), &op);
      a.scalar_op = op;
      const ScalarForm form = ScalarOpForm(op);
      if (st.operands.empty()) st.Error("missing destination");
      sdest = ParseAluDest(st, st.operands[0]);
      have_sdest = true;
      const size_t nsrc = st.operands.size() - 1;
      switch (form) {
        case ScalarForm::kNone:
          if (nsrc > 1) st.Error("'" + std::string(m) + "' takes no source operand");
          if (nsrc == 1) set_src(st, st.operands[1], 2, ParseAluSource(st, st.operands[1], 2, -1, consts));
          break;
        case ScalarForm::kOne:
        case ScalarForm::kTwoComponent:
          if (nsrc != 1) st.Error("'" + std::string(m) + "' takes one source operand");
          set_src(st, st.operands[1], 2,
                  ParseAluSource(st, st.operands[1], 2, form == ScalarForm::kTwoComponent ? 2 : 1,
                                 consts));
          break;
        case ScalarForm::kConstTemp: {
          if (nsrc != 2) st.Error("'" + std::string(m) + "' takes a constant and a temp");
          RegRef c = ParseReg(st, st.operands[1]);
          RegRef t = ParseReg(st, st.operands[2]);
          if (c.kind != 'c' || !c.has_index || c.index > 255) {
            st.Error(st.operands[1], "expected a constant c0-c255");
          }
          if (t.kind != 'r' || !t.has_index || t.index > 63 || t.abs || t.rel != RelativeMode::kNone) {
            st.Error(st.operands[2], "expected a plain temp r0-r63");
          }
          if (c.negate != t.negate) st.Error(st.operands[2], "both operands share one negate bit");
          if (!c.has_swizzle || c.swizzle.size() != 1 || !t.has_swizzle || t.swizzle.size() != 1) {
            st.Error("constant and temp each take one swizzle component");
          }
          const int ca = ComponentIndex(c.swizzle[0]), tb = ComponentIndex(t.swizzle[0]);
          if (ca < 0 || tb < 0) st.Error("bad swizzle component");
          a.scalar_op = ScalarOp((uint32_t(op) & ~1u) | (t.index & 1));
          AluSource s;
          s.reg = c.index;
          s.negate = c.negate;
          s.is_temp = (t.index >> 1) & 1;
          s.swizzle = (uint32_t((ca - 3) & 3) << 6) | (t.index & 0x3C) | uint32_t(tb);
          set_src(st, st.operands[1], 2, s);
          consts.push_back({2, c.rel, c.abs, st.operands[1]});
          break;
        }
      }
    }
    for (uint32_t i = 0; i < 3; ++i) a.src[i] = srcs[i].value_or(syntax::DefaultSource());

    // Destinations and masks.
    if (have_vdest) {
      a.export_data = vdest.is_export;
      a.vector_dest = vdest.reg;
      a.vector_dest_rel = vdest.rel;
    }
    if (have_sdest) {
      if (have_vdest && sdest.is_export != vdest.is_export) {
        b.scalar->Error(b.scalar->operands[0],
                        "an exporting instruction's scalar op writes the same export register");
      }
      if (sdest.is_export) {
        if (have_vdest && sdest.reg != vdest.reg) {
          b.scalar->Error(b.scalar->operands[0], "scalar export register differs from the vector one");
        }
        if (sdest.ones || sdest.zeros) {
          b.scalar->Error(b.scalar->operands[0], "0/1 components go on the vector op's mask");
        }
        a.export_data = true;
        a.vector_dest = sdest.reg;
      } else {
        a.scalar_dest = sdest.reg;
        a.scalar_dest_rel = sdest.rel;
      }
    }
    if (a.export_data) {
      const uint32_t vres = have_vdest ? vdest.letters : 0, sres = have_sdest ? sdest.letters : 0;
      const uint32_t ones = have_vdest ? vdest.ones : 0, zeros = have_vdest ? vdest.zeros : 0;
      a.vector_write_mask = vres | ones;
      a.scalar_write_mask = sres | ones;
      a.scalar_dest_rel = zeros != 0;
      if ((vres & sres) || ((vres | sres | ones) & zeros)) {
        first->Error("export components are written twice");
      }
    } else {
      a.vector_write_mask = have_vdest ? vdest.letters : 0;
      a.scalar_write_mask = have_sdest ? sdest.letters : 0;
    }

    // Constant addressing: each constant operand sets its slot's flag; modes must agree.
    std::optional<bool> abs, a0;
    std::array<std::optional<bool>, 2> slot_rel;
    for (const ConstUse& c : consts) {
      if (c.src < 3 && a.src[c.src].is_temp && !(c.src == 2 && b.scalar &&
                                                 ScalarOpForm(a.scalar_op) == ScalarForm::kConstTemp)) {
        continue;
      }
      const Statement& st = *first;
      if (abs && *abs != c.abs) st.Error(c.where, "_abs applies to every constant operand or none");
      abs = c.abs;
      const uint32_t slot = syntax::ConstSlot(a, c.src);
      const bool rel = c.rel != RelativeMode::kNone;
      if (slot_rel[slot] && *slot_rel[slot] != rel) {
        st.Error(c.where, "constants sharing an address slot must agree on relative addressing");
      }
      slot_rel[slot] = rel;
      if (rel) {
        const bool is_a0 = c.rel == RelativeMode::kA0;
        if (a0 && *a0 != is_a0) st.Error(c.where, "relative constants must all use a0 or all aL");
        a0 = is_a0;
      }
    }
    a.abs_constants = abs.value_or(false);
    a.const_address_register_relative = a0.value_or(false);
    a.const_0_rel = slot_rel[0].value_or(false);
    a.const_1_rel = slot_rel[1].value_or(false);

    // Options (fields the operands do not show).
    for (const Statement* st : {b.vector, b.scalar, b.nop}) {
      if (!st) continue;
      OptionSet opt(*st);
      if (opt.Bool("PredCondition", false)) a.predicate_condition = true;
      if (opt.Bool("AbsConstants", false)) a.abs_constants = true;
      if (opt.Bool("ConstA0", false)) a.const_address_register_relative = true;
      if (opt.Bool("Const0Rel", false)) a.const_0_rel = true;
      if (opt.Bool("Const1Rel", false)) a.const_1_rel = true;
      if (auto d = opt.Int<uint32_t>("ScalarDest", 0, 63)) a.scalar_dest = *d;
      if (opt.Bool("ScalarDestRel", false)) a.scalar_dest_rel = true;
      if (opt.Bool("VectorDestRel", false)) a.vector_dest_rel = true;
      opt.Done();
    }
    if (b.nop && !b.nop->operands.empty()) b.nop->Error("'nop' takes no operands");
    return a;
  }

  FetchInstruction BuildFetch(const Statement& st, std::optional<Semantic>* semantic) {
    FetchInstruction f;
    OptionSet opt(st);
    const std::string_view m = st.mnemonic;
    f.is_predicated = st.pred >= 0;
    f.predicate_condition = st.pred == 1 || opt.Bool("PredCondition", false);
    auto dest = [&](const Piece& p) {
      RegRef r = ParseReg(st, p);
      if (r.kind != 'r' || !r.has_index || r.index > 63 || r.negate || r.abs ||
          r.rel == RelativeMode::kA0) {
        st.Error(p, "expected a destination temp r0-r63");
      }
      f.dst_reg = r.index;
      f.dst_rel = r.rel == RelativeMode::kAL;
      f.dst_swizzle = 0x688;
      if (r.has_swizzle) {
        if (r.swizzle.size() != 4) st.Error(p, "a fetch destination swizzle has 4 components");
        f.dst_swizzle = 0;
        for (uint32_t c = 0; c < 4; ++c) {
          const char* pos = std::strchr("xyzw01?_", r.swizzle[c]);
          if (!pos || !*pos) st.Error(p, "bad fetch destination component");
          f.dst_swizzle |= uint32_t(pos - "xyzw01?_") << (3 * c);
        }
      }
    };
    auto source = [&](const Piece& p, uint32_t max_components) {
      RegRef r = ParseReg(st, p);
      if (r.kind != 'r' || !r.has_index || r.index > 63 || r.negate || r.abs ||
          r.rel == RelativeMode::kA0) {
        st.Error(p, "expected a source temp r0-r63");
      }
      f.src_reg = r.index;
      f.src_rel = r.rel == RelativeMode::kAL;
      f.src_swizzle = 0;
      if (r.has_swizzle) {
        if (r.swizzle.size() > max_components) st.Error(p, "too many source components");
        auto c = SwizzleChars(st, p, r.swizzle);
        for (size_t i = 0; i < r.swizzle.size(); ++i) f.src_swizzle |= uint32_t(c[i]) << (2 * i);
      }
    };
    if (m == "vfetch" || m == "vfetch_full" || m == "vfetch_mini") {
      f.opcode = FetchOp::kVertexFetch;
      f.is_mini_fetch = m == "vfetch_mini";
      st.ExpectOperands(3);
      dest(st.operands[0]);
      source(st.operands[1], 1);
      const Piece& k = st.operands[2];
      uint32_t vf = 0;
      uint32_t constant = 95;
      if (k.text.size() > 2 && k.text.substr(0, 2) == "vf" && ParseInt(k.text.substr(2), vf)) {
        if (vf > 95) st.Error(k, "vertex fetch constant out of range (vf0-vf95)");
        constant = 95 - vf;
      } else if (m == "vfetch") {
        *semantic = syntax::ParseSemantic(k.text);
        if (!*semantic) st.Error(k, "expected vf<n> or a vertex semantic (position, texcoord1, ...)");
      } else {
        st.Error(k, "expected vf<n>");
      }
      f.const_index = constant / 3;
      f.const_index_sel = constant % 3;
      if (auto sel = opt.Int<uint32_t>("ConstIndexSel", 3, 3)) {
        if (f.const_index_sel != 0) st.Error("ConstIndexSel=3 needs a vf number that is a multiple of 3 below 96");
        f.const_index_sel = *sel;
      }
      if (auto v = opt.Int<int32_t>("Offset", -(1 << 22), (1 << 22) - 1)) f.offset = *v;
      if (const Piece* v = opt.Find("DataFormat")) {
        auto fmt = syntax::ParseVertexFormat(v->text);
        if (!fmt) st.Error(*v, "unknown DataFormat");
        f.format = *fmt;
      }
      if (auto v = opt.Int<uint32_t>("Stride", 0, 255)) f.stride = *v;
      f.is_signed = opt.Bool("Signed", false);
      if (const Piece* v = opt.Find("NumFormat")) {
        if (v->text == "integer") f.is_integer = true;
        else if (v->text != "normalized") st.Error(*v, "NumFormat is integer or normalized");
      }
      f.signed_rf_mode = opt.Bool("SignedRFMode", false);
      if (auto v = opt.Int<int32_t>("ExpAdjust", -32, 31)) f.exp_adjust = *v;
      f.is_index_rounded = opt.Bool("RoundIndex", false);
      if (auto v = opt.Int<uint32_t>("PrefetchCount", 1, 8)) f.prefetch_count = *v - 1;
      f.must_be_one = opt.Bool("MustBeOne", true);
      if (auto v = opt.Int<uint32_t>("Pad1", 0, 0xFFFFFFFF)) {
        if (*v & ~0x00C00000u) st.Error("Pad1 holds only dword 1 bits 22-23");
        f.pad[1] = *v;
      }
    } else {
      static const std::pair<std::string_view, FetchOp> kBases[] = {
          {"tfetch", FetchOp::kTextureFetch},
          {"getBCF", FetchOp::kGetTextureBorderColorFrac},
          {"getCompTexLOD", FetchOp::kGetTextureComputedLod},
          {"getWeights", FetchOp::kGetTextureWeights},
          {"getGradients", FetchOp::kGetTextureGradients},
          {"setTexLOD", FetchOp::kSetTextureLod},
          {"setGradientH", FetchOp::kSetTextureGradientsHorz},
          {"setGradientV", FetchOp::kSetTextureGradientsVert},
      };
      static const std::string_view kDims[] = {"1D", "2D", "3D", "Cube"};
      bool found = false;
      for (const auto& [name, op] : kBases) {
        if (syntax::TextureMnemonicHasDimension(op)) {
          for (uint32_t d = 0; d < 4; ++d) {
            if (m == std::string(name) + std::string(kDims[d])) {
              f.opcode = op;
              f.dimension = TextureDimension(d);
              found = true;
            }
          }
        } else if (m == name) {
          f.opcode = op;
          f.dimension = syntax::kDefaultDimension;
          found = true;
        }
      }
      if (!found) st.Error("unknown instruction '" + std::string(m) + "'");
      if (!syntax::TextureMnemonicHasDimension(f.opcode)) {
        if (const Piece* v = opt.Find("Dimension")) {
          bool ok = false;
          for (uint32_t d = 0; d < 4; ++d) {
            if (v->text == kDims[d]) {
              f.dimension = TextureDimension(d);
              ok = true;
            }
          }
          if (!ok) st.Error(*v, "Dimension is 1D, 2D, 3D or Cube");
        }
      }
      const bool has_dest = f.HasDestination();
      st.ExpectOperands(has_dest ? 3 : 2);
      size_t at = 0;
      if (has_dest) {
        dest(st.operands[at++]);
      } else {
        f.dst_swizzle = syntax::kNoDestSwizzle;
        if (const Piece* v = opt.Find("Dest")) dest(*v);
      }
      const uint32_t n = syntax::TextureSourceComponents(f.opcode, f.dimension);
      source(st.operands[at++], std::max<uint32_t>(n, 3));
      const Piece& k = st.operands[at];
      uint32_t tf = 0;
      if (k.text.size() < 3 || k.text.substr(0, 2) != "tf" || !ParseInt(k.text.substr(2), tf) ||
          tf > 31) {
        st.Error(k, "expected a texture fetch constant tf0-tf31");
      }
      f.const_index = tf;
      f.fetch_valid_only = opt.Bool("FetchValidOnly", true);
      f.tx_coord_denorm = opt.Bool("UnnormalizedTextureCoords", false);
      auto filter = [&](std::string_view key, uint32_t& field, auto parse) {
        if (const Piece* v = opt.Find(key)) {
          auto x = parse(v->text);
          if (!x) st.Error(*v, "unknown " + std::string(key) + " value");
          field = *x;
        }
      };
      filter("MagFilter", f.mag_filter, syntax::ParseFilter);
      filter("MinFilter", f.min_filter, syntax::ParseFilter);
      filter("MipFilter", f.mip_filter, syntax::ParseFilter);
      filter("AnisoFilter", f.aniso_filter, syntax::ParseAniso);
      filter("ArbitraryFilter", f.arbitrary_filter, syntax::ParseArbitrary);
      filter("VolMagFilter", f.vol_mag_filter, syntax::ParseFilter);
      filter("VolMinFilter", f.vol_min_filter, syntax::ParseFilter);
      f.use_comp_lod = opt.Bool("UseComputedLOD", true);
      f.use_reg_lod = opt.Bool("UseRegisterLOD", false);
      f.use_reg_gradients = opt.Bool("UseRegisterGradients", false);
      if (auto v = opt.Int<uint32_t>("SampleLocation", 0, 1)) f.sample_location = *v;
      auto fixed = [&](std::string_view key, int32_t& field, float scale, int32_t lo, int32_t hi) {
        if (const Piece* v = opt.Find(key)) {
          float x = 0;
          const float scaled = ParseFloat(v->text, x) ? x * scale : 1e9f;
          if (scaled != std::floor(scaled) || scaled < float(lo) || scaled > float(hi)) {
            st.Error(*v, std::string(key) + " must be a multiple of " + syntax::FormatFloat(1 / scale) +
                             " in [" + syntax::FormatFloat(lo / scale) + ", " +
                             syntax::FormatFloat(hi / scale) + "]");
          }
          field = int32_t(scaled);
        }
      };
      fixed("LODBias", f.lod_bias, 16.0f, -64, 63);
      fixed("OffsetX", f.offset_x, 2.0f, -16, 15);
      fixed("OffsetY", f.offset_y, 2.0f, -16, 15);
      fixed("OffsetZ", f.offset_z, 2.0f, -16, 15);
      if (auto v = opt.Int<uint32_t>("Pad1", 0, 0xFFFFFFFF)) {
        if (*v & ~0x40000000u) st.Error("Pad1 holds only dword 1 bit 30");
        f.pad[1] = *v;
      }
      if (auto v = opt.Int<uint32_t>("Pad2", 0, 0xFFFFFFFF)) {
        if (*v & ~0x00003E00u) st.Error("Pad2 holds only dword 2 bits 9-13");
        f.pad[2] = *v;
      }
    }
    opt.Done();
    return f;
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
  std::vector<RawSlotEntry> raw_slots_;
  std::vector<PendingAlu> pending_alu_;
  AluBuild alu_;
  AssembledShader out_;
};

}  // namespace

AssembledShader AssembleShader(std::string_view text, std::optional<ShaderType> default_type) {
  return Assembler(text, default_type).Run();
}

std::vector<uint32_t> Assemble(std::string_view text, ShaderType* type_out,
                               std::optional<ShaderType> default_type) {
  AssembledShader s = AssembleShader(text, default_type);
  if (type_out) *type_out = s.type;
  return std::move(s.microcode);
}

}  // namespace xnt::ucode
