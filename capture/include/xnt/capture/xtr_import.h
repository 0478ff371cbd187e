// Xenia `.xtr` -> Xenotrace records.
//
// Mapping (Xenia's trace_writer.cc and trace_player.cc for what Xenia records and how its player applies it):
//  - PacketStart/PacketEnd pairs become ring-buffer Submissions (host-order dwords): consecutive
//    packets at consecutive addresses of one primary buffer are grouped; a new primary buffer, a
//    gap in addresses, or any other record between packets starts a new Submission.
//  - Xenia's player writes MemoryRead bytes into guest memory *before* it executes the packet
//    they were recorded in, so a MemoryRead ends the current Submission and becomes a kGpuRead
//    MemoryEvent placed before the packet that was open.
//  - Indirect buffers: Xenia records the IB's packets nested inside the INDIRECT_BUFFER packet.
//    Xenotrace's command processor follows INDIRECT_BUFFER packets through guest memory, so the
//    IB's packet bytes become a kGpuRead MemoryEvent at the IB's address (unless memory already
//    holds exactly those bytes), emitted with any memory the IB read before the Submission that
//    holds the INDIRECT_BUFFER packet. An IndirectBufferStart outside any packet becomes a
//    kIndirectBuffer Submission.
//  - MemoryWrite -> kGpuWrite MemoryEvent; EdramSnapshot -> EdramSnapshot; Registers ->
//    RegisterSnapshot; GammaRamp -> GammaRamp; Event(swap) -> FrameMarker whose front buffer
//    address/size come from the preceding XE_SWAP packet and whose format comes from texture fetch
//    constant 0 (D3D's VdSwap pair, as Xenia's kernel VdSwap writes it).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "xnt/format/records.h"

namespace xnt::capture {

struct XtrImportReport {
  uint32_t title_id = 0;
  std::string build_commit;
  bool legacy_numbering = false;  // pre-Nov-2019 file: swap event numbered 8, no EDRAM command
  std::string numbering_note;
  uint64_t xtr_commands = 0;
  uint64_t packets = 0;
  uint64_t packet_dwords = 0;
  uint64_t submissions = 0;
  uint64_t indirect_buffers = 0;  // nested IBs turned into guest memory
  uint64_t memory_reads = 0;
  uint64_t memory_writes = 0;
  uint64_t memory_bytes = 0;
  uint64_t edram_snapshots = 0;
  uint64_t register_snapshots = 0;
  uint64_t gamma_ramps = 0;
  uint64_t frames = 0;
  std::vector<std::string> notes;  // anything repaired or guessed, with the byte offset
};

using RecordSink = std::function<void(format::Record&&)>;

// Parses `file` (a whole .xtr in memory) and hands the records to `sink` in stream order.
// Throws xnt::Error naming the byte offset on damaged input; records before the damage may
// already have been delivered.
XtrImportReport ImportXtr(std::span<const uint8_t> file, const RecordSink& sink);

}  // namespace xnt::capture
