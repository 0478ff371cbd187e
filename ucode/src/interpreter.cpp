// CPU interpreter of Xenos microcode. Every rule here mirrors a function of the Vulkan translator
// (renderer/vulkan/translator/src/glsl_prelude.cpp, glsl_emitter.cpp), whose facts are cited from Xenia
// there; where Xenia's own shader_interpreter.cc behaves differently it is said at the spot and in
// docs/interpreter.md. Arithmetic is single precision, operation by operation, without fused
// multiply-adds (x86-64 SSE; the build does not enable FMA contraction for this file).
#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/texture_queries.h"

#include "alu_rules.h"
#include "xnt/ucode/memexport.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>

namespace xnt::ucode {

namespace {

// Float -> int the way a GPU conversion saturates, without C++ undefined behaviour.
int64_t FloorToInt(float v) {
  if (std::isnan(v)) return 0;
  double f = std::floor(double(v));
  if (f < -2147483648.0) return -2147483648LL;
  if (f > 2147483647.0) return 2147483647LL;
  return int64_t(f);
}

uint32_t BitsExtract(uint32_t word, uint32_t offset, uint32_t width) {
  return width >= 32 ? word : (word >> offset) & ((1u << width) - 1u);
}

float UnpackComponent(uint32_t word, uint32_t offset, uint32_t width, bool is_signed,
                      bool normalized, bool signed_rf_no_zero) {
  uint32_t raw = BitsExtract(word, offset, width);
  if (is_signed) {
    // Sign-extend `width` bits.
    int32_t v = int32_t(raw << (32 - width)) >> (32 - width);
    float f = float(v);
    if (!normalized) return f;
    if (signed_rf_no_zero) return (f + 0.5f) * 2.0f / float((1u << width) - 1u);
    return std::max(-1.0f, f / float((1u << (width - 1u)) - 1u));
  }
  float f = float(raw);
  return normalized ? f / float((1u << width) - 1u) : f;
}

float Unpack32(uint32_t word, bool is_signed, bool normalized, bool signed_rf_no_zero) {
  if (is_signed) {
    float v = float(int32_t(word));
    if (!normalized) return v;
    return signed_rf_no_zero ? (v + 0.5f) / 2147483647.5f : v / 2147483647.0f;
  }
  float v = float(word);
  return normalized ? v / 4294967295.0f : v;
}

}  // namespace

uint32_t EndianSwap32(uint32_t v, uint32_t endian) {
  if (endian == 1 || endian == 2) v = ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu);
  if (endian == 2 || endian == 3) v = (v << 16) | (v >> 16);
  return v;
}

float XenosHalfToFloat(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  float magnitude = exponent == 0
                        ? float(mantissa) * std::ldexp(1.0f, -24)
                        : (1.0f + float(mantissa) / 1024.0f) * std::ldexp(1.0f, int(exponent) - 15);
  return sign ? -magnitude : magnitude;
}

Float4 RunVertexFetch(const FetchInstruction& fetch, float index, const uint32_t* fetch_constants,
                      VertexFetchState& state,
                      const std::function<bool(uint32_t byte_address, uint32_t& word)>& read_memory,
                      const std::function<void(const std::string&)>& note) {
  auto dword = [&](uint32_t i) { return fetch_constants[i % 192]; };
  if (!fetch.is_mini_fetch) {
    uint32_t constant = fetch.VertexFetchConstant();
    if (constant >= 96) {
      note("vertex fetch constant " + std::to_string(constant) + " out of range; wrapped");
      constant %= 96;
    }
    if (fetch.is_index_rounded) index += 0.5f;
    state.slot = constant;
    state.base = uint32_t(int64_t(int32_t(fetch.stride)) * FloorToInt(index)) + (dword(constant * 2) >> 2);
  }
  if (fetch.format == 0) {
    note("vertex fetch with format 0 (patched at run time by the title): returns zeros");
  }
  const uint32_t d0 = dword(state.slot * 2), d1 = dword(state.slot * 2 + 1);
  const uint32_t base = d0 >> 2, endian = d1 & 3, size = (d1 >> 2) & 0xFFFFFF;
  uint32_t words[4] = {};
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t address = state.base + uint32_t(fetch.offset) + i;
    if (address < base || address - base >= size) continue;  // outside the buffer: 0
    uint32_t word = 0;
    if (read_memory && read_memory(address << 2, word)) words[i] = EndianSwap32(word, endian);
  }
  return DecodeVertexElement(words, fetch.format, fetch.is_signed, !fetch.is_integer,
                             fetch.signed_rf_mode, fetch.exp_adjust);
}

