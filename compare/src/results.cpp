// RunResults: verdicts, order, results.json both ways, shard merging (results.h).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <set>

#include "json_value.h"
#include "xnt/base/error.h"
#include "xnt/base/json.h"
#include "xnt/compare/results.h"

namespace xnt::compare {

diff::Status RunResults::Overall() const {
  diff::Status s = diff::Status::kPass;
  for (const auto& r : results) {
    if (r.status == diff::Status::kError) return diff::Status::kError;
    if (r.status == diff::Status::kDiffer) s = diff::Status::kDiffer;
  }
  return s;
}

int RunResults::ExitCode() const {
  switch (Overall()) {
    case diff::Status::kPass: return 0;
    case diff::Status::kDiffer: return 1;
    case diff::Status::kError: return 2;
  }
  return 2;
}

void RunResults::Sort() {
  auto column = [&](const std::string& c) {
    return size_t(std::find(combinations.begin(), combinations.end(), c) - combinations.begin());
  };
  std::stable_sort(results.begin(), results.end(),
                   [&](const CombinationResult& a, const CombinationResult& b) {
                     if (a.trace != b.trace) return a.trace < b.trace;
                     return column(a.combination) < column(b.combination);
                   });
  std::sort(traces.begin(), traces.end());
  traces.erase(std::unique(traces.begin(), traces.end()), traces.end());
}

namespace {

const char* StatusWord(diff::Status s) { return diff::StatusName(s); }

diff::Status ParseStatus(const std::string& s, const std::string& name) {
  for (diff::Status st : {diff::Status::kPass, diff::Status::kDiffer, diff::Status::kError}) {
    if (s == diff::StatusName(st)) return st;
  }
  throw Error(name + ": unknown status '" + s + "'");
}

void Str(std::string& o, const char* key, const std::string& v, bool comma = true) {
  o += '"';
  o += key;
  o += "\": ";
  AppendJsonString(o, v);
  if (comma) o += ", ";
}

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

void Images(std::string& o, const std::vector<ReportImage>& images) {
  o += "\"images\": [";
  for (size_t i = 0; i < images.size(); ++i) {
    o += i ? ", {" : "{";
    Str(o, "label", images[i].label);
    Str(o, "path", images[i].path, false);
    o += "}";
  }
  o += "]";
}

std::vector<ReportImage> ReadImages(const json::Value& v) {
  std::vector<ReportImage> out;
  for (const auto& i : v.array) out.push_back({i["label"].Str(), i["path"].Str()});
  return out;
}

}  // namespace

std::string ToJson(const RunResults& r) {
  std::string o = "{\n";
  o += "  \"tool\": \"xenotrace compare\", \"version\": 1,\n  ";
  Str(o, "reference", r.reference);
  Str(o, "shard", r.shard);
  Str(o, "verdict", StatusWord(r.Overall()));
  o += "\"exit_code\": " + std::to_string(r.ExitCode()) + ",\n  \"combinations\": [";
  for (size_t i = 0; i < r.combinations.size(); ++i) {
    if (i) o += ", ";
    AppendJsonString(o, r.combinations[i]);
  }
  o += "],\n  \"traces\": [";
  for (size_t i = 0; i < r.traces.size(); ++i) {
    if (i) o += ", ";
    AppendJsonString(o, r.traces[i]);
  }
  o += "],\n  \"results\": [";
  for (size_t i = 0; i < r.results.size(); ++i) {
    const CombinationResult& c = r.results[i];
    o += i ? ",\n    {" : "\n    {";
    Str(o, "trace", c.trace);
    Str(o, "combination", c.combination);
    o += std::string("\"reference\": ") + (c.reference ? "true" : "false") + ", ";
    Str(o, "status", StatusWord(c.status));
    Str(o, "error", c.error);
    Str(o, "device", c.device);
    o += "\"seconds\": " + Number(c.seconds) + ",\n     \"frames\": [";
    for (size_t f = 0; f < c.frames.size(); ++f) {
      const FrameResult& fr = c.frames[f];
      o += f ? ",\n       {" : "\n       {";
      o += "\"frame\": " + std::to_string(fr.frame) + ", ";
      Str(o, "status", StatusWord(fr.status));
      Str(o, "hash", fr.hash);
      Str(o, "reference_hash", fr.reference_hash);
      Str(o, "detail", fr.detail);
      o += "\"max_error\": " + Number(fr.max_error) + ", ";
      o += "\"pixels_differing\": " + std::to_string(fr.pixels_differing) + ", ";
      Images(o, fr.images);
      o += "}";
    }
    o += "],\n     \"bisections\": [";
    for (size_t b = 0; b < c.bisections.size(); ++b) {
      const Bisection& bi = c.bisections[b];
      o += b ? ",\n       {" : "\n       {";
      o += "\"frame\": " + std::to_string(bi.frame) + ", ";
      o += std::string("\"found\": ") + (bi.found ? "true" : "false") + ", ";
      o += "\"draw\": " + std::to_string(bi.draw) + ", ";
      Str(o, "id", bi.found ? bi.Id() : std::string());
      Str(o, "kind", bi.kind);
      Str(o, "targets", bi.targets);
      Str(o, "summary", bi.summary);
      Str(o, "error", bi.error);
      Str(o, "state", bi.state);
      Str(o, "shaders", bi.shaders);
      Images(o, bi.images);
      o += "}";
    }
    o += "]}";
  }
  o += "\n  ]\n}\n";
  return o;
}

RunResults FromJson(const std::string& text, const std::string& name) {
  json::Value doc;
  try {
    doc = json::Parse(text);
  } catch (const Error& e) {
    throw Error(name + ": " + e.what());
  }
  if (doc["tool"].Str() != "xenotrace compare") {
    throw Error(name + ": not a results.json written by xenotrace compare");
  }
  RunResults r;
  r.reference = doc["reference"].Str();
  r.shard = doc["shard"].Str();
  for (const auto& c : doc["combinations"].array) r.combinations.push_back(c.Str());
  for (const auto& t : doc["traces"].array) r.traces.push_back(t.Str());
  for (const auto& v : doc["results"].array) {
    CombinationResult c;
    c.trace = v["trace"].Str();
    c.combination = v["combination"].Str();
    c.reference = v["reference"].Bool();
    c.status = ParseStatus(v["status"].Str(), name);
    c.error = v["error"].Str();
    c.device = v["device"].Str();
    c.seconds = v["seconds"].Num();
    for (const auto& f : v["frames"].array) {
      FrameResult fr;
      fr.frame = uint64_t(f["frame"].Num());
      fr.status = ParseStatus(f["status"].Str(), name);
      fr.hash = f["hash"].Str();
      fr.reference_hash = f["reference_hash"].Str();
      fr.detail = f["detail"].Str();
      fr.max_error = f["max_error"].Num();
      fr.pixels_differing = uint64_t(f["pixels_differing"].Num());
      fr.images = ReadImages(f["images"]);
      c.frames.push_back(std::move(fr));
    }
    for (const auto& b : v["bisections"].array) {
      Bisection bi;
      bi.frame = uint64_t(b["frame"].Num());
      bi.found = b["found"].Bool();
      bi.draw = uint32_t(b["draw"].Num());
      bi.kind = b["kind"].Str();
      bi.targets = b["targets"].Str();
      bi.summary = b["summary"].Str();
      bi.error = b["error"].Str();
      bi.state = b["state"].Str();
      bi.shaders = b["shaders"].Str();
      bi.images = ReadImages(b["images"]);
      c.bisections.push_back(std::move(bi));
    }
    r.results.push_back(std::move(c));
  }
  return r;
}

RunResults Merge(const std::vector<RunResults>& shards) {
  if (shards.empty()) throw Error("compare-merge: no shard results");
  RunResults out;
  out.reference = shards[0].reference;
  out.combinations = shards[0].combinations;
  std::set<std::string> seen;
  for (const RunResults& s : shards) {
    if (s.reference != out.reference || s.combinations != out.combinations) {
      throw Error("compare-merge: shard " + s.shard +
                  " ran other combinations or another reference than the first shard");
    }
    std::set<std::string> mine(s.traces.begin(), s.traces.end());
    for (const std::string& t : mine) {
      if (seen.count(t)) throw Error("compare-merge: trace " + t + " is in two shards");
    }
    seen.insert(mine.begin(), mine.end());
    out.traces.insert(out.traces.end(), s.traces.begin(), s.traces.end());
    out.results.insert(out.results.end(), s.results.begin(), s.results.end());
  }
  out.Sort();
  return out;
}

namespace {

void Xml(std::string& o, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default:
        // XML 1.0 forbids most control characters even escaped.
        if (uint8_t(c) < 0x20 && c != '\n' && c != '\t') o += ' ';
        else o += c;
    }
  }
}

}  // namespace

