// .xtr -> records. See xtr_import.h for the mapping and why each piece goes where it does.
#include "xnt/capture/xtr_import.h"

#include <optional>

#include "guest_shadow.h"
#include "hex.h"
#include "packet_size.h"
#include "swap_tracker.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/capture/xtr_file.h"

namespace xnt::capture {

namespace {

using xtr::CommandType;

// Indirect buffers nest at most a few levels on the console; deeper nesting in a file is damage.
constexpr size_t kMaxIndirectDepth = 8;

struct Packet {
  uint32_t address = 0;
  std::vector<uint32_t> dwords;  // host order
  uint64_t offset = 0;           // of the PacketStart record
};

// An indirect buffer recorded inside its INDIRECT_BUFFER packet.
struct IbFrame {
  uint32_t base = 0;
  uint64_t offset = 0;
  Packet caller;                                    // the INDIRECT_BUFFER packet
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> segments;  // contiguous packet bytes
  std::vector<format::Record> deferred;  // memory the IB's packets read, in order
  uint64_t dwords = 0;
};

class Importer {
 public:
  Importer(const RecordSink& sink, XtrImportReport& report) : sink_(sink), report_(report) {}

  void OnCommand(const xtr::Command& c) {
    const bool was_after_ib = after_ib_;
    after_ib_ = false;
    switch (c.type) {
      case CommandType::kPrimaryBufferStart:
      case CommandType::kPrimaryBufferEnd:
        CommitPending("a primary buffer boundary");
        if (ibs_.empty()) FlushSubmission();
        kind_ = format::SubmissionKind::kRingBuffer;
        break;
      case CommandType::kIndirectBufferStart:
        OnIndirectStart(c);
        break;
      case CommandType::kIndirectBufferEnd:
        OnIndirectEnd(c);
        after_ib_ = true;
        break;
      case CommandType::kPacketStart: {
        CommitPending("the next PacketStart");
        Packet p;
        p.address = c.base_ptr;
        p.offset = c.file_offset;
        p.dwords.resize(c.count);
        for (uint32_t i = 0; i < c.count; ++i) p.dwords[i] = LoadBE32(c.data.data() + 4 * i);
        pending_ = std::move(p);
        break;
      }
      case CommandType::kPacketEnd:
        if (pending_) {
          Packet p = std::move(*pending_);
          pending_.reset();
          Commit(std::move(p));
        } else if (!was_after_ib) {
          Note(c.file_offset, "PacketEnd without a PacketStart (ignored)");
        }
        break;
      case CommandType::kMemoryRead:
      case CommandType::kMemoryWrite: {
        format::MemoryEvent m;
        m.kind = c.type == CommandType::kMemoryRead ? format::MemoryEventKind::kGpuRead
                                                     : format::MemoryEventKind::kGpuWrite;
        m.guest_address = c.base_ptr;
        m.bytes = c.data;
        if (c.type == CommandType::kMemoryRead) {
          shadow_.Write(m.guest_address, m.bytes);
          ++report_.memory_reads;
        } else {
          ++report_.memory_writes;
        }
        report_.memory_bytes += m.bytes.size();
        Emit(std::move(m));
        break;
      }
      case CommandType::kEdramSnapshot: {
        format::EdramSnapshot e;
        e.bytes = c.data;
        ++report_.edram_snapshots;
        Emit(std::move(e));
        break;
      }
      case CommandType::kRegisters: {
        format::RegisterSnapshot r;
        r.first_register = c.first_register;
        r.values.resize(c.count);
        for (uint32_t i = 0; i < c.count; ++i) r.values[i] = LoadLE32(c.data.data() + 4 * i);
        for (uint32_t i = 0; i < c.count; ++i) swap_.OnRegister(r.first_register + i, r.values[i]);
        ++report_.register_snapshots;
        Emit(std::move(r));
        break;
      }
      case CommandType::kGammaRamp: {
        format::GammaRamp g;
        g.rw_component = c.rw_component;
        g.table.resize(xtr::kGammaTableEntries);
        g.pwl.resize(xtr::kGammaPwlEntries);
        for (uint32_t i = 0; i < xtr::kGammaTableEntries; ++i) {
          g.table[i] = LoadLE32(c.data.data() + 4 * i);
        }
        for (uint32_t i = 0; i < xtr::kGammaPwlEntries; ++i) {
          g.pwl[i] = LoadLE32(c.data.data() + 4 * (xtr::kGammaTableEntries + i));
        }
        ++report_.gamma_ramps;
        Emit(std::move(g));
        break;
      }
      case CommandType::kEvent: {
        // Xenia writes the swap event after the XE_SWAP packet's PacketEnd (command_processor.cc).
        CommitPending("the swap event");
        format::FrameMarker f;
        if (swap_.have_swap()) {
          f.front_buffer_address = swap_.front_buffer_address();
          f.width = swap_.width();
          f.height = swap_.height();
        } else {
          Note(c.file_offset, "swap event with no XE_SWAP packet before it: front buffer unknown");
        }
        f.format = swap_.front_buffer_format();
        if (!swap_.format_known()) {
          Note(c.file_offset,
               "swap event before any texture fetch constant 0: front buffer format assumed "
               "k_8_8_8_8");
        }
        swap_.ResetSwap();
        ++report_.frames;
        Emit(std::move(f));
        break;
      }
    }
  }

