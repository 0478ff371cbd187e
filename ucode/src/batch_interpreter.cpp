// The batched pixel-shader interpreter (batch_interpreter.h). Every per-lane result comes from the
// rules in alu_rules.h that the scalar interpreter uses; the loops here only decide which lanes
// run and where the results go. The common vector ops have their own loops over lanes (the same
// expressions, written so that the compiler can vectorise them); everything else calls the shared
// rule once per live lane.
#include "xnt/ucode/batch_interpreter.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "alu_rules.h"
#include "xnt/ucode/texture_queries.h"

namespace xnt::ucode {

namespace {

constexpr uint32_t N = BatchInterpreter::kLanes;
using Lanes = BatchInterpreter::Lanes;
// Lane masks are 0/1 in 32 bits, the width of the floats they select, so selects vectorise.
using Mask = std::array<uint32_t, N>;

struct Vec {
  std::array<Lanes, 4> c;
};
// An operand's four components as read by an instruction: straight from a temp when the operand
// has no modifier, else from a copy with them applied.
struct Src {
  const float* c[4];
};

// A constant vector operand (no relative addressing) as every lane reads it: its four
// components, modifiers applied, each repeated across the lanes. Filled on first use and again
// only when those four values change (a batch's constants are usually the draw's, the same for
// every batch), so an instruction does not broadcast the same constant into its lanes per batch.
struct ConstantSplat {
  Vec lanes;
  std::array<uint32_t, 4> bits{};
  bool filled = false;
};

// An ALU slot with its operands decoded once per shader.
struct DecodedAlu {
  std::array<Operand, 3> vector_operands;
  std::array<int32_t, 3> splat{-1, -1, -1};  // Machine::splats index of a constant operand
  uint32_t vector_count = 0;
  std::vector<Operand> scalar_operands;
  ScalarForm form = ScalarForm::kOne;
  uint32_t vmask = 0, smask = 0, one = 0, zero = 0;
};

bool Any(const Mask& m) {
  uint32_t any = 0;
  for (uint32_t l = 0; l < N; ++l) any |= m[l];
  return any != 0;
}

}  // namespace

struct BatchInterpreter::Machine {
  const Shader& shader;
  std::vector<DecodedAlu> alu;  // per slot (only ALU slots filled)
  std::vector<ConstantSplat> splats;  // DecodedAlu::splat
  uint32_t temp_count = 64;     // temps the shader can touch (all 64 with aL addressing)

  // Per-batch state.
  const InterpreterConstants* k = nullptr;
  const InterpreterCallbacks* cb = nullptr;
  Result* out = nullptr;
  std::array<Vec, 64> r{};
  std::array<int32_t, N> a0{};
  Mask p0{}, alive{};
  std::array<VertexFetchState, N> vf{};  // each lane's last full vertex fetch
  Mask counts{};  // lanes whose results are wanted (alive, not helpers)
  bool quads = false;
  std::array<float, 2> derivative_scale{1.0f, 1.0f};
  BatchTextureSource* textures = nullptr;
  Lanes ps{};
  Lanes tex_lod{};                     // setTexLOD
  std::array<Lanes, 3> grad_h{}, grad_v{};  // setGradientH / setGradientV
  int32_t aL = 0;
  alu_rules::ControlStack cs;
  bool diverged = false;
  // AnyWanted() as of the last kill (it changes only when a lane kills): `kill_seen` asks for it
  // to be worked out again.
  bool wanted = true, kill_seen = false;

  explicit Machine(const Shader& s) : shader(s) {
    alu.resize(s.slots.size());
    // Only the temps a shader names need clearing per batch (the rest are never read).
    uint32_t used = 0, splat_count = 0;
    auto use = [&](uint32_t index, bool relative) { used = relative ? 64 : std::max(used, (index & 63) + 1); };
    for (size_t i = 0; i < s.slots.size(); ++i) {
      if (s.slots[i].kind == SlotKind::kFetch) {
        use(s.slots[i].fetch.src_reg, s.slots[i].fetch.src_rel);
        use(s.slots[i].fetch.dst_reg, s.slots[i].fetch.dst_rel);
      }
      if (s.slots[i].kind != SlotKind::kAlu) continue;
      const AluInstruction& a = s.slots[i].alu;
      DecodedAlu& d = alu[i];
      d.vector_count = std::min<uint32_t>(VectorOpOperandCount(a.vector_op), 3);
      for (uint32_t k = 0; k < d.vector_count; ++k) {
        d.vector_operands[k] = a.VectorOperand(k);
        if (!d.vector_operands[k].is_temp && d.vector_operands[k].relative == RelativeMode::kNone) {
          d.splat[k] = int32_t(splat_count++);
        }
      }
      d.scalar_operands = a.ScalarOperands();
      d.form = ScalarOpForm(a.scalar_op);
      d.vmask = a.VectorResultMask();
      d.smask = a.ScalarResultMask();
      if (a.export_data) d.one = a.Constant1Mask(), d.zero = a.Constant0Mask();
      for (uint32_t k = 0; k < d.vector_count; ++k) {
        const Operand& o = d.vector_operands[k];
        if (o.is_temp) use(o.index, o.relative == RelativeMode::kAL);
      }
      for (const Operand& o : d.scalar_operands) {
        if (o.is_temp) use(o.index, o.relative == RelativeMode::kAL);
      }
      if (!a.export_data) use(a.vector_dest, a.vector_dest_rel), use(a.scalar_dest, a.scalar_dest_rel);
    }
    temp_count = std::max<uint32_t>(used, 1);
    splats.resize(splat_count);
  }

