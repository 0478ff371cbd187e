// Render-path sessions (see session.h).
#include "xnt/renderer/session.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <thread>
#include <utility>

#include "draw_event_backend.h"
#include "xnt/base/error.h"
#include "xnt/base/resolution_scale.h"
#include "xnt/cpu/cpu_backend.h"
#include "xnt/replay/trace_player.h"

#ifndef XNT_HAVE_VULKAN
#define XNT_HAVE_VULKAN 0
#endif
#if XNT_HAVE_VULKAN
#include "xnt/vk/draw_pipeline_list.h"
#include "xnt/vk/fbo/fbo_backend.h"
#include "xnt/vk/fsi/fsi_backend.h"
#include "xnt/vk/vulkan_context.h"
#endif

namespace xnt::renderer {

const std::vector<PathInfo>& Paths() {
  constexpr bool kVulkan = XNT_HAVE_VULKAN;
  // fsi keeps the EDRAM in one storage buffer: no ownership moves between host targets, so it has
  // no transfer log worth showing; and it needs fragment shader interlock (lavapipe only runs it
  // in a named test mode), so compare leaves it out unless asked.
  static const std::vector<PathInfo> paths = {
      {Path::kFbo, "fbo", "Vulkan host render targets; default", true, kVulkan, true, true, true},
      {Path::kFsi, "fsi", "Vulkan, EDRAM as a storage buffer, needs fragment shader interlock; docs/fsi.md",
       true, kVulkan, false, true, false},
      {Path::kCpu, "cpu", "the pipeline on the CPU, no GPU needed; docs/cpu.md", false, true, true,
       false, true},
  };
  return paths;
}

const PathInfo& Info(Path path) {
  for (const PathInfo& p : Paths()) {
    if (p.path == path) return p;
  }
  throw Error("render path " + std::to_string(int(path)) + " is not in Paths()");
}

const char* PathName(Path path) { return Info(path).name; }

std::optional<Path> ParsePath(std::string_view name) {
  for (const PathInfo& p : Paths()) {
    if (name == p.name) return p.path;
  }
  return std::nullopt;
}

std::vector<std::string> PathNames(bool (*keep)(const PathInfo&)) {
  std::vector<std::string> names;
  for (const PathInfo& p : Paths()) {
    if (!keep || keep(p)) names.push_back(p.name);
  }
  return names;
}

std::string JoinPathNames(bool (*keep)(const PathInfo&), const char* separator) {
  std::string joined;
  for (const std::string& name : PathNames(keep)) joined += (joined.empty() ? "" : separator) + name;
  return joined;
}

namespace {

// The draw-event wrapper, only when something asked for it (a replay without hooks pays nothing).
std::unique_ptr<DrawEventBackend> MakeHooks(replay::Backend& inner, const SessionOptions& options) {
  if (!options.on_draw_event && !options.test_fault_skip_draw &&
      !options.test_fault_resolve_format) {
    return nullptr;
  }
  return std::make_unique<DrawEventBackend>(inner, options.on_draw_event,
                                            options.test_fault_skip_draw,
                                            options.test_fault_resolve_format);
}

// What every path's session does alike: the draw-event wrapper over its backend when asked for,
// and the player's memory and registers handed to the backend.
template <class B>
class BackendSession : public Session {
 public:
  replay::Backend& backend() override {
    if (hooks_) return *hooks_;
    return *backend_;
  }
  void Attach(replay::TracePlayer& player) override {
    backend_->Attach(&player.memory(), &player.registers());
  }
  std::map<std::string, uint64_t> notes() const override { return backend_->notes(); }

 protected:
  void SetBackend(std::unique_ptr<B> backend, const SessionOptions& options) {
    backend_ = std::move(backend);
    hooks_ = MakeHooks(*backend_, options);
  }

  std::unique_ptr<B> backend_;
  std::unique_ptr<DrawEventBackend> hooks_;
};

// The cpu path: no device at all.
class CpuSession final : public BackendSession<cpu::CpuBackend> {
 public:
  explicit CpuSession(const SessionOptions& options) {
    cpu::CpuBackendOptions backend_options;
    backend_options.on_swap = options.on_swap;
    backend_options.on_frame_end = options.on_frame_end;
    backend_options.threads = options.threads;
    backend_options.scale_x = options.renderer.scale_x;
    backend_options.scale_y = options.renderer.scale_y;
    backend_options.derivatives = options.renderer.derivatives;
    threads_ = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    SetBackend(std::make_unique<cpu::CpuBackend>(backend_options), options);
  }
  Path path() const override { return Path::kCpu; }
  void Flush() override {}
  std::string device_name() const override {
    return "CPU (interpreter, " + std::to_string(threads_) + " thread" + (threads_ == 1 ? ")" : "s)");
  }
  SessionStats stats() const override {
    const cpu::CpuStats& s = backend_->stats();
    return {s.draws, s.draws_skipped, s.resolves, s.swaps};
  }
  gpu::EdramTracker* edram() override { return &backend_->tracker(); }
  // The cpu path's EDRAM is guest bits already.
  const gpu::edram::Edram& SnapshotEdram(const gpu::edram::Surface&, uint32_t) override {
    return backend_->edram();
  }

