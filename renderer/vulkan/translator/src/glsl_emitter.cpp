// Microcode -> GLSL. The semantics of each operation live in glsl_prelude.cpp; this file maps the
// decoded instruction fields onto those functions and builds the control-flow dispatch loop.
//
// Control flow: one `case` per CF instruction index inside `while (xe_pc >= 0) switch (xe_pc)`.
// Sequential flow falls through to the next case; a taken jump/call/loop branch sets xe_pc and
// breaks out of the switch, which costs one loop iteration (bounded by kMaxControlFlowTransfers).
// State: predicate xe_p0, previous scalar xe_ps, address registers xe_a0 / xe_aL, a 4-deep loop
// stack (counter + saved aL) and a 4-deep call stack, the depths of the hardware's.
#include "glsl_emitter.h"
#include "glsl_alpha_to_mask.h"
#include "glsl_emitter_internal.h"
#include "glsl_output_merger.h"
#include "glsl_pixel_inputs.h"
#include "glsl_polygon_offset.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <sstream>

#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

namespace glsl_detail {

std::string Emitter::TempRef(uint32_t index, bool aL_relative) const {
  if (aL_relative) {
    // Relative temps wrap inside the 64-entry register file, and never index past the array
    // when the shader was given fewer registers.
    std::string wrapped = "(uint(" + std::to_string(index) + " + xe_aL) & 63u)";
    if (register_count_ < 64) {
      wrapped = "min(" + wrapped + ", " + std::to_string(register_count_ - 1) + "u)";
    }
    return "xe_r[" + wrapped + "]";
  }
  return "xe_r[" + std::to_string(std::min(index, register_count_ - 1)) + "]";
}

std::string Emitter::OperandBase(const Operand& op) const {
  if (op.is_temp) return TempRef(op.index, op.relative == RelativeMode::kAL);
  // The stage's own block holds its 256 constants (glsl_prelude.cpp XeFloatConstants).
  if (op.relative == RelativeMode::kNone) {
    return "xe_float_constants.c[" + std::to_string(op.index & 255u) + "]";
  }
  const char* reg = op.relative == RelativeMode::kA0 ? "xe_a0" : "xe_aL";
  // Relative constant indices wrap inside the stage's 256 constants.
  return "xe_float_constants.c[uint(" + std::to_string(op.index) + " + " + reg + ") & 255u]";
}

std::string Emitter::VectorOperand(const Operand& op) const {
  std::string s = OperandBase(op) + ".";
  for (uint32_t c = 0; c < 4; ++c) s += kComponents[op.swizzle[c] & 3];
  if (op.absolute) s = "abs(" + s + ")";
  if (op.negate) s = "(-" + s + ")";
  return s;
}

std::string Emitter::ScalarComponent(const Operand& op, uint32_t position) const {
  std::string s = OperandBase(op) + "." + kComponents[op.swizzle[position & 3] & 3];
  if (op.absolute) s = "abs(" + s + ")";
  if (op.negate) s = "(-" + s + ")";
  return s;
}

std::string Emitter::CfCondition(const CfInstruction& cf) const {
  const std::string want = cf.condition ? "true" : "false";
  switch (cf.opcode) {
    case CfOpcode::kCondExec:
    case CfOpcode::kCondExecEnd:
    // 13/14 use the cond_exec layout too (Xenia shader_translator.cc). Their "predicate clean"
    // has no effect here: no documented semantics, and p0 set in one exec is read by later ones.
    case CfOpcode::kCondExecPredClean:
    case CfOpcode::kCondExecPredCleanEnd: {
      // The ucode model has carried this index either in bool_address or, in the predicated
      // layout, as bits 34-40 in `pad` plus bit 41 in predicate_clean; accept both.
      uint32_t index = cf.bool_address | uint32_t((cf.pad >> 34) & 0x7F) |
                       (cf.predicate_clean ? 0x80u : 0u);
      return "xe_bool_constant(" + std::to_string(index & 0xFF) + "u) == " + want;
    }
    case CfOpcode::kCondExecPred:
    case CfOpcode::kCondExecPredEnd:
      return "xe_p0 == " + want;
    case CfOpcode::kCondCall:
    case CfOpcode::kCondJmp:
      if (cf.is_unconditional) return "true";
      if (cf.is_predicated) return "xe_p0 == " + want;
      return "xe_bool_constant(" + std::to_string(cf.bool_address) + "u) == " + want;
    default:
      return "true";
  }
}

void Emitter::EmitCf(uint32_t index, const CfInstruction& cf) {
  const uint32_t cf_count = uint32_t(shader_.cf.size());
  auto target_ok = [&](uint32_t target) { return target < cf_count; };
  Line("case " + std::to_string(index) + ":");
  ++indent_;
  switch (cf.opcode) {
    case CfOpcode::kNop:
    case CfOpcode::kMarkVsFetchDone:
      break;
    case CfOpcode::kAlloc:
      // Every alloc flushes the export before it, then eM# restart from zero and an alloc export
      // zeroes eA (interpreter.cpp kAlloc; Xenia ProcessAllocInstruction).
      if (!analysis_.uses_memexport) break;
      Line(std::string(kFlush) + " xe_eM = vec4[5](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));");
      if (cf.alloc_type == ucode::AllocType::kMemory) Line("xe_eA = vec4(0.0);");
      break;
    case CfOpcode::kExec:
    case CfOpcode::kExecEnd:
    case CfOpcode::kCondExec:
    case CfOpcode::kCondExecEnd:
    case CfOpcode::kCondExecPred:
    case CfOpcode::kCondExecPredEnd:
    case CfOpcode::kCondExecPredClean:
    case CfOpcode::kCondExecPredCleanEnd: {
      std::string condition = CfCondition(cf);
      if (condition != "true") {
        Line("if (" + condition + ") {");
        ++indent_;
      }
      EmitExecBody(cf);
      if (condition != "true") {
        --indent_;
        Line("}");
      }
      // The *_END forms end the program whether or not their condition held: they are the last
      // CF instruction the compiler emits (nothing after them is part of the program).
      if (ucode::IsExecEnd(cf.opcode)) Line("xe_pc = -1; break;");
      break;
    }
    case CfOpcode::kLoopStart: {
      Line("{");
      ++indent_;
      Line("uint xe_lc = xe_loop_constant(" + std::to_string(cf.loop_id) + "u);");
      Line("int xe_d = min(xe_loop_depth, 3);");
      Line("xe_loop_saved_aL[xe_d] = xe_aL;");
      Line("xe_loop_counter[xe_d] = int(xe_lc & 0xFFu);");
      Line("xe_loop_depth = xe_d + 1;");
      if (!cf.is_repeat) Line("xe_aL = int((xe_lc >> 8u) & 0xFFu);");
      Line("if (xe_loop_counter[xe_d] <= 0) {");
      Line("  xe_loop_depth = xe_d;");
      Line("  xe_aL = xe_loop_saved_aL[xe_d];");
      Line(std::string("  xe_pc = ") + (target_ok(cf.address) ? std::to_string(cf.address) : "-1") +
           "; break;");
      Line("}");
      --indent_;
      Line("}");
      break;
    }
    case CfOpcode::kLoopEnd: {
      Line("{");
      ++indent_;
      Line("int xe_d = max(xe_loop_depth - 1, 0);");
      Line("uint xe_lc = xe_loop_constant(" + std::to_string(cf.loop_id) + "u);");
      Line("xe_loop_counter[xe_d] -= 1;");
      // Step: signed 8 bits at bit 16 of the loop constant.
      Line("xe_aL += bitfieldExtract(int(xe_lc), 16, 8);");
      std::string again = "xe_loop_counter[xe_d] > 0";
      if (cf.is_predicated_break) {
        again += std::string(" && !(xe_p0 == ") + (cf.condition ? "true" : "false") + ")";
      }
      Line("if (" + again + ") {");
      Line(std::string("  xe_pc = ") + (target_ok(cf.address) ? std::to_string(cf.address) : "-1") +
           "; break;");
      Line("}");
      Line("xe_loop_depth = xe_d;");
      Line("xe_aL = xe_loop_saved_aL[xe_d];");
      --indent_;
      Line("}");
      break;
    }
    case CfOpcode::kCondCall: {
      Line("if (" + CfCondition(cf) + ") {");
      Line("  if (xe_call_depth < 4) { xe_call_stack[xe_call_depth] = " +
           std::to_string(index + 1) + "; xe_call_depth += 1; }");
      Line(std::string("  xe_pc = ") + (target_ok(cf.address) ? std::to_string(cf.address) : "-1") +
           "; break;");
      Line("}");
      break;
    }
    case CfOpcode::kReturn:
      Line("if (xe_call_depth > 0) { xe_call_depth -= 1; xe_pc = xe_call_stack[xe_call_depth]; }");
      Line("else { xe_pc = -1; }");
      Line("break;");
      break;
    case CfOpcode::kCondJmp:
      Line("if (" + CfCondition(cf) + ") {");
      Line(std::string("  xe_pc = ") + (target_ok(cf.address) ? std::to_string(cf.address) : "-1") +
           "; break;");
      Line("}");
      break;
  }
  --indent_;
}

void Emitter::EmitExecBody(const CfInstruction& cf) {
  for (uint32_t k = 0; k < cf.count; ++k) {
    uint32_t slot = cf.address + k;
    if (slot < shader_.cf_slots || slot - shader_.cf_slots >= shader_.slots.size()) {
      // The decoder rejects such execs; stay safe if handed a hand-built model.
      Line("// slot " + std::to_string(slot) + " is outside the microcode");
      continue;
    }
    const ucode::Instruction& instruction = shader_.AtSlot(slot);
    if (cf.IsSerialized(k) && analysis_.uses_memexport) Line(kFlush);  // ends the export
    if (instruction.kind == ucode::SlotKind::kFetch) {
      EmitFetch(instruction.fetch, slot);
    } else {
      EmitAlu(instruction.alu, slot);
    }
  }
}

// ---- ALU ----------------------------------------------------------------------------------------

void Emitter::EmitAlu(const AluInstruction& alu, uint32_t slot) {
  Line("{  // slot " + std::to_string(slot) + ": " + std::string(ucode::VectorOpName(alu.vector_op)) +
       " + " + std::string(ucode::ScalarOpName(alu.scalar_op)));
  ++indent_;
  if (alu.is_predicated) {
    Line(std::string("if (xe_p0 == ") + (alu.predicate_condition ? "true" : "false") + ") {");
    ++indent_;
  }
  // Every source is read before any result (or side effect such as a0) is written.
  Operand ops[3];
  std::string operands[3];
  uint32_t vector_count = ucode::VectorOpOperandCount(alu.vector_op);
  for (uint32_t i = 0; i < vector_count && i < 3; ++i) {
    ops[i] = alu.VectorOperand(i);
    if (!ops[i].is_temp && alu.abs_constants) ops[i].absolute = true;
    operands[i] = "xe_src" + std::to_string(i);
    Line("vec4 xe_src" + std::to_string(i) + " = " + VectorOperand(ops[i]) + ";");
  }
  std::vector<Operand> scalar_ops = alu.ScalarOperands();
  for (size_t i = 0; i < scalar_ops.size(); ++i) {
    if (!scalar_ops[i].is_temp && alu.abs_constants) scalar_ops[i].absolute = true;
  }
  ucode::ScalarForm form = ucode::ScalarOpForm(alu.scalar_op);
  if (form == ucode::ScalarForm::kOne || form == ucode::ScalarForm::kTwoComponent) {
    if (!scalar_ops.empty()) {
      Line("float xe_sa = " + ScalarComponent(scalar_ops[0], 0) + ";");
      Line("float xe_sb = " +
           (form == ucode::ScalarForm::kTwoComponent ? ScalarComponent(scalar_ops[0], 1)
                                                      : std::string("0.0")) +
           ";");
    }
  } else if (form == ucode::ScalarForm::kConstTemp && scalar_ops.size() >= 2) {
    Line("float xe_sa = " + ScalarComponent(scalar_ops[0], 0) + ";");
    Line("float xe_sb = " + ScalarComponent(scalar_ops[1], 0) + ";");
  }
  scalar_identical_ = form == ucode::ScalarForm::kTwoComponent && !scalar_ops.empty() &&
                      scalar_ops[0].swizzle[0] == scalar_ops[0].swizzle[1];

  bool have_vector = EmitVectorOp(alu, operands, ops);
  EmitScalarOp(alu);
  EmitAluStores(alu, have_vector);
  if (alu.is_predicated) {
    --indent_;
    Line("}");
  }
  --indent_;
  Line("}");
}

bool Emitter::EmitVectorOp(const AluInstruction& alu, const std::string operands[3],
                           const Operand ops[3]) {
  const std::string& a = operands[0];
  const std::string& b = operands[1];
  const std::string& c = operands[2];
  // Identical operands (same register, swizzle and modifiers): max/min are a move, which keeps
  // NaN and -0 exactly (Xenia spirv_shader_translator_alu.cc: "max is commonly used as mov").
  auto same = [&](uint32_t i, uint32_t j) {
    return VectorOperand(ops[i]) == VectorOperand(ops[j]);
  };
  std::string v;
  switch (alu.vector_op) {
    case VectorOp::kAdd: v = a + " + " + b; break;
    case VectorOp::kMul: v = "xe_mul(" + a + ", " + b + ")"; break;
    case VectorOp::kMax: v = same(0, 1) ? a : "xe_max(" + a + ", " + b + ")"; break;
    case VectorOp::kMin: v = same(0, 1) ? a : "xe_min(" + a + ", " + b + ")"; break;
    case VectorOp::kSeq: v = "xe_seq(" + a + ", " + b + ")"; break;
    case VectorOp::kSgt: v = "xe_sgt(" + a + ", " + b + ")"; break;
    case VectorOp::kSge: v = "xe_sge(" + a + ", " + b + ")"; break;
    case VectorOp::kSne: v = "xe_sne(" + a + ", " + b + ")"; break;
    case VectorOp::kFrc: v = "xe_frc(" + a + ")"; break;
    case VectorOp::kTrunc: v = "trunc(" + a + ")"; break;
    case VectorOp::kFloor: v = "floor(" + a + ")"; break;
    case VectorOp::kMad: v = "xe_mad(" + a + ", " + b + ", " + c + ")"; break;
    case VectorOp::kCndEq: v = "xe_cndeq(" + a + ", " + b + ", " + c + ")"; break;
    case VectorOp::kCndGe: v = "xe_cndge(" + a + ", " + b + ", " + c + ")"; break;
    case VectorOp::kCndGt: v = "xe_cndgt(" + a + ", " + b + ", " + c + ")"; break;
    case VectorOp::kDp4: v = "vec4(xe_dp(" + a + ", " + b + ", 4))"; break;
    case VectorOp::kDp3: v = "vec4(xe_dp(" + a + ", " + b + ", 3))"; break;
    case VectorOp::kDp2Add: v = "vec4(xe_dp(" + a + ", " + b + ", 2) + " + c + ".x)"; break;
    // src0 is r.zzxy in the listing: x = [2], y = [3], z = [0] (Xenia kCube).
    case VectorOp::kCube: v = "xe_cube(vec3(" + a + ".z, " + a + ".w, " + a + ".x))"; break;
    case VectorOp::kMax4: v = "vec4(xe_max4(" + a + "))"; break;
    case VectorOp::kSetpEqPush:
    case VectorOp::kSetpNePush:
    case VectorOp::kSetpGtPush:
    case VectorOp::kSetpGePush: {
      // p0 = src0.w == 0 && src1.w op 0; result = (src0.x == 0 && src1.x op 0) ? 0 : src0.x + 1
      // (Xenia spirv_shader_translator_alu.cc kSetp*Push).
      auto cmp = [&](const std::string& x) {
        switch (alu.vector_op) {
          case VectorOp::kSetpEqPush: return x + " == 0.0";
          case VectorOp::kSetpNePush: return "!(" + x + " == 0.0)";
          case VectorOp::kSetpGtPush: return x + " > 0.0";
          default: return x + " >= 0.0";
        }
      };
      Line("bool xe_push_x = " + a + ".x == 0.0 && " + cmp(b + ".x") + ";");
      Line("xe_p0 = " + a + ".w == 0.0 && " + cmp(b + ".w") + ";");
      v = "vec4((xe_push_x ? -1.0 : " + a + ".x) + 1.0)";
      break;
    }
    case VectorOp::kKillEq:
    case VectorOp::kKillGt:
    case VectorOp::kKillGe:
    case VectorOp::kKillNe: {
      std::string cmp;
      switch (alu.vector_op) {
        case VectorOp::kKillEq: cmp = "equal(" + a + ", " + b + ")"; break;
        case VectorOp::kKillGt: cmp = "greaterThan(" + a + ", " + b + ")"; break;
        case VectorOp::kKillGe: cmp = "greaterThanEqual(" + a + ", " + b + ")"; break;
        default: cmp = "not(equal(" + a + ", " + b + "))"; break;
      }
      EmitKill("xe_kill", "any(" + cmp + ")");
      v = "vec4(xe_kill ? 1.0 : 0.0)";
      break;
    }
    case VectorOp::kDst:
      v = "vec4(1.0, xe_mul(" + a + ".y, " + b + ".y), " + a + ".z, " + b + ".w)";
      break;
    case VectorOp::kMaxA:
      Line("xe_a0 = xe_a0_round(" + a + ".w);");
      v = same(0, 1) ? a : "xe_max(" + a + ", " + b + ")";
      break;
  }
  if (v.empty()) return false;
  Line("precise vec4 xe_v = " + v + ";");
  return true;
}

void Emitter::EmitKill(const std::string& flag, const std::string& condition) {
  Line("bool " + flag + " = " + condition + ";");
  // In a vertex shader the op only computes its result: a vertex dies through oPts.z alone
  // (gpu/primitive_clip.h).
  if (pixel()) {
    reflection_.kills = true;
    Line("if (" + flag + ") { " + (analysis_.uses_memexport ? kFlush : "") + " discard; }");
  }
}

void Emitter::EmitScalarOp(const AluInstruction& alu) {
  std::string s;
  auto set_p0 = [&](const std::string& condition) { Line("xe_p0 = " + condition + ";"); };
  auto kill = [&](const std::string& condition) {
    EmitKill("xe_skill", condition);
    s = "xe_skill ? 1.0 : 0.0";
  };
  switch (alu.scalar_op) {
    case ScalarOp::kAdds: s = "xe_sa + xe_sb"; break;
    case ScalarOp::kAddsPrev: s = "xe_sa + xe_ps"; break;
    case ScalarOp::kMuls: s = "xe_mul(xe_sa, xe_sb)"; break;
    case ScalarOp::kMulsPrev: s = "xe_mul(xe_sa, xe_ps)"; break;
    case ScalarOp::kMulsPrev2: s = "xe_mul_prev2(xe_sa, xe_sb, xe_ps)"; break;
    case ScalarOp::kMaxs: s = scalar_identical_ ? "xe_sa" : "xe_max(xe_sa, xe_sb)"; break;
    case ScalarOp::kMins: s = scalar_identical_ ? "xe_sa" : "xe_min(xe_sa, xe_sb)"; break;
    case ScalarOp::kSeqs: s = "xe_sa == 0.0 ? 1.0 : 0.0"; break;
    case ScalarOp::kSgts: s = "xe_sa > 0.0 ? 1.0 : 0.0"; break;
    case ScalarOp::kSges: s = "xe_sa >= 0.0 ? 1.0 : 0.0"; break;
    case ScalarOp::kSnes: s = "!(xe_sa == 0.0) ? 1.0 : 0.0"; break;
    case ScalarOp::kFrcs: s = "xe_frc(xe_sa)"; break;
    case ScalarOp::kTruncs: s = "trunc(xe_sa)"; break;
    case ScalarOp::kFloors: s = "floor(xe_sa)"; break;
    case ScalarOp::kExp: s = "exp2(xe_sa)"; break;
    case ScalarOp::kLogc: s = "xe_logc(xe_sa)"; break;
    case ScalarOp::kLog: s = "log2(xe_sa)"; break;
    case ScalarOp::kRcpc: s = "xe_clamp_inf(xe_rcp(xe_sa))"; break;
    case ScalarOp::kRcpf: s = "xe_flush_inf(xe_rcp(xe_sa))"; break;
    case ScalarOp::kRcp: s = "xe_rcp(xe_sa)"; break;
    case ScalarOp::kRsqc: s = "xe_clamp_inf(xe_rsq(xe_sa))"; break;
    case ScalarOp::kRsqf: s = "xe_flush_inf(xe_rsq(xe_sa))"; break;
    case ScalarOp::kRsq: s = "xe_rsq(xe_sa)"; break;
    case ScalarOp::kMaxAs:
      Line("xe_a0 = xe_a0_round(xe_sa);");
      s = scalar_identical_ ? "xe_sa" : "xe_max(xe_sa, xe_sb)";
      break;
    case ScalarOp::kMaxAsf:
      Line("xe_a0 = xe_a0_floor(xe_sa);");
      s = scalar_identical_ ? "xe_sa" : "xe_max(xe_sa, xe_sb)";
      break;
    case ScalarOp::kSubs: s = "xe_sa - xe_sb"; break;
    case ScalarOp::kSubsPrev: s = "xe_sa - xe_ps"; break;
    // Predicate ops (Xenia dxbc_shader_translator_alu.cc kSetp*): ps = p0 ? 0 : 1 for the compares.
    case ScalarOp::kSetpEq: set_p0("xe_sa == 0.0"); s = "xe_p0 ? 0.0 : 1.0"; break;
    case ScalarOp::kSetpNe: set_p0("!(xe_sa == 0.0)"); s = "xe_p0 ? 0.0 : 1.0"; break;
    case ScalarOp::kSetpGt: set_p0("xe_sa > 0.0"); s = "xe_p0 ? 0.0 : 1.0"; break;
    case ScalarOp::kSetpGe: set_p0("xe_sa >= 0.0"); s = "xe_p0 ? 0.0 : 1.0"; break;
    case ScalarOp::kSetpInv:
      set_p0("xe_sa == 1.0");
      s = "xe_p0 ? 0.0 : (xe_sa == 0.0 ? 1.0 : xe_sa)";
      break;
    case ScalarOp::kSetpPop:
      Line("float xe_pop = xe_sa - 1.0;");
      set_p0("xe_pop <= 0.0");
      s = "xe_p0 ? 0.0 : xe_pop";
      break;
    case ScalarOp::kSetpClr: set_p0("false"); s = "XE_FLT_MAX"; break;
    case ScalarOp::kSetpRstr: set_p0("xe_sa == 0.0"); s = "xe_p0 ? 0.0 : xe_sa"; break;
    case ScalarOp::kKillsEq: kill("xe_sa == 0.0"); break;
    case ScalarOp::kKillsGt: kill("xe_sa > 0.0"); break;
    case ScalarOp::kKillsGe: kill("xe_sa >= 0.0"); break;
    case ScalarOp::kKillsNe: kill("!(xe_sa == 0.0)"); break;
    case ScalarOp::kKillsOne: kill("xe_sa == 1.0"); break;
    case ScalarOp::kSqrt: s = "sqrt(xe_sa)"; break;
    case ScalarOp::kMulsc0:
    case ScalarOp::kMulsc1: s = "xe_mul(xe_sa, xe_sb)"; break;
    case ScalarOp::kAddsc0:
    case ScalarOp::kAddsc1: s = "xe_sa + xe_sb"; break;
    case ScalarOp::kSubsc0:
    case ScalarOp::kSubsc1: s = "xe_sa - xe_sb"; break;
    case ScalarOp::kSin: s = "sin(xe_sa)"; break;
    case ScalarOp::kCos: s = "cos(xe_sa)"; break;
    case ScalarOp::kRetainPrev: break;
  }
  if (!s.empty()) Line("xe_ps = " + s + ";");
}

void Emitter::EmitAluStores(const AluInstruction& alu, bool have_vector) {
  const std::string vector_value = alu.vector_clamp ? "xe_sat(xe_v)" : "xe_v";
  const std::string scalar_value = alu.scalar_clamp ? "xe_sat(xe_ps)" : "xe_ps";
  uint32_t vmask = have_vector ? alu.VectorResultMask() : 0;
  uint32_t smask = alu.ScalarResultMask();
  if (!alu.export_data) {
    if (vmask) {
      std::string m = MaskSwizzle(vmask);
      Line(TempRef(alu.vector_dest, alu.vector_dest_rel) + "." + m + " = " + vector_value + "." +
           m + ";");
    }
    if (smask) {
      std::string m = MaskSwizzle(smask);
      std::string value = std::popcount(smask) == 1
                              ? scalar_value
                              : "vec" + std::to_string(std::popcount(smask)) + "(" +
                                    scalar_value + ")";
      Line(TempRef(alu.scalar_dest, alu.scalar_dest_rel) + "." + m + " = " + value + ";");
    }
    return;
  }
  // Exports: vector, then scalar, then the constant-1 and constant-0 encodings, all into the
  // export register named by vector_dest (Xenia ucode.h GetConstant0WriteMask etc.).
  uint32_t one = alu.Constant1Mask();
  uint32_t zero = alu.Constant0Mask();
  if (!(vmask | smask | one | zero)) return;
  uint32_t dest = alu.vector_dest;
  std::string target;
  if (dest >= ucode::kExportAddress && dest <= ucode::kExportData0 + 4) {
    reflection_.uses_memexport = true;
    target = dest == ucode::kExportAddress
                 ? "xe_eA"
                 : "xe_eM[" + std::to_string(dest - ucode::kExportData0) + "]";
    if (dest != ucode::kExportAddress) {
      Line("xe_eM_written |= " + std::to_string(1u << (dest - ucode::kExportData0)) + "u;");
    }
  } else if (pixel()) {
    if (dest < 4) {
      reflection_.color_targets_written |= 1u << dest;
      target = "xe_o_color[" + std::to_string(dest) + "]";
    } else if (dest == ucode::kExportDepth) {
      reflection_.writes_depth = true;
      target = "xe_o_depth";
    }
  } else {
    if (dest < 16) {
      reflection_.interpolators_written |= 1u << dest;
      target = "xe_interpolators[" + std::to_string(dest) + "]";
    } else if (dest == ucode::kExportPosition) {
      reflection_.writes_position = true;
      target = "xe_o_position";
    } else if (dest == ucode::kExportPointSize) {
      if ((vmask | smask | one | zero) & 1) {
        reflection_.writes_point_size = true;
        exports_point_size_ = true;
      }
      target = "xe_o_point";
    }
  }
  if (target.empty()) {
    Note("export to register " + std::to_string(dest) + " is not a known destination; dropped");
    return;
  }
  uint32_t taken = 0;
  if (vmask) {
    std::string m = MaskSwizzle(vmask);
    Line(target + "." + m + " = " + vector_value + "." + m + ";");
    taken |= vmask;
  }
  if (uint32_t m = smask & ~taken) {
    std::string value = std::popcount(m) == 1
                            ? scalar_value
                            : "vec" + std::to_string(std::popcount(m)) + "(" + scalar_value + ")";
    Line(target + "." + MaskSwizzle(m) + " = " + value + ";");
    taken |= m;
  }
  if (uint32_t m = one & ~taken) {
    std::string value = std::popcount(m) == 1 ? "1.0" : "vec" + std::to_string(std::popcount(m)) + "(1.0)";
    Line(target + "." + MaskSwizzle(m) + " = " + value + ";");
    taken |= m;
  }
  if (uint32_t m = zero & ~taken) {
    // xe_zero (glsl_prelude.cpp): the viewport transform adds to oPos, and a literal 0 there
    // would lose IEEE's 0 + -0 = +0 as a swizzle's 0 does.
    std::string value = std::popcount(m) == 1 ? "xe_zero()" : "vec" + std::to_string(std::popcount(m)) + "(xe_zero())";
    Line(target + "." + MaskSwizzle(m) + " = " + value + ";");
  }
}

// ---- Program ------------------------------------------------------------------------------------

void Emitter::EmitDeclarations() {
  if (pixel() && options_.ps_point_coord_input) {
    Line("layout(location = " + std::to_string(kXePointCoordLocation) +
         ") in vec2 xe_point_coord;");
  }
  if (pixel() && options_.fsi_output_merger) {
    // The fsi path: no colour outputs; the output merger writes the EDRAM buffer.
    Line("layout(location = 0) in vec4 xe_interpolators[16];");
    out_ << GlslOutputMerger(options_.fsi_output_merger == 1, options_.fsi_exact_polygon_offset);
  } else if (pixel()) {
    Line("layout(location = 0) in vec4 xe_interpolators[16];");
    const uint32_t outputs = reflection_.color_targets_written & options_.ps_color_attachments;
    for (uint32_t i = 0; i < 4; ++i) {
      if (outputs & (1u << i)) {
        Line("layout(location = " + std::to_string(i) + ") out vec4 xe_color_" +
             std::to_string(i) + ";");
      }
    }
    // Colour export conversion for the host render target (glsl_output_merger.h), in the modes
    // the pipeline specializes (shader_interface.h kXeSpecColorOutputModes).
    if (outputs) {
      out_ << GlslHostColorOutput();
      Line("layout(constant_id = " + std::to_string(kXeSpecColorOutputModes) +
           ") const uint xe_spec_color_output_modes = " +
           std::to_string(kXeColorOutputModesUnspecialized) + "u;");
    }
    if (options_.fsi_exact_polygon_offset) {
      // The fbo path's host depth: the guest's, from the triangle's exported positions
      // (glsl_polygon_offset.h), flat from the geometry shader.
      Line("layout(location = " + std::to_string(kXeTrianglePositionsLocation) +
           ") flat in vec4 xe_vs_position[3];");
      out_ << GlslExactFragmentDepth();
    }
  } else {
    // All 16 are declared (and zero-initialised) so every pixel shader's inputs are produced.
    Line("layout(location = 0) out vec4 xe_interpolators[16];");
    // gl_Position / gl_PointSize from the implicit gl_PerVertex block: a redeclared (smaller)
    // block would not match the rectangle-list geometry shader's implicit input block.
  }
  Line("");
}

void Emitter::EmitPrologue() {
  Line("vec4 xe_r[" + std::to_string(register_count_) + "];");
  Line("for (int i = 0; i < " + std::to_string(register_count_) + "; ++i) { xe_r[i] = vec4(xe_zero()); }");
  Line("int xe_a0 = 0;");
  Line("int xe_aL = 0;");
  Line("bool xe_p0 = false;");
  Line("float xe_ps = xe_zero();");
  Line("int xe_loop_depth = 0;");
  Line("int xe_loop_counter[4] = int[4](0, 0, 0, 0);");
  Line("int xe_loop_saved_aL[4] = int[4](0, 0, 0, 0);");
  Line("int xe_call_depth = 0;");
  Line("int xe_call_stack[4] = int[4](0, 0, 0, 0);");
  Line("uint xe_vf_slot = 0u;");
  Line("uint xe_vf_base = 0u;");
  Line("float xe_tex_lod = 0.0;");
  Line("vec3 xe_grad_h = vec3(0.0);");
  Line("vec3 xe_grad_v = vec3(0.0);");
  Line("vec4 xe_eA = vec4(0.0);");
  Line("vec4 xe_eM[5] = vec4[5](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));");
  Line("uint xe_eM_written = 0u;");
  if (pixel() && options_.fsi_output_merger) out_ << GlslOutputMergerPrologue();
  if (pixel()) {
    Line("vec4 xe_o_color[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));");
    Line("vec4 xe_o_depth = vec4(gl_FragCoord.z);");
    uint32_t count = std::min({options_.ps_interpolator_count, 16u, register_count_});
    out_ << GlslPixelInputs(options_, count, register_count_);
    // Interpolators that matter: loaded registers the program reads before writing them.
    uint32_t loaded = count >= 32 ? ~0u : (1u << count) - 1;
    reflection_.interpolators_read = analysis_.ps_input_mask & loaded;
  } else {
    Line("vec4 xe_o_position = vec4(0.0);");
    Line("vec4 xe_o_point = vec4(0.0);");
    Line("for (int i = 0; i < 16; ++i) { xe_interpolators[i] = vec4(0.0); }");
    if (options_.domain_inputs) {
      // A tessellated draw: the sequencer loads the tessellation coordinates and the patch or
      // control-point indices into r0 / r1 (gpu/tessellated_draw.h), one pair per vertex.
      Line("xe_r[0] = xe_domain_inputs[2 * gl_VertexIndex];");
      if (register_count_ > 1) Line("xe_r[1] = xe_domain_inputs[2 * gl_VertexIndex + 1];");
    } else {
      // The sequencer loads the vertex index into r0.x (`dcl_index r0.x`).
      Line("xe_r[0].x = float(gl_VertexIndex + xe_system.vertex_base_index);");
    }
  }
}

void Emitter::EmitEpilogue() {
  if (pixel() && options_.fsi_output_merger && reflection_.fsi_early_depth) {
    out_ << GlslOutputMergerEarlyTail(options_.fsi_output_merger == 1, "xe_o_color");
    return;
  }
  if (pixel() && options_.fsi_output_merger) {
    out_ << GlslOutputMergerEpilogue(options_.fsi_output_merger == 1,
                                     reflection_.color_targets_written, reflection_.writes_depth,
                                     "xe_o_color", "xe_o_depth.x");
    return;
  }
  if (pixel()) {
    if (reflection_.color_targets_written & 1) {
      // Alpha test on colour 0, RB_COLORCONTROL alpha_func: bit 0 less, bit 1 equal, bit 2 greater.
      Line("if ((xe_system.flags & kXeSysFlagAlphaTest) != 0u) {");
      Line("  float xe_alpha = xe_o_color[0].a;");
      Line("  float xe_ref = xe_system.alpha_test_reference;");
      Line("  uint xe_func = xe_system.alpha_test_func;");
      Line("  bool xe_pass = ((xe_func & 1u) != 0u && xe_alpha < xe_ref) ||");
      Line("                 ((xe_func & 2u) != 0u && xe_alpha == xe_ref) ||");
      Line("                 ((xe_func & 4u) != 0u && xe_alpha > xe_ref);");
      Line("  if (!xe_pass) { discard; }");
      Line("}");
      out_ << GlslAlphaToMask(options_);
    }
    const uint32_t outputs = reflection_.color_targets_written & options_.ps_color_attachments;
    if (outputs) {
      Line("uint xe_output_modes = xe_spec_color_output_modes != " +
           std::to_string(kXeColorOutputModesUnspecialized) +
           "u ? xe_spec_color_output_modes : xe_system.color_output_modes;");
    }
    for (uint32_t i = 0; i < 4; ++i) {
      if (outputs & (1u << i)) {
        std::string n = std::to_string(i);
        Line("xe_color_" + n + " = xe_quantize_unorm(xe_color_output(xe_o_color[" + n +
             "] * exp2(float(xe_system.color_exp_bias[" + n + "])), (xe_output_modes >> " +
             std::to_string(4 * i) + "u) & 15u), (xe_output_modes >> " +
             std::to_string(16 + 2 * i) + "u) & 3u);");
      }
    }
    if (options_.fsi_exact_polygon_offset) {
      Line(std::string("gl_FragDepth = xe_exact_fragment_depth(gl_FragCoord.z, ") +
           (reflection_.writes_depth ? "true" : "false") + ", xe_o_depth.x);");
    } else if (reflection_.writes_depth) {
      Line("gl_FragDepth = xe_o_depth.x;");
    }
    return;
  }
  // VTE: undo the W / XY / Z formats of PA_CL_VTE_CNTL, then ndc_scale/offset (shader_interface.h).
  if (options_.fsi_exact_polygon_offset) {
    // The exported position as the cpu path starts from it (glsl_polygon_offset.h), in the
    // location of an interpolator the geometry shader does not pass on.
    Line("xe_interpolators[" + std::to_string(std::min(options_.vs_position_location, 15u)) +
         "] = xe_o_position;");
    reflection_.position_location = std::min(options_.vs_position_location, 15u);
  }
  Line("vec4 xe_pos = xe_o_position;");
  Line("if ((xe_system.flags & kXeSysFlagWNotReciprocal) == 0u) { xe_pos.w = 1.0 / xe_pos.w; }");
  Line("if ((xe_system.flags & kXeSysFlagXyDividedByW) != 0u) { xe_pos.xy *= xe_pos.w; }");
  Line("if ((xe_system.flags & kXeSysFlagZDividedByW) != 0u) { xe_pos.z *= xe_pos.w; }");
  EmitClipDistances();
  Line("xe_pos.xyz = xe_pos.xyz * xe_system.ndc_scale.xyz + xe_system.ndc_offset.xyz * xe_pos.w;");
  Line("gl_Position = xe_pos;");
  // Point quads take the diameter in guest pixels (-1: the constant width and height), a host
  // point its size in host pixels (one size: square, the horizontal scale's).
  const std::string diameter = exports_point_size_
                                   ? "clamp(xe_o_point.x, xe_system.point_size_min_max.x, "
                                     "xe_system.point_size_min_max.y)"
                                   : "-1.0";
  Line("gl_PointSize = (xe_system.flags & kXeSysFlagPointQuads) != 0u ? " + diameter + " : " +
       (exports_point_size_ ? diameter : "xe_system.point_size_min_max.z") +
       " * xe_resolution_scale().x;");
}

void Emitter::EmitClipDistances() {
  // xe_pos is guest clip space here (formats undone, no viewport yet), where the planes are.
  uint32_t clip = 0, cull = 0;
  for (uint32_t i = 0; i < std::min(options_.vs_user_clip_planes, 6u); ++i) {
    const std::string d = "dot(xe_pos, xe_system.user_clip_planes[" + std::to_string(i) + "])";
    if (options_.vs_user_clip_cull_only) {
      Line("gl_CullDistance[" + std::to_string(cull++) + "] = " + d + ";");
    } else {
      Line("gl_ClipDistance[" + std::to_string(clip++) + "] = " + d + ";");
    }
  }
  if (options_.vs_point_export_clip_distances) {
    for (uint32_t c = 0; c < 4; ++c) {
      Line("gl_ClipDistance[" + std::to_string(clip++) + "] = xe_o_point[" + std::to_string(c) + "];");
    }
  }
  reflection_.clip_distances = clip + (options_.vs_vertex_kill == 2 ? 1 : 0);
  reflection_.cull_distances = cull + (options_.vs_vertex_kill == 1 ? 1 : 0);
  reflection_.kill_clip_distance = options_.vs_vertex_kill == 2;
  if (options_.vs_vertex_kill == 0) return;
  // Bits 30:0 of the oPts.z export, not its value (a denormal kills, the sign is ignored).
  Line("bool xe_vertex_killed = (floatBitsToUint(xe_o_point.z) & 0x7FFFFFFFu) != 0u;");
  if (options_.vs_vertex_kill == 1) {
    Line("gl_CullDistance[" + std::to_string(cull) + "] = xe_vertex_killed ? -1.0 : 0.0;");
  } else {
    Line("gl_ClipDistance[" + std::to_string(clip) + "] = xe_vertex_killed ? -1e30 : 1.0;");
  }
}

std::string Emitter::Run() {
  reflection_ = {};
  reflection_.is_pixel_shader = pixel();
  register_count_ = analysis_.uses_relative_temps
                        ? 64
                        : std::max<uint32_t>({analysis_.max_temp + 1, pixel() ? 16u : 1u, 1u});
  register_count_ = std::min<uint32_t>(register_count_, 64);
  reflection_.register_count = register_count_;

  // The body first: it discovers which outputs exist, which the declarations need.
  std::ostringstream declarations;
  out_.str("");
  indent_ = 1;
  Line("int xe_pc = 0;");
  Line("uint xe_transfers = 0u;");
  Line("while (xe_pc >= 0) {");
  ++indent_;
  Line("if (xe_transfers >= " + std::to_string(kMaxControlFlowTransfers) + "u) { break; }");
  Line("xe_transfers += 1u;");
  Line("switch (xe_pc) {");
  ++indent_;
  for (uint32_t i = 0; i < shader_.cf.size(); ++i) EmitCf(i, shader_.cf[i]);
  Line("default:");
  Line("  xe_pc = -1;");
  Line("  break;");
  --indent_;
  Line("}");
  --indent_;
  Line("}");
  if (analysis_.uses_memexport) Line(kFlush);  // the end of the shader flushes what is pending
  std::string body = out_.str();
  // Early depth only where nothing in the body can change coverage or depth or write memory,
  // and nothing in it takes derivatives: the early variant runs the body under a condition that
  // is uniform per 2x2 quad only, and implicit derivatives (texture fetches' LOD, getGradients,
  // getCompTexLOD) are defined in control flow uniform across the primitive (GLSL 4.60 8.9.1; only
  // VK_KHR_shader_quad_control's quad_derivatives relaxes that), so a fetching shader stays late.
  reflection_.fsi_early_depth = pixel() && options_.fsi_output_merger != 0 &&
                                options_.fsi_early_depth && !reflection_.kills &&
                                !reflection_.writes_depth && !reflection_.uses_memexport &&
                                !analysis_.uses_memexport &&
                                analysis_.texture_fetch_constants == 0;

  out_.str("");
  indent_ = 1;
  EmitPrologue();
  std::string prologue = out_.str();
  if (reflection_.fsi_early_depth) {
    prologue += GlslOutputMergerEarlyHead(options_.fsi_output_merger == 1);
  }

  out_.str("");
  indent_ = 1;
  EmitEpilogue();
  std::string epilogue = out_.str();

  out_.str("");
  indent_ = 0;
  EmitDeclarations();
  std::string result = out_.str();
  result += "void main() {\n" + prologue + body + epilogue + "}\n";
  return result;
}

}  // namespace glsl_detail

std::string EmitGlslMain(const ucode::Shader& shader, const ucode::Analysis& analysis,
                         const TranslationOptions& options, ShaderReflection& reflection) {
  glsl_detail::Emitter emitter(shader, analysis, options, reflection);
  return emitter.Run();
}

}  // namespace xnt::vk