  void Finish(uint64_t end_offset) {
    CommitPending("the end of the file");
    while (!starts_.empty()) {
      Note(end_offset, "indirect buffer still open at the end of the file (closed)");
      xtr::Command end;
      end.type = CommandType::kIndirectBufferEnd;
      end.file_offset = end_offset;
      OnIndirectEnd(end);
    }
    FlushSubmission();
  }

 private:
  void Note(uint64_t offset, const std::string& text) {
    if (report_.notes.size() < 100) {
      report_.notes.push_back("at byte offset " + std::to_string(offset) + ": " + text);
    }
  }

  void CommitPending(const char* why) {
    if (!pending_) return;
    Note(pending_->offset, std::string("packet had no PacketEnd before ") + why + " (kept)");
    Packet p = std::move(*pending_);
    pending_.reset();
    Commit(std::move(p));
  }

  void Commit(Packet p) {
    ++report_.packets;
    report_.packet_dwords += p.dwords.size();
    swap_.OnPacket(p.dwords);
    if (!ibs_.empty()) {
      AppendToIb(ibs_.back(), p);
      return;
    }
    const uint32_t size_from_header = PacketDwords(p.dwords[0]);
    if (sub_ && (sub_->kind != kind_ || sub_next_ != p.address)) FlushSubmission();
    if (!sub_) {
      sub_.emplace();
      sub_->kind = kind_;
      sub_->guest_address = p.address;
    }
    sub_->dwords.insert(sub_->dwords.end(), p.dwords.begin(), p.dwords.end());
    // The next packet follows the whole packet the header describes, even if fewer dwords were
    // recorded (Xenia records INDIRECT_BUFFER packets short).
    sub_next_ = p.address + 4 * std::max<uint32_t>(size_from_header, uint32_t(p.dwords.size()));
  }

  static void AppendToIb(IbFrame& ib, const Packet& p) {
    std::vector<uint8_t> bytes(p.dwords.size() * 4);
    for (size_t i = 0; i < p.dwords.size(); ++i) StoreBE32(bytes.data() + 4 * i, p.dwords[i]);
    if (!ib.segments.empty()) {
      auto& last = ib.segments.back();
      if (uint64_t(last.first) + last.second.size() == p.address) {
        last.second.insert(last.second.end(), bytes.begin(), bytes.end());
        ib.dwords += p.dwords.size();
        return;
      }
    }
    ib.segments.emplace_back(p.address, std::move(bytes));
    ib.dwords += p.dwords.size();
  }

  void Emit(format::Record&& r) {
    if (!ibs_.empty()) {
      ibs_.back().deferred.push_back(std::move(r));
      return;
    }
    FlushSubmission();
    sink_(std::move(r));
  }

  void FlushSubmission() {
    if (!sub_) return;
    ++report_.submissions;
    format::Record r = std::move(*sub_);
    sub_.reset();
    sink_(std::move(r));
  }