  void Note(const std::string& note) {
    if (std::find(out->notes.begin(), out->notes.end(), note) == out->notes.end()) {
      out->notes.push_back(note);
    }
  }
  bool BoolConstant(uint32_t i) const {
    i &= 0xFF;
    return ((k->bool_constants[i >> 5] >> (i & 31)) & 1) != 0;
  }
  Vec& Temp(uint32_t index, bool aL_relative) {
    return r[aL_relative ? uint32_t(int32_t(index) + aL) & 63u : index & 63u];
  }

  // The live lanes' p0 when they all agree; -1 when they differ (divergence), -2 when no lane is
  // live.
  int UniformP0() const {
    int value = -2;
    for (uint32_t l = 0; l < N; ++l) {
      if (!counts[l] || out->killed[l]) continue;
      const int p = p0[l] != 0 ? 1 : 0;
      if (value == -2) value = p;
      else if (value != p) return -1;
    }
    return value;
  }

  // One component of an operand for every lane, with |x| and negation done on the sign bit
  // (what fabs and unary minus do, NaNs included), so the loop has no branches.
  void ReadComponent(const Operand& op, uint32_t position, Lanes& dst) {
    const uint32_t comp = op.swizzle[position & 3] & 3;
    const uint32_t keep = op.absolute ? 0x7FFFFFFFu : 0xFFFFFFFFu;
    const uint32_t flip = op.negate ? 0x80000000u : 0u;
    auto modify = [keep, flip](float v) {
      return std::bit_cast<float>((std::bit_cast<uint32_t>(v) & keep) ^ flip);
    };
    if (op.is_temp) {
      const float* __restrict src = Temp(op.index, op.relative == RelativeMode::kAL).c[comp].data();
      float* __restrict out = dst.data();
      for (uint32_t l = 0; l < N; ++l) out[l] = modify(src[l]);
      return;
    }
    if (op.relative == RelativeMode::kA0) {
      // Relative constants wrap inside the stage's 256, per lane (a0 is per pixel).
      for (uint32_t l = 0; l < N; ++l) {
        dst[l] = modify(k->float_constants[uint32_t(int32_t(op.index) + a0[l]) & 255u][comp]);
      }
      return;
    }
    const uint32_t index =
        op.relative == RelativeMode::kAL ? uint32_t(int32_t(op.index) + aL) & 255u : op.index & 255u;
    dst.fill(modify(k->float_constants[index][comp]));
  }
  void ReadVector(const Operand& op, Vec& v) {
    for (uint32_t c = 0; c < 4; ++c) ReadComponent(op, c, v.c[c]);
  }
  // The operand for reading only (valid until a temp is written): a temp without |x| or
  // negation is used in place.
  void ReadSource(const Operand& op, Vec& scratch, Src& src) {
    if (op.is_temp && !op.absolute && !op.negate) {
      const Vec& t = Temp(op.index, op.relative == RelativeMode::kAL);
      for (uint32_t c = 0; c < 4; ++c) src.c[c] = t.c[op.swizzle[c] & 3].data();
      return;
    }
    ReadVector(op, scratch);
    for (uint32_t c = 0; c < 4; ++c) src.c[c] = scratch.c[c].data();
  }
  // A constant operand without relative addressing (ReadComponent's values) from its splat,
  // broadcast again only when the constant's four values differ from the splat's.
  void ReadConstant(const Operand& op, ConstantSplat& splat, Src& src) {
    const uint32_t keep = op.absolute ? 0x7FFFFFFFu : 0xFFFFFFFFu;
    const uint32_t flip = op.negate ? 0x80000000u : 0u;
    const Float4& value = k->float_constants[op.index & 255u];
    std::array<uint32_t, 4> bits;
    for (uint32_t c = 0; c < 4; ++c) {
      bits[c] = (std::bit_cast<uint32_t>(value[op.swizzle[c] & 3]) & keep) ^ flip;
    }
    if (!splat.filled || bits != splat.bits) {
      for (uint32_t c = 0; c < 4; ++c) splat.lanes.c[c].fill(std::bit_cast<float>(bits[c]));
      splat.bits = bits;
      splat.filled = true;
    }
    for (uint32_t c = 0; c < 4; ++c) src.c[c] = splat.lanes.c[c].data();
  }

