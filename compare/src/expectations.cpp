// Expected frame hashes in TOML (expectations.h).
#include "xnt/compare/expectations.h"

#include <toml++/toml.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "xnt/base/error.h"
#include "xnt/diff/png.h"
#include "xnt/renderer/session.h"

namespace xnt::compare {
namespace {

using Frames = std::map<uint64_t, std::string>;
using Combos = std::map<std::string, Frames>;  // combination -> frames
// Per trace: the device-independent entries and, per device, the entries that override them.
struct TraceEntries {
  Combos any;
  std::map<std::string, Combos> devices;
};
using Table = std::map<std::string, TraceEntries>;

// The sub-table of a trace that holds device-specific entries ("devices" cannot be a
// combination name: those are PATH@SxT).
constexpr const char* kDevicesKey = "devices";

std::string FrameKey(uint64_t frame) {
  char b[32];
  std::snprintf(b, sizeof(b), "frame_%04" PRIu64, frame);
  return b;
}

void ReadCombos(const std::string& file, const std::string& where, const toml::table& table,
                Combos& out, std::map<std::string, Combos>* devices) {
  for (const auto& [combo, frames] : table) {
    const std::string name(combo.str());
    const toml::table* ft = frames.as_table();
    if (!ft) throw Error(file + ": " + where + " " + name + " is not a table");
    if (devices && name == kDevicesKey) {
      for (const auto& [device, combos] : *ft) {
        const toml::table* dt = combos.as_table();
        if (!dt) {
          throw Error(file + ": " + where + " devices.\"" + std::string(device.str()) +
                      "\" is not a table");
        }
        ReadCombos(file, where + " device \"" + std::string(device.str()) + "\"", *dt,
                   (*devices)[std::string(device.str())], nullptr);
      }
      continue;
    }
    Frames& dest = out[name];
    for (const auto& [key, hash] : *ft) {
      uint64_t frame = 0;
      const std::string k(key.str());
      if (std::sscanf(k.c_str(), "frame_%" SCNu64, &frame) != 1 || !hash.is_string()) {
        throw Error(file + ": " + where + " " + name + ": '" + k +
                    "' is not frame_NNNN = \"hash\"");
      }
      dest[frame] = hash.as_string()->get();
    }
  }
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
    TraceEntries& entries = t[std::string(trace.str())];
    ReadCombos(file, std::string(trace.str()), *ct, entries.any, &entries.devices);
  }
  return t;
}

// The frames a result is checked against: its device's entry, else the device-independent one.
const Frames* Expected(const Table& t, const CombinationResult& c, std::string* source) {
  auto trace = t.find(c.trace);
  if (trace == t.end()) return nullptr;
  const std::string device = ExpectationDevice(c);
  auto dev = trace->second.devices.find(device);
  if (dev != trace->second.devices.end()) {
    auto combo = dev->second.find(c.combination);
    if (combo != dev->second.end()) {
      *source = "device \"" + device + "\"";
      return &combo->second;
    }
  }
  auto combo = trace->second.any.find(c.combination);
  if (combo == trace->second.any.end()) return nullptr;
  *source = "device-independent";
  return &combo->second;
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
    std::string source;
    const Frames* expected = Expected(t, c, &source);
    if (!expected) {
      problems = "no expectation for " + c.trace + " " + c.combination + " (device \"" +
                 ExpectationDevice(c) + "\" or device-independent) in " + file;
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
    if (!problems.empty() && expected) problems += "(" + source + " entry)";
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
    Frames frames;
    for (const FrameResult& f : c.frames) {
      if (!f.hash.empty()) frames[f.frame] = f.hash;
    }
    // The first device to record a combination makes the device-independent entry; a device
    // that renders it otherwise gets an entry of its own (and loses it again once it agrees).
    TraceEntries& entries = t[c.trace];
    const std::string device = ExpectationDevice(c);
    auto any = entries.any.find(c.combination);
    if (any == entries.any.end() || any->second == frames) {
      entries.any[c.combination] = frames;
      auto dev = entries.devices.find(device);
      if (dev != entries.devices.end()) {
        dev->second.erase(c.combination);
        if (dev->second.empty()) entries.devices.erase(dev);
      }
    } else {
      entries.devices[device][c.combination] = frames;
    }
  }
  auto combos_text = [](const Combos& combos) {
    std::string o;
    for (const auto& [combo, frames] : combos) {
      o += Quoted(combo) + " = {";
      bool first = true;
      for (const auto& [frame, hash] : frames) {
        o += (first ? " " : ", ") + FrameKey(frame) + " = " + Quoted(hash);
        first = false;
      }
      o += " }\n";
    }
    return o;
  };
  std::string o =
      "# xenotrace compare expectations: per trace and combination, the XXH3-64 hash of each\n"
      "# frame's RGBA8 pixels; the entries of a trace's \"devices\" sub-table override the\n"
      "# device-independent ones for that device. Check with --expectations FILE, rewrite with\n"
      "# --update-expectations.\n";
  for (const auto& [trace, entries] : t) {
    o += "\n[traces." + Quoted(trace) + "]\n" + combos_text(entries.any);
    for (const auto& [device, combos] : entries.devices) {
      o += "\n[traces." + Quoted(trace) + "." + kDevicesKey + "." + Quoted(device) + "]\n" +
           combos_text(combos);
    }
  }
  diff::WriteFileBytes(file, o.data(), o.size());
}

std::string ExpectationDevice(const CombinationResult& c) {
  // A path that runs on no device (cpu) makes images that do not depend on the machine or its
  // thread count (its device name carries the thread count): one key for all, the path's name.
  const std::string path = c.combination.substr(0, c.combination.find('@'));
  const std::optional<renderer::Path> p = renderer::ParsePath(path);
  if (p && !renderer::Info(*p).needs_device) return path;
  return c.device.empty() ? "unknown device" : c.device;
}

}  // namespace xnt::compare