Float4 DecodeVertexElement(const uint32_t words[4], uint32_t format, bool is_signed,
                           bool normalized, bool rf, int32_t exp_adjust) {
  Float4 r{0.0f, 0.0f, 0.0f, 1.0f};
  const uint32_t w0 = words[0];
  uint32_t n = 4;  // components the format has (exp_adjust scales only those)
  auto c = [&](uint32_t word, uint32_t offset, uint32_t width) {
    return UnpackComponent(word, offset, width, is_signed, normalized, rf);
  };
  switch (format) {
    case 6:  // k_8_8_8_8
      r = {c(w0, 0, 8), c(w0, 8, 8), c(w0, 16, 8), c(w0, 24, 8)};
      break;
    case 7:  // k_2_10_10_10
      r = {c(w0, 0, 10), c(w0, 10, 10), c(w0, 20, 10), c(w0, 30, 2)};
      break;
    case 16:  // k_10_11_11
      n = 3;
      r[0] = c(w0, 0, 11), r[1] = c(w0, 11, 11), r[2] = c(w0, 22, 10);
      break;
    case 17:  // k_11_11_10
      n = 3;
      r[0] = c(w0, 0, 10), r[1] = c(w0, 10, 11), r[2] = c(w0, 21, 11);
      break;
    case 25:  // k_16_16
      n = 2;
      r[0] = c(w0, 0, 16), r[1] = c(w0, 16, 16);
      break;
    case 26:  // k_16_16_16_16
      r = {c(w0, 0, 16), c(w0, 16, 16), c(words[1], 0, 16), c(words[1], 16, 16)};
      break;
    case 31:  // k_16_16_FLOAT
      n = 2;
      r[0] = XenosHalfToFloat(uint16_t(w0)), r[1] = XenosHalfToFloat(uint16_t(w0 >> 16));
      break;
    case 32:  // k_16_16_16_16_FLOAT
      r = {XenosHalfToFloat(uint16_t(w0)), XenosHalfToFloat(uint16_t(w0 >> 16)),
           XenosHalfToFloat(uint16_t(words[1])), XenosHalfToFloat(uint16_t(words[1] >> 16))};
      break;
    case 33:  // k_32
      n = 1;
      r[0] = Unpack32(w0, is_signed, normalized, rf);
      break;
    case 34:  // k_32_32
      n = 2;
      r[0] = Unpack32(w0, is_signed, normalized, rf);
      r[1] = Unpack32(words[1], is_signed, normalized, rf);
      break;
    case 35:  // k_32_32_32_32
      for (size_t i = 0; i < 4; ++i) r[i] = Unpack32(words[i], is_signed, normalized, rf);
      break;
    case 36:  // k_32_FLOAT
      n = 1;
      r[0] = std::bit_cast<float>(w0);
      break;
    case 37:  // k_32_32_FLOAT
      n = 2;
      r[0] = std::bit_cast<float>(w0), r[1] = std::bit_cast<float>(words[1]);
      break;
    case 38:  // k_32_32_32_32_FLOAT
      for (size_t i = 0; i < 4; ++i) r[i] = std::bit_cast<float>(words[i]);
      break;
    case 57:  // k_32_32_32_FLOAT
      n = 3;
      for (size_t i = 0; i < 3; ++i) r[i] = std::bit_cast<float>(words[i]);
      break;
    default:
      return {0.0f, 0.0f, 0.0f, 0.0f};
  }
  if (exp_adjust != 0) {
    const float scale = std::ldexp(1.0f, exp_adjust);
    for (uint32_t i = 0; i < n; ++i) r[i] *= scale;
  }
  return r;
}

