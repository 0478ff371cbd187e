// Pixel history on the cpu path (see pixel_history.h): the replays and the front buffer pixel's
// way back to the EDRAM.
#include "xnt/inspect/pixel_history.h"

#include <algorithm>
#include <cstdint>
#include <memory>

#include "history_replay.h"
#include "xnt/base/error.h"
#include "xnt/cpu/cpu_backend.h"
#include "xnt/format/reader.h"
#include "xnt/gpu/front_buffer.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/replay/trace_player.h"

namespace xnt::inspect {

namespace {

// The cpu backend with the swap's packet seen first: the front buffer's base comes from the
// registers at the swap and the packet's address (gpu::FrontBufferBase).
class WatchedBackend final : public replay::Backend {
 public:
  WatchedBackend(cpu::CpuBackendOptions options, ReplayedFrame& out, uint64_t frame)
      : cpu_(std::move(options)), out_(out), frame_(frame) {}
  cpu::CpuBackend& cpu() { return cpu_; }
  void Attach(replay::TracePlayer& player) {
    registers_ = &player.registers();
    memory_ = &player.memory();
    cpu_.Attach(&player.memory(), registers_);
  }
  void OnDraw(const replay::DrawCall& c) override { cpu_.OnDraw(c); }
  void OnResolve(const replay::ResolveCall& c) override { cpu_.OnResolve(c); }
  void OnMemExport(const replay::MemExportCall& c) override { cpu_.OnMemExport(c); }
  void OnEvent(const replay::EventCall& c) override { cpu_.OnEvent(c); }
  void OnEdramSnapshot(std::span<const uint8_t> b) override { cpu_.OnEdramSnapshot(b); }
  void OnGammaRamp(const format::GammaRamp& g) override { cpu_.OnGammaRamp(g); }
  void OnMemoryWritten(uint32_t a, uint32_t s) override { cpu_.OnMemoryWritten(a, s); }
  void OnSwap(const replay::SwapCall& c) override {
    // The front buffer in guest memory at 1x (at a resolution scale the path may show a scaled
    // copy; pixel history speaks of guest pixels and guest bytes).
    if (c.frame == frame_) {
      out_.front_base = gpu::FrontBufferBase(registers_->values(), c.front_buffer_address);
      try {
        out_.image = gpu::ReadFrontBuffer(registers_->values(), c.front_buffer_address, c.width,
                                          c.height, gpu::GuestAccessOf(*memory_));
        if (c.display_gamma) {
          gpu::SwapImage shown = out_.image;
          gpu::ApplyDisplayGamma(shown, *c.display_gamma);
          if (shown.rgba != out_.image.rgba) out_.stored = std::move(out_.image);
          out_.image = std::move(shown);
        }
        out_.swapped = true;
      } catch (const Error& e) {
        out_.notes["swap not read: " + std::string(e.what())] = 1;
      }
    }
    cpu_.OnSwap(c);
  }
  void OnFrameEnd(const replay::FrameEndCall& c) override {
    if (c.frame == frame_) out_.events = c.draws;
    cpu_.OnFrameEnd(c);
  }

