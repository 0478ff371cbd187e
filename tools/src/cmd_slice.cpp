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

// "F.K" into frame and event; false when malformed.
bool ParseEvent(const std::string& text, uint64_t& frame, std::optional<uint32_t>& event) {
  const size_t dot = text.find('.');
  if (dot == std::string::npos) return false;
  auto number = [](const std::string& s, uint64_t& v, size_t digits) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > digits) {
      return false;
    }
    v = std::stoull(s);
    return true;
  };
  uint64_t k = 0;
  if (!number(text.substr(0, dot), frame, 18) || !number(text.substr(dot + 1), k, 9)) return false;
  event = uint32_t(k);
  return true;
}

// "F.K-G.M" or "F.K" (events, inclusive); nullopt when malformed.
std::optional<compare::SliceRange> ParseEvents(const std::string& text) {
  compare::SliceRange r;
  const size_t dash = text.find('-');
  const std::string first = text.substr(0, dash);
  const std::string last = dash == std::string::npos ? first : text.substr(dash + 1);
  if (!ParseEvent(first, r.first_frame, r.first_event) ||
      !ParseEvent(last, r.last_frame, r.last_event)) {
    return std::nullopt;
  }
  return r;
}

int RunSlice(const std::string& in, const std::string& out, const std::string& frames,
             const std::string& events, bool all_pages, bool json) {
  if (frames.empty() == events.empty()) return Fail("slice: give one of --frames and --events");
  const auto range = frames.empty() ? ParseEvents(events) : ParseFrames(frames);
  if (!range) {
    return Fail(frames.empty()
                    ? "slice: --events " + events + ": expected F.K-G.M or F.K (frame.event)"
                    : "slice: --frames " + frames + ": expected A-B or A (frame numbers)");
  }
  {
    // A damaged source would give a slice of an unknown state: refused, nothing written.
    auto reader = format::Reader::Open(in);
    if (reader->recovered()) {
      std::fprintf(stderr, "xenotrace: error: slice: %s is damaged (%s); no slice written\n",
                   in.c_str(), reader->recovery_note().c_str());
      return kExitNo;
    }
  }
  const compare::SliceReport r = compare::WriteSlice(in, out, *range, all_pages);
  const std::string what = frames.empty() ? "events " + events : "frames " + frames;
  if (json) {
    char hash[17];
    std::snprintf(hash, sizeof(hash), "%016" PRIx64, r.source_hash);
    Json j = {{"source", in},
              {"source_xxh3", hash},
              {"first_frame", range->first_frame},
              {"last_frame", range->last_frame},
              {"frames", r.frames},
              {"source_frames", r.source_frames},
              {"state_pages", r.state_pages},
              {"written_pages", r.written_pages},
              {"kept_records", r.kept_records},
              {"source_bytes", r.source_bytes},
              {"slice_bytes", r.slice_bytes},
              {"output", out}};
    if (range->first_event) {
      j["first_event"] = *range->first_event;
      j["last_event"] = *range->last_event;
      j["events"] = r.events;
    }
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%s %s -> %s: %" PRIu64 " frame(s), %" PRIu64 " bytes (source %" PRIu64
                " bytes, %" PRIu64 " frames); state at the cut: %" PRIu64 " of %" PRIu64
                " written memory pages, registers, EDRAM\n",
                in.c_str(), what.c_str(), out.c_str(), r.frames, r.slice_bytes, r.source_bytes,
                r.source_frames, r.state_pages, r.written_pages);
    if (range->first_event) {
      std::printf("kept %" PRIu64 " draws/resolves; event %" PRIu64
                  ".%u is event 0.0 of the slice\n",
                  r.events, range->first_frame, *range->first_event);
    }
  }
  return kExitOk;
}

XNT_COMMAND("slice",
            "Cut frames A-B or events F.K-G.M of a trace into a trace that starts from the state "
            "there",
            62,
            [](CLI::App& sub) {
              auto in = std::make_shared<std::string>();
              auto out = std::make_shared<std::string>();
              auto frames = std::make_shared<std::string>();
              auto events = std::make_shared<std::string>();
              auto json = std::make_shared<bool>(false);
              auto all_pages = std::make_shared<bool>(false);
              sub.add_option("IN", *in, "Trace (.xnt)")->required()->check(InputFile());
              sub.add_option("-o,--out,--output", *out, "Slice to write (.xnt)")->required();
              sub.add_option("--frames", *frames, "Frames to keep, A-B or A (numbered from 0)");
              sub.add_option("--events", *events,
                             "Events to keep, F.K-G.M or F.K (frame.draw, draws and resolves "
                             "numbered within their frame from 0, as replay and compare do)");
              sub.add_flag("--all-pages", *all_pages,
                           "Keep every guest memory page written before the cut (default: only "
                           "the pages the kept stream reads or writes)");
              sub.add_flag("--json", *json, "Print the slice report as one JSON object");
              sub.footer(
                  "The slice starts with the state at the cut (the guest memory pages the kept "
                  "stream reads or writes, of those written so far: index buffers, vertex "
                  "streams and whole texture footprints of its draws, the front buffer, what the "
                  "CP reads, what its resolves and memexports write; every register, the gamma "
                  "ramp, the EDRAM computed on the cpu path, the active shaders), then the kept "
                  "stream. --frames A-B keeps frames A-B as they are, numbered from 0. --events "
                  "F.K-G.M cuts inside a frame: the state just before event F.K, the stream from "
                  "F.K through G.M (indirect buffers inlined), then frame G's swap alone, so the "
                  "slice ends with the EDRAM right after G.M and its frame shows the front buffer "
                  "as G.M left it; F.K becomes event 0.0. `info` names the source (XXH3-64) and "
                  "the range. Written to OUT.partial and renamed at the end.\nExit codes: 0 "
                  "written, 1 damaged source (nothing written), 2 usage, a range outside the "
                  "trace, inverted or an event not in its frame, unreadable input.");
              return [=] { return RunSlice(*in, *out, *frames, *events, *all_pages, *json); };
            });

}  // namespace
}  // namespace xnt::cli
