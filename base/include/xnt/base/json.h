// JSON for every --json output (CLI, dump, EDRAM reports, diff and compare reports) and for the
// files Xenotrace reads back (compare's results.json), through nlohmann-json: one escaping and
// one number format everywhere, and a reader that names the line and column of a damaged file.
// Strings are written as UTF-8 (no \u escapes for non-ASCII text); bytes that are not UTF-8 (a
// trace or file name from a foreign file system) become U+FFFD, so the output always parses.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace xnt {

// Objects keep their members in the order written, which is the order the docs list them in.
using Json = nlohmann::ordered_json;

inline std::string DumpJson(const Json& value, int indent = -1) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

inline void AppendJsonString(std::string& out, std::string_view s) {
  out += DumpJson(Json(s));
}

// `s` as a quoted JSON string.
inline std::string JsonString(std::string_view s) { return DumpJson(Json(s)); }

}  // namespace xnt