  // Some lane whose results are wanted is not killed yet.
  bool AnyWanted() const {
    uint32_t any = 0;
    for (uint32_t l = 0; l < N; ++l) any |= counts[l] & uint32_t(out->killed[l] == 0);
    return any != 0;
  }
  bool ExecBody(const CfInstruction& cf, const Mask& exec);
  void Alu(uint32_t slot_index, const AluInstruction& a, const Mask& act);
  void Store(const AluInstruction& a, const DecodedAlu& d, const Vec& v, bool have_vector,
             const Lanes& scalar, const Mask& act);
  void Fetch(const FetchInstruction& f, const Mask& act);
  // setTexLOD / setGradientH/V (true: handled), then the get* queries (true: handled).
  bool TextureState(const FetchInstruction& f, const Mask& act);
  bool TextureQuery(const FetchInstruction& f, const Mask& act);
  void StoreFetch(const FetchInstruction& f, uint32_t lane, const Float4& value);
  void Run(const Inputs& in);
};

// Common vector ops as loops over every lane (dead lanes compute garbage that is never stored).
// Returns false for ops left to the per-lane rule. Built twice, for AVX2 (8 lanes a vector) and
// the baseline (4), picked once at load time: the same IEEE operations lane by lane either way
// (AVX2 does not bring fused multiply-adds, and this file is built with -ffp-contract=off).
[[gnu::target_clones("avx2", "default")]] static bool FastVectorOp(VectorOp op, const Src& a, const Src& b, const Src& c, Vec& v) {
  using namespace alu_rules;
  auto each = [&](auto fn) {
    for (uint32_t i = 0; i < 4; ++i) {
      const float* __restrict x = a.c[i];
      const float* __restrict y = b.c[i];
      const float* __restrict z = c.c[i];
      float* __restrict r = v.c[i].data();
      for (uint32_t l = 0; l < N; ++l) r[l] = fn(x[l], y[l], z[l]);
    }
  };
  switch (op) {
    case VectorOp::kAdd: each([](float x, float y, float) { return x + y; }); return true;
    case VectorOp::kMul: each([](float x, float y, float) { return Mul(x, y); }); return true;
    case VectorOp::kMad: each([](float x, float y, float z) { return Mul(x, y) + z; }); return true;
    case VectorOp::kMax: each([](float x, float y, float) { return Max(x, y); }); return true;
    case VectorOp::kMin: each([](float x, float y, float) { return Min(x, y); }); return true;
    case VectorOp::kFloor: each([](float x, float, float) { return std::floor(x); }); return true;
    case VectorOp::kFrc: each([](float x, float, float) { return Frc(x); }); return true;
    case VectorOp::kCndEq:
      each([](float x, float y, float z) { return x == 0.0f ? y : z; });
      return true;
    case VectorOp::kCndGe:
      each([](float x, float y, float z) { return x >= 0.0f ? y : z; });
      return true;
    case VectorOp::kCndGt:
      each([](float x, float y, float z) { return x > 0.0f ? y : z; });
      return true;
    case VectorOp::kDp4:
    case VectorOp::kDp3:
    case VectorOp::kDp2Add: {
      // The same left-to-right sum as alu_rules::Dp.
      const uint32_t n = op == VectorOp::kDp4 ? 4 : op == VectorOp::kDp3 ? 3 : 2;
      Lanes sum;
      for (uint32_t l = 0; l < N; ++l) sum[l] = Mul(a.c[0][l], b.c[0][l]);
      for (uint32_t i = 1; i < n; ++i) {
        for (uint32_t l = 0; l < N; ++l) sum[l] = sum[l] + Mul(a.c[i][l], b.c[i][l]);
      }
      if (op == VectorOp::kDp2Add) {
        for (uint32_t l = 0; l < N; ++l) sum[l] = sum[l] + c.c[0][l];
      }
      for (uint32_t i = 0; i < 4; ++i) v.c[i] = sum;
      return true;
    }
    default:
      return false;
  }
}

void BatchInterpreter::Machine::Alu(uint32_t slot_index, const AluInstruction& a, const Mask& act) {
  const DecodedAlu& d = alu[slot_index];
  // Every source is read before any result or side effect is written.
  Vec scratch[3];
  Src src[3];
  for (uint32_t i = 0; i < 3; ++i) {
    if (i < d.vector_count && d.splat[i] >= 0) {
      ReadConstant(d.vector_operands[i], splats[size_t(d.splat[i])], src[i]);
    } else if (i < d.vector_count) {
      ReadSource(d.vector_operands[i], scratch[i], src[i]);
    } else {
      for (uint32_t c = 0; c < 4; ++c) src[i].c[c] = scratch[i].c[c].data();  // never stored
    }
  }
  // Scalar sources (zeros where the form reads none), only for an op that runs.
  Lanes sa, sb;
  const auto& sops = d.scalar_operands;
  if (a.scalar_op != ScalarOp::kRetainPrev) {
    sa.fill(0.0f);
    sb.fill(0.0f);
    if ((d.form == ScalarForm::kOne || d.form == ScalarForm::kTwoComponent) && !sops.empty()) {
      ReadComponent(sops[0], 0, sa);
      if (d.form == ScalarForm::kTwoComponent) ReadComponent(sops[0], 1, sb);
    } else if (d.form == ScalarForm::kConstTemp && sops.size() >= 2) {
      ReadComponent(sops[0], 0, sa);
      ReadComponent(sops[1], 0, sb);
    }
  }

  Vec v;
  bool have_vector = true;
  // A killed lane's results are discarded; it keeps running for its quad's derivatives (the
  // scalar interpreter stops there, which no kept result can tell apart). The fast ops never
  // kill.
  if (!FastVectorOp(a.vector_op, src[0], src[1], src[2], v)) {
    for (uint32_t l = 0; l < N; ++l) {
      if (!act[l]) continue;
      Float4 x, y, z, res{};
      for (uint32_t i = 0; i < 4; ++i) x[i] = src[0].c[i][l], y[i] = src[1].c[i][l], z[i] = src[2].c[i][l];
      alu_rules::LaneState s{a0[l], p0[l] != 0, ps[l]};
      bool kill = false;
      have_vector = alu_rules::VectorOpResult(a.vector_op, x, y, z, s, res, kill);
      a0[l] = s.a0, p0[l] = s.p0;
      if (kill) out->killed[l] = 1, kill_seen = true;
      for (uint32_t i = 0; i < 4; ++i) v.c[i][l] = res[i];
    }
    if (!have_vector) {
      Note("vector opcode " + std::to_string(int(a.vector_op)) + " is not valid; no result");
    }
  }
  if (a.scalar_op != ScalarOp::kRetainPrev) {
    bool valid = true;
    for (uint32_t l = 0; l < N; ++l) {
      if (!act[l]) continue;
      alu_rules::LaneState s{a0[l], p0[l] != 0, ps[l]};
      bool kill = false;
      valid = alu_rules::ScalarOpResult(a.scalar_op, sa[l], sb[l], s, kill);
      a0[l] = s.a0, p0[l] = s.p0, ps[l] = s.ps;
      if (kill) out->killed[l] = 1, kill_seen = true;
    }
    if (!valid) Note("scalar opcode " + std::to_string(int(a.scalar_op)) + " is not valid; ps kept");
  }
  if (a.vector_clamp) {
    for (uint32_t i = 0; i < 4; ++i) {
      for (uint32_t l = 0; l < N; ++l) v.c[i][l] = alu_rules::Sat(v.c[i][l]);
    }
  }
  Lanes scalar = ps;
  if (a.scalar_clamp) {
    for (uint32_t l = 0; l < N; ++l) scalar[l] = alu_rules::Sat(scalar[l]);
  }
  Store(a, d, v, have_vector, scalar, act);
}

void BatchInterpreter::Machine::Store(const AluInstruction& a, const DecodedAlu& d, const Vec& v,
                                      bool have_vector, const Lanes& scalar, const Mask& act) {
  const uint32_t vmask = have_vector ? d.vmask : 0, smask = d.smask;
  auto masked = [&](Lanes& dst, const Lanes& src) {
    for (uint32_t l = 0; l < N; ++l) {
      const uint32_t m = 0u - act[l];
      dst[l] = std::bit_cast<float>((std::bit_cast<uint32_t>(src[l]) & m) |
                                    (std::bit_cast<uint32_t>(dst[l]) & ~m));
    }
  };
  if (!a.export_data) {
    if (vmask) {
      Vec& dst = Temp(a.vector_dest, a.vector_dest_rel);
      for (uint32_t i = 0; i < 4; ++i) {
        if (vmask & (1u << i)) masked(dst.c[i], v.c[i]);
      }
    }
    if (smask) {
      Vec& dst = Temp(a.scalar_dest, a.scalar_dest_rel);
      for (uint32_t i = 0; i < 4; ++i) {
        if (smask & (1u << i)) masked(dst.c[i], scalar);
      }
    }
    return;
  }
  const uint32_t mask = vmask | smask | d.one | d.zero;
  if (!mask) return;
  const uint32_t dest = a.vector_dest;
  auto value = [&](uint32_t i, uint32_t l) {
    const uint32_t bit = 1u << i;
    return (vmask & bit) ? v.c[i][l] : (smask & bit) ? scalar[l] : (d.one & bit) ? 1.0f : 0.0f;
  };
  if (dest >= kExportAddress && dest <= kExportData0 + 4) {
    Note("memexport (eA/eM#) is not executed: no guest memory is written");
  } else if (dest < 4) {
    // value(i, l) a component at a time: the source picked once, the lanes in a plain loop.
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t bit = 1u << i;
      if (!(mask & bit)) continue;
      const float* from = (vmask & bit) ? v.c[i].data() : (smask & bit) ? scalar.data() : nullptr;
      const float fill = (d.one & bit) ? 1.0f : 0.0f;
      for (uint32_t l = 0; l < N; ++l) {
        if (act[l]) out->colors[l][dest][i] = from ? from[l] : fill;
      }
    }
    for (uint32_t l = 0; l < N; ++l) {
      if (act[l]) out->color_mask[l] |= uint8_t(1u << dest);
    }
  } else if (dest == kExportDepth) {
    if (mask & 1) {
      for (uint32_t l = 0; l < N; ++l) {
        if (act[l]) out->depth[l] = value(0, l), out->depth_written[l] = 1;
      }
    }
  } else {
    Note("pixel export to register " + std::to_string(dest) + " is not a known destination");
  }
}

