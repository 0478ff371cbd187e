// RunResults: verdicts, order, results.json both ways, shard merging (results.h).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <set>
#include <type_traits>

#include "xnt/base/error.h"
#include "xnt/base/escape.h"
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

// One list of members per struct, in results.json's order, read by both directions: `io` is a
// JsonWriter or a JsonReader, `v` the struct (const when writing).
template <typename Io, typename V>
void Fields(Io& io, V& v) requires std::is_same_v<std::remove_const_t<V>, ReportImage> {
  io("label", v.label);
  io("path", v.path);
}
template <typename Io, typename V>
void Fields(Io& io, V& v) requires std::is_same_v<std::remove_const_t<V>, FrameResult> {
  io("frame", v.frame);
  io("status", v.status);
  io("hash", v.hash);
  io("reference_hash", v.reference_hash);
  io("detail", v.detail);
  io("max_error", v.max_error);
  io("pixels_differing", v.pixels_differing);
  io("images", v.images);
}
template <typename Io, typename V>
void Fields(Io& io, V& v) requires std::is_same_v<std::remove_const_t<V>, Bisection> {
  io("frame", v.frame);
  io("found", v.found);
  io("draw", v.draw);
  io.Derived("id", v.found ? v.Id() : std::string());  // for readers of the file; Id() rebuilds it
  io("kind", v.kind);
  io("targets", v.targets);
  io("summary", v.summary);
  io("error", v.error);
  io("state", v.state);
  io("shaders", v.shaders);
  io("images", v.images);
}
template <typename Io, typename V>
void Fields(Io& io, V& v) requires std::is_same_v<std::remove_const_t<V>, CombinationResult> {
  io("trace", v.trace);
  io("combination", v.combination);
  io("reference", v.reference);
  io("status", v.status);
  io("error", v.error);
  io("device", v.device);
  io("seconds", v.seconds);
  io("frames", v.frames);
  io("bisections", v.bisections);
}

struct JsonWriter {
  Json& json;
  template <typename T>
  void operator()(const char* key, const T& value) { json[key] = value; }
  void operator()(const char* key, diff::Status value) { json[key] = StatusWord(value); }
  template <typename T>
  void operator()(const char* key, const std::vector<T>& items) {
    Json array = Json::array();
    for (const T& item : items) {
      Json object = Json::object();
      JsonWriter inner{object};
      Fields(inner, item);
      array.push_back(std::move(object));
    }
    json[key] = std::move(array);
  }
  void Derived(const char* key, const std::string& value) { json[key] = value; }
};

struct JsonReader {
  const Json& json;
  const std::string& name;  // the file, for ParseStatus's message
  template <typename T>
  void operator()(const char* key, T& value) { json.at(key).get_to(value); }
  void operator()(const char* key, diff::Status& value) {
    value = ParseStatus(json.at(key).get<std::string>(), name);
  }
  void operator()(const char* key, std::vector<std::string>& value) { json.at(key).get_to(value); }
  template <typename T>
  void operator()(const char* key, std::vector<T>& items) {
    for (const Json& object : json.at(key)) {
      JsonReader inner{object, name};
      Fields(inner, items.emplace_back());
    }
  }
  void Derived(const char*, const std::string&) {}
};

}  // namespace

std::string ToJson(const RunResults& r) {
  Json doc = {{"tool", "xenotrace compare"},
              {"version", 1},
              {"reference", r.reference},
              {"shard", r.shard},
              {"verdict", StatusWord(r.Overall())},
              {"exit_code", r.ExitCode()},
              {"combinations", r.combinations},
              {"traces", r.traces}};
  JsonWriter{doc}("results", r.results);
  return DumpJson(doc, 2) + "\n";
}

RunResults FromJson(const std::string& text, const std::string& name) {
  try {
    const Json doc = Json::parse(text);
    if (!doc.is_object() || doc.value("tool", std::string()) != "xenotrace compare") {
      throw Error(name + ": not a results.json written by xenotrace compare");
    }
    RunResults r;
    JsonReader reader{doc, name};
    reader("reference", r.reference);
    reader("shard", r.shard);
    reader("combinations", r.combinations);
    reader("traces", r.traces);
    reader("results", r.results);
    return r;
  } catch (const Json::exception& e) {
    // parse_error names the byte; type and missing-member errors name the member.
    throw Error(name + ": " + e.what());
  }
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
    AppendXml(o, c.trace);
    o += "\" name=\"";
    AppendXml(o, c.combination + (c.reference ? " (reference)" : " vs " + r.reference));
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
    AppendXml(o, message);
    o += "\">";
    AppendXml(o, body);
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
