#include "check_rules.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace xnt::vk::check {
namespace {

using ucode::AluInstruction;
using ucode::FetchOp;
using ucode::Operand;
using ucode::RelativeMode;
using ucode::ScalarOp;
using ucode::VectorOp;

constexpr uint32_t kTemps = 64;

// Joins `src` into `dst`; true when `dst` changed.
bool Join(Value& dst, const Value& src) {
  const Value before = dst;
  dst.approx |= src.approx;
  dst.per_lane |= src.per_lane;
  dst.nonmonotone |= src.nonmonotone;
  if (src.bounded && !dst.bounded && !dst.opaque) dst.why = src.why;
  dst.bounded |= src.bounded;
  if (src.opaque && !dst.opaque) {
    dst.opaque = true;
    dst.why = src.why;
  }
  // A host-filtered texel mixed with an imprecise result: neither bound holds for the other.
  if (dst.bounded && dst.approx && !dst.opaque) {
    dst.opaque = true;
    dst.why = dst.why.empty() ? "an imprecise result and a host-filtered texel meet" : dst.why;
  }
  return dst.approx != before.approx || dst.opaque != before.opaque || dst.per_lane != before.per_lane ||
         dst.bounded != before.bounded || dst.nonmonotone != before.nonmonotone;
}

Value Opaque(const std::string& why) { return Value{0, true, why}; }

// An exactly rounded op of `in`: exact stays exact, anything else can no longer be bounded.
Value Through(const Value& in, const std::string& op) {
  if (in.opaque) return in;
  // A host-filtered texel through arithmetic: its interval no longer bounds the result (its own
  // category stays the reason).
  if (in.bounded) return Opaque(in.why);
  if (in.approx) return Opaque("an imprecise result went through " + op);
  Value out{0, false, {}, in.per_lane};
  out.nonmonotone = in.per_lane;
  return out;
}

// `v`, no longer monotone in a per-lane texel (Value::nonmonotone).
Value NotMonotone(Value v) {
  v.nonmonotone |= v.per_lane;
  return v;
}

uint32_t ScalarApprox(ScalarOp op) {
  switch (op) {
    case ScalarOp::kExp: return kApproxExp;
    case ScalarOp::kLog: case ScalarOp::kLogc: return kApproxLog;
    case ScalarOp::kRcp: case ScalarOp::kRcpc: case ScalarOp::kRcpf: return kApproxRcp;
    case ScalarOp::kRsq: case ScalarOp::kRsqc: case ScalarOp::kRsqf: return kApproxRsq;
    case ScalarOp::kSqrt: return kApproxSqrt;
    case ScalarOp::kSin: case ScalarOp::kCos: return kApproxSin;
    default: return 0;
  }
}

bool ReadsPrevious(ScalarOp op) {
  return op == ScalarOp::kAddsPrev || op == ScalarOp::kMulsPrev || op == ScalarOp::kMulsPrev2 ||
         op == ScalarOp::kSubsPrev || op == ScalarOp::kRetainPrev;
}

struct State {
  std::array<Value, kTemps> temps{};
  Value ps, p0, a0;
  ExportRules rules;
  bool memexport = false;
  bool quads = false;
  bool pixel = false;
  bool changed = false;
  std::function<Value(const ucode::FetchInstruction&)> texture_rule;
  Value lod_registers;
  // Quads: temps some instruction writes (all of them for a relative write). A temp no
  // instruction writes keeps its interpolant plane, whose every pixel pair differs by the same
  // amount; a computed value differs by pair, and Vulkan leaves which pair a coarse derivative
  // takes to the host (lavapipe: each pixel's own row and column, as a fine one), while the
  // cpu path takes the quad's top row and left column.
  std::array<bool, kTemps> written{};

  Value Derivative(const ucode::FetchInstruction& f) const {
    if (f.src_rel || written[f.src_reg % kTemps]) {
      return Opaque("host derivative pair: a coarse derivative of a value not linear across the quad "
                    "(which pixels the host differences is the implementation's)");
    }
    return {};
  }  // what setTexLOD / setGradient* wrote (any path reaching any fetch)

