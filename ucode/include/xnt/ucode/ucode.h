// Decoded model of Xenos (Xbox 360 GPU) shader microcode: control-flow, ALU and fetch
// instructions with every field of their encodings, plus the decoder and the encoder
// (model -> bits) that the assembler is built on.
//
// Encodings (bit positions) follow Xenia src/xenia/gpu/ucode.h, whose layouts come from Mesa
// freedreno's instr-a2xx.h (the a2xx is the same ISA family). Every bit of every instruction is represented here:
// named fields where the hardware meaning is known, and `pad` for bits with no known meaning, so
// Encode(Decode(x)) == x for any valid microcode.
//
// Microcode is big-endian in guest memory; the API takes host-order dwords (LoadMicrocodeBE()
// swaps them).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xnt::ucode {

enum class ShaderType : uint8_t { kVertex, kPixel };

// ---- Control flow -------------------------------------------------------------------------------

// Xenia ucode.h ControlFlowOpcode (4 bits, bits 44-47 of the 48-bit CF instruction).
enum class CfOpcode : uint8_t {
  kNop = 0,
  kExec = 1,
  kExecEnd = 2,
  kCondExec = 3,             // on a bool constant
  kCondExecEnd = 4,
  kCondExecPred = 5,         // on the predicate
  kCondExecPredEnd = 6,
  kLoopStart = 7,
  kLoopEnd = 8,
  kCondCall = 9,
  kReturn = 10,
  kCondJmp = 11,
  kAlloc = 12,
  // On a bool constant like kCondExec, and also resetting the predicate: newer Xenia
  // (shader_translator.cc) decodes 13/14 with the cond_exec layout and prints them as plain
  // `cexec`, opcode 3/4 with "PredicateClean=false". CfInstruction keeps the fields of the
  // first release for these (see CondBoolAddress()).
  kCondExecPredClean = 13,
  kCondExecPredCleanEnd = 14,
  kMarkVsFetchDone = 15,
};

enum class AllocType : uint8_t {
  kNone = 0,
  kPosition = 1,       // VS: position (+ point size)
  kInterpolators = 2,  // VS: interpolators; PS: colors (same encoding)
  kMemory = 3,         // memory export (eA/eM#)
};

bool IsExec(CfOpcode op);           // any exec flavour (runs ALU/fetch instructions)
bool IsExecEnd(CfOpcode op);        // exec flavour that ends the shader
bool IsCondExecBool(CfOpcode op);   // cexec on a bool constant (3, 4, 13, 14)
bool IsCondExecPred(CfOpcode op);   // (p0) exec (5, 6)

// One 48-bit control-flow instruction. Only the fields of its opcode's form are meaningful; the
// others are zero. `pad` holds any set bits outside the opcode's known fields (bit positions of
// the 48-bit value: dword 0 = bits 0-31, bits 32-47 = the 16-bit half word).
struct CfInstruction {
  CfOpcode opcode = CfOpcode::kNop;
  // exec family: instruction slot (12 bits); loop/call/jmp: CF instruction index (13 bits).
  uint32_t address = 0;
  uint32_t count = 0;        // exec: number of ALU/fetch instructions (0-6)
  bool yield = false;        // exec
  uint32_t sequence = 0;     // exec: 2 bits per instruction: bit 2k = fetch, bit 2k+1 = serialize
  uint32_t vc = 0;           // exec: 6 bits (28-33); bit k set for a vertex fetch in position k
  bool predicate_clean = false;  // exec, (p0) exec: bit 41 (see CleansPredicate())
  uint32_t bool_address = 0;     // cexec, ccall, cjmp: bool constant index (8 bits)
  bool condition = false;        // required bool / predicate value
  bool address_mode = false;     // bit 43 (Xenia: 0 = relative/aL, 1 = absolute/a0)
  uint32_t loop_id = 0;          // loop_start/loop_end: loop constant index (5 bits)
  bool is_repeat = false;        // loop_start
  bool is_predicated_break = false;  // loop_end
  bool is_unconditional = false;     // call/jmp
  bool is_predicated = false;        // call/jmp (on the predicate instead of a bool constant)
  bool direction = false;            // jmp bit 33
  uint32_t alloc_size = 0;           // alloc (3 bits)
  AllocType alloc_type = AllocType::kNone;
  bool is_unserialized = false;      // alloc bit 40
  uint64_t pad = 0;

