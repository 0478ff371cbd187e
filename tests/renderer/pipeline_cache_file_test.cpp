// The on-disk VkPipelineCache (pipeline_cache_file.h) on lavapipe: no folder means nothing on
// disk; a saved file carries our header and the device's Vulkan cache header (vendor, device,
// pipelineCacheUUID) and is loaded by the next instance; damaged data, data of another device
// and a short file are rejected without reaching the driver, and overwritten by the next save.
#include <gtest/gtest.h>
#include <unistd.h>
#include <xxhash.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "test_env.h"
#include "xnt/vk/pipeline_cache_file.h"
#include "xnt/vk/translator/shader_compiler.h"
#include "xnt/vk/translator/spirv_cache.h"

namespace xnt::vk {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}
void WriteAll(const fs::path& p, const std::vector<uint8_t>& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

TEST(PipelineCacheFile, SaveLoadAndReject) {
  auto context = test::MakeLavapipeContext();
  ASSERT_TRUE(context);
  const fs::path dir = fs::temp_directory_path() / ("xnt_vkpc_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  {
    PipelineCacheFile none(*context, "");
    EXPECT_EQ(none.load_state(), PipelineCacheFile::LoadState::kNoFolder);
    EXPECT_NE(none.handle(), VK_NULL_HANDLE);
    EXPECT_FALSE(none.Save());
  }
  std::string path;
  {
    PipelineCacheFile first(*context, dir.string());
    EXPECT_EQ(first.load_state(), PipelineCacheFile::LoadState::kMissing);
    path = first.path();
  }  // saved here
  ASSERT_TRUE(fs::exists(path));
  const std::vector<uint8_t> saved = ReadAll(path);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context->physical_device(), &props);
  // "XNTVKPC1", u64 size, u64 hash, then VkPipelineCacheHeaderVersionOne (32 bytes at least).
  ASSERT_GE(saved.size(), 24u + 32u);
  EXPECT_EQ(std::memcmp(saved.data(), "XNTVKPC1", 8), 0);
  uint64_t size;
  std::memcpy(&size, saved.data() + 8, 8);
  EXPECT_EQ(size, saved.size() - 24);
  uint32_t vendor, device;
  std::memcpy(&vendor, saved.data() + 24 + 8, 4);
  std::memcpy(&device, saved.data() + 24 + 12, 4);
  EXPECT_EQ(vendor, props.vendorID);
  EXPECT_EQ(device, props.deviceID);
  EXPECT_EQ(std::memcmp(saved.data() + 24 + 16, props.pipelineCacheUUID, VK_UUID_SIZE), 0);
  EXPECT_NE(path.find("vk-pipelines-"), std::string::npos);
  {
    PipelineCacheFile second(*context, dir.string());
    EXPECT_EQ(second.load_state(), PipelineCacheFile::LoadState::kLoaded);
    // What came back past the Vulkan header: lavapipe keeps no pipelines in its cache data.
    uint32_t header_size;
    std::memcpy(&header_size, saved.data() + 24, 4);
    EXPECT_EQ(second.loaded_pipeline_bytes(), saved.size() - 24 - header_size);
    EXPECT_EQ(second.loaded_pipeline_bytes(), 0u);
  }
  auto damaged = saved;
  damaged.back() ^= 0x01;  // the XXH3-64 no longer matches
  // Another device's data with a valid hash: only the Vulkan header check can catch it.
  auto other_device = saved;
  other_device[24 + 16] ^= 0xFF;  // the first byte of pipelineCacheUUID
  const uint64_t rehash = XXH3_64bits(other_device.data() + 24, other_device.size() - 24);
  std::memcpy(other_device.data() + 16, &rehash, 8);
  const std::vector<std::vector<uint8_t>> bad = {
      damaged, other_device, std::vector<uint8_t>(saved.begin(), saved.begin() + 20)};
  for (size_t i = 0; i < bad.size(); ++i) {
    WriteAll(path, bad[i]);
    {
      PipelineCacheFile f(*context, dir.string());
      EXPECT_EQ(f.load_state(), PipelineCacheFile::LoadState::kRejected) << i;
    }
    // No pipelines were created, so the fresh (empty) cache saves the same bytes again.
    EXPECT_EQ(ReadAll(path), saved) << i << ": rewritten on save";
  }
  // A save writes only what the file does not hold as far as the object knows (a kept device
  // saves at the end of each of its sessions): after a load or a save of the same data, the file
  // is left alone, here seen by bytes put there behind the object's back.
  const std::vector<uint8_t> elsewhere = {'o', 't', 'h', 'e', 'r'};
  {
    PipelineCacheFile loaded(*context, dir.string());
    EXPECT_EQ(loaded.load_state(), PipelineCacheFile::LoadState::kLoaded);
    WriteAll(path, elsewhere);
    EXPECT_TRUE(loaded.Save());
    EXPECT_EQ(ReadAll(path), elsewhere);
  }
  {
    PipelineCacheFile rejected(*context, dir.string());
    EXPECT_EQ(rejected.load_state(), PipelineCacheFile::LoadState::kRejected);
    EXPECT_TRUE(rejected.Save());  // nothing known of the file: written
    EXPECT_EQ(ReadAll(path), saved);
    WriteAll(path, elsewhere);
    EXPECT_TRUE(rejected.Save());  // the same data as its last save: left alone
    EXPECT_EQ(ReadAll(path), elsewhere);
  }  // the destructor's save too
  EXPECT_EQ(ReadAll(path), elsewhere);
  fs::remove_all(dir);
}

