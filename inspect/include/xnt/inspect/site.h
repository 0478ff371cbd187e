// `xenotrace inspect`: one trace replayed on a render path, written out as a static site that
// opens from file:// (no server, nothing fetched from the network): the events of the selected
// frames (draws, resolves, swaps) as F.K, each with its register state grouped by hardware block
// (decoded by dump's decoders, changes since the previous event marked), its PM4 packets, its
// shaders (listing, translated GLSL, the constants they read), vertex/index fetch, bound textures
// with every mip level, and the targets it wrote before/after in guest bits.
//
// Data is split so a frame of tens of thousands of draws opens at once: a small index
// (data/events.js: the site, and the first and last event id of every list chunk), the event
// list in blocks of kListEvents rows (data/list/l<N>.js), every block of kChunkEvents events'
// details (data/chunks/c<N>.js), every shader one (data/shaders/<hash>.js); the page loads them with
// <script> tags on demand (browsers refuse fetch()/XHR on file://). Images are written only for
// the events `image_events` selects and within `image_budget_bytes`; the page names the command
// that writes the others (`inspect --events F.K-F.M`).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "xnt/base/selection.h"
#include "xnt/renderer/session.h"

namespace xnt::inspect {

inline constexpr uint32_t kChunkEvents = 64;
// Rows per event list chunk: the page parses one (about 230 KB) to show a deep-linked event's
// row and its neighbours, all of them only when a filter needs every row.
inline constexpr uint32_t kListEvents = 1024;

// "F.K-F.M" (inclusive, in trace order) or "F.K".
struct EventRange {
  renderer::DrawId first, last;
  bool Contains(uint64_t frame, uint32_t draw) const;
};
// Throws xnt::Error naming `flag`.
std::vector<EventRange> ParseEventRanges(const std::string& text, const std::string& flag = "--events");

struct SiteOptions {
  std::string trace;        // the .xnt file
  std::string out_dir;
  FrameSet frames;          // events of these frames are written (earlier frames still replay)
  renderer::SessionOptions session;
  // Events whose target/texture images are written (empty: every event, within the budget).
  std::vector<EventRange> image_events;
  uint64_t image_budget_bytes = 16ull << 20;
  // Bytes of pixel history chunks (history/f<F>/, WriteHistoryChunks) for the written frames,
  // replayed on the cpu path whatever `session.path` is (the history is the exact reference's);
  // 0 writes none and the page says so.
  uint64_t history_budget_bytes = 0;
  // Progress of the history replays: tiles written so far in frame F (once per band of rows).
  std::function<void(uint64_t frame, uint64_t tiles)> history_progress;
  // Rows of vertices and indices decoded per draw.
  uint32_t fetch_rows = 8;
  bool allow_damaged = false;
  // Progress: events written so far (called about every 256 events).
  std::function<void(uint64_t events)> progress;
};

struct SiteSummary {
  uint64_t frames = 0;       // frames with events written
  uint64_t events = 0;       // draws + resolves + swaps listed
  uint64_t draws = 0, resolves = 0, swaps = 0;
  uint64_t shaders = 0;
  uint64_t events_with_images = 0;
  uint64_t images = 0;
  uint64_t image_bytes = 0;
  uint64_t events_over_budget = 0;  // selected for images, left without (budget)
  uint64_t history_tiles = 0, history_bytes = 0;
  uint64_t history_tile_rows_skipped = 0;  // tile rows left out (in part or whole) for the budget
  double history_seconds = 0;
  uint64_t files = 0;
  uint64_t bytes = 0;               // everything written but pixel history
  double seconds = 0;
  std::string path;                 // "cpu", "fbo", "fsi"
  std::vector<std::string> notes;   // the path's notes (what was not done exactly), with counts
  uint32_t validation_messages = 0;
  bool recovered = false;           // the trace had no footer (a damaged capture)
};

// Replays the trace and writes the site. Throws xnt::Error (unreadable trace, unwritable folder,
// a frame not in the trace).
SiteSummary WriteSite(const SiteOptions& options);

// The address of the page of event F.K in a site written to `site_dir` (a relative or file path:
// "DIR/index.html#F.K").
std::string EventLink(const std::string& site_dir, uint64_t frame, uint32_t draw);

}  // namespace xnt::inspect
