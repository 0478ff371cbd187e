// "0x0001F000"-style formatting for guest addresses and register values in messages.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace xnt::capture {

inline std::string Hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08X", v);
  return buf;
}

}  // namespace xnt::capture
