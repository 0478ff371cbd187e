// Field-level decoding and encoding of CF, ALU and fetch instructions.
// Bit positions: Xenia src/xenia/gpu/ucode.h (ControlFlow*Instruction, AluInstruction,
// VertexFetchInstruction, TextureFetchInstruction), from freedreno instr-a2xx.h.
#include <string>

#include "xnt/base/error.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode {
namespace {

constexpr uint32_t Get(uint32_t v, uint32_t shift, uint32_t width) {
  return (v >> shift) & ((width >= 32) ? ~0u : ((1u << width) - 1u));
}
constexpr int32_t GetSigned(uint32_t v, uint32_t shift, uint32_t width) {
  uint32_t x = Get(v, shift, width);
  uint32_t sign = 1u << (width - 1);
  return int32_t(x ^ sign) - int32_t(sign);
}
constexpr uint32_t Put(uint32_t value, uint32_t shift, uint32_t width) {
  return (value & ((width >= 32) ? ~0u : ((1u << width) - 1u))) << shift;
}

// 48-bit CF accessors with a running mask of the bits the opcode's form names.
struct CfBits {
  uint64_t bits;
  uint64_t known = 0;
  uint32_t take(uint32_t shift, uint32_t width) {
    uint64_t mask = ((uint64_t(1) << width) - 1) << shift;
    known |= mask;
    return uint32_t((bits & mask) >> shift);
  }
};
constexpr uint64_t Put64(uint64_t value, uint32_t shift, uint32_t width) {
  return (value & ((uint64_t(1) << width) - 1)) << shift;
}

enum class CfForm { kNone, kExec, kCondExec, kPredExec, kLoopStart, kLoopEnd, kCallJmp, kReturn, kAlloc };
CfForm FormOf(CfOpcode op) {
  switch (op) {
    case CfOpcode::kExec: case CfOpcode::kExecEnd: return CfForm::kExec;
    case CfOpcode::kCondExec: case CfOpcode::kCondExecEnd:
      return CfForm::kCondExec;
    // 13/14 carry a bool constant in bits 34-41 (Xenia shader_translator.cc uses the cond_exec
    // layout); the fields stay as first released (bits 34-40 in pad, bit 41 predicate_clean),
    // CfInstruction::CondBoolAddress() reassembles the index.
    case CfOpcode::kCondExecPred: case CfOpcode::kCondExecPredEnd:
    case CfOpcode::kCondExecPredClean: case CfOpcode::kCondExecPredCleanEnd:
      return CfForm::kPredExec;
    case CfOpcode::kLoopStart: return CfForm::kLoopStart;
    case CfOpcode::kLoopEnd: return CfForm::kLoopEnd;
    case CfOpcode::kCondCall: case CfOpcode::kCondJmp: return CfForm::kCallJmp;
    case CfOpcode::kReturn: return CfForm::kReturn;
    case CfOpcode::kAlloc: return CfForm::kAlloc;
    default: return CfForm::kNone;
  }
}

}  // namespace

CfInstruction DecodeCf(uint64_t bits48) {
  CfBits b{bits48 & ((uint64_t(1) << 48) - 1)};
  CfInstruction cf;
  cf.opcode = CfOpcode(b.take(44, 4));
  switch (FormOf(cf.opcode)) {
    case CfForm::kExec:
    case CfForm::kCondExec:
    case CfForm::kPredExec:
      cf.address = b.take(0, 12);
      cf.count = b.take(12, 3);
      cf.yield = b.take(15, 1);
      cf.sequence = b.take(16, 12);
      cf.vc = b.take(28, 6);
      if (FormOf(cf.opcode) == CfForm::kCondExec) {
        cf.bool_address = b.take(34, 8);
        cf.condition = b.take(42, 1);
      } else {
        cf.predicate_clean = b.take(41, 1);
        if (FormOf(cf.opcode) == CfForm::kPredExec) cf.condition = b.take(42, 1);
      }
      cf.address_mode = b.take(43, 1);
      break;
    case CfForm::kLoopStart:
      cf.address = b.take(0, 13);
      cf.is_repeat = b.take(13, 1);
      cf.loop_id = b.take(16, 5);
      cf.address_mode = b.take(43, 1);
      break;
    case CfForm::kLoopEnd:
      cf.address = b.take(0, 13);
      cf.loop_id = b.take(16, 5);
      cf.is_predicated_break = b.take(21, 1);
      cf.condition = b.take(42, 1);
      cf.address_mode = b.take(43, 1);
      break;
    case CfForm::kCallJmp:
      cf.address = b.take(0, 13);
      cf.is_unconditional = b.take(13, 1);
      cf.is_predicated = b.take(14, 1);
      if (cf.opcode == CfOpcode::kCondJmp) cf.direction = b.take(33, 1);
      cf.bool_address = b.take(34, 8);
      cf.condition = b.take(42, 1);
      cf.address_mode = b.take(43, 1);
      break;
    case CfForm::kReturn:
      cf.address_mode = b.take(43, 1);
      break;
    case CfForm::kAlloc:
      cf.alloc_size = b.take(0, 3);
      cf.is_unserialized = b.take(40, 1);
      cf.alloc_type = AllocType(b.take(41, 2));
      break;
    case CfForm::kNone:
      break;
  }
  cf.pad = b.bits & ~b.known;
  return cf;
}

