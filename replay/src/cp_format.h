// Private helpers for the command processor's diagnostics text.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>
#include <string_view>

#include "xnt/replay/register_names.h"

namespace xnt::replay {

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
inline std::string Format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

inline std::string_view RegisterNameFor(uint32_t index) { return RegisterName(index); }

}  // namespace xnt::replay

namespace xnt::replay {
// WAIT_REG_MEM / COND_WRITE compare function as an operator.
inline std::string_view CompareName(uint32_t f) {
  static constexpr std::string_view kNames[8] = {"never", "<", "<=", "==", "!=", ">=", ">", "always"};
  return kNames[f & 7];
}
}  // namespace xnt::replay
