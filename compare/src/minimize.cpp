// Delta debugging over a repro slice's events (minimize.h). ddmin as Zeller and Hildebrandt
// state it ("Simplifying and Isolating Failure-Inducing Input", 2002): split the candidates into
// n parts, keep one part or one complement that still shows the difference, else refine n.
#include "xnt/compare/minimize.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>

#include "xnt/base/error.h"
#include "xnt/compare/bisect.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"
#include "xnt/replay/null_backend.h"
#include "xnt/replay/trace_player.h"
#include "xnt/xenos/pm4.h"

namespace xnt::compare {
namespace {

// Where each event's draw packet lies: the slice's submissions are flat (slice.h), so a record
// index and the packet's dword in it.
class EventPackets : public replay::NullBackend {
 public:
  void OnDraw(const replay::DrawCall& d) override { Add(d); }
  void OnResolve(const replay::ResolveCall& r) override { Add(r.draw); }
  std::vector<replay::TraceOffset> offsets;  // by event index in frame 0

 private:
  void Add(const replay::DrawCall& d) {
    if (d.frame != 0) return;
    if (d.offset.ib_depth != 0)
      throw Error("minimize: event 0." + std::to_string(d.draw_index) +
                  " is inside an indirect buffer; not a repro slice");
    offsets.push_back(d.offset);
  }
};

class Minimizer {
 public:
  Minimizer(const std::string& slice, uint32_t differing, const Combination& reference,
            const Combination& other, const CompareOptions& options, const std::string& out)
      : differing_(differing),
        reference_(reference),
        other_(other),
        options_(options),
        trial_file_(out + ".trial") {
    auto reader = format::Reader::Open(slice, {.allow_recovery = false});
    info_ = reader->info();
    reader->ForEachRecord([&](const format::Record& r) {
      records_.push_back(r);
      return true;
    });
    EventPackets events;
    replay::TracePlayer player(events);
    for (const format::Record& r : records_) player.Apply(r);
    if (events.offsets.size() <= differing) {
      throw Error("minimize: the slice has " + std::to_string(events.offsets.size()) +
                  " events; event 0." + std::to_string(differing) + " is not among them");
    }
    offsets_ = std::move(events.offsets);
  }
  ~Minimizer() {
    std::error_code ec;
    std::filesystem::remove(trial_file_, ec);
  }

  // Writes the slice with only `keep` of the events before the differing one (and it) to `file`.
  void Write(const std::vector<uint32_t>& keep, const std::string& file) const {
    std::set<uint32_t> kept(keep.begin(), keep.end());
    kept.insert(differing_);
    std::map<uint64_t, std::vector<uint32_t>> dropped;  // record -> packet dwords to NOP
    for (uint32_t e = 0; e < offsets_.size(); ++e) {
      if (e <= differing_ && !kept.count(e))
        dropped[offsets_[e].record].push_back(offsets_[e].dword);
    }
    auto writer = format::Writer::Create(file, info_);
    for (uint64_t i = 0; i < records_.size(); ++i) {
      const auto it = dropped.find(i);
      if (it == dropped.end()) {
        writer->Write(records_[i]);
        continue;
      }
      format::Submission s = std::get<format::Submission>(records_[i]);
      for (uint32_t at : it->second) {
        // Same length, no effect: the packet's payload becomes the NOP's.
        s.dwords.at(at) =
            xenos::MakeType3(xenos::Opcode::kNop, xenos::DecodeType3(s.dwords[at]).count);
      }
      writer->Write(s);
    }
    writer->Finish();
  }

  // True when the slice with `keep` still differs first at its last event (the differing one).
  bool Differs(const std::vector<uint32_t>& keep) {
    ++trials_;
    Write(keep, trial_file_);
    const uint32_t renumbered = uint32_t(keep.size());
    CompareOptions o = options_;
    if (o.test_fault && o.test_fault->draw.frame == 0 && o.test_fault->draw.draw == differing_) {
      o.test_fault->draw.draw = renumbered;
    }
    const Bisection b = BisectFrame(trial_file_, 0, reference_, other_, o);
    return b.error.empty() && b.found && b.frame == 0 && b.draw == renumbered;
  }

  uint32_t trials() const { return trials_; }

 private:
  uint32_t differing_;
  Combination reference_, other_;
  CompareOptions options_;
  std::string trial_file_;
  format::TraceInfo info_;
  std::vector<format::Record> records_;
  std::vector<replay::TraceOffset> offsets_;
  uint32_t trials_ = 0;
};

// ddmin over `candidates`: the smallest subset found (1-minimal when it ran to the end) for which
// `test` holds. `expired` is asked before every trial; when it says so, `cut_short` is set and
// the smallest subset so far is returned.
template <typename Test, typename Expired>
std::vector<uint32_t> DeltaDebug(std::vector<uint32_t> candidates, Test test, Expired expired,
                                 bool& cut_short) {
  auto trial = [&](const std::vector<uint32_t>& subset) {
    if (cut_short || expired()) {
      cut_short = true;
      return false;
    }
    return test(subset);
  };
  if (candidates.empty() || trial({})) return {};
  size_t n = 2;
  while (candidates.size() >= 2 && !cut_short) {
    n = std::min(n, candidates.size());
    std::vector<std::vector<uint32_t>> parts(n);
    for (size_t i = 0; i < candidates.size(); ++i) {
      parts[i * n / candidates.size()].push_back(candidates[i]);
    }
    bool reduced = false;
    for (size_t i = 0; i < n && !reduced; ++i) {
      if (trial(parts[i])) {
        candidates = parts[i];
        n = 2;
        reduced = true;
      }
    }
    // With two parts each complement is the other part, already tried.
    for (size_t i = 0; i < n && !reduced && n > 2; ++i) {
      std::vector<uint32_t> rest;
      for (size_t j = 0; j < n; ++j) {
        if (j != i) rest.insert(rest.end(), parts[j].begin(), parts[j].end());
      }
      if (trial(rest)) {
        candidates = std::move(rest);
        n = std::max<size_t>(n - 1, 2);
        reduced = true;
      }
    }
    if (reduced) continue;
    if (n >= candidates.size()) break;
    n = std::min(n * 2, candidates.size());
  }
  return candidates;
}

}  // namespace

Minimized MinimizeRepro(const std::string& slice, uint32_t differing, const Combination& reference,
                        const Combination& other, const CompareOptions& options, double seconds,
                        const std::string& out) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  Minimizer minimizer(slice, differing, reference, other, options, out);
  std::vector<uint32_t> earlier(differing);
  for (uint32_t e = 0; e < differing; ++e) earlier[e] = e;
  Minimized m;
  std::vector<uint32_t> kept = DeltaDebug(
      earlier, [&](const std::vector<uint32_t>& keep) { return minimizer.Differs(keep); },
      [&] { return elapsed() >= seconds; }, m.cut_short);
  m.removed = uint32_t(differing - kept.size());
  kept.push_back(differing);
  m.kept = kept;
  m.trials = minimizer.trials();
  kept.pop_back();
  minimizer.Write(kept, out);
  m.file = out;
  m.seconds = elapsed();
  return m;
}

}  // namespace xnt::compare