uint64_t EncodeCf(const CfInstruction& cf) {
  uint64_t v = Put64(uint32_t(cf.opcode), 44, 4);
  switch (FormOf(cf.opcode)) {
    case CfForm::kExec:
    case CfForm::kCondExec:
    case CfForm::kPredExec:
      v |= Put64(cf.address, 0, 12) | Put64(cf.count, 12, 3) | Put64(cf.yield, 15, 1) |
           Put64(cf.sequence, 16, 12) | Put64(cf.vc, 28, 6) | Put64(cf.address_mode, 43, 1);
      if (FormOf(cf.opcode) == CfForm::kCondExec) {
        v |= Put64(cf.bool_address, 34, 8) | Put64(cf.condition, 42, 1);
      } else {
        v |= Put64(cf.predicate_clean, 41, 1);
        if (FormOf(cf.opcode) == CfForm::kPredExec) v |= Put64(cf.condition, 42, 1);
      }
      break;
    case CfForm::kLoopStart:
      v |= Put64(cf.address, 0, 13) | Put64(cf.is_repeat, 13, 1) | Put64(cf.loop_id, 16, 5) |
           Put64(cf.address_mode, 43, 1);
      break;
    case CfForm::kLoopEnd:
      v |= Put64(cf.address, 0, 13) | Put64(cf.loop_id, 16, 5) |
           Put64(cf.is_predicated_break, 21, 1) | Put64(cf.condition, 42, 1) |
           Put64(cf.address_mode, 43, 1);
      break;
    case CfForm::kCallJmp:
      v |= Put64(cf.address, 0, 13) | Put64(cf.is_unconditional, 13, 1) |
           Put64(cf.is_predicated, 14, 1) | Put64(cf.bool_address, 34, 8) |
           Put64(cf.condition, 42, 1) | Put64(cf.address_mode, 43, 1);
      if (cf.opcode == CfOpcode::kCondJmp) v |= Put64(cf.direction, 33, 1);
      break;
    case CfForm::kReturn:
      v |= Put64(cf.address_mode, 43, 1);
      break;
    case CfForm::kAlloc:
      v |= Put64(cf.alloc_size, 0, 3) | Put64(cf.is_unserialized, 40, 1) |
           Put64(uint32_t(cf.alloc_type), 41, 2);
      break;
    case CfForm::kNone:
      break;
  }
  return v | (cf.pad & ((uint64_t(1) << 44) - 1));
}

std::vector<uint32_t> PackCf(std::span<const CfInstruction> cf) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < cf.size(); i += 2) {
    uint64_t a = EncodeCf(cf[i]);
    uint64_t b = i + 1 < cf.size() ? EncodeCf(cf[i + 1]) : 0;
    // Xenia ucode.h UnpackControlFlowInstructions: CF0 = d0 + low 16 of d1; CF1 = high 16 of
    // d1 + d2.
    out.push_back(uint32_t(a));
    out.push_back(uint32_t(a >> 32) | (uint32_t(b) << 16));
    out.push_back(uint32_t(b >> 16));
  }
  return out;
}

