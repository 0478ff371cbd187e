// Expected frame hashes in TOML (expectations.h).
#include "xnt/compare/expectations.h"

#include <toml++/toml.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "xnt/base/error.h"
#include "xnt/diff/png.h"

namespace xnt::compare {
namespace {

// trace -> combination -> frame -> hash
using Table = std::map<std::string, std::map<std::string, std::map<uint64_t, std::string>>>;

std::string FrameKey(uint64_t frame) {
  char b[32];
  std::snprintf(b, sizeof(b), "frame_%04" PRIu64, frame);
  return b;
}

Table Read(const std::string& file) {
  Table t;
  toml::table doc;
  try {
    doc = toml::parse_file(file);
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    throw Error(file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
                std::string(e.description()));
  }
  const toml::table* traces = doc["traces"].as_table();
  if (!traces) return t;
  for (const auto& [trace, combos] : *traces) {
    const toml::table* ct = combos.as_table();
    if (!ct) throw Error(file + ": traces.\"" + std::string(trace.str()) + "\" is not a table");
    for (const auto& [combo, frames] : *ct) {
      const toml::table* ft = frames.as_table();
      if (!ft) throw Error(file + ": " + std::string(trace.str()) + " " + std::string(combo.str()) + " is not a table");
      auto& dest = t[std::string(trace.str())][std::string(combo.str())];
      for (const auto& [key, hash] : *ft) {
        uint64_t frame = 0;
        const std::string k(key.str());
        if (std::sscanf(k.c_str(), "frame_%" SCNu64, &frame) != 1 || !hash.is_string()) {
          throw Error(file + ": " + std::string(trace.str()) + " " + std::string(combo.str()) +
                      ": '" + k + "' is not frame_NNNN = \"hash\"");
        }
        dest[frame] = hash.as_string()->get();
      }
    }
  }
  return t;
}

std::string Quoted(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

}  // namespace

std::string CheckExpectations(const std::string& file, RunResults& results) {
  const Table t = Read(file);
  int checked = 0, failed = 0;
  for (CombinationResult& c : results.results) {
    if (c.status == diff::Status::kError) continue;
    ++checked;
    std::string problems;
    auto trace = t.find(c.trace);
    const std::map<uint64_t, std::string>* expected = nullptr;
    if (trace != t.end()) {
      auto combo = trace->second.find(c.combination);
      if (combo != trace->second.end()) expected = &combo->second;
    }
    if (!expected) {
      problems = "no expectation for " + c.trace + " " + c.combination + " in " + file;
    } else {
      std::set<uint64_t> seen;
      for (FrameResult& f : c.frames) {
        seen.insert(f.frame);
        auto e = expected->find(f.frame);
        if (e == expected->end()) {
          problems += "frame " + std::to_string(f.frame) + " not expected; ";
        } else if (e->second != f.hash) {
          problems += "frame " + std::to_string(f.frame) + " hash " + f.hash + ", expected " + e->second + "; ";
        }
      }
      for (const auto& [frame, hash] : *expected) {
        if (!seen.count(frame)) problems += "expected frame " + std::to_string(frame) + " missing; ";
      }
    }
    if (!problems.empty()) {
      ++failed;
      c.status = diff::Status::kDiffer;
      FrameResult note;
      note.status = diff::Status::kDiffer;
      note.detail = "expectations: " + problems;
      note.frame = c.frames.empty() ? 0 : c.frames.front().frame;
      c.frames.push_back(note);
    }
  }
  return "expectations " + file + ": " + std::to_string(checked - failed) + " of " +
         std::to_string(checked) + " combination(s) as expected\n";
}

void UpdateExpectations(const std::string& file, const RunResults& results) {
  Table t;
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) t = Read(file);
  for (const CombinationResult& c : results.results) {
    if (c.status == diff::Status::kError) continue;
    auto& frames = t[c.trace][c.combination];
    frames.clear();
    for (const FrameResult& f : c.frames) {
      if (!f.hash.empty()) frames[f.frame] = f.hash;
    }
  }
  std::string o =
      "# xenotrace compare expectations: per trace and combination, the XXH3-64 hash of each\n"
      "# frame's RGBA8 pixels. Check with --expectations FILE, rewrite with --update-expectations.\n";
  for (const auto& [trace, combos] : t) {
    o += "\n[traces." + Quoted(trace) + "]\n";
    for (const auto& [combo, frames] : combos) {
      o += Quoted(combo) + " = {";
      bool first = true;
      for (const auto& [frame, hash] : frames) {
        o += (first ? " " : ", ") + FrameKey(frame) + " = " + Quoted(hash);
        first = false;
      }
      o += " }\n";
    }
  }
  diff::WriteFileBytes(file, o.data(), o.size());
}

}  // namespace xnt::compare
