// Plays records through TracePlayer on an fbo session (renderer/session.h) on a validating
// lavapipe context and keeps the last swapped image: the path `xenotrace replay` takes, without
// files.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "test_env.h"
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

}  // namespace xnt::vk::test
