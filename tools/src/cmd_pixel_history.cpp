// `xenotrace pixel-history TRACE --frame F --pixel X,Y [--target ID] [--scale SxT] [--scaled-lod guest|host] [--json]`:
// every event of frame F that tested or wrote one pixel, computed on the cpu path
// (xnt/inspect/pixel_history.h).
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "command.h"
#include "trace_status.h"
#include "xnt/base/error.h"
#include "xnt/base/json.h"
#include "xnt/base/selection.h"
#include "xnt/format/reader.h"
#include "xnt/inspect/pixel_history.h"

namespace xnt::cli {
namespace {

struct PixelHistoryArgs {
  std::string file;
  std::string frame;  // one frame number (a string: "-1" is refused, not wrapped around)
  std::string pixel;
  std::string out, frames;
  uint64_t budget = inspect::HistoryChunkOptions{}.byte_budget;
  std::string target = "frame";
  std::string scale = "1x1";
  std::string scaled_lod = "guest";
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

std::optional<uint64_t> ParseFrame(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos) {
    throw Error("--frame '" + text + "': expected one frame number (from 0)");
  }
  return std::stoull(text);
}

// -o: the chunk scripts of every pixel of the selected frames.
int WriteChunks(const PixelHistoryArgs& args) {
  if (!args.pixel.empty()) return Fail("pixel-history: -o/--out writes every pixel; --pixel is for one");
  const std::optional<uint64_t> frame = ParseFrame(args.frame);
  if (frame && !args.frames.empty()) return Fail("pixel-history: --frame and --frames exclude each other");
  const FrameSet set = frame ? FrameSet::Parse(std::to_string(*frame), "--frame")
                                  : FrameSet::Parse(args.frames.empty() ? "0-" : args.frames);
  const uint64_t total = format::Reader::Open(args.file)->totals().frames;
  if (const std::string missing = set.Missing(total); !missing.empty()) {
    throw Error("frame(s) " + missing + " not in the trace (it has " + std::to_string(total) +
                " frames, numbered from 0)");
  }
  std::vector<uint64_t> frames;
  for (uint64_t f = 0; f < total; ++f) {
    if (set.Contains(f)) frames.push_back(f);
  }
  inspect::HistoryChunkOptions options;
  options.scale = ParseResolutionScale(args.scale);
  options.derivatives = ParseScaledLod(args.scaled_lod);
  options.byte_budget = args.budget;
  if (StderrIsTerminal()) {
    options.progress = [&](uint64_t frame, uint64_t tiles) {
      std::fprintf(stderr, "\rpixel history: frame %llu, %llu tile(s) written",
                   static_cast<unsigned long long>(frame), static_cast<unsigned long long>(tiles));
    };
  }
  const inspect::HistoryChunkResult r = inspect::WriteHistoryChunks(args.file, frames, args.out, options);
  if (options.progress) std::fprintf(stderr, "\n");
  Json j = Json::object();
  j["frames"] = r.frames;
  j["tiles_written"] = r.tiles_written;
  j["tile_rows_skipped"] = r.tiles_skipped;
  j["bytes"] = r.bytes;
  j["out"] = args.out + "/history";
  const std::string text = args.json ? DumpJson(j, 2) + "\n"
                                     : "pixel history: " + std::to_string(r.tiles_written) +
                                           " tile(s) of " + std::to_string(r.frames) + " frame(s) in " +
                                           args.out + "/history (" + std::to_string(r.bytes) +
                                           " bytes; " + std::to_string(r.tiles_skipped) +
                                           " tile row(s) left out for the budget)\n";
  std::fwrite(text.data(), 1, text.size(), stdout);
  // An index alone is not the history asked for: no tile fitted the budget.
  if (r.tiles_written == 0 && r.tiles_skipped > 0) {
    std::fprintf(stderr, "xenotrace: error: pixel-history: no tile fitted --budget %llu\n",
                 static_cast<unsigned long long>(args.budget));
    return kExitNo;
  }
  return r.frames ? kExitOk : kExitNo;
}

int RunPixelHistory(const PixelHistoryArgs& args) {
  if (!args.out.empty()) return WriteChunks(args);
  const std::optional<uint64_t> frame = ParseFrame(args.frame);
  if (!frame || args.pixel.empty()) {
    return Fail("pixel-history: --frame and --pixel are required (or -o/--out for every pixel)");
  }
  inspect::PixelHistoryRequest request;
  request.frame = *frame;
  std::tie(request.x, request.y) = ParsePixel(args.pixel);
  request.target = args.target;
  request.scale = ParseResolutionScale(args.scale);
  request.derivatives = ParseScaledLod(args.scaled_lod);
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
               sub.add_flag("--json", args->json,
                            "Print the history as JSON (entries as the inspector page reads "
                            "them; with -o, the summary)");
               sub.add_option("--frame", args->frame, "Frame (from 0)");
               sub.add_option("--pixel", args->pixel, "Guest pixel X,Y (from 0, top left)");
               sub.add_option("-o,--out", args->out,
                              "Write every pixel's history as the inspector page's chunk scripts "
                              "into OUT/history/f<F>/ (tiles of 32x32 pixels + index.js) for "
                              "--frame or --frames (default: all)");
               sub.add_option("--frames", args->frames, "With -o: frames A-B, A, A- or a list A-B,C");
               sub.add_option("--budget", args->budget,
                              "With -o: bytes of chunk scripts at most, over all frames (default "
                              "64 MiB); tiles past it are named in each frame's index.js")
                   ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
               sub.add_option("--target", args->target,
                              "frame (the front buffer at the frame's swap, traced back through "
                              "the resolve that wrote it; default) or an EDRAM target id the "
                              "frame drew to, as listed in the output (colour_bB_pP_FORMAT_Nx, "
                              "depth_bB_pP_FORMAT_Nx)");
               sub.add_option("--scale", args->scale,
                              "Resolution scale SxT (1..3 each): every host pixel of the guest "
                              "pixel's block is watched (default 1x1)");
               AddScaledLodOption(sub, args->scaled_lod);
               sub.footer(
                   "Events are named F.K as `xenotrace dump` numbers them. Each entry gives the "
                   "stored guest bits before and after, in hex and decoded; draws add the shader "
                   "outputs, alpha/depth/stencil results, blend inputs and write mask; MSAA "
                   "entries name their sample.\nExit codes: 0 ok; 1 -o wrote no frame or no tile fitted the budget; 2 usage or input error (a frame "
                   "or pixel outside the trace, an unknown target, an unreadable trace).");
               return [args]() -> int { return RunPixelHistory(*args); };
             }});

}  // namespace
}  // namespace xnt::cli