static std::string FailureText(const CombinationResult& c) {
  std::string t;
  for (const FrameResult& f : c.frames) {
    if (f.status == diff::Status::kPass) continue;
    t += "frame " + std::to_string(f.frame) + ": " + f.detail + "\n";
  }
  for (const Bisection& b : c.bisections) t += "bisection: " + b.summary + "\n";
  return t;
}

std::string ToJunit(const RunResults& r) {
  int failures = 0, errors = 0;
  for (const auto& c : r.results) {
    failures += c.status == diff::Status::kDiffer;
    errors += c.status == diff::Status::kError;
  }
  const std::string counts = " tests=\"" + std::to_string(r.results.size()) + "\" failures=\"" +
                             std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
                             "\"";
  std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<testsuites name=\"xenotrace compare\"" + counts + ">\n";
  o += "  <testsuite name=\"xenotrace.compare\"" + counts + ">\n";
  for (const auto& c : r.results) {
    o += "    <testcase classname=\"xenotrace.compare.";
    Xml(o, c.trace);
    o += "\" name=\"";
    Xml(o, c.combination + (c.reference ? " (reference)" : " vs " + r.reference));
    o += "\"";
    if (c.status == diff::Status::kPass) {
      o += "/>\n";
      continue;
    }
    o += ">\n";
    const bool error = c.status == diff::Status::kError;
    const std::string body = error ? c.error : FailureText(c);
    std::string message = error ? c.error : "frames differ";
    for (const Bisection& b : c.bisections) {
      if (b.found) {
        message += "; first differing draw " + b.Id();
        break;
      }
    }
    o += error ? "      <error message=\"" : "      <failure message=\"";
    Xml(o, message);
    o += "\">";
    Xml(o, body);
    o += error ? "</error>\n" : "</failure>\n";
    o += "    </testcase>\n";
  }
  o += "  </testsuite>\n</testsuites>\n";
  return o;
}

