// `xenotrace bench replay`: what replaying a trace costs, split where the time goes.
//
// Each case is a trace (a file given on the command line, a bundled sample, or one of the
// built-in synthetic traces authored in memory with the samples' scene builder, so a stripped
// binary needs nothing on disk):
//   flat_N       N small flat triangles, each draw with its own colour constant and vertex data
//                (as games draw), one frame;
//   textured_4   four textured quads (a 32x32 k_8_8_8_8 texture) covering the target, one frame;
//   capture_N    N draws shaped as a capture records them (xnt/bench/capture_trace.h): each its own
//                ring submission and fresh vertex page; capture_FxN: F such frames.
// Per case and render path, one session replays the records `repeats + 1` times; the first
// replay is cold (shaders translated and compiled, pipelines created), the others warm. Cases run
// one after another, or with `interleave` in rounds (every case's sessions of a path open at once,
// each case's warm replay r before any case's replay r + 1), so that a slow spell of a shared
// machine falls on every case of a round alike. Reported:
//   - startup_seconds: Session::Create (instance, device, host pipelines) of that session;
//   - cold_seconds / median warm seconds of a whole replay (and its process CPU seconds, every
//     thread), frames/s and draws/s (warm);
//   - per draw (warm, microseconds of wall time on this thread): front end (everything outside
//     the path's draws, resolves and Flush: the command processor decoding PM4, and the swap,
//     which on a GPU path waits for the device and reads the frame back), recording (inside the
//     path's draw and resolve calls:
//     for a GPU path recording commands, for the cpu path drawing), submission (Flush: submit and
//     wait for the device); translation = cold minus warm time inside the draws, per distinct
//     draw (shader translation, SPIR-V compile or cache read, pipeline creation);
//   - peak_rss_bytes: the process's high-water mark after the case (getrusage).
//   - gpu_seconds_per_frame (GPU paths): the device's time for the warm replay's submissions
//     (a timestamp at the start and the end of every command buffer, times timestampPeriod,
//     summed: command_stream.h) over its frames, median of the warm replays; negative on the cpu
//     path or a queue without timestamps.
//   - with gpu_profile, that time per stage (uploads ahead of the draws, draws, resolves).
//   - GPU paths: submissions per frame (each waits for the device), how many of them a full
//     upload ring forced (ring fills), the most ring data one submission held and the ring's
//     size at the end (Session::submission_stats).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace xnt::bench {

struct ReplayBenchOptions {
  // Trace files; empty = the built-in cases (or the samples below).
  std::vector<std::string> traces;
  // Bundled samples to replay as cases ("all" = every one), instead of the built-in cases (issue
  // 17: each sample's GPU time per frame on fbo and fsi).
  std::vector<std::string> samples;
  // Built-in flat cases' draw counts (textured_4 is always added).
  std::vector<uint32_t> flat_draws = {200, 2000};
  // Built-in capture-shaped cases' draws per frame, and their frames (1: named capture_N).
  std::vector<uint32_t> capture_draws = {2000};
  uint32_t capture_frames = 1;
  // Each capture count is replayed once per variant (capture_trace.h ApplyCaptureVariant:
  // "base", or words such as "packed+early").
  std::vector<std::string> capture_variants = {"base"};
  // GPU paths: the GPU time split by stage (Session::gpu_stage_seconds).
  bool gpu_profile = false;
  // GPU paths: the upload ring's size at start in bytes (0: the default; SessionOptions).
  uint64_t initial_ring_bytes = 0;
  std::vector<std::string> paths = {"fbo"};
  // fsi without interlock: the named lavapipe test mode (docs/fsi.md).
  bool fsi_unordered = false;
  // Non-empty: the built-in cases' traces are also kept there as NAME.xnt.
  std::string save_traces_dir;
  uint32_t repeats = 3;
  // Warm replays in rounds across the cases of a path (above); keeps every case in memory.
  bool interleave = false;
  int device_index = -1;
  std::function<void(const std::string& what)> progress;
};

struct ReplayBenchResult {
  std::string name;   // trace file name or built-in case
  std::string path;   // render path
  std::string device;
  uint64_t frames = 0, draws = 0;  // per replay
  double startup_seconds = 0.0;
  double cold_seconds = 0.0;
  double warm_seconds = 0.0;       // median
  double warm_cpu_seconds = 0.0;   // median process CPU time (all threads) of a warm replay
  std::vector<double> warm_cpu_each;  // that time for each warm replay, in order
  bool interleaved = false;           // replay k was measured in round k with the path's other cases
  double frames_per_second = 0.0, draws_per_second = 0.0;
  double front_end_us_per_draw = 0.0;
  double recording_us_per_draw = 0.0;
  double submission_us_per_draw = 0.0;
  double translation_us_per_draw = 0.0;  // cold - warm draw time over the draws of one replay
  double gpu_seconds_per_frame = -1.0;   // negative: not measured (see above)
  // With gpu_profile, gpu_seconds_per_frame split: the upload buffer ahead of each submission,
  // the draws (everything else), resolves and swaps; medians of the warm replays, so they need
  // not add up exactly. Negative: not measured.
  double gpu_uploads_seconds_per_frame = -1.0;
  double gpu_draws_seconds_per_frame = -1.0;
  double gpu_resolves_seconds_per_frame = -1.0;
  // GPU paths (negative / 0 on the cpu path): medians of the warm replays, per frame.
  double submissions_per_frame = -1.0, ring_fills_per_frame = -1.0;
  uint64_t peak_submission_ring_bytes = 0, ring_bytes = 0;
  uint64_t peak_rss_bytes = 0;
  std::string error;  // non-empty: this case could not run (why)
};

std::vector<ReplayBenchResult> RunReplayBench(const ReplayBenchOptions& options);

// Ratios between cases of one run (the CI check compares them with bench/baseline.json, so a
// machine's speed cancels): "<path>:<a>/<b>" = warm process CPU seconds of case a over case b
// (CPU time, not wall: the check runs on shared CI machines): the median of the per-round ratios
// when both were interleaved, else the ratio of the medians.
struct BenchRatio {
  std::string name;
  double value = 0.0;
};
std::vector<BenchRatio> ReplayBenchRatios(const std::vector<ReplayBenchResult>& results);

// bench/baseline.json: {"tolerance": 0.2, "ratios": {"fbo:flat_2000/flat_200": 7.1, ...}}.
std::string BaselineJson(const std::vector<BenchRatio>& ratios, double tolerance);
// One line per ratio of the baseline that grew by more than the tolerance (a regression: the
// later case got slower relative to the earlier one) or was not measured; empty = pass.
std::vector<std::string> CheckBaseline(std::string_view baseline_json,
                                       const std::vector<BenchRatio>& ratios);

}  // namespace xnt::bench
