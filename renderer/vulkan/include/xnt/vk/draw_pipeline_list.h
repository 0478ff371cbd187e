// The draw pipelines one replay of a trace asked for, kept on disk so that the next replay of the
// same trace on the same device makes them on worker threads from its start, before its draws
// ask (PipelineCache::MakeAhead). A driver whose VkPipelineCache keeps no machine code (lavapipe)
// compiles every pipeline again in every process, one after another on the replay thread, and a
// one-frame replay is mostly that; with the list, as many compile at once as there are cores,
// while the replay thread opens the trace and translates its shaders. Emulators keep such lists
// per title for the same reason (Xenia's pipeline storage, Dolphin's UID cache); a trace is the
// unit here.
//
// File: [magic "XNTVKDL1"][u32 layout version][u32 sizeof(PipelineKey)][u64 payload size]
// [u64 XXH3-64 of the payload][payload]; payload: u32 module count, each module u32 word count
// and its SPIR-V words; u32 pipeline count, each u32 vertex / pixel / quad module index
// (0xFFFFFFFF: none) and the PipelineKey's bytes with its module handles zeroed. A file that does
// not check out (magic, version, key size, sizes, hash, an index past the table, SPIR-V without
// its magic number, a count past the limits) is ignored: nothing is made ahead, and the list is
// written anew when the replay ends. The name holds the trace's id and the device's
// (pipeline_cache_file.h), since a key holds host formats the device chose.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xnt/vk/pipeline_cache.h"

namespace xnt::vk {

class VulkanContext;

// A pipeline key with its modules as indices into the list's module table.
struct StoredDrawPipeline {
  static constexpr uint32_t kNoModule = 0xFFFFFFFFu;
  uint32_t vertex_shader = kNoModule, pixel_shader = kNoModule, quad_shader = kNoModule;
  PipelineKey key{};  // module handles zero
};

struct DrawPipelineList {
  std::vector<std::vector<uint32_t>> modules;
  std::vector<StoredDrawPipeline> pipelines;
  bool operator==(const DrawPipelineList& o) const;
};

// Bounds of a list that is not damaged (far above a trace's shaders and pipelines).
inline constexpr uint32_t kMaxListedModules = 8192;
inline constexpr uint32_t kMaxListedPipelines = 8192;
inline constexpr uint32_t kMaxListedModuleWords = 1u << 22;
inline constexpr uint64_t kMaxDrawPipelineListBytes = 256ull << 20;

// `<folder>/vk-draws-<trace id>-<device>.bin`, in the shader cache folder; empty without one.
// `trace_id` is made of [0-9a-zA-Z_-] (the replay's own choice: a hash of the trace and frames).
std::string DrawPipelineListPath(const VulkanContext& context, std::string_view trace_id);

std::vector<uint8_t> EncodeDrawPipelineList(const DrawPipelineList& list);
// nullopt for bytes that are not a whole, undamaged list of this build's layout.
std::optional<DrawPipelineList> DecodeDrawPipelineList(const std::vector<uint8_t>& bytes);

// Lists kept in one folder: a replay that saves one removes the least recently used beyond this
// (a list is tens to hundreds of KiB: its modules' SPIR-V).
inline constexpr size_t kMaxDrawPipelineListFiles = 256;

// Reads and decodes; nullopt when the file is missing, unreadable or damaged. A list read whole
// is marked used now (its modification time), for PruneDrawPipelineLists.
std::optional<DrawPipelineList> LoadDrawPipelineList(const std::string& path);
// Writes under a temporary name and renames, then prunes the folder to
// kMaxDrawPipelineListFiles lists; false when it could not write (never an error).
bool SaveDrawPipelineList(const std::string& path, const DrawPipelineList& list);
// Removes the `vk-draws-*.bin` files of `folder` beyond the `keep` most recently used (by
// modification time); other files are left alone. Failures are ignored.
void PruneDrawPipelineLists(const std::string& folder, size_t keep);

}  // namespace xnt::vk
