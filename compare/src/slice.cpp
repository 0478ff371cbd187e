// Trace slices (see slice.h).
#include "xnt/compare/slice.h"

#include <xxhash.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

#include "slice_pages.h"
#include "slice_state.h"
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

// The command processor's state outside the register file: the active shaders and the bin mask
// and select (replay/command_processor.h).
std::vector<uint32_t> ProcessorState(const replay::CommandProcessor& cp) {
  std::vector<uint32_t> dwords;
  for (const replay::Shader* shader : {cp.active_vertex_shader(), cp.active_pixel_shader()}) {
    if (!shader || shader->dwords.empty()) continue;
    dwords.push_back(
        xenos::MakeType3(xenos::Opcode::kImLoadImmediate, uint32_t(2 + shader->dwords.size())));
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

std::string RangeText(const SliceRange& range) {
  auto id = [](uint64_t frame, const std::optional<uint32_t>& event) {
    return std::to_string(frame) + (event ? "." + std::to_string(*event) : "");
  };
  return std::string(range.first_event ? "events " : "frames ") +
         id(range.first_frame, range.first_event) + "-" + id(range.last_frame, range.last_event);
}

void CheckRange(const SliceRange& range, uint64_t frames, const std::string& in) {
  if (range.first_event.has_value() != range.last_event.has_value()) {
    throw Error("slice: an event range needs both ends (F.K-G.M)");
  }
  const bool inverted = range.first_frame > range.last_frame ||
                        (range.first_event && range.first_frame == range.last_frame &&
                         *range.first_event > *range.last_event);
  if (inverted) throw Error("slice: " + RangeText(range) + " are inverted");
  if (range.last_frame >= frames) {
    throw Error("slice: frame " + std::to_string(range.last_frame) + " is not in " + in +
                " (it has " + std::to_string(frames) + " frames, numbered from 0)");
  }
}

}  // namespace

namespace detail {

CutState TakeCutState(replay::TracePlayer& player, renderer::Session& session,
                      const std::optional<format::GammaRamp>& gamma) {
  CutState state;
  const auto regs = player.registers().values();
  state.registers.assign(regs.begin(), regs.end());
  // The display's ramps as the stream left them: a record's, or the register ports' writes.
  const replay::DisplayGamma& display = player.command_processor().display_gamma();
  if (gamma || !display.at_start_up()) state.gamma = display.ToRecord();
  const std::span<const uint8_t> edram = session.SnapshotEdram(gpu::edram::Surface{}, 0).bytes();
  state.edram.assign(edram.begin(), edram.end());
  state.processor = ProcessorState(player.command_processor());
  const replay::GuestMemory& memory = player.memory();
  for (uint32_t page = 0; page < replay::GuestMemory::kPageCount; ++page) {
    const uint8_t* bytes = memory.PageData(page);
    if (!bytes) continue;
    state.pages.push_back(page);
    state.generations.push_back(memory.PageGeneration(page));
    state.page_bytes.insert(state.page_bytes.end(), bytes, bytes + format::kPageSize);
  }
  return state;
}

void AddWrittenPages(const replay::GuestMemory& memory, EventCut& cut) {
  for (size_t i = 0; i < cut.state.pages.size(); ++i) {
    const uint32_t page = cut.state.pages[i];
    if (memory.PageGeneration(page) != cut.state.generations[i]) cut.needed_pages.insert(page);
  }
}

// Guest memory at the cut as runs of pages, zeros too (a replay tells pages never written from
// written ones: reads of unrecorded memory are reported). The file stores each distinct page
// once, so repeated zero pages cost one.
uint64_t WriteCutState(const CutState& state, format::Writer& writer,
                       const std::set<uint32_t>* keep) {
  uint64_t pages = 0;
  std::vector<uint8_t> run;
  uint32_t run_start = 0, next_page = 0;
  auto flush = [&] {
    if (run.empty()) return;
    writer.Write(format::MemoryEvent{format::MemoryEventKind::kInitialSnapshot, run_start, run});
    run.clear();
  };
  for (size_t i = 0; i < state.pages.size(); ++i) {
    const uint32_t page = state.pages[i];
    if (keep && !keep->count(page)) continue;
    if (!run.empty() && (page != next_page || run.size() >= (4u << 20))) flush();
    if (run.empty()) run_start = page << format::kPageShift;
    const uint8_t* bytes = state.page_bytes.data() + i * format::kPageSize;
    run.insert(run.end(), bytes, bytes + format::kPageSize);
    next_page = page + 1;
    ++pages;
  }
  flush();
  writer.Write(format::RegisterSnapshot{0, state.registers});
  if (state.gamma) writer.Write(*state.gamma);
  writer.Write(format::EdramSnapshot{state.edram});
  if (!state.processor.empty()) {
    writer.Write(format::Submission{format::SubmissionKind::kRingBuffer, 0, state.processor});
  }
  return pages;
}

}  // namespace detail

namespace {

// What frames A..B read from memory (slice_pages.h), their indirect buffers too: a frame cut keeps
// its submissions as they are.
class FrameReads : public replay::PacketObserver {
 public:
  explicit FrameReads(std::set<uint32_t>& pages) : pages_(pages) {}
  void OnPacket(const replay::PacketInfo& p) override {
    if (!p.executed || p.type != xenos::PacketType::kType3) return;
    if (p.opcode == uint32_t(xenos::Opcode::kXeSwap)) {
      detail::AddSwapReads(*registers_, p.payload, pages_);
    } else if ((p.opcode == uint32_t(xenos::Opcode::kIndirectBuffer) ||
                p.opcode == uint32_t(xenos::Opcode::kIndirectBufferPfd)) &&
               p.payload.size() >= 2) {
      detail::AddPages(pages_, p.payload[0] & 0x1FFFFFFCu, uint64_t(p.payload[1] & 0xFFFFFu) * 4);
    }
  }
  void OnMemoryRead(uint32_t address, uint64_t size) override {
    detail::AddPages(pages_, address, size);
  }
  void set_registers(const replay::RegisterFile* registers) { registers_ = registers; }

 private:
  std::set<uint32_t>& pages_;
  const replay::RegisterFile* registers_ = nullptr;
};

// Frames A..B: the state after frame A - 1, then their records as the source has them; the
// pages they need found by playing them on.
detail::EventCut CutAtFrames(format::Reader& reader, const SliceRange& range) {
  detail::EventCut cut;
  bool kept = false;
  renderer::SessionOptions options;
  options.path = renderer::Path::kCpu;
  options.on_draw_event = [&](const renderer::DrawEvent& e) {
    if (!kept) return;
    if (e.after) {
      ++cut.events;
    } else {
      detail::AddDrawReads(*e.draw, cut.needed_pages);
    }
  };
  auto session = renderer::Session::Create(options);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  std::optional<format::GammaRamp> gamma;
  if (range.first_frame > 0) {
    player.Play(reader, range.first_frame - 1, [&](uint64_t, const format::Record& r) {
      if (auto* g = std::get_if<format::GammaRamp>(&r)) gamma = *g;
      return true;
    });
  }
  session->Flush();
  cut.state = detail::TakeCutState(player, *session, gamma);
  FrameReads reads(cut.needed_pages);
  reads.set_registers(&player.registers());
  player.set_observer(&reads);
  kept = true;
  reader.ForEachRecord(
      [&](const format::Record& r) {
        player.Apply(r);
        return true;
      },
      range.first_frame, range.last_frame);
  session->Flush();
  detail::AddWrittenPages(player.memory(), cut);
  return cut;
}

}  // namespace

SliceReport WriteSlice(const std::string& in, const std::string& out, const SliceRange& range,
                       bool all_pages) {
  SliceReport report;
  auto reader = format::Reader::Open(in, {.allow_recovery = false});
  report.source_frames = reader->frame_count();
  CheckRange(range, report.source_frames, in);
  report.source_hash = HashFile(in);
  report.source_bytes = std::filesystem::file_size(in);

  // The state at the cut and, for an event cut, the kept stream, on the cpu path (exact EDRAM
  // guest bits); all of it before the output is opened, so a bad event leaves no file.
  detail::EventCut cut =
      range.first_event ? detail::CutAtEvents(*reader, range) : CutAtFrames(*reader, range);
  report.events = cut.events;
  report.written_pages = cut.state.pages.size();

  format::TraceInfo info = reader->info();
  char source[160];
  std::snprintf(source, sizeof(source), " of xxh3:%016" PRIx64 " (%" PRIu64 " frames, from ",
                report.source_hash, report.source_frames);
  info.capture_source = "slice of " + RangeText(range) + source + info.capture_source + ")";
  const std::filesystem::path final_path(out);
  const std::filesystem::path temp = final_path.string() + ".partial";
  try {
    auto writer = format::Writer::Create(temp.string(), info);
    report.state_pages =
        detail::WriteCutState(cut.state, *writer, all_pages ? nullptr : &cut.needed_pages);
    auto keep = [&](const format::Record& r) {
      writer->Write(r);
      ++report.kept_records;
      if (std::holds_alternative<format::FrameMarker>(r)) ++report.frames;
      return true;
    };
    if (range.first_event) {
      for (const format::Record& r : cut.records) keep(r);
    } else {
      reader->ForEachRecord(keep, range.first_frame, range.last_frame);
    }
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
