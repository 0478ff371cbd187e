// `xenotrace export-xenia IN.xnt -o OUT.xtr`: writes a .xnt trace as a Xenia GPU trace (version
// 1, today's command numbering, snappy where Xenia compresses) for xenia-gpu-*-trace-dump.
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "command.h"
#include "trace_status.h"
#include "xnt/base/error.h"
#include "xnt/capture/xtr_export.h"
#include "xnt/format/reader.h"

namespace xnt::cli {
namespace {

int RunExport(const std::string& in, const std::string& out, bool json, bool allow_damaged) {
  auto reader = format::Reader::Open(in);
  WarnIfRecovered("export-xenia", in, *reader);
  std::FILE* f = std::fopen(out.c_str(), "wb");
  if (!f) throw Error("cannot create " + out);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(f, &std::fclose);
  std::vector<uint8_t> buffer;
  capture::XtrExporter exporter(buffer, reader->info().title_id);
  auto drain = [&] {
    if (!buffer.empty() && std::fwrite(buffer.data(), 1, buffer.size(), f) != buffer.size()) {
      throw Error("write to " + out + " failed");
    }
    buffer.clear();
  };
  try {
    reader->ForEachRecordPaged(
        [&](const format::Record& r) {
          exporter.Add(r);
          if (buffer.size() > (4u << 20)) drain();
          return true;
        },
        [&](const format::MemoryPages& m) {
          exporter.Add(m);
          if (buffer.size() > (4u << 20)) drain();
          return true;
        });
    drain();
    if (std::fflush(f) != 0) throw Error("write to " + out + " failed");
  } catch (const Error&) {
    file.reset();
    std::error_code ec;
    std::filesystem::remove(out, ec);
    throw;
  }
  const auto& r = exporter.report();
  // An export of nothing is not a success: no empty .xtr is left behind.
  if (r.records == 0) {
    std::error_code ec;
    std::filesystem::remove(out, ec);
    std::fprintf(stderr, "xenotrace: error: export-xenia: %s holds no records%s; %s not written\n",
                 in.c_str(), reader->recovered() ? " (it is damaged)" : "", out.c_str());
    if (json) std::printf("{\"records\": 0, \"recovered\": %s, \"written\": false}\n", RecoveredJson(*reader).c_str());
    return kExitNo;
  }
  if (json) {
    std::printf("{\"records\": %" PRIu64 ", \"submissions\": %" PRIu64 ", \"packets\": %" PRIu64
                ", \"indirect_buffers_nested\": %" PRIu64 ", \"memory_reads\": %" PRIu64
                ", \"memory_writes\": %" PRIu64 ", \"memory_kind_changed\": %" PRIu64
                ", \"edram_snapshots\": %" PRIu64 ", \"register_snapshots\": %" PRIu64
                ", \"gamma_ramps\": %" PRIu64 ", \"frames\": %" PRIu64
                ", \"annotations_dropped\": %" PRIu64 ", \"bytes_written\": %" PRIu64
                ", \"notes\": %zu, \"recovered\": %s}\n",
                r.records, r.submissions, r.packets, r.indirect_buffers_nested, r.memory_reads,
                r.memory_writes, r.memory_kind_changed, r.edram_snapshots, r.register_snapshots,
                r.gamma_ramps, r.frames, r.annotations_dropped, r.bytes_written, r.notes.size(),
                RecoveredJson(*reader).c_str());
  } else {
    std::printf("%s -> %s (%" PRIu64 " bytes)\n", in.c_str(), out.c_str(), r.bytes_written);
    std::printf("  %" PRIu64 " submissions, %" PRIu64 " packets, %" PRIu64
                " indirect buffers nested from memory\n",
                r.submissions, r.packets, r.indirect_buffers_nested);
    std::printf("  %" PRIu64 " memory reads, %" PRIu64 " writes; %" PRIu64 " frames\n",
                r.memory_reads, r.memory_writes, r.frames);
    if (r.memory_kind_changed) {
      std::printf("  %" PRIu64
                  " initial-snapshot/CPU-write memory events stored as MemoryRead (.xtr has no "
                  "such kinds)\n",
                  r.memory_kind_changed);
    }
    if (r.annotations_dropped) {
      std::printf("  %" PRIu64 " annotations dropped (.xtr has no such record)\n",
                  r.annotations_dropped);
    }
    for (const auto& n : r.notes) std::printf("  note: %s\n", n.c_str());
  }
  return DamagedExit(*reader, allow_damaged);
}

XNT_COMMAND("export-xenia", "Write a .xnt trace as a Xenia GPU trace (.xtr)", 61,
            [](CLI::App& sub) {
              auto in = std::make_shared<std::string>();
              auto out = std::make_shared<std::string>();
              auto json = std::make_shared<bool>(false);
              auto allow_damaged = std::make_shared<bool>(false);
              sub.add_option("IN", *in, "Trace (.xnt)")->required()->check(InputFile());
              sub.add_option("-o,--out,--output", *out, "Xenia trace to write (.xtr)")->required();
              sub.add_flag("--json", *json, "Print the export report as one JSON object");
              AddAllowDamaged(sub, *allow_damaged);
              sub.footer(
                  "Writes version 1 with today's command numbering, readable by "
                  "xenia-gpu-{vulkan,d3d12}-trace-dump.\nExit codes: 0 ok, 1 nothing to export (no "
                  "records; no file left) or a damaged trace (without --allow-damaged), 2 "
                  "unreadable input or a record Xenia cannot hold.");
              return [=] { return RunExport(*in, *out, *json, *allow_damaged); };
            });

}  // namespace
}  // namespace xnt::cli
