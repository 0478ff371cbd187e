// One way to make a render path: {path, device, options} -> a replay::Backend attached to a trace
// player. `xenotrace replay`, `transfers`, the tests (and `compare` later) build every backend
// here, so a new path is a new case in session.cpp and a new folder, not a change to each caller.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xnt/gpu/edram.h"
#include "xnt/gpu/edram_tracker.h"
#include "xnt/gpu/front_buffer.h"
#include "xnt/gpu/path_stats.h"
#include "xnt/gpu/renderer_options.h"
#include "xnt/replay/backend.h"
#include "xnt/vk/fsi/fsi_options.h"

namespace xnt::replay {
class TracePlayer;
}

namespace xnt::renderer {

enum class Path : uint8_t {
  kFbo,  // Vulkan, host render targets + the EDRAM render-target cache (renderer/vulkan/fbo)
  kFsi,  // Vulkan, EDRAM as a storage buffer with fragment shader interlock (renderer/vulkan/fsi)
  kCpu,  // the whole pipeline on the CPU (renderer/cpu)
};

// What Session::Create can make, as commands list and check it: a new path is a row of Paths()
// and a case in Session::Create (session.cpp), and no command changes.
struct PathInfo {
  Path path;
  const char* name;     // "fbo", "fsi", "cpu": --path / --paths / compare's "NAME@SxT"
  const char* summary;  // one line for --help
  bool needs_device;    // runs on a Vulkan device (false: on any machine)
  bool built;           // this build can make it (Vulkan paths need XNT_VULKAN)
  bool transfers;       // Session::edram() logs EDRAM ownership transfers (`xenotrace transfers`)
  bool compiles_shaders;  // translates guest shaders to SPIR-V (the on-disk shader cache applies)
  bool compared_by_default;  // in `xenotrace compare`'s default --paths
};
// Every path, in the order commands list them (the default --path first).
const std::vector<PathInfo>& Paths();
const PathInfo& Info(Path path);
const char* PathName(Path path);
std::optional<Path> ParsePath(std::string_view name);
// The names of the paths `keep` accepts (every path without it), for command-line validation.
std::vector<std::string> PathNames(bool (*keep)(const PathInfo&) = nullptr);
// "fbo, fsi, cpu" (the names PathNames gives, joined with `separator`).
std::string JoinPathNames(bool (*keep)(const PathInfo&) = nullptr, const char* separator = ", ");

// One draw or resolve as the session hands it to the path: seen once before and once after the
// path ran it (compare's bisection snapshots the bound targets there; replay --snapshots too).
struct DrawEvent {
  const replay::DrawCall* draw = nullptr;        // valid during the call only
  const replay::ResolveCall* resolve = nullptr;  // set for a resolve (draw is &resolve->draw)
  bool after = false;                            // false: before the path ran it
};

// Draw F.K (frame, draw index as `xenotrace dump` numbers them).
struct DrawId {
  uint64_t frame = 0;
  uint32_t draw = 0;
  bool operator==(const DrawId&) const = default;
};

struct SessionOptions {
  Path path = Path::kFbo;
  // Vulkan paths: index into the instance's device list (-1: first discrete GPU, else first).
  int device_index = -1;
  // Vulkan paths: VK_LAYER_KHRONOS_validation on, messages counted (and printed when asked).
  bool validate = false;
  bool print_validation = false;
  // With validate: the layer's synchronization validation too (vk::ContextOptions).
  bool synchronization_validation = false;
  // Vulkan paths: the longest wait for the device's work, ms; past it the replay fails with an
  // error naming the event in flight instead of waiting forever (vk::ContextOptions; 0: none).
  uint32_t gpu_timeout_ms = 60000;
  // Vulkan paths: GPU time split by stage (Session::gpu_stage_seconds; vk::ContextOptions).
  bool gpu_stage_timestamps = false;
  // Vulkan paths: the host upload ring's size at start in bytes (0: the default;
  // vk::ContextOptions::initial_ring_bytes).
  uint64_t initial_ring_bytes = 0;
  // Vulkan paths: the device of an ended session of the same kind, with the pipelines it made,
  // and this one's device kept for the next when it ends (vk::VulkanContext::Take / Keep). Off:
  // a device of its own, destroyed with the session (bench replay: a case's cold replay then
  // costs what it costs a new process).
  bool keep_device = true;
  // fbo path: names the list of draw pipelines this session asks for, kept in the shader cache
  // folder per device (vk/draw_pipeline_list.h); a later session with the same id makes that
  // list's pipelines on worker threads from its start, before its draws ask for them. Empty (or
  // no cache folder): no list. `replay` sets it from the trace's bytes and the frames replayed.
  std::string pipeline_list_id;
  // Vulkan paths: VK_EXT_debug_utils labels (each guest draw "draw F.K vs HASH ps HASH",
  // resolves, swaps, clears, EDRAM transfers) and object names (render targets, textures, the
  // EDRAM buffer, the ring) for a frame debugger, where the instance offers the extension
  // (vk::ContextOptions::debug_labels); off, nothing is formatted or called.
  bool debug_labels = false;
  // fsi path: its output merger runs under VK_EXT_fragment_shader_interlock (a device without it
  // is refused). `fsi_unordered` is the named test mode that runs the same shaders with no
  // interlock, for lavapipe, whose rasterizer shades one draw's overlapping fragments in
  // primitive order by itself (docs/fsi.md); never correct in general.
  bool fsi_unordered = false;
  // fsi path: its own choices (late depth/stencil, the derivative polygon offset slope).
  vk::fsi::FsiOptions fsi;
  gpu::RendererOptions renderer;
  // cpu path: pixel-stage threads (0 = every core); the images do not depend on it.
  uint32_t threads = 0;
  // When set, every translated shader is written there once (GLSL and SPIR-V disassembly).
  std::string dump_shaders_dir;
  // The front buffer at every XE_SWAP, with the frame it belongs to.
  std::function<void(uint64_t frame, const gpu::SwapImage&)> on_swap;
  // The end of every frame (progress reporting, per-frame counters), after the path's own work.
  std::function<void(const replay::FrameEndCall&)> on_frame_end;
  // Every draw and resolve, before and after the path runs it (Session::SnapshotEdram may be
  // called from it). Unset: the path's backend is handed to the player directly.
  std::function<void(const DrawEvent&)> on_draw_event;
  // TEST HOOK, off by default, no command-line option sets it outside compare's --test-fault:
  // the path is not handed draw F.K at all (as if the path had lost it), so tests can check that
  // compare's bisection names exactly that draw. Never set it for a real replay.
  std::optional<DrawId> test_fault_skip_draw;
  // TEST HOOK, the same kind: resolve F.K is handed to the path with another destination format
  // in RB_COPY_DEST_INFO (k_8_8_8_8 becomes k_2_10_10_10, any other k_8_8_8_8), as if the path
  // had resolved with a wrong format: the EDRAM is untouched, only the resolved bytes differ.
  std::optional<DrawId> test_fault_resolve_format;
};

// The four counters every path keeps (a Vulkan path's skipped draws include its backend's).
using SessionStats = gpu::PathStats;

class Session {
 public:
  // Throws xnt::Error naming what cannot be done: a path that is not implemented, a scale the
  // path does not support, no Vulkan device.
  static std::unique_ptr<Session> Create(const SessionOptions& options);
  virtual ~Session() = default;