  void OnIndirectStart(const xtr::Command& c) {
    if (starts_.size() >= kMaxIndirectDepth) {
      throw Error("indirect buffers nested deeper than " + std::to_string(kMaxIndirectDepth),
                  c.file_offset);
    }
    if (pending_) {
      // Nested inside its INDIRECT_BUFFER packet: the usual Xenia layout.
      IbFrame ib;
      ib.base = c.base_ptr;
      ib.offset = c.file_offset;
      ib.caller = std::move(*pending_);
      pending_.reset();
      ibs_.push_back(std::move(ib));
      starts_.push_back(true);
      ++report_.indirect_buffers;
      return;
    }
    // An indirect buffer outside any packet: keep it as its own submission.
    if (ibs_.empty()) FlushSubmission();
    starts_.push_back(false);
    kind_stack_.push_back(kind_);
    kind_ = format::SubmissionKind::kIndirectBuffer;
  }

  void OnIndirectEnd(const xtr::Command& c) {
    if (starts_.empty()) {
      Note(c.file_offset, "IndirectBufferEnd without a start (ignored)");
      return;
    }
    CommitPending("the end of its indirect buffer");
    const bool nested = starts_.back();
    starts_.pop_back();
    if (!nested) {
      if (ibs_.empty()) FlushSubmission();
      kind_ = kind_stack_.back();
      kind_stack_.pop_back();
      return;
    }
    IbFrame ib = std::move(ibs_.back());
    ibs_.pop_back();
    // The IB's memory reads first, then its own bytes: both must be in guest memory before the
    // INDIRECT_BUFFER packet runs.
    for (auto& r : ib.deferred) Emit(std::move(r));
    for (auto& [address, bytes] : ib.segments) {
      if (shadow_.Holds(address, bytes)) continue;
      shadow_.Write(address, bytes);
      format::MemoryEvent m;
      m.kind = format::MemoryEventKind::kGpuRead;
      m.guest_address = address;
      m.bytes = std::move(bytes);
      Emit(std::move(m));
    }
    Packet caller = std::move(ib.caller);
    // Xenia's writer records INDIRECT_BUFFER packets as header + pointer only (2 dwords, trace_writer.cc
    // WritePacketStart); rebuild the length dword from what the IB held so the packet is whole again.
    const uint32_t want = PacketDwords(caller.dwords[0]);
    if (IsIndirectBufferPacket(caller.dwords[0]) && caller.dwords.size() < want && want == 3) {
      if (caller.dwords.size() < 2) caller.dwords.push_back(ib.base);
      caller.dwords.push_back(uint32_t(ib.dwords) & 0xFFFFFu);
      Note(caller.offset, "INDIRECT_BUFFER packet recorded with " +
                              std::to_string(caller.dwords.size() - 1) +
                              " dwords; length rebuilt as " + std::to_string(ib.dwords));
    }
    Commit(std::move(caller));
  }

  const RecordSink& sink_;
  XtrImportReport& report_;
  std::optional<format::Submission> sub_;
  uint32_t sub_next_ = 0;
  format::SubmissionKind kind_ = format::SubmissionKind::kRingBuffer;
  std::vector<format::SubmissionKind> kind_stack_;
  std::optional<Packet> pending_;
  std::vector<IbFrame> ibs_;
  std::vector<bool> starts_;  // per open IndirectBufferStart: true = nested in its packet
  bool after_ib_ = false;
  GuestShadow shadow_;
  SwapTracker swap_;
};

}  // namespace

XtrImportReport ImportXtr(std::span<const uint8_t> file, const RecordSink& sink) {
  XtrImportReport report;
  Importer importer(sink, report);
  xtr::ParseInfo info =
      xtr::Parse(file, [&](const xtr::Command& c) { importer.OnCommand(c); });
  importer.Finish(file.size());
  report.title_id = info.header.title_id;
  report.build_commit = info.header.build_commit;
  report.legacy_numbering = info.numbering == xtr::Numbering::kLegacy2015;
  report.numbering_note = info.numbering_note;
  report.xtr_commands = info.command_count;
  return report;
}

}  // namespace xnt::capture
