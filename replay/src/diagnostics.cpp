#include "xnt/replay/diagnostics.h"

#include <cstdio>

#include "xnt/base/enum_names.h"

namespace xnt::replay {

const char* SeverityName(Severity s) {
  static constexpr const char* kNames[] = {"info", "warning", "error"};
  return EnumName(s, kNames);
}

std::string TraceOffset::ToString() const {
  char buf[96];
  if (ib_depth == 0) {
    std::snprintf(buf, sizeof buf, "@%llu+%u", static_cast<unsigned long long>(record), dword);
  } else {
    std::snprintf(buf, sizeof buf, "@%llu+%u/ib%u+%u", static_cast<unsigned long long>(record),
                  dword, ib_depth, ib_dword);
  }
  return buf;
}

std::string Diagnostic::ToString() const {
  char buf[64];
  std::snprintf(buf, sizeof buf, " (guest 0x%08X): ", guest_address);
  return std::string(SeverityName(severity)) + " " + offset.ToString() + buf + message;
}

}  // namespace xnt::replay
