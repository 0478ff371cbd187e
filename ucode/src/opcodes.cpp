// Opcode tables: mnemonics, operand counts and side effects.
// Names and operand counts: Xenia src/xenia/gpu/ucode.cc (kAluScalarOpcodeInfos,
// kAluVectorOpcodeInfos), which mirror the XDK assembler's mnemonics.
#include <array>
#include <string_view>

#include "xnt/ucode/ucode.h"

namespace xnt::ucode {
namespace {

struct VectorInfo {
  std::string_view name;
  uint32_t operands;
  bool changes_state;
};
constexpr std::array<VectorInfo, kVectorOpCount> kVector = {{
    {"add", 2, false},          {"mul", 2, false},          {"max", 2, false},
    {"min", 2, false},          {"seq", 2, false},          {"sgt", 2, false},
    {"sge", 2, false},          {"sne", 2, false},          {"frc", 1, false},
    {"trunc", 1, false},        {"floor", 1, false},        {"mad", 3, false},
    {"cndeq", 3, false},        {"cndge", 3, false},        {"cndgt", 3, false},
    {"dp4", 2, false},          {"dp3", 2, false},          {"dp2add", 3, false},
    {"cube", 2, false},         {"max4", 1, false},         {"setp_eq_push", 2, true},
    {"setp_ne_push", 2, true},  {"setp_gt_push", 2, true},  {"setp_ge_push", 2, true},
    {"kill_eq", 2, true},       {"kill_gt", 2, true},       {"kill_ge", 2, true},
    {"kill_ne", 2, true},       {"dst", 2, false},          {"maxa", 2, true},
}};

struct ScalarInfo {
  std::string_view name;
  ScalarForm form;
  bool changes_state;
};
constexpr ScalarForm k0 = ScalarForm::kNone, k1 = ScalarForm::kOne, k2 = ScalarForm::kTwoComponent,
                     kCT = ScalarForm::kConstTemp;
constexpr std::array<ScalarInfo, kScalarOpCount> kScalar = {{
    {"adds", k2, false},      {"adds_prev", k1, false}, {"muls", k2, false},
    {"muls_prev", k1, false}, {"muls_prev2", k2, false}, {"maxs", k2, false},
    {"mins", k2, false},      {"seqs", k1, false},      {"sgts", k1, false},
    {"sges", k1, false},      {"snes", k1, false},      {"frcs", k1, false},
    {"truncs", k1, false},    {"floors", k1, false},    {"exp", k1, false},
    {"logc", k1, false},      {"log", k1, false},       {"rcpc", k1, false},
    {"rcpf", k1, false},      {"rcp", k1, false},       {"rsqc", k1, false},
    {"rsqf", k1, false},      {"rsq", k1, false},       {"maxas", k2, true},
    {"maxasf", k2, true},     {"subs", k2, false},      {"subs_prev", k1, false},
    {"setp_eq", k1, true},    {"setp_ne", k1, true},    {"setp_gt", k1, true},
    {"setp_ge", k1, true},    {"setp_inv", k1, true},   {"setp_pop", k1, true},
    {"setp_clr", k0, true},   {"setp_rstr", k1, true},  {"kills_eq", k1, true},
    {"kills_gt", k1, true},   {"kills_ge", k1, true},   {"kills_ne", k1, true},
    {"kills_one", k1, true},  {"sqrt", k1, false},      {"", k0, false},
    {"mulsc", kCT, false},    {"mulsc", kCT, false},    {"addsc", kCT, false},
    {"addsc", kCT, false},    {"subsc", kCT, false},    {"subsc", kCT, false},
    {"sin", k1, false},       {"cos", k1, false},       {"retain_prev", k0, false},
}};

}  // namespace

bool IsExec(CfOpcode op) {
  switch (op) {
    case CfOpcode::kExec: case CfOpcode::kExecEnd: case CfOpcode::kCondExec:
    case CfOpcode::kCondExecEnd: case CfOpcode::kCondExecPred: case CfOpcode::kCondExecPredEnd:
    case CfOpcode::kCondExecPredClean: case CfOpcode::kCondExecPredCleanEnd:
      return true;
    default:
      return false;
  }
}
bool IsExecEnd(CfOpcode op) {
  return op == CfOpcode::kExecEnd || op == CfOpcode::kCondExecEnd ||
         op == CfOpcode::kCondExecPredEnd || op == CfOpcode::kCondExecPredCleanEnd;
}
bool IsCondExecBool(CfOpcode op) {
  return op == CfOpcode::kCondExec || op == CfOpcode::kCondExecEnd ||
         op == CfOpcode::kCondExecPredClean || op == CfOpcode::kCondExecPredCleanEnd;
}
bool IsCondExecPred(CfOpcode op) {
  return op == CfOpcode::kCondExecPred || op == CfOpcode::kCondExecPredEnd;
}

bool IsValidVectorOp(uint32_t op) { return op < kVectorOpCount; }
bool IsValidScalarOp(uint32_t op) { return op < kScalarOpCount && op != 41; }
bool IsValidFetchOp(uint32_t op) {
  return op == 0 || op == 1 || (op >= 16 && op <= 19) || (op >= 24 && op <= 26);
}

std::string_view VectorOpName(VectorOp op) { return kVector.at(uint32_t(op)).name; }
std::string_view ScalarOpName(ScalarOp op) { return kScalar.at(uint32_t(op)).name; }
uint32_t VectorOpOperandCount(VectorOp op) { return kVector.at(uint32_t(op)).operands; }
ScalarForm ScalarOpForm(ScalarOp op) { return kScalar.at(uint32_t(op)).form; }
bool VectorOpChangesState(VectorOp op) { return kVector.at(uint32_t(op)).changes_state; }
bool ScalarOpChangesState(ScalarOp op) { return kScalar.at(uint32_t(op)).changes_state; }

}  // namespace xnt::ucode