void BatchInterpreter::Machine::StoreFetch(const FetchInstruction& f, uint32_t lane,
                                           const Float4& value) {
  Vec& d = Temp(f.dst_reg, f.dst_rel);
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t sel = f.DestComponent(c);
    if (sel == 7) continue;  // keep
    d.c[c][lane] = sel < 4 ? value[sel] : sel == 5 ? 1.0f : 0.0f;
  }
}

bool BatchInterpreter::Machine::TextureState(const FetchInstruction& f, const Mask& act) {
  const Vec& src = Temp(f.src_reg, f.src_rel);
  auto component = [&](uint32_t c) -> const Lanes& { return src.c[(f.src_swizzle >> (2 * c)) & 3]; };
  switch (f.opcode) {
    case FetchOp::kSetTextureLod:
      for (uint32_t l = 0; l < N; ++l) {
        if (act[l]) tex_lod[l] = component(0)[l];
      }
      return true;
    case FetchOp::kSetTextureGradientsHorz:
    case FetchOp::kSetTextureGradientsVert: {
      auto& grad = f.opcode == FetchOp::kSetTextureGradientsHorz ? grad_h : grad_v;
      for (uint32_t c = 0; c < 3; ++c) {
        for (uint32_t l = 0; l < N; ++l) {
          if (act[l]) grad[c][l] = component(c)[l];
        }
      }
      return true;
    }
    default:
      return false;
  }
}