  void Set(Value& dst, const Value& v) { changed |= Join(dst, v); }

  Value Temp(uint32_t index, bool relative) const {
    if (!relative) return temps[index % kTemps];
    Value all;  // aL-relative: any register
    for (const Value& t : temps) Join(all, t);
    return all;
  }
  void WriteTemp(uint32_t index, bool relative, const Value& v) {
    if (!relative) {
      Set(temps[index % kTemps], v);
      return;
    }
    for (Value& t : temps) Set(t, v);
  }
  Value Read(const Operand& o) const {
    if (o.is_temp) {
      const Value v = Temp(o.index, o.relative != RelativeMode::kNone);
      // Negation and |x| are not monotone non-decreasing: an interval's ends no longer map to
      // the result's.
      if (v.bounded && !v.opaque && (o.negate || o.absolute)) return Opaque(v.why);
      return o.negate || o.absolute ? NotMonotone(v) : v;
    }
    if (o.relative == RelativeMode::kA0 && !a0.exact()) {
      return Opaque("a constant indexed by a0 from an imprecise value");
    }
    return NotMonotone(Value{0, false, {}, o.relative == RelativeMode::kA0 && a0.per_lane});
  }

  void Alu(const AluInstruction& a, uint32_t slot) {
    const VectorOp vop = a.vector_op;
    const uint32_t n = ucode::VectorOpOperandCount(vop);
    std::array<Value, 3> src{};
    for (uint32_t i = 0; i < n; ++i) src[i] = Read(a.VectorOperand(i));
    Value vec;
    if (vop == VectorOp::kMax || vop == VectorOp::kMin) {
      // mov / max / min: the result is one of the operands, so its error is theirs.
      for (uint32_t i = 0; i < n; ++i) Join(vec, src[i]);
    } else if (vop == VectorOp::kCndEq || vop == VectorOp::kCndGe || vop == VectorOp::kCndGt) {
      vec = src[0].exact() ? src[1] : Through(src[0], "a cnd compare");
      if (src[0].exact()) {
        Join(vec, src[2]);
        // Which operand a lane selects follows a per-lane texel: not monotone in it.
        if (src[0].per_lane) vec.per_lane = vec.nonmonotone = true;
      }
    } else {
      for (uint32_t i = 0; i < n; ++i) Join(vec, Through(src[i], std::string(ucode::VectorOpName(vop))));
    }
    const std::vector<Operand> sops = a.ScalarOperands();
    Value sin;
    for (const Operand& o : sops) Join(sin, Read(o));
    if (ReadsPrevious(a.scalar_op)) Join(sin, ps);
    Value sca;
    const ScalarOp sop = a.scalar_op;
    if (const uint32_t approx = ScalarApprox(sop)) {
      sca = sin.exact() ? NotMonotone(Value{approx, false, {}, sin.per_lane})
                        : Through(sin, std::string(ucode::ScalarOpName(sop)));
    } else if (sop == ScalarOp::kMaxs || sop == ScalarOp::kMins || sop == ScalarOp::kRetainPrev) {
      sca = sin;
    } else {
      sca = Through(sin, std::string(ucode::ScalarOpName(sop)));
    }
    if (a.is_predicated && !p0.exact()) {
      const Value p = Opaque("predicated on p0 from an imprecise value");
      Join(vec, p);
      Join(sca, p);
    }
    if (a.is_predicated && p0.per_lane) {
      vec.per_lane = sca.per_lane = true;
      vec.nonmonotone = sca.nonmonotone = true;
    }
    // Side effects: p0, a0, kills.
    switch (vop) {
      case VectorOp::kSetpEqPush: case VectorOp::kSetpNePush: case VectorOp::kSetpGtPush:
      case VectorOp::kSetpGePush:
        Set(p0, Through(vec, "setp"));
        break;
      case VectorOp::kMaxA:
        Set(a0, Through(vec, "a0"));
        break;
      case VectorOp::kKillEq: case VectorOp::kKillGt: case VectorOp::kKillGe: case VectorOp::kKillNe:
        Set(rules.kill, Through(vec, "a kill compare"));
        rules.kill_slots.push_back(slot);
        break;
      default:
        break;
    }
    switch (sop) {
      case ScalarOp::kSetpEq: case ScalarOp::kSetpNe: case ScalarOp::kSetpGt: case ScalarOp::kSetpGe:
      case ScalarOp::kSetpInv: case ScalarOp::kSetpPop: case ScalarOp::kSetpRstr:
        Set(p0, Through(sca, "setp"));
        break;
      case ScalarOp::kMaxAs: case ScalarOp::kMaxAsf:
        Set(a0, Through(sca, "a0"));
        break;
      case ScalarOp::kKillsEq: case ScalarOp::kKillsGt: case ScalarOp::kKillsGe:
      case ScalarOp::kKillsNe: case ScalarOp::kKillsOne:
        Set(rules.kill, Through(sca, "a kill compare"));
        rules.kill_slots.push_back(slot);
        break;
      default:
        break;
    }
    Set(ps, sca);
    if (a.export_data) {
      const uint32_t dest = a.vector_dest & 63;
      if (a.VectorResultMask()) Set(rules.exports[dest], vec);
      if (a.ScalarResultMask()) Set(rules.exports[dest], sca);
      auto& w = rules.writers[dest];
      if (std::find(w.begin(), w.end(), slot) == w.end()) w.push_back(slot);
    } else {
      if (a.VectorResultMask()) WriteTemp(a.vector_dest, a.vector_dest_rel, vec);
      if (a.ScalarResultMask()) WriteTemp(a.scalar_dest, a.scalar_dest_rel, sca);
    }
  }

