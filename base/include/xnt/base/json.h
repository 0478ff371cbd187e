// JSON string escaping shared by every --json output (CLI, dump, EDRAM reports, diff reports).
// Quotes, backslashes and control characters are escaped (\n \r \t by name, the rest as \u00XX);
// bytes >= 0x80 pass through, so UTF-8 stays UTF-8.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace xnt {

inline void AppendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  out += '"';
}

// `s` as a quoted JSON string.
inline std::string JsonString(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  AppendJsonString(out, s);
  return out;
}

}  // namespace xnt