bool BatchInterpreter::Machine::TextureQuery(const FetchInstruction& f, const Mask& act) {
  const Vec& src = Temp(f.src_reg, f.src_rel);
  std::array<Lanes, 3> c;
  for (uint32_t i = 0; i < 3; ++i) c[i] = src.c[(f.src_swizzle >> (2 * i)) & 3];
  auto zeros = [&](const char* note) {
    Note(note);
    for (uint32_t l = 0; l < N; ++l) {
      if (act[l]) StoreFetch(f, l, {0.0f, 0.0f, 0.0f, 0.0f});
    }
  };
  // Coarse derivatives of a lane's quad: its top pair for x, its left pair for y.
  auto derivatives = [&](uint32_t l, Float4& ddx, Float4& ddy) {
    const uint32_t q = l & ~3u;
    for (uint32_t i = 0; i < 3; ++i) {
      ddx[i] = (c[i][q + 1] - c[i][q]) * derivative_scale[0];
      ddy[i] = (c[i][q + 2] - c[i][q]) * derivative_scale[1];
    }
    ddx[3] = ddy[3] = 0.0f;
  };
  const uint32_t slot = f.const_index & 31;
  switch (f.opcode) {
    case FetchOp::kGetTextureGradients:
      if (!quads) {
        zeros("getCompTexLOD/getGradients of a pixel shaded without its 2x2 quad: zeros");
        return true;
      }
      for (uint32_t l = 0; l < N; ++l) {
        if (!act[l]) continue;
        Float4 ddx, ddy;
        derivatives(l, ddx, ddy);
        StoreFetch(f, l, TextureGradients(ddx, ddy));
      }
      return true;
    case FetchOp::kGetTextureComputedLod:
    case FetchOp::kGetTextureWeights: {
      const bool lod = f.opcode == FetchOp::kGetTextureComputedLod;
      if (lod && !quads) {
        zeros("getCompTexLOD/getGradients of a pixel shaded without its 2x2 quad: zeros");
        return true;
      }
      if (!cb->texture_size) {
        zeros("getWeights/getCompTexLOD without a texture size callback: zeros");
        return true;
      }
      const TextureQuerySize size = cb->texture_size(slot, f);
      for (uint32_t l = 0; l < N; ++l) {
        if (!act[l]) continue;
        if (lod) {
          Float4 ddx, ddy;
          derivatives(l, ddx, ddy);
          StoreFetch(f, l, {TextureComputedLod(f, ddx, ddy, size), 0.0f, 0.0f, 0.0f});
        } else {
          StoreFetch(f, l, TextureWeights(f, {c[0][l], c[1][l], c[2][l], 0.0f}, size));
        }
      }
      return true;
    }
    default:
      return false;
  }
}