  void Fetch(const ucode::FetchInstruction& f) {
    if (f.opcode == FetchOp::kSetTextureLod || f.opcode == FetchOp::kSetTextureGradientsHorz ||
        f.opcode == FetchOp::kSetTextureGradientsVert) {
      changed |= Join(lod_registers, Through(Temp(f.src_reg, f.src_rel), "a register LOD or gradient"));
    }
    if (!f.HasDestination()) return;
    Value v;
    if (f.IsVertex()) {
      v = Through(Temp(f.src_reg, f.src_rel), "a vertex index");
      if (memexport) Join(v, Opaque("memexport may change the guest memory vertex fetches read"));
    } else if ((f.opcode == FetchOp::kGetTextureComputedLod ||
                f.opcode == FetchOp::kGetTextureGradients) && !quads) {
      // Each lane is a lone point: its 2x2 quad's other pixels are helpers with inputs of
      // their own choosing, so screen derivatives mean nothing here.
      v = Opaque("getCompTexLOD/getGradients need 2x2 quads, which the check does not draw");
    } else if (f.opcode == FetchOp::kGetTextureGradients) {
      // Coarse derivatives: differences of the quad's values, exactly rounded on both sides.
      v = Through(Temp(f.src_reg, f.src_rel), "getGradients");
      Join(v, Derivative(f));
    } else if (f.opcode == FetchOp::kGetTextureComputedLod) {
      // log2(max(sqrt(|d/dx|^2), sqrt(|d/dy|^2))) in texels: sqrt and log2 are the host's.
      const Value src = Temp(f.src_reg, f.src_rel);
      v = src.exact() ? Value{kApproxLod, false, {}} : Through(src, "getCompTexLOD");
      Join(v, Derivative(f));
    } else if (f.opcode == FetchOp::kGetTextureWeights) {
      // fract of the coordinates in texels: an imprecise coordinate's last bit can become anything.
      v = Through(Temp(f.src_reg, f.src_rel), "getWeights");
    } else if (f.opcode == FetchOp::kGetTextureBorderColorFrac) {
      // The footprint's border texels weighed as the texture unit weighs them, in the same float
      // operations on both sides, from the coordinates and an explicit LOD (a register one
      // included); a computed LOD (the quad's derivatives or the register gradients) goes
      // through the host's sqrt and log2, as getCompTexLOD's does.
      v = Through(Temp(f.src_reg, f.src_rel), "getBCF");
      if (f.use_reg_lod || f.use_reg_gradients) Join(v, lod_registers);
      if (texture_rule) Join(v, texture_rule(f));
      if (pixel && f.use_comp_lod && !f.use_reg_lod) {
        Join(v, Opaque("getBCF with a computed level of detail (the host's sqrt and log2 of derivatives)"));
      }
    }
    if (texture_rule && f.opcode == FetchOp::kTextureFetch) {
      // Real textures: the texel depends on the coordinates (and on a register LOD or gradients
      // set by setTexLOD / setGradient*), and on how the device's sampler filters.
      v = Through(Temp(f.src_reg, f.src_rel), "a texture coordinate");
      if (f.use_reg_lod || f.use_reg_gradients) Join(v, lod_registers);
      const Value texel = texture_rule(f);
      Join(v, texel);
      // Magnification decided lane by lane from the derivatives (Value::per_lane), or a footprint
      // that follows them.
      if (texel.per_lane || (quads && texel.derivative_footprint)) Join(v, Derivative(f));
    }
    // Without texture_rule the textures are 1x1: the texel does not depend on the coordinates.
    if (f.is_predicated && !p0.exact()) Join(v, Opaque("predicated on p0 from an imprecise value"));
    if (f.is_predicated && p0.per_lane) v.per_lane = v.nonmonotone = true;
    WriteTemp(f.dst_reg, f.dst_rel, v);
  }
};

}  // namespace

