// The command processor's memory-facing commands: fences and event writes (EVENT_WRITE*),
// MEM_WRITE, REG_TO_MEM, COND_WRITE, WAIT_REG_MEM, REG_RMW, VIZ_QUERY, and the XE_SWAP hook.
// Addresses in these packets carry an Endian swap mode in their low 2 bits: the
// dword is swapped with that mode and stored in host (little-endian) order, which for the common
// k8in32 leaves it big-endian in guest memory, as the CPU expects.
// Xenia reference: command_processor.cc ExecutePacketType3_{WAIT_REG_MEM, REG_RMW, REG_TO_MEM,
// MEM_WRITE, COND_WRITE, EVENT_WRITE*, VIZ_QUERY, XE_SWAP}.
#include <array>

#include "cp_format.h"
#include "xnt/replay/command_processor.h"

namespace xnt::replay {

using xenos::Endian;
using xenos::Reg;

uint32_t CommandProcessor::PhysicalAddress(uint32_t address, const char* what) {
  if (address >= GuestMemory::kSize) {
    uint32_t physical = xenos::CpuToGpu(address);
    Report(Severity::kWarning, address,
           Format("%s address 0x%08X is beyond the 512 MiB physical range; using its low 29 bits "
                  "0x%08X as the memory controller (and Xenia) does",
                  what, address, physical));
    return physical;
  }
  return address;
}

bool CommandProcessor::CheckRange(uint32_t address, uint64_t size, const char* what) {
  if (GuestMemory::InRange(address, size)) return true;
  Report(Severity::kError, address,
         Format("%s of %llu bytes at 0x%08X leaves the 512 MiB physical range; skipped", what,
                static_cast<unsigned long long>(size), address));
  return false;
}

void CommandProcessor::WriteGuestDword(uint32_t address_with_endian, uint32_t value,
                                       const char* what) {
  const Endian endian = Endian(address_with_endian & 3u);
  const uint32_t address = PhysicalAddress(address_with_endian & ~3u, what);
  if (!CheckRange(address, 4, what)) return;
  memory_.StoreLE32(address, xenos::GpuSwap(value, endian));
  backend_.OnMemoryWritten(address, 4);
}

bool CommandProcessor::ReadGuestDword(uint32_t address_with_endian, uint32_t& value,
                                      const char* what) {
  const Endian endian = Endian(address_with_endian & 3u);
  const uint32_t address = PhysicalAddress(address_with_endian & ~3u, what);
  if (!CheckRange(address, 4, what)) return false;
  if (observer_) observer_->OnMemoryRead(address, 4);
  if (!memory_.IsRecorded(address, 4)) {
    Report(Severity::kWarning, address,
           Format("%s reads 0x%08X, which the trace did not record (reads as 0)", what, address));
  }
  value = xenos::GpuSwap(memory_.LoadLE32(address), endian);
  return true;
}

bool CommandProcessor::ChargeFetch(uint64_t dwords, uint32_t address) {
  fetched_dwords_ += dwords;
  if (!options_.max_fetch_dwords || fetched_dwords_ <= options_.max_fetch_dwords) return true;
  if (!stopped_) {
    stopped_ = true;
    Report(Severity::kError, address,
           Format("memory fetch limit (%llu dwords) reached; command processing stopped",
                  static_cast<unsigned long long>(options_.max_fetch_dwords)));
  }
  return false;
}

bool CommandProcessor::ReadGuestArray(uint32_t address, std::span<uint32_t> out, const char* what) {
  if (!CheckRange(address, uint64_t(out.size()) * 4, what)) return false;
  if (!ChargeFetch(out.size(), address)) return false;
  if (observer_) observer_->OnMemoryRead(address, uint64_t(out.size()) * 4);
  if (!memory_.IsRecorded(address, uint64_t(out.size()) * 4)) {
    Report(Severity::kWarning, address,
           Format("%s reads %zu dwords at 0x%08X that the trace did not record (read as 0)", what,
                  out.size(), address));
  }
  memory_.LoadBE32Array(address, out);
  return true;
}

bool CommandProcessor::PollValue(uint32_t wait_info, uint32_t poll, uint32_t& value,
                                 const char* what) {
  if (wait_info & 0x10u) return ReadGuestDword(poll, value, what);
  if (!RegisterFile::IsValidIndex(poll)) {
    Report(Severity::kError, packet_address_,
           Format("%s polls register 0x%X beyond the register file", what, poll));
    return false;
  }
  if (poll == xenos::RegIndex(Reg::COHER_STATUS_HOST)) {
    // MakeCoherent: a replay has no GPU caches to flush, so coherency is reached at once.
    registers_.Set(poll, registers_[poll] & ~0x80000000u);
  }
  value = registers_[poll];
  return true;
}

void CommandProcessor::WaitRegMem(uint32_t packet_address, std::span<const uint32_t> p) {
  const uint32_t wait_info = p[0], poll = p[1], ref = p[2], mask = p[3];
  uint32_t value = 0;
  if (!PollValue(wait_info, poll, value, "WAIT_REG_MEM")) return;
  const auto function = xenos::WaitFunction(wait_info & 7u);
  if (!xenos::EvaluateWaitFunction(function, value & mask, ref)) {
    // The recorded state cannot change while we wait, so waiting would hang; carry on.
    Report(Severity::kWarning, packet_address,
           Format("WAIT_REG_MEM on %s 0x%08X never satisfied: (0x%08X & 0x%08X) %s 0x%08X is "
                  "false in the recorded state; continuing",
                  (wait_info & 0x10u) ? "memory" : "register", poll, value, mask,
                  std::string(CompareName(uint32_t(function))).c_str(), ref));
  }
}

void CommandProcessor::CondWrite(std::span<const uint32_t> p) {
  const uint32_t wait_info = p[0], poll = p[1], ref = p[2], mask = p[3], write_to = p[4],
                 data = p[5];
  uint32_t value = 0;
  if (!PollValue(wait_info, poll, value, "COND_WRITE")) return;
  if (!xenos::EvaluateWaitFunction(xenos::WaitFunction(wait_info & 7u), value & mask, ref)) return;
  if (wait_info & 0x100u) {
    WriteGuestDword(write_to, data, "COND_WRITE");
  } else {
    WriteRegister(write_to, data);
  }
}

void CommandProcessor::MemWrite(std::span<const uint32_t> p) {
  // Address (+endian) then data dwords for consecutive addresses, all with the same swap.
  if (p.size() < 2) return;
  const Endian endian = Endian(p[0] & 3u);
  const uint32_t address = PhysicalAddress(p[0] & ~3u, "MEM_WRITE");
  const uint64_t size = uint64_t(p.size() - 1) * 4;
  if (!CheckRange(address, size, "MEM_WRITE")) return;
  for (size_t i = 1; i < p.size(); ++i) {
    memory_.StoreLE32(uint32_t(address + (i - 1) * 4), xenos::GpuSwap(p[i], endian));
  }
  backend_.OnMemoryWritten(address, uint32_t(size));
}

void CommandProcessor::RegToMem(std::span<const uint32_t> p) {
  if (!RegisterFile::IsValidIndex(p[0])) {
    Report(Severity::kError, packet_address_,
           Format("REG_TO_MEM reads register 0x%X beyond the register file", p[0]));
    return;
  }
  WriteGuestDword(p[1], registers_[p[0]], "REG_TO_MEM");
}

void CommandProcessor::RegRmw(std::span<const uint32_t> p) {
  // info: register in bits 12:0; bit 31 = AND with a register instead of the immediate, bit 30 =
  // OR with a register (Xenia ExecutePacketType3_REG_RMW).
  const uint32_t info = p[0], and_mask = p[1], or_mask = p[2];
  const uint32_t index = info & 0x1FFFu;
  uint32_t value = registers_[index];
  value &= (info >> 31) ? registers_[and_mask & 0x1FFFu] : and_mask;
  value |= ((info >> 30) & 1u) ? registers_[or_mask & 0x1FFFu] : or_mask;
  WriteRegister(index, value);
}

void CommandProcessor::EventWrite(uint32_t opcode, std::span<const uint32_t> p) {
  const uint32_t initiator = p[0];
  WriteRegister(xenos::RegIndex(Reg::VGT_EVENT_INITIATOR), initiator & 0x3Fu);
  switch (xenos::Opcode(opcode)) {
    case xenos::Opcode::kEventWrite:
      if (p.size() > 1) {
        Report(Severity::kInfo, packet_address_,
               Format("EVENT_WRITE with %zu extra dwords (a memory write form Xenia does not "
                      "model either); extra dwords ignored",
                      p.size() - 1));
      }
      Event(EventKind::kEventWrite, initiator, 0, 0);
      break;
    case xenos::Opcode::kEventWriteShd: {
      // Bit 31 of the initiator: write the swap counter instead of the value.
      const uint32_t data = (initiator >> 31) ? swap_counter_ : p[2];
      WriteGuestDword(p[1], data, "EVENT_WRITE_SHD");
      Event(EventKind::kEventWriteShd, initiator, p[1] & ~3u, data);
      break;
    }
    case xenos::Opcode::kEventWriteExt: {
      // Screen extents of the preceding draws (min x, max x, min y, max y in 8-pixel units, min z,
      // max z) as big-endian 16-bit values. Like Xenia we report the whole 8192x8192 range: the
      // true extents would need rasterisation.
      const uint32_t address = PhysicalAddress(p[1] & ~3u, "EVENT_WRITE_EXT");
      if (CheckRange(address, 12, "EVENT_WRITE_EXT")) {
        const std::array<uint16_t, 6> extents = {0, 8192 >> 3, 0, 8192 >> 3, 0, 1};
        std::array<uint8_t, 12> bytes{};
        for (size_t i = 0; i < extents.size(); ++i) {
          bytes[i * 2] = uint8_t(extents[i] >> 8);
          bytes[i * 2 + 1] = uint8_t(extents[i]);
        }
        memory_.Write(address, bytes);
        backend_.OnMemoryWritten(address, 12);
      }
      Event(EventKind::kEventWriteExt, initiator, address, 0);
      break;
    }
    case xenos::Opcode::kEventWriteZpd:
      // Occlusion sample counts depend on rasterisation: the CP only raises the event with the
      // report address; a backend that renders may fill the counts.
      Event(EventKind::kEventWriteZpd, initiator,
            registers_.Get(Reg::RB_SAMPLE_COUNT_ADDR), 0);
      break;
    default:
      break;
  }
}

void CommandProcessor::VizQuery(std::span<const uint32_t> p) {
  const uint32_t id = p[0] & 0x3Fu;
  const bool end = (p[0] & 0x100u) != 0;
  if (!end) {
    WriteRegister(xenos::RegIndex(Reg::VGT_EVENT_INITIATOR), uint32_t(xenos::Event::kVizQueryStart));
    Event(EventKind::kVizQueryBegin, uint32_t(xenos::Event::kVizQueryStart), 0, id);
    return;
  }
  WriteRegister(xenos::RegIndex(Reg::VGT_EVENT_INITIATOR), uint32_t(xenos::Event::kVizQueryEnd));
  // Xenia reports every query as visible; so do we (no rasterisation here).
  const Reg status = id < 32 ? Reg::PA_SC_VIZ_QUERY_STATUS_0 : Reg::PA_SC_VIZ_QUERY_STATUS_1;
  registers_.Set(status, registers_.Get(status) | (1u << (id & 31)));
  Event(EventKind::kVizQueryEnd, uint32_t(xenos::Event::kVizQueryEnd), 0, id);
}

void CommandProcessor::Swap(std::span<const uint32_t> p) {
  if (p[0] != xenos::kSwapSignature) {
    Report(Severity::kWarning, packet_address_,
           Format("XE_SWAP signature is 0x%08X, expected 0x%08X ('SWAP')", p[0],
                  xenos::kSwapSignature));
  }
  SwapCall call;
  call.frame = frame_;
  call.offset = offset_;
  call.front_buffer_address = p[1];
  call.width = p[2];
  call.height = p[3];
  call.display_gamma = &display_gamma_;
  backend_.OnSwap(call);
  ++swap_counter_;
}

void CommandProcessor::Event(EventKind kind, uint32_t initiator, uint32_t address, uint32_t value) {
  backend_.OnEvent(
      EventCall{.kind = kind, .offset = offset_, .initiator = initiator, .address = address, .value = value});
}

}  // namespace xnt::replay
