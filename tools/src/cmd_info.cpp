// `xenotrace info FILE [--json]`: what a .xnt trace holds — format version, writer, frames,
// submissions, PM4 dwords, pages distinct/referenced, raw/compressed bytes and a breakdown by
// chunk type. A trace whose footer is missing is described from its recovered chunks.
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <map>
#include <string>

#include "command.h"
#include "trace_status.h"
#include "xnt/base/json.h"
#include "xnt/format/reader.h"

namespace xnt::cli {
namespace {


std::string Utc(uint64_t unix_seconds) {
  std::time_t t = std::time_t(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

double Ratio(uint64_t raw, uint64_t stored) { return stored ? double(raw) / double(stored) : 0.0; }

struct TypeStats {
  uint64_t count = 0, raw = 0, stored = 0;
};

int RunInfo(const std::string& path, bool json, bool allow_damaged) {
  auto reader = format::Reader::Open(path);
  WarnIfRecovered("info", path, *reader);
  const format::TraceInfo& info = reader->info();
  const format::TraceTotals& t = reader->totals();
  std::map<std::string, TypeStats> by_type;
  for (const char* name : {"info", "commands", "pages", "edram", "footer"}) by_type[name];
  auto chunks = reader->chunks();
  if (reader->footer()) chunks.push_back(*reader->footer());
  for (const auto& c : chunks) {
    TypeStats& s = by_type[format::ChunkTypeName(c.type)];
    ++s.count;
    s.raw += c.raw_size;
    s.stored += c.stored_size;
  }
  const double ratio = Ratio(t.bytes_raw, t.bytes_compressed);
  if (json) {
    std::printf("{\n");
    std::printf("  \"file\": %s,\n", JsonString(path).c_str());
    std::printf("  \"file_size\": %" PRIu64 ",\n", reader->file_size());
    std::printf("  \"format_version\": \"%u.%u\",\n", info.format_major, info.format_minor);
    std::printf("  \"writer\": %s,\n", JsonString(info.writer_name).c_str());
    std::printf("  \"writer_version\": %s,\n", JsonString(info.writer_version).c_str());
    std::printf("  \"title_id\": %u,\n", info.title_id);
    std::printf("  \"capture_source\": %s,\n", JsonString(info.capture_source).c_str());
    std::printf("  \"creation_time_unix\": %" PRIu64 ",\n", info.creation_time_unix);
    std::printf("  \"guest_memory_size\": %" PRIu64 ",\n", info.guest_memory_size);
    std::printf("  \"recovered\": %s,\n", reader->recovered() ? "true" : "false");
    std::printf("  \"recovery_note\": %s,\n", JsonString(reader->recovery_note()).c_str());
    std::printf("  \"frames\": %" PRIu64 ",\n", t.frames);
    std::printf("  \"submissions\": %" PRIu64 ",\n", t.submissions);
    std::printf("  \"pm4_dwords\": %" PRIu64 ",\n", t.pm4_dwords);
    std::printf("  \"memory_events\": %" PRIu64 ",\n", t.memory_events);
    std::printf("  \"pages_distinct\": %" PRIu64 ",\n", t.pages_distinct);
    std::printf("  \"pages_referenced\": %" PRIu64 ",\n", t.pages_referenced);
    std::printf("  \"bytes_raw\": %" PRIu64 ",\n", t.bytes_raw);
    std::printf("  \"bytes_compressed\": %" PRIu64 ",\n", t.bytes_compressed);
    std::printf("  \"ratio\": %.4f,\n", ratio);
    std::printf("  \"chunks\": {\n");
    size_t i = 0;
    for (const auto& [name, s] : by_type) {
      std::printf("    \"%s\": {\"count\": %" PRIu64 ", \"bytes_raw\": %" PRIu64 ", \"bytes_compressed\": %" PRIu64
                  ", \"ratio\": %.4f}%s\n",
                  name.c_str(), s.count, s.raw, s.stored, Ratio(s.raw, s.stored), ++i < by_type.size() ? "," : "");
    }
    std::printf("  }\n}\n");
    return DamagedExit(*reader, allow_damaged);
  }
  std::printf("file            %s (%" PRIu64 " bytes)\n", path.c_str(), reader->file_size());
  std::printf("format          %u.%u, written by %s %s\n", info.format_major, info.format_minor,
              info.writer_name.c_str(), info.writer_version.c_str());
  std::printf("title id        0x%08X\n", info.title_id);
  std::printf("capture source  %s\n", info.capture_source.c_str());
  std::printf("created         %s\n", Utc(info.creation_time_unix).c_str());
  std::printf("guest memory    %" PRIu64 " MiB\n", info.guest_memory_size >> 20);
  if (reader->recovered()) {
    std::printf("status          RECOVERED (no usable footer): %s\n", reader->recovery_note().c_str());
  } else {
    std::printf("status          complete (footer index present)\n");
  }
  std::printf("frames          %" PRIu64 "\n", t.frames);
  std::printf("submissions     %" PRIu64 " (%" PRIu64 " PM4 dwords)\n", t.submissions, t.pm4_dwords);
  std::printf("memory events   %" PRIu64 "\n", t.memory_events);
  std::printf("pages           %" PRIu64 " distinct / %" PRIu64 " referenced (%.2fx dedup)\n", t.pages_distinct,
              t.pages_referenced, Ratio(t.pages_referenced, t.pages_distinct));
  std::printf("bytes           %" PRIu64 " raw / %" PRIu64 " compressed (ratio %.2f)\n", t.bytes_raw,
              t.bytes_compressed, ratio);
  std::printf("\n%-10s %8s %16s %16s %8s\n", "chunk type", "count", "raw bytes", "stored bytes", "ratio");
  for (const auto& [name, s] : by_type) {
    if (s.count == 0) continue;
    std::printf("%-10s %8" PRIu64 " %16" PRIu64 " %16" PRIu64 " %8.2f\n", name.c_str(), s.count, s.raw, s.stored,
                Ratio(s.raw, s.stored));
  }
  return DamagedExit(*reader, allow_damaged);
}

XNT_COMMAND({"info", "Summarise a .xnt trace: format, writer, frames, PM4, pages, sizes by chunk type", 10,
             [](CLI::App& sub) {
               auto path = std::make_shared<std::string>();
               auto json = std::make_shared<bool>(false);
               auto allow_damaged = std::make_shared<bool>(false);
               sub.add_option("FILE", *path, "Trace file (.xnt)")->required()->check(InputFile());
               sub.add_flag("--json", *json, "Print one JSON object with stable keys");
               AddAllowDamaged(sub, *allow_damaged);
               sub.footer(
                   "A trace without a footer (a capture that died) is described from the chunks recovered "
                   "by scanning; 'status'/'recovered' says so.\nExit codes: 0 ok, 1 a damaged (recovered) trace "
                   "without --allow-damaged, 2 unreadable file.");
               return [=] { return RunInfo(*path, *json, *allow_damaged); };
             }});

}  // namespace
}  // namespace xnt::cli
