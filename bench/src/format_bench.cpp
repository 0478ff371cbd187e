// The format benchmark (format_bench.h). Record content is generated before the clock starts so
// that write timings measure the Writer, not the generator.
#include "xnt/bench/format_bench.h"

#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "synthetic_trace.h"
#include "xnt/base/error.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"

namespace xnt::bench {
namespace {

using Clock = std::chrono::steady_clock;
double Seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }
double ThreadCpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}
double MBs(uint64_t bytes, double seconds) { return seconds > 0 ? double(bytes) / 1e6 / seconds : 0; }

struct TempPath {
  std::string path;
  bool remove = false;
  ~TempPath() {
    if (remove) std::remove(path.c_str());
  }
};

// Reads the whole trace; returns the logical bytes delivered (to check it matches what was written).
// Memory events come as the reader's page spans (what replay and export-xenia read), so this
// times the reader without a consumer's copy, as plain zstd is timed without one.
uint64_t ReadTrace(const std::string& path, unsigned threads) {
  format::ReaderOptions ro;
  ro.threads = threads;
  ro.allow_recovery = false;
  auto reader = format::Reader::Open(path, ro);
  uint64_t bytes = 0;
  reader->ForEachRecordPaged(
      [&](const format::Record& r) {
        if (auto* s = std::get_if<format::Submission>(&r)) bytes += s->dwords.size() * 4;
        else if (auto* g = std::get_if<format::RegisterSnapshot>(&r)) bytes += g->values.size() * 4;
        return true;
      },
      [&](const format::MemoryPages& m) {
        m.ForEachSpan([&](uint32_t, std::span<const uint8_t> run) { bytes += run.size(); });
        return true;
      });
  return bytes;
}

}  // namespace

