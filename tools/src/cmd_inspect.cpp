// `xenotrace inspect TRACE -o DIR [--frames A-B] [--path P] [--scale SxT] [--events F.K-F.M]`:
// replays a trace and writes the offline frame inspector (inspect/, docs/inspect.md): a static
// site that opens from file:// with every event's state, packets, shaders, fetches, textures and
// targets.
#include <cinttypes>
#include <cstdio>
#include <string>

#include "command.h"
#include "trace_status.h"
#include "xnt/base/json.h"
#include "xnt/base/resolution_scale.h"
#include "xnt/format/reader.h"
#include "xnt/inspect/pixel_history.h"
#include "xnt/inspect/site.h"

namespace xnt::cli {
namespace {

struct InspectArgs {
  std::string trace, out, frames, events, scale = "1x1", fsi_ordering = "interlock";
  std::string scaled_lod = "guest";
  std::string path = renderer::PathNames().front();
  uint64_t image_budget_mib = 16;
  // The same default as `pixel-history -o`, so both commands write the same tiles.
  uint64_t history_budget_mib = inspect::HistoryChunkOptions{}.byte_budget >> 20;
  uint32_t fetch_rows = 8;
  int device = -1;
  bool validate = false, json = false, allow_damaged = false;
};

void PrintSummary(const InspectArgs& args, const inspect::SiteSummary& s) {
  if (args.json) {
    Json j;
    j["site"] = args.out + "/index.html";
    j["path"] = s.path;
    j["scale"] = args.scale;
    j["frames"] = s.frames;
    j["events"] = s.events;
    j["draws"] = s.draws;
    j["resolves"] = s.resolves;
    j["swaps"] = s.swaps;
    j["shaders"] = s.shaders;
    j["events_with_images"] = s.events_with_images;
    j["events_over_budget"] = s.events_over_budget;
    j["images"] = s.images;
    j["image_bytes"] = s.image_bytes;
    j["image_budget_bytes"] = args.image_budget_mib << 20;
    j["history_budget_bytes"] = args.history_budget_mib << 20;
    j["history_tiles"] = s.history_tiles;
    j["history_bytes"] = s.history_bytes;
    j["history_tile_rows_skipped"] = s.history_tile_rows_skipped;
    j["history_seconds"] = s.history_seconds;
    j["files"] = s.files;
    j["bytes"] = s.bytes;
    j["seconds"] = s.seconds;
    j["notes"] = s.notes;
    j["validation_messages"] = s.validation_messages;
    j["recovered"] = s.recovered;
    std::printf("%s\n", DumpJson(j, 2).c_str());
    return;
  }
  std::printf("%s: %" PRIu64 " events (%" PRIu64 " draws, %" PRIu64 " resolves, %" PRIu64
              " swaps) in %" PRIu64 " frame(s), %" PRIu64 " shaders; %" PRIu64 " images (%.1f MiB) for %" PRIu64
              " events; %" PRIu64 " files, %.1f MiB in %.2f s\n",
              (args.out + "/index.html").c_str(), s.events, s.draws, s.resolves, s.swaps, s.frames,
              s.shaders, s.images, double(s.image_bytes) / 1048576.0, s.events_with_images,
              s.files, double(s.bytes) / 1048576.0, s.seconds);
  if (s.events_over_budget) {
    std::printf("%" PRIu64 " events have no images (over the %" PRIu64
                " MiB budget): write them with --events F.K-F.M\n",
                s.events_over_budget, args.image_budget_mib);
  }
  if (args.history_budget_mib) {
    std::printf("pixel history (cpu path): %" PRIu64 " tiles, %.1f MiB in %.2f s\n", s.history_tiles,
                double(s.history_bytes) / 1048576.0, s.history_seconds);
  }
  if (s.history_tile_rows_skipped) {
    std::printf("%" PRIu64 " tile row(s) of pixel history left out (over the %" PRIu64
                " MiB budget): the page names the pixel-history command that gives them\n",
                s.history_tile_rows_skipped, args.history_budget_mib);
  }
  for (const std::string& n : s.notes) std::printf("note: %s\n", n.c_str());
}

int RunInspect(const InspectArgs& args) {
  if (args.fsi_ordering != "interlock" && args.path != "fsi") {
    return Fail("inspect: --fsi-ordering applies to --path fsi only");
  }
  inspect::SiteOptions o;
  o.trace = args.trace;
  o.out_dir = args.out;
  if (!args.frames.empty()) o.frames = FrameSet::Parse(args.frames);
  if (!args.events.empty()) o.image_events = inspect::ParseEventRanges(args.events);
  o.session.path = *renderer::ParsePath(args.path);
  o.session.device_index = args.device;
  o.session.validate = args.validate;
  o.session.fsi_unordered = args.fsi_ordering == "unordered";
  const ResolutionScale scale = ParseResolutionScale(args.scale);
  o.session.renderer.scale_x = scale.x;
  o.session.renderer.scale_y = scale.y;
  o.session.renderer.derivatives = ParseScaledLod(args.scaled_lod);
  o.image_budget_bytes = args.image_budget_mib << 20;
  o.history_budget_bytes = args.history_budget_mib << 20;
  o.fetch_rows = args.fetch_rows;
  const bool progress = StderrIsTerminal() && !args.json;
  if (progress) {
    o.progress = [](uint64_t events) { std::fprintf(stderr, "\rinspect: %" PRIu64 " events", events); };
    o.history_progress = [](uint64_t frame, uint64_t tiles) {
      std::fprintf(stderr, "\rinspect: pixel history of frame %" PRIu64 ": %" PRIu64 " tiles", frame, tiles);
    };
  }
  const inspect::SiteSummary s = inspect::WriteSite(o);
  if (progress) std::fprintf(stderr, "\n");
  if (s.recovered) {
    std::fprintf(stderr, "xenotrace: warning: inspect: %s is damaged; the site holds what was recovered\n",
                 args.trace.c_str());
  }
  if (!args.events.empty() && s.events_with_images + s.events_over_budget == 0) {
    // Nothing the user asked images of exists: an input error, not a site with images.
    return Fail("inspect: --events " + args.events +
                " selects no event of the written frames (the site lists them without images)");
  }
  PrintSummary(args, s);
  if (s.validation_messages) return kExitNo;
  if (s.events == 0) {
    std::fprintf(stderr, "xenotrace: error: inspect: the selected frames hold no draw, resolve or swap\n");
    return kExitNo;
  }
  return s.recovered && !args.allow_damaged ? kExitNo : kExitOk;
}

XNT_COMMAND({"inspect", "Replay a trace and write the offline frame inspector (a static site)", 37,
             [](CLI::App& sub) {
               auto args = std::make_shared<InspectArgs>();
               sub.add_option("TRACE", args->trace, "Trace (.xnt)")->required()->check(InputFile());
               sub.add_option("-o,--out", args->out, "Folder of the site (index.html opens from file://)")
                   ->required();
               sub.add_option("--frames", args->frames,
                              "Only these frames' events: A-B, A, A- or a list (earlier frames still replay)");
               sub.add_option("--path", args->path,
                              "Render path: " + renderer::JoinPathNames(nullptr, ", ") + " (default " + args->path + ")")
                   ->check(CLI::IsMember(renderer::PathNames()));
               sub.add_option("--scale", args->scale, "Resolution scale SxT (1..3 per axis, default 1x1)");
               AddScaledLodOption(sub, args->scaled_lod);
               sub.add_option("--fsi-ordering", args->fsi_ordering,
                              "fsi path: interlock (default) or unordered (TEST MODE for lavapipe)")
                   ->check(CLI::IsMember({"interlock", "unordered"}));
               sub.add_option("--events", args->events,
                              "Write target and texture images only for these events: F.K-F.M or a "
                              "list (default: every event, within the image budget)");
               sub.add_option("--image-budget", args->image_budget_mib,
                              "MiB of PNGs and target bits the site may hold (default 16); later events are listed "
                              "without images and the page names the --events command that writes them");
               sub.add_option("--history-budget", args->history_budget_mib,
                              "MiB of pixel history chunks (history/, replayed on the cpu path whatever --path is; "
                              "default " + std::to_string(args->history_budget_mib) + ", 0: none); tile rows past it name the pixel-history command that gives them")
                   ->check(CLI::Range(uint64_t(0), uint64_t(1) << 20));
               sub.add_option("--fetch-rows", args->fetch_rows,
                              "Vertices and indices decoded per draw (default 8)")
                   ->check(CLI::Range(1u, 4096u));
               sub.add_option("--device", args->device, "Vulkan device index (default: first discrete GPU, else first device)");
               sub.add_flag("--validate", args->validate,
                            "Enable VK_LAYER_KHRONOS_validation; any message makes the exit code 1");
               sub.add_flag("--json", args->json,
                            "Print the summary (events, images, bytes, seconds) as JSON");
               AddAllowDamaged(sub, args->allow_damaged);
               sub.footer("Events are named F.K as `xenotrace dump` numbers them; open DIR/index.html#F.K.\n"
                          "Exit codes: 0 site written; 1 no event in the selected frames, validation "
                          "messages, or a damaged trace (without --allow-damaged); 2 usage or input error.");
               return [args]() -> int { return RunInspect(*args); };
             }});

}  // namespace
}  // namespace xnt::cli
