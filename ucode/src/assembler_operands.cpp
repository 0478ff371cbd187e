// Assembler front end: splits a line into a Statement (predicate, mnemonic, operands, options)
// and parses register operands, swizzles and write masks. Shared by the control-flow driver
// (assembler.cpp) and the ALU/fetch encoder (assembler_encode.cpp).
#include <algorithm>
#include <charconv>
#include <string>

#include "assembler_internal.h"

namespace xnt::ucode::assembler_internal {

// ---- Lexing -------------------------------------------------------------------------------------

[[noreturn]] void Fail(uint32_t line, uint32_t col, const std::string& what) {
  throw Error(std::to_string(line) + ":" + std::to_string(col) + ": " + what);
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

bool ParseFloat(std::string_view s, float& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

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

// ---- Register operands --------------------------------------------------------------------------

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
    // fxc's absolute-value spelling: `r5_abs`, `c107_abs`.
    if (d > 0 && !r.abs && t.substr(0, 4) == "_abs") {
      r.abs = true;
      t.remove_prefix(4);
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

namespace {

// Component per position -> relative-encoded 8-bit swizzle.
uint32_t EncodeSwizzle(const std::array<int, 4>& comps) {
  uint32_t swz = 0;
  for (uint32_t p = 0; p < 4; ++p) swz |= uint32_t((comps[p] - int(p)) & 3) << (2 * p);
  return swz;
}

}  // namespace

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
  // Two components a, b: the ALU reads a from position w and b from position x. The compiler
  // stores b in x and y and a in z and w (`subs r14.x, r13.wx` is r13.xxww).
  if (two && r.swizzle.size() == 2) return EncodeSwizzle({c[1], c[1], c[0], c[0]});
  st.Error(p, std::string("scalar operand takes ") + (two ? "2" : "1") +
                  " swizzle component" + (two ? "s" : "") + " (or all 4)");
}

uint32_t LetterMask(const Statement& st, const Piece& p, std::string_view s) {
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

}  // namespace xnt::ucode::assembler_internal