void BatchInterpreter::Machine::Fetch(const FetchInstruction& f, const Mask& act) {
  if (f.IsVertex()) {
    // Per lane, as the scalar interpreter fetches (each lane keeps its own full fetch's address
    // for the mini fetches after it); the index of every lane is read before any is written.
    const Lanes index = Temp(f.src_reg, f.src_rel).c[f.src_swizzle & 3];
    for (uint32_t l = 0; l < N; ++l) {
      if (!act[l]) continue;
      StoreFetch(f, l, RunVertexFetch(f, index[l], k->fetch_constants.data(), vf[l], cb->read_memory,
                                      [this](const std::string& n) { Note(n); }));
    }
    return;
  }
  // The same cases as the scalar interpreter's TextureFetch.
  if (TextureState(f, act) || TextureQuery(f, act)) return;
  const uint32_t slot = f.const_index & 31;
  const bool explicit_lod =
      FetchHasExplicitLod(f, true) && (cb->texture_fetch_explicit || textures);
  if (!explicit_lod && !textures && !cb->texture_fetch) {
    Note("texture fetch without a texture callback: zeros");
    for (uint32_t l = 0; l < N; ++l) {
      if (act[l]) StoreFetch(f, l, {0.0f, 0.0f, 0.0f, 0.0f});
    }
    return;
  }
  // Coordinates of every lane first: the destination may be the source register.
  const Vec& src = Temp(f.src_reg, f.src_rel);
  std::array<Lanes, 3> coords;
  for (uint32_t c = 0; c < 3; ++c) coords[c] = src.c[(f.src_swizzle >> (2 * c)) & 3];
  std::array<Float4, N> texels;
  const BatchTextureSource::LaneRegisters lane_registers{
      tex_lod.data(), {grad_h[0].data(), grad_h[1].data(), grad_h[2].data()},
      {grad_v[0].data(), grad_v[1].data(), grad_v[2].data()}};
  const std::array<const float*, 3> at{coords[0].data(), coords[1].data(), coords[2].data()};
  const bool sampled = explicit_lod && textures &&
                       textures->FetchBatchExplicit(slot, f, at, act.data(), N, lane_registers,
                                                    texels.data());
  if (sampled) {
    // The texture source took the whole batch with each lane's registers.
  } else if (explicit_lod && cb->texture_fetch_explicit) {
    // Register LOD or gradients differ per lane: sampled one lane at a time.
    for (uint32_t l = 0; l < N; ++l) {
      if (!act[l]) continue;
      const TextureRegisters regs{tex_lod[l], {grad_h[0][l], grad_h[1][l], grad_h[2][l], 0.0f},
                                  {grad_v[0][l], grad_v[1][l], grad_v[2][l], 0.0f}};
      texels[l] = cb->texture_fetch_explicit(slot, {coords[0][l], coords[1][l], coords[2][l], 0.0f},
                                             f, regs);
    }
  } else if (textures) {
    textures->FetchBatch(slot, f, at, act.data(), N, quads, texels.data());
  } else {
    const bool gradients = quads && cb->texture_fetch_gradients;
    for (uint32_t l = 0; l < N; ++l) {
      if (!act[l]) continue;
      const Float4 at = {coords[0][l], coords[1][l], coords[2][l], 0.0f};
      if (gradients) {
        // Coarse derivatives of the quad: its top pair for x, its left pair for y.
        const uint32_t q = l & ~3u;
        Float4 ddx{}, ddy{};
        for (uint32_t c = 0; c < 3; ++c) {
          ddx[c] = coords[c][q + 1] - coords[c][q];
          ddy[c] = coords[c][q + 2] - coords[c][q];
        }
        texels[l] = cb->texture_fetch_gradients(slot, at, f, ddx, ddy);
      } else {
        texels[l] = cb->texture_fetch(slot, at, f);
      }
    }
  }
  // The fetch constant's swizzle then the instruction's destination swizzle (StoreFetch's
  // rules), composed once: each destination component is a texel component, 1, 0 or kept.
  const uint32_t swizzle = f.opcode == FetchOp::kGetTextureBorderColorFrac
                               ? kBorderFractionSwizzle
                               : (k->fetch_constants[(slot * 6 + 3) % 192] >> 1) & 0xFFF;
  Vec& d = Temp(f.dst_reg, f.dst_rel);
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t dest = f.DestComponent(c);
    if (dest == 7) continue;  // keep
    // -1: 0, -2: 1, else the texel component.
    int32_t from = dest == 5 ? -2 : -1;
    if (dest < 4) {
      const uint32_t sel = (swizzle >> (3 * dest)) & 7;
      from = sel < 4 ? int32_t(sel) : sel == 5 ? -2 : -1;
    }
    float* __restrict out = d.c[c].data();
    for (uint32_t l = 0; l < N; ++l) {
      if (act[l]) out[l] = from >= 0 ? texels[l][uint32_t(from)] : from == -2 ? 1.0f : 0.0f;
    }
  }
}