 private:
  uint32_t threads_ = 1;
};

#if XNT_HAVE_VULKAN
// The Vulkan paths (fbo, fsi): a Vulkan context made first and a backend with a renderer over it.
template <class B>
class VulkanSession : public BackendSession<B> {
 public:
  // The backend's Vulkan objects are destroyed before the context that created them, which then
  // goes to the process's next session of its kind with the pipelines it keeps
  // (VulkanContext::Keep: not a hung one).
  ~VulkanSession() override {
    this->hooks_.reset();
    this->backend_.reset();
    if (keep_device_) vk::VulkanContext::Keep(std::move(context_));
  }
  void Flush() override { this->backend_->renderer().Flush(); }
  SessionStats stats() const override {
    const auto& s = this->backend_->renderer().stats();
    return {s.draws, s.draws_skipped + this->backend_->draws_skipped(), s.resolves, s.swaps};
  }
  uint32_t validation_message_count() const override {
    return context_->validation_message_count();
  }
  double gpu_seconds() const override { return context_->gpu_seconds(); }
  std::optional<Session::GpuStages> gpu_stage_seconds() const override {
    if (!context_->gpu_stage_timestamps()) return std::nullopt;
    const vk::GpuStageSeconds& s = context_->gpu_stage_seconds();
    return Session::GpuStages{s.uploads, s.draws, s.resolves};
  }
  void* frame_debugger_device() const override {
    // What a VkInstance handle points to: its loader dispatch table (renderdoc_app.h's
    // RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE).
    return *reinterpret_cast<void* const*>(context_->instance());
  }
  std::vector<std::string> validation_messages() const override {
    return context_->validation_messages();
  }
  std::optional<Session::Submissions> submission_stats() const override {
    const vk::CommandStream& s = this->backend_->renderer().command_stream();
    return Session::Submissions{s.submitted(), s.ring_fills(), s.peak_ring_used(), s.ring_size()};
  }
  void SaveBeforeExit() override {
    this->backend_->renderer().textures().FinishStartupCompile();
    context_->SaveBeforeExit();
  }

 protected:
  explicit VulkanSession(const SessionOptions& options) {
    vk::ContextOptions context_options;
    context_options.device_index = options.device_index;
    context_options.validate = options.validate;
    context_options.debug_labels = options.debug_labels;
    context_options.print_validation = options.print_validation;
    context_options.synchronization_validation = options.synchronization_validation;
    context_options.gpu_timeout_ms = options.gpu_timeout_ms;
    context_options.gpu_stage_timestamps = options.gpu_stage_timestamps;
    context_options.initial_ring_bytes = options.initial_ring_bytes;
    keep_device_ = options.keep_device;
    context_ = keep_device_ ? vk::VulkanContext::Take(context_options)
                            : std::make_unique<vk::VulkanContext>(context_options);
  }

  std::unique_ptr<vk::VulkanContext> context_;
  bool keep_device_ = true;
};

// The fbo path: the FboBackend, colour and depth in host render targets.
class FboSession final : public VulkanSession<vk::FboBackend> {
 public:
  explicit FboSession(const SessionOptions& options) : VulkanSession(options) {
    vk::FboBackendOptions backend_options;
    backend_options.dump_shaders_dir = options.dump_shaders_dir;
    backend_options.renderer = options.renderer;
    backend_options.on_swap = options.on_swap;
    // The transfer log's frame numbers follow the trace's frames.
    backend_options.on_frame_end = [this, user = options.on_frame_end](
                                       const replay::FrameEndCall& f) {
      backend_->renderer().edram().set_frame(f.frame + 1);
      if (user) user(f);
    };
    // The device watchdog's message names the path from the renderer's set-up work on.
    context_->SetEventInFlight("fbo", nullptr, 0, 0);
    SetBackend(std::make_unique<vk::FboBackend>(*context_, backend_options), options);
    // The draw pipelines the last replay of this trace made, made again on worker threads now,
    // while the replay opens the trace and translates its shaders (draw_pipeline_list.h) - on a
    // driver whose pipeline cache file came back with no pipelines in it (lavapipe). One that
    // keeps them (NVIDIA: 0.2-0.4 ms a pipeline from it) would only pay for the workers' cache
    // copies.
    list_path_ = vk::DrawPipelineListPath(*context_, options.pipeline_list_id);
    if (auto list = vk::LoadDrawPipelineList(list_path_)) {
      loaded_list_ = std::move(*list);  // also what SavePipelineList compares with
      if (context_->pipeline_cache_loaded_pipeline_bytes() == 0) {
        backend_->renderer().pipelines().MakeAhead(loaded_list_);
      }
    }
  }
  ~FboSession() override {
    try {
      SavePipelineList();
    } catch (...) {
      // A list not written is a slower next start, never an error of this replay.
    }
  }
  void SaveBeforeExit() override {
    SavePipelineList();
    VulkanSession::SaveBeforeExit();
  }

