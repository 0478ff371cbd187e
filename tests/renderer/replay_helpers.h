// Plays records through TracePlayer + VulkanBackend on a validating lavapipe context and keeps
// the last swapped image: the path `xenotrace replay` takes, without files.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "test_env.h"
#include "xnt/format/records.h"
#include "xnt/replay/trace_player.h"
#include "xnt/vk/vulkan_backend.h"

namespace xnt::vk::test {

struct ReplayResult {
  SwapImage last_image;
  uint64_t swaps = 0;
  RendererStats stats;
  std::map<std::string, uint64_t> notes;
  uint32_t validation_messages = 0;
  std::string validation_report;
};

// `feed` calls its argument once per record, in stream order.
inline ReplayResult ReplayRecords(
    const std::function<void(const std::function<void(const format::Record&)>&)>& feed) {
  auto ctx = MakeLavapipeContext();
  ReplayResult result;
  VulkanBackendOptions options;
  options.on_swap = [&](uint64_t, const SwapImage& image) {
    result.last_image = image;
    ++result.swaps;
  };
  VulkanBackend backend(*ctx, options);
  replay::TracePlayer player(backend);
  backend.Attach(&player.memory(), &player.registers());
  feed([&](const format::Record& r) { player.Apply(r); });
  backend.renderer().Flush();
  result.stats = backend.renderer().stats();
  result.notes = backend.notes();
  result.validation_messages = ctx->validation_message_count();
  result.validation_report = ValidationReport(*ctx);
  return result;
}

}  // namespace xnt::vk::test
