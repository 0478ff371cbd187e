// `xenotrace dump FILE [--frame N] [--draw K] [--json]`: every PM4 packet of a trace, decoded -
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
#include "xnt/format/reader.h"
#include "xnt/replay/dump.h"
#include "xnt/replay/null_backend.h"
#include "xnt/replay/trace_player.h"

namespace xnt::cli {
namespace {

struct DumpArgs {
  std::string path;
  int64_t frame = -1;
  int64_t draw = -1;
  bool json = false;
  bool no_registers = false;
  bool stats = false;
};

int RunDump(const DumpArgs& a) {
  auto reader = format::Reader::Open(a.path);
  if (a.frame >= 0 && uint64_t(a.frame) >= reader->frame_count() && reader->frame_count() > 0) {
    std::fprintf(stderr, "xenotrace dump: frame %" PRId64 " out of range (the trace has %" PRIu64
                         " frames, numbered from 0)\n",
                 a.frame, reader->frame_count());
    return kExitError;
  }
  replay::DumpOptions options;
  if (a.frame >= 0) options.frame = uint64_t(a.frame);
  if (a.draw >= 0) options.draw = uint32_t(a.draw);
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
  const bool draw_missing = a.draw >= 0 && printer.draws_printed() == 0;
  if (draw_missing) {
    std::fprintf(stderr, "xenotrace dump: no draw %" PRId64 " in %s\n", a.draw,
                 a.frame >= 0 ? ("frame " + std::to_string(a.frame)).c_str() : "any frame");
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
  return draw_missing ? kExitError : kExitOk;
}

XNT_COMMAND(
    "dump", "Decode every PM4 packet, register write, draw, resolve and swap of a trace", 20,
    [](CLI::App& sub) {
      auto a = std::make_shared<DumpArgs>();
      sub.add_option("FILE", a->path, "Trace file (.xnt)")->required()->check(CLI::ExistingFile);
      sub.add_option("--frame", a->frame,
                     "Only frame N (0-based; frame N ends with the N-th frame marker). Earlier "
                     "frames still run so state is right, silently")
          ->check(CLI::NonNegativeNumber);
      sub.add_option("--draw", a->draw,
                     "Only draw K of each printed frame: the packets since draw K-1 and draw K "
                     "itself (draws and resolves are numbered together, from 0)")
          ->check(CLI::NonNegativeNumber);
      sub.add_flag("--json", a->json, "JSON lines: one object per packet/register/draw/... line");
      sub.add_flag("--no-registers", a->no_registers, "Omit the register-write lines");
      sub.add_flag("--stats", a->stats, "Add decode time and packets/s to the stderr summary");
      sub.footer(
          "Text lines: '@R+D' is record R of the trace, dword D of that submission ('/ibN+E': "
          "dword E of an indirect buffer N levels down), then the guest address, packet type, "
          "register or opcode, and payload size. '=>' lines are what a packet did; '!' lines are "
          "problems found in the stream.\nExit codes: 0 ok (even with PM4 warnings), 2 unreadable "
          "file, bad arguments, or no such frame/draw.");
      return [a] { return RunDump(*a); };
    });

}  // namespace
}  // namespace xnt::cli
