// `compare --repro DIR`: for every difference compare bisected to a first differing event F.K, a
// slice of the trace (slice.h) holding events F.0-F.K (the state just before F.0, then frame F's
// stream through F.K and its swap), and a check that it reproduces the difference: the same
// comparison's bisection of the slice's frame must name event 0.K (frame F renumbered).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "xnt/compare/compare.h"
#include "xnt/compare/minimize.h"
#include "xnt/compare/results.h"

namespace xnt::compare {

struct Repro {
  std::string trace, combination;
  std::string event;        // "F.K" of the source's bisection
  std::string file;         // the slice written
  std::string slice_event;  // what compare on the slice bisected to ("" when nothing)
  bool reproduced = false;  // slice_event is "0.K"
  std::string detail;       // why not, in words
  // --minimize, for a reproduced slice: `kept` in the source's numbering ("F.j").
  std::optional<Minimized> minimized;
};

// Writes one slice per found bisection of `results` (a run of `options`) into `dir` and checks
// each. A test fault (CompareOptions::test_fault) in frame F moves to frame 0 with it. With
// `minimize_seconds`, each reproduced slice is also minimized (minimize.h) within that many
// seconds into DIR/..._min.xnt.
std::vector<Repro> WriteRepros(const RunResults& results, const CompareOptions& options,
                               const std::string& dir,
                               std::optional<double> minimize_seconds = std::nullopt);

// {"repros": [{"trace", "combination", "event", "file", "slice_event", "reproduced",
// "detail", ["minimized": {"file", "kept": ["F.j"...], "removed", "trials", "cut_short",
// "seconds"}]}...]}
std::string ReprosToJson(const std::vector<Repro>& repros);

// The events a minimized repro kept, in the source's numbering ("F.j": the slice starts at F.0).
std::vector<std::string> KeptIds(const Repro& repro, const Minimized& m);

}  // namespace xnt::compare
