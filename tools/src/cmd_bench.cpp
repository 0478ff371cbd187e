// `xenotrace bench format [--size BYTES] [--json]`: writes and reads a synthetic ~1 GiB trace and
// compares with plain zstd at the same level on the same raw chunk bytes (bench/); `bench render`
// and `bench replay` (render-path and whole-replay cost, bench/replay_bench.h).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <memory>
#include <string>

#include "command.h"
#include "xnt/bench/format_bench.h"
#include "xnt/bench/render_bench.h"
#include "xnt/bench/capture_trace.h"
#include "xnt/bench/replay_bench.h"
#include "xnt/base/error.h"
#include "xnt/base/json.h"
#include "xnt/renderer/session.h"

namespace xnt::cli {
namespace {

// GPU seconds per frame as JSON (null when not measured) and as text.
std::string GpuJson(double seconds) {
  if (seconds < 0.0) return "null";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9f", seconds);
  return buf;
}
std::string GpuText(double seconds) {
  if (seconds < 0.0) return "not measured";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f ms", seconds * 1e3);
  return buf;
}

// --gpu-profile's stages in a case's JSON object (nothing without the option).
std::string GpuStagesJson(const bench::ReplayBenchResult& r, bool gpu_profile) {
  if (!gpu_profile) return "";
  return "\"gpu_stage_seconds_per_frame\": {\"uploads\": " + GpuJson(r.gpu_uploads_seconds_per_frame) +
         ", \"draws\": " + GpuJson(r.gpu_draws_seconds_per_frame) +
         ", \"resolves\": " + GpuJson(r.gpu_resolves_seconds_per_frame) + "}, ";
}

// A GPU path's submissions in a case's JSON object (null on the cpu path) and as a text line.
std::string SubmissionsJson(const bench::ReplayBenchResult& r) {
  if (r.submissions_per_frame < 0.0) {
    return "\"submissions_per_frame\": null, \"ring_fills_per_frame\": null, "
           "\"peak_submission_ring_bytes\": null, \"ring_bytes\": null, ";
  }
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "\"submissions_per_frame\": %.2f, \"ring_fills_per_frame\": %.2f, "
                "\"peak_submission_ring_bytes\": %llu, \"ring_bytes\": %llu, ",
                r.submissions_per_frame, r.ring_fills_per_frame,
                (unsigned long long)r.peak_submission_ring_bytes, (unsigned long long)r.ring_bytes);
  return buf;
}
void PrintSubmissions(const bench::ReplayBenchResult& r) {
  if (r.submissions_per_frame < 0.0) return;
  std::printf("%-14s %-4s  per frame: %.1f submissions (each waits for the device), %.1f forced by "
              "a full ring; most ring data in one submission %.2f MiB; ring %.0f MiB\n",
              "", "", r.submissions_per_frame, r.ring_fills_per_frame,
              double(r.peak_submission_ring_bytes) / 1048576.0, double(r.ring_bytes) / 1048576.0);
}

// A benchmark run with its progress on one rewritten line of a terminal, cleared at the end; not
// under --json, whose output a program reads.
template <class Options, class Results>
Results RunWithProgress(Options& o, bool json, Results (*run)(const Options&)) {
  if (StderrIsTerminal() && !json) {
    o.progress = [](const std::string& what) { std::fprintf(stderr, "\r%-40s", what.c_str()); };
  }
  Results results = run(o);
  if (o.progress) std::fprintf(stderr, "\r%40s\r", "");
  return results;
}

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
  const std::vector<bench::RenderBenchResult> results = RunWithProgress(o, a.json, bench::RunRenderBench);
  bool any = false;
  if (a.json) std::printf("{\n  \"cases\": [");
  for (size_t i = 0; i < results.size(); ++i) {
    const bench::RenderBenchResult& r = results[i];
    any = any || r.error.empty();
    if (a.json) {
      std::printf("%s\n    {\"scene\": %s, \"path\": %s, \"device\": %s, \"draws\": %u, "
                  "\"pixels\": %llu, \"median_seconds\": %.6f, \"min_seconds\": %.6f, "
                  "\"max_seconds\": %.6f, \"pixels_per_second\": %.1f, \"seconds_per_draw\": %.9f, "
                  "\"draw_seconds\": %.6f, \"draw_pixels_per_second\": %.1f, \"cpu_seconds\": %.6f, "
                  "\"draw_cpu_seconds\": %.6f, \"resolve_seconds\": %.6f, \"resolve_cpu_seconds\": %.6f, "
                  "\"error\": %s}",
                  i ? "," : "", JsonString(r.scene).c_str(), JsonString(r.path).c_str(),
                  JsonString(r.device).c_str(), r.draws, (unsigned long long)r.pixels,
                  r.median_seconds, r.min_seconds, r.max_seconds, r.pixels_per_second,
                  r.seconds_per_draw, r.draw_seconds, r.draw_pixels_per_second, r.cpu_seconds,
                  r.draw_cpu_seconds, r.resolve_seconds, r.resolve_cpu_seconds,
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
    if (r.cpu_seconds > 0) {
      std::printf("%-12s %-4s  process CPU %.4f s per replay", "", "", r.cpu_seconds);
      if (r.draw_cpu_seconds > 0) std::printf(", %.4f s in the draws", r.draw_cpu_seconds);
      std::printf(" (every thread; medians)\n");
    }
    if (r.draw_seconds > 0) {
      // The rest of the frame, split where the cpu path's events allow.
      const double other = r.median_seconds - r.draw_seconds - r.resolve_seconds;
      const double other_cpu = r.cpu_seconds - r.draw_cpu_seconds - r.resolve_cpu_seconds;
      std::printf("%-12s %-4s  resolves %.4f s (CPU %.4f s); swap, uploads, commands %.4f s (CPU %.4f s)\n",
                  "", "", r.resolve_seconds, r.resolve_cpu_seconds, other, other_cpu);
    }
  }
  if (a.json) std::printf("\n  ]\n}\n");
  return any ? kExitOk : kExitError;
}

struct ReplayArgs {
  std::vector<std::string> traces;
  std::vector<std::string> samples;
  std::string fsi_ordering = "interlock";
  std::string paths = "fbo";
  std::vector<uint32_t> draws = {200, 2000};
  std::vector<uint32_t> capture = {2000};
  uint32_t capture_frames = 1;
  std::vector<std::string> capture_variants = {"base"};
  bool gpu_profile = false;
  uint32_t ring_mib = 0;
  uint32_t repeats = 3;
  bool interleave = false;
  int device = -1;
  bool json = false;
  std::string baseline, write_baseline, save_traces;
  double tolerance = 0.2;
};

std::vector<std::string> SplitPaths(const std::string& list) {
  std::vector<std::string> out;
  for (size_t start = 0; start <= list.size();) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    const std::string name = list.substr(start, comma - start);
    if (!renderer::ParsePath(name)) throw Error("--paths: unknown render path '" + name + "'");
    out.push_back(name);
    start = comma + 1;
  }
  return out;
}

int RunReplayBenchCommand(const ReplayArgs& a) {
  bench::ReplayBenchOptions o;
  o.traces = a.traces;
  o.samples = a.samples;
  o.fsi_unordered = a.fsi_ordering == "unordered";
  o.paths = SplitPaths(a.paths);
  o.flat_draws = a.draws;
  o.capture_draws = a.capture;
  o.capture_frames = a.capture_frames;
  o.capture_variants = a.capture_variants;
  o.gpu_profile = a.gpu_profile;
  o.initial_ring_bytes = uint64_t(a.ring_mib) << 20;
  o.repeats = a.repeats;
  o.interleave = a.interleave;
  o.device_index = a.device;
  o.save_traces_dir = a.save_traces;
  std::string baseline_text;
  if (!a.baseline.empty()) {
    std::ifstream in(a.baseline);
    if (!in) throw Error("--baseline: cannot read " + a.baseline);
    std::ostringstream ss;
    ss << in.rdbuf();
    baseline_text = ss.str();
  }
  const std::vector<bench::ReplayBenchResult> results = RunWithProgress(o, a.json, bench::RunReplayBench);
  const std::vector<bench::BenchRatio> ratios = bench::ReplayBenchRatios(results);
  std::vector<std::string> problems;
  if (!a.baseline.empty()) problems = bench::CheckBaseline(baseline_text, ratios);
  bool any = false;
  if (a.json) std::printf("{\n  \"cases\": [");
  for (size_t i = 0; i < results.size(); ++i) {
    const bench::ReplayBenchResult& r = results[i];
    any = any || r.error.empty();
    if (a.json) {
      std::printf("%s\n    {\"name\": %s, \"path\": %s, \"device\": %s, \"frames\": %llu, \"draws\": %llu, "
                  "\"startup_seconds\": %.6f, \"cold_seconds\": %.6f, \"warm_seconds\": %.6f, \"warm_cpu_seconds\": %.6f, "
                  "\"frames_per_second\": %.2f, \"draws_per_second\": %.1f, "
                  "\"us_per_draw\": {\"front_end\": %.3f, \"translation\": %.3f, \"recording\": %.3f, "
                  "\"submission\": %.3f}, \"gpu_seconds_per_frame\": %s, %s%s"
                  "\"peak_rss_bytes\": %llu, \"error\": %s}",
                  i ? "," : "", JsonString(r.name).c_str(), JsonString(r.path).c_str(),
                  JsonString(r.device).c_str(), (unsigned long long)r.frames, (unsigned long long)r.draws,
                  r.startup_seconds, r.cold_seconds, r.warm_seconds, r.warm_cpu_seconds, r.frames_per_second,
                  r.draws_per_second, r.front_end_us_per_draw, r.translation_us_per_draw,
                  r.recording_us_per_draw, r.submission_us_per_draw, GpuJson(r.gpu_seconds_per_frame).c_str(),
                  GpuStagesJson(r, a.gpu_profile).c_str(), SubmissionsJson(r).c_str(),
                  (unsigned long long)r.peak_rss_bytes, JsonString(r.error).c_str());
      continue;
    }
    if (!r.error.empty()) {
      std::printf("%-14s %-4s  not run: %s\n", r.name.c_str(), r.path.c_str(), r.error.c_str());
      continue;
    }
    std::printf("%-14s %-4s  start-up %.3f s, cold %.3f s, warm %.4f s (CPU %.4f s): %.1f frames/s, %.0f draws/s (%llu draws; %s)\n",
                r.name.c_str(), r.path.c_str(), r.startup_seconds, r.cold_seconds, r.warm_seconds, r.warm_cpu_seconds,
                r.frames_per_second, r.draws_per_second, (unsigned long long)r.draws, r.device.c_str());
    std::printf("%-14s %-4s  us/draw: front end %.1f, translation %.1f, recording %.1f, submission %.1f; "
                "GPU time per frame %s; peak RSS %.1f MiB\n",
                "", "", r.front_end_us_per_draw, r.translation_us_per_draw, r.recording_us_per_draw,
                r.submission_us_per_draw, GpuText(r.gpu_seconds_per_frame).c_str(),
                double(r.peak_rss_bytes) / 1048576.0);
    PrintSubmissions(r);
    if (a.gpu_profile) {
      std::printf("%-14s %-4s  GPU time per frame by stage: uploads ahead %s, draws %s, resolves and swap %s\n",
                  "", "", GpuText(r.gpu_uploads_seconds_per_frame).c_str(),
                  GpuText(r.gpu_draws_seconds_per_frame).c_str(),
                  GpuText(r.gpu_resolves_seconds_per_frame).c_str());
    }
  }
  if (a.json) {
    std::printf("\n  ],\n  \"interleaved\": %s,\n  \"ratios\": {", a.interleave ? "true" : "false");
    for (size_t i = 0; i < ratios.size(); ++i) {
      std::printf("%s\n    %s: %.4f", i ? "," : "", JsonString(ratios[i].name).c_str(), ratios[i].value);
    }
    std::printf("\n  },\n  \"baseline_problems\": [");
    for (size_t i = 0; i < problems.size(); ++i) {
      std::printf("%s%s", i ? ", " : "", JsonString(problems[i]).c_str());
    }
    std::printf("]\n}\n");
  } else {
    if (a.interleave && !ratios.empty()) {
      std::printf("CPU-time ratios: the median of %u rounds' ratios (the cases' warm replays interleaved)\n",
                  a.repeats);
    }
    for (const bench::BenchRatio& r : ratios) std::printf("CPU-time ratio %-32s %.3f\n", r.name.c_str(), r.value);
    for (const std::string& p : problems) std::printf("baseline: %s\n", p.c_str());
    if (!a.baseline.empty() && problems.empty()) std::printf("baseline: every ratio within +%.0f %%\n", a.tolerance * 100.0);
  }
  if (!a.write_baseline.empty()) {
    std::ofstream out(a.write_baseline);
    out << bench::BaselineJson(ratios, a.tolerance);
    if (!out) throw Error("--write-baseline: cannot write " + a.write_baseline);
  }
  if (!any) return kExitError;
  return problems.empty() ? kExitOk : kExitNo;
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

XNT_COMMAND({"bench", "Benchmarks (format: .xnt write/read vs plain zstd; render: render-path cost; replay: replay cost by stage)", 90, [](CLI::App& sub) {
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
               auto pargs = std::make_shared<ReplayArgs>();
               CLI::App* rep = sub.add_subcommand(
                   "replay", "Replay traces (or built-in synthetic ones: textured_4, flat_N, capture_N) on render paths: "
                             "start-up, frames/s, draws/s, us per draw by stage, GPU time per frame, peak RSS; ratios between "
                             "cases checked against a baseline");
               rep->add_option("traces", pargs->traces, "Trace files (default: the built-in cases, made in memory)")
                   ->check(CLI::ExistingFile);
               rep->add_option("--paths", pargs->paths, "Comma-separated render paths")->capture_default_str();
               rep->add_option("--samples", pargs->samples,
                               "Bundled samples as the cases instead (comma-separated names, or all): e.g. "
                               "each sample's GPU time per frame with --paths fbo,fsi")
                   ->delimiter(',');
               rep->add_option("--fsi-ordering", pargs->fsi_ordering,
                               "fsi path: interlock, or unordered (lavapipe's test mode, docs/fsi.md)")
                   ->check(CLI::IsMember({"interlock", "unordered"}))
                   ->capture_default_str();
               rep->add_option("--draws", pargs->draws, "Built-in flat cases' draw counts")
                   ->delimiter(',')->check(CLI::Range(1, 100000));
               rep->add_option("--capture", pargs->capture,
                               "Built-in capture-shaped cases' draws per frame (capture_N: each draw its own "
                               "ring submission and fresh vertex page, then a resolve and a swap)")
                   ->delimiter(',')->check(CLI::Range(1, 100000));
               rep->add_option("--capture-frames", pargs->capture_frames,
                               "Frames of each capture-shaped case (more than 1: named capture_FxN)")
                   ->check(CLI::Range(1, 1000))->capture_default_str();
               rep->add_option("--capture-variants", pargs->capture_variants,
                               "Capture-shaped cases per count, each base or variant words joined by '+' "
                               "(packed: vertices 32 bytes apart (64 textured), not a page per draw; early: the frame's "
                               "vertex data written before its draws; one-submission; one-color; textured: each "
                               "draw samples one of 1,024 textures, its fetch constant written per draw), so "
                               "the shape's cost is attributed factor by factor")
                   ->delimiter(',')
                   ->check([](const std::string& v) -> std::string {
                     bench::CaptureTraceShape shape;
                     try {
                       bench::ApplyCaptureVariant(v, shape);
                     } catch (const Error& e) {
                       return e.what();
                     }
                     return "";
                   })
                   ->capture_default_str();
               rep->add_flag("--gpu-profile", pargs->gpu_profile,
                             "GPU paths: split the GPU time per frame into the upload buffer ahead of the "
                             "draws, the draws, and resolves and swaps (timestamp queries between them)");
               rep->add_option("--ring-mib", pargs->ring_mib,
                               "GPU paths: the host upload ring's size at start in MiB (default 16; "
                               "it grows to 64 only for a larger single transfer), to weigh its "
                               "start-up cost against the waits a full ring forces")
                   ->check(CLI::Range(8, 64));
               rep->add_option("--repeat", pargs->repeats, "Warm replays per case (median reported; the first replay is the cold one)")
                   ->check(CLI::Range(1, 100))->capture_default_str();
               rep->add_flag("--interleave", pargs->interleave,
                             "Warm replays in rounds across the cases of a path (every case's session "
                             "open at once), so a shared machine's slow spells fall on every case alike; "
                             "ratios are then the median of the rounds' ratios. Keeps every case in memory");
               rep->add_option("--device", pargs->device, "Vulkan device index for the GPU paths");
               rep->add_flag("--json", pargs->json, "Print JSON");
               rep->add_option("--baseline", pargs->baseline,
                               "Compare the ratios between cases with this file (bench/baseline.json); exit 1 on a "
                               "ratio more than the tolerance above it");
               rep->add_option("--save-traces", pargs->save_traces,
                               "Also keep the built-in cases' traces in this existing folder (NAME.xnt)")
                   ->check(CLI::ExistingDirectory);
               rep->add_option("--write-baseline", pargs->write_baseline, "Write this run's ratios as a baseline file");
               rep->add_option("--tolerance", pargs->tolerance, "Allowed growth of a ratio for --write-baseline")
                   ->check(CLI::Range(0.0, 10.0))->capture_default_str();
               rep->footer("Exit codes: 0 ok; 1 a ratio regressed past the baseline; 2 usage, or no case could run (each "
                           "case's reason is printed: a damaged trace, a path that cannot start).");
               rep->callback([which] { *which = "replay"; });
               return [=]() -> int {
                 if (*which == "replay") return RunReplayBenchCommand(*pargs);
                 if (*which == "format") return RunFormatBench(*args);
                 if (*which == "render") return RunRenderBenchCommand(*rargs);
                 return kExitError;
               };
             }});

}  // namespace
}  // namespace xnt::cli