ExportRules AnalyzeExports(const ucode::Shader& shader, bool memexport,
                           const std::function<Value(const ucode::FetchInstruction&)>& texture_rule,
                           bool quads) {
  State s;
  s.memexport = memexport;
  s.quads = quads;
  s.pixel = shader.type == ucode::ShaderType::kPixel;
  for (const ucode::Instruction& ins : shader.slots) {
    auto write = [&](uint32_t index, bool relative) {
      if (relative) s.written.fill(true);
      s.written[index % kTemps] = true;
    };
    if (ins.kind == ucode::SlotKind::kAlu && !ins.alu.export_data) {
      if (ins.alu.VectorResultMask()) write(ins.alu.vector_dest, ins.alu.vector_dest_rel);
      if (ins.alu.ScalarResultMask()) write(ins.alu.scalar_dest, ins.alu.scalar_dest_rel);
    }
    if (ins.kind == ucode::SlotKind::kFetch && ins.fetch.HasDestination()) write(ins.fetch.dst_reg, ins.fetch.dst_rel);
  }
  s.texture_rule = texture_rule;
  for (int pass = 0; pass < 64; ++pass) {
    s.changed = false;
    s.rules.kill_slots.clear();
    for (const ucode::CfInstruction& cf : shader.cf) {
      if (!ucode::IsExec(cf.opcode)) continue;
      for (uint32_t k = 0; k < cf.count; ++k) {
        const ucode::Instruction& ins = shader.AtSlot(cf.address + k);
        if (ins.kind == ucode::SlotKind::kAlu) s.Alu(ins.alu, ins.slot);
        if (ins.kind == ucode::SlotKind::kFetch) s.Fetch(ins.fetch);
      }
    }
    if (!s.changed) break;
  }
  // Control flow on p0 ((p0) exec, predicated jumps, calls and loop breaks): with an imprecise
  // p0 the two sides may run different code, so nothing they export can be compared.
  if (!s.p0.exact()) {
    bool predicated_cf = false;
    for (const ucode::CfInstruction& cf : shader.cf) {
      predicated_cf |= ucode::IsCondExecPred(cf.opcode) || cf.is_predicated ||
                       (cf.opcode == ucode::CfOpcode::kLoopEnd && cf.is_predicated_break);
    }
    if (predicated_cf) {
      const Value all = Opaque("control flow on p0 from an imprecise value");
      for (Value& e : s.rules.exports) Join(e, all);
      Join(s.rules.kill, all);
    }
  }
  // Control flow on p0 from a texel of a lane-decided magnification: the lanes left out may run
  // other code.
  if (s.p0.per_lane) {
    for (Value& e : s.rules.exports) e.per_lane = e.nonmonotone = true;
    s.rules.kill.per_lane = s.rules.kill.nonmonotone = true;
  }
  std::sort(s.rules.kill_slots.begin(), s.rules.kill_slots.end());
  s.rules.kill_slots.erase(std::unique(s.rules.kill_slots.begin(), s.rules.kill_slots.end()),
                           s.rules.kill_slots.end());
  return s.rules;
}