std::string ToText(const RunResults& r) {
  std::string o;
  for (const auto& c : r.results) {
    char head[256];
    std::snprintf(head, sizeof(head), "%-6s %s %s%s", StatusWord(c.status), c.trace.c_str(),
                  c.combination.c_str(), c.reference ? " (reference)" : "");
    o += head;
    if (c.status == diff::Status::kError) o += ": " + c.error;
    o += "\n";
    if (c.status == diff::Status::kDiffer) {
      for (const FrameResult& f : c.frames) {
        if (f.status != diff::Status::kPass) {
          o += "       frame " + std::to_string(f.frame) + ": " + f.detail + "\n";
        }
      }
      for (const Bisection& b : c.bisections) o += "       bisection: " + b.summary + "\n";
    }
  }
  int pass = 0, differ = 0, error = 0;
  for (const auto& c : r.results) {
    pass += c.status == diff::Status::kPass;
    differ += c.status == diff::Status::kDiffer;
    error += c.status == diff::Status::kError;
  }
  o += std::to_string(r.traces.size()) + " trace(s), " + std::to_string(r.combinations.size()) +
       " combination(s) against " + r.reference + ": " + std::to_string(pass) + " pass, " +
       std::to_string(differ) + " differ, " + std::to_string(error) + " error -> " +
       StatusWord(r.Overall()) + "\n";
  return o;
}

}  // namespace xnt::compare
