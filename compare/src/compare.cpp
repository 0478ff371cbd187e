// The compare driver (compare.h): replay every combination of a trace, diff against the
// reference, bisect differing frames.
#include "xnt/compare/compare.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <set>

#include "baseline.h"
#include "xnt/base/error.h"
#include "xnt/base/parallel.h"
#include "xnt/compare/bisect.h"
#include "xnt/compare/snapshot.h"
#include "xnt/diff/png.h"
#include "xnt/format/reader.h"
#include "xnt/replay/trace_player.h"

namespace xnt::compare {
namespace fs = std::filesystem;

namespace {

// Differing frames bisected per combination: each costs four replays through that frame.
constexpr size_t kMaxBisectionsPerCombination = 4;

struct Replayed {
  std::map<uint64_t, diff::OwnedImage> frames;
  std::string error;
  std::string device;
  double seconds = 0;
};

std::string Hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016" PRIx64, v);
  return buf;
}

std::string FrameFile(uint64_t frame) {
  char name[32];
  std::snprintf(name, sizeof(name), "frame_%04" PRIu64 ".png", frame);
  return name;
}

std::string SafeName(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(uint8_t(c)) && c != '.' && c != '-' && c != '_') c = '_';
  }
  return s;
}

Replayed ReplayCombination(const std::string& trace, const Combination& c,
                           const CompareOptions& options, const std::function<void(uint64_t)>& on_frame) {
  Replayed r;
  const auto start = std::chrono::steady_clock::now();
  try {
    renderer::SessionOptions so = SessionOptionsFor(c, options);
    std::unique_ptr<renderer::Session> session;
    // --save-baseline --snapshots all: every event's hash and targets after it, for bisecting a
    // later build's differing frames against this one (baseline.h).
    std::vector<StoredEvent> events;
    const bool snapshots = !options.save_baseline_dir.empty() && options.baseline_snapshots;
    if (!options.save_baseline_dir.empty()) {
      ResetBaselineFolder(options.save_baseline_dir, TraceName(trace), c.Name());
    }
    if (snapshots) {
      so.on_draw_event = [&](const renderer::DrawEvent& e) {
        if (!e.after || !options.frames.Contains(e.draw->frame)) return;
        StoredEvent stored;
        stored.frame = e.draw->frame;
        stored.draw = e.draw->draw_index;
        stored.kind = e.resolve ? "resolve" : "draw";
        stored.hash = HashEvent(*session, e);
        const std::vector<TargetSnapshot> targets = SnapshotEventTargets(*session, e);
        for (const TargetSnapshot& t : targets) stored.targets.push_back(t.name);
        SaveBaselineSnapshot(options.save_baseline_dir, TraceName(trace), c.Name(), stored, targets);
        events.push_back(std::move(stored));
      };
    }
    so.on_swap = [&](uint64_t frame, const gpu::SwapImage& image) {
      if (!options.frames.Contains(frame)) return;
      diff::OwnedImage img(int(image.width), int(image.height), 4, diff::PixelType::kU8);
      for (uint32_t y = 0; y < image.height; ++y) {
        std::copy_n(image.rgba.data() + size_t(y) * image.width * 4, size_t(image.width) * 4,
                    img.MutableRow(int(y)));
      }
      r.frames[frame] = std::move(img);
    };
    so.on_frame_end = [&](const replay::FrameEndCall& f) {
      if (on_frame) on_frame(f.frame + 1);
    };
    session = renderer::Session::Create(so);
    r.device = session->device_name();
    auto reader = format::Reader::Open(trace);
    replay::TracePlayer player(session->backend());
    session->Attach(player);
    player.Play(*reader, options.frames.Last());
    session->Flush();
    if (options.validate && session->validation_message_count() > 0) {
      r.error = std::to_string(session->validation_message_count()) + " Vulkan validation message(s)";
      for (const auto& m : session->validation_messages()) r.error += "\n" + m;
    } else if (r.frames.empty()) {
      r.error = "no XE_SWAP in the selected frames";
    }
    if (snapshots && r.error.empty()) {
      SaveBaselineEvents(options.save_baseline_dir, TraceName(trace), c.Name(), events);
    }
  } catch (const std::exception& e) {
    r.error = e.what();
    r.frames.clear();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

void SaveFrameImages(FrameResult& fr, const diff::Image& ref, const diff::Image& img,
                     const std::string& trace, const std::string& combination,
                     const std::string& reference, const CompareOptions& options) {
  if (options.report_dir.empty()) return;
  const std::string base = "frames/" + SafeName(trace) + "/" + SafeName(combination) + "/";
  fs::create_directories(fs::path(options.report_dir) / base);
  const std::string stem = base + FrameFile(fr.frame).substr(0, 10);
  auto save = [&](const diff::Image& v, const std::string& suffix, const std::string& label) {
    diff::SavePng((fs::path(options.report_dir) / (stem + suffix)).string(), v);
    fr.images.push_back({label, stem + suffix});
  };
  save(ref, ".ref.png", reference + " frame " + std::to_string(fr.frame));
  save(img, ".this.png", combination + " frame " + std::to_string(fr.frame));
  if (ref.width == img.width && ref.height == img.height) {
    save(diff::MakeDiffImage(ref, img, options.diff.ignore_alpha).view(), ".diff.png",
         "difference (scaled to the largest)");
  }
}

// Frames of `c` against the reference frames; fills res.frames and res.status.
void DiffFrames(CombinationResult& res, const std::map<uint64_t, diff::OwnedImage>& ref,
                const std::map<uint64_t, diff::OwnedImage>& mine, const std::string& reference,
                const CompareOptions& options) {
  std::set<uint64_t> frames;
  for (const auto& [f, _] : ref) frames.insert(f);
  for (const auto& [f, _] : mine) frames.insert(f);
  diff::DiffOptions dopt = options.diff;
  dopt.report_dir.clear();
  for (uint64_t f : frames) {
    FrameResult fr;
    fr.frame = f;
    auto a = ref.find(f);
    auto b = mine.find(f);
    if (b != mine.end()) fr.hash = Hex(diff::HashPixels(b->second.view()));
    if (a != ref.end()) fr.reference_hash = Hex(diff::HashPixels(a->second.view()));
    if (a == ref.end() || b == mine.end()) {
      fr.status = diff::Status::kDiffer;
      fr.detail = a == ref.end() ? "frame not in " + reference : "frame missing (" + reference + " has it)";
    } else {
      const std::string name = res.trace + "/" + res.combination + "/" + FrameFile(f);
      diff::ReportItem item = diff::CompareImages(a->second.view(), b->second.view(), name, dopt);
      fr.status = item.status;
      if (item.kind == diff::ItemKind::kError) {
        fr.detail = item.error;
      } else {
        for (const std::string& why : item.reasons) fr.detail += (fr.detail.empty() ? "" : "; ") + why;
        if (!item.note.empty()) fr.detail += " (" + item.note + ")";
      }
      if (item.has_metrics) {
        fr.max_error = item.metrics.max_abs;
        fr.pixels_differing = item.metrics.pixels_differing;
      }
      if (fr.status == diff::Status::kDiffer) {
        SaveFrameImages(fr, a->second.view(), b->second.view(), res.trace, res.combination,
                        reference, options);
      }
    }
    if (fr.status == diff::Status::kError) res.status = diff::Status::kError;
    if (fr.status == diff::Status::kDiffer && res.status == diff::Status::kPass) {
      res.status = diff::Status::kDiffer;
    }
    if (res.status == diff::Status::kError && res.error.empty()) res.error = "frame " + std::to_string(f) + ": " + fr.detail;
    res.frames.push_back(std::move(fr));
  }
}

}  // namespace

namespace {

// Work shared by the traces of one run.
struct RunState {
  RunState(const CompareOptions& o, const std::vector<Combination>& c, bool b, RunResults& r)
      : options(o), combos(c), baseline(b), run(r) {}
  const CompareOptions& options;
  const std::vector<Combination>& combos;
  bool baseline = false;
  RunResults& run;
  std::mutex mutex;  // run, progress
  size_t replays_done = 0, replays_total = 0;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

// Replays, diffs and bisects one trace; `jobs` combinations at once.
void CompareTrace(RunState& st, size_t ti, unsigned jobs) {
  const CompareOptions& options = st.options;
  const std::vector<Combination>& combos = st.combos;
  const bool baseline = st.baseline;
  const std::string& trace = options.traces[ti];
  const std::string name = TraceName(trace);
  auto progress = [&](const std::string& combination, const std::string& step, uint64_t frame) {
    if (!options.progress) return;
    std::lock_guard lock(st.mutex);
    Progress p;
    p.trace = ti + 1;
    p.traces = options.traces.size();
    p.trace_name = name;
    p.combination = combination;
    p.step = step;
    p.frame = frame;
    p.replays_done = st.replays_done;
    p.replays_total = st.replays_total;
    p.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - st.start).count();
    options.progress(p);
  };
  std::vector<Replayed> replayed(combos.size());
  ParallelFor(combos.size(), jobs, [&](size_t i) {
    replayed[i] = ReplayCombination(trace, combos[i], options, [&](uint64_t frame) {
      progress(combos[i].Name(), "replay", frame);
    });
    {
      std::lock_guard lock(st.mutex);
      ++st.replays_done;
    }
    progress(combos[i].Name(), "replayed", 0);
  });
  if (!options.save_baseline_dir.empty()) {
    for (size_t i = 0; i < combos.size(); ++i) {
      if (replayed[i].error.empty()) {
        SaveBaselineFrames(options.save_baseline_dir, name, combos[i].Name(), replayed[i].frames);
      }
    }
  }
  std::vector<CombinationResult> results;
  for (size_t i = 0; i < combos.size(); ++i) {
    CombinationResult res;
    res.trace = name;
    res.combination = combos[i].Name();
    res.device = replayed[i].device;
    res.seconds = replayed[i].seconds;
    res.reference = !baseline && i == 0;
    if (!replayed[i].error.empty()) {
      res.status = diff::Status::kError;
      res.error = replayed[i].error;
    } else if (res.reference) {
      for (const auto& [f, img] : replayed[i].frames) {
        FrameResult fr;
        fr.frame = f;
        fr.hash = Hex(diff::HashPixels(img.view()));
        res.frames.push_back(fr);
      }
    } else if (baseline) {
      std::string why;
      auto stored = LoadBaselineFrames(options.baseline_dir, name, res.combination, &why);
      if (!why.empty()) {
        res.status = diff::Status::kError;
        res.error = why;
      } else {
        DiffFrames(res, stored, replayed[i].frames, "baseline", options);
      }
    } else if (!replayed[0].error.empty()) {
      res.status = diff::Status::kError;
      res.error = "the reference " + combos[0].Name() + " failed: " + replayed[0].error;
    } else {
      DiffFrames(res, replayed[0].frames, replayed[i].frames, combos[0].Name(), options);
    }
    results.push_back(std::move(res));
  }
  // Frames are no longer needed; bisection replays what it needs.
  replayed.clear();
  if (options.bisect) {
    for (auto& res : results) {
      if (res.status != diff::Status::kDiffer) continue;
      for (const FrameResult& fr : res.frames) {
        if (fr.status != diff::Status::kDiffer || fr.hash.empty() || fr.reference_hash.empty()) continue;
        if (res.bisections.size() >= kMaxBisectionsPerCombination) break;
        Bisection b;
        b.frame = fr.frame;
        res.bisections.push_back(b);
      }
    }
    for (auto& res : results) {
      const Combination other = ParseCombination(res.combination);
      for (Bisection& b : res.bisections) {
        progress(res.combination, "bisect", b.frame);
        if (baseline) {
          // The same combination as the baseline stored: one scale, snapshots comparable.
          b = BisectAgainstBaseline(trace, b.frame, other, options);
          continue;
        }
        if (other.scale != combos[0].scale) {
          // The EDRAMs hold different numbers of samples per guest pixel: their guest bits
          // cannot be compared draw by draw (the frames were compared downsampled).
          b.summary = "not bisected: " + res.combination + " and " + combos[0].Name() +
                      " differ in resolution scale; bisect between combinations of one scale";
          continue;
        }
        b = BisectFrame(trace, b.frame, combos[0], other, options);
      }
    }
  }
  std::lock_guard lock(st.mutex);
  st.run.traces.push_back(name);
  for (auto& res : results) st.run.results.push_back(std::move(res));
}

}  // namespace

RunResults RunCompare(const CompareOptions& options) {
  if (options.combinations.empty()) throw Error("compare: no combination to run");
  const bool baseline = !options.baseline_dir.empty();
  std::vector<Combination> combos;
  if (!baseline) combos.push_back(options.reference);
  for (const Combination& c : options.combinations) {
    if (std::find(combos.begin(), combos.end(), c) == combos.end()) combos.push_back(c);
  }
  std::set<std::string> names;
  for (const std::string& t : options.traces) {
    if (!names.insert(TraceName(t)).second) {
      throw Error("two traces are called " + TraceName(t) + ": results are keyed by file name");
    }
  }
  if (!options.report_dir.empty()) fs::create_directories(options.report_dir);

  RunResults run;
  run.reference = baseline ? "baseline" : options.reference.Name();
  for (const Combination& c : combos) run.combinations.push_back(c.Name());

  RunState st(options, combos, baseline, run);
  st.replays_total = options.traces.size() * combos.size();
  // --jobs spreads over traces when there are at least as many traces as jobs (each trace's
  // combinations then run one after another, so at most `jobs` sessions and `jobs` traces' frames
  // are alive at once), else over the combinations of one trace at a time.
  const unsigned jobs = std::max(1u, options.jobs);
  if (jobs > 1 && options.traces.size() >= jobs) {
    ParallelFor(options.traces.size(), jobs, [&](size_t ti) { CompareTrace(st, ti, 1); });
  } else {
    for (size_t ti = 0; ti < options.traces.size(); ++ti) CompareTrace(st, ti, jobs);
  }
  run.Sort();
  return run;
}

}  // namespace xnt::compare
