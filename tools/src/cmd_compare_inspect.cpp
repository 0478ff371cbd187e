// compare --inspect: each bisected difference gets the inspector pages of its event on both
// combinations, so the first differing draw is one click from its state in the report.
#include <filesystem>
#include <map>

#include "compare_inspect.h"
#include "xnt/base/error.h"
#include "xnt/compare/bisect.h"
#include "xnt/compare/combination.h"
#include "xnt/inspect/site.h"

namespace xnt::cli {
namespace {

// "fbo@2x2" -> "fbo_2x2": a folder name.
std::string FolderName(std::string name) {
  for (char& c : name) {
    if (c == '@' || c == '/' || c == '\\') c = '_';
  }
  return name;
}

}  // namespace

void WriteInspectorSites(compare::RunResults& results, const compare::CompareOptions& options,
                         const std::string& report_dir) {
  std::map<std::string, std::string> trace_files;  // TraceName -> path
  for (const std::string& t : options.traces) trace_files[compare::TraceName(t)] = t;
  std::map<std::string, bool> written;  // site folder -> written
  for (compare::CombinationResult& c : results.results) {
    auto file = trace_files.find(c.trace);
    if (file == trace_files.end()) continue;
    for (compare::Bisection& b : c.bisections) {
      if (!b.found) continue;
      for (const std::string& combo : {c.combination, options.reference.Name()}) {
        const std::string rel = "inspect/" + FolderName(c.trace) + "/" + FolderName(combo) + "_f" +
                                std::to_string(b.frame) + "_" + std::to_string(b.draw);
        if (!written.count(rel)) {
          inspect::SiteOptions o;
          o.trace = file->second;
          o.out_dir = (std::filesystem::path(report_dir) / rel).string();
          o.frames = FrameSet::Parse(std::to_string(b.frame));
          o.image_events = {inspect::EventRange{{b.frame, b.draw}, {b.frame, b.draw}}};
          o.session = compare::SessionOptionsFor(compare::ParseCombination(combo), options);
          try {
            inspect::WriteSite(o);
            written[rel] = true;
          } catch (const Error& e) {
            written[rel] = false;
            b.error += (b.error.empty() ? "" : "; ") + std::string("inspector site for ") + combo +
                       " not written: " + e.what();
          }
        }
        if (written[rel]) {
          b.inspect_links.push_back({combo, inspect::EventLink(rel, b.frame, b.draw)});
        }
      }
    }
  }
}

}  // namespace xnt::cli