AluInstruction DecodeAlu(const std::array<uint32_t, 3>& raw) {
  const uint32_t d0 = raw[0], d1 = raw[1], d2 = raw[2];
  AluInstruction a;
  uint32_t vop = Get(d2, 24, 5), sop = Get(d0, 26, 6);
  if (!IsValidVectorOp(vop)) throw Error("invalid ALU vector opcode " + std::to_string(vop));
  if (!IsValidScalarOp(sop)) throw Error("invalid ALU scalar opcode " + std::to_string(sop));
  a.vector_op = VectorOp(vop);
  a.scalar_op = ScalarOp(sop);
  a.vector_dest = Get(d0, 0, 6);
  a.vector_dest_rel = Get(d0, 6, 1);
  a.abs_constants = Get(d0, 7, 1);
  a.scalar_dest = Get(d0, 8, 6);
  a.scalar_dest_rel = Get(d0, 14, 1);
  a.export_data = Get(d0, 15, 1);
  a.vector_write_mask = Get(d0, 16, 4);
  a.scalar_write_mask = Get(d0, 20, 4);
  a.vector_clamp = Get(d0, 24, 1);
  a.scalar_clamp = Get(d0, 25, 1);
  for (uint32_t i = 0; i < 3; ++i) {
    // src1 occupies the high fields, src3 the low ones.
    a.src[i].swizzle = Get(d1, 16 - 8 * i, 8);
    a.src[i].negate = Get(d1, 26 - i, 1);
    a.src[i].reg = Get(d2, 16 - 8 * i, 8);
    a.src[i].is_temp = Get(d2, 31 - i, 1);
  }
  a.predicate_condition = Get(d1, 27, 1);
  a.is_predicated = Get(d1, 28, 1);
  a.const_address_register_relative = Get(d1, 29, 1);
  a.const_1_rel = Get(d1, 30, 1);
  a.const_0_rel = Get(d1, 31, 1);
  return a;
}

std::array<uint32_t, 3> EncodeAlu(const AluInstruction& a) {
  uint32_t d0 = Put(a.vector_dest, 0, 6) | Put(a.vector_dest_rel, 6, 1) |
                Put(a.abs_constants, 7, 1) | Put(a.scalar_dest, 8, 6) |
                Put(a.scalar_dest_rel, 14, 1) | Put(a.export_data, 15, 1) |
                Put(a.vector_write_mask, 16, 4) | Put(a.scalar_write_mask, 20, 4) |
                Put(a.vector_clamp, 24, 1) | Put(a.scalar_clamp, 25, 1) |
                Put(uint32_t(a.scalar_op), 26, 6);
  uint32_t d1 = Put(a.predicate_condition, 27, 1) | Put(a.is_predicated, 28, 1) |
                Put(a.const_address_register_relative, 29, 1) | Put(a.const_1_rel, 30, 1) |
                Put(a.const_0_rel, 31, 1);
  uint32_t d2 = Put(uint32_t(a.vector_op), 24, 5);
  for (uint32_t i = 0; i < 3; ++i) {
    d1 |= Put(a.src[i].swizzle, 16 - 8 * i, 8) | Put(a.src[i].negate, 26 - i, 1);
    d2 |= Put(a.src[i].reg, 16 - 8 * i, 8) | Put(a.src[i].is_temp, 31 - i, 1);
  }
  return {d0, d1, d2};
}