uint64_t UlpDistance(float a, float b) {
  // Floats ordered as integers: negative ones mirrored below zero, -0 just below +0.
  auto ordered = [](float f) {
    const int64_t i = std::bit_cast<int32_t>(f);
    return i < 0 ? -(i & 0x7FFFFFFF) - 1 : i;
  };
  const int64_t d = ordered(a) - ordered(b);
  return uint64_t(d < 0 ? -d : d);
}

bool WithinTolerance(float gpu, float cpu, uint32_t approx) {
  // getCompTexLOD of a NaN footprint: GLSL's max of a NaN operand is undefined (the cpu path's
  // std::max keeps a NaN first operand), so either answer is the host's to give.
  if ((approx & kApproxLod) && (std::isnan(gpu) || std::isnan(cpu))) return true;
  if (std::isnan(gpu) || std::isnan(cpu)) return std::isnan(gpu) && std::isnan(cpu);
  if (std::bit_cast<uint32_t>(gpu) == std::bit_cast<uint32_t>(cpu)) return true;
  if (std::isinf(gpu) || std::isinf(cpu)) return false;
  // The interpreter's libm results are within 1 ulp (glibc's exp2f/log2f/sinf/cosf; 1/x, sqrt
  // exact), added to each Vulkan bound (Vulkan spec, "Precision and Operation of SPIR-V
  // Instructions").
  double ulps = 0.0, absolute = 0.0;
  if (approx & kApproxExp) ulps = std::max(ulps, 4.0 + 2.0 * std::min(std::abs(std::log2(std::abs(double(cpu)) + 1e-300)), 200.0));
  if (approx & kApproxLog) {
    ulps = std::max(ulps, 4.0);
    if (std::abs(cpu) < 1.0f) absolute = std::max(absolute, std::ldexp(1.0, -21));
  }
  if (approx & kApproxRcp) ulps = std::max(ulps, 3.5);
  if (approx & kApproxRsq) ulps = std::max(ulps, 3.0);
  if (approx & kApproxSqrt) ulps = std::max(ulps, 5.5);
  if (approx & kApproxSin) absolute = std::max(absolute, std::ldexp(1.0, -11));
  // getCompTexLOD = log2(sqrt(p)): sqrt's 5.5 ulp move log2 by at most 5.5 2^-23 / ln 2 (about
  // 2^-19.7) absolute, log2's own error is 4 ulp or 2^-21 absolute below 1.
  if (approx & kApproxLod) {
    ulps = std::max(ulps, 4.0);
    absolute = std::max(absolute, std::ldexp(1.0, -18));
  }
  if (double(UlpDistance(gpu, cpu)) <= ulps) return true;
  return std::abs(double(gpu) - double(cpu)) <= absolute;
}

std::string RuleName(const Value& v) {
  if (v.opaque) return "not compared: " + v.why;
  if (v.bounded) return "within the host filter's bound (the footprint texels' range and the weight error)";
  if (v.per_lane && !v.approx) return "exact bits (lanes that magnify on both sides)";
  if (!v.approx) return "exact bits";
  std::string s;
  auto add = [&](uint32_t bit, const char* text) {
    if (!(v.approx & bit)) return;
    if (!s.empty()) s += ", ";
    s += text;
  };
  add(kApproxExp, "exp2 within 4+2|x| ulp");
  add(kApproxLog, "log2 within 4 ulp or 2^-21 absolute below 1");
  add(kApproxRcp, "rcp within 3.5 ulp");
  add(kApproxRsq, "rsq within 3 ulp");
  add(kApproxSqrt, "sqrt within 5.5 ulp");
  add(kApproxSin, "sin/cos within 2^-11 absolute");
  add(kApproxLod, "getCompTexLOD within 4 ulp or 2^-18 absolute");
  return s;
}

}  // namespace xnt::vk::check
