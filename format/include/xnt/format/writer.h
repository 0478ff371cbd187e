// Streaming .xnt writer. Records are appended in stream order and packed into chunks that are
// compressed on worker threads; memory use is bounded by the number of chunks in flight, not by
// the trace size. Each chunk is written whole, so a process killed mid-write leaves a file whose
// whole chunks are all readable (Reader recovers them by scanning).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "xnt/format/records.h"

namespace xnt::format {

struct WriterOptions {
  int zstd_level = 3;                       // zstd level; 1..19 (3 = fast default); 0 = store
                                            // chunks uncompressed (tests, fuzzing seeds)
  unsigned threads = 0;                     // compression workers; 0 = hardware concurrency
  size_t chunk_target_bytes = 1u << 20;     // raw bytes per command/page chunk before flushing
  std::string writer_name = "xenotrace";
  std::string writer_version;               // empty = this build's version
};

class Writer {
 public:
  // Throws xnt::Error if the file cannot be created.
  static std::unique_ptr<Writer> Create(const std::string& path, const TraceInfo& info,
                                        const WriterOptions& options = {});
  virtual ~Writer() = default;

  virtual void Write(const Record& record) = 0;
  // Convenience for memory: avoids building a MemoryEvent copy.
  virtual void WriteMemory(MemoryEventKind kind, uint32_t guest_address,
                           std::span<const uint8_t> bytes) = 0;
  // Flushes pending chunks, writes the footer (frame index + totals) and closes the file.
  // A Writer destroyed without Finish() still writes out its whole chunks but no footer.
  virtual void Finish() = 0;

  virtual const TraceTotals& totals() const = 0;
};

}  // namespace xnt::format