FetchInstruction DecodeFetch(const std::array<uint32_t, 3>& raw) {
  const uint32_t d0 = raw[0], d1 = raw[1], d2 = raw[2];
  FetchInstruction f;
  uint32_t op = Get(d0, 0, 5);
  if (!IsValidFetchOp(op)) throw Error("invalid fetch opcode " + std::to_string(op));
  f.opcode = FetchOp(op);
  f.src_reg = Get(d0, 5, 6);
  f.src_rel = Get(d0, 11, 1);
  f.dst_reg = Get(d0, 12, 6);
  f.dst_rel = Get(d0, 18, 1);
  f.const_index = Get(d0, 20, 5);
  f.dst_swizzle = Get(d1, 0, 12);
  f.is_predicated = Get(d1, 31, 1);
  f.predicate_condition = Get(d2, 31, 1);
  if (f.IsVertex()) {
    f.must_be_one = Get(d0, 19, 1);
    f.const_index_sel = Get(d0, 25, 2);
    f.prefetch_count = Get(d0, 27, 3);
    f.src_swizzle = Get(d0, 30, 2);
    f.is_signed = Get(d1, 12, 1);
    f.is_integer = Get(d1, 13, 1);
    f.signed_rf_mode = Get(d1, 14, 1);
    f.is_index_rounded = Get(d1, 15, 1);
    f.format = Get(d1, 16, 6);
    f.pad[1] = d1 & 0x00C00000u;
    f.exp_adjust = GetSigned(d1, 24, 6);
    f.is_mini_fetch = Get(d1, 30, 1);
    f.stride = Get(d2, 0, 8);
    f.offset = GetSigned(d2, 8, 23);
  } else {
    f.fetch_valid_only = Get(d0, 19, 1);
    f.tx_coord_denorm = Get(d0, 25, 1);
    f.src_swizzle = Get(d0, 26, 6);
    f.mag_filter = Get(d1, 12, 2);
    f.min_filter = Get(d1, 14, 2);
    f.mip_filter = Get(d1, 16, 2);
    f.aniso_filter = Get(d1, 18, 3);
    f.arbitrary_filter = Get(d1, 21, 3);
    f.vol_mag_filter = Get(d1, 24, 2);
    f.vol_min_filter = Get(d1, 26, 2);
    f.use_comp_lod = Get(d1, 28, 1);
    f.use_reg_lod = Get(d1, 29, 1);
    f.pad[1] = d1 & 0x40000000u;
    f.use_reg_gradients = Get(d2, 0, 1);
    f.sample_location = Get(d2, 1, 1);
    f.lod_bias = GetSigned(d2, 2, 7);
    f.pad[2] = d2 & 0x00003E00u;
    f.dimension = TextureDimension(Get(d2, 14, 2));
    f.offset_x = GetSigned(d2, 16, 5);
    f.offset_y = GetSigned(d2, 21, 5);
    f.offset_z = GetSigned(d2, 26, 5);
  }
  return f;
}

std::array<uint32_t, 3> EncodeFetch(const FetchInstruction& f) {
  uint32_t d0 = Put(uint32_t(f.opcode), 0, 5) | Put(f.src_reg, 5, 6) | Put(f.src_rel, 11, 1) |
                Put(f.dst_reg, 12, 6) | Put(f.dst_rel, 18, 1) | Put(f.const_index, 20, 5);
  uint32_t d1 = Put(f.dst_swizzle, 0, 12) | Put(f.is_predicated, 31, 1);
  uint32_t d2 = Put(f.predicate_condition, 31, 1);
  if (f.IsVertex()) {
    d0 |= Put(f.must_be_one, 19, 1) | Put(f.const_index_sel, 25, 2) |
          Put(f.prefetch_count, 27, 3) | Put(f.src_swizzle, 30, 2);
    d1 |= Put(f.is_signed, 12, 1) | Put(f.is_integer, 13, 1) | Put(f.signed_rf_mode, 14, 1) |
          Put(f.is_index_rounded, 15, 1) | Put(f.format, 16, 6) | (f.pad[1] & 0x00C00000u) |
          Put(uint32_t(f.exp_adjust), 24, 6) | Put(f.is_mini_fetch, 30, 1);
    d2 |= Put(f.stride, 0, 8) | Put(uint32_t(f.offset), 8, 23);
  } else {
    d0 |= Put(f.fetch_valid_only, 19, 1) | Put(f.tx_coord_denorm, 25, 1) |
          Put(f.src_swizzle, 26, 6);
    d1 |= Put(f.mag_filter, 12, 2) | Put(f.min_filter, 14, 2) | Put(f.mip_filter, 16, 2) |
          Put(f.aniso_filter, 18, 3) | Put(f.arbitrary_filter, 21, 3) |
          Put(f.vol_mag_filter, 24, 2) | Put(f.vol_min_filter, 26, 2) |
          Put(f.use_comp_lod, 28, 1) | Put(f.use_reg_lod, 29, 1) | (f.pad[1] & 0x40000000u);
    d2 |= Put(f.use_reg_gradients, 0, 1) | Put(f.sample_location, 1, 1) |
          Put(uint32_t(f.lod_bias), 2, 7) | (f.pad[2] & 0x00003E00u) |
          Put(uint32_t(f.dimension), 14, 2) | Put(uint32_t(f.offset_x), 16, 5) |
          Put(uint32_t(f.offset_y), 21, 5) | Put(uint32_t(f.offset_z), 26, 5);
  }
  return {d0, d1, d2};
}

uint32_t FetchInstruction::DestWriteMask() const {
  uint32_t mask = 0;
  for (uint32_t c = 0; c < 4; ++c) {
    if (DestComponent(c) != 7) mask |= 1u << c;
  }
  return mask;
}