namespace {

class Machine {
 public:
  Machine(const Shader& shader, const InterpreterConstants& constants,
          const InterpreterCallbacks& callbacks, ShaderResult& result)
      : shader_(shader), k_(constants), cb_(callbacks), out_(result) {}

  void Run(const ShaderInputs& inputs);
  void RunProgram(const ShaderInputs& inputs);

 private:
  bool pixel() const { return shader_.type == ShaderType::kPixel; }
  void Note(const std::string& note) {
    if (std::find(out_.notes.begin(), out_.notes.end(), note) == out_.notes.end()) {
      out_.notes.push_back(note);
    }
  }
  bool BoolConstant(uint32_t i) const {
    i &= 0xFF;
    return ((k_.bool_constants[i >> 5] >> (i & 31)) & 1) != 0;
  }
  uint32_t LoopConstant(uint32_t i) const { return k_.loop_constants[i & 31]; }
  uint32_t FetchDword(uint32_t i) const { return k_.fetch_constants[i % 192]; }
  Float4& Temp(uint32_t index, bool aL_relative) {
    return r_[aL_relative ? uint32_t(int32_t(index) + aL_) & 63u : index & 63u];
  }
  const Float4& OperandBase(const Operand& op) {
    if (op.is_temp) return Temp(op.index, op.relative == RelativeMode::kAL);
    if (op.relative == RelativeMode::kNone) return k_.float_constants[op.index & 255];
    // Relative constants wrap inside the stage's 256 (as the translator does). Xenia's
    // interpreter reads zeros for indices outside SQ_VS_CONST/SQ_PS_CONST instead.
    int32_t reg = op.relative == RelativeMode::kA0 ? a0_ : aL_;
    return k_.float_constants[uint32_t(int32_t(op.index) + reg) & 255u];
  }
  float Modify(const Operand& op, float v) const {
    if (op.absolute) v = std::fabs(v);
    if (op.negate) v = -v;
    return v;
  }
  Float4 ReadVector(const Operand& op) {
    const Float4& base = OperandBase(op);
    Float4 v;
    for (size_t c = 0; c < 4; ++c) v[c] = Modify(op, base[op.swizzle[c] & 3]);
    return v;
  }
  float ReadScalar(const Operand& op, uint32_t position) {
    return Modify(op, OperandBase(op)[op.swizzle[position & 3] & 3]);
  }

  bool ExecBody(const CfInstruction& cf);  // false: the pixel was killed
  bool Alu(const AluInstruction& alu);     // false: killed
  void Store(const AluInstruction& alu, const Float4& vector, bool have_vector, float scalar);
  void Fetch(const FetchInstruction& fetch);
  void VertexFetch(const FetchInstruction& fetch);
  void TextureFetch(const FetchInstruction& fetch);
  void StoreFetch(const FetchInstruction& fetch, const Float4& value);
  // Memexport: writes the eM# written since the last flush (memexport.h) and clears their
  // written bits. `reset` (at alloc) also zeroes eM# as Xenia does; eA is zeroed by alloc export.
  void FlushExports();
  void WriteElement(uint32_t address, const memexport::Element& e);

  const Shader& shader_;
  const InterpreterConstants& k_;
  const InterpreterCallbacks& cb_;
  ShaderResult& out_;