// The context holds the one pipeline cache of its device, in the folder the program chose for the
// SPIR-V cache: a compute pipeline goes through it, and the file is written when the context
// ends, for the next process.
TEST(PipelineCacheFile, ContextKeepsOneCacheInTheShaderCacheFolder) {
  const fs::path dir =
      fs::temp_directory_path() / ("xnt_vkpc_ctx_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  SetSpirvCacheDirectory(dir.string());
  {
    auto context = test::MakeLavapipeContext();
    ASSERT_TRUE(context);
    EXPECT_NE(context->pipeline_cache(), VK_NULL_HANDLE);
    EXPECT_FALSE(fs::exists(dir)) << "nothing is written before the context ends";
  }
  SetSpirvCacheDirectory("");
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().filename().string().rfind("vk-pipelines-", 0), 0u) << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 1u);
  fs::remove_all(dir);
}

size_t CacheDataSize(VkDevice device, VkPipelineCache cache) {
  size_t size = 0;
  EXPECT_EQ(vkGetPipelineCacheData(device, cache, &size, nullptr), VK_SUCCESS);
  return size;
}

// A worker thread compiles through a cache of its own (seeded with the device cache's data) while
// this thread compiles through the device's; the merge afterwards leaves in the device cache what
// both compiled, with validation on. The two compute shaders differ, so that each pipeline is new.
TEST(PipelineCacheFile, WorkerCacheIsSeparateAndMergedBack) {
  auto context = test::MakeLavapipeContext();
  ASSERT_TRUE(context);
  const VkDevice device = context->device();
  const VkPipelineCache shared = context->pipeline_cache();
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout), VK_SUCCESS);
  auto module = [&](int size) {
    const std::vector<uint32_t> words = CompileGlslNow(
        "#version 450\nlayout(local_size_x = " + std::to_string(size) + ") in;\nvoid main() {}\n",
        GlslStage::kCompute, "worker_cache_test");
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = words.size() * 4;
    info.pCode = words.data();
    VkShaderModule m = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateShaderModule(device, &info, nullptr, &m), VK_SUCCESS);
    return m;
  };
  const VkShaderModule worker_module = module(8), own_module = module(16);
  const size_t before = CacheDataSize(device, shared);
  const VkPipelineCache worker = CreateWorkerPipelineCache(device, shared);
  ASSERT_NE(worker, VK_NULL_HANDLE);
  ASSERT_NE(worker, shared);
  EXPECT_EQ(CacheDataSize(device, worker), before) << "seeded with the device cache's data";
  VkPipeline from_worker = VK_NULL_HANDLE;
  std::thread thread([&] {
    from_worker = CreateComputePipeline(device, worker, worker_module, layout, true, "worker");
  });
  const VkPipeline own = CreateComputePipeline(*context, own_module, layout, true, "own");
  thread.join();
  ASSERT_NE(from_worker, VK_NULL_HANDLE);
  const size_t worker_size = CacheDataSize(device, worker);
  const size_t own_size = CacheDataSize(device, shared);
  MergeWorkerPipelineCache(device, shared, worker);
  const size_t merged = CacheDataSize(device, shared);
  EXPECT_GE(merged, own_size);
  // Where the driver keeps pipelines in its cache data, the merge adds the worker's.
  if (worker_size > before) {
    EXPECT_GT(merged, own_size);
  }
  vkDestroyPipeline(device, from_worker, nullptr);
  vkDestroyPipeline(device, own, nullptr);
  vkDestroyPipelineLayout(device, layout, nullptr);
}

}  // namespace
}  // namespace xnt::vk