bool FetchInstruction::HasDestination() const {
  return opcode != FetchOp::kSetTextureLod && opcode != FetchOp::kSetTextureGradientsHorz &&
         opcode != FetchOp::kSetTextureGradientsVert;
}

// ---- ALU semantic views (Xenia ucode.h AluInstruction helpers) ----------------------------------

uint32_t AluInstruction::VectorResultMask() const {
  return export_data ? vector_write_mask & ~scalar_write_mask : vector_write_mask;
}
uint32_t AluInstruction::ScalarResultMask() const {
  return export_data ? scalar_write_mask & ~vector_write_mask : scalar_write_mask;
}
uint32_t AluInstruction::Constant0Mask() const {
  if (!export_data || !scalar_dest_rel) return 0;
  return 0xF & ~(vector_write_mask | scalar_write_mask);
}
uint32_t AluInstruction::Constant1Mask() const {
  return export_data ? vector_write_mask & scalar_write_mask : 0;
}

namespace {
// Xenia ucode.h AluInstruction::src_const_is_addressed: which of the two constant-address flags
// applies to source i depends on how many earlier sources are constants.
bool ConstAddressed(const AluInstruction& a, uint32_t i) {
  switch (i) {
    case 0: return a.const_0_rel;
    case 1: return a.src[0].is_temp ? a.const_0_rel : a.const_1_rel;
    default: return (a.src[0].is_temp && a.src[1].is_temp) ? a.const_0_rel : a.const_1_rel;
  }
}
Operand BaseOperand(const AluInstruction& a, uint32_t i) {
  const AluSource& s = a.src[i];
  Operand op;
  op.is_temp = s.is_temp;
  op.negate = s.negate;
  if (s.is_temp) {
    op.index = s.reg & 0x3F;
    op.relative = (s.reg & 0x40) ? RelativeMode::kAL : RelativeMode::kNone;
    op.absolute = (s.reg & 0x80) != 0;
  } else {
    op.index = s.reg;
    op.absolute = a.abs_constants;
    if (ConstAddressed(a, i)) {
      op.relative = a.const_address_register_relative ? RelativeMode::kA0 : RelativeMode::kAL;
    }
  }
  return op;
}
}  // namespace

Operand AluInstruction::VectorOperand(uint32_t i) const {
  Operand op = BaseOperand(*this, i);
  for (uint32_t c = 0; c < 4; ++c) op.swizzle[c] = uint8_t(((src[i].swizzle >> (2 * c)) + c) & 3);
  op.component_count = 4;
  return op;
}

uint32_t AluInstruction::ScalarConstTempReg() const {
  return (uint32_t(scalar_op) & 1) | (uint32_t(src[2].is_temp) << 1) | (src[2].swizzle & 0x3C);
}

std::vector<Operand> AluInstruction::ScalarOperands() const {
  const uint32_t swz = src[2].swizzle;
  // Xenia shader_translator.cc ParseAluInstructionOperand: the first scalar component comes from
  // the w position of the swizzle, the second from the x position.
  const uint8_t a = uint8_t(((swz >> 6) + 3) & 3), b = uint8_t(swz & 3);
  switch (ScalarOpForm(scalar_op)) {
    case ScalarForm::kNone:
      return {};
    case ScalarForm::kOne: {
      Operand op = BaseOperand(*this, 2);
      op.swizzle = {a, a, a, a};
      op.component_count = 1;
      return {op};
    }
    case ScalarForm::kTwoComponent: {
      Operand op = BaseOperand(*this, 2);
      op.swizzle = {a, b, b, b};
      op.component_count = 2;
      return {op};
    }
    case ScalarForm::kConstTemp: {
      Operand c;
      c.is_temp = false;
      c.index = src[2].reg;
      c.negate = src[2].negate;
      c.absolute = abs_constants;
      if (ConstAddressed(*this, 2)) {
        c.relative = const_address_register_relative ? RelativeMode::kA0 : RelativeMode::kAL;
      }
      c.swizzle = {a, a, a, a};
      c.component_count = 1;
      Operand t;
      t.is_temp = true;
      t.index = ScalarConstTempReg();
      t.negate = src[2].negate;
      t.swizzle = {b, b, b, b};
      t.component_count = 1;
      return {c, t};
    }
  }
  return {};
}

}  // namespace xnt::ucode
