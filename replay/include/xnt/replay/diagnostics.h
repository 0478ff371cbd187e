// Problems the command processor finds in a trace: where (trace offset + guest address), how bad,
// and what. Decoding continues after warnings; errors stop the buffer they occur in (the caller's
// buffer carries on).
#pragma once

#include <cstdint>
#include <string>

namespace xnt::replay {

enum class Severity : uint8_t { kInfo = 0, kWarning = 1, kError = 2 };

const char* SeverityName(Severity s);

// Where a packet sits in the trace: the record (a Submission) of the trace stream, the packet's
// dword index inside it and, inside indirect buffers, the nesting depth and the dword index in the
// innermost indirect buffer.
struct TraceOffset {
  uint64_t record = 0;
  uint32_t dword = 0;
  uint32_t ib_depth = 0;
  uint32_t ib_dword = 0;

  // "@12+28" at top level, "@12+28/ib1+4" inside an indirect buffer.
  std::string ToString() const;
  friend bool operator==(const TraceOffset&, const TraceOffset&) = default;
};

struct Diagnostic {
  Severity severity = Severity::kWarning;
  TraceOffset offset;
  uint32_t guest_address = 0;  // the packet's address, or the bad address it referenced
  std::string message;

  // "warning @12+28 (guest 0x00100070): message"
  std::string ToString() const;
};

}  // namespace xnt::replay
