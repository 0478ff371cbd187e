// PM4: the packet format of the Xenos command processor (CP). Packet headers, the type-3 opcode
// table, and the event initiators that EVENT_WRITE* packets carry.
//
// Facts (values, bit positions) are from Xenia: src/xenia/gpu/xenos.h (Type3Opcode,
// MakePacketType0..3, Event, kSwapSignature) and src/xenia/gpu/command_processor.cc
// (ExecutePacketType0..3) Xenia's own list
// credits freedreno's gsl_pm4types.h for the opcode values.
#pragma once

#include <cstdint>
#include <string_view>

namespace xnt::xenos {

// Header type, bits 31:30 of the first dword.
enum class PacketType : uint32_t {
  kType0 = 0,  // register writes: [29:16] count-1, [15] one-register, [14:0] base index
  kType1 = 1,  // two register writes: [21:11] register B, [10:0] register A
  kType2 = 2,  // one-dword filler
  kType3 = 3,  // command: [29:16] count-1, [14:8] opcode, [0] predicate
};

constexpr PacketType GetPacketType(uint32_t header) { return PacketType(header >> 30); }

// Xenia treats a whole-zero dword as a no-op and warns on 0xCDCDCDCD (MSVC's fill pattern for
// uninitialised heap memory; command_processor.cc ExecutePacket).
constexpr uint32_t kUninitializedMemoryPattern = 0xCDCDCDCDu;

// ---- Type 0 -------------------------------------------------------------------------------------

// The count field is 14 bits of count-1, so one packet carries 1..0x4000 dwords.
constexpr uint32_t kMaxPacketDataDwords = 0x4000;

struct Type0Header {
  uint32_t base_index;  // 15 bits
  uint32_t count;       // data dwords that follow, 1..0x4000
  bool one_register;    // all data go to base_index (a FIFO-style register such as a LUT port)
};

constexpr Type0Header DecodeType0(uint32_t header) {
  return Type0Header{header & 0x7FFFu, ((header >> 16) & 0x3FFFu) + 1, ((header >> 15) & 1u) != 0};
}

// count must be 1..0x4000, base_index < 0x8000. (Xenia's MakePacketType0 drops the one-register
// flag; the decoder in its ExecutePacketType0 does honour bit 15, and so do we.)
constexpr uint32_t MakeType0(uint32_t base_index, uint32_t count, bool one_register = false) {
  return (0u << 30) | (((count - 1) & 0x3FFFu) << 16) | (one_register ? 0x8000u : 0u) |
         (base_index & 0x7FFFu);
}

// ---- Type 1 -------------------------------------------------------------------------------------

struct Type1Header {
  uint32_t reg_a;  // written with the first data dword
  uint32_t reg_b;  // written with the second
};

constexpr Type1Header DecodeType1(uint32_t header) {
  return Type1Header{header & 0x7FFu, (header >> 11) & 0x7FFu};
}

// Both registers must be < 0x800: type 1 only reaches the low 2 K registers.
constexpr uint32_t MakeType1(uint32_t reg_a, uint32_t reg_b) {
  return (1u << 30) | ((reg_b & 0x7FFu) << 11) | (reg_a & 0x7FFu);
}

// ---- Type 2 -------------------------------------------------------------------------------------

constexpr uint32_t MakeType2() { return 2u << 30; }

// ---- Type 3 -------------------------------------------------------------------------------------

// Opcodes (IT_OPCODE), 7 bits. Every value Xenia's xenos.h defines; the ones Xenia's
// ExecutePacketType3 does not handle are marked "not handled by Xenia".
enum class Opcode : uint32_t {
  kNop = 0x10,                  // skip the payload
  kRegRmw = 0x21,               // register read/modify/write
  kDrawIndx = 0x22,             // draw, indices from VGT_DMA_* or auto
  kVizQuery = 0x23,             // begin/end a visibility query
  kSetState = 0x25,             // not handled by Xenia
  kWaitForIdle = 0x26,          // wait for the engine to go idle
  kImLoad = 0x27,               // load shader microcode from memory
  kImLoadImmediate = 0x2B,      // load shader microcode embedded in the packet
  kImStore = 0x2C,              // not handled by Xenia
  kSetConstant = 0x2D,          // write constants / registers
  kLoadConstantContext = 0x2E,  // not handled by Xenia
  kLoadAluConstant = 0x2F,      // copy constants from memory
  kDrawIndxBin = 0x34,          // not handled by Xenia
  kDrawIndx2Bin = 0x35,         // not handled by Xenia
  kDrawIndx2 = 0x36,            // draw with indices in the packet
  kIndirectBufferPfd = 0x37,    // call an indirect buffer (pipelined init)
  kInvalidateState = 0x3B,      // selective invalidation of state pointers
  kWaitRegMem = 0x3C,           // wait for a register or memory value
  kMemWrite = 0x3D,             // write dwords to memory
  kRegToMem = 0x3E,             // write a register to memory
  kIndirectBuffer = 0x3F,       // call an indirect buffer
  kCondExec = 0x44,             // not handled by Xenia
  kCondWrite = 0x45,            // conditional write to memory or a register
  kEventWrite = 0x46,           // raise an event (VGT_EVENT_INITIATOR)
  kMeInit = 0x48,               // micro-engine initialisation
  kSetShaderBases = 0x4A,       // not handled by Xenia
  kSetBinBaseOffset = 0x4B,     // not handled by Xenia
  kMemWriteCntr = 0x4F,         // not handled by Xenia
  kSetBinMask = 0x50,           // 64-bit bin mask (hi, lo)
  kSetBinSelect = 0x51,         // 64-bit bin select (hi, lo)
  kWaitRegEq = 0x52,            // not handled by Xenia
  kWaitRegGte = 0x53,           // not handled by Xenia
  kInterrupt = 0x54,            // raise a CPU interrupt
  kSetConstant2 = 0x55,         // write registers by absolute index
  kSetShaderConstants = 0x56,   // same payload as SET_CONSTANT2
  kEventWriteShd = 0x58,        // event + write a value to memory when done
  kEventWriteCfl = 0x59,        // not handled by Xenia
  kEventWriteExt = 0x5A,        // event + write screen extents to memory
  kEventWriteZpd = 0x5B,        // event + write occlusion counts (RB_SAMPLE_COUNT_ADDR)
  kWaitUntilRead = 0x5C,        // not handled by Xenia
  kWaitIbPfdComplete = 0x5D,    // not handled by Xenia
  kContextUpdate = 0x5E,        // update the current context
  kSetBinMaskLo = 0x60,
  kSetBinMaskHi = 0x61,
  kSetBinSelectLo = 0x62,
  kSetBinSelectHi = 0x63,
  kXeSwap = 0x64,  // Xenia only: VdSwap's packet ("SWAP", front buffer, width, height)
};

struct Type3Header {
  uint32_t count;   // payload dwords, 1..0x4000
  uint32_t opcode;  // raw 7-bit opcode (may be a value Opcode does not name)
  bool predicated;  // execute only if (bin_select & bin_mask) != 0
};

constexpr Type3Header DecodeType3(uint32_t header) {
  return Type3Header{((header >> 16) & 0x3FFFu) + 1, (header >> 8) & 0x7Fu, (header & 1u) != 0};
}

constexpr uint32_t MakeType3(Opcode opcode, uint32_t count, bool predicated = false) {
  return (3u << 30) | (((count - 1) & 0x3FFFu) << 16) | ((uint32_t(opcode) & 0x7Fu) << 8) |
         (predicated ? 1u : 0u);
}

// The PM4 spelling of an opcode ("DRAW_INDX"), or an empty view for a value the table lacks.
constexpr std::string_view OpcodeName(uint32_t opcode) {
  switch (Opcode(opcode)) {
    case Opcode::kNop: return "NOP";
    case Opcode::kRegRmw: return "REG_RMW";
    case Opcode::kDrawIndx: return "DRAW_INDX";
    case Opcode::kVizQuery: return "VIZ_QUERY";
    case Opcode::kSetState: return "SET_STATE";
    case Opcode::kWaitForIdle: return "WAIT_FOR_IDLE";
    case Opcode::kImLoad: return "IM_LOAD";
    case Opcode::kImLoadImmediate: return "IM_LOAD_IMMEDIATE";
    case Opcode::kImStore: return "IM_STORE";
    case Opcode::kSetConstant: return "SET_CONSTANT";
    case Opcode::kLoadConstantContext: return "LOAD_CONSTANT_CONTEXT";
    case Opcode::kLoadAluConstant: return "LOAD_ALU_CONSTANT";
    case Opcode::kDrawIndxBin: return "DRAW_INDX_BIN";
    case Opcode::kDrawIndx2Bin: return "DRAW_INDX_2_BIN";
    case Opcode::kDrawIndx2: return "DRAW_INDX_2";
    case Opcode::kIndirectBufferPfd: return "INDIRECT_BUFFER_PFD";
    case Opcode::kInvalidateState: return "INVALIDATE_STATE";
    case Opcode::kWaitRegMem: return "WAIT_REG_MEM";
    case Opcode::kMemWrite: return "MEM_WRITE";
    case Opcode::kRegToMem: return "REG_TO_MEM";
    case Opcode::kIndirectBuffer: return "INDIRECT_BUFFER";
    case Opcode::kCondExec: return "COND_EXEC";
    case Opcode::kCondWrite: return "COND_WRITE";
    case Opcode::kEventWrite: return "EVENT_WRITE";
    case Opcode::kMeInit: return "ME_INIT";
    case Opcode::kSetShaderBases: return "SET_SHADER_BASES";
    case Opcode::kSetBinBaseOffset: return "SET_BIN_BASE_OFFSET";
    case Opcode::kMemWriteCntr: return "MEM_WRITE_CNTR";
    case Opcode::kSetBinMask: return "SET_BIN_MASK";
    case Opcode::kSetBinSelect: return "SET_BIN_SELECT";
    case Opcode::kWaitRegEq: return "WAIT_REG_EQ";
    case Opcode::kWaitRegGte: return "WAIT_REG_GTE";
    case Opcode::kInterrupt: return "INTERRUPT";
    case Opcode::kSetConstant2: return "SET_CONSTANT2";
    case Opcode::kSetShaderConstants: return "SET_SHADER_CONSTANTS";
    case Opcode::kEventWriteShd: return "EVENT_WRITE_SHD";
    case Opcode::kEventWriteCfl: return "EVENT_WRITE_CFL";
    case Opcode::kEventWriteExt: return "EVENT_WRITE_EXT";
    case Opcode::kEventWriteZpd: return "EVENT_WRITE_ZPD";
    case Opcode::kWaitUntilRead: return "WAIT_UNTIL_READ";
    case Opcode::kWaitIbPfdComplete: return "WAIT_IB_PFD_COMPLETE";
    case Opcode::kContextUpdate: return "CONTEXT_UPDATE";
    case Opcode::kSetBinMaskLo: return "SET_BIN_MASK_LO";
    case Opcode::kSetBinMaskHi: return "SET_BIN_MASK_HI";
    case Opcode::kSetBinSelectLo: return "SET_BIN_SELECT_LO";
    case Opcode::kSetBinSelectHi: return "SET_BIN_SELECT_HI";
    case Opcode::kXeSwap: return "XE_SWAP";
  }
  return {};
}

constexpr bool IsKnownOpcode(uint32_t opcode) { return !OpcodeName(opcode).empty(); }

// Opcodes that Xenia defines but its command processor logs as unimplemented and skips
// (command_processor.cc, default case of ExecutePacketType3).
constexpr bool IsOpcodeUnhandledByXenia(uint32_t opcode) {
  switch (Opcode(opcode)) {
    case Opcode::kSetState:
    case Opcode::kImStore:
    case Opcode::kLoadConstantContext:
    case Opcode::kDrawIndxBin:
    case Opcode::kDrawIndx2Bin:
    case Opcode::kCondExec:
    case Opcode::kSetShaderBases:
    case Opcode::kSetBinBaseOffset:
    case Opcode::kMemWriteCntr:
    case Opcode::kWaitRegEq:
    case Opcode::kWaitRegGte:
    case Opcode::kEventWriteCfl:
    case Opcode::kWaitUntilRead:
    case Opcode::kWaitIbPfdComplete:
      return true;
    default:
      return false;
  }
}

// XE_SWAP's first payload dword: the fourcc "SWAP" as Xenia's make_fourcc packs it, first
// character in the most significant byte.
constexpr uint32_t kSwapSignature = (uint32_t('S') << 24) | (uint32_t('W') << 16) |
                                    (uint32_t('A') << 8) | uint32_t('P');

// Payload of XE_SWAP: signature, front buffer address, width, height, then padding; Xenia's
// VdSwap emits 63 payload dwords (the padding fills the reserved ring space).
constexpr uint32_t kSwapMinPayloadDwords = 4;

// SET_CONSTANT / LOAD_ALU_CONSTANT offset_type: index in bits 10:0, type in bits 23:16
// (command_processor.cc ExecutePacketType3_SET_CONSTANT).
enum class ConstantType : uint32_t {
  kAlu = 0,        // base 0x4000
  kFetch = 1,      // base 0x4800
  kBool = 2,       // base 0x4900
  kLoop = 3,       // base 0x4908
  kRegisters = 4,  // base 0x2000
};

constexpr uint32_t ConstantTypeBase(ConstantType type) {
  switch (type) {
    case ConstantType::kAlu: return 0x4000;
    case ConstantType::kFetch: return 0x4800;
    case ConstantType::kBool: return 0x4900;
    case ConstantType::kLoop: return 0x4908;
    case ConstantType::kRegisters: return 0x2000;
  }
  return 0;
}

// IM_LOAD / IM_LOAD_IMMEDIATE shader type in bits 1:0 of the first payload dword.
enum class ShaderType : uint32_t {
  kVertex = 0,
  kPixel = 1,
};

// WAIT_REG_MEM / COND_WRITE wait_info: bits 2:0 compare function, bit 4 = poll memory (else a
// register); COND_WRITE bit 8 = write to memory (else a register).
enum class WaitFunction : uint32_t {
  kNever = 0,
  kLess = 1,
  kLessEqual = 2,
  kEqual = 3,
  kNotEqual = 4,
  kGreaterEqual = 5,
  kGreater = 6,
  kAlways = 7,
};

constexpr bool EvaluateWaitFunction(WaitFunction function, uint32_t value, uint32_t reference) {
  switch (function) {
    case WaitFunction::kNever: return false;
    case WaitFunction::kLess: return value < reference;
    case WaitFunction::kLessEqual: return value <= reference;
    case WaitFunction::kEqual: return value == reference;
    case WaitFunction::kNotEqual: return value != reference;
    case WaitFunction::kGreaterEqual: return value >= reference;
    case WaitFunction::kGreater: return value > reference;
    case WaitFunction::kAlways: return true;
  }
  return false;
}

// Event initiators written to VGT_EVENT_INITIATOR (bits 5:0); xenos.h enum Event.
enum class Event : uint32_t {
  kVsDealloc = 0,
  kPsDealloc = 1,
  kVsDoneTs = 2,
  kPsDoneTs = 3,
  kCacheFlushTs = 4,
  kContextDone = 5,
  kCacheFlush = 6,
  kVizQueryStart = 7,
  kVizQueryEnd = 8,
  kScWaitWc = 9,
  kMpassPsCpRefetch = 10,
  kMpassPsRstStart = 11,
  kMpassPsIncrStart = 12,
  kRstPixCnt = 13,
  kRstVtxCnt = 14,
  kTileFlush = 15,
  kCacheFlushAndInvTsEvent = 20,
  kZpassDone = 21,
  kCacheFlushAndInvEvent = 22,
  kPerfcounterStart = 23,
  kPerfcounterStop = 24,
  kScreenExtInit = 25,
  kScreenExtRpt = 26,
  kVsFetchDoneTs = 27,
};

constexpr std::string_view EventName(uint32_t event) {
  switch (Event(event)) {
    case Event::kVsDealloc: return "VS_DEALLOC";
    case Event::kPsDealloc: return "PS_DEALLOC";
    case Event::kVsDoneTs: return "VS_DONE_TS";
    case Event::kPsDoneTs: return "PS_DONE_TS";
    case Event::kCacheFlushTs: return "CACHE_FLUSH_TS";
    case Event::kContextDone: return "CONTEXT_DONE";
    case Event::kCacheFlush: return "CACHE_FLUSH";
    case Event::kVizQueryStart: return "VIZQUERY_START";
    case Event::kVizQueryEnd: return "VIZQUERY_END";
    case Event::kScWaitWc: return "SC_WAIT_WC";
    case Event::kMpassPsCpRefetch: return "MPASS_PS_CP_REFETCH";
    case Event::kMpassPsRstStart: return "MPASS_PS_RST_START";
    case Event::kMpassPsIncrStart: return "MPASS_PS_INCR_START";
    case Event::kRstPixCnt: return "RST_PIX_CNT";
    case Event::kRstVtxCnt: return "RST_VTX_CNT";
    case Event::kTileFlush: return "TILE_FLUSH";
    case Event::kCacheFlushAndInvTsEvent: return "CACHE_FLUSH_AND_INV_TS_EVENT";
    case Event::kZpassDone: return "ZPASS_DONE";
    case Event::kCacheFlushAndInvEvent: return "CACHE_FLUSH_AND_INV_EVENT";
    case Event::kPerfcounterStart: return "PERFCOUNTER_START";
    case Event::kPerfcounterStop: return "PERFCOUNTER_STOP";
    case Event::kScreenExtInit: return "SCREEN_EXT_INIT";
    case Event::kScreenExtRpt: return "SCREEN_EXT_RPT";
    case Event::kVsFetchDoneTs: return "VS_FETCH_DONE_TS";
  }
  return {};
}

// Guest CPU addresses in packets are virtual; the GPU sees physical (xenos.h CpuToGpu).
constexpr uint32_t CpuToGpu(uint32_t address) { return address & 0x1FFFFFFFu; }

}  // namespace xnt::xenos
