// records -> .xtr. See xtr_export.h for the mapping.
#include "xnt/capture/xtr_export.h"

#include <type_traits>

#include "guest_shadow.h"
#include "hex.h"
#include "packet_size.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/capture/xtr_file.h"

namespace xnt::capture {

namespace {
// Nesting bound for IBs reconstructed from memory: stops IBs that call themselves.
constexpr int kMaxIndirectDepth = 4;
// INDIRECT_BUFFER payload: pointer, then length in dwords in bits 19:0.
constexpr uint32_t kIbLengthMask = 0xFFFFFu;

xtr::Command Cmd(xtr::CommandType type, uint32_t base_ptr = 0) {
  xtr::Command c;
  c.type = type;
  c.base_ptr = base_ptr;
  return c;
}
}  // namespace

struct XtrExporter::Impl {
  std::vector<uint8_t>& out;
  xtr::Serializer ser;
  XtrExportReport report;
  GuestShadow shadow;

  Impl(std::vector<uint8_t>& o) : out(o), ser(o) {}

  void Write(const xtr::Command& c) {
    const size_t before = out.size();
    ser.Write(c);
    report.bytes_written += out.size() - before;
  }

  void Note(const std::string& text) {
    if (report.notes.size() < 100) report.notes.push_back(text);
  }

  // Writes the packets of `dwords` (host order) found at guest address `address`.
  void WritePackets(std::span<const uint32_t> dwords, uint32_t address, int depth) {
    size_t i = 0;
    while (i < dwords.size()) {
      uint32_t size = PacketDwords(dwords[i]);
      if (i + size > dwords.size()) {
        Note("packet at " + Hex(address + uint32_t(4 * i)) + " needs " + std::to_string(size) +
             " dwords, " + std::to_string(dwords.size() - i) +
             " remain in its submission: written as recorded");
        size = uint32_t(dwords.size() - i);
      }
      const auto packet = dwords.subspan(i, size);
      const uint32_t packet_address = address + uint32_t(4 * i);
      xtr::Command start;
      start.type = xtr::CommandType::kPacketStart;
      start.base_ptr = packet_address;
      start.data.resize(size_t(size) * 4);
      for (uint32_t k = 0; k < size; ++k) StoreBE32(start.data.data() + 4 * k, packet[k]);
      Write(start);
      ++report.packets;
      if (IsIndirectBufferPacket(packet[0]) && size == 3) WriteNestedIb(packet, depth);
      Write(Cmd(xtr::CommandType::kPacketEnd));
      i += size;
    }
  }

  void WriteNestedIb(std::span<const uint32_t> packet, int depth) {
    const uint32_t ib_address = xenos::CpuToGpu(packet[1]);
    const uint32_t ib_dwords = packet[2] & kIbLengthMask;
    if (depth >= kMaxIndirectDepth) {
      Note("indirect buffer at " + Hex(ib_address) + " nested too deep: not expanded");
      return;
    }
    std::vector<uint8_t> bytes(size_t(ib_dwords) * 4);
    if (ib_dwords == 0 || !shadow.Read(ib_address, bytes)) {
      Note("indirect buffer at " + Hex(ib_address) + " (" + std::to_string(ib_dwords) +
           " dwords) is not in recorded memory: written as the bare packet");
      return;
    }
    std::vector<uint32_t> ib(ib_dwords);
    for (uint32_t k = 0; k < ib_dwords; ++k) ib[k] = LoadBE32(bytes.data() + 4 * k);
    Write(Cmd(xtr::CommandType::kIndirectBufferStart, ib_address));
    WritePackets(ib, ib_address, depth + 1);
    Write(Cmd(xtr::CommandType::kIndirectBufferEnd));
    ++report.indirect_buffers_nested;
  }

  void Add(const format::Submission& s) {
    const bool ring = s.kind == format::SubmissionKind::kRingBuffer;
    Write(Cmd(ring ? xtr::CommandType::kPrimaryBufferStart : xtr::CommandType::kIndirectBufferStart,
              s.guest_address));
    WritePackets(s.dwords, s.guest_address, 0);
    Write(Cmd(ring ? xtr::CommandType::kPrimaryBufferEnd
                                    : xtr::CommandType::kIndirectBufferEnd));
    ++report.submissions;
  }

