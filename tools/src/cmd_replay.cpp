// `xenotrace replay FILE --out DIR`: plays a trace through the command processor on a render path
// (renderer/session.h) and writes the front buffer of every XE_SWAP as frame_NNNN.png. Reports frames/s and
// draws/s, and with --validate the Vulkan validation layer's message count (any message makes
// the exit code 1). --dump-memory ADDR:SIZE writes that guest memory after every selected frame
// (memory_NNNN_ADDR.bin), e.g. to inspect what a memexport shader wrote.
#include <xxhash.h>

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <chrono>

#include "command.h"
#include "post_args.h"
#include "renderdoc_option.h"
#include "trace_status.h"
#include "xnt/base/error.h"
#include "xnt/base/json.h"
#include "xnt/base/resolution_scale.h"
#include "xnt/base/selection.h"
#include "xnt/compare/snapshot.h"
#include "xnt/diff/png.h"
#include "xnt/format/reader.h"
#include "xnt/present/frame_writer.h"
#include "xnt/renderer/device_tools.h"
#include "xnt/renderer/note_log.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"

namespace xnt::cli {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// "ADDR:SIZE" (hex or decimal, as strtoull with base 0 reads them) inside guest memory.
std::pair<uint32_t, uint32_t> ParseMemoryRange(const std::string& text) {
  const auto colon = text.find(':');
  auto number = [&](const std::string& s) -> uint64_t {
    char* end = nullptr;
    const uint64_t v = s.empty() ? 0 : std::strtoull(s.c_str(), &end, 0);
    if (s.empty() || !end || *end) {
      throw Error("--dump-memory: '" + text + "' is not ADDR:SIZE (e.g. 0x100000:0x1000)");
    }
    return v;
  };
  if (colon == std::string::npos) number("");
  const uint64_t address = number(text.substr(0, colon)), size = number(text.substr(colon + 1));
  if (size == 0 || !replay::GuestMemory::InRange(address, size)) {
    throw Error("--dump-memory: '" + text + "' is empty or leaves the 512 MiB of guest memory");
  }
  return {uint32_t(address), uint32_t(size)};
}

struct ReplayArgs {
  std::string file;
  std::string out;
  std::string frames;
  std::string path = renderer::Paths().front().name;
  std::string fsi_ordering = "interlock";
  int device = -1;
  uint32_t threads = 0;
  double gpu_timeout = 60;
  bool validate = false;
  std::string gamma = "exact";
  std::string scale = "1x1";
  std::string scaled_lod = "guest";
  std::string dump_shaders;
  std::string snapshots;
  std::string dump_memory;
  bool json = false;
  bool allow_damaged = false;
  bool list_devices = false;
  bool progress = false;  // --progress: per-draw progress on stderr even when it is no terminal
  bool post = false;  // --post: the presentation chain on every written frame
  bool debug_labels = false;      // --debug-labels
  std::string renderdoc_capture;  // --renderdoc-capture F.K|F
  PostArgs post_args;
};

// --list-devices: the Vulkan devices --device N chooses from.
int ListDevices(bool json) {
  if (!renderer::HasVulkan()) {
    return Fail("replay: this build has no Vulkan renderer (the cpu path needs none: --path cpu)");
  }
  const auto devices = renderer::ListDevices();
  if (json) std::printf("[");
  for (size_t i = 0; i < devices.size(); ++i) {
    const auto& d = devices[i];
    if (json) {
      std::printf("%s\n  {\"index\": %d, \"name\": %s, \"type\": \"%s\", \"api\": \"%s\"}",
                  i ? "," : "", d.index, JsonString(d.name).c_str(), d.type.c_str(), d.api.c_str());
    } else {
      std::printf("%d: %s (%s, Vulkan %s)\n", d.index, d.name.c_str(), d.type.c_str(), d.api.c_str());
    }
  }
  if (json) std::printf("%s]\n", devices.empty() ? "" : "\n");
  if (devices.empty()) return Fail("replay: no Vulkan device (the cpu path needs none: --path cpu)");
  return kExitOk;
}

// The name of this replay's draw-pipeline list (renderer::SessionOptions::pipeline_list_id):
// XXH3-128 of the trace's size, its first and last MiB (the header and first chunks; the footer,
// which lists every chunk's offset and sizes) and the frames replayed. Two traces alike in all of
// that share a list, which costs only pipelines made ahead for nothing. Empty when unreadable.
std::string PipelineListId(const std::string& file, const std::string& frames) {
  std::ifstream in(file, std::ios::binary);
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(file, ec);
  if (!in || ec) return {};
  constexpr uint64_t kPart = 1 << 20;
  std::vector<char> bytes(sizeof(size));
  std::memcpy(bytes.data(), &size, sizeof(size));
  auto read = [&](uint64_t offset, uint64_t n) {
    const size_t at = bytes.size();
    bytes.resize(at + n);
    in.seekg(std::streamoff(offset));
    in.read(bytes.data() + at, std::streamsize(n));
    bytes.resize(at + size_t(in.gcount()));
    in.clear();
  };
  read(0, std::min(size, kPart));
  if (size > kPart) read(std::max(kPart, size - kPart), std::min(kPart, size - kPart));
  bytes.insert(bytes.end(), frames.begin(), frames.end());
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  char id[33];
  std::snprintf(id, sizeof(id), "%016" PRIx64 "%016" PRIx64, uint64_t(h.high64), uint64_t(h.low64));
  return id;
}

// The session options the flags give (path, device, threads, validation, gamma, scale, the
// trace's pipeline list); the callbacks are RunReplay's.
renderer::SessionOptions BaseOptions(const ReplayArgs& args) {
  renderer::SessionOptions options;
  options.path = *renderer::ParsePath(args.path);
  options.device_index = args.device;
  options.threads = args.threads;
  options.gpu_timeout_ms = uint32_t(args.gpu_timeout * 1000.0 + 0.5);
  options.validate = args.validate;
  options.dump_shaders_dir = args.dump_shaders;
  options.fsi_unordered = args.fsi_ordering == "unordered";
  options.debug_labels = args.debug_labels || !args.renderdoc_capture.empty();
  if (args.debug_labels && !renderer::Info(options.path).needs_device) {
    throw Error("replay: --debug-labels labels Vulkan work: use --path fbo or fsi (the " +
                args.path + " path makes no Vulkan calls)");
  }
  options.renderer.gamma = args.gamma == "srgb" ? gpu::GammaMode::kSrgb : gpu::GammaMode::kExact;
  const ResolutionScale scale = ParseResolutionScale(args.scale);
  options.renderer.scale_x = scale.x;
  options.renderer.scale_y = scale.y;
  options.renderer.derivatives = ParseScaledLod(args.scaled_lod);
  // Only the fbo path lists its draw pipelines: no other path reads the file's bytes for it.
  if (options.path == renderer::Path::kFbo) {
    options.pipeline_list_id = PipelineListId(args.file, args.frames);
  }
  return options;
}

// What a replay did, for its report.
struct ReplayTally {
  uint64_t frames_seen = 0, frames_written = 0, snapshots_written = 0;
  double seconds = 0;
  std::string renderdoc_capture;  // the .rdc written; empty: none asked for or none written
  const std::vector<std::string>& images;
  const std::vector<std::string>& memory_dumps;
  double fps() const { return seconds > 0 ? double(frames_seen) / seconds : 0.0; }
};

// "notes": every note of the replay with its kind, register/field, first event F.K and counts;
// "notes_by_kind": the counts summed per kind (note_log.h).
void PrintNotesJson(const std::vector<renderer::NoteEntry>& notes) {
  std::printf("  \"notes\": [");
  std::map<std::string, uint64_t> by_kind;
  for (size_t i = 0; i < notes.size(); ++i) {
    const renderer::NoteEntry& n = notes[i];
    const char* kind = renderer::NoteKindName(n.kind);
    by_kind[kind] += n.count;
    const std::string event =
        n.first ? JsonString(DrawAddress(n.first->frame, n.first->draw)) : std::string("null");
    std::printf("%s\n    {\"kind\": \"%s\", \"register\": %s, \"field\": %s, \"event\": %s, "
                "\"events\": %" PRIu64 ", \"count\": %" PRIu64 ", \"text\": %s}",
                i ? "," : "", kind, n.reg.name.empty() ? "null" : JsonString(n.reg.name).c_str(),
                n.reg.field.empty() ? "null" : JsonString(n.reg.field).c_str(), event.c_str(),
                n.events, n.count, JsonString(n.text).c_str());
  }
  std::printf("%s],\n", notes.empty() ? "" : "\n  ");
  std::printf("  \"notes_by_kind\": {");
  bool first = true;
  for (const auto& [kind, count] : by_kind) {
    std::printf("%s\"%s\": %" PRIu64, first ? "" : ", ", kind.c_str(), count);
    first = false;
  }
  std::printf("},\n");
}

void PrintJson(const ReplayArgs& args, const format::Reader& reader, renderer::Session& session,
               const ReplayTally& t, renderer::NoteLog& note_log) {
  note_log.Observe(session.notes(), std::nullopt);  // what the end of the replay added
  const renderer::SessionStats stats = session.stats();
  const double dps = t.seconds > 0 ? double(stats.draws) / t.seconds : 0.0;
  std::printf("{\n");
  std::printf("  \"file\": %s,\n", JsonString(args.file).c_str());
  std::printf("  \"recovered\": %s,\n", RecoveredJson(reader).c_str());
  std::printf("  \"device\": %s,\n", JsonString(session.device_name()).c_str());
  std::printf("  \"path\": %s,\n", JsonString(renderer::PathName(session.path())).c_str());
  std::printf("  \"scale\": %s,\n", JsonString(args.scale).c_str());
  std::printf("  \"scaled_lod\": %s,\n", JsonString(args.scaled_lod).c_str());
  std::printf("  \"frames\": %" PRIu64 ",\n", t.frames_seen);
  std::printf("  \"frames_written\": %" PRIu64 ",\n", t.frames_written);
  std::printf("  \"draws\": %" PRIu64 ",\n", stats.draws);
  std::printf("  \"draws_skipped\": %" PRIu64 ",\n", stats.draws_skipped);
  std::printf("  \"resolves\": %" PRIu64 ",\n", stats.resolves);
  std::printf("  \"swaps\": %" PRIu64 ",\n", stats.swaps);
  std::printf("  \"seconds\": %.6f,\n", t.seconds);
  std::printf("  \"frames_per_second\": %.3f,\n", t.fps());
  std::printf("  \"draws_per_second\": %.3f,\n", dps);
  std::printf("  \"validation_enabled\": %s,\n", args.validate ? "true" : "false");
  std::printf("  \"validation_messages\": %u,\n", session.validation_message_count());
  const std::optional<uint64_t> ahead = session.pipelines_made_ahead();
  std::printf("  \"pipelines_made_ahead\": %s,\n",
              ahead ? std::to_string(*ahead).c_str() : "null");
  PrintNotesJson(note_log.Entries());
  std::printf("  \"renderdoc_capture\": %s,\n",
              t.renderdoc_capture.empty() ? "null" : JsonString(t.renderdoc_capture).c_str());
  std::printf("  \"images\": [");
  for (size_t i = 0; i < t.images.size(); ++i) {
    std::printf("%s%s", i ? ", " : "", JsonString(t.images[i]).c_str());
  }
  std::printf("]\n}\n");
}

void PrintText(const ReplayArgs& args, renderer::Session& session, const ReplayTally& t) {
  const renderer::SessionStats stats = session.stats();
  const double dps = t.seconds > 0 ? double(stats.draws) / t.seconds : 0.0;
  std::printf("%s on %s (%s path)\n", args.file.c_str(), session.device_name().c_str(),
              renderer::PathName(session.path()));
  std::printf("frames %" PRIu64 " (%" PRIu64 " written to %s), draws %" PRIu64
              " (%" PRIu64 " skipped), resolves %" PRIu64 ", swaps %" PRIu64 "\n",
              t.frames_seen, t.frames_written, args.out.c_str(), stats.draws, stats.draws_skipped,
              stats.resolves, stats.swaps);
  std::printf("%.3f s: %.2f frames/s, %.1f draws/s\n", t.seconds, t.fps(), dps);
  if (args.validate) std::printf("validation messages: %u\n", session.validation_message_count());
  if (!args.snapshots.empty()) {
    std::printf("snapshots: %" PRIu64 " target image(s) written\n", t.snapshots_written);
  }
  for (const std::string& m : t.memory_dumps) std::printf("memory: %s\n", m.c_str());
  if (!t.renderdoc_capture.empty()) {
    std::printf("renderdoc capture: %s\n  open it with: qrenderdoc %s   (or: renderdoccmd "
                "replay %s)\n", t.renderdoc_capture.c_str(), t.renderdoc_capture.c_str(),
                t.renderdoc_capture.c_str());
  }
  for (auto& [what, count] : session.notes()) {
    std::fprintf(stderr, "note: %s (x%" PRIu64 ")\n", what.c_str(), count);
  }
}

// Nothing written, or frames asked for that the trace does not have: not a success (said on
// stderr).
bool AllFramesWritten(const ReplayArgs& args, const FrameSet& range, const ReplayTally& t) {
  const std::string missing = range.Missing(t.frames_seen);
  if (t.frames_written == 0) {
    std::fprintf(stderr, "xenotrace: error: replay: no image written: no XE_SWAP in the selected "
                         "frames (%s of a trace with %" PRIu64 " frame(s))\n",
                 args.frames.empty() ? "all" : args.frames.c_str(), t.frames_seen);
  } else if (!missing.empty()) {
    std::fprintf(stderr, "xenotrace: error: replay: frame(s) %s not in the trace (it has %" PRIu64
                         ", numbered from 0)\n", missing.c_str(), t.frames_seen);
  }
  return t.frames_written != 0 && missing.empty();
}

// "Render path: fbo (...), fsi (...), cpu (...)" from the session's list.
std::string PathHelp() {
  std::string help = "Render path:";
  for (const renderer::PathInfo& p : renderer::Paths()) {
    help += std::string(&p == &renderer::Paths().front() ? " " : ", ") + p.name + " (" + p.summary + ")";
  }
  return help;
}

// Ends the process with `code` once the outputs are written, skipping the destruction of the
// session: the kernel takes every mapping and the device's memory back with the process anyway
// (on lavapipe the end of a one-frame replay went from 44 to 30 ms; on the NVIDIA driver, whose
// vkDestroyDevice takes 22-28 ms, the release at exit costs as much, docs/speed.md). What a
// destructor would write is written first (the pipeline cache; the post chain, which has its own
// device, is destroyed as usual). Under a sanitizer the full teardown stays, so its leak check
// still sees the session's memory.
// `watched`: the validation layer or RenderDoc looks on, which report at destruction, so the
// teardown stays and `code` is returned.
int EndReplay(bool watched, renderer::Session& session,
              std::unique_ptr<present::PostProcessor> post, int code) {
  if (watched || kSanitized) return code;
  post.reset();
  session.SaveBeforeExit();
  std::fflush(nullptr);
  std::_Exit(code);
}

int RunReplay(const ReplayArgs& args) {
  if (args.list_devices) return ListDevices(args.json);
  if (args.file.empty() || args.out.empty()) return Fail("replay: FILE and -o/--out DIR are required");
  const FrameSet range = args.frames.empty() ? FrameSet{} : FrameSet::Parse(args.frames);
  auto reader = format::Reader::Open(args.file);
  const uint64_t total_frames = reader->totals().frames;
  // A capture that died has no footer: replay what was recovered, but say so.
  WarnIfRecovered("replay", args.file, *reader);
  // --out is created only once there is something to write in it.
  auto out_dir = [&, made = false]() mutable -> const std::string& {
    if (!made) {
      std::error_code ec;
      std::filesystem::create_directories(args.out, ec);
      if (ec) throw Error("-o/--out: cannot create " + args.out + ": " + ec.message());
      made = true;
    }
    return args.out;
  };

  const bool progress = (StderrIsTerminal() && !args.json) || args.progress;
  // RenderDoc first: its layer sees only Vulkan instances created after it is loaded.
  std::unique_ptr<RenderDocOption> renderdoc =
      RenderDocOption::ForReplay(args.renderdoc_capture, args.path, args.out);
  std::unique_ptr<present::PostProcessor> post;
  if (args.post) {
    post = MakePostProcessor(ToPostOptions(args.post_args), args.post_args.cpu, args.device, false,
                             args.debug_labels || renderdoc);
  }
  uint64_t frames_written = 0, frames_seen = 0;
  std::vector<std::string> written;
  if (args.fsi_ordering != "interlock" && *renderer::ParsePath(args.path) != renderer::Path::kFsi) {
    return Fail("replay: --fsi-ordering applies to --path fsi only");
  }
  renderer::SessionOptions options = BaseOptions(args);
  options.on_swap = [&](uint64_t frame, const gpu::SwapImage& image) {
    if (!range.Contains(frame)) return;
    char name[32];
    std::snprintf(name, sizeof(name), "frame_%04" PRIu64 ".png", frame);
    std::string path = (std::filesystem::path(out_dir()) / name).string();
    if (post) {
      present::WritePng(post->Run(present::ToFloatImage(image)).image, path);
    } else {
      present::WritePng(image, path);
    }
    written.push_back(path);
    ++frames_written;
  };
  std::optional<std::pair<uint32_t, uint32_t>> dump_range;
  if (!args.dump_memory.empty()) dump_range = ParseMemoryRange(args.dump_memory);
  replay::GuestMemory* guest = nullptr;  // the player's, once it exists
  renderer::Session* flush_session = nullptr;
  std::vector<std::string> memory_dumps;
  options.on_frame_end = [&](const replay::FrameEndCall& f) {
    frames_seen = f.frame + 1;
    if (dump_range && guest && range.Contains(f.frame)) {
      // Whatever the path still has in flight lands in guest memory first.
      if (flush_session) flush_session->Flush();
      std::vector<uint8_t> bytes(dump_range->second);
      guest->Read(dump_range->first, bytes);
      char name[64];
      std::snprintf(name, sizeof(name), "memory_%04" PRIu64 "_%08X.bin", f.frame, dump_range->first);
      const std::string path = (std::filesystem::path(out_dir()) / name).string();
      std::ofstream(path, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
      memory_dumps.push_back(path);
    }
    if (!progress) return;
    uint64_t goal = range.Last() ? *range.Last() + 1 : total_frames;
    if (goal == 0) goal = 1;
    int width = 30;
    int done = int(std::min<uint64_t>(frames_seen, goal) * uint64_t(width) / goal);
    std::fprintf(stderr, "\r[%.*s%*s] frame %" PRIu64 "/%" PRIu64, done,
                 "##############################", width - done, "", frames_seen, goal);
    std::fflush(stderr);
  };
  // --snapshots: the targets each selected draw wrote, in guest bits decoded to PNG.
  renderer::Session* snapshot_session = nullptr;
  uint64_t snapshots_written = 0;
  if (!args.snapshots.empty()) {
    const compare::SnapshotSelection selection = compare::ParseSnapshotSelection(args.snapshots);
    options.on_draw_event = [&, selection](const renderer::DrawEvent& e) {
      if (!e.after || !selection.Contains(e.draw->frame, e.draw->draw_index)) return;
      if (!range.Contains(e.draw->frame)) return;
      for (const compare::TargetRegion& t : compare::EventTargets(e)) {
        char name[96];
        std::snprintf(name, sizeof(name), "snapshot_%04" PRIu64 ".%u_%s.png", e.draw->frame,
                      e.draw->draw_index, t.name.c_str());
        diff::SavePng((std::filesystem::path(out_dir()) / name).string(),
                      compare::TargetImage(*snapshot_session, t).view());
        ++snapshots_written;
      }
    };
  }
  // On a terminal: progress after every draw (at most 10 times a second) with an ETA from the
  // share of the trace's records applied so far.
  const replay::TracePlayer* progress_player = nullptr;
  const auto progress_start = std::chrono::steady_clock::now();
  auto last_shown = progress_start - std::chrono::seconds(1);  // the first draw is shown
  const double records_total =
      double(reader->totals().submissions + reader->totals().memory_events + total_frames);
  if (progress) {
    options.on_draw_event = [&, inner = options.on_draw_event](const renderer::DrawEvent& e) {
      if (inner) inner(e);
      const auto now = std::chrono::steady_clock::now();
      if (!e.after || !progress_player || now - last_shown < std::chrono::milliseconds(100)) return;
      last_shown = now;
      const double done = std::min(1.0, double(progress_player->records_applied()) /
                                            std::max(1.0, records_total));
      const double elapsed = std::chrono::duration<double>(now - progress_start).count();
      const int width = 30, bar = int(done * width);
      std::fprintf(stderr, "\r[%.*s%*s] draw %s, %3.0f%%, ETA %.0f s   ", bar,
                   "##############################", width - bar, "",
                   DrawAddress(e.draw->frame, e.draw->draw_index).c_str(), done * 100.0,
                   done > 0.01 ? elapsed * (1.0 - done) / done : 0.0);
      std::fflush(stderr);
    };
  }
  renderer::NoteLog note_log;  // --json: each note with the first draw or resolve that counted it
  if (args.json) options.on_draw_event = note_log.Hook(options.on_draw_event, snapshot_session);
  if (renderdoc) renderdoc->Hook(options, snapshot_session, out_dir);
  // The path first: one that cannot run here is refused before anything is written.
  auto session = renderer::Session::Create(options);
  snapshot_session = session.get();
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  guest = &player.memory();
  progress_player = &player;
  flush_session = session.get();
  if (renderdoc) renderdoc->BeforePlay(*session, out_dir);
  auto start = std::chrono::steady_clock::now();
  player.Play(*reader, range.Last());
  session->Flush();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progress) std::fprintf(stderr, "\n");

  const ReplayTally tally{frames_seen,  frames_written, snapshots_written,
                          seconds,      renderdoc ? renderdoc->written() : std::string(),
                          written,      memory_dumps};
  if (args.json) {
    PrintJson(args, *reader, *session, tally, note_log);
  } else {
    PrintText(args, *session, tally);
  }
  const uint32_t validation = session->validation_message_count();
  for (const auto& m : session->validation_messages()) std::fprintf(stderr, "%s\n", m.c_str());
  const bool capture_missing = renderdoc && renderdoc->ReportMissing(frames_seen);
  const bool ok = !validation && !capture_missing && AllFramesWritten(args, range, tally);
  return EndReplay(args.validate || renderdoc, *session, std::move(post),
                   ok ? DamagedExit(*reader, args.allow_damaged) : kExitNo);
}

XNT_COMMAND({"replay",
             "Replay a trace on a render path and write each swapped frame as a PNG",
             30, [](CLI::App& sub) {
               auto args = std::make_shared<ReplayArgs>();
               sub.add_option("FILE", args->file, "Trace (.xnt)")->check(InputFile());
               sub.add_option("-o,--out", args->out,
                              "Directory for frame_NNNN.png (created when the first file is written)");
               sub.add_option("--frames", args->frames,
                              "Frames to write: A-B, A, A- or a list A-B,C (from 0; earlier frames "
                              "are still played, later ones are not)");
               sub.add_flag("--list-devices", args->list_devices,
                            "List the Vulkan devices (index for --device) and exit");
               sub.add_flag("--progress", args->progress,
                            "Per-draw progress with an ETA on stderr even when it is not a terminal "
                            "(on a terminal it is always shown, except with --json)");
               AddAllowDamaged(sub, args->allow_damaged);
               sub.footer("Exit codes: 0 every selected frame written; 1 validation messages, no "
                          "image written, selected frames missing from the trace, or a damaged "
                          "trace (without --allow-damaged); 2 usage or input error.");
               sub.add_option("--path", args->path, PathHelp())
                   ->check(CLI::IsMember(renderer::PathNames()));
               sub.add_option("--fsi-ordering", args->fsi_ordering,
                              "fsi path: interlock (default; VK_EXT_fragment_shader_interlock) or "
                              "unordered (TEST MODE for lavapipe, which has no interlock but "
                              "shades a draw's overlapping fragments in order; wrong on other "
                              "devices; docs/fsi.md)")
                   ->check(CLI::IsMember({"interlock", "unordered"}));
               sub.add_option("--device", args->device, "Vulkan device index (default: first discrete GPU, else first device)");
               sub.add_option("--threads", args->threads,
                              "cpu path: threads for the pixel stage (0 = every core; the images do "
                              "not depend on it)");
               sub.add_flag("--validate", args->validate,
                            "Enable VK_LAYER_KHRONOS_validation; any message makes the exit code 1");
               sub.add_option("--gpu-timeout", args->gpu_timeout,
                              "Longest wait in seconds for the Vulkan device to finish submitted "
                              "work; past it the replay stops with exit code 2 naming the event in "
                              "flight (a hung GPU or driver never hangs the command; 0 = no limit)")
                   ->check(CLI::Range(0.0, 86400.0))
                   ->capture_default_str();
               sub.add_option("--gamma", args->gamma,
                              "k_8_8_8_8_GAMMA targets: exact (PWL gamma encoded in the shader "
                              "before blending; default) or srgb (sRGB host target, linear "
                              "blending, approximate)")
                   ->check(CLI::IsMember({"exact", "srgb"}));
               sub.add_option("--scale", args->scale,
                              "Resolution scale SxT, host pixels per guest pixel (1..3 per axis, "
                              "e.g. 2x2, 1x2, 3x3; default 1x1); every path");
               AddScaledLodOption(sub, args->scaled_lod);
               sub.add_option("--dump-shaders", args->dump_shaders,
                              "Write every translated shader (GLSL + SPIR-V disassembly) here");
               sub.add_option("--snapshots", args->snapshots,
                              "F.K[,F.K...] or all: after those draws (frame.draw, as dump numbers "
                              "them) write the targets they wrote as snapshot_FFFF.K_TARGET.png, "
                              "read from the path's EDRAM in guest bits");
               sub.add_option("--dump-memory", args->dump_memory,
                              "ADDR:SIZE: write that guest memory after each selected frame "
                              "(memory_NNNN_ADDR.bin in --out; e.g. memexport results)");
               sub.add_flag("--json", args->json, "Print the summary as JSON on stdout");
               sub.add_flag("--debug-labels", args->debug_labels,
                            "fbo/fsi: VK_EXT_debug_utils labels (each guest draw as 'draw F.K vs "
                            "HASH ps HASH', resolves, clears, EDRAM transfers, swaps, post "
                            "passes) and object names (render targets, textures, EDRAM and ring "
                            "buffers) for a frame debugger; on by itself with "
                            "--renderdoc-capture; off by default (then nothing is formatted)");
               sub.add_option("--renderdoc-capture", args->renderdoc_capture,
                              "F.K or F: capture the host Vulkan work of event F.K (draw or "
                              "resolve, as dump numbers them) or of frame F with RenderDoc into "
                              "--out as renderdoc_F.K.rdc (librenderdoc.so loaded at run time; "
                              "exit 2 when RenderDoc is not installed; fbo/fsi only)");
               sub.add_flag("--post", args->post,
                            "Apply the presentation chain to every written frame (options as "
                            "`xenotrace post`: --aa, --scaler, --size, --cas-sharpness, "
                            "--fsr-sharpness-reduction, --no-dither, --post-cpu)");
               AddPostOptions(sub, args->post_args, "--post-cpu");
               return [args]() -> int { return RunReplay(*args); };
             }});

}  // namespace
}  // namespace xnt::cli
