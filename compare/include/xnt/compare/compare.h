// `xenotrace compare`: replays traces on several render combinations (path @ scale) through
// renderer/session.h, diffs every frame against a reference combination with diff/ (metrics,
// policy), and for each differing frame bisects to the first draw after which the two
// combinations' targets differ in guest bits (bisect.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "xnt/compare/combination.h"
#include "xnt/compare/results.h"
#include "xnt/base/selection.h"
#include "xnt/diff/driver.h"
#include "xnt/gpu/renderer_options.h"

namespace xnt::compare {

// TEST HOOK: a fault in one combination only: skip draw F.K
// (renderer::SessionOptions::test_fault_skip_draw) or resolve F.K with a wrong destination format
// (test_fault_resolve_format).
struct TestFault {
  enum class Kind { kSkipDraw, kResolveFormat };
  Combination combination;
  renderer::DrawId draw;
  Kind kind = Kind::kSkipDraw;
};

struct Progress {
  size_t trace = 0, traces = 0;      // 1-based index of the trace being worked on
  std::string trace_name, combination;
  std::string step;                  // "replay", "bisect"
  uint64_t frame = 0;                // frames finished so far in this step
  // Replays (trace x combination) finished and in all, and the run's time so far: the ETA.
  size_t replays_done = 0, replays_total = 0;
  double elapsed_seconds = 0;
};

struct CompareOptions {
  std::vector<std::string> traces;  // files (ExpandTraces)
  std::vector<Combination> combinations;
  Combination reference;            // added to the run when not among `combinations`
  FrameSet frames;                  // `--frames A-B,C` (xnt/base/selection.h); default all
  diff::DiffOptions diff;           // policy and thresholds; report_dir is ignored (see below)
  std::string report_dir;           // images for differing frames and bisections go here
  // Replays at once: over traces when there are at least as many traces as jobs (each trace's
  // combinations in turn), else over the combinations of one trace.
  unsigned jobs = 1;
  bool bisect = true;
  // Session settings shared by every combination.
  int device_index = -1;
  bool validate = false;            // Vulkan paths: any validation message makes it an error
  uint32_t threads = 0;             // cpu path pixel-stage threads
  uint32_t gpu_timeout_ms = 60000;  // Vulkan paths: renderer::SessionOptions::gpu_timeout_ms
  // At a resolution scale: what a screen derivative spans (gpu/renderer_options.h).
  gpu::ScaledDerivatives derivatives = gpu::ScaledDerivatives::kGuest;
  std::optional<TestFault> test_fault;
  // Baseline mode: instead of the reference combination, every combination is compared with the
  // frames a --save-baseline run stored in this folder for the same trace and combination.
  std::string baseline_dir;
  std::string save_baseline_dir;    // store every combination's frames + hashes here
  // With save_baseline_dir (`--snapshots all`): also every event's hash and targets, so a later
  // --baseline run bisects its differing frames against them.
  bool baseline_snapshots = false;
  std::function<void(const Progress&)> progress;
};

// Throws xnt::Error only for unusable options; problems of a trace or combination become
// kError results.
RunResults RunCompare(const CompareOptions& options);

}  // namespace xnt::compare