  std::array<Float4, 64> r_{};
  int32_t a0_ = 0, aL_ = 0;
  bool p0_ = false;
  float ps_ = 0.0f;
  alu_rules::ControlStack cs_;
  VertexFetchState vf_;
  TextureRegisters tex_;  // setTexLOD / setGradientH / setGradientV
  Float4 eA_{};
  std::array<Float4, 5> eM_{};
  uint32_t eM_written_ = 0;  // bit k: eM#k written since the last flush
};

void Machine::WriteElement(uint32_t address, const memexport::Element& e) {
  auto write = [&](uint32_t dword_address, uint32_t value, uint32_t mask) {
    if (cb_.write_memory && !cb_.write_memory(dword_address, value, mask)) {
      ++out_.memexport_dropped_outside_memory;
      Note("memexport to an address outside guest memory: dropped");
    }
  };
  if (e.bytes < 4) {
    // 8/16-bit elements: the low bits of the (swapped) packed value into their byte or halfword
    // of the containing dword (Xenia ExportToMemory, element sizes 0 and 1).
    const uint32_t shift = 8u * (address & 3u);
    const uint32_t mask = (e.bytes == 1 ? 0xFFu : 0xFFFFu) << shift;
    write(address & ~3u, e.words[0] << shift, mask);
    return;
  }
  for (uint32_t d = 0; d < e.bytes / 4; ++d) write(address + 4u * d, e.words[d], ~0u);
}

void Machine::FlushExports() {
  const uint32_t written = eM_written_;
  if (!written) return;
  eM_written_ = 0;
  uint32_t ea[4];
  for (size_t i = 0; i < 4; ++i) ea[i] = std::bit_cast<uint32_t>(eA_[i]);
  const uint32_t count = uint32_t(std::popcount(written));
  if (!memexport::AddressValid(ea)) {
    out_.memexport_dropped_invalid += count;
    Note("memexport with an eA lacking the stream-constant marker bits: dropped");
    return;
  }
  const uint32_t format = (ea[2] >> 8) & 0x3F;
  const uint32_t bytes = memexport::ElementBytes(format);
  if (!bytes) {
    out_.memexport_dropped_invalid += count;
    Note("memexport format " + memexport::FormatName(format) + " not implemented: dropped");
    return;
  }
  const uint32_t index = ea[1] & 0x7FFFFFu, elements = ea[3] & 0x7FFFFFu;
  const int64_t remaining = std::clamp<int64_t>(int64_t(elements) - int64_t(index), 0, 5);
  // (X << 2) drops the marker bits; the sum wraps in 32 bits as on the GPU.
  const uint32_t address0 = (ea[0] << 2) + index * bytes;
  for (uint32_t k = 0; k < 5; ++k) {
    if (!(written & (1u << k))) continue;
    if (int64_t(k) >= remaining) {
      ++out_.memexport_dropped_index;
      continue;
    }
    ++out_.memexport_elements;
    WriteElement(address0 + k * bytes, memexport::Pack(eM_[k], ea[2]));
  }
}

void Machine::Run(const ShaderInputs& inputs) {
  RunProgram(inputs);
  // The end of the shader flushes what is pending (a killed pixel flushed before its kill).
  if (!out_.killed) FlushExports();
}

void Machine::RunProgram(const ShaderInputs& inputs) {
  if (pixel()) {
    const uint32_t count = std::min<uint32_t>(inputs.interpolator_count, 16);
    for (uint32_t i = 0; i < count; ++i) r_[i] = inputs.interpolators[i];
    if (inputs.param_gen_register >= 0 && inputs.param_gen_register < 64) {
      r_[size_t(inputs.param_gen_register)] = inputs.param_gen;
    }
  } else if (inputs.domain) {
    r_[0] = inputs.domain_r0;
    r_[1] = inputs.domain_r1;
  } else {
    r_[0][0] = inputs.vertex_index;
  }
  const int32_t cf_count = int32_t(shader_.cf.size());
  int32_t pc = 0;
  uint32_t steps = 0;
  auto target = [&](uint32_t address) { return address < uint32_t(cf_count) ? int32_t(address) : -1; };
  while (pc >= 0 && pc < cf_count) {
    if (++steps > Interpreter::kMaxControlFlowSteps) {
      out_.step_limit_hit = true;
      Note("control flow exceeded " + std::to_string(Interpreter::kMaxControlFlowSteps) +
           " steps; execution cut off");
      return;
    }
    const CfInstruction& cf = shader_.cf[size_t(pc)];
    int32_t next = pc + 1;
    switch (cf.opcode) {
      case CfOpcode::kNop:
      case CfOpcode::kMarkVsFetchDone:
        break;
      case CfOpcode::kAlloc:
        // Every alloc ends the export sequence before it (Xenia ProcessAllocInstruction): flush,
        // then eM# start from zero; an alloc export starts a new one with eA zero (invalid).
        FlushExports();
        eM_ = {};
        if (cf.alloc_type == AllocType::kMemory) eA_ = {};
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
        if (IsCondExecBool(cf.opcode)) {
          // 13/14 use the cexec layout (Xenia shader_translator.cc); the "predicate clean" bit
          // has no effect, as in the translator.
          run = BoolConstant(cf.CondBoolAddress()) == cf.condition;
        } else if (IsCondExecPred(cf.opcode)) {
          run = p0_ == cf.condition;
        }
        if (run && !ExecBody(cf)) return;
        // The *_END forms end the program whether their condition held or not (translator).
        // Xenia's interpreter only ends when the exec ran.
        if (IsExecEnd(cf.opcode)) return;
        break;
      }
      case CfOpcode::kLoopStart:
        if (!cs_.LoopStart(LoopConstant(cf.loop_id), cf.is_repeat, aL_)) next = target(cf.address);
        break;
      case CfOpcode::kLoopEnd:
        if (cs_.LoopEnd(LoopConstant(cf.loop_id), cf.is_predicated_break && p0_ == cf.condition,
                        aL_)) {
          next = target(cf.address);
        }
        break;
      case CfOpcode::kCondCall:
      case CfOpcode::kCondJmp: {
        bool taken = cf.is_unconditional ||
                     (cf.is_predicated ? p0_ == cf.condition
                                       : BoolConstant(cf.bool_address) == cf.condition);
        if (!taken) break;
        if (cf.opcode == CfOpcode::kCondCall) cs_.Call(pc + 1);
        next = target(cf.address);
        break;
      }
      case CfOpcode::kReturn:
        next = cs_.Return();
        break;
    }
    pc = next;
  }
}

