// Recorder: what an emulator's GPU front end reports while it runs, turned into .xnt records.
//
// Ordering rule: a replayer applies a record before it executes the next one, so guest memory the
// GPU reads while executing a submission must come *before* that submission in the file. An
// emulator usually learns about those reads only while the CP walks the packets, after it has
// handed the ring segment over. The Recorder therefore keeps the latest submission pending:
// GPU reads (and indirect buffers) reported while it is pending are written ahead of it; anything
// that happens after the GPU finished with it (CPU writes, snapshots, a swap, the next submission)
// writes it out first. Limitation: a range the submission itself overwrites (a resolve) and that a
// later packet of the same submission reads is recorded with the data the emulator read, and so is
// visible to the earlier packets too (Xenia's .xtr has the same limitation).
//
// Indirect buffers: the replayer follows INDIRECT_BUFFER packets through guest memory, so
// SubmitIndirect() records the IB's bytes as GPU-read memory; it writes no Submission of its own.
//
// Errors: invalid arguments throw std::invalid_argument; file problems throw xnt::Error.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "xnt/format/records.h"
#include "xnt/format/writer.h"

namespace xnt::capture {

class Recorder {
 public:
  explicit Recorder(std::unique_ptr<format::Writer> writer);
  static std::unique_ptr<Recorder> Create(const std::string& path, const format::TraceInfo& info,
                                          const format::WriterOptions& options = {});
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // A ring-buffer segment the CP is about to execute, as host-order dwords / as the big-endian
  // bytes guest memory holds.
  void Submit(uint32_t guest_address, std::span<const uint32_t> host_dwords);
  void SubmitBigEndian(uint32_t guest_address, std::span<const uint8_t> be_bytes);
  // An indirect buffer the CP fetched (big-endian bytes as in guest memory).
  void SubmitIndirect(uint32_t guest_address, std::span<const uint8_t> be_bytes);

  void MemoryRead(uint32_t guest_address, std::span<const uint8_t> bytes);  // GPU read
  void CpuWrite(uint32_t guest_address, std::span<const uint8_t> bytes);
  void GpuWrite(uint32_t guest_address, std::span<const uint8_t> bytes);   // informational
  void InitialMemory(uint32_t guest_address, std::span<const uint8_t> bytes);
  void Registers(uint32_t first_register, std::span<const uint32_t> values);
  void Edram(std::span<const uint8_t> bytes);  // exactly format::kEdramSizeBytes
  void Gamma(const format::GammaRamp& ramp);
  void Swap(uint32_t front_buffer_address, uint32_t width, uint32_t height, uint32_t format);
  void Annotate(const std::string& label, const std::string& text);

  // Writes the pending submission (if any).
  void Flush();
  // Flushes and finishes the file (footer). Further calls throw std::logic_error.
  void Finish();

  uint64_t submissions() const { return submissions_; }
  uint64_t frames() const { return frames_; }

 private:
  void CheckOpen() const;
  static void CheckRange(uint32_t guest_address, size_t size, const char* what);
  void Memory(format::MemoryEventKind kind, uint32_t guest_address,
              std::span<const uint8_t> bytes);
  void MemoryAfterPending(format::MemoryEventKind kind, const char* what, uint32_t guest_address,
                          std::span<const uint8_t> bytes);

  std::unique_ptr<format::Writer> writer_;
  std::optional<format::Submission> pending_;
  bool finished_ = false;
  uint64_t submissions_ = 0;
  uint64_t frames_ = 0;
};

}  // namespace xnt::capture
