// The diff driver: files or folders in, a Report out.
#include "xnt/diff/driver.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>

#include "xnt/base/error.h"
#include "xnt/diff/png.h"

namespace xnt::diff {
namespace fs = std::filesystem;
namespace {

double Since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool IsPng(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".png";
}

std::set<std::string> ListPngs(const fs::path& root) {
  std::set<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  if (ec) throw Error(root.string() + ": cannot list folder: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) throw Error(root.string() + ": cannot list folder: " + ec.message());
    if (it->is_regular_file() && IsPng(it->path())) out.insert(it->path().lexically_relative(root).generic_string());
  }
  return out;
}

}  // namespace

Thresholds ThresholdsFor(const std::string& name, const DiffOptions& options) {
  Thresholds t = options.policy.For(name);
  t.Overlay(options.overrides);
  if (options.ignore_alpha) t.ignore_alpha = true;
  return t;
}

ReportItem CompareImages(const Image& a, const Image& b, const std::string& name, const DiffOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  ReportItem item;
  item.name = name;
  try {
    const Thresholds t = ThresholdsFor(name, options);
    item.thresholds = t.Describe();
    MatchedPair pair = MatchSizes(a, b, options.match);
    item.note = pair.note;
    ErrorMaps maps;
    CompareOptions copt = t.ToCompareOptions();
    copt.kernels = options.kernels;
    if (!options.report_dir.empty()) copt.maps = &maps;
    item.metrics = Compare(pair.a, pair.b, copt);
    item.has_metrics = true;
    Verdict v = Evaluate(item.metrics, t);
    item.status = v.status;
    item.reasons = std::move(v.reasons);
    if (!options.report_dir.empty())
      WriteItemImages(item, pair.a, pair.b, maps, copt.ignore_alpha, options.report_dir);
  } catch (const std::exception& e) {
    item.kind = ItemKind::kError;
    item.status = Status::kError;
    item.error = e.what();
  }
  item.seconds = Since(t0);
  return item;
}

ReportItem CompareFiles(const std::string& path_a, const std::string& path_b, const std::string& name,
                        const DiffOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  ReportItem item;
  try {
    OwnedImage a = LoadPng(path_a);
    OwnedImage b = LoadPng(path_b);
    item = CompareImages(a.view(), b.view(), name, options);
  } catch (const std::exception& e) {
    item.name = name;
    item.kind = ItemKind::kError;
    item.status = Status::kError;
    item.error = e.what();
  }
  item.path_a = path_a;
  item.path_b = path_b;
  item.seconds = Since(t0);
  return item;
}

Report DiffPaths(const std::string& a, const std::string& b, const DiffOptions& options) {
  Report report;
  report.a = a;
  report.b = b;
  std::error_code ec;
  const bool da = fs::is_directory(a, ec), db = fs::is_directory(b, ec);
  if (!fs::exists(a, ec)) throw Error(a + ": no such file or folder");
  if (!fs::exists(b, ec)) throw Error(b + ": no such file or folder");
  if (da != db) throw Error("cannot compare a folder with a file: " + a + " vs " + b);
  if (!options.report_dir.empty()) {
    fs::create_directories(options.report_dir, ec);
    if (ec) throw Error(options.report_dir + ": cannot create folder: " + ec.message());
  }
  if (!da) {
    report.items.push_back(CompareFiles(a, b, fs::path(b).filename().string(), options));
    return report;
  }
  const std::set<std::string> la = ListPngs(a), lb = ListPngs(b);
  std::set<std::string> all = la;
  all.insert(lb.begin(), lb.end());
  // An empty comparison passing would hide a misconfigured CI job.
  if (all.empty()) throw Error("no PNG files in " + a + " or " + b);
  for (const std::string& rel : all) {
    const std::string pa = (fs::path(a) / rel).string(), pb = (fs::path(b) / rel).string();
    if (la.count(rel) && lb.count(rel)) {
      report.items.push_back(CompareFiles(pa, pb, rel, options));
      continue;
    }
    ReportItem item;
    item.name = rel;
    item.status = Status::kDiffer;
    if (la.count(rel)) {
      item.kind = ItemKind::kMissing;
      item.path_a = pa;
      item.reasons.push_back("missing in B");
    } else {
      item.kind = ItemKind::kExtra;
      item.path_b = pb;
      item.reasons.push_back("extra in B (not in A)");
    }
    report.items.push_back(std::move(item));
  }
  return report;
}

void WriteReportDir(const Report& report, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(dir + ": cannot create folder: " + ec.message());
  const std::string html = ToHtml(report, dir), json = ToJson(report);
  WriteFileBytes((fs::path(dir) / "report.html").string(), html.data(), html.size());
  WriteFileBytes((fs::path(dir) / "report.json").string(), json.data(), json.size());
}

}  // namespace xnt::diff
