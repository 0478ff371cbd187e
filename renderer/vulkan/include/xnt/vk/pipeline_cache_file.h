// A VkPipelineCache kept on disk between runs, beside the SPIR-V cache (spirv_cache.h; the same
// folder, chosen by the program). The driver's pipelineCacheUUID names what its cache data is
// valid for (driver build and device), so the file name holds it with the vendor and device IDs
// and the driver version: another driver or device never reads this file.
//
// File: [magic "XNTVKPC1"][u64 data size][u64 XXH3-64 of the data][data]. The data is what
// vkGetPipelineCacheData returned; before it is handed back to a driver the reader checks the
// size and hash, and the Vulkan header inside (header size and version, vendor ID, device ID,
// pipelineCacheUUID) against this device, because a driver is not required to survive damaged
// cache data. Anything that does not check out is ignored (an empty cache is created) and
// counted; it is overwritten when the cache is saved. Saving writes a temporary file and renames
// it. No folder: an in-memory VkPipelineCache only (pipelines of one run still share it).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

// What names a device's cache files: "<pipelineCacheUUID>-<vendor>-<device>-<driver version>".
std::string DeviceCacheName(const VkPhysicalDeviceProperties& properties);

class PipelineCacheFile {
 public:
  enum class LoadState { kNoFolder, kMissing, kLoaded, kRejected };

  PipelineCacheFile(VulkanContext& context, std::string directory);
  // Saves (when there is a folder) and destroys the VkPipelineCache.
  ~PipelineCacheFile();
  PipelineCacheFile(const PipelineCacheFile&) = delete;
  PipelineCacheFile& operator=(const PipelineCacheFile&) = delete;

  VkPipelineCache handle() const { return cache_; }
  LoadState load_state() const { return load_state_; }
  // What the loaded data held past the driver's Vulkan cache header (0 unless kLoaded).
  uint64_t loaded_pipeline_bytes() const { return loaded_pipeline_bytes_; }
  const std::string& path() const { return path_; }
  // Writes the current data now (also done by the destructor), unless it is what the file holds
  // (loaded or last saved by this object).
  // False when it could not.
  bool Save();

 private:
  VkDevice device_;
  VkPhysicalDeviceProperties properties_{};
  std::string directory_, path_;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  LoadState load_state_ = LoadState::kNoFolder;
  uint64_t loaded_pipeline_bytes_ = 0;
  // XXH3-64 of the data the file holds as far as this object knows: what it loaded (kLoaded) or
  // last saved. A kept device saves when each of its sessions ends (VulkanContext::Keep); only
  // what changed since is written.
  uint64_t file_hash_ = 0;
  bool file_hash_known_ = false;
};

// A private VkPipelineCache seeded with what `shared` holds now, for a worker thread to create
// pipelines through while the owning thread goes on creating its own through `shared`. The API
// lets two threads share one cache, but the texture loader's start-up thread sharing the device
// cache with the replay thread is the one cross-thread use of a device that came with the shared
// cache, just before `compare --jobs` was first seen to hang on a real driver; a cache per thread
// removes it at the cost of one copy of the cache data per session. Never throws: without a
// cache of its own the worker compiles uncached (VK_NULL_HANDLE).
VkPipelineCache CreateWorkerPipelineCache(VkDevice device, VkPipelineCache shared);
// Folds the worker's cache into `shared` and destroys it; on the owning thread, after the worker
// finished (a merge's destination must not be in use by any other thread).
void MergeWorkerPipelineCache(VkDevice device, VkPipelineCache shared, VkPipelineCache worker);

}  // namespace xnt::vk
