// translate --check results as text and JSON.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

#include "xnt/base/json.h"
#include "xnt/vk/translate_check.h"

namespace xnt::vk {
namespace {

std::string Num(float f) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.9g", double(f));
  return buf;
}
std::string Hex(float f) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", std::bit_cast<uint32_t>(f));
  return buf;
}
// JSON has no NaN or infinity: those are strings ("nan", "inf", "-inf").
std::string JsonNum(float f) { return std::isfinite(f) ? Num(f) : "\"" + Num(f) + "\""; }

}  // namespace

std::string TranslateCheckResult::Text() const {
  std::string s;
  const char* unit = pixel ? "pixel" : "vertex";
  if (disagreement) {
    const LaneDisagreement& d = *disagreement;
    s += "lane " + std::to_string(d.lane) + " disagrees: " + d.what + " (rule: " + d.rule + ")";
    if (!d.slots.empty()) {
      s += ", written by instruction slot";
      s += d.slots.size() > 1 ? "s" : "";
      for (size_t i = 0; i < d.slots.size(); ++i) s += (i ? ", " : " ") + std::to_string(d.slots[i]);
    }
    s += "\n";
    s += "inputs (" + std::string(unit) + " " + std::to_string(d.lane) + ", constants/texels/memory from --seed " +
         std::to_string(seed) + "):\n";
    s += d.inputs;
    if (pixel) {
      s += std::string("killed: gpu ") + (d.gpu_killed ? "yes" : "no") + ", cpu " + (d.cpu_killed ? "yes" : "no") + "\n";
    }
    for (const CheckedExport& e : d.exports) {
      s += e.name + ":\n  gpu";
      for (uint32_t c = 0; c < e.components; ++c) s += " " + Num(e.gpu[c]) + " (" + Hex(e.gpu[c]) + ")";
      s += "\n  cpu";
      for (uint32_t c = 0; c < e.components; ++c) s += " " + Num(e.cpu[c]) + " (" + Hex(e.cpu[c]) + ")";
      s += "\n  rule " + e.rule[0] + "\n";
    }
  } else {
    s += std::to_string(lanes) + " lanes agree";
  }
  if (!disagreement) {
    s += " (" + std::string(unit) + " shader on " + device + ", seed " + std::to_string(seed) + "; " +
         std::to_string(compared_exact) + " components bit for bit, " +
         std::to_string(compared_tolerance) + " within a tolerance, " +
         (compared_bounded ? std::to_string(compared_bounded) + " within a host filter's bound, " : "") +
         std::to_string(not_compared) +
         " not compared" + (pixel ? ", " + std::to_string(lanes_killed) + " lanes killed on both" : "") +
         (quads ? ", in 2x2 quads with " + std::to_string(helper_lanes) + " helper lanes" : "") +
         (memory_compared ? ", " + std::to_string(memory_compared) + " guest memory dwords bit for bit" : "") +
         ")\n";
  }
  // One line: how many were not compared and why (the rules' reasons, most frequent first).
  if (!not_compared_why.empty()) {
    std::vector<std::pair<uint64_t, std::string>> why;
    for (const auto& [reason, count] : not_compared_why) why.emplace_back(count, reason);
    std::sort(why.begin(), why.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    s += "not compared: " + std::to_string(not_compared) + " (";
    for (size_t i = 0; i < why.size(); ++i) s += (i ? "; " : "") + std::to_string(why[i].first) + " " + why[i].second;
    s += ")\n";
  }
  for (const std::string& t : textures) s += "texture " + t + "\n";
  for (const std::string& n : notes) s += "note: " + n + "\n";
  return s;
}

std::string TranslateCheckResult::WhyJson() const {
  std::string s;
  for (const auto& [reason, count] : not_compared_why) {
    s += (s.empty() ? "" : ", ") + JsonString(reason) + ": " + std::to_string(count);
  }
  return s;
}

std::string TranslateCheckResult::Json() const {
  std::string s = "{\"shader\": ";
  s += pixel ? "\"pixel\"" : "\"vertex\"";
  s += ", \"device\": " + JsonString(device) + ", \"seed\": " + std::to_string(seed) +
       ", \"lanes\": " + std::to_string(lanes) + ", \"agree\": " + (agree() ? "true" : "false") +
       ", \"compared_exact\": " + std::to_string(compared_exact) +
       ", \"compared_tolerance\": " + std::to_string(compared_tolerance) +
       ", \"compared_bounded\": " + std::to_string(compared_bounded) +
       ", \"not_compared\": " + std::to_string(not_compared) + ", \"not_compared_why\": {" + WhyJson() + "}" +
       ", \"memory_compared\": " + std::to_string(memory_compared) +
       ", \"lanes_killed\": " + std::to_string(lanes_killed) + ", \"quads\": " + (quads ? "true" : "false") +
       ", \"helper_lanes\": " + std::to_string(helper_lanes) + ", \"notes\": [";
  for (size_t i = 0; i < notes.size(); ++i) s += (i ? ", " : "") + JsonString(notes[i]);
  s += "], \"textures\": [";
  for (size_t i = 0; i < textures.size(); ++i) s += (i ? ", " : "") + JsonString(textures[i]);
  s += "]";
  if (disagreement) {
    const LaneDisagreement& d = *disagreement;
    s += ", \"disagreement\": {\"lane\": " + std::to_string(d.lane) + ", \"what\": " + JsonString(d.what) +
         ", \"rule\": " + JsonString(d.rule) + ", \"slots\": [";
    for (size_t i = 0; i < d.slots.size(); ++i) s += (i ? ", " : "") + std::to_string(d.slots[i]);
    s += "], \"inputs\": " + JsonString(d.inputs) + ", \"gpu_killed\": " + (d.gpu_killed ? "true" : "false") +
         ", \"cpu_killed\": " + (d.cpu_killed ? "true" : "false") + ", \"exports\": [";
    for (size_t i = 0; i < d.exports.size(); ++i) {
      const CheckedExport& e = d.exports[i];
      s += std::string(i ? ", " : "") + "{\"name\": " + JsonString(e.name) + ", \"rule\": " + JsonString(e.rule[0]);
      for (int side = 0; side < 2; ++side) {
        const auto& v = side ? e.cpu : e.gpu;
        s += std::string(", \"") + (side ? "cpu" : "gpu") + "\": [";
        for (uint32_t c = 0; c < e.components; ++c) s += (c ? ", " : "") + JsonNum(v[c]);
        s += std::string("], \"") + (side ? "cpu" : "gpu") + "_bits\": [";
        for (uint32_t c = 0; c < e.components; ++c) s += std::string(c ? ", " : "") + "\"" + Hex(v[c]) + "\"";
        s += "]";
      }
      s += "}";
    }
    s += "]}";
  }
  s += "}\n";
  return s;
}

}  // namespace xnt::vk
