// JSON helpers shared by the CLI's --json outputs and the renderer's reports.
#pragma once

#include <cstdio>
#include <string>

namespace xnt {

// `s` as a quoted JSON string (quotes, backslashes and control characters escaped).
inline std::string JsonString(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      o += buf;
    } else {
      o += char(c);
    }
  }
  return o + "\"";
}

}  // namespace xnt
