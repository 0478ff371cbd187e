// `xenotrace transfers FILE [--frame N] [--json] [--html OUT]`: replays a trace on a render path
// with an EDRAM cache (fbo) and prints the EDRAM render-target cache's transfer log: every ownership
// transfer with its event index, frame, source and destination (base, pitch, format, MSAA), tile
// range, bytes and reason, then totals next to what a naive store-all/load-all-on-binding-change
// cache would have moved. --html writes the EDRAM ownership map (tiles x events).
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include <map>

#include "command.h"
#include "xnt/base/error.h"
#include "xnt/format/reader.h"
#include "xnt/gpu/edram_report.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"

namespace xnt::cli {
namespace {

struct TransfersArgs {
  std::string file;
  int64_t frame = -1;
  bool json = false;
  std::string html;
  int device = -1;
  bool validate = false;
};

int RunTransfers(const TransfersArgs& args) {
  auto reader = format::Reader::Open(args.file);
  std::optional<uint64_t> frame;
  if (args.frame >= 0) {
    frame = uint64_t(args.frame);
    if (*frame >= reader->totals().frames) {
      throw Error("--frame " + std::to_string(*frame) + ": the trace has " +
                  std::to_string(reader->totals().frames) + " frames");
    }
  }
  renderer::SessionOptions options;
  options.path = renderer::Path::kFbo;
  options.device_index = args.device;
  options.validate = args.validate;
  gpu::EdramTracker* tracker = nullptr;
  // Naive-cache counters at the start of every frame (the model has no notion of frames).
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> naive_at;
  naive_at[0] = {0, 0};
  options.on_frame_end = [&](const replay::FrameEndCall& f) {
    naive_at[f.frame + 1] = {tracker->naive().transfers(), tracker->naive().bytes()};
  };
  auto session = renderer::Session::Create(options);
  tracker = session->edram();
  if (!tracker) {
    throw Error(std::string("--path ") + renderer::PathName(session->path()) +
                " has no EDRAM transfer log");
  }
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Play(*reader, frame);
  session->Flush();

  const gpu::EdramTracker& edram = *tracker;
  gpu::EdramReportOptions report;
  report.title = args.file + (frame ? " frame " + std::to_string(*frame) : std::string(" (all frames)"));
  report.frame = frame;
  auto naive_end = std::make_pair(edram.naive().transfers(), edram.naive().bytes());
  if (frame) {
    auto begin = naive_at.count(*frame) ? naive_at[*frame] : std::make_pair(uint64_t(0), uint64_t(0));
    auto end = naive_at.count(*frame + 1) ? naive_at[*frame + 1] : naive_end;
    report.naive_transfers = end.first - begin.first;
    report.naive_bytes = end.second - begin.second;
  } else {
    report.naive_transfers = naive_end.first;
    report.naive_bytes = naive_end.second;
  }
  if (!args.html.empty()) {
    std::ofstream out(args.html, std::ios::binary);
    if (!out) throw Error("--html: cannot write " + args.html);
    out << gpu::EdramReportHtml(edram, report);
    if (!out) throw Error("--html: write to " + args.html + " failed");
  }
  std::string text = args.json ? gpu::EdramReportJson(edram, report) : gpu::EdramReportText(edram, report);
  std::fwrite(text.data(), 1, text.size(), stdout);
  const uint32_t validation = session->validation_message_count();
  for (const auto& m : session->validation_messages()) std::fprintf(stderr, "%s\n", m.c_str());
  return validation ? kExitNo : kExitOk;
}

XNT_COMMAND({"transfers",
             "Replay a trace and print the EDRAM render-target transfer log (--html: ownership map)",
             35, [](CLI::App& sub) {
               auto args = std::make_shared<TransfersArgs>();
               sub.add_option("FILE", args->file, "Trace (.xnt)")->required()->check(CLI::ExistingFile);
               sub.add_option("--frame", args->frame,
                              "Only this frame's transfers (from 0; earlier frames are still played)")
                   ->check(CLI::NonNegativeNumber);
               sub.add_flag("--json", args->json, "Print the log and totals as JSON");
               sub.add_option("--html", args->html,
                              "Write the EDRAM ownership map (tiles x events) as a self-contained HTML page");
               sub.add_option("--device", args->device, "Vulkan device index (default: first discrete GPU, else first device)");
               sub.add_flag("--validate", args->validate,
                            "Enable VK_LAYER_KHRONOS_validation; any message makes the exit code 1");
               return [args]() -> int { return RunTransfers(*args); };
             }});

}  // namespace
}  // namespace xnt::cli
