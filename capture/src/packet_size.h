// How many dwords the PM4 packet starting with `header` occupies, header included — the walk that
// splits a submission back into packets for .xtr export and checks imported packets.
// Rules: Xenia command_processor.cc ExecutePacket/ExecutePacketType0..3:
// a zero dword is a one-dword no-op, type 0 and type 3 carry count dwords after the header,
// type 1 carries two, type 2 none.
#pragma once

#include <cstdint>

#include "xnt/xenos/pm4.h"

namespace xnt::capture {

inline uint32_t PacketDwords(uint32_t header) {
  if (header == 0) return 1;
  switch (xenos::GetPacketType(header)) {
    case xenos::PacketType::kType0: return 1 + xenos::DecodeType0(header).count;
    case xenos::PacketType::kType1: return 3;
    case xenos::PacketType::kType2: return 1;
    case xenos::PacketType::kType3: return 1 + xenos::DecodeType3(header).count;
  }
  return 1;
}

inline bool IsIndirectBufferPacket(uint32_t header) {
  if (header == 0 || xenos::GetPacketType(header) != xenos::PacketType::kType3) return false;
  const uint32_t op = xenos::DecodeType3(header).opcode;
  return op == uint32_t(xenos::Opcode::kIndirectBuffer) ||
         op == uint32_t(xenos::Opcode::kIndirectBufferPfd);
}

}  // namespace xnt::capture
