#include "xnt/capture/recorder.h"

#include <stdexcept>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"

namespace xnt::capture {

Recorder::Recorder(std::unique_ptr<format::Writer> writer) : writer_(std::move(writer)) {
  if (!writer_) throw std::invalid_argument("Recorder needs a writer");
}

std::unique_ptr<Recorder> Recorder::Create(const std::string& path, const format::TraceInfo& info,
                                           const format::WriterOptions& options) {
  return std::make_unique<Recorder>(format::Writer::Create(path, info, options));
}

Recorder::~Recorder() = default;

void Recorder::CheckOpen() const {
  if (finished_) throw std::logic_error("the recording is already finished");
}

void Recorder::CheckRange(uint32_t guest_address, size_t size, const char* what) {
  if (uint64_t(guest_address) + size > format::kGuestPhysicalSize) {
    throw std::invalid_argument(std::string(what) + ": range " + std::to_string(guest_address) +
                                " + " + std::to_string(size) +
                                " lies outside 512 MiB of guest physical memory");
  }
}

void Recorder::Submit(uint32_t guest_address, std::span<const uint32_t> host_dwords) {
  CheckOpen();
  if (host_dwords.empty()) throw std::invalid_argument("submit: no dwords");
  CheckRange(guest_address, host_dwords.size_bytes(), "submit");
  Flush();
  pending_.emplace();
  pending_->kind = format::SubmissionKind::kRingBuffer;
  pending_->guest_address = guest_address;
  pending_->dwords.assign(host_dwords.begin(), host_dwords.end());
}

void Recorder::SubmitBigEndian(uint32_t guest_address, std::span<const uint8_t> be_bytes) {
  if (be_bytes.size() % 4 != 0) {
    throw std::invalid_argument("submit: " + std::to_string(be_bytes.size()) +
                                " bytes is not a whole number of dwords");
  }
  std::vector<uint32_t> dwords(be_bytes.size() / 4);
  for (size_t i = 0; i < dwords.size(); ++i) dwords[i] = LoadBE32(be_bytes.data() + 4 * i);
  Submit(guest_address, dwords);
}

void Recorder::SubmitIndirect(uint32_t guest_address, std::span<const uint8_t> be_bytes) {
  if (be_bytes.empty() || be_bytes.size() % 4 != 0) {
    throw std::invalid_argument("indirect buffer: " + std::to_string(be_bytes.size()) +
                                " bytes is not a positive whole number of dwords");
  }
  MemoryRead(guest_address, be_bytes);
}

void Recorder::Memory(format::MemoryEventKind kind, uint32_t guest_address,
                      std::span<const uint8_t> bytes) {
  CheckOpen();
  CheckRange(guest_address, bytes.size(), "memory");
  writer_->WriteMemory(kind, guest_address, bytes);
}

void Recorder::MemoryRead(uint32_t guest_address, std::span<const uint8_t> bytes) {
  // Ahead of the pending submission: the GPU needs it while executing that submission.
  Memory(format::MemoryEventKind::kGpuRead, guest_address, bytes);
}

// Writes and snapshots land after the pending submission, which saw the memory as it was before.
void Recorder::MemoryAfterPending(format::MemoryEventKind kind, const char* what, uint32_t guest_address,
                                  std::span<const uint8_t> bytes) {
  CheckOpen();
  CheckRange(guest_address, bytes.size(), what);
  Flush();
  Memory(kind, guest_address, bytes);
}

void Recorder::CpuWrite(uint32_t guest_address, std::span<const uint8_t> bytes) {
  MemoryAfterPending(format::MemoryEventKind::kCpuWrite, "cpu write", guest_address, bytes);
}

void Recorder::GpuWrite(uint32_t guest_address, std::span<const uint8_t> bytes) {
  MemoryAfterPending(format::MemoryEventKind::kGpuWrite, "gpu write", guest_address, bytes);
}

void Recorder::InitialMemory(uint32_t guest_address, std::span<const uint8_t> bytes) {
  MemoryAfterPending(format::MemoryEventKind::kInitialSnapshot, "initial memory", guest_address, bytes);
}

void Recorder::Registers(uint32_t first_register, std::span<const uint32_t> values) {
  CheckOpen();
  if (values.empty() || uint64_t(first_register) + values.size() > 0x10000) {
    throw std::invalid_argument("registers: block outside the 64 Ki register space");
  }
  Flush();
  writer_->Write(format::RegisterSnapshot{first_register, {values.begin(), values.end()}});
}

void Recorder::Edram(std::span<const uint8_t> bytes) {
  CheckOpen();
  if (bytes.size() != format::kEdramSizeBytes) {
    throw std::invalid_argument("edram: " + std::to_string(bytes.size()) +
                                " bytes (needs exactly 10 MiB)");
  }
  Flush();
  writer_->Write(format::EdramSnapshot{{bytes.begin(), bytes.end()}});
}

void Recorder::Gamma(const format::GammaRamp& ramp) {
  CheckOpen();
  if (ramp.table.size() != 256 || ramp.pwl.size() != 384 || ramp.rw_component > 2) {
    throw std::invalid_argument("gamma: needs 256 table and 3 x 128 PWL entries, component 0..2");
  }
  Flush();
  writer_->Write(ramp);
}

void Recorder::Swap(uint32_t front_buffer_address, uint32_t width, uint32_t height,
                    uint32_t format) {
  CheckOpen();
  Flush();
  format::FrameMarker f;
  f.front_buffer_address = front_buffer_address;
  f.width = width;
  f.height = height;
  f.format = format;
  writer_->Write(f);
  ++frames_;
}

void Recorder::Annotate(const std::string& label, const std::string& text) {
  CheckOpen();
  Flush();
  writer_->Write(format::Annotation{label, text});
}

void Recorder::Flush() {
  if (!pending_) return;
  format::Record r = std::move(*pending_);
  pending_.reset();
  writer_->Write(r);
  ++submissions_;
}

void Recorder::Finish() {
  CheckOpen();
  Flush();
  finished_ = true;
  writer_->Finish();
}

}  // namespace xnt::capture
