// What every trace-reading command says about a damaged (recovered) trace and about an empty
// result: one warning on stderr, a "recovered" member in --json, and exit code 1
// ("ran, but on a damaged trace" / "produced nothing asked for") unless --allow-damaged.
#pragma once

#include <cinttypes>
#include <cstdio>
#include <string>

#include "command.h"
#include "xnt/base/json.h"
#include "xnt/format/reader.h"

namespace xnt::cli {

// `--allow-damaged` on a command that reads a trace.
inline void AddAllowDamaged(CLI::App& sub, bool& flag) {
  sub.add_flag("--allow-damaged", flag,
               "A trace whose end was lost (no footer; replayed from its recovered chunks) is not "
               "an exit-code-1 result");
}

// Warns once on stderr when `reader` holds a recovered prefix of a damaged trace.
inline void WarnIfRecovered(const char* command, const std::string& path,
                            const format::Reader& reader) {
  if (!reader.recovered()) return;
  std::fprintf(stderr,
               "xenotrace: warning: %s: %s is damaged; using the %" PRIu64
               " frame(s) recovered from it: %s\n",
               command, path.c_str(), reader.totals().frames, reader.recovery_note().c_str());
}

// The --json value: null, or {"note": ..., "frames": N} for a recovered trace.
inline std::string RecoveredJson(const format::Reader& reader) {
  if (!reader.recovered()) return "null";
  return "{\"note\": " + JsonString(reader.recovery_note()) +
         ", \"frames\": " + std::to_string(reader.totals().frames) + "}";
}

// kExitNo for a recovered trace without --allow-damaged, else `code`.
inline int DamagedExit(const format::Reader& reader, bool allow_damaged, int code = kExitOk) {
  if (code != kExitOk) return code;
  return reader.recovered() && !allow_damaged ? kExitNo : kExitOk;
}

// "xenotrace: error: MSG" on stderr (the one style of every error); returns kExitError.
inline int Fail(const std::string& message) {
  std::fprintf(stderr, "xenotrace: error: %s\n", message.c_str());
  return kExitError;
}

}  // namespace xnt::cli
