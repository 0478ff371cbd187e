// Private to the assembler: what its three source files share. assembler_operands.cpp lexes lines
// into statements and parses register operands, assembler_encode.cpp builds ALU and fetch
// instructions from statements, and assembler.cpp drives both (directives, control flow, layout).
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "xnt/base/error.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode::assembler_internal {

// ---- Lexing -------------------------------------------------------------------------------------

struct Piece {
  std::string_view text;
  uint32_t col = 1;  // 1-based
};

[[noreturn]] void Fail(uint32_t line, uint32_t col, const std::string& what);

inline bool IsIdent(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

Piece Trim(Piece p);
std::vector<Piece> SplitCommas(Piece p);

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

bool ParseFloat(std::string_view s, float& out);

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

Statement ParseStatement(Piece text, uint32_t line);

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

RegRef ParseReg(const Statement& st, const Piece& p);

int ComponentIndex(char c);  // x y z w -> 0..3, else -1
std::array<int, 4> SwizzleChars(const Statement& st, const Piece& p, std::string_view s);
// Operand swizzles -> the 8-bit ALU source swizzle. A short vector swizzle repeats its last
// component; a scalar operand takes one component (`two`: two, for the two-component scalar ops)
// or all four.
uint32_t VectorSwizzle(const Statement& st, const Piece& p, const RegRef& r);
uint32_t ScalarSwizzle(const Statement& st, const Piece& p, const RegRef& r, bool two);
// Destination write mask in xyzw order; "_" writes nothing.
uint32_t LetterMask(const Statement& st, const Piece& p, std::string_view s);

// ---- ALU / fetch instructions -------------------------------------------------------------------

// The statements of one ALU instruction: a vector op with an optional co-issued ('+') scalar op,
// a lone scalar op, or a nop. They stay unencoded until the shader type is known (exports).
struct AluBuild {
  const Statement* vector = nullptr;
  const Statement* scalar = nullptr;
  const Statement* nop = nullptr;
};

bool IsVectorMnemonic(std::string_view m, VectorOp* op);
bool IsScalarMnemonic(std::string_view m, ScalarOp* op);
std::string_view StripSat(std::string_view m);

// `type` names the export registers; `build` is the compiler build the listing names (0: none),
// which decides a field no listing shows (syntax.h DefaultExportScalarDestRel), and `unused` the
// register of a half that does nothing (syntax.h UnusedRegister). Errors point at the offending
// statement.
AluInstruction BuildAlu(const AluBuild& b, ShaderType type, uint32_t build, uint32_t unused);
// `semantic` is set when a vfetch names a vertex semantic instead of a vf<n> constant.
FetchInstruction BuildFetch(const Statement& st, std::optional<Semantic>* semantic);

}  // namespace xnt::ucode::assembler_internal