  Path path() const override { return Path::kFbo; }
  std::string device_name() const override { return context_->capabilities().device_name; }
  gpu::EdramTracker* edram() override { return &backend_->renderer().edram().tracker(); }
  std::optional<uint64_t> pipelines_made_ahead() const override {
    return backend_->renderer().pipelines().made_ahead();
  }
  // The host render targets owning those tiles store their data back into the EDRAM model (the
  // path the resolves take).
  const gpu::edram::Edram& SnapshotEdram(const gpu::edram::Surface& surface,
                                         uint32_t rows) override {
    return backend_->renderer().edram().Snapshot(surface, rows);
  }

 private:
  // Once: the workers joined (their caches folded in before the device's cache is saved), then
  // the pipelines this replay asked for written as the trace's list, unless the file has them.
  void SavePipelineList() {
    if (list_saved_) return;
    list_saved_ = true;
    vk::PipelineCache& pipelines = backend_->renderer().pipelines();
    pipelines.FinishAhead();
    if (list_path_.empty()) return;
    const vk::DrawPipelineList used = pipelines.UsedList();
    if (!used.pipelines.empty() && !(used == loaded_list_)) {
      vk::SaveDrawPipelineList(list_path_, used);
    }
  }

  std::string list_path_;  // empty: no list (no id or no cache folder)
  vk::DrawPipelineList loaded_list_;
  bool list_saved_ = false;
};

// The fsi path: the FsiBackend (renderer/vulkan/fsi), the EDRAM in one storage buffer.
class FsiSession final : public VulkanSession<vk::fsi::FsiBackend> {
 public:
  explicit FsiSession(const SessionOptions& options) : VulkanSession(options) {
    vk::fsi::FsiBackendOptions backend_options;
    backend_options.ordering =
        options.fsi_unordered ? vk::fsi::FsiOrdering::kUnordered : vk::fsi::FsiOrdering::kInterlock;
    backend_options.fsi = options.fsi;
    late_depth_ = options.fsi.late_depth;
    backend_options.dump_shaders_dir = options.dump_shaders_dir;
    backend_options.renderer = options.renderer;
    backend_options.on_swap = options.on_swap;
    backend_options.on_frame_end = options.on_frame_end;
    context_->SetEventInFlight("fsi", nullptr, 0, 0);
    SetBackend(std::make_unique<vk::fsi::FsiBackend>(*context_, backend_options), options);
  }

  Path path() const override { return Path::kFsi; }
  std::string device_name() const override {
    return context_->capabilities().device_name + " (fsi, " +
           vk::fsi::FsiOrderingName(backend_->renderer().ordering()) +
           (late_depth_ ? ", late depth forced" : "") + ")";
  }
  gpu::EdramTracker* edram() override { return &backend_->renderer().tracker(); }
  // The EDRAM buffer read back: guest bits already.
  const gpu::edram::Edram& SnapshotEdram(const gpu::edram::Surface&, uint32_t) override {
    return backend_->renderer().Snapshot();
  }

 private:
  bool late_depth_ = false;
};
#endif

}  // namespace

std::unique_ptr<Session> Session::Create(const SessionOptions& options) {
  CheckResolutionScale({options.renderer.scale_x, options.renderer.scale_y});
  switch (options.path) {
    case Path::kFbo:
#if XNT_HAVE_VULKAN
      return std::make_unique<FboSession>(options);
#else
      throw Error("--path fbo: this build has no Vulkan renderer (configure with -DXNT_VULKAN=ON)");
#endif
    case Path::kCpu:
      if (!options.dump_shaders_dir.empty()) {
        throw Error("--dump-shaders: the cpu path translates no shaders (it interprets them)");
      }
      return std::make_unique<CpuSession>(options);
    case Path::kFsi:
#if XNT_HAVE_VULKAN
      return std::make_unique<FsiSession>(options);
#else
      throw Error("--path fsi: this build has no Vulkan renderer (configure with -DXNT_VULKAN=ON)");
#endif
  }
  throw Error(std::string("--path ") + PathName(options.path) + ": unknown path");
}

}  // namespace xnt::renderer