bool BatchInterpreter::Machine::ExecBody(const CfInstruction& cf, const Mask& exec) {
  for (uint32_t k = 0; k < cf.count; ++k) {
    const uint32_t slot = cf.address + k;
    if (slot < shader.cf_slots || slot - shader.cf_slots >= shader.slots.size()) {
      Note("exec slot " + std::to_string(slot) + " is outside the microcode; skipped");
      continue;
    }
    const uint32_t index = slot - shader.cf_slots;
    const Instruction& instruction = shader.slots[index];
    const bool predicated =
        instruction.kind == SlotKind::kFetch ? instruction.fetch.is_predicated : instruction.alu.is_predicated;
    const bool condition = instruction.kind == SlotKind::kFetch ? instruction.fetch.predicate_condition
                                                                : instruction.alu.predicate_condition;
    Mask act;
    for (uint32_t l = 0; l < N; ++l) {
      act[l] = exec[l] & alive[l] & uint32_t(!predicated || (p0[l] != 0) == condition);
    }
    if (!Any(act)) continue;
    if (instruction.kind == SlotKind::kFetch) {
      Fetch(instruction.fetch, act);
    } else {
      Alu(index, instruction.alu, act);
    }
    if (kill_seen) wanted = AnyWanted(), kill_seen = false;
    if (!wanted) return false;
  }
  return true;
}

