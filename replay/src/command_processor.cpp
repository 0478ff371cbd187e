// Packet framing and dispatch: type 0/1/2/3 headers, predication by bin mask/select, indirect
// buffers, and register writes with their side effects.
// Xenia reference: src/xenia/gpu/command_processor.cc ExecutePacket*, WriteRegister.
#include "xnt/replay/command_processor.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "cp_format.h"

namespace xnt::replay {

using xenos::Opcode;
using xenos::PacketType;

CommandProcessor::CommandProcessor(GuestMemory& memory, RegisterFile& registers, Backend& backend,
                                   const CommandProcessorOptions& options)
    : memory_(memory), registers_(registers), backend_(backend), options_(options) {}

CommandProcessor::~CommandProcessor() = default;

void CommandProcessor::Report(Severity severity, uint32_t guest_address, std::string message) {
  ++diagnostic_counts_[size_t(severity)];
  Diagnostic d{severity, offset_, guest_address, std::move(message)};
  if (observer_) observer_->OnDiagnostic(d);
  if (diagnostics_.size() < options_.max_stored_diagnostics) diagnostics_.push_back(std::move(d));
}

void CommandProcessor::EndFrame(const format::FrameMarker& marker) {
  FrameEndCall call;
  call.frame = frame_;
  call.draws = draw_in_frame_;
  call.marker = marker;
  backend_.OnFrameEnd(call);
  ++frame_;
  draw_in_frame_ = 0;
}

void CommandProcessor::Execute(std::span<const uint32_t> dwords, uint32_t guest_address,
                               uint64_t record) {
  offset_ = TraceOffset{record, 0, 0, 0};
  ib_stack_.clear();
  if (stopped_) return;
  ExecuteStream(Stream{dwords, guest_address, 0});
}

void CommandProcessor::WriteRegister(uint32_t index, uint32_t value) {
  if (!registers_.Set(index, value)) {
    Report(Severity::kWarning, packet_address_,
           Format("register write to index 0x%X beyond the register file (0x%X entries) dropped",
                  index, xenos::kRegisterCount));
    return;
  }
  if (observer_) observer_->OnRegisterWrite(index, value);
  switch (xenos::Reg(index)) {
    case xenos::Reg::COHER_STATUS_HOST:
      // Xenia sets the status bit on every write so the next WAIT_REG_MEM on it makes caches
      // coherent first; a replay has no caches, so WaitRegMem simply clears it again.
      registers_.Set(index, value | 0x80000000u);
      break;
    case xenos::Reg::SCRATCH_REG0:
    case xenos::Reg::SCRATCH_REG1:
    case xenos::Reg::SCRATCH_REG2:
    case xenos::Reg::SCRATCH_REG3:
    case xenos::Reg::CALLBACK_ADDRESS:  // SCRATCH_REG4
    case xenos::Reg::CALLBACK_CONTEXT:  // SCRATCH_REG5
    case xenos::Reg::SCRATCH_REG6:
    case xenos::Reg::SCRATCH_REG7: {
      // Scratch writeback: enabled scratch registers mirror to SCRATCH_ADDR + 4n, big-endian
      // (Xenia WriteRegister).
      uint32_t n = index - xenos::RegIndex(xenos::Reg::SCRATCH_REG0);
      if ((registers_.Get(xenos::Reg::SCRATCH_UMSK) >> n) & 1u) {
        uint32_t address = registers_.Get(xenos::Reg::SCRATCH_ADDR) + n * 4;
        // Endian field 2 = 8in32: the dword lands big-endian, as store_and_swap does.
        WriteGuestDword((address & ~3u) | uint32_t(xenos::Endian::k8in32), value,
                        "scratch register writeback");
      }
      break;
    }
    case xenos::Reg::DC_LUT_RW_MODE:
    case xenos::Reg::DC_LUT_RW_INDEX:
    case xenos::Reg::DC_LUT_SEQ_COLOR:
    case xenos::Reg::DC_LUT_PWL_DATA:
    case xenos::Reg::DC_LUT_30_COLOR:
      display_gamma_.OnRegisterWrite(index, registers_);
      break;
    default:
      break;
  }
}

void CommandProcessor::WriteRegisters(uint32_t first, std::span<const uint32_t> values,
                                      uint32_t packet_address) {
  uint64_t end = uint64_t(first) + values.size();
  if (end > xenos::kRegisterCount) {
    Report(Severity::kWarning, packet_address,
           Format("register range 0x%X..0x%llX runs past the register file; %llu writes dropped",
                  first, static_cast<unsigned long long>(end - 1),
                  static_cast<unsigned long long>(end - std::max<uint64_t>(first, xenos::kRegisterCount))));
  }
  for (size_t i = 0; i < values.size() && first + i < xenos::kRegisterCount; ++i) {
    WriteRegister(uint32_t(first + i), values[i]);
  }
}

void CommandProcessor::ExecuteStream(const Stream& s) {
  const uint32_t size = uint32_t(s.dwords.size());
  uint32_t pos = 0;
  while (pos < size) {
    if (stopped_) return;
    if (options_.max_packets && packets_ >= options_.max_packets) {
      if (!stopped_) {
        stopped_ = true;
        Report(Severity::kError, AddressOf(s, pos),
               Format("packet limit (%llu) reached; command processing stopped",
                      static_cast<unsigned long long>(options_.max_packets)));
      }
      return;
    }
    ++packets_;
    if (s.depth == 0) {
      offset_.dword = pos;
    } else {
      offset_.ib_dword = pos;
    }
    offset_.ib_depth = s.depth;
    const uint32_t address = AddressOf(s, pos);
    packet_address_ = address;
    const uint32_t header = s.dwords[pos];
    PacketInfo info;
    info.offset = offset_;
    info.guest_address = address;
    info.header = header;
    info.type = xenos::GetPacketType(header);

    if (header == 0) {
      // Xenia treats a zero dword as a one-dword no-op (ring padding).
      info.filler = true;
      if (observer_) observer_->OnPacket(info);
      ++pos;
      continue;
    }
    if (header == xenos::kUninitializedMemoryPattern) {
      Report(Severity::kWarning, address,
             "packet header 0xCDCDCDCD: the stream probably reads uninitialised memory");
    }
    const uint32_t remaining = size - pos - 1;
    switch (info.type) {
      case PacketType::kType0: {
        auto h = xenos::DecodeType0(header);
        info.count = h.count;
        if (h.count > remaining) {
          Report(Severity::kError, address,
                 Format("type-0 packet (%s) needs %u data dwords but only %u remain in the "
                        "buffer; rest of the buffer skipped",
                        std::string(RegisterNameFor(h.base_index)).c_str(), h.count, remaining));
          return;
        }
        info.payload = s.dwords.subspan(pos + 1, h.count);
        if (observer_) observer_->OnPacket(info);
        if (h.one_register) {
          for (uint32_t v : info.payload) WriteRegister(h.base_index, v);
        } else {
          WriteRegisters(h.base_index, info.payload, address);
        }
        pos += 1 + h.count;
        break;
      }
      case PacketType::kType1: {
        auto h = xenos::DecodeType1(header);
        info.count = 2;
        if (remaining < 2) {
          Report(Severity::kError, address,
                 Format("type-1 packet needs 2 data dwords but only %u remain in the buffer",
                        remaining));
          return;
        }
        info.payload = s.dwords.subspan(pos + 1, 2);
        if (observer_) observer_->OnPacket(info);
        WriteRegister(h.reg_a, info.payload[0]);
        WriteRegister(h.reg_b, info.payload[1]);
        pos += 3;
        break;
      }
      case PacketType::kType2:
        if (observer_) observer_->OnPacket(info);
        ++pos;
        break;
      case PacketType::kType3: {
        auto h = xenos::DecodeType3(header);
        info.count = h.count;
        info.opcode = h.opcode;
        info.predicated = h.predicated;
        if (h.count > remaining) {
          auto name = xenos::OpcodeName(h.opcode);
          Report(Severity::kError, address,
                 Format("type-3 packet %s (0x%02X) needs %u payload dwords but only %u remain in "
                        "the buffer; rest of the buffer skipped",
                        name.empty() ? "UNKNOWN" : std::string(name).c_str(), h.opcode, h.count,
                        remaining));
          return;
        }
        info.payload = s.dwords.subspan(pos + 1, h.count);
        // Predicated packets run only if (bin_select & bin_mask) != 0; a predicated XE_SWAP is
        // always skipped (Xenia ExecutePacketType3).
        if (h.predicated &&
            ((bin_select_ & bin_mask_) == 0 || h.opcode == uint32_t(Opcode::kXeSwap))) {
          info.executed = false;
        }
        if (observer_) observer_->OnPacket(info);
        if (info.executed) ExecuteType3(s, pos, header, info.payload);
        pos += 1 + h.count;
        break;
      }
    }
  }
}

bool CommandProcessor::ExecuteType3(const Stream& s, uint32_t pos, uint32_t header,
                                    std::span<const uint32_t> p) {
  const uint32_t opcode = xenos::DecodeType3(header).opcode;
  const uint32_t address = AddressOf(s, pos);
  auto need = [&](uint32_t n) {
    if (p.size() >= n) return true;
    Report(Severity::kError, address,
           Format("%s needs at least %u payload dwords, packet has %zu; packet ignored",
                  std::string(xenos::OpcodeName(opcode)).c_str(), n, p.size()));
    return false;
  };
  switch (Opcode(opcode)) {
    case Opcode::kMeInit:
      me_init_.assign(p.begin(), p.end());
      Event(EventKind::kMeInit, 0, 0, uint32_t(p.size()));
      return true;
    case Opcode::kNop:
      return true;
    case Opcode::kInterrupt:
      Event(EventKind::kInterrupt, 0, 0, p[0] & 0x3Fu);
      return true;
    case Opcode::kXeSwap:
      if (need(xenos::kSwapMinPayloadDwords)) Swap(p);
      return true;
    case Opcode::kIndirectBuffer:
    case Opcode::kIndirectBufferPfd:
      if (need(2)) IndirectBuffer(s, pos, p);
      return true;
    case Opcode::kWaitRegMem:
      if (need(5)) WaitRegMem(address, p);
      return true;
    case Opcode::kRegRmw:
      if (need(3)) RegRmw(p);
      return true;
    case Opcode::kRegToMem:
      if (need(2)) RegToMem(p);
      return true;
    case Opcode::kMemWrite:
      MemWrite(p);
      return true;
    case Opcode::kCondWrite:
      if (need(6)) CondWrite(p);
      return true;
    case Opcode::kEventWrite:
    case Opcode::kEventWriteZpd:
      EventWrite(opcode, p);
      return true;
    case Opcode::kEventWriteShd:
      if (need(3)) EventWrite(opcode, p);
      return true;
    case Opcode::kEventWriteExt:
      if (need(2)) EventWrite(opcode, p);
      return true;
    case Opcode::kDrawIndx:
      // DRAW_INDX carries a viz-query token first.
      if (need(2)) Draw(opcode, address, p[0], p.subspan(1));
      return true;
    case Opcode::kDrawIndx2:
      Draw(opcode, address, 0, p);
      return true;
    case Opcode::kSetConstant:
      SetConstant(address, p);
      return true;
    case Opcode::kSetConstant2:
    case Opcode::kSetShaderConstants:
      // Absolute register index in bits 15:0.
      WriteRegisters(p[0] & 0xFFFFu, p.subspan(1), address);
      return true;
    case Opcode::kLoadAluConstant:
      if (need(3)) LoadAluConstant(address, p);
      return true;
    case Opcode::kImLoad:
      if (need(2)) ImLoad(p);
      return true;
    case Opcode::kImLoadImmediate:
      if (need(2)) ImLoadImmediate(address + 4, p);
      return true;
    case Opcode::kInvalidateState:
      Event(EventKind::kInvalidateState, 0, 0, p[0]);
      return true;
    case Opcode::kVizQuery:
      VizQuery(p);
      return true;
    case Opcode::kSetBinMaskLo:
      bin_mask_ = (bin_mask_ & 0xFFFFFFFF00000000ull) | p[0];
      return true;
    case Opcode::kSetBinMaskHi:
      bin_mask_ = (bin_mask_ & 0xFFFFFFFFull) | (uint64_t(p[0]) << 32);
      return true;
    case Opcode::kSetBinSelectLo:
      bin_select_ = (bin_select_ & 0xFFFFFFFF00000000ull) | p[0];
      return true;
    case Opcode::kSetBinSelectHi:
      bin_select_ = (bin_select_ & 0xFFFFFFFFull) | (uint64_t(p[0]) << 32);
      return true;
    case Opcode::kSetBinMask:
      if (need(2)) bin_mask_ = (uint64_t(p[0]) << 32) | p[1];
      return true;
    case Opcode::kSetBinSelect:
      if (need(2)) bin_select_ = (uint64_t(p[0]) << 32) | p[1];
      return true;
    case Opcode::kContextUpdate:
      Event(EventKind::kContextUpdate, 0, 0, p[0]);
      return true;
    case Opcode::kWaitForIdle:
      Event(EventKind::kWaitForIdle, 0, 0, p[0]);
      return true;
    default:
      break;
  }
  if (xenos::IsOpcodeUnhandledByXenia(opcode)) {
    Report(Severity::kWarning, address,
           Format("%s (0x%02X) is not modelled (Xenia skips it too); %zu payload dwords skipped",
                  std::string(xenos::OpcodeName(opcode)).c_str(), opcode, p.size()));
  } else {
    Report(Severity::kWarning, address,
           Format("unknown type-3 opcode 0x%02X; %zu payload dwords skipped", opcode, p.size()));
  }
  return false;
}

void CommandProcessor::IndirectBuffer(const Stream& s, uint32_t pos, std::span<const uint32_t> p) {
  const uint32_t packet_address = AddressOf(s, pos);
  // The pointer is a CPU address; the GPU uses its low 29 bits (xenos.h CpuToGpu).
  const uint32_t ib_address = xenos::CpuToGpu(p[0]);
  if (p[1] & ~0xFFFFFu) {
    Report(Severity::kWarning, packet_address,
           Format("INDIRECT_BUFFER length dword 0x%08X has bits above the 20-bit length set", p[1]));
  }
  const uint32_t length = p[1] & 0xFFFFFu;
  if (s.depth + 1 > options_.max_indirect_depth) {
    Report(Severity::kError, ib_address,
           Format("indirect buffer at 0x%08X nested deeper than %u levels; not executed",
                  ib_address, options_.max_indirect_depth));
    return;
  }
  for (uint32_t active : ib_stack_) {
    if (active == ib_address) {
      Report(Severity::kError, ib_address,
             Format("indirect buffer at 0x%08X calls itself (recursion); not executed", ib_address));
      return;
    }
  }
  if (!GuestMemory::InRange(ib_address, uint64_t(length) * 4)) {
    Report(Severity::kError, ib_address,
           Format("indirect buffer 0x%08X + %u dwords leaves the 512 MiB physical range; not "
                  "executed",
                  ib_address, length));
    return;
  }
  if (!ChargeFetch(length, ib_address)) return;
  if (!memory_.IsRecorded(ib_address, uint64_t(length) * 4)) {
    Report(Severity::kWarning, ib_address,
           Format("indirect buffer 0x%08X + %u dwords reads memory the trace did not record",
                  ib_address, length));
  }
  std::vector<uint32_t> dwords(length);
  memory_.LoadBE32Array(ib_address, dwords);  // IBs are big-endian in guest memory
  const TraceOffset saved = offset_;
  ib_stack_.push_back(ib_address);
  ExecuteStream(Stream{dwords, ib_address, s.depth + 1});
  ib_stack_.pop_back();
  offset_ = saved;
  packet_address_ = packet_address;
}

}  // namespace xnt::replay
