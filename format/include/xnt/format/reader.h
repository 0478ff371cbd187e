// .xnt reader: validates every chunk (header sanity, XXH3-64 of the raw bytes, FlatBuffers
// verifier) before use and reports problems with the byte offset where they were found. A file
// without a footer (a capture that died) is read by scanning and yields every whole chunk before
// the damage.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "xnt/format/memory_pages.h"
#include "xnt/format/records.h"

namespace xnt::format {

enum class ChunkType : uint8_t {
  kInfo = 1,      // TraceInfo
  kCommands = 2,  // a run of records in stream order (memory events refer to pages by hash)
  kPages = 3,     // page contents keyed by hash
  kEdram = 4,     // one EDRAM snapshot
  kFooter = 5,    // frame index + totals
};
const char* ChunkTypeName(ChunkType type);

struct ChunkSummary {
  uint64_t file_offset = 0;
  ChunkType type{};
  uint8_t codec = 0;  // 0 stored, 1 zstd
  uint64_t stored_size = 0;
  uint64_t raw_size = 0;
};

struct ReaderOptions {
  // When false, a missing footer is an error instead of a recovered prefix.
  bool allow_recovery = true;
  // Chunks decompressed ahead of the consumer by worker threads; 0 = hardware concurrency
  // (at most 8), 1 = decompress on the calling thread only.
  unsigned threads = 0;
};

class Reader {
 public:
  // Opens and indexes the file (reads chunk headers; verifies the footer). Throws xnt::Error.
  static std::unique_ptr<Reader> Open(const std::string& path, const ReaderOptions& options = {});
  // Same over bytes in memory (tests, fuzzing); the bytes are copied.
  static std::unique_ptr<Reader> OpenMemory(std::span<const uint8_t> bytes,
                                            const ReaderOptions& options = {});
  virtual ~Reader() = default;

  virtual const TraceInfo& info() const = 0;
  // True when the footer was missing or damaged and the chunks were found by scanning.
  virtual bool recovered() const = 0;
  // Why recovery stopped (offset and reason), when recovered() is true.
  virtual const std::string& recovery_note() const = 0;
  virtual uint64_t frame_count() const = 0;
  virtual const TraceTotals& totals() const = 0;
  virtual const std::vector<ChunkSummary>& chunks() const = 0;

  // Streams records in order, starting with the first record of frame `first_frame` (frame 0 =
  // everything from the start) up to and including the FrameMarker ending `last_frame`
  // (nullopt = to the end). The callback returns false to stop early. Memory events arrive with
  // their bytes filled in (copied out of the stored pages; ForEachRecordPaged avoids the copy).
  // Throws xnt::Error on damage found along the way. The Record passed to the callback is valid
  // only during the call (the reader reuses its buffers); copy what you keep.
  using RecordCallback = std::function<bool(const Record&)>;
  void ForEachRecord(const RecordCallback& callback, uint64_t first_frame = 0,
                     std::optional<uint64_t> last_frame = std::nullopt);

  // The same stream, but memory events go to `memory` as the stored pages that hold them
  // (memory_pages.h: spans into the decoded chunks, valid only during that call) and every other
  // record to `callback`, in one stream order (both are required: xnt::Error before reading
  // when one is empty). Either callback returns false to stop. Every check
  // ForEachRecord makes is made here too (ForEachRecord is this plus a copy).
  using MemoryCallback = std::function<bool(const MemoryPages&)>;
  virtual void ForEachRecordPaged(const RecordCallback& callback, const MemoryCallback& memory,
                                  uint64_t first_frame = 0,
                                  std::optional<uint64_t> last_frame = std::nullopt) = 0;

  // Reads and checks every chunk, cross-references (every page a memory event names exists, the
  // footer agrees with the chunks). Returns the problems found; empty = valid.
  virtual std::vector<std::string> Validate() = 0;

  // --- Additions beyond the first API (additive).

  // Memory state before frame `frame`: every MemoryEvent, RegisterSnapshot, EdramSnapshot and
  // GammaRamp record of frames [0, frame), in stream order, without the PM4 submissions. A replay
  // that starts at frame N with ForEachRecord(cb, N) applies these first, since memory written in
  // earlier frames is not repeated in frame N.
  void ForEachStateRecordBefore(const RecordCallback& callback, uint64_t frame);
  // The same with memory events as pages (see ForEachRecordPaged).
  virtual void ForEachStateRecordBeforePaged(const RecordCallback& callback, const MemoryCallback& memory,
                                             uint64_t frame) = 0;

  // The verified raw (decompressed) payload of chunk `index` of chunks(): the FlatBuffer bytes.
  // For tools and benchmarks; throws xnt::Error on damage.
  virtual std::vector<uint8_t> ReadChunkRaw(size_t index) = 0;

  // The footer chunk (not part of chunks()), when the file has a usable one.
  virtual std::optional<ChunkSummary> footer() const = 0;

  // Size of the whole file in bytes.
  virtual uint64_t file_size() const = 0;
};

}  // namespace xnt::format
