// `xenotrace transfers FILE [--frames A-B,C] [--json] [-o/--html OUT]`: replays a trace on a render path
// with an EDRAM cache (fbo) and prints the EDRAM render-target cache's transfer log: every ownership
// transfer with its draw F.K, source and destination (base, pitch, format, MSAA), tile
// range, bytes and reason, then totals next to what a naive store-all/load-all-on-binding-change
// cache would have moved. --html writes the EDRAM ownership map (tiles x events).
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include <map>

#include "command.h"
#include "trace_status.h"
#include "xnt/base/selection.h"
#include "xnt/base/error.h"
#include "xnt/format/reader.h"
#include "xnt/gpu/edram_report.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"

namespace xnt::cli {
namespace {

struct TransfersArgs {
  std::string file;
  std::string frame;   // --frame N
  std::string frames;  // --frames A-B,C
  bool json = false;
  std::string html;
  // The first path with a transfer log.
  std::string path = renderer::PathNames([](const renderer::PathInfo& p) { return p.transfers; }).front();
  int device = -1;
  bool validate = false;
  bool allow_damaged = false;
};

int RunTransfers(const TransfersArgs& args) {
  if (!args.frame.empty() && !args.frames.empty())
    return Fail("transfers: --frame and --frames exclude each other");
  FrameSet frames;
  if (!args.frame.empty()) frames = FrameSet::Parse(args.frame, "--frame");
  if (!args.frames.empty()) frames = FrameSet::Parse(args.frames);
  auto reader = format::Reader::Open(args.file);
  WarnIfRecovered("transfers", args.file, *reader);
  const std::string missing = frames.Missing(reader->totals().frames);
  if (!missing.empty()) {
    throw Error((args.frame.empty() ? "--frames " : "--frame ") + frames.text() + ": frame(s) " +
                missing + " not in the trace (it has " + std::to_string(reader->totals().frames) +
                " frames, numbered from 0)");
  }
  renderer::SessionOptions options;
  options.path = *renderer::ParsePath(args.path);
  options.device_index = args.device;
  options.validate = args.validate;
  gpu::EdramTracker* tracker = nullptr;
  // Naive-cache counters at the start of every frame (the model has no notion of frames).
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> naive_at;
  naive_at[0] = {0, 0};
  options.on_frame_end = [&](const replay::FrameEndCall& f) {
    naive_at[f.frame + 1] = {tracker->naive().transfers(), tracker->naive().bytes()};
  };
  // The draw address F.K of every tracker event: the events a draw or resolve starts between
  // the session's before and after calls are that draw's.
  std::vector<gpu::EdramReportOptions::DrawAddress> event_draws;
  options.on_draw_event = [&](const renderer::DrawEvent& e) {
    if (!e.after || !tracker) return;
    while (event_draws.size() < tracker->events())
      event_draws.push_back({e.draw->frame, e.draw->draw_index});
  };
  auto session = renderer::Session::Create(options);
  tracker = session->edram();
  if (!tracker) {
    throw Error(std::string("--path ") + renderer::PathName(session->path()) +
                " has no EDRAM transfer log");
  }
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Play(*reader, frames.Last());
  session->Flush();

  const gpu::EdramTracker& edram = *tracker;
  gpu::EdramReportOptions report;
  report.title = args.file + (frames.all() ? std::string(" (all frames)") : " frame(s) " + frames.text());
  report.frames = frames;
  report.event_draws = std::move(event_draws);
  // Naive-cache counters summed over the selected frames.
  auto naive_end = std::make_pair(edram.naive().transfers(), edram.naive().bytes());
  auto at = [&](uint64_t frame) {
    auto it = naive_at.find(frame);
    return it != naive_at.end() ? it->second : naive_end;
  };
  const uint64_t played = naive_at.rbegin()->first + 1;
  for (uint64_t f = 0; f < played; ++f) {
    if (!frames.Contains(f)) continue;
    report.naive_transfers += at(f + 1).first - at(f).first;
    report.naive_bytes += at(f + 1).second - at(f).second;
  }
  if (!args.html.empty()) {
    std::ofstream out(args.html, std::ios::binary);
    if (!out) throw Error("-o/--html: cannot write " + args.html);
    out << gpu::EdramReportHtml(edram, report);
    if (!out) throw Error("-o/--html: write to " + args.html + " failed");
  }
  std::string text = args.json ? gpu::EdramReportJson(edram, report) : gpu::EdramReportText(edram, report);
  if (args.json) {
    // The damaged-trace note beside the report's members.
    const auto brace = text.find('{');
    text.insert(brace + 1, "\n  \"recovered\": " + RecoveredJson(*reader) + ",");
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  const uint32_t validation = session->validation_message_count();
  for (const auto& m : session->validation_messages()) std::fprintf(stderr, "%s\n", m.c_str());
  return DamagedExit(*reader, args.allow_damaged, validation ? kExitNo : kExitOk);
}

XNT_COMMAND({"transfers",
             "Replay a trace and print the EDRAM render-target transfer log (--html: ownership map)",
             35, [](CLI::App& sub) {
               auto args = std::make_shared<TransfersArgs>();
               sub.add_option("FILE", args->file, "Trace (.xnt)")->required()->check(InputFile());
               sub.add_option("--frame", args->frame,
                              "Only this frame's transfers (from 0; earlier frames are still played)");
               sub.add_option("--frames", args->frames,
                              "Only these frames' transfers: A-B, A, A- or a list A-B,C");
               sub.add_flag("--json", args->json, "Print the log and totals as JSON");
               sub.add_option("-o,--out,--html", args->html,
                              "Write the EDRAM ownership map (tiles x draws F.K, with a table of the "
                              "transfers) as a self-contained HTML page");
               const auto transfers = [](const renderer::PathInfo& p) { return p.transfers; };
               sub.add_option("--path", args->path,
                              "Render path whose EDRAM log to show: " +
                                  renderer::JoinPathNames(transfers, " or ") + " (default " +
                                  args->path + ")")
                   ->check(CLI::IsMember(renderer::PathNames(transfers)));
               sub.add_option("--device", args->device, "Vulkan device index (default: first discrete GPU, else first device)");
               sub.add_flag("--validate", args->validate,
                            "Enable VK_LAYER_KHRONOS_validation; any message makes the exit code 1");
               AddAllowDamaged(sub, args->allow_damaged);
               sub.footer("Draws are named F.K (frame.draw as `xenotrace dump` numbers them); tile ranges "
                          "are half-open [start, end).\nExit codes: 0 ok; 1 validation messages or a "
                          "damaged trace (without --allow-damaged); 2 usage or input error, no such frame.");
               return [args]() -> int { return RunTransfers(*args); };
             }});

}  // namespace
}  // namespace xnt::cli
