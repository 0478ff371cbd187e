// `xenotrace bench format`: writes and reads a synthetic trace with a realistic mix (texture pages
// re-read every frame, unique vertex data, PM4 streams, register snapshots) and compares the
// .xnt reader and writer with plain zstd at the same level on the very same raw chunk bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace xnt::bench {

struct FormatBenchOptions {
  uint64_t logical_bytes = 1ull << 30;  // record payload bytes to generate (about)
  int zstd_level = 3;
  unsigned writer_threads = 0;  // 0 = hardware concurrency
  unsigned reader_threads = 0;  // 0 = hardware concurrency (at most 8)
  std::string path;             // trace file; empty = a temporary file in $TMPDIR, removed after
  // Reading and plain zstd are timed this many times and the fastest pass is kept (writing, the
  // slowest step, once): on a shared machine the minimum is the least disturbed measurement.
  unsigned repeats = 3;
  // Called with a phase name and a fraction in [0, 1]; for progress display.
  std::function<void(const char* phase, double fraction)> progress;
};

struct FormatBenchResult {
  // Speeds are in MB/s (10^6 bytes per second) of raw chunk payload: the FlatBuffers bytes
  // before compression, after page dedup. That is the data plain zstd is timed on, so the
  // numbers compare directly.
  double write_mb_s = 0;             // Writer: encode, dedup, compress (writer_threads), write
  double read_mb_s = 0;              // Reader: open, decompress (reader_threads), verify, rebuild
  double read_1thread_mb_s = 0;      // the same with one thread
  double zstd_compress_mb_s = 0;     // ZSTD_compressCCtx per chunk, one thread
  double zstd_decompress_mb_s = 0;   // ZSTD_decompressDCtx per chunk, one thread
  // The same two single-thread figures by thread CPU time instead of wall time: on a loaded
  // machine these show the code's own cost, undisturbed by time-slicing.
  double read_1thread_cpu_mb_s = 0;
  double zstd_decompress_cpu_mb_s = 0;
  double ratio = 0;                  // raw chunk bytes / stored chunk bytes (.xnt)
  double zstd_ratio = 0;             // the same for plain zstd
  double dedup_ratio = 0;            // logical record bytes / raw chunk bytes
  double write_logical_mb_s = 0;     // logical record bytes per second of writing
  double read_logical_mb_s = 0;      // logical record bytes per second of reading
  uint64_t logical_bytes = 0, raw_bytes = 0, stored_bytes = 0, file_bytes = 0;
  uint64_t frames = 0, chunks = 0, pages_distinct = 0, pages_referenced = 0;
  unsigned writer_threads = 0, reader_threads = 0, repeats = 0;
  int zstd_level = 0;
  std::string path;
};

// Throws xnt::Error on I/O failure or if the trace does not read back as written.
FormatBenchResult RunFormatBench(const FormatBenchOptions& options);

}  // namespace xnt::bench