bool Machine::ExecBody(const CfInstruction& cf) {
  for (uint32_t k = 0; k < cf.count; ++k) {
    const uint32_t slot = cf.address + k;
    if (slot < shader_.cf_slots || slot - shader_.cf_slots >= shader_.slots.size()) {
      Note("exec slot " + std::to_string(slot) + " is outside the microcode; skipped");
      continue;
    }
    const Instruction& instruction = shader_.AtSlot(slot);
    // A serialized instruction ends the export sequence before it (XNA's shader validator, seed
    // 004): pending eM# are flushed; eA and the eM# values stay.
    if (cf.IsSerialized(k)) FlushExports();
    ++out_.instructions_executed;
    if (instruction.kind == SlotKind::kFetch) {
      const FetchInstruction& f = instruction.fetch;
      if (f.is_predicated && p0_ != f.predicate_condition) continue;
      Fetch(f);
    } else {
      const AluInstruction& a = instruction.alu;
      if (a.is_predicated && p0_ != a.predicate_condition) continue;
      if (!Alu(a)) return false;
    }
  }
  return true;
}

bool Machine::Alu(const AluInstruction& alu) {
  // Every source is read before any result or side effect is written.
  const uint32_t vector_count = std::min<uint32_t>(VectorOpOperandCount(alu.vector_op), 3);
  Float4 src[3]{};
  for (uint32_t i = 0; i < vector_count; ++i) src[i] = ReadVector(alu.VectorOperand(i));
  std::vector<Operand> sops = alu.ScalarOperands();
  const ScalarForm form = ScalarOpForm(alu.scalar_op);
  float sa = 0.0f, sb = 0.0f;
  if ((form == ScalarForm::kOne || form == ScalarForm::kTwoComponent) && !sops.empty()) {
    sa = ReadScalar(sops[0], 0);
    if (form == ScalarForm::kTwoComponent) sb = ReadScalar(sops[0], 1);
  } else if (form == ScalarForm::kConstTemp && sops.size() >= 2) {
    sa = ReadScalar(sops[0], 0);
    sb = ReadScalar(sops[1], 0);
  }
  const Float4& a = src[0];
  const Float4& b = src[1];
  const Float4& c = src[2];

  // ---- Vector op, then scalar op (ps keeps the unsaturated result).
  alu_rules::LaneState lane{a0_, p0_, ps_};
  Float4 v{};
  bool vkill = false, skill = false;
  const bool have_vector = alu_rules::VectorOpResult(alu.vector_op, a, b, c, lane, v, vkill);
  if (!have_vector) {
    Note("vector opcode " + std::to_string(int(alu.vector_op)) + " is not valid; no result");
  }
  if (vkill) {
    if (pixel()) {
      FlushExports();  // exports before the kill happen (Xenia KillPixel)
      out_.killed = true;
      return false;
    }
    out_.vertex_kill = true;
  }
  if (!alu_rules::ScalarOpResult(alu.scalar_op, sa, sb, lane, skill)) {
    Note("scalar opcode " + std::to_string(int(alu.scalar_op)) + " is not valid; ps kept");
  }
  a0_ = lane.a0, p0_ = lane.p0, ps_ = lane.ps;
  if (skill) {
    if (pixel()) {
      FlushExports();
      out_.killed = true;
      return false;
    }
    out_.vertex_kill = true;
  }
  if (alu.vector_clamp) {
    for (float& x : v) x = alu_rules::Sat(x);
  }
  Store(alu, v, have_vector, alu.scalar_clamp ? alu_rules::Sat(ps_) : ps_);
  return true;
}

