// `xenotrace bench format [--size BYTES] [--json]`: writes and reads a synthetic ~1 GiB trace and
// compares with plain zstd at the same level on the same raw chunk bytes (bench/).
#include <cstdio>
#include <memory>
#include <string>

#include "command.h"
#include "xnt/bench/format_bench.h"
#include "xnt/bench/render_bench.h"
#include "xnt/base/error.h"
#include "xnt/base/json.h"
#include "xnt/renderer/session.h"

namespace xnt::cli {
namespace {

struct RenderArgs {
  std::string paths = "cpu,fbo";
  uint32_t width = 1280, height = 720, small_draws = 2000, repeats = 5;
  int device = -1;
  uint32_t threads = 0;
  bool json = false;
};

int RunRenderBenchCommand(const RenderArgs& a) {
  bench::RenderBenchOptions o;
  o.paths.clear();
  for (size_t start = 0; start <= a.paths.size();) {
    size_t comma = a.paths.find(',', start);
    if (comma == std::string::npos) comma = a.paths.size();
    const std::string name = a.paths.substr(start, comma - start);
    if (!renderer::ParsePath(name)) throw Error("--paths: unknown render path '" + name + "'");
    o.paths.push_back(name);
    start = comma + 1;
  }
  o.width = a.width;
  o.height = a.height;
  o.small_draws = a.small_draws;
  o.repeats = a.repeats;
  o.device_index = a.device;
  o.threads = a.threads;
  if (StderrIsTerminal() && !a.json) {
    o.progress = [](const std::string& what) { std::fprintf(stderr, "\r%-40s", what.c_str()); };
  }
  const std::vector<bench::RenderBenchResult> results = bench::RunRenderBench(o);
  if (o.progress) std::fprintf(stderr, "\r%40s\r", "");
  bool any = false;
  if (a.json) std::printf("{\n  \"cases\": [");
  for (size_t i = 0; i < results.size(); ++i) {
    const bench::RenderBenchResult& r = results[i];
    any = any || r.error.empty();
    if (a.json) {
      std::printf("%s\n    {\"scene\": %s, \"path\": %s, \"device\": %s, \"draws\": %u, "
                  "\"pixels\": %llu, \"median_seconds\": %.6f, \"min_seconds\": %.6f, "
                  "\"max_seconds\": %.6f, \"pixels_per_second\": %.1f, \"seconds_per_draw\": %.9f, "
                  "\"draw_seconds\": %.6f, \"draw_pixels_per_second\": %.1f, \"error\": %s}",
                  i ? "," : "", JsonString(r.scene).c_str(), JsonString(r.path).c_str(),
                  JsonString(r.device).c_str(), r.draws, (unsigned long long)r.pixels,
                  r.median_seconds, r.min_seconds, r.max_seconds, r.pixels_per_second,
                  r.seconds_per_draw, r.draw_seconds, r.draw_pixels_per_second,
                  JsonString(r.error).c_str());
      continue;
    }
    if (!r.error.empty()) {
      std::printf("%-12s %-4s  not run: %s\n", r.scene.c_str(), r.path.c_str(), r.error.c_str());
      continue;
    }
    std::printf("%-12s %-4s  %8.4f s median (%.4f-%.4f)  %7.2f Mpixel/s  %9.2f us/draw  (%u draws, %llu px; %s)\n",
                r.scene.c_str(), r.path.c_str(), r.median_seconds, r.min_seconds, r.max_seconds,
                r.pixels_per_second / 1e6, r.seconds_per_draw * 1e6, r.draws,
                (unsigned long long)r.pixels, r.device.c_str());
    if (r.draw_seconds > 0) {
      std::printf("%-12s %-4s  %8.4f s in the draws alone   %7.2f Mpixel/s (without clears, resolves, swap)\n",
                  "", "", r.draw_seconds, r.draw_pixels_per_second / 1e6);
    }
  }
  if (a.json) std::printf("\n  ]\n}\n");
  return any ? kExitOk : kExitError;
}

struct BenchArgs {
  uint64_t size = 1ull << 30;
  bool json = false;
  int level = 3;
  unsigned writer_threads = 0, reader_threads = 0, repeats = 3;
  std::string keep;
};

int RunFormatBench(const BenchArgs& a) {
  bench::FormatBenchOptions o;
  o.logical_bytes = a.size;
  o.zstd_level = a.level;
  o.writer_threads = a.writer_threads;
  o.reader_threads = a.reader_threads;
  o.path = a.keep;
  o.repeats = a.repeats;
  if (StderrIsTerminal()) {
    o.progress = [last = std::string()](const char* phase, double f) mutable {
      std::fprintf(stderr, "\r%-20s %5.1f%%", phase, f * 100.0);
      if (last != phase) last = phase;
      std::fflush(stderr);
    };
  }
  bench::FormatBenchResult r = bench::RunFormatBench(o);
  if (StderrIsTerminal()) std::fprintf(stderr, "\r%40s\r", "");
  const double vs = r.zstd_decompress_mb_s > 0 ? r.read_mb_s / r.zstd_decompress_mb_s : 0;
  if (a.json) {
    std::printf(
        "{\n  \"write_mb_s\": %.1f,\n  \"read_mb_s\": %.1f,\n  \"read_1thread_mb_s\": %.1f,\n  \"ratio\": %.4f,\n"
        "  \"zstd_compress_mb_s\": %.1f,\n  \"zstd_decompress_mb_s\": %.1f,\n  \"zstd_ratio\": %.4f,\n"
        "  \"read_vs_zstd_decompress\": %.3f,\n  \"dedup_ratio\": %.4f,\n  \"write_logical_mb_s\": %.1f,\n"
        "  \"read_logical_mb_s\": %.1f,\n  \"logical_bytes\": %llu,\n  \"raw_bytes\": %llu,\n  \"stored_bytes\": %llu,\n"
        "  \"file_bytes\": %llu,\n  \"frames\": %llu,\n  \"chunks\": %llu,\n  \"pages_distinct\": %llu,\n"
        "  \"pages_referenced\": %llu,\n  \"zstd_level\": %d,\n  \"writer_threads\": %u,\n  \"reader_threads\": %u,\n"
        "  \"zstd_threads\": 1,\n  \"repeats\": %u,\n  \"read_1thread_cpu_mb_s\": %.1f,\n  \"zstd_decompress_cpu_mb_s\": %.1f,\n  \"mb\": \"10^6 bytes of raw chunk payload (FlatBuffers before compression, after page dedup)\"\n}\n",
        r.write_mb_s, r.read_mb_s, r.read_1thread_mb_s, r.ratio, r.zstd_compress_mb_s, r.zstd_decompress_mb_s, r.zstd_ratio,
        vs, r.dedup_ratio, r.write_logical_mb_s, r.read_logical_mb_s, (unsigned long long)r.logical_bytes,
        (unsigned long long)r.raw_bytes, (unsigned long long)r.stored_bytes, (unsigned long long)r.file_bytes,
        (unsigned long long)r.frames, (unsigned long long)r.chunks, (unsigned long long)r.pages_distinct,
        (unsigned long long)r.pages_referenced, r.zstd_level, r.writer_threads, r.reader_threads, r.repeats,
        r.read_1thread_cpu_mb_s, r.zstd_decompress_cpu_mb_s);
    return kExitOk;
  }
  std::printf("synthetic trace: %llu frames, %.1f MiB of records -> %.1f MiB raw chunks (page dedup %.2fx) -> %.1f MiB file\n",
              (unsigned long long)r.frames, double(r.logical_bytes) / 1048576.0, double(r.raw_bytes) / 1048576.0,
              r.dedup_ratio, double(r.file_bytes) / 1048576.0);
  std::printf("MB/s below = 10^6 bytes of raw chunk payload per second (the same bytes for every row);\n"
              "reads and plain zstd: fastest of %u passes, writing: one pass\n\n", r.repeats);
  std::printf("  .xnt write        %9.1f MB/s   (%u compression threads, zstd level %d)\n", r.write_mb_s, r.writer_threads,
              r.zstd_level);
  std::printf("  .xnt read         %9.1f MB/s   (%u decompression threads)\n", r.read_mb_s, r.reader_threads);
  std::printf("  .xnt read         %9.1f MB/s   (1 thread)\n", r.read_1thread_mb_s);
  std::printf("  zstd compress     %9.1f MB/s   (plain ZSTD_compressCCtx per chunk, 1 thread)\n", r.zstd_compress_mb_s);
  std::printf("  zstd decompress   %9.1f MB/s   (plain ZSTD_decompressDCtx per chunk, 1 thread)\n", r.zstd_decompress_mb_s);
  std::printf("  by thread CPU time: .xnt read (1 thread) %.1f MB/s, zstd decompress %.1f MB/s (%.2fx)\n",
              r.read_1thread_cpu_mb_s, r.zstd_decompress_cpu_mb_s,
              r.zstd_decompress_cpu_mb_s > 0 ? r.read_1thread_cpu_mb_s / r.zstd_decompress_cpu_mb_s : 0);
  std::printf("  compression ratio %9.2f        (plain zstd: %.2f)\n", r.ratio, r.zstd_ratio);
  std::printf("  read / zstd decompress = %.2fx (1 thread: %.2fx)\n", vs,
              r.zstd_decompress_mb_s > 0 ? r.read_1thread_mb_s / r.zstd_decompress_mb_s : 0);
  return kExitOk;
}

XNT_COMMAND({"bench", "Benchmarks (format: .xnt write/read vs plain zstd; render: render-path cost)", 90, [](CLI::App& sub) {
               auto args = std::make_shared<BenchArgs>();
               auto rargs = std::make_shared<RenderArgs>();
               auto which = std::make_shared<std::string>();
               sub.require_subcommand(1);
               CLI::App* fmt = sub.add_subcommand(
                   "format", "Write and read a synthetic trace (texture pages re-read across frames, unique vertex "
                             "data, PM4) and compare with plain zstd on the same raw chunk bytes");
               fmt->add_option("--size", args->size, "Record payload bytes to generate (default 1 GiB; accepts 64MiB, 1G)")
                   ->transform(CLI::AsSizeValue(false))
                   ->capture_default_str();
               fmt->add_flag("--json", args->json,
                             "Print JSON (write_mb_s, read_mb_s, ratio, zstd_compress_mb_s, zstd_decompress_mb_s, ...)");
               fmt->add_option("--level", args->level, "zstd level for the trace and for plain zstd")
                   ->check(CLI::Range(1, 19))
                   ->capture_default_str();
               fmt->add_option("--writer-threads", args->writer_threads, "Compression threads (0 = all cores)");
               fmt->add_option("--reader-threads", args->reader_threads, "Decompression threads (0 = all cores, at most 8)");
               fmt->add_option("--repeat", args->repeats, "Time reads and plain zstd this many times, keep the fastest")
                   ->check(CLI::Range(1, 100))
                   ->capture_default_str();
               fmt->add_option("--keep", args->keep, "Write the trace here and keep it (default: a temporary file in $TMPDIR)");
               fmt->footer("Needs about 0.4x --size of memory for the generated content. Progress goes to stderr on a terminal.");
               fmt->callback([which] { *which = "format"; });
               CLI::App* ren = sub.add_subcommand(
                   "render", "Replay two authored traces on render paths: a full-screen textured pass with a "
                             "10-instruction pixel shader (shaded pixels/s) and many 8x8 flat draws (time per draw)");
               ren->add_option("--paths", rargs->paths, "Comma-separated render paths")->capture_default_str();
               ren->add_option("--width", rargs->width, "Target width")->check(CLI::Range(16, 2560))->capture_default_str();
               ren->add_option("--height", rargs->height, "Target height")->check(CLI::Range(16, 2560))->capture_default_str();
               ren->add_option("--draws", rargs->small_draws, "Draws in the small-draws trace")
                   ->check(CLI::Range(1, 100000))->capture_default_str();
               ren->add_option("--repeat", rargs->repeats, "Timed replays per case (median reported; one more warms up)")
                   ->check(CLI::Range(1, 100))->capture_default_str();
               ren->add_option("--device", rargs->device, "Vulkan device index for the GPU paths");
               ren->add_option("--threads", rargs->threads, "cpu path: pixel-stage threads (0 = every core)")
                   ->capture_default_str();
               ren->add_flag("--json", rargs->json, "Print JSON");
               ren->callback([which] { *which = "render"; });
               return [=]() -> int {
                 if (*which == "format") return RunFormatBench(*args);
                 if (*which == "render") return RunRenderBenchCommand(*rargs);
                 return kExitError;
               };
             }});

}  // namespace
}  // namespace xnt::cli