  // Helpers over the sequence bits.
  bool IsFetch(uint32_t k) const { return (sequence >> (2 * k)) & 1; }
  // Bool constant tested by cexec (3, 4, 13, 14), ccall and cjmp. For 13/14 the decoder keeps the
  // field split of its first release (bits 34-40 in `pad`, bit 41 in predicate_clean); this
  // accessor puts the index back together.
  uint32_t CondBoolAddress() const {
    if (opcode == CfOpcode::kCondExecPredClean || opcode == CfOpcode::kCondExecPredCleanEnd) {
      return uint32_t((pad >> 34) & 0x7F) | (predicate_clean ? 0x80u : 0u);
    }
    return bool_address;
  }
  // Whether the exec resets the predicate first: bit 41 for exec and (p0) exec, implied by the
  // opcode for cexec (13/14 yes, 3/4 no).
  bool CleansPredicate() const {
    if (opcode == CfOpcode::kCondExecPredClean || opcode == CfOpcode::kCondExecPredCleanEnd) {
      return true;
    }
    return opcode != CfOpcode::kCondExec && opcode != CfOpcode::kCondExecEnd && predicate_clean;
  }
  bool IsSerialized(uint32_t k) const { return (sequence >> (2 * k + 1)) & 1; }
};

// ---- ALU ------------------------------------------------------------------------------------------

// Xenia ucode.h AluVectorOpcode (5 bits). 30 and 31 are not valid.
enum class VectorOp : uint8_t {
  kAdd = 0, kMul, kMax, kMin, kSeq, kSgt, kSge, kSne, kFrc, kTrunc, kFloor, kMad, kCndEq, kCndGe,
  kCndGt, kDp4, kDp3, kDp2Add, kCube, kMax4, kSetpEqPush, kSetpNePush, kSetpGtPush, kSetpGePush,
  kKillEq, kKillGt, kKillGe, kKillNe, kDst, kMaxA,
};
inline constexpr uint32_t kVectorOpCount = 30;

// Xenia ucode.h AluScalarOpcode (6 bits). 41 and 51-63 are not valid.
enum class ScalarOp : uint8_t {
  kAdds = 0, kAddsPrev, kMuls, kMulsPrev, kMulsPrev2, kMaxs, kMins, kSeqs, kSgts, kSges, kSnes,
  kFrcs, kTruncs, kFloors, kExp, kLogc, kLog, kRcpc, kRcpf, kRcp, kRsqc, kRsqf, kRsq, kMaxAs,
  kMaxAsf, kSubs, kSubsPrev, kSetpEq, kSetpNe, kSetpGt, kSetpGe, kSetpInv, kSetpPop, kSetpClr,
  kSetpRstr, kKillsEq, kKillsGt, kKillsGe, kKillsNe, kKillsOne, kSqrt,
  kMulsc0 = 42, kMulsc1, kAddsc0, kAddsc1, kSubsc0, kSubsc1, kSin, kCos, kRetainPrev,
};
inline constexpr uint32_t kScalarOpCount = 51;

bool IsValidVectorOp(uint32_t op);
bool IsValidScalarOp(uint32_t op);
std::string_view VectorOpName(VectorOp op);   // "add", "mad", "setp_eq_push", ...
std::string_view ScalarOpName(ScalarOp op);   // "adds", "mulsc", "retain_prev", ...
// Number of vector source operands (1-3).
uint32_t VectorOpOperandCount(VectorOp op);
// Scalar operand form: 0 operands (retain_prev, setp_clr), 1 one-component, 2 two components of
// one operand ("src.ab": adds, muls, maxs, ...), or a constant plus a temp (mulsc/addsc/subsc).
enum class ScalarForm : uint8_t { kNone, kOne, kTwoComponent, kConstTemp };
ScalarForm ScalarOpForm(ScalarOp op);
// Ops with side effects beyond their destination (predicate, a0, pixel kill).
bool VectorOpChangesState(VectorOp op);
bool ScalarOpChangesState(ScalarOp op);

// Export register numbers (ALU destination when export_data is set). Xenia ucode.h ExportRegister.
inline constexpr uint32_t kExportColor0 = 0;        // PS oC0-oC3: 0-3
inline constexpr uint32_t kExportInterpolator0 = 0; // VS o0-o15: 0-15
inline constexpr uint32_t kExportAddress = 32;      // eA
inline constexpr uint32_t kExportData0 = 33;        // eM0-eM4: 33-37
inline constexpr uint32_t kExportDepth = 61;        // PS oDepth
inline constexpr uint32_t kExportPosition = 62;     // VS oPos
inline constexpr uint32_t kExportPointSize = 63;    // VS oPts (point size, edge flag, kill vertex)

