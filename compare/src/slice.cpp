// Trace slices (see slice.h).
#include "xnt/compare/slice.h"

#include <xxhash.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

#include "xnt/base/error.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"
#include "xnt/gpu/edram.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/xenos/pm4.h"

namespace xnt::compare {
namespace {

uint64_t HashFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot open " + path);
  std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(),
                                                                  &XXH3_freeState);
  XXH3_64bits_reset(state.get());
  std::vector<char> buffer(1 << 20);
  while (f) {
    f.read(buffer.data(), std::streamsize(buffer.size()));
    XXH3_64bits_update(state.get(), buffer.data(), size_t(f.gcount()));
  }
  return XXH3_64bits_digest(state.get());
}

// Guest memory at the cut: runs of every page written so far, zeros too (a replay tells pages
// never written from written ones: reads of unrecorded memory are reported). The file stores
// each distinct page once, so repeated zero pages cost one.
uint64_t WriteMemoryState(const replay::GuestMemory& memory, format::Writer& writer) {
  uint64_t pages = 0;
  std::vector<uint8_t> run;
  uint32_t run_start = 0;
  auto flush = [&] {
    if (run.empty()) return;
    writer.Write(format::MemoryEvent{format::MemoryEventKind::kInitialSnapshot, run_start, run});
    run.clear();
  };
  for (uint32_t page = 0; page < replay::GuestMemory::kPageCount; ++page) {
    const uint8_t* bytes = memory.PageData(page);
    if (!bytes) {
      flush();
      continue;
    }
    if (run.empty()) run_start = page << format::kPageShift;
    run.insert(run.end(), bytes, bytes + format::kPageSize);
    ++pages;
    if (run.size() >= (4u << 20)) flush();
  }
  flush();
  return pages;
}

// The command processor's state outside the register file: the active shaders and the bin mask
// and select (replay/command_processor.h).
std::vector<uint32_t> ProcessorState(const replay::CommandProcessor& cp) {
  std::vector<uint32_t> dwords;
  for (const replay::Shader* shader : {cp.active_vertex_shader(), cp.active_pixel_shader()}) {
    if (!shader || shader->dwords.empty()) continue;
    dwords.push_back(xenos::MakeType3(xenos::Opcode::kImLoadImmediate,
                                      uint32_t(2 + shader->dwords.size())));
    dwords.push_back(uint32_t(shader->type));
    dwords.push_back(uint32_t(shader->dwords.size()));
    dwords.insert(dwords.end(), shader->dwords.begin(), shader->dwords.end());
  }
  auto set64 = [&](xenos::Opcode opcode, uint64_t value) {
    if (value == ~uint64_t(0)) return;  // the reset value
    dwords.push_back(xenos::MakeType3(opcode, 2));
    dwords.push_back(uint32_t(value >> 32));
    dwords.push_back(uint32_t(value));
  };
  set64(xenos::Opcode::kSetBinMask, cp.bin_mask());
  set64(xenos::Opcode::kSetBinSelect, cp.bin_select());
  return dwords;
}

}  // namespace

SliceReport WriteSlice(const std::string& in, const std::string& out, const SliceRange& range) {
  SliceReport report;
  auto reader = format::Reader::Open(in, {.allow_recovery = false});
  report.source_frames = reader->frame_count();
  if (range.first_frame > range.last_frame) {
    throw Error("slice: frames " + std::to_string(range.first_frame) + "-" +
                std::to_string(range.last_frame) + " are inverted");
  }
  if (range.last_frame >= report.source_frames) {
    throw Error("slice: frame " + std::to_string(range.last_frame) + " is not in " + in +
                " (it has " + std::to_string(report.source_frames) +
                " frames, numbered from 0)");
  }
  report.source_hash = HashFile(in);
  report.source_bytes = std::filesystem::file_size(in);

  // The state at the cut, on the cpu path (exact EDRAM guest bits).
  renderer::SessionOptions options;
  options.path = renderer::Path::kCpu;
  auto session = renderer::Session::Create(options);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  std::optional<format::GammaRamp> gamma;
  if (range.first_frame > 0) {
    player.Play(*reader, range.first_frame - 1, [&](uint64_t, const format::Record& r) {
      if (auto* g = std::get_if<format::GammaRamp>(&r)) gamma = *g;
      return true;
    });
  }
  session->Flush();

  format::TraceInfo info = reader->info();
  char source[160];
  std::snprintf(source, sizeof(source), "slice of frames %" PRIu64 "-%" PRIu64
                " of xxh3:%016" PRIx64 " (%" PRIu64 " frames, from ",
                range.first_frame, range.last_frame, report.source_hash, report.source_frames);
  info.capture_source = source + info.capture_source + ")";
  const std::filesystem::path final_path(out);
  const std::filesystem::path temp = final_path.string() + ".partial";
  try {
    auto writer = format::Writer::Create(temp.string(), info);
    report.state_pages = WriteMemoryState(player.memory(), *writer);
    const auto regs = player.registers().values();
    writer->Write(format::RegisterSnapshot{0, {regs.begin(), regs.end()}});
    if (gamma) writer->Write(*gamma);
    const std::vector<uint8_t>& edram = session->SnapshotEdram(gpu::edram::Surface{}, 0).bytes();
    writer->Write(format::EdramSnapshot{edram});
    std::vector<uint32_t> state = ProcessorState(player.command_processor());
    if (!state.empty()) {
      writer->Write(format::Submission{format::SubmissionKind::kRingBuffer, 0, std::move(state)});
    }
    reader->ForEachRecord(
        [&](const format::Record& r) {
          writer->Write(r);
          ++report.kept_records;
          if (std::holds_alternative<format::FrameMarker>(r)) ++report.frames;
          return true;
        },
        range.first_frame, range.last_frame);
    writer->Finish();
    writer.reset();
    std::filesystem::rename(temp, final_path);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(temp, ec);
    throw;
  }
  report.slice_bytes = std::filesystem::file_size(final_path);
  return report;
}

}  // namespace xnt::compare
