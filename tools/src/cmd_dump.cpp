// `xenotrace dump FILE [--frames A-B,C] [--draw F.K|K] [--json]`: every PM4 packet of a trace, decoded -
// one line per packet (trace offset, guest address, type, opcode or register, dword count), the
// register writes it makes with names and decoded fields, and a summary line for each draw,
// resolve, swap and event. Problems in the PM4 stream are printed inline and counted at the end.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "command.h"
#include "trace_status.h"
#include "xnt/base/selection.h"
#include "xnt/format/reader.h"
#include "xnt/replay/dump.h"
#include "xnt/replay/null_backend.h"
#include "xnt/replay/trace_player.h"

namespace xnt::cli {
namespace {

struct DumpArgs {
  std::string path;
  std::string frame;   // --frame N (one frame; kept beside --frames)
  std::string frames;  // --frames A-B,C
  std::string draw;    // --draw K or F.K
  bool json = false;
  bool no_registers = false;
  bool stats = false;
  bool allow_damaged = false;
};

int RunDump(const DumpArgs& a) {
  if (!a.frame.empty() && !a.frames.empty()) return Fail("dump: --frame and --frames exclude each other");
  FrameSet frames;
  if (!a.frame.empty()) {
    frames = FrameSet::Parse(a.frame, "--frame");
    if (frames.ranges().size() != 1 || frames.ranges()[0].last != frames.ranges()[0].first)
      return Fail("dump: --frame takes one frame number (use --frames for ranges)");
  }
  if (!a.frames.empty()) frames = FrameSet::Parse(a.frames);
  std::optional<uint32_t> draw;
  if (!a.draw.empty()) {
    if (auto address = ParseDrawAddress(a.draw)) {
      // F.K: draw K of frame F (as dump prints them).
      if (!frames.all() && !frames.Contains(address->frame))
        return Fail("dump: --draw " + a.draw + " is outside --frame/--frames");
      frames = FrameSet::One(address->frame);
      draw = address->draw;
    } else if (a.draw.find_first_not_of("0123456789") == std::string::npos && a.draw.size() < 10) {
      draw = uint32_t(std::stoul(a.draw));
    } else {
      return Fail("dump: --draw '" + a.draw + "' is not K or F.K (frame.draw, from 0)");
    }
  }
  auto reader = format::Reader::Open(a.path);
  WarnIfRecovered("dump", a.path, *reader);
  const std::string missing = frames.Missing(reader->frame_count());
  if (!missing.empty() && reader->frame_count() > 0) {
    return Fail("dump: frame(s) " + missing + " out of range (the trace has " +
                std::to_string(reader->frame_count()) + " frames, numbered from 0)");
  }
  replay::DumpOptions options;
  options.frames = frames;
  options.draw = draw;
  options.json = a.json;
  options.registers = !a.no_registers;
  replay::DumpPrinter printer(options, [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  });
  replay::TracePlayer player(printer);
  printer.Attach(player);
  const auto start = std::chrono::steady_clock::now();
  printer.Run(player, *reader);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fflush(stdout);
  const auto& cp = player.command_processor();
  const uint64_t errors = cp.diagnostic_count(replay::Severity::kError);
  const uint64_t warnings = cp.diagnostic_count(replay::Severity::kWarning);
  const bool draw_missing = draw && printer.draws_printed() == 0;
  if (draw_missing) {
    Fail("dump: no draw " + a.draw + " in " + (frames.all() ? "any frame" : "frame(s) " + frames.text()));
  }
  std::fprintf(stderr,
               "xenotrace dump: %" PRIu64 " records, %" PRIu64 " packets, %" PRIu64
               " frames, %" PRIu64 " errors, %" PRIu64 " warnings",
               player.records_applied(), cp.packets_executed(), cp.frame(), errors, warnings);
  if (a.stats && seconds > 0) {
    std::fprintf(stderr, ", %.3f s, %.2f M packets/s", seconds,
                 double(cp.packets_executed()) / seconds / 1e6);
  }
  std::fprintf(stderr, "\n");
  if (draw_missing) return kExitError;
  if (player.records_applied() == 0) {
    std::fprintf(stderr, "xenotrace: error: dump: nothing to dump: the trace holds no records%s\n",
                 reader->recovered() ? " (it is damaged)" : "");
    return kExitNo;
  }
  return DamagedExit(*reader, a.allow_damaged);
}

XNT_COMMAND(
    "dump", "Decode every PM4 packet, register write, draw, resolve and swap of a trace", 20,
    [](CLI::App& sub) {
      auto a = std::make_shared<DumpArgs>();
      sub.add_option("FILE", a->path, "Trace file (.xnt)")->required()->check(InputFile());
      sub.add_option("--frame", a->frame,
                     "Only frame N (0-based; frame N ends with the N-th frame marker). Earlier "
                     "frames still run so state is right, silently");
      sub.add_option("--frames", a->frames, "Only these frames: A-B, A, A- or a list A-B,C");
      sub.add_option("--draw", a->draw,
                     "Only draw F.K (frame.draw, as the '=> draw F.K' lines number them), or K of "
                     "each printed frame: the packets since draw K-1 and draw K itself (draws, "
                     "resolves and clears are numbered together, from 0)");
      sub.add_flag("--json", a->json, "JSON lines: one object per packet/register/draw/... line");
      sub.add_flag("--no-registers", a->no_registers, "Omit the register-write lines");
      sub.add_flag("--stats", a->stats, "Add decode time and packets/s to the stderr summary");
      AddAllowDamaged(sub, a->allow_damaged);
      sub.footer(
          "Text lines: '@R+D' is record R of the trace, dword D of that submission ('/ibN+E': "
          "dword E of an indirect buffer N levels down), then the guest address, packet type, "
          "register or opcode, and payload size. '=>' lines are what a packet did; '!' lines are "
          "problems found in the stream.\nExit codes: 0 ok (even with PM4 warnings), 1 nothing "
          "to dump (no records) or a damaged trace (without --allow-damaged), 2 unreadable file, "
          "bad arguments, or no such frame/draw.");
      return [a] { return RunDump(*a); };
    });

}  // namespace
}  // namespace xnt::cli