// One raw source operand slot of an ALU instruction (src1..src3).
struct AluSource {
  bool is_temp = true;   // sel bit: 1 = temporary register, 0 = float constant
  uint32_t reg = 0;      // 8 bits. Temp: bits 0-5 index, bit 6 relative (aL), bit 7 absolute value.
  uint32_t swizzle = 0;  // 8 bits, 2 per component, each relative to its position (0 = identity)
  bool negate = false;
};

enum class RelativeMode : uint8_t { kNone, kA0, kAL };

// Semantic view of a source operand (what a translator consumes).
struct Operand {
  bool is_temp = true;
  uint32_t index = 0;           // temp 0-63, constant 0-255
  RelativeMode relative = RelativeMode::kNone;
  bool absolute = false;        // |x|
  bool negate = false;
  std::array<uint8_t, 4> swizzle{0, 1, 2, 3};  // component per position (0-3 = x-w)
  uint32_t component_count = 4;  // how many of swizzle[] the op reads
};

struct AluInstruction {
  VectorOp vector_op = VectorOp::kMax;
  ScalarOp scalar_op = ScalarOp::kRetainPrev;
  uint32_t vector_dest = 0;      // 6 bits: temp, or export register if export_data
  bool vector_dest_rel = false;  // aL-relative destination
  uint32_t vector_write_mask = 0;
  bool vector_clamp = false;     // _sat
  uint32_t scalar_dest = 0;
  bool scalar_dest_rel = false;  // for exports: write 0 to components written by neither op
  uint32_t scalar_write_mask = 0;
  bool scalar_clamp = false;
  bool export_data = false;
  bool abs_constants = false;    // |c| for every constant operand
  bool is_predicated = false;
  bool predicate_condition = false;
  bool const_address_register_relative = false;  // relative constants: 1 = a0, 0 = aL (Xenia)
  bool const_0_rel = false;      // first constant operand is relatively addressed
  bool const_1_rel = false;      // second constant operand
  std::array<AluSource, 3> src{};

  // Masks as the hardware applies them (Xenia ucode.h GetVectorOpResultWriteMask etc.).
  uint32_t VectorResultMask() const;
  uint32_t ScalarResultMask() const;
  uint32_t Constant0Mask() const;  // exports only
  uint32_t Constant1Mask() const;  // exports only
  // Source i (0-2 = src1-src3) as a vector operand.
  Operand VectorOperand(uint32_t i) const;
  // Scalar operands: 0, 1 or 2 (for kConstTemp: [0] constant, [1] temp).
  std::vector<Operand> ScalarOperands() const;
  // Temp register index read by mulsc/addsc/subsc (Xenia: scalar_const_reg_op_src_temp_reg).
  uint32_t ScalarConstTempReg() const;
};

// ---- Fetch ----------------------------------------------------------------------------------------

// Xenia ucode.h FetchOpcode (5 bits).
enum class FetchOp : uint8_t {
  kVertexFetch = 0,
  kTextureFetch = 1,
  kGetTextureBorderColorFrac = 16,
  kGetTextureComputedLod = 17,
  kGetTextureGradients = 18,
  kGetTextureWeights = 19,
  kSetTextureLod = 24,
  kSetTextureGradientsHorz = 25,
  kSetTextureGradientsVert = 26,
};
bool IsValidFetchOp(uint32_t op);

enum class TextureDimension : uint8_t { k1D = 0, k2D = 1, k3D = 2, kCube = 3 };

struct FetchInstruction {
  FetchOp opcode = FetchOp::kTextureFetch;
  uint32_t src_reg = 0;       // 6 bits
  bool src_rel = false;       // aL-relative
  uint32_t dst_reg = 0;       // 6 bits
  bool dst_rel = false;
  // 3 bits per destination component: 0-3 = x-w, 4 = 0, 5 = 1, 6 = unknown, 7 = keep (not written)
  uint32_t dst_swizzle = 0x688;
  // vertex: 2 bits (one component); texture: 3 x 2 bits (absolute components, not relative)
  uint32_t src_swizzle = 0;
  uint32_t const_index = 0;   // 5 bits (texture fetch constant, or vertex const / 3)
  bool is_predicated = false;
  bool predicate_condition = false;

