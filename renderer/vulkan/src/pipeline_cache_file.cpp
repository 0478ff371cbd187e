// On-disk VkPipelineCache (see pipeline_cache_file.h).
#include "xnt/vk/pipeline_cache_file.h"

#include <xxhash.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "xnt/base/atomic_file.h"
#include "xnt/base/error.h"

namespace xnt::vk {

namespace {

constexpr char kMagic[8] = {'X', 'N', 'T', 'V', 'K', 'P', 'C', '1'};
constexpr size_t kHeaderSize = 8 + 8 + 8;
// Far above what a replay's pipelines take; a bigger file is damaged.
constexpr uint64_t kMaxData = 256ull << 20;
// VkPipelineCacheHeaderVersionOne: headerSize, headerVersion, vendorID, deviceID (u32 each),
// then pipelineCacheUUID (Vulkan spec, "Pipeline Cache" > vkGetPipelineCacheData).
constexpr size_t kVulkanHeaderSize = 16 + VK_UUID_SIZE;

std::string Hex(const uint8_t* bytes, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[bytes[i] >> 4];
    s += digits[bytes[i] & 15];
  }
  return s;
}

// True when `data` is this device's pipeline cache data as far as can be told without the driver.
bool MatchesDevice(const std::vector<uint8_t>& data, const VkPhysicalDeviceProperties& p) {
  if (data.size() < kVulkanHeaderSize) return false;
  uint32_t header_size, header_version, vendor, device;
  std::memcpy(&header_size, data.data(), 4);
  std::memcpy(&header_version, data.data() + 4, 4);
  std::memcpy(&vendor, data.data() + 8, 4);
  std::memcpy(&device, data.data() + 12, 4);
  return header_size >= kVulkanHeaderSize && header_size <= data.size() &&
         header_version == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && vendor == p.vendorID &&
         device == p.deviceID &&
         std::memcmp(data.data() + 16, p.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

}  // namespace

std::string DeviceCacheName(const VkPhysicalDeviceProperties& p) {
  return Hex(p.pipelineCacheUUID, VK_UUID_SIZE) + "-" + std::to_string(p.vendorID) + "-" +
         std::to_string(p.deviceID) + "-" + std::to_string(p.driverVersion);
}

PipelineCacheFile::PipelineCacheFile(VulkanContext& context, std::string directory)
    : device_(context.device()), directory_(std::move(directory)) {
  vkGetPhysicalDeviceProperties(context.physical_device(), &properties_);
  std::vector<uint8_t> data;
  if (!directory_.empty()) {
    path_ = (std::filesystem::path(directory_) /
             ("vk-pipelines-" + DeviceCacheName(properties_) + ".bin"))
                .string();
    std::vector<uint8_t> file;
    load_state_ = LoadState::kMissing;
    if (ReadFileWhole(path_, kHeaderSize + kMaxData, file)) {
      load_state_ = LoadState::kRejected;
      uint64_t size = 0, hash = 0;
      if (file.size() >= kHeaderSize && std::memcmp(file.data(), kMagic, 8) == 0) {
        std::memcpy(&size, file.data() + 8, 8);
        std::memcpy(&hash, file.data() + 16, 8);
        if (size == file.size() - kHeaderSize &&
            XXH3_64bits(file.data() + kHeaderSize, size_t(size)) == hash) {
          data.assign(file.begin() + kHeaderSize, file.end());
          if (MatchesDevice(data, properties_)) {
            load_state_ = LoadState::kLoaded;
            uint32_t header_size = 0;
            std::memcpy(&header_size, data.data(), 4);
            loaded_pipeline_bytes_ = data.size() - header_size;
            file_hash_ = hash;
            file_hash_known_ = true;
          } else {
            data.clear();
          }
        }
      }
    }
  }
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  if (vkCreatePipelineCache(device_, &info, nullptr, &cache_) != VK_SUCCESS) {
    // The driver refused the data after all: start empty.
    load_state_ = LoadState::kRejected;
    loaded_pipeline_bytes_ = 0;
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    CheckVk(vkCreatePipelineCache(device_, &info, nullptr, &cache_), "vkCreatePipelineCache");
  }
}

PipelineCacheFile::~PipelineCacheFile() {
  Save();
  if (cache_) vkDestroyPipelineCache(device_, cache_, nullptr);
}

bool PipelineCacheFile::Save() {
  if (path_.empty() || !cache_) return false;
  size_t size = 0;
  if (vkGetPipelineCacheData(device_, cache_, &size, nullptr) != VK_SUCCESS || size == 0 ||
      size > kMaxData) {
    return false;
  }
  std::vector<uint8_t> file(kHeaderSize + size);
  if (vkGetPipelineCacheData(device_, cache_, &size, file.data() + kHeaderSize) != VK_SUCCESS) {
    return false;
  }
  file.resize(kHeaderSize + size);
  const uint64_t size64 = size;
  const uint64_t hash = XXH3_64bits(file.data() + kHeaderSize, size);
  // Nothing new since the load or the last save (every pipeline since came from the file): keep
  // the file.
  if (file_hash_known_ && hash == file_hash_) return true;
  std::memcpy(file.data(), kMagic, 8);
  std::memcpy(file.data() + 8, &size64, 8);
  std::memcpy(file.data() + 16, &hash, 8);
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) return false;
  if (!WriteFileAtomically(path_, file.data(), file.size())) return false;
  file_hash_ = hash;
  file_hash_known_ = true;
  return true;
}

VkPipelineCache CreateWorkerPipelineCache(VkDevice device, VkPipelineCache shared) {
  std::vector<uint8_t> data;
  size_t size = 0;
  if (shared && vkGetPipelineCacheData(device, shared, &size, nullptr) == VK_SUCCESS && size > 0 &&
      size <= kMaxData) {
    data.resize(size);
    if (vkGetPipelineCacheData(device, shared, &size, data.data()) != VK_SUCCESS) size = 0;
    data.resize(size);
  }
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  VkPipelineCache cache = VK_NULL_HANDLE;
  if (vkCreatePipelineCache(device, &info, nullptr, &cache) != VK_SUCCESS) return VK_NULL_HANDLE;
  return cache;
}

void MergeWorkerPipelineCache(VkDevice device, VkPipelineCache shared, VkPipelineCache worker) {
  if (!worker) return;
  // A failed merge only costs the next run a compile.
  if (shared) (void)vkMergePipelineCaches(device, shared, 1, &worker);
  vkDestroyPipelineCache(device, worker, nullptr);
}

}  // namespace xnt::vk
