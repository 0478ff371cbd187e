// Plays records through TracePlayer on an fbo session (renderer/session.h) on a validating
// lavapipe context and keeps the last swapped image: the path `xenotrace replay` takes, without
// files. Also one ring-buffer submission on any path, keeping the session and player to inspect.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "test_env.h"
#include "xnt/base/error.h"
#include "xnt/base/resolution_scale.h"
#include "xnt/format/reader.h"
#include "xnt/format/records.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"

namespace xnt::vk::test {

// An fbo session on lavapipe with the validation layer (synchronization validation included) on.
inline std::unique_ptr<renderer::Session> MakeLavapipeSession(renderer::SessionOptions options) {
  UseLavapipe();
  options.path = renderer::Path::kFbo;
  options.validate = true;
  options.synchronization_validation = true;
  return renderer::Session::Create(options);
}

inline std::string ValidationReport(const renderer::Session& session) {
  std::string out =
      std::to_string(session.validation_message_count()) + " validation message(s)";
  for (const auto& m : session.validation_messages()) out += "\n  " + m;
  return out;
}

struct ReplayResult {
  gpu::SwapImage last_image;
  uint64_t swaps = 0;
  renderer::SessionStats stats;
  std::map<std::string, uint64_t> notes;
  uint32_t validation_messages = 0;
  std::string validation_report;
};

// `feed` calls its argument once per record, in stream order.
inline ReplayResult ReplayRecords(
    const std::function<void(const std::function<void(const format::Record&)>&)>& feed) {
  ReplayResult result;
  renderer::SessionOptions options;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) {
    result.last_image = image;
    ++result.swaps;
  };
  auto session = MakeLavapipeSession(options);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  feed([&](const format::Record& r) { player.Apply(r); });
  session->Flush();
  result.stats = session->stats();
  result.notes = session->notes();
  result.validation_messages = session->validation_message_count();
  result.validation_report = ValidationReport(*session);
  return result;
}

// A session and its attached player after PlayOnPath, for the test to read guest memory, stats
// and notes from.
struct PathReplay {
  std::unique_ptr<renderer::Session> session;
  std::unique_ptr<replay::TracePlayer> player;
};

// Plays `memory` then one ring-buffer submission of `ring` on `path` and flushes: fbo on a
// validating lavapipe (MakeLavapipeSession), fsi on a validating lavapipe without interlock
// (fsi_unordered: lavapipe has none, docs/fsi.md), cpu with no device.
inline PathReplay PlayOnPath(renderer::Path path, std::vector<uint32_t> ring,
                             const std::vector<format::MemoryEvent>& memory = {}) {
  PathReplay run;
  renderer::SessionOptions options;
  if (path == renderer::Path::kFbo) {
    run.session = MakeLavapipeSession(options);
  } else {
    if (path == renderer::Path::kFsi) {
      UseLavapipe();
      options.validate = true;
      options.fsi_unordered = true;
    }
    options.path = path;
    run.session = renderer::Session::Create(options);
  }
  run.player = std::make_unique<replay::TracePlayer>(run.session->backend());
  run.session->Attach(*run.player);
  for (const format::MemoryEvent& event : memory) run.player->Apply(event);
  run.player->Apply(format::Submission{format::SubmissionKind::kRingBuffer, 0x80000, std::move(ring)});
  run.session->Flush();
  return run;
}

// An fsi session on lavapipe with validation: interlock when the device has it, else the named
// `unordered` test mode (lavapipe has no interlock; docs/fsi.md says why it is valid there).
inline std::unique_ptr<renderer::Session> MakeFsiTestSession(renderer::SessionOptions options,
                                                             bool synchronization_validation) {
  UseLavapipe();
  options.path = renderer::Path::kFsi;
  options.validate = true;
  options.synchronization_validation = synchronization_validation;
  try {
    return renderer::Session::Create(options);
  } catch (const Error& e) {
    if (std::string(e.what()).find("VK_EXT_fragment_shader_interlock") == std::string::npos) throw;
  }
  options.fsi_unordered = true;
  return renderer::Session::Create(options);
}

// What one replay of a trace file left: every swapped frame, the whole EDRAM, counters, notes.
struct TraceRun {
  std::vector<gpu::SwapImage> frames;
  std::vector<uint8_t> edram;
  renderer::SessionStats stats;
  std::map<std::string, uint64_t> notes;
  uint32_t validation_messages = 0;
  std::string validation_report;
  std::string device;
};

// Replays a trace file on `path` at scale x scale with one cpu thread: fsi through
// MakeFsiTestSession, fbo with validation on lavapipe, cpu with no device.
inline TraceRun ReplayTraceFile(const std::string& file, renderer::Path path, ResolutionScale scale,
                                bool synchronization_validation,
                                const vk::fsi::FsiOptions& fsi = {}) {
  TraceRun run;
  renderer::SessionOptions options;
  options.path = path;
  options.fsi = fsi;
  options.threads = 1;
  options.renderer.scale_x = scale.x;
  options.renderer.scale_y = scale.y;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { run.frames.push_back(image); };
  std::unique_ptr<renderer::Session> session;
  if (path == renderer::Path::kFsi) {
    session = MakeFsiTestSession(options, synchronization_validation);
  } else {
    if (path != renderer::Path::kCpu) {
      UseLavapipe();
      options.validate = true;
      options.synchronization_validation = synchronization_validation;
    }
    session = renderer::Session::Create(options);
  }
  run.device = session->device_name();
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Play(*format::Reader::Open(file));
  session->Flush();
  const std::span<const uint8_t> edram = session->SnapshotEdram({}, 0).bytes();
  run.edram.assign(edram.begin(), edram.end());
  run.stats = session->stats();
  run.notes = session->notes();
  run.validation_messages = session->validation_message_count();
  run.validation_report = ValidationReport(*session);
  return run;
}
inline TraceRun ReplayTraceFile(const std::string& file, renderer::Path path, uint32_t scale,
                                bool synchronization_validation,
                                const vk::fsi::FsiOptions& fsi = {}) {
  return ReplayTraceFile(file, path, ResolutionScale{scale, scale}, synchronization_validation, fsi);
}

}  // namespace xnt::vk::test