void Machine::Store(const AluInstruction& alu, const Float4& vector, bool have_vector,
                    float scalar) {
  const uint32_t vmask = have_vector ? alu.VectorResultMask() : 0;
  const uint32_t smask = alu.ScalarResultMask();
  if (!alu.export_data) {
    if (vmask) {
      Float4& d = Temp(alu.vector_dest, alu.vector_dest_rel);
      for (size_t i = 0; i < 4; ++i) {
        if (vmask & (1u << i)) d[i] = vector[i];
      }
    }
    if (smask) {
      Float4& d = Temp(alu.scalar_dest, alu.scalar_dest_rel);
      for (size_t i = 0; i < 4; ++i) {
        if (smask & (1u << i)) d[i] = scalar;
      }
    }
    return;
  }
  // Exports: vector, else scalar, else constant 1, else constant 0 per component, into the export
  // register named by vector_dest (Xenia ucode.h GetConstant0WriteMask etc.).
  const uint32_t one = alu.Constant1Mask(), zero = alu.Constant0Mask();
  const uint32_t mask = vmask | smask | one | zero;
  if (!mask) return;
  Float4 value{};
  for (size_t i = 0; i < 4; ++i) {
    const uint32_t bit = 1u << i;
    value[i] = (vmask & bit) ? vector[i] : (smask & bit) ? scalar : (one & bit) ? 1.0f : 0.0f;
  }
  auto write = [&](Float4& target) {
    for (size_t i = 0; i < 4; ++i) {
      if (mask & (1u << i)) target[i] = value[i];
    }
  };
  const uint32_t dest = alu.vector_dest;
  if (dest == kExportAddress) {
    out_.memexport = true;
    write(eA_);
  } else if (dest >= kExportData0 && dest <= kExportData0 + 4) {
    out_.memexport = true;
    write(eM_[dest - kExportData0]);
    eM_written_ |= 1u << (dest - kExportData0);
  } else if (pixel()) {
    if (dest < 4) {
      write(out_.colors[dest]);
      out_.color_mask |= 1u << dest;
    } else if (dest == kExportDepth) {
      if (mask & 1) {
        out_.depth = value[0];
        out_.depth_written = true;
      }
    } else {
      Note("pixel export to register " + std::to_string(dest) + " is not a known destination");
    }
  } else {
    if (dest < 16) {
      write(out_.interpolators[dest]);
      out_.interpolator_mask |= 1u << dest;
    } else if (dest == kExportPosition) {
      write(out_.position);
      out_.position_mask |= mask;
    } else if (dest == kExportPointSize) {
      write(out_.point_size);
      out_.point_size_mask |= mask;
    } else {
      Note("vertex export to register " + std::to_string(dest) + " is not a known destination");
    }
  }
}

