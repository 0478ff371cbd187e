// `xenotrace compare-merge SHARD_DIR... --report DIR --junit FILE`: joins the results.json of
// `compare --shard I/N --report SHARD_DIR` runs into one report, as one run would have written
// it (same verdicts, same JUnit). The shards' images are copied into the merged report folder.
#include <cstdio>
#include <filesystem>

#include "command.h"
#include "xnt/base/error.h"
#include "xnt/compare/results.h"
#include "xnt/diff/png.h"

namespace xnt::cli {
namespace {
namespace fs = std::filesystem;

struct MergeArgs {
  std::vector<std::string> shards;
  std::string report, junit;
  bool json = false;
};

void CopyImages(const compare::RunResults& r, const std::string& from, const std::string& to) {
  auto copy = [&](const compare::ReportImage& img) {
    const fs::path dst = fs::path(to) / img.path;
    fs::create_directories(dst.parent_path());
    fs::copy_file(fs::path(from) / img.path, dst, fs::copy_options::overwrite_existing);
  };
  for (const auto& c : r.results) {
    for (const auto& f : c.frames) for (const auto& i : f.images) copy(i);
    for (const auto& b : c.bisections) for (const auto& i : b.images) copy(i);
  }
}

int RunMerge(const MergeArgs& a) {
  std::vector<compare::RunResults> shards;
  for (const std::string& dir : a.shards) {
    const std::string file = (fs::path(dir) / "results.json").string();
    const std::vector<uint8_t> bytes = diff::ReadFileBytes(file);
    shards.push_back(compare::FromJson(std::string(bytes.begin(), bytes.end()), file));
  }
  compare::RunResults merged = compare::Merge(shards);
  if (!a.report.empty()) {
    fs::create_directories(a.report);
    for (size_t i = 0; i < shards.size(); ++i) {
      if (fs::equivalent(a.shards[i], a.report)) continue;
      CopyImages(shards[i], a.shards[i], a.report);
    }
    compare::WriteReport(merged, a.report);
  }
  if (!a.junit.empty()) {
    const std::string xml = compare::ToJunit(merged);
    diff::WriteFileBytes(a.junit, xml.data(), xml.size());
  }
  std::fputs(a.json ? compare::ToJson(merged).c_str() : compare::ToText(merged).c_str(), stdout);
  return merged.ExitCode();
}

XNT_COMMAND({"compare-merge",
             "Join the results of compare --shard runs into one report and JUnit file",
             76, [](CLI::App& sub) {
               auto a = std::make_shared<MergeArgs>();
               sub.add_option("SHARD_DIR", a->shards, "Report folders of compare --shard runs")
                   ->required()
                   ->check(CLI::ExistingDirectory);
               sub.add_option("-o,--out,--report", a->report, "Folder for the merged report.html and results.json");
               sub.add_option("--junit", a->junit, "Write the merged JUnit XML");
               sub.add_flag("--json", a->json, "Print the merged results.json on stdout");
               return [a]() -> int { return RunMerge(*a); };
             }});

}  // namespace
}  // namespace xnt::cli
