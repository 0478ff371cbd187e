// `xenotrace pixel-history TRACE --frame F --pixel X,Y [--target ID] [--scale SxT] [--json]`:
// every event of frame F that tested or wrote one pixel, computed on the cpu path
// (xnt/inspect/pixel_history.h).
#include <cstdio>
#include <memory>
#include <string>

#include "command.h"
#include "trace_status.h"
#include "xnt/base/error.h"
#include "xnt/base/json.h"
#include "xnt/inspect/pixel_history.h"

namespace xnt::cli {
namespace {

struct PixelHistoryArgs {
  std::string file;
  uint64_t frame = 0;
  std::string pixel;
  std::string target = "frame";
  std::string scale = "1x1";
  bool json = false;
};

// "X,Y" in guest pixels.
std::pair<uint32_t, uint32_t> ParsePixel(const std::string& text) {
  const auto comma = text.find(',');
  auto number = [&](const std::string& s) -> uint32_t {
    if (s.empty() || s.size() > 5 || s.find_first_not_of("0123456789") != std::string::npos) {
      throw Error("--pixel '" + text + "': expected X,Y (guest pixels from 0, below 100000)");
    }
    return uint32_t(std::stoul(s));
  };
  if (comma == std::string::npos) number("");
  return {number(text.substr(0, comma)), number(text.substr(comma + 1))};
}

int RunPixelHistory(const PixelHistoryArgs& args) {
  inspect::PixelHistoryRequest request;
  request.frame = args.frame;
  std::tie(request.x, request.y) = ParsePixel(args.pixel);
  request.target = args.target;
  request.scale = ParseResolutionScale(args.scale);
  const inspect::PixelHistory history = inspect::PixelHistoryOf(args.file, request);
  const std::string text = args.json ? DumpJson(inspect::PixelHistoryJson(history), 2) + "\n"
                                     : inspect::PixelHistoryText(history);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kExitOk;
}

XNT_COMMAND({"pixel-history",
             "Every event of a frame that tested or wrote one pixel, replayed on the cpu path",
             37, [](CLI::App& sub) {
               auto args = std::make_shared<PixelHistoryArgs>();
               sub.add_option("TRACE", args->file, "Trace (.xnt)")->required()->check(InputFile());
               sub.add_option("--frame", args->frame, "Frame (from 0)")->required();
               sub.add_option("--pixel", args->pixel, "Guest pixel X,Y (from 0, top left)")
                   ->required();
               sub.add_option("--target", args->target,
                              "frame (the front buffer at the frame's swap, traced back through "
                              "the resolve that wrote it; default) or an EDRAM target id the "
                              "frame drew to, as listed in the output (colour_bB_pP_FORMAT_Nx, "
                              "depth_bB_pP_FORMAT_Nx)");
               sub.add_option("--scale", args->scale,
                              "Resolution scale SxT (1..3 each): every host pixel of the guest "
                              "pixel's block is watched (default 1x1)");
               sub.add_flag("--json", args->json,
                            "Print the history as JSON (entries as the inspector page reads them)");
               sub.footer(
                   "Events are named F.K as `xenotrace dump` numbers them. Each entry gives the "
                   "stored guest bits before and after, in hex and decoded; draws add the shader "
                   "outputs, alpha/depth/stencil results, blend inputs and write mask; MSAA "
                   "entries name their sample.\nExit codes: 0 ok; 2 usage or input error (a frame "
                   "or pixel outside the trace, an unknown target, an unreadable trace).");
               return [args]() -> int { return RunPixelHistory(*args); };
             }});

}  // namespace
}  // namespace xnt::cli
