// `replay --renderdoc-capture F.K|F`: the host work of one guest event (draw or resolve F.K, as
// `xenotrace dump` numbers them) or of one whole frame F written as a RenderDoc capture in --out
// (renderdoc_F.K.rdc / renderdoc_F.rdc), through renderer/renderdoc_capture.h. The session is
// flushed before the capture starts and before it ends, so the capture holds that event's or
// frame's submissions and no neighbour's; debug labels are on, so the capture's event list reads
// as the guest's ("draw F.K vs HASH ps HASH", "resolve F.K ...").
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "xnt/base/error.h"
#include "xnt/base/selection.h"
#include "xnt/renderer/renderdoc_capture.h"
#include "xnt/renderer/session.h"

namespace xnt::cli {

class RenderDocOption {
 public:
  // Parses `target` (throws a usage Error) and loads RenderDoc (throws when it is not available);
  // before any Vulkan instance exists (renderdoc_capture.h).
  RenderDocOption(const std::string& target, const std::filesystem::path& out_dir)
      : out_dir_(out_dir) {
    if (auto event = ParseDrawAddress(target)) {
      frame_ = event->frame;
      event_ = event->draw;
    } else if (!target.empty() && target.size() <= 12 &&
               target.find_first_not_of("0123456789") == std::string::npos) {
      frame_ = std::stoull(target);
    } else {
      throw Error("--renderdoc-capture: '" + target + "' is neither F.K (frame.event, as dump "
                  "numbers draws and resolves) nor F (a frame number); both count from 0");
    }
    name_ = target;
    api_ = renderer::RenderDocCapture::Load(
        (std::filesystem::absolute(out_dir_) / ("renderdoc_" + name_)).string());
  }

  // For `replay --renderdoc-capture TARGET --path PATH [--validate]`: null without a target;
  // throws a usage Error for a path that makes no Vulkan calls. With --validate the validation
  // layer runs below RenderDoc's, and the shared-memory mirror is bound whole (SharedMemory: the
  // layer's core checks crash in the sparse binding RenderDoc passes down).
  static std::unique_ptr<RenderDocOption> ForReplay(const std::string& target,
                                                    const std::string& path,
                                                    const std::filesystem::path& out_dir) {
    if (target.empty()) return nullptr;
    if (!renderer::Info(*renderer::ParsePath(path)).needs_device) {
      throw Error("replay: --renderdoc-capture captures Vulkan work: use --path fbo or fsi (the " +
                  path + " path makes no host GPU calls)");
    }
    return std::make_unique<RenderDocOption>(target, out_dir);
  }

  // Adds the capture to `options`' hooks; `session` is read when they run (set it once the
  // session exists) and `out_dir` creates --out.
  template <class MakeOutDir>
  void Hook(renderer::SessionOptions& options, renderer::Session* const& session,
            MakeOutDir out_dir) {
    if (event_) {
      options.on_draw_event = [this, &session, out_dir, inner = options.on_draw_event](
                                  const renderer::DrawEvent& e) mutable {
        if (inner) inner(e);
        if (e.draw->frame != frame_ || e.draw->draw_index != *event_) return;
        out_dir();
        if (!e.after) Begin(*session, (e.resolve ? "resolve " : "draw ") + name_);
        if (e.after) Finish(*session);
      };
    } else {
      options.on_frame_end = [this, &session, out_dir, inner = options.on_frame_end](
                                 const replay::FrameEndCall& f) mutable {
        if (inner) inner(f);
        if (f.frame == frame_) Finish(*session);
        if (frame_ > 0 && f.frame + 1 == frame_) {
          out_dir();
          Begin(*session, "frame " + name_);
        }
      };
    }
  }
  // Before the player starts: frame 0's capture begins here.
  template <class MakeOutDir>
  void BeforePlay(renderer::Session& session, MakeOutDir out_dir) {
    if (event_ || frame_ != 0) return;
    out_dir();
    Begin(session, "frame 0");
  }

  // The capture written; empty when the event or frame never came.
  const std::string& written() const { return written_; }
  // True, with an error on stderr, when no capture was written (the event or frame was not in
  // the trace, or the trace ended inside the frame).
  bool ReportMissing(uint64_t frames_seen) const {
    if (!written_.empty()) return false;
    std::fprintf(stderr, "xenotrace: error: replay: --renderdoc-capture: %s %s was not reached, "
                         "no capture written (the trace has %llu frame(s))\n",
                 event_ ? "event" : "frame", name_.c_str(), (unsigned long long)frames_seen);
    return true;
  }

 private:
  void Begin(renderer::Session& session, const std::string& title) {
    session.Flush();  // earlier events' work stays out of the capture
    api_->Start(session.frame_debugger_device(), "xenotrace " + title);
    capturing_ = true;
  }
  void Finish(renderer::Session& session) {
    if (!capturing_) return;
    session.Flush();
    capturing_ = false;
    const std::filesystem::path made = api_->End();
    // RenderDoc appends its own frame counter to the template; the name the user asked for.
    const std::filesystem::path wanted = out_dir_ / ("renderdoc_" + name_ + ".rdc");
    std::error_code ec;
    std::filesystem::rename(made, wanted, ec);
    written_ = (ec ? made : wanted).string();
  }

  std::filesystem::path out_dir_;
  uint64_t frame_ = 0;
  std::optional<uint32_t> event_;
  std::string name_;
  std::unique_ptr<renderer::RenderDocCapture> api_;
  bool capturing_ = false;
  std::string written_;
};

}  // namespace xnt::cli
