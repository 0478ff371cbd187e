// `xenotrace compare TRACE_OR_DIR...`: every trace on every path x scale combination, each frame
// diffed against a reference combination, differing frames bisected to their first differing
// draw (compare/, docs/compare.md). Exit 0 pass / 1 differ / 2 error, as `diff`.
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

#include "command.h"
#include "compare_inspect.h"
#include "xnt/base/selection.h"
#include "xnt/base/error.h"
#include "xnt/compare/compare.h"
#include "xnt/compare/repro.h"
#include "xnt/compare/expectations.h"
#include "xnt/diff/png.h"
#include "xnt/diff/policy.h"
#include "xnt/renderer/session.h"

namespace xnt::cli {
namespace {

struct CompareArgs {
  std::vector<std::string> inputs;
  std::string paths = renderer::JoinPathNames(
      [](const renderer::PathInfo& p) { return p.compared_by_default; }, ",");
  std::string scales = "1x1";
  std::string scaled_lod = "guest";
  std::string frames;
  std::string reference = "cpu@1x1";
  std::string policy;
  std::string report;
  bool json = false;
  std::string junit;
  unsigned jobs = 1;
  std::string shard;
  bool no_bisect = false;
  bool inspect = false;
  int device = -1;
  bool validate = false;
  uint32_t threads = 0;
  double gpu_timeout = 60;
  std::string baseline, save_baseline;
  std::string expectations;
  bool update_expectations = false;
  std::string test_fault, test_fault_resolve;
  std::string repro;  // --repro DIR
  bool minimize = false;
  double minimize_seconds = compare::kDefaultMinimizeSeconds;
  std::string snapshots;
};

// "PATH@SxT:F.K": TEST HOOK, the combination skips draw F.K (or resolves it with a wrong format).
compare::TestFault ParseTestFault(const std::string& text, const std::string& option) {
  size_t colon = text.rfind(':');
  size_t dot = text.rfind('.');
  auto digits = [](const std::string& d) {
    return !d.empty() && d.size() <= 9 && d.find_first_not_of("0123456789") == std::string::npos;
  };
  if (colon == std::string::npos || dot == std::string::npos || dot < colon ||
      !digits(text.substr(colon + 1, dot - colon - 1)) || !digits(text.substr(dot + 1))) {
    throw Error(option + ": '" + text + "' is not COMBINATION:F.K (cpu@1x1:0.2)");
  }
  compare::TestFault f;
  f.combination = compare::ParseCombination(text.substr(0, colon));
  f.draw.frame = std::stoull(text.substr(colon + 1, dot - colon - 1));
  f.draw.draw = uint32_t(std::stoul(text.substr(dot + 1)));
  return f;
}

// --repro: DIR/repro.json always; one line per slice unless --json (stdout is results.json).
void ReportRepros(const std::vector<compare::Repro>& repros, const CompareArgs& a) {
  const std::string json = compare::ReprosToJson(repros);
  diff::WriteFileBytes((std::filesystem::path(a.repro) / "repro.json").string(), json.data(),
                       json.size());
  if (a.json) return;
  for (const compare::Repro& r : repros) {
    std::printf("repro %s %s %s: %s, %s\n", r.trace.c_str(), r.combination.c_str(),
                r.event.c_str(), r.file.c_str(),
                r.reproduced ? ("reproduced at " + r.slice_event).c_str() : r.detail.c_str());
    if (!r.minimized) continue;
    const compare::Minimized& m = *r.minimized;
    std::string kept;
    for (const std::string& id : compare::KeptIds(r, m)) kept += (kept.empty() ? "" : " ") + id;
    std::printf("  minimized: %s, kept %zu event(s) (%s), removed %u, %u trials in %.1f s%s\n",
                m.file.c_str(), m.kept.size(), kept.c_str(), m.removed, m.trials, m.seconds,
                m.cut_short ? "; the time limit cut it short (not 1-minimal)" : "");
  }
}

int RunCompare(const CompareArgs& a) {
  if (a.inspect && a.report.empty()) {
    throw Error("--inspect: needs -o/--report DIR (the inspector pages are written under it)");
  }
  compare::CompareOptions o;
  o.traces = compare::ExpandTraces(a.inputs);
  if (!a.shard.empty()) {
    const compare::Shard shard = compare::ParseShard(a.shard);
    std::vector<std::string> mine;
    for (const std::string& t : o.traces) {
      if (compare::InShard(t, shard)) mine.push_back(t);
    }
    o.traces = std::move(mine);
  }
  o.combinations = compare::ParseCombinations(a.paths, a.scales);
  o.reference = compare::ParseCombination(a.reference);
  if (!a.frames.empty()) o.frames = FrameSet::Parse(a.frames);
  if (!a.policy.empty()) o.diff.policy = diff::Policy::Load(a.policy);
  o.report_dir = a.report;
  o.jobs = a.jobs;
  o.bisect = !a.no_bisect;
  o.device_index = a.device;
  o.validate = a.validate;
  o.threads = a.threads;
  o.derivatives = ParseScaledLod(a.scaled_lod);
  o.gpu_timeout_ms = uint32_t(a.gpu_timeout * 1000.0 + 0.5);
  o.baseline_dir = a.baseline;
  o.save_baseline_dir = a.save_baseline;
  if (!a.test_fault.empty() && !a.test_fault_resolve.empty()) {
    throw Error("--test-fault-skip-draw and --test-fault-resolve-format: one test fault at a time");
  }
  if (!a.test_fault.empty()) o.test_fault = ParseTestFault(a.test_fault, "--test-fault-skip-draw");
  if (!a.test_fault_resolve.empty()) {
    o.test_fault = ParseTestFault(a.test_fault_resolve, "--test-fault-resolve-format");
    o.test_fault->kind = compare::TestFault::Kind::kResolveFormat;
  }
  if (!a.snapshots.empty()) {
    if (a.snapshots != "all") {
      throw Error("--snapshots: compare stores every event's snapshots with a baseline: only 'all' "
                  "(replay --snapshots writes selected draws)");
    }
    if (a.save_baseline.empty()) throw Error("--snapshots all: only with --save-baseline DIR");
    o.baseline_snapshots = true;
  }

  const bool progress = StderrIsTerminal() && !a.json;
  std::mutex progress_mutex;
  if (progress) {
    o.progress = [&](const compare::Progress& p) {
      std::lock_guard lock(progress_mutex);
      // ETA from the replays finished so far (bisection is not in it: it is counted as it comes).
      std::string eta = "ETA --";
      if (p.replays_done > 0 && p.replays_total >= p.replays_done) {
        const double left = p.elapsed_seconds / double(p.replays_done) *
                            double(p.replays_total - p.replays_done);
        char buf[48];
        std::snprintf(buf, sizeof(buf), "ETA %dm%02ds", int(left) / 60, int(left) % 60);
        eta = buf;
      }
      // "replayed" marks a finished replay: no frame to show.
      const std::string frame =
          p.step == "replayed" ? "" : " frame " + std::to_string(p.frame);
      std::fprintf(stderr, "\r\033[K[%zu/%zu] %zu/%zu replays %s | %s %s %s%s", p.trace,
                   p.traces, p.replays_done, p.replays_total, eta.c_str(), p.trace_name.c_str(),
                   p.combination.c_str(), p.step.c_str(), frame.c_str());
      std::fflush(stderr);
    };
  }
  compare::RunResults results = compare::RunCompare(o);
  if (progress) std::fprintf(stderr, "\r\033[K");
  if (!a.shard.empty()) results.shard = compare::ParseShard(a.shard).Name();

  std::string expectation_report;
  if (!a.expectations.empty()) {
    if (a.update_expectations) {
      compare::UpdateExpectations(a.expectations, results);
      expectation_report = "expectations written to " + a.expectations + "\n";
    } else {
      expectation_report = compare::CheckExpectations(a.expectations, results);
    }
  }
  if (a.inspect) WriteInspectorSites(results, o, a.report);
  if (!a.report.empty()) compare::WriteReport(results, a.report);
  if (!a.junit.empty()) {
    const std::string xml = compare::ToJunit(results);
    diff::WriteFileBytes(a.junit, xml.data(), xml.size());
  }
  if (a.json) {
    std::fputs(compare::ToJson(results).c_str(), stdout);
  } else {
    std::fputs(compare::ToText(results).c_str(), stdout);
    std::fputs(expectation_report.c_str(), stdout);
    if (!a.report.empty()) std::printf("report: %s/report.html\n", a.report.c_str());
  }
  if (!a.repro.empty()) {
    std::optional<double> minimize;
    if (a.minimize) minimize = a.minimize_seconds;
    ReportRepros(compare::WriteRepros(results, o, a.repro, minimize), a);
  }
  return results.ExitCode();
}

XNT_COMMAND({"compare",
             "Replay traces on several render paths/scales, diff every frame against a "
             "reference, bisect differences to the first differing draw",
             75, [](CLI::App& sub) {
               auto a = std::make_shared<CompareArgs>();
               sub.add_option("TRACE_OR_DIR", a->inputs, "Trace files or folders of *.xnt")->required();
               sub.add_option("--paths", a->paths,
                              "Render paths (" + renderer::JoinPathNames() + "), comma separated (default " +
                                  a->paths + ")");
               sub.add_option("--scales", a->scales,
                              "Resolution scales SxT, comma separated (1..3 per axis; default 1x1)");
               AddScaledLodOption(sub, a->scaled_lod);
               sub.add_option("--frames", a->frames, "Frames to compare: A-B, A, A- or a list A-B,C (from 0)");
               sub.add_option("--reference", a->reference,
                              "The combination every other is compared with (default cpu@1x1)");
               sub.add_option("--policy", a->policy, "diff policy file (thresholds per item glob; docs/diff.md)")
                   ->check(InputFile());
               sub.add_option("-o,--out,--report", a->report, "Folder for report.html, results.json and images");
               sub.add_flag("--json", a->json, "Print results.json on stdout");
               sub.add_option("--junit", a->junit, "Write JUnit XML (one testcase per trace x combination)");
               sub.add_option("--jobs", a->jobs,
                              "Replays at once: over traces when there are at least N, else over "
                              "one trace's combinations (default 1)")
                   ->check(CLI::Range(1u, 64u));
               sub.add_option("--shard", a->shard, "Only the traces of shard I/N (FNV-1a of the file name mod N)");
               sub.add_flag("--no-bisect", a->no_bisect, "Do not bisect differing frames");
               sub.add_flag("--inspect", a->inspect,
                            "With --report: write the frame inspector's pages of every bisected "
                            "draw on both combinations under REPORT/inspect/, linked from the report");
               sub.add_option("--device", a->device, "Vulkan device index");
               sub.add_flag("--validate", a->validate,
                            "Vulkan validation layer on; a message makes that combination an error");
               sub.add_option("--threads", a->threads, "cpu path pixel-stage threads (0 = every core)");
               sub.add_option("--gpu-timeout", a->gpu_timeout,
                              "Longest wait in seconds for the Vulkan device to finish submitted "
                              "work; past it that combination is an error naming the event in "
                              "flight (a hung GPU or driver never hangs the run; 0 = no limit)")
                   ->check(CLI::Range(0.0, 86400.0))
                   ->capture_default_str();
               sub.add_option("--save-baseline", a->save_baseline,
                              "Store every combination's frames and hashes in this folder");
               sub.add_option("--baseline", a->baseline,
                              "Compare every combination with the frames a --save-baseline run stored "
                              "(instead of the reference combination; bisected against its "
                              "snapshots when saved with --snapshots all)");
               sub.add_option("--snapshots", a->snapshots,
                              "all: with --save-baseline, also store every draw's and resolve's "
                              "hash and targets (for bisection against the baseline)");
               sub.add_option("--expectations", a->expectations,
                              "TOML file of expected frame hashes per trace and combination");
               sub.add_flag("--update-expectations", a->update_expectations,
                            "Rewrite --expectations from this run's hashes");
               sub.add_option("--repro", a->repro,
                              "Write a slice of each bisected difference's frame, from its start "
                              "through the differing event, into this folder and check that "
                              "bisecting it finds the same event (repro.json)");
               auto* minimize = sub.add_flag(
                   "--minimize", a->minimize,
                   "With --repro: also drop the earlier draws, resolves and clears of each "
                   "reproduced slice whose removal keeps the same difference at the (renumbered) "
                   "differing event (delta debugging), into DIR/..._min.xnt");
               minimize->needs(sub.get_option("--repro"));
               sub.add_option("--minimize-seconds", a->minimize_seconds,
                              "Time limit of --minimize per repro, seconds (the search stops and "
                              "reports it was cut short)")
                   ->check(CLI::Range(0.0, 86400.0))
                   ->capture_default_str()
                   ->needs(minimize);
               sub.add_option("--test-fault-skip-draw", a->test_fault,
                              "TEST HOOK: COMBINATION:F.K skips draw F.K on that combination (to "
                              "check that bisection finds it)");
               sub.add_option("--test-fault-resolve-format", a->test_fault_resolve,
                              "TEST HOOK: COMBINATION:F.K resolves F.K with a wrong destination "
                              "format on that combination");
               return [a]() -> int { return RunCompare(*a); };
             }});

}  // namespace
}  // namespace xnt::cli
