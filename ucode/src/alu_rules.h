// The per-lane rules of every Xenos ALU operation, shared by the scalar interpreter
// (interpreter.cpp) and the batched one (batch_interpreter.cpp) so that the two cannot disagree:
// each rule mirrors a function of the Vulkan translator (renderer/vulkan/translator/src/
// glsl_prelude.cpp), whose facts are cited from Xenia there. Internal to xnt_ucode.
#pragma once

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode::alu_rules {

// ---- ALU helpers (translator: glsl_prelude.cpp) --------------------------------------------------

// "0 * anything = +0": +-0 or a denormal operand gives +0, NaN and infinity included. Ordered
// comparison, so NaN is not zero.
inline bool IsZero(float a) { return std::fabs(a) < FLT_MIN; }
inline float Mul(float a, float b) {
  const float product = a * b;
  return (IsZero(a) || IsZero(b)) ? 0.0f : product;
}
// SM3 max/min: `a >= b ? a : b` and `a < b ? a : b` (a NaN b is returned, -0 and +0 compare
// equal).
inline float Max(float a, float b) { return a >= b ? a : b; }
inline float Min(float a, float b) { return a < b ? a : b; }
inline float Sat(float a) { return a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f; }
inline float Frc(float a) { return a - std::floor(a); }
inline float ClampInf(float r) { return std::isinf(r) ? (r < 0.0f ? -FLT_MAX : FLT_MAX) : r; }
inline float FlushInf(float r) { return std::isinf(r) ? (r < 0.0f ? -0.0f : 0.0f) : r; }

// a0 from MAXA/MAXAS (round half up) or MAXASF (floor), clamped to [-256, 255], NaN -> -256.
inline int32_t A0Round(float x, bool floor_only) {
  float f = floor_only ? std::floor(x) : std::floor(x + 0.5f);
  if (std::isnan(f)) return -256;
  if (f < -256.0f) return -256;
  if (f > 255.0f) return 255;
  return int32_t(f);
}

inline float Dp(const Float4& a, const Float4& b, int n) {
  float sum = Mul(a[0], b[0]);
  for (int i = 1; i < n; ++i) sum = sum + Mul(a[size_t(i)], b[size_t(i)]);
  return sum;
}

inline Float4 Cube(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  if (az >= ax && az >= ay) return {-y, z < 0.0f ? -x : x, 2.0f * z, z < 0.0f ? 5.0f : 4.0f};
  if (ay >= ax) return {y < 0.0f ? -z : z, x, 2.0f * y, y < 0.0f ? 3.0f : 2.0f};
  return {-y, x < 0.0f ? z : -z, 2.0f * x, x < 0.0f ? 1.0f : 0.0f};
}

// The largest component, NaNs skipped (the translator's xe_max4). Xenia's interpreter instead
// takes the first component that is >= all later ones, which differs only with NaNs.
inline float Max4(const Float4& a) {
  float m = a[0];
  for (size_t i = 1; i < 4; ++i) {
    if (a[i] > m || std::isnan(m)) m = a[i];
  }
  return m;
}

inline Float4 Splat(float v) { return {v, v, v, v}; }

// The state an ALU instruction can change besides its destinations.
struct LaneState {
  int32_t a0 = 0;
  bool p0 = false;
  float ps = 0.0f;  // previous scalar result, unsaturated
};

// The vector op of one lane. `v` receives the result; false when the opcode is not valid (no
// result is written). `kill` is set when a kill op fires.
inline bool VectorOpResult(VectorOp op, const Float4& a, const Float4& b, const Float4& c,
                           LaneState& s, Float4& v, bool& kill) {
  auto per = [&](auto fn) {
    for (size_t i = 0; i < 4; ++i) v[i] = fn(i);
  };
  switch (op) {
    case VectorOp::kAdd: per([&](size_t i) { return a[i] + b[i]; }); break;
    case VectorOp::kMul: per([&](size_t i) { return Mul(a[i], b[i]); }); break;
    case VectorOp::kMax: per([&](size_t i) { return Max(a[i], b[i]); }); break;
    case VectorOp::kMin: per([&](size_t i) { return Min(a[i], b[i]); }); break;
    case VectorOp::kSeq: per([&](size_t i) { return a[i] == b[i] ? 1.0f : 0.0f; }); break;
    case VectorOp::kSgt: per([&](size_t i) { return a[i] > b[i] ? 1.0f : 0.0f; }); break;
    case VectorOp::kSge: per([&](size_t i) { return a[i] >= b[i] ? 1.0f : 0.0f; }); break;
    case VectorOp::kSne: per([&](size_t i) { return !(a[i] == b[i]) ? 1.0f : 0.0f; }); break;
    case VectorOp::kFrc: per([&](size_t i) { return Frc(a[i]); }); break;
    case VectorOp::kTrunc: per([&](size_t i) { return std::trunc(a[i]); }); break;
    case VectorOp::kFloor: per([&](size_t i) { return std::floor(a[i]); }); break;
    case VectorOp::kMad: per([&](size_t i) { return Mul(a[i], b[i]) + c[i]; }); break;
    case VectorOp::kCndEq: per([&](size_t i) { return a[i] == 0.0f ? b[i] : c[i]; }); break;
    case VectorOp::kCndGe: per([&](size_t i) { return a[i] >= 0.0f ? b[i] : c[i]; }); break;
    case VectorOp::kCndGt: per([&](size_t i) { return a[i] > 0.0f ? b[i] : c[i]; }); break;
    case VectorOp::kDp4: v = Splat(Dp(a, b, 4)); break;
    case VectorOp::kDp3: v = Splat(Dp(a, b, 3)); break;
    case VectorOp::kDp2Add: v = Splat(Dp(a, b, 2) + c[0]); break;
    case VectorOp::kCube: v = Cube(a[2], a[3], a[0]); break;  // src0 is r.zzxy
    case VectorOp::kMax4: v = Splat(Max4(a)); break;
    case VectorOp::kSetpEqPush:
    case VectorOp::kSetpNePush:
    case VectorOp::kSetpGtPush:
    case VectorOp::kSetpGePush: {
      // p0 = a.w == 0 && b.w op 0; result = (a.x == 0 && b.x op 0) ? 0 : a.x + 1.
      auto cmp = [&](float x) {
        switch (op) {
          case VectorOp::kSetpEqPush: return x == 0.0f;
          case VectorOp::kSetpNePush: return !(x == 0.0f);
          case VectorOp::kSetpGtPush: return x > 0.0f;
          default: return x >= 0.0f;
        }
      };
      const bool push_x = a[0] == 0.0f && cmp(b[0]);
      s.p0 = a[3] == 0.0f && cmp(b[3]);
      v = Splat((push_x ? -1.0f : a[0]) + 1.0f);
      break;
    }
    case VectorOp::kKillEq:
    case VectorOp::kKillGt:
    case VectorOp::kKillGe:
    case VectorOp::kKillNe: {
      bool k = false;
      for (size_t i = 0; i < 4; ++i) {
        switch (op) {
          case VectorOp::kKillEq: k |= a[i] == b[i]; break;
          case VectorOp::kKillGt: k |= a[i] > b[i]; break;
          case VectorOp::kKillGe: k |= a[i] >= b[i]; break;
          default: k |= !(a[i] == b[i]); break;
        }
      }
      kill = k;
      v = Splat(k ? 1.0f : 0.0f);
      break;
    }
    case VectorOp::kDst: v = {1.0f, Mul(a[1], b[1]), a[2], b[3]}; break;
    case VectorOp::kMaxA:
      s.a0 = A0Round(a[3], false);
      per([&](size_t i) { return Max(a[i], b[i]); });
      break;
    default:
      return false;
  }
  return true;
}

// The scalar op of one lane: updates s.ps (and p0 / a0 for the ops that set them). False when
// the opcode is not valid (ps kept). `kill` is set when a scalar kill fires.
inline bool ScalarOpResult(ScalarOp op, float sa, float sb, LaneState& s, bool& kill) {
  float& ps = s.ps;
  bool& p0 = s.p0;
  switch (op) {
    case ScalarOp::kAdds: case ScalarOp::kAddsc0: case ScalarOp::kAddsc1: ps = sa + sb; break;
    case ScalarOp::kAddsPrev: ps = sa + ps; break;
    case ScalarOp::kMuls: case ScalarOp::kMulsc0: case ScalarOp::kMulsc1: ps = Mul(sa, sb); break;
    case ScalarOp::kMulsPrev: ps = Mul(sa, ps); break;
    case ScalarOp::kMulsPrev2: {
      const bool take = ps != -FLT_MAX && std::fabs(ps) <= FLT_MAX && std::fabs(sb) <= FLT_MAX &&
                        sb > 0.0f;
      ps = take ? Mul(sa, ps) : -FLT_MAX;
      break;
    }
    case ScalarOp::kMaxs: ps = Max(sa, sb); break;
    // Xenia's interpreter computes mins with >= (as maxs), which looks like a slip there; the
    // translator and this follow the SM3 `a < b ? a : b`.
    case ScalarOp::kMins: ps = Min(sa, sb); break;
    case ScalarOp::kSeqs: ps = sa == 0.0f ? 1.0f : 0.0f; break;
    case ScalarOp::kSgts: ps = sa > 0.0f ? 1.0f : 0.0f; break;
    case ScalarOp::kSges: ps = sa >= 0.0f ? 1.0f : 0.0f; break;
    case ScalarOp::kSnes: ps = !(sa == 0.0f) ? 1.0f : 0.0f; break;
    case ScalarOp::kFrcs: ps = Frc(sa); break;
    case ScalarOp::kTruncs: ps = std::trunc(sa); break;
    case ScalarOp::kFloors: ps = std::floor(sa); break;
    case ScalarOp::kExp: ps = std::exp2(sa); break;
    case ScalarOp::kLogc: {
      const float l = std::log2(sa);
      ps = (std::isinf(l) && l < 0.0f) ? -FLT_MAX : l;
      break;
    }
    case ScalarOp::kLog: ps = std::log2(sa); break;
    case ScalarOp::kRcpc: ps = ClampInf(1.0f / sa); break;
    case ScalarOp::kRcpf: ps = FlushInf(1.0f / sa); break;
    case ScalarOp::kRcp: ps = 1.0f / sa; break;
    case ScalarOp::kRsqc: ps = ClampInf(1.0f / std::sqrt(sa)); break;
    case ScalarOp::kRsqf: ps = FlushInf(1.0f / std::sqrt(sa)); break;
    case ScalarOp::kRsq: ps = 1.0f / std::sqrt(sa); break;
    case ScalarOp::kMaxAs: s.a0 = A0Round(sa, false); ps = Max(sa, sb); break;
    case ScalarOp::kMaxAsf: s.a0 = A0Round(sa, true); ps = Max(sa, sb); break;
    case ScalarOp::kSubs: case ScalarOp::kSubsc0: case ScalarOp::kSubsc1: ps = sa - sb; break;
    case ScalarOp::kSubsPrev: ps = sa - ps; break;
    case ScalarOp::kSetpEq: p0 = sa == 0.0f; ps = p0 ? 0.0f : 1.0f; break;
    case ScalarOp::kSetpNe: p0 = !(sa == 0.0f); ps = p0 ? 0.0f : 1.0f; break;
    case ScalarOp::kSetpGt: p0 = sa > 0.0f; ps = p0 ? 0.0f : 1.0f; break;
    case ScalarOp::kSetpGe: p0 = sa >= 0.0f; ps = p0 ? 0.0f : 1.0f; break;
    case ScalarOp::kSetpInv:
      p0 = sa == 1.0f;
      ps = p0 ? 0.0f : (sa == 0.0f ? 1.0f : sa);
      break;
    case ScalarOp::kSetpPop: {
      const float pop = sa - 1.0f;
      p0 = pop <= 0.0f;
      ps = p0 ? 0.0f : pop;
      break;
    }
    case ScalarOp::kSetpClr: p0 = false; ps = FLT_MAX; break;
    case ScalarOp::kSetpRstr: p0 = sa == 0.0f; ps = p0 ? 0.0f : sa; break;
    case ScalarOp::kKillsEq: kill = sa == 0.0f; ps = kill ? 1.0f : 0.0f; break;
    case ScalarOp::kKillsGt: kill = sa > 0.0f; ps = kill ? 1.0f : 0.0f; break;
    case ScalarOp::kKillsGe: kill = sa >= 0.0f; ps = kill ? 1.0f : 0.0f; break;
    case ScalarOp::kKillsNe: kill = !(sa == 0.0f); ps = kill ? 1.0f : 0.0f; break;
    case ScalarOp::kKillsOne: kill = sa == 1.0f; ps = kill ? 1.0f : 0.0f; break;
    case ScalarOp::kSqrt: ps = std::sqrt(sa); break;
    case ScalarOp::kSin: ps = std::sin(sa); break;
    case ScalarOp::kCos: ps = std::cos(sa); break;
    case ScalarOp::kRetainPrev: break;
    default:
      return false;
  }
  return true;
}

// The loop and call stacks of the sequencer (4 levels each, as the translator), shared by both
// interpreters. Loop constants: count 7:0, start (aL) 15:8, step 23:16 signed.
struct ControlStack {
  int loop_depth = 0;
  std::array<int32_t, 4> loop_counter{}, loop_saved_aL{};
  int call_depth = 0;
  std::array<int32_t, 4> call_stack{};

  // loop_start: pushes the loop (aL from the constant unless `repeat`). False: the count is 0
  // and the loop is skipped (popped again).
  bool LoopStart(uint32_t lc, bool repeat, int32_t& aL) {
    const int d = std::min(loop_depth, 3);
    loop_saved_aL[size_t(d)] = aL;
    loop_counter[size_t(d)] = int32_t(lc & 0xFF);
    loop_depth = d + 1;
    if (!repeat) aL = int32_t((lc >> 8) & 0xFF);
    if (loop_counter[size_t(d)] > 0) return true;
    loop_depth = d;
    aL = loop_saved_aL[size_t(d)];
    return false;
  }
  // loop_end: steps aL and the count. True: jump back; false: the loop is popped (`break_now`
  // for a predicated break that fires).
  bool LoopEnd(uint32_t lc, bool break_now, int32_t& aL) {
    const int d = std::max(loop_depth - 1, 0);
    loop_counter[size_t(d)] -= 1;
    aL += int32_t(int8_t(uint8_t(lc >> 16)));  // step: signed 8 bits at bit 16
    if (loop_counter[size_t(d)] > 0 && !break_now) return true;
    loop_depth = d;
    aL = loop_saved_aL[size_t(d)];
    return false;
  }
  // A taken call pushes its return address (calls deeper than 4 do not return there).
  void Call(int32_t return_pc) {
    if (call_depth < 4) call_stack[size_t(call_depth++)] = return_pc;
  }
  // The return address; outside a call -1 (the translator ends the program; Xenia's interpreter
  // skips the return).
  int32_t Return() { return call_depth > 0 ? call_stack[size_t(--call_depth)] : -1; }
};

}  // namespace xnt::ucode::alu_rules