  void Add(const format::MemoryEvent& m) { AddMemory(m.kind, m.guest_address, m.bytes); }
  // The reader's page spans are copied once, into the command's data.
  void Add(const format::MemoryPages& m) {
    std::vector<uint8_t> bytes(m.size());
    m.CopyTo(bytes);
    AddMemory(m.kind(), m.guest_address(), std::move(bytes));
  }

  void AddMemory(format::MemoryEventKind kind, uint32_t guest_address, std::vector<uint8_t> bytes) {
    xtr::Command c;
    const bool write = kind == format::MemoryEventKind::kGpuWrite;
    c.type = write ? xtr::CommandType::kMemoryWrite : xtr::CommandType::kMemoryRead;
    c.base_ptr = guest_address;
    c.data = std::move(bytes);
    c.encoding = xtr::Serializer::XeniaEncoding(c.type, c.data.size());
    if (write) {
      ++report.memory_writes;
    } else {
      ++report.memory_reads;
      if (kind != format::MemoryEventKind::kGpuRead) ++report.memory_kind_changed;
      // What a replay would have in memory: GPU writes are informational and not applied.
      shadow.Write(guest_address, c.data);
    }
    Write(c);
  }

  void Add(const format::RegisterSnapshot& r) {
    xtr::Command c;
    c.type = xtr::CommandType::kRegisters;
    c.first_register = r.first_register;
    c.execute_callbacks = false;  // Xenia's InitializeTrace restores by direct copy too
    c.data.resize(r.values.size() * 4);
    for (size_t i = 0; i < r.values.size(); ++i) StoreLE32(c.data.data() + 4 * i, r.values[i]);
    c.encoding = xtr::Encoding::kSnappy;
    Write(c);
    ++report.register_snapshots;
  }

  void Add(const format::EdramSnapshot& e) {
    if (e.bytes.size() != format::kEdramSizeBytes) {
      throw Error("EDRAM snapshot of " + std::to_string(e.bytes.size()) +
                  " bytes cannot be exported (Xenia needs exactly 10 MiB)");
    }
    xtr::Command c;
    c.type = xtr::CommandType::kEdramSnapshot;
    c.data = e.bytes;
    c.encoding = xtr::Encoding::kSnappy;
    Write(c);
    ++report.edram_snapshots;
  }

  void Add(const format::GammaRamp& g) {
    if (g.table.size() != xtr::kGammaTableEntries || g.pwl.size() != xtr::kGammaPwlEntries) {
      throw Error("gamma ramp with " + std::to_string(g.table.size()) + " table and " +
                  std::to_string(g.pwl.size()) +
                  " PWL entries cannot be exported (Xenia needs 256 and 384)");
    }
    xtr::Command c;
    c.type = xtr::CommandType::kGammaRamp;
    c.rw_component = g.rw_component;
    c.data.resize(xtr::kGammaRampBytes);
    for (size_t i = 0; i < g.table.size(); ++i) StoreLE32(c.data.data() + 4 * i, g.table[i]);
    for (size_t i = 0; i < g.pwl.size(); ++i) {
      StoreLE32(c.data.data() + 4 * (g.table.size() + i), g.pwl[i]);
    }
    c.encoding = xtr::Encoding::kSnappy;
    Write(c);
    ++report.gamma_ramps;
  }

  void Add(const format::FrameMarker&) {
    // Xenia takes the front buffer from the XE_SWAP packet; the event only ends the frame.
    Write(Cmd(xtr::CommandType::kEvent));
    ++report.frames;
  }

  void Add(const format::Annotation&) { ++report.annotations_dropped; }
};

XtrExporter::XtrExporter(std::vector<uint8_t>& out, uint32_t title_id,
                         const std::string& build_commit)
    : impl_(std::make_unique<Impl>(out)) {
  xtr::Header h;
  h.title_id = title_id;
  h.build_commit = build_commit;
  const size_t before = out.size();
  impl_->ser.WriteHeader(h);
  impl_->report.bytes_written += out.size() - before;
}

XtrExporter::~XtrExporter() = default;

void XtrExporter::Add(const format::Record& record) {
  ++impl_->report.records;
  std::visit([this](const auto& r) { impl_->Add(r); }, record);
}

void XtrExporter::Add(const format::MemoryPages& memory) {
  ++impl_->report.records;
  impl_->Add(memory);
}

const XtrExportReport& XtrExporter::report() const { return impl_->report; }

}  // namespace xnt::capture