 private:
  cpu::CpuBackend cpu_;
  ReplayedFrame& out_;
  uint64_t frame_;
  const replay::RegisterFile* registers_ = nullptr;
  replay::GuestMemory* memory_ = nullptr;
};

std::string Hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof(b), "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// The last resolve up to the frame's swap that copied EDRAM pixel (x, y) to the front buffer.
const cpu::PixelWatch::SeenResolve* FrontBufferSource(const ReplayedFrame& f, uint32_t x,
                                                       uint32_t y) {
  const auto& seen = f.watch.resolves();
  for (auto it = seen.rbegin(); it != seen.rend(); ++it) {
    const gpu::ResolveInfo& i = it->info;
    if (i.copy && !i.dest_array && i.dest_base == f.front_base && int64_t(x) >= i.x0 &&
        int64_t(x) < i.x1 && int64_t(y) >= i.y0 && int64_t(y) < i.y1) {
      return &*it;
    }
  }
  return nullptr;
}

// Where the request's pixel lives in the EDRAM (false: nowhere, for a front buffer pixel no
// resolve wrote); fills the history's target list and description.
bool FindSurface(const ReplayedFrame& pass, PixelHistory& h, gpu::edram::Surface& surface) {
  const PixelHistoryRequest& r = h.request;
  h.targets.push_back("frame");
  for (const auto& u : pass.watch.surfaces()) h.targets.push_back(TargetId(u.surface));
  auto list = [&]() {
    std::string s;
    for (const std::string& t : h.targets) s += (s.empty() ? "" : ", ") + t;
    return s;
  };
  if (r.target == "frame") {
    if (!pass.swapped) {
      throw Error("frame " + std::to_string(r.frame) + " ends without a swap: it has no front "
                  "buffer (its targets: " + list() + ")");
    }
    if (r.x >= pass.image.width || r.y >= pass.image.height) {
      throw Error("pixel " + std::to_string(r.x) + "," + std::to_string(r.y) + " is outside frame " +
                  std::to_string(r.frame) + "'s front buffer (" + std::to_string(pass.image.width) +
                  "x" + std::to_string(pass.image.height) + ")");
    }
    const auto* source = FrontBufferSource(pass, r.x, r.y);
    if (!source) {
      h.target_describe = "front buffer at " + Hex(pass.front_base);
      h.notes.push_back("no resolve up to this swap copied an EDRAM pixel to front buffer pixel " +
                        std::to_string(r.x) + "," + std::to_string(r.y) +
                        ": its bytes came from the trace's memory, not from a draw");
      return false;
    }
    surface = source->info.SourceSurface();
    h.target_describe = "front buffer at " + Hex(pass.front_base) + ", resolved by event " +
                        std::to_string(source->frame) + "." + std::to_string(source->event) +
                        " from " + TargetId(surface);
    return true;
  }
  for (const auto& u : pass.watch.surfaces()) {
    if (TargetId(u.surface) != r.target) continue;
    surface = u.surface;
    if (r.x >= surface.pitch_pixels || r.y >= std::max(u.rows, 1u)) {
      throw Error("pixel " + std::to_string(r.x) + "," + std::to_string(r.y) + " is outside target " +
                  r.target + " (" + std::to_string(surface.pitch_pixels) + " pixels wide, " +
                  std::to_string(u.rows) + " rows drawn in frame " + std::to_string(r.frame) + ")");
    }
    h.target_describe = surface.Describe();
    return true;
  }
  throw Error("--target " + r.target + ": frame " + std::to_string(r.frame) +
              " has no such target (its targets: " + list() + ")");
}

// Watches every sample of every host pixel of guest pixel (x, y) of `surface` at `scale`.
void WatchPixel(cpu::PixelWatch& watch, gpu::edram::Surface surface, uint32_t x, uint32_t y,
                ResolutionScale scale) {
  surface.scale_x = scale.x, surface.scale_y = scale.y;
  for (uint32_t dy = 0; dy < scale.y; ++dy) {
    for (uint32_t dx = 0; dx < scale.x; ++dx) {
      for (uint32_t s = 0; s < surface.sample_count(); ++s) {
        watch.Add(surface, x * scale.x + dx, y * scale.y + dy, s);
      }
    }
  }
}

std::vector<std::string> NoteLines(const ReplayedFrame& f) {
  std::vector<std::string> notes;
  for (const auto& [what, count] : f.notes) {
    notes.push_back("cpu path: " + what + " (x" + std::to_string(count) + ")");
  }
  return notes;
}

}  // namespace

std::string HistoryEntry::Field(std::string_view name) const {
  for (const HistoryField& f : fields) {
    if (f.name == name) return f.value;
  }
  return {};
}

std::string HistoryEntry::EventName() const {
  return std::to_string(frame) + "." + std::to_string(event);
}

std::string TargetId(const gpu::edram::Surface& s) {
  const std::string_view format = s.is_depth ? xenos::DepthRenderTargetFormatName(s.format)
                                             : xenos::ColorRenderTargetFormatName(s.format);
  return std::string(s.is_depth ? "depth" : "colour") + "_b" + std::to_string(s.base_tiles) +
         "_p" + std::to_string(s.pitch_pixels) + "_" + std::string(format) + "_" +
         std::to_string(s.sample_count()) + "x";
}

void ReplayWatched(const std::string& trace, uint64_t frame, ResolutionScale scale,
                   ReplayedFrame& out) {
  auto reader = format::Reader::Open(trace);
  const uint64_t frames = reader->totals().frames;
  if (frame >= frames) {
    throw Error("frame " + std::to_string(frame) + " is not in " + trace + " (it has " +
                std::to_string(frames) + " frames, numbered from 0)");
  }
  if (!scale.valid()) throw ResolutionScaleError(scale.Name());
  out.watch.set_first_frame(frame);
  cpu::CpuBackendOptions options;
  options.scale_x = scale.x, options.scale_y = scale.y;
  options.derivatives = out.derivatives;
  options.watch = &out.watch;
  WatchedBackend backend(std::move(options), out, frame);
  replay::TracePlayer player(backend);
  backend.Attach(player);
  player.Play(*reader, frame);
  for (const auto& [what, count] : backend.cpu().notes()) out.notes[what] += count;
}

PixelHistory PixelHistoryOf(const std::string& trace, const PixelHistoryRequest& request) {
  PixelHistory h;
  h.request = request;
  ReplayedFrame first;
  first.derivatives = request.derivatives;
  ReplayWatched(trace, request.frame, request.scale, first);
  gpu::edram::Surface surface;
  const bool in_edram = FindSurface(first, h, surface);
  ReplayedFrame second;
  second.derivatives = first.derivatives;
  if (in_edram) {
    WatchPixel(second.watch, surface, request.x, request.y, request.scale);
    ReplayWatched(trace, request.frame, request.scale, second);
    for (size_t i = 0; i < second.watch.records().size(); ++i) {
      h.entries.push_back(EntryOf(second.watch, i, request.scale));
    }
  }
  if (request.target == "frame") h.entries.push_back(SwapEntry(first, request.x, request.y));
  for (const std::string& n : NoteLines(first)) h.notes.push_back(n);
  return h;
}

FrameHistories FrameHistoriesOf(const std::string& trace, uint64_t frame, ResolutionScale scale,
                                const PixelFilter& keep) {
  ReplayedFrame first;
  ReplayWatched(trace, frame, scale, first);
  return FrameHistoriesAfter(trace, first, scale, keep);
}

FrameHistories FrameHistoriesAfter(const std::string& trace, const ReplayedFrame& first,
                                   ResolutionScale scale, const PixelFilter& keep) {
  FrameHistories out;
  VisitFrameHistories(trace, first, scale, keep, out,
                      [&](uint32_t target, std::pair<uint32_t, uint32_t> pixel,
                          const HistoryEntry& e, uint64_t) { out.targets[target].pixels[pixel].push_back(e); });
  return out;
}

void VisitFrameHistories(const std::string& trace, const ReplayedFrame& first, ResolutionScale scale,
                         const PixelFilter& keep, FrameHistories& out, const HistorySink& sink) {
  const uint64_t frame = first.watch.first_frame();
  out.targets.clear();
  out.notes = NoteLines(first);
  // Which target and pixel each watched sample belongs to.
  ReplayedFrame second;
  std::vector<std::pair<uint32_t, std::pair<uint32_t, uint32_t>>> owner;
  auto watch = [&](uint32_t target, const gpu::edram::Surface& s, uint32_t x, uint32_t y) {
    WatchPixel(second.watch, s, x, y, scale);
    owner.resize(second.watch.samples().size(), {target, {x, y}});
  };
  // The front buffer's swap entries come last in their pixels' lists, after the records.
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, HistoryEntry>> swaps;
  if (first.swapped) {
    out.targets.push_back({"frame", "front buffer", first.image.width, first.image.height, {}, {}});
    // The resolve a front buffer pixel came from: most pixels share their neighbour's, whose
    // target id and whether that target is watched are worked out once.
    const void* source_seen = nullptr;
    std::string id, resolved_by;
    bool id_watched = false;
    for (uint32_t y = 0; y < first.image.height; ++y) {
      for (uint32_t x = 0; x < first.image.width; ++x) {
        if (!keep("frame", x, y)) continue;
        HistoryEntry& swap = swaps.emplace_back(std::pair{x, y}, SwapEntry(first, x, y)).second;
        const auto* source = FrontBufferSource(first, x, y);
        if (!source) continue;
        if (source != source_seen) {
          source_seen = source;
          id = TargetId(source->info.SourceSurface());
          resolved_by =
              std::to_string(source->frame) + "." + std::to_string(source->event) + " from " + id;
          id_watched = std::any_of(first.watch.surfaces().begin(), first.watch.surfaces().end(),
                                   [&](const auto& u) { return TargetId(u.surface) == id; });
        }
        // A source pixel that is itself watched as its target keeps its entries there only
        // (the chunks would hold them twice).
        swap.fields.push_back({"resolved by", resolved_by});
        const bool elsewhere = id_watched && keep(id, x, y);
        if (elsewhere) {
          swap.fields.back().value += " (its entries: under that target)";
        } else {
          watch(0, source->info.SourceSurface(), x, y);
        }
      }
    }
  }
  for (const auto& u : first.watch.surfaces()) {
    const uint32_t index = uint32_t(out.targets.size());
    const std::string id = TargetId(u.surface);
    out.targets.push_back({id, u.surface.Describe(), u.surface.pitch_pixels, u.rows, u.surface, {}});
    for (uint32_t y = 0; y < u.rows; ++y) {
      for (uint32_t x = 0; x < u.surface.pitch_pixels; ++x) {
        if (keep(id, x, y)) watch(index, u.surface, x, y);
      }
    }
  }
  second.derivatives = first.derivatives;
  if (!second.watch.empty()) ReplayWatched(trace, frame, scale, second);
  // Each target's last entry: a flat draw's next fragment on the target is most often the same
  // entry again (formatting every record's fields is most of the cost).
  struct Last {
    size_t record = SIZE_MAX;
    std::pair<uint32_t, uint32_t> host;  // relative to the guest pixel's first host pixel
    uint64_t id = 0;
    HistoryEntry entry;
  };
  std::vector<Last> last(out.targets.size());
  uint64_t ids = 0;
  const auto& samples = second.watch.samples();
  for (size_t i = 0; i < second.watch.records().size(); ++i) {
    const uint32_t watched = second.watch.records()[i].watched;
    const auto& [target, pixel] = owner[watched];
    const std::pair host{samples[watched].host_x - pixel.first * scale.x,
                         samples[watched].host_y - pixel.second * scale.y};
    Last& l = last[target];
    if (l.record == SIZE_MAX || l.host != host || !SameEntry(second.watch, l.record, i)) {
      l.entry = EntryOf(second.watch, i, scale);
      l.id = ++ids;
    } else if (scale.scaled()) {
      // The same entry at another guest pixel: only its absolute host pixel differs.
      l.entry.fields.front().value =
          std::to_string(samples[watched].host_x) + "," + std::to_string(samples[watched].host_y);
    }
    l.record = i, l.host = host;
    sink(target, pixel, l.entry, l.id);
  }
  for (auto& [pixel, entry] : swaps) sink(0, pixel, entry, ++ids);
}

}  // namespace xnt::inspect