  virtual Path path() const = 0;
  virtual replay::Backend& backend() = 0;
  // Connects the backend to the player's guest memory (resolves write into it) and register file.
  virtual void Attach(replay::TracePlayer& player) = 0;
  // Finishes pending work (submits and waits on a GPU path).
  virtual void Flush() = 0;

  virtual std::string device_name() const = 0;
  virtual SessionStats stats() const = 0;
  // Things the path could not do exactly, with counts ("draw skipped: ...": 3).
  virtual std::map<std::string, uint64_t> notes() const = 0;
  // GPU time of the session's submissions so far (timestamp queries, command_stream.h), seconds;
  // negative where the path has no GPU (0 where the queue writes no timestamps).
  virtual double gpu_seconds() const { return -1.0; }
  // With SessionOptions::gpu_stage_timestamps on a Vulkan path: gpu_seconds() split into the
  // upload buffer ahead of each submission, resolves and swaps, and the rest (the draws); else
  // nullopt.
  struct GpuStages {
    double uploads = 0.0, draws = 0.0, resolves = 0.0;
  };
  virtual std::optional<GpuStages> gpu_stage_seconds() const { return std::nullopt; }
  // A Vulkan path's submissions so far (each waits for the device), how many of them a full
  // upload ring forced, the most ring data one submission held and the ring's size now; nullopt
  // on the cpu path.
  struct Submissions {
    uint64_t submissions = 0, ring_fills = 0, peak_ring_bytes = 0, ring_bytes = 0;
  };
  virtual std::optional<Submissions> submission_stats() const { return std::nullopt; }
  // fbo: draw pipelines made on worker threads from the trace's list (SessionOptions::
  // pipeline_list_id) that the device did not keep already; nullopt on the other paths.
  virtual std::optional<uint64_t> pipelines_made_ahead() const { return std::nullopt; }
  // The path's Vulkan instance as a frame debugger's in-application API names a device (for
  // RenderDocCapture::Start when another device, e.g. --post's, exists); null without Vulkan.
  virtual void* frame_debugger_device() const { return nullptr; }
  virtual uint32_t validation_message_count() const { return 0; }
  virtual std::vector<std::string> validation_messages() const { return {}; }
  // The guest bits of the EDRAM tiles covering pixel rows [0, rows) of `surface` as the path
  // holds them now (fbo: every host render target owning those tiles stored back into its EDRAM
  // model, synchronously; cpu: its EDRAM as it is). Read them in guest layout; other tiles of the
  // returned model may be stale. Ownership does not change.
  virtual const gpu::edram::Edram& SnapshotEdram(const gpu::edram::Surface& surface,
                                                 uint32_t rows) = 0;
  // The EDRAM ownership tracker and transfer log; nullptr for a path without one.
  virtual gpu::EdramTracker* edram() { return nullptr; }
  // For a program that ends its process right after, without destroying the session: finishes
  // the device's work and writes what the destructor would write (a Vulkan path's pipeline
  // cache), so only the teardown itself is skipped. Nothing to do on the cpu path.
  virtual void SaveBeforeExit() {}
};

}  // namespace xnt::renderer