void BatchInterpreter::Machine::Run(const Inputs& in) {
  const uint32_t count = std::min<uint32_t>(in.interpolator_count, 16);
  for (uint32_t i = 0; i < count; ++i) r[i].c = in.interpolators[i];
  if (in.param_gen_register >= 0 && in.param_gen_register < 64) {
    r[size_t(in.param_gen_register)].c = in.param_gen;
  }
  for (uint32_t l = 0; l < N; ++l) {
    alive[l] = l < in.count;
    counts[l] = alive[l] & uint32_t(in.helper[l] == 0);
  }
  quads = in.quads;
  derivative_scale = in.derivative_scale;
  textures = in.textures;
  tex_lod.fill(0.0f);
  for (uint32_t c = 0; c < 3; ++c) grad_h[c].fill(0.0f), grad_v[c].fill(0.0f);
  Mask all;
  all.fill(1);
  const int32_t cf_count = int32_t(shader.cf.size());
  int32_t pc = 0;
  uint32_t steps = 0;
  auto target = [&](uint32_t address) { return address < uint32_t(cf_count) ? int32_t(address) : -1; };
  // p0 for a CF decision the whole batch takes; sets `diverged` when the lanes disagree.
  auto batch_p0 = [&](bool& value) {
    const int p = UniformP0();
    if (p == -1) diverged = true;
    value = p == 1;
    return p >= 0;
  };
  while (pc >= 0 && pc < cf_count) {
    if (++steps > Interpreter::kMaxControlFlowSteps) {
      out->step_limit_hit = true;
      Note("control flow exceeded " + std::to_string(Interpreter::kMaxControlFlowSteps) +
           " steps; execution cut off");
      return;
    }
    const CfInstruction& cf = shader.cf[size_t(pc)];
    int32_t next = pc + 1;
    switch (cf.opcode) {
      case CfOpcode::kNop:
      case CfOpcode::kMarkVsFetchDone:
      case CfOpcode::kAlloc:
        break;
      case CfOpcode::kExec:
      case CfOpcode::kExecEnd:
      case CfOpcode::kCondExec:
      case CfOpcode::kCondExecEnd:
      case CfOpcode::kCondExecPred:
      case CfOpcode::kCondExecPredEnd:
      case CfOpcode::kCondExecPredClean:
      case CfOpcode::kCondExecPredCleanEnd: {
        bool run = true;
        Mask exec = all;
        if (IsCondExecBool(cf.opcode)) {
          run = BoolConstant(cf.CondBoolAddress()) == cf.condition;
        } else if (IsCondExecPred(cf.opcode)) {
          for (uint32_t l = 0; l < N; ++l) exec[l] = (p0[l] != 0) == cf.condition;
        }
        if (run && !ExecBody(cf, exec)) return;
        if (IsExecEnd(cf.opcode)) return;
        break;
      }
      case CfOpcode::kLoopStart:
        if (!cs.LoopStart(k->loop_constants[cf.loop_id & 31], cf.is_repeat, aL)) {
          next = target(cf.address);
        }
        break;
      case CfOpcode::kLoopEnd: {
        bool break_now = false;
        if (cf.is_predicated_break) {
          bool p = false;
          if (!batch_p0(p)) return;
          break_now = p == cf.condition;
        }
        if (cs.LoopEnd(k->loop_constants[cf.loop_id & 31], break_now, aL)) next = target(cf.address);
        break;
      }
      case CfOpcode::kCondCall:
      case CfOpcode::kCondJmp: {
        bool taken = cf.is_unconditional;
        if (!taken && cf.is_predicated) {
          bool p = false;
          if (!batch_p0(p)) return;
          taken = p == cf.condition;
        } else if (!taken) {
          taken = BoolConstant(cf.bool_address) == cf.condition;
        }
        if (!taken) break;
        if (cf.opcode == CfOpcode::kCondCall) cs.Call(pc + 1);
        next = target(cf.address);
        break;
      }
      case CfOpcode::kReturn:
        next = cs.Return();
        break;
    }
    pc = next;
  }
}

BatchInterpreter::BatchInterpreter(const Shader& shader) {
  if (shader.type != ShaderType::kPixel) {
    unsupported_ = "not a pixel shader";
    return;
  }
  for (const Instruction& i : shader.slots) {
    // Memexport writes guest memory in program order per pixel; only the scalar interpreter
    // executes it (interpreter.cpp), so such shaders go there.
    if (i.kind == SlotKind::kAlu && i.alu.export_data &&
        i.alu.vector_dest >= kExportAddress && i.alu.vector_dest <= kExportData0 + 4) {
      unsupported_ = "memexport (eA/eM#)";
      return;
    }
  }
  machine_ = std::make_unique<Machine>(shader);
}

BatchInterpreter::~BatchInterpreter() = default;

bool BatchInterpreter::Run(const InterpreterConstants& constants, const Inputs& in,
                           const InterpreterCallbacks& callbacks, Result& out) {
  if (!machine_) return false;
  Machine& m = *machine_;
  out.Reset();
  m.k = &constants;
  m.cb = &callbacks;
  m.out = &out;
  // Fresh state per batch, as a scalar run starts from zeros.
  // (One contiguous clear of the temps in use: r is an array of plain floats.)
  static_assert(sizeof(Vec) == sizeof(float) * 4 * N);
  std::memset(static_cast<void*>(m.r.data()), 0, sizeof(Vec) * m.temp_count);
  m.a0.fill(0);
  m.p0.fill(0);
  m.ps.fill(0.0f);
  m.aL = 0;
  m.vf.fill(VertexFetchState{});
  m.cs = alu_rules::ControlStack{};
  m.diverged = false;
  m.kill_seen = true;  // (every lane's `killed` was reset above; `counts` is set in Run)
  m.Run(in);
  return !m.diverged;
}

}  // namespace xnt::ucode
