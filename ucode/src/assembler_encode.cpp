// Assembler back end: builds the ALU instruction for a vector/scalar/nop group of statements and
// the fetch instruction for a vfetch/tfetch-family statement, checking operands against what the
// encoding can express.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "assembler_internal.h"
#include "syntax.h"

namespace xnt::ucode::assembler_internal {
namespace {

// A constant operand of an ALU instruction. The abs, a0/aL and per-slot relative flags are shared
// by all of an instruction's constants, so they are collected first and checked together.
struct ConstUse {
  uint32_t src = 0;
  RelativeMode rel = RelativeMode::kNone;
  bool abs = false;
  Piece where;
};

// Destination of a vector/scalar ALU line.
struct Dest {
  bool is_export = false;
  uint32_t reg = 0;
  bool rel = false;
  uint32_t letters = 0, ones = 0, zeros = 0;
};

Dest ParseAluDest(const Statement& st, const Piece& p, ShaderType type) {
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
  auto reg = syntax::ParseExportName(type, r.name,
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

}  // namespace

// ---- ALU ----------------------------------------------------------------------------------------

// `mov` is not an opcode: it is `max` with both sources the same.
bool IsVectorMnemonic(std::string_view m, VectorOp* op) {
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

// `movs` / `movas` are `maxs` / `maxas` reading one component twice (fxc listings).
bool IsScalarMnemonic(std::string_view m, ScalarOp* op) {
  if (m == "movs" || m == "movas") {
    *op = m == "movs" ? ScalarOp::kMaxs : ScalarOp::kMaxAs;
    return true;
  }
  for (uint32_t i = 0; i < kScalarOpCount; ++i) {
    if (IsValidScalarOp(i) && ScalarOpName(ScalarOp(i)) == m) {
      *op = ScalarOp(i);
      return true;
    }
  }
  return false;
}

std::string_view StripSat(std::string_view m) {
  if (m.size() > 4 && m.substr(m.size() - 4) == "_sat") return m.substr(0, m.size() - 4);
  return m;
}

namespace {

// The vector and scalar ops' destinations (either may be absent) and write masks; an exporting
// instruction's ops share one export register.
void SetDestinations(AluInstruction& a, const AluBuild& b, const Dest* vdest, const Dest* sdest,
                     const Statement& first) {
  if (vdest) {
    a.export_data = vdest->is_export;
    a.vector_dest = vdest->reg;
    a.vector_dest_rel = vdest->rel;
  }
  if (sdest) {
    if (vdest && sdest->is_export != vdest->is_export) {
      b.scalar->Error(b.scalar->operands[0],
                      "an exporting instruction's scalar op writes the same export register");
    }
    if (sdest->is_export) {
      if (vdest && sdest->reg != vdest->reg) {
        b.scalar->Error(b.scalar->operands[0], "scalar export register differs from the vector one");
      }
      // A lone scalar line carries the 0/1 components (fxc folds a vector half that writes only
      // those into it: `rcp o1.x000, c5.x`); beside a vector line they go on the vector's mask.
      if (vdest && (sdest->ones || sdest->zeros)) {
        b.scalar->Error(b.scalar->operands[0], "0/1 components go on the vector op's mask");
      }
      a.export_data = true;
      a.vector_dest = sdest->reg;
    } else {
      a.scalar_dest = sdest->reg;
      a.scalar_dest_rel = sdest->rel;
    }
  }
  if (a.export_data) {
    const uint32_t vres = vdest ? vdest->letters : 0, sres = sdest ? sdest->letters : 0;
    const Dest* constants = vdest ? vdest : sdest;
    const uint32_t ones = constants ? constants->ones : 0, zeros = constants ? constants->zeros : 0;
    a.vector_write_mask = vres | ones;
    a.scalar_write_mask = sres | ones;
    a.scalar_dest_rel = zeros != 0;
    if ((vres & sres) || ((vres | sres | ones) & zeros)) {
      first.Error("export components are written twice");
    }
  } else {
    a.vector_write_mask = vdest ? vdest->letters : 0;
    a.scalar_write_mask = sdest ? sdest->letters : 0;
  }
}

// Constant addressing: each constant operand sets its slot's flag; modes must agree.
void SetConstantAddressing(AluInstruction& a, const AluBuild& b, const std::vector<ConstUse>& consts,
                           const Statement& first) {
  std::optional<bool> abs, a0;
  std::array<std::optional<bool>, 2> slot_rel;
  for (const ConstUse& c : consts) {
    if (c.src < 3 && a.src[c.src].is_temp && !(c.src == 2 && b.scalar &&
                                               ScalarOpForm(a.scalar_op) == ScalarForm::kConstTemp)) {
      continue;
    }
    const Statement& st = first;
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
}

// Options: fields the operands do not show.
void ApplyAluOptions(AluInstruction& a, const AluBuild& b) {
  // A vector or scalar half the listing leaves out keeps its destination register as an option.
  const bool vector_dest_option = !b.vector && !a.export_data;
  for (const Statement* st : {b.vector, b.scalar, b.nop}) {
    if (!st) continue;
    OptionSet opt(*st);
    if (opt.Bool("PredCondition", false)) a.predicate_condition = true;
    if (opt.Bool("AbsConstants", false)) a.abs_constants = true;
    if (opt.Bool("ConstA0", false)) a.const_address_register_relative = true;
    if (opt.Bool("Const0Rel", false)) a.const_0_rel = true;
    if (opt.Bool("Const1Rel", false)) a.const_1_rel = true;
    if (auto d = opt.Int<uint32_t>("ScalarDest", 0, 63)) a.scalar_dest = *d;
    if (vector_dest_option) {
      if (auto d = opt.Int<uint32_t>("VectorDest", 0, 63)) a.vector_dest = *d;
    }
    a.scalar_dest_rel = opt.Bool("ScalarDestRel", a.scalar_dest_rel);
    if (opt.Bool("VectorDestRel", false)) a.vector_dest_rel = true;
    opt.Done();
  }
}

}  // namespace

AluInstruction BuildAlu(const AluBuild& b, ShaderType type, uint32_t build, uint32_t unused) {
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
    vdest = ParseAluDest(st, st.operands[0], type);
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
    sdest = ParseAluDest(st, st.operands[0], type);
    have_sdest = true;
    const size_t nsrc = st.operands.size() - 1;
    switch (form) {
      case ScalarForm::kNone:
        if (nsrc > 1) st.Error("'" + std::string(m) + "' takes no source operand");
        if (nsrc == 1) set_src(st, st.operands[1], 2, ParseAluSource(st, st.operands[1], 2, -1, consts));
        break;
      case ScalarForm::kOne:
      case ScalarForm::kTwoComponent: {
        if (nsrc != 1) st.Error("'" + std::string(m) + "' takes one source operand");
        const std::string_view base = StripSat(m);
        const bool smov = base == "movs" || base == "movas";
        set_src(st, st.operands[1], 2,
                ParseAluSource(st, st.operands[1], 2,
                               form == ScalarForm::kTwoComponent && !smov ? 2 : 1, consts));
        break;
      }
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

  SetDestinations(a, b, have_vdest ? &vdest : nullptr, have_sdest ? &sdest : nullptr, *first);
  if (!b.scalar && !a.export_data) a.scalar_dest = unused;
  if (!b.vector && !a.export_data) {
    const uint32_t reg = syntax::NopVectorRegister(unused, srcs[2] && srcs[2]->is_temp);
    a.vector_dest = reg;
    for (uint32_t i = 0; i < 2; ++i) {
      if (!srcs[i]) a.src[i] = syntax::UnusedSource(reg);
    }
  }
  SetConstantAddressing(a, b, consts, *first);
  if (a.export_data && !a.scalar_dest_rel) {
    const bool scalar_unused = a.scalar_op == ScalarOp::kRetainPrev && !a.scalar_clamp &&
                               a.ScalarResultMask() == 0;
    a.scalar_dest_rel = syntax::DefaultExportScalarDestRel(
        build, scalar_unused, a.vector_write_mask | a.scalar_write_mask,
        a.vector_write_mask & a.scalar_write_mask);
  }
  ApplyAluOptions(a, b);
  if (b.nop && !b.nop->operands.empty()) b.nop->Error("'nop' takes no operands");
  return a;
}

// ---- Fetch --------------------------------------------------------------------------------------

namespace {

// A vertex fetch's constant operand (vf<n>, or a semantic for `vfetch`) and its options.
void ReadVertexFetchConstant(const Statement& st, OptionSet& opt, FetchInstruction& f,
                             std::optional<Semantic>* semantic) {
  const std::string_view m = st.mnemonic;
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
}

// A texture fetch's options: validity, filters, LOD, offsets, padding bits.
void ReadTextureFetchOptions(const Statement& st, OptionSet& opt, FetchInstruction& f) {
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

}  // namespace

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
      f.src_swizzle = syntax::FillSourceSwizzle(f.src_swizzle, uint32_t(r.swizzle.size()));
    }
  };
  if (m == "vfetch" || m == "vfetch_full" || m == "vfetch_mini") {
    f.opcode = FetchOp::kVertexFetch;
    f.is_mini_fetch = m == "vfetch_mini";
    st.ExpectOperands(3);
    dest(st.operands[0]);
    source(st.operands[1], 1);
    ReadVertexFetchConstant(st, opt, f, semantic);
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
    ReadTextureFetchOptions(st, opt, f);
  }
  opt.Done();
  return f;
}

}  // namespace xnt::ucode::assembler_internal
