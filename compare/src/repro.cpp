// Repro slices of bisected differences (see repro.h).
#include "xnt/compare/repro.h"

#include <filesystem>
#include <map>

#include "xnt/base/error.h"
#include "xnt/base/json.h"
#include "xnt/compare/bisect.h"
#include "xnt/compare/slice.h"

namespace xnt::compare {
namespace {

namespace fs = std::filesystem;

// The comparison of `options` on `slice` alone, for `combination` (frame F of the source is
// frame 0 of the slice).
CompareOptions SliceOptions(const CompareOptions& options, const std::string& slice,
                            const std::string& combination, uint64_t frame) {
  CompareOptions o = options;
  o.traces = {slice};
  o.combinations = {ParseCombination(combination)};
  o.frames = {};
  o.report_dir.clear();
  o.save_baseline_dir.clear();
  o.baseline_snapshots = false;
  o.jobs = 1;
  o.progress = nullptr;
  if (o.test_fault) {
    if (o.test_fault->draw.frame == frame) {
      o.test_fault->draw.frame = 0;
    } else {
      o.test_fault.reset();  // an earlier frame's fault is baked into the cut state, or absent
    }
  }
  return o;
}

// The slice ends right after the differing event (its swap shows the front buffer as that event
// left it, which need not show the difference yet), so the check bisects the slice's frame
// directly rather than diffing its frame first.
void Check(Repro& repro, const CompareOptions& options, const Combination& reference,
           uint64_t frame, uint32_t draw) {
  if (!options.baseline_dir.empty()) {
    repro.detail = "not checked: a baseline holds the source's frames, not the slice's";
    return;
  }
  const CompareOptions o = SliceOptions(options, repro.file, repro.combination, frame);
  const Bisection b = BisectFrame(repro.file, 0, reference, o.combinations[0], o);
  if (!b.error.empty()) {
    repro.detail = "bisecting the slice: " + b.error;
  } else if (b.found) {
    repro.slice_event = b.Id();
    repro.reproduced = b.frame == 0 && b.draw == draw;
    if (!repro.reproduced) repro.detail = "the slice differs first at " + b.Id();
  } else {
    // The slice's state at the cut is the cpu path's, so a difference inherited from an earlier
    // frame (a texture or EDRAM it left wrong) does not come with it.
    repro.detail = "the slice shows no difference: it comes from before frame " +
                   std::to_string(frame) + " (the slice starts from the cpu path's state there)";
  }
}

}  // namespace

std::vector<std::string> KeptIds(const Repro& repro, const Minimized& m) {
  const std::string frame = repro.event.substr(0, repro.event.find('.'));
  std::vector<std::string> ids;
  for (uint32_t e : m.kept) ids.push_back(frame + "." + std::to_string(e));
  return ids;
}

std::vector<Repro> WriteRepros(const RunResults& results, const CompareOptions& options,
                               const std::string& dir, std::optional<double> minimize_seconds) {
  std::map<std::string, std::string> paths;  // TraceName -> file
  for (const std::string& t : ExpandTraces(options.traces)) paths[TraceName(t)] = t;
  fs::create_directories(dir);
  std::vector<Repro> out;
  for (const CombinationResult& c : results.results) {
    for (const Bisection& b : c.bisections) {
      if (!b.found) continue;
      Repro repro;
      repro.trace = c.trace;
      repro.combination = c.combination;
      repro.event = b.Id();
      std::string combo = c.combination;
      for (char& ch : combo) {
        if (ch == '@') ch = '_';
      }
      const auto path = paths.find(c.trace);
      repro.file = (fs::path(dir) / (fs::path(c.trace).stem().string() + "_" + b.Id() + "_" +
                                     combo + ".xnt")).string();
      try {
        if (path == paths.end()) throw Error("trace " + c.trace + " not among the inputs");
        SliceRange range{b.frame, b.frame, 0u, b.draw};
        WriteSlice(path->second, repro.file, range);
        Check(repro, options, options.reference, b.frame, b.draw);
        if (repro.reproduced && minimize_seconds) {
          const CompareOptions o = SliceOptions(options, repro.file, repro.combination, b.frame);
          std::string min_file = repro.file;
          min_file.replace(min_file.size() - 4, 4, "_min.xnt");
          repro.minimized = MinimizeRepro(repro.file, b.draw, options.reference, o.combinations[0],
                                          o, *minimize_seconds, min_file);
        }
      } catch (const Error& e) {
        repro.detail = e.what();
      }
      out.push_back(std::move(repro));
    }
  }
  return out;
}

std::string ReprosToJson(const std::vector<Repro>& repros) {
  Json list = Json::array();
  for (const Repro& r : repros) {
    Json j = {{"trace", r.trace},  {"combination", r.combination}, {"event", r.event},
              {"file", r.file},    {"slice_event", r.slice_event}, {"reproduced", r.reproduced},
              {"detail", r.detail}};
    if (r.minimized) {
      const Minimized& m = *r.minimized;
      Json kept = Json::array();
      for (const std::string& id : KeptIds(r, m)) kept.push_back(id);
      j["minimized"] = {{"file", m.file},           {"kept", kept},
                        {"removed", m.removed},     {"trials", m.trials},
                        {"cut_short", m.cut_short}, {"seconds", m.seconds}};
    }
    list.push_back(std::move(j));
  }
  return Json{{"repros", list}}.dump(2);
}

}  // namespace xnt::compare
