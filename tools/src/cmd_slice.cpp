// `xenotrace slice IN -o OUT --frames A-B`: frames A..B of a trace as a trace of their own that
// starts from the state at the cut (compare/slice.h), so one frame of a long capture can be
// shared and replayed alone.
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "command.h"
#include "trace_status.h"
#include "xnt/base/json.h"
#include "xnt/compare/slice.h"
#include "xnt/format/reader.h"

namespace xnt::cli {
namespace {

// "A-B" or "A" (frames, inclusive); nullopt when malformed.
std::optional<compare::SliceRange> ParseFrames(const std::string& text) {
  compare::SliceRange r;
  const size_t dash = text.find('-');
  auto number = [](const std::string& s, uint64_t& v) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18) {
      return false;
    }
    v = std::stoull(s);
    return true;
  };
  if (dash == std::string::npos) {
    if (!number(text, r.first_frame)) return std::nullopt;
    r.last_frame = r.first_frame;
    return r;
  }
  if (!number(text.substr(0, dash), r.first_frame) ||
      !number(text.substr(dash + 1), r.last_frame)) {
    return std::nullopt;
  }
  return r;
}

int RunSlice(const std::string& in, const std::string& out, const std::string& frames, bool json) {
  const auto range = ParseFrames(frames);
  if (!range) return Fail("slice: --frames " + frames + ": expected A-B or A (frame numbers)");
  {
    // A damaged source would give a slice of an unknown state: refused, nothing written.
    auto reader = format::Reader::Open(in);
    if (reader->recovered()) {
      std::fprintf(stderr, "xenotrace: error: slice: %s is damaged (%s); no slice written\n",
                   in.c_str(), reader->recovery_note().c_str());
      return kExitNo;
    }
  }
  const compare::SliceReport r = compare::WriteSlice(in, out, *range);
  if (json) {
    std::printf("{\"source\": %s, \"source_xxh3\": \"%016" PRIx64 "\", \"first_frame\": %" PRIu64
                ", \"last_frame\": %" PRIu64 ", \"frames\": %" PRIu64 ", \"source_frames\": %" PRIu64
                ", \"state_pages\": %" PRIu64 ", \"kept_records\": %" PRIu64
                ", \"source_bytes\": %" PRIu64 ", \"slice_bytes\": %" PRIu64 ", \"output\": %s}\n",
                JsonString(in).c_str(), r.source_hash, range->first_frame, range->last_frame,
                r.frames, r.source_frames, r.state_pages, r.kept_records, r.source_bytes,
                r.slice_bytes, JsonString(out).c_str());
  } else {
    std::printf("%s frames %" PRIu64 "-%" PRIu64 " -> %s: %" PRIu64 " frame(s), %" PRIu64
                " bytes (source %" PRIu64 " bytes, %" PRIu64 " frames); state at the cut: %" PRIu64
                " memory pages, registers, EDRAM\n",
                in.c_str(), range->first_frame, range->last_frame, out.c_str(), r.frames,
                r.slice_bytes, r.source_bytes, r.source_frames, r.state_pages);
  }
  return kExitOk;
}

XNT_COMMAND("slice", "Cut frames A-B of a trace into a trace that starts from the state there", 62,
            [](CLI::App& sub) {
              auto in = std::make_shared<std::string>();
              auto out = std::make_shared<std::string>();
              auto frames = std::make_shared<std::string>();
              auto json = std::make_shared<bool>(false);
              sub.add_option("IN", *in, "Trace (.xnt)")->required()->check(InputFile());
              sub.add_option("-o,--out,--output", *out, "Slice to write (.xnt)")->required();
              sub.add_option("--frames", *frames, "Frames to keep, A-B or A (numbered from 0)")
                  ->required();
              sub.add_flag("--json", *json, "Print the slice report as one JSON object");
              sub.footer(
                  "The slice starts with the state at frame A (guest memory pages written so far, "
                  "every register, the gamma ramp, the EDRAM computed on the cpu path, the active "
                  "shaders), then frames A-B, numbered from 0; `info` names the source (XXH3-64) "
                  "and the range. Written to OUT.partial and renamed at the end.\nExit codes: 0 "
                  "written, 1 damaged source (nothing written), 2 usage, a range outside the "
                  "trace or inverted, unreadable input.");
              return [=] { return RunSlice(*in, *out, *frames, *json); };
            });

}  // namespace
}  // namespace xnt::cli