void Machine::StoreFetch(const FetchInstruction& fetch, const Float4& value) {
  Float4& d = Temp(fetch.dst_reg, fetch.dst_rel);
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t sel = fetch.DestComponent(c);
    if (sel == 7) continue;  // keep
    d[c] = sel < 4 ? value[sel] : sel == 5 ? 1.0f : 0.0f;  // 4 zero; 6 (unknown) as zero
  }
}

void Machine::Fetch(const FetchInstruction& fetch) {
  if (fetch.IsVertex()) {
    VertexFetch(fetch);
  } else {
    TextureFetch(fetch);
  }
}

void Machine::VertexFetch(const FetchInstruction& fetch) {
  const float index = fetch.is_mini_fetch ? 0.0f : Temp(fetch.src_reg, fetch.src_rel)[fetch.src_swizzle & 3];
  StoreFetch(fetch, RunVertexFetch(fetch, index, k_.fetch_constants.data(), vf_, cb_.read_memory,
                                   [this](const std::string& n) { Note(n); }));
}

void Machine::TextureFetch(const FetchInstruction& fetch) {
  const uint32_t slot = fetch.const_index & 31;
  const Float4& src = Temp(fetch.src_reg, fetch.src_rel);
  Float4 coords{0.0f, 0.0f, 0.0f, 0.0f};
  for (uint32_t c = 0; c < 3; ++c) coords[c] = src[(fetch.src_swizzle >> (2 * c)) & 3];
  switch (fetch.opcode) {
    case FetchOp::kSetTextureLod:
      tex_.lod = coords[0];
      return;
    case FetchOp::kSetTextureGradientsHorz:
      tex_.grad_h = coords;
      return;
    case FetchOp::kSetTextureGradientsVert:
      tex_.grad_v = coords;
      return;
    case FetchOp::kGetTextureWeights:
      if (!cb_.texture_size) {
        Note("getWeights without a texture size callback: zeros");
        StoreFetch(fetch, {0.0f, 0.0f, 0.0f, 0.0f});
        return;
      }
      StoreFetch(fetch, TextureWeights(fetch, coords, cb_.texture_size(slot, fetch)));
      return;
    case FetchOp::kGetTextureComputedLod:
    case FetchOp::kGetTextureGradients:
      // A vertex has no screen derivatives (the translator returns zeros there too); a pixel
      // run alone here has lost its 2x2 quad.
      if (pixel()) Note("getCompTexLOD/getGradients of a pixel shaded without its 2x2 quad: zeros");
      StoreFetch(fetch, {0.0f, 0.0f, 0.0f, 0.0f});
      return;
    default:
      break;
  }
  const bool explicit_lod = FetchHasExplicitLod(fetch, pixel()) && cb_.texture_fetch_explicit;
  if (!explicit_lod && !cb_.texture_fetch) {
    Note("texture fetch without a texture callback: zeros");
    StoreFetch(fetch, {0.0f, 0.0f, 0.0f, 0.0f});
    return;
  }
  Float4 texel = explicit_lod ? cb_.texture_fetch_explicit(slot, coords, fetch, tex_)
                              : cb_.texture_fetch(slot, coords, fetch);
  // The fetch constant's swizzle (dword 3 bits 1..12: 0-3 = x-w, 4 = 0, 5 = 1), as the
  // translator's xe_texture_swizzle. getBCF's fraction is no texel: x alone, the rest 0.
  const uint32_t swizzle = fetch.opcode == FetchOp::kGetTextureBorderColorFrac
                               ? kBorderFractionSwizzle
                               : (FetchDword(slot * 6 + 3) >> 1) & 0xFFF;
  Float4 r;
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t s = (swizzle >> (3 * i)) & 7;
    r[i] = s < 4 ? texel[s] : s == 5 ? 1.0f : 0.0f;
  }
  StoreFetch(fetch, r);
}

}  // namespace

ShaderResult Interpreter::Run(const InterpreterConstants& constants, const ShaderInputs& inputs,
                              const InterpreterCallbacks& callbacks) const {
  ShaderResult result;
  Machine machine(shader_, constants, callbacks, result);
  machine.Run(inputs);
  return result;
}

}  // namespace xnt::ucode