FormatBenchResult RunFormatBench(const FormatBenchOptions& options) {
  auto progress = [&](const char* phase, double f) {
    if (options.progress) options.progress(phase, f);
  };
  FormatBenchResult res;
  res.zstd_level = options.zstd_level;
  res.writer_threads = options.writer_threads ? options.writer_threads : std::max(1u, std::thread::hardware_concurrency());
  res.reader_threads = options.reader_threads ? options.reader_threads
                                              : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
  TempPath tmp;
  if (options.path.empty()) {
    const char* dir = std::getenv("TMPDIR");
    tmp.path = std::string(dir && *dir ? dir : "/tmp") + "/xenotrace-bench-" + std::to_string(::getpid()) + ".xnt";
    tmp.remove = true;
  } else {
    tmp.path = options.path;
  }
  res.path = tmp.path;

  // ~4 MiB frames, at least 8 of them; a texture pool of 1/16 of the total (2..64 MiB).
  const uint64_t target = std::max<uint64_t>(options.logical_bytes, 1u << 20);
  const uint64_t frames = std::max<uint64_t>(8, target / (4u << 20));
  const uint64_t frame_bytes = target / frames;
  SyntheticTrace synth(std::clamp<uint64_t>(target / 16, 2u << 20, 64u << 20), frame_bytes);
  std::vector<SyntheticFrame> content;
  content.reserve(frames);
  for (uint64_t f = 0; f < frames; ++f) {
    content.push_back(synth.MakeFrame(uint32_t(f)));
    res.logical_bytes += SyntheticTrace::LogicalBytes(content.back());
    progress("generating", double(f + 1) / double(frames));
  }

  // --- Write
  format::TraceInfo info;
  info.title_id = 0x58454E4F;
  info.capture_source = "xenotrace-bench";
  info.creation_time_unix = 0;
  format::WriterOptions wo;
  wo.zstd_level = options.zstd_level;
  wo.threads = res.writer_threads;
  auto t0 = Clock::now();
  {
    auto writer = format::Writer::Create(tmp.path, info, wo);
    for (uint64_t f = 0; f < frames; ++f) {
      const SyntheticFrame& fr = content[f];
      writer->Write(format::RegisterSnapshot{0, fr.registers});
      for (uint32_t id : fr.texture_ids) {
        writer->WriteMemory(format::MemoryEventKind::kGpuRead,
                            SyntheticTrace::kTextureBase + id * SyntheticTrace::kTextureBytes,
                            {synth.texture(id), SyntheticTrace::kTextureBytes});
      }
      writer->WriteMemory(format::MemoryEventKind::kCpuWrite, SyntheticTrace::kVertexBase, fr.vertices);
      writer->Write(format::Submission{format::SubmissionKind::kIndirectBuffer, 0x1E000000, fr.ib});
      writer->Write(format::Submission{format::SubmissionKind::kRingBuffer, 0x1F000000, fr.pm4});
      writer->Write(format::FrameMarker{0, 0x1C000000, 1280, 720, 6});
      progress("writing", double(f + 1) / double(frames));
    }
    writer->Finish();
    res.raw_bytes = writer->totals().bytes_raw;
    res.stored_bytes = writer->totals().bytes_compressed;
    res.pages_distinct = writer->totals().pages_distinct;
    res.pages_referenced = writer->totals().pages_referenced;
  }
  double write_s = Seconds(t0, Clock::now());
  content.clear();
  content.shrink_to_fit();
  res.frames = frames;

  // --- Read (all threads, then one), fastest of `repeats` passes each.
  const unsigned repeats = std::max(1u, options.repeats);
  res.repeats = repeats;
  double read_s = 1e300, read1_s = 1e300, read1_cpu = 1e300;
  for (unsigned rep = 0; rep < repeats; ++rep) {
    progress("reading", double(rep) / repeats);
    auto t1 = Clock::now();
    uint64_t read_back = ReadTrace(tmp.path, res.reader_threads);
    read_s = std::min(read_s, Seconds(t1, Clock::now()));
    if (read_back != res.logical_bytes) {
      throw Error("benchmark trace read back " + std::to_string(read_back) + " payload bytes, wrote " +
                  std::to_string(res.logical_bytes));
    }
    progress("reading (1 thread)", double(rep) / repeats);
    auto t2 = Clock::now();
    double cpu = ThreadCpu();
    ReadTrace(tmp.path, 1);  // one thread: everything runs on this thread
    read1_cpu = std::min(read1_cpu, ThreadCpu() - cpu);
    read1_s = std::min(read1_s, Seconds(t2, Clock::now()));
  }

  // --- Plain zstd on the same raw chunk bytes, one chunk at a time, one thread; the fastest of
  // `repeats` passes for each direction.
  auto reader = format::Reader::Open(tmp.path);
  res.chunks = reader->chunks().size();
  res.file_bytes = reader->file_size();
  std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  double zc_best = 1e300, zd_best = 1e300, zd_cpu_best = 1e300;
  uint64_t z_raw = 0, z_stored = 0;
  std::vector<uint8_t> packed, unpacked;
  for (unsigned rep = 0; rep < repeats; ++rep) {
    double zc_s = 0, zd_s = 0, zd_cpu = 0;
    z_raw = z_stored = 0;
    for (size_t i = 0; i < reader->chunks().size(); ++i) {
      std::vector<uint8_t> raw = reader->ReadChunkRaw(i);
      packed.resize(ZSTD_compressBound(raw.size()));
      auto a = Clock::now();
      size_t n = ZSTD_compressCCtx(cctx.get(), packed.data(), packed.size(), raw.data(), raw.size(), options.zstd_level);
      auto b = Clock::now();
      if (ZSTD_isError(n)) throw Error(std::string("zstd: ") + ZSTD_getErrorName(n));
      unpacked.resize(raw.size());
      double cpu0 = ThreadCpu();
      auto c = Clock::now();
      size_t m = ZSTD_decompressDCtx(dctx.get(), unpacked.data(), unpacked.size(), packed.data(), n);
      auto d = Clock::now();
      zd_cpu += ThreadCpu() - cpu0;
      if (ZSTD_isError(m) || m != raw.size()) throw Error("zstd round trip failed in the benchmark");
      zc_s += Seconds(a, b);
      zd_s += Seconds(c, d);
      z_raw += raw.size();
      z_stored += n;
      progress("plain zstd", (double(rep) + double(i + 1) / double(reader->chunks().size())) / repeats);
    }
    zc_best = std::min(zc_best, zc_s);
    zd_best = std::min(zd_best, zd_s);
    zd_cpu_best = std::min(zd_cpu_best, zd_cpu);
  }
  const double zc_s = zc_best, zd_s = zd_best;

  res.write_mb_s = MBs(res.raw_bytes, write_s);
  res.read_mb_s = MBs(res.raw_bytes, read_s);
  res.read_1thread_mb_s = MBs(res.raw_bytes, read1_s);
  res.read_1thread_cpu_mb_s = MBs(res.raw_bytes, read1_cpu);
  res.zstd_decompress_cpu_mb_s = MBs(z_raw, zd_cpu_best);
  res.zstd_compress_mb_s = MBs(z_raw, zc_s);
  res.zstd_decompress_mb_s = MBs(z_raw, zd_s);
  res.write_logical_mb_s = MBs(res.logical_bytes, write_s);
  res.read_logical_mb_s = MBs(res.logical_bytes, read_s);
  res.ratio = res.stored_bytes ? double(res.raw_bytes) / double(res.stored_bytes) : 0;
  res.zstd_ratio = z_stored ? double(z_raw) / double(z_stored) : 0;
  res.dedup_ratio = res.raw_bytes ? double(res.logical_bytes) / double(res.raw_bytes) : 0;
  return res;
}

}  // namespace xnt::bench
