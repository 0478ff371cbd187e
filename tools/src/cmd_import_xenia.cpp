// `xenotrace import-xenia IN.xtr -o OUT.xnt`: converts a Xenia GPU trace into a .xnt trace
// (capture/xtr_import.h says what maps to what) and reports what it found, including whether the
// file uses the pre-November-2019 command numbering.
#include <sys/stat.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "command.h"
#include "xnt/base/json.h"
#include "xnt/base/error.h"
#include "xnt/capture/xtr_import.h"
#include "xnt/format/writer.h"

namespace xnt::cli {
namespace {


int RunImport(const std::string& in, const std::string& out, bool json, int zstd_level) {
  std::ifstream f(in, std::ios::binary);
  if (!f) throw Error("cannot open " + in);
  const std::vector<uint8_t> bytes(std::istreambuf_iterator<char>(f), {});

  format::TraceInfo info;
  info.capture_source = "xenia-import";
  struct stat st {};
  if (stat(in.c_str(), &st) == 0) info.creation_time_unix = uint64_t(st.st_mtime);
  format::WriterOptions options;
  options.zstd_level = zstd_level;

  capture::XtrImportReport report;
  std::unique_ptr<format::Writer> writer;
  try {
    // The title id is in the header; peek it before the writer needs it.
    if (bytes.size() >= 48) info.title_id = uint32_t(bytes[44]) | uint32_t(bytes[45]) << 8 |
                                            uint32_t(bytes[46]) << 16 | uint32_t(bytes[47]) << 24;
    writer = format::Writer::Create(out, info, options);
    report = capture::ImportXtr(bytes, [&](format::Record&& r) { writer->Write(r); });
    writer->Finish();
  } catch (const Error& e) {
    writer.reset();
    std::error_code ec;
    std::filesystem::remove(out, ec);
    throw Error(in + ": " + e.what());
  }

  if (json) {
    std::printf("{\n  \"input\": %s,\n  \"output\": %s,\n", JsonString(in).c_str(), JsonString(out).c_str());
    std::printf("  \"title_id\": %u,\n  \"build_commit\": %s,\n", report.title_id,
                JsonString(report.build_commit).c_str());
    std::printf("  \"legacy_numbering\": %s,\n  \"numbering_note\": %s,\n",
                report.legacy_numbering ? "true" : "false", JsonString(report.numbering_note).c_str());
    std::printf("  \"xtr_commands\": %" PRIu64 ",\n  \"packets\": %" PRIu64
                ",\n  \"packet_dwords\": %" PRIu64 ",\n  \"submissions\": %" PRIu64
                ",\n  \"indirect_buffers\": %" PRIu64 ",\n",
                report.xtr_commands, report.packets, report.packet_dwords, report.submissions,
                report.indirect_buffers);
    std::printf("  \"memory_reads\": %" PRIu64 ",\n  \"memory_writes\": %" PRIu64
                ",\n  \"memory_bytes\": %" PRIu64 ",\n",
                report.memory_reads, report.memory_writes, report.memory_bytes);
    std::printf("  \"edram_snapshots\": %" PRIu64 ",\n  \"register_snapshots\": %" PRIu64
                ",\n  \"gamma_ramps\": %" PRIu64 ",\n  \"frames\": %" PRIu64 ",\n",
                report.edram_snapshots, report.register_snapshots, report.gamma_ramps,
                report.frames);
    std::printf("  \"notes\": [");
    for (size_t i = 0; i < report.notes.size(); ++i) {
      std::printf("%s%s", i ? ", " : "", JsonString(report.notes[i]).c_str());
    }
    std::printf("]\n}\n");
  } else {
    std::printf("%s -> %s\n", in.c_str(), out.c_str());
    std::printf("  title id          %08X\n", report.title_id);
    std::printf("  Xenia build       %s\n", report.build_commit.c_str());
    std::printf("  numbering         %s\n", report.numbering_note.c_str());
    std::printf("  .xtr records      %" PRIu64 "\n", report.xtr_commands);
    std::printf("  packets           %" PRIu64 " (%" PRIu64 " dwords) in %" PRIu64
                " submissions, %" PRIu64 " indirect buffers\n",
                report.packets, report.packet_dwords, report.submissions,
                report.indirect_buffers);
    std::printf("  memory            %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64 " bytes\n",
                report.memory_reads, report.memory_writes, report.memory_bytes);
    std::printf("  snapshots         %" PRIu64 " EDRAM, %" PRIu64 " register, %" PRIu64
                " gamma\n",
                report.edram_snapshots, report.register_snapshots, report.gamma_ramps);
    std::printf("  frames            %" PRIu64 "\n", report.frames);
    for (const auto& n : report.notes) std::printf("  note: %s\n", n.c_str());
  }
  return kExitOk;
}

XNT_COMMAND("import-xenia", "Convert a Xenia GPU trace (.xtr) into a .xnt trace", 60,
            [](CLI::App& sub) {
              auto in = std::make_shared<std::string>();
              auto out = std::make_shared<std::string>();
              auto json = std::make_shared<bool>(false);
              auto level = std::make_shared<int>(3);
              sub.add_option("IN", *in, "Xenia trace (.xtr)")->required()->check(InputFile());
              sub.add_option("-o,--out,--output", *out, "Trace to write (.xnt)")->required();
              sub.add_option("--zstd-level", *level, "zstd level for the .xnt chunks")
                  ->check(CLI::Range(1, 19))
                  ->capture_default_str();
              sub.add_flag("--json", *json, "Print the import report as one JSON object");
              sub.footer(
                  "Reads Xenia's version-1 traces in both command numberings (files written "
                  "before November 2019 number the swap event 8 and have no EDRAM snapshot; "
                  "the report says which one was found).\nExit codes: 0 ok, 2 unreadable or "
                  "damaged input (the message names the byte offset).");
              return [=] { return RunImport(*in, *out, *json, *level); };
            });

}  // namespace
}  // namespace xnt::cli