  // Vertex fetch (opcode 0).
  uint32_t const_index_sel = 0;  // 2 bits: vertex fetch constant = const_index * 3 + sel
  bool must_be_one = true;
  uint32_t prefetch_count = 0;   // 3 bits, XDK prints +1
  bool is_signed = false;        // fomat_comp_all
  bool is_integer = false;       // num_format_all (1 = integer, 0 = normalized)
  bool signed_rf_mode = false;   // signed_rf_mode_all
  bool is_index_rounded = false;
  uint32_t format = 0;           // xenos VertexFormat (6 bits); 0 = patched at run time
  int32_t exp_adjust = 0;        // 6 bits signed
  bool is_mini_fetch = false;
  uint32_t stride = 0;           // dwords
  int32_t offset = 0;            // dwords, 23 bits signed

  // Texture fetch and the texture-state ops.
  bool fetch_valid_only = true;
  bool tx_coord_denorm = false;
  uint32_t mag_filter = 3, min_filter = 3, mip_filter = 3;  // 0 point 1 linear 2 basemap 3 keep
  uint32_t aniso_filter = 7;     // 0 disabled, 1-5 max1to1..max16to1, 7 keep
  uint32_t arbitrary_filter = 0;
  uint32_t vol_mag_filter = 3, vol_min_filter = 3;
  bool use_comp_lod = true;
  bool use_reg_lod = false;
  bool use_reg_gradients = false;
  bool sample_location = false;  // 1 = pixel center
  int32_t lod_bias = 0;          // 7 bits signed, units of 1/16
  TextureDimension dimension = TextureDimension::k2D;
  int32_t offset_x = 0, offset_y = 0, offset_z = 0;  // 5 bits signed, units of 1/2 texel

  // Bits with no known meaning (vfetch: dword 1 bits 22-23; texture: dword 1 bit 30, dword 2
  // bits 9-13), kept so the encoding round-trips.
  std::array<uint32_t, 3> pad{};

  bool IsVertex() const { return opcode == FetchOp::kVertexFetch; }
  uint32_t VertexFetchConstant() const { return const_index * 3 + const_index_sel; }
  // Destination component select for component c (0-3): 0-3 xyzw, 4 zero, 5 one, 7 not written.
  uint32_t DestComponent(uint32_t c) const { return (dst_swizzle >> (3 * c)) & 7; }
  uint32_t DestWriteMask() const;
  bool HasDestination() const;  // false for setTexLOD / setGradientH / setGradientV
};

// ---- Shader ------------------------------------------------------------------------------------

enum class SlotKind : uint8_t { kUnreferenced, kAlu, kFetch };

// One 3-dword ALU/fetch instruction slot.
struct Instruction {
  SlotKind kind = SlotKind::kUnreferenced;
  uint32_t slot = 0;         // slot index: dword offset / 3
  std::array<uint32_t, 3> raw{};
  AluInstruction alu;        // kind == kAlu
  FetchInstruction fetch;    // kind == kFetch
};

struct Shader {
  ShaderType type = ShaderType::kPixel;
  std::vector<uint32_t> dwords;        // host order
  std::vector<CfInstruction> cf;       // always even: CF instructions come in pairs per 3 dwords
  uint32_t cf_slots = 0;               // slots taken by CF = first ALU/fetch slot
  std::vector<Instruction> slots;      // slots[i] is slot cf_slots + i
  const Instruction& AtSlot(uint32_t slot) const { return slots.at(slot - cf_slots); }
};

// Decodes host-order microcode. Throws xnt::Error naming the dword on invalid input: bad
// opcodes, exec ranges outside the microcode, CF targets out of range, a slot used both as ALU
// and as fetch.
Shader Decode(std::span<const uint32_t> dwords, ShaderType type);

// Big-endian bytes (guest memory / container) -> host-order dwords. Size must be a multiple of 4.
std::vector<uint32_t> LoadMicrocodeBE(std::span<const uint8_t> bytes);
std::vector<uint8_t> StoreMicrocodeBE(std::span<const uint32_t> dwords);

// Field-level encoders (inverse of the decoder); exposed for tests and the assembler.
uint64_t EncodeCf(const CfInstruction& cf);       // 48 bits
CfInstruction DecodeCf(uint64_t bits48);          // never throws
std::array<uint32_t, 3> EncodeAlu(const AluInstruction& alu);
AluInstruction DecodeAlu(const std::array<uint32_t, 3>& raw);        // throws on bad opcodes
std::array<uint32_t, 3> EncodeFetch(const FetchInstruction& fetch);
FetchInstruction DecodeFetch(const std::array<uint32_t, 3>& raw);    // throws on bad opcodes
// Packs CF instructions (padded with a nop to an even count) into dwords.
std::vector<uint32_t> PackCf(std::span<const CfInstruction> cf);

}  // namespace xnt::ucode
