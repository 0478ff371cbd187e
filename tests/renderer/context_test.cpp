// VulkanContext on lavapipe: device choice, capability record, validation message counting.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "test_env.h"
#include "xnt/base/error.h"
#include "xnt/vk/kept_objects.h"

namespace xnt::vk {
namespace {

TEST(VulkanContext, CreatesLavapipeDeviceWithCapabilities) {
  auto ctx = test::MakeLavapipeContext();
  const Capabilities& caps = ctx->capabilities();
  EXPECT_NE(caps.device_name.find("llvmpipe"), std::string::npos) << caps.device_name;
  EXPECT_GE(caps.api_version, uint32_t(VK_API_VERSION_1_3));
  // lavapipe's storage buffer range is 128 MiB or more (it is why shared memory is split in 4).
  EXPECT_GE(caps.max_storage_buffer_range, uint64_t(128) << 20);
  EXPECT_TRUE(caps.depth_stencil_format == VK_FORMAT_D24_UNORM_S8_UINT ||
              caps.depth_stencil_format == VK_FORMAT_D32_SFLOAT_S8_UINT);
  EXPECT_TRUE(caps.geometry_shader);
  EXPECT_TRUE(ctx->validation_enabled());
  EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
}

TEST(VulkanContext, CountsValidationMessages) {
  auto ctx = test::MakeLavapipeContext();
  test::ExpectValidationMessages();  // on purpose: the global check lets this test pass
  // A buffer with size 0 is invalid usage (VUID-VkBufferCreateInfo-size-00912); the layer must
  // report it, which proves the counter is wired (tests elsewhere rely on it reading zero).
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 0;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult r = vkCreateBuffer(ctx->device(), &info, nullptr, &buffer);
  if (r == VK_SUCCESS && buffer) vkDestroyBuffer(ctx->device(), buffer, nullptr);
  EXPECT_GE(ctx->validation_message_count(), 1u);
  ASSERT_FALSE(ctx->validation_messages().empty());
  EXPECT_NE(ctx->validation_messages()[0].find("size"), std::string::npos);
  ctx->ResetValidationMessages();
  EXPECT_EQ(ctx->validation_message_count(), 0u);
}

TEST(VulkanContext, RejectsOutOfRangeDeviceIndex) {
  test::UseLavapipe();
  ContextOptions options;
  options.device_index = 99;
  EXPECT_THROW(VulkanContext{options}, Error);
}

TEST(VulkanContext, SubmitAndWaitRunsCommands) {
  auto ctx = test::MakeLavapipeContext();
  int recorded = 0;
  ctx->SubmitAndWait([&](VkCommandBuffer cmd) {
    EXPECT_NE(cmd, VK_NULL_HANDLE);
    ++recorded;
  });
  EXPECT_EQ(recorded, 1);
  EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
}

// A minimal compute shader (local size 1, empty main), SPIR-V 1.0 words as glslang writes them;
// `id_bound_extra` changes the header's ID bound, which makes other words of the same program.
std::vector<uint32_t> EmptyComputeShader(uint32_t id_bound_extra = 0) {
  return {0x07230203, 0x00010000, 0x00080001, 0x00000006 + id_bound_extra, 0x00000000,
          // OpCapability Shader; OpMemoryModel Logical GLSL450
          0x00020011, 0x00000001, 0x0003000e, 0x00000000, 0x00000001,
          // OpEntryPoint GLCompute %4 "main"; OpExecutionMode %4 LocalSize 1 1 1
          0x0005000f, 0x00000005, 0x00000004, 0x6e69616d, 0x00000000,
          0x00060010, 0x00000004, 0x00000011, 0x00000001, 0x00000001, 0x00000001,
          // %2 = OpTypeVoid; %3 = OpTypeFunction %2; %4 = OpFunction %2 None %3
          0x00020013, 0x00000002, 0x00030021, 0x00000003, 0x00000002,
          0x00050036, 0x00000002, 0x00000004, 0x00000000, 0x00000003,
          // %5 = OpLabel; OpReturn; OpFunctionEnd
          0x000200f8, 0x00000005, 0x000100fd, 0x00010038};
}

TEST(KeptObjects, SameContentGivesTheSameHandleAndAPipelineIsMadeOnce) {
  auto ctx = test::MakeLavapipeContext();
  KeptObjects& kept = ctx->kept();
  const VkShaderModule a = kept.Module(EmptyComputeShader());
  EXPECT_EQ(kept.Module(EmptyComputeShader()), a);
  EXPECT_NE(kept.Module(EmptyComputeShader(1)), a);

  const VkDescriptorSetLayoutBinding storage{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                             VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutBinding uniform = storage;
  uniform.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  const VkDescriptorSetLayout s = kept.SetLayout({&storage, 1}, "storage");
  EXPECT_EQ(kept.SetLayout({&storage, 1}, "storage"), s);
  const VkDescriptorSetLayout u = kept.SetLayout({&uniform, 1}, "uniform");
  EXPECT_NE(u, s);
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
  const VkPipelineLayout layout = kept.PipelineLayout({&s, 1}, {&push, 1}, "layout");
  EXPECT_EQ(kept.PipelineLayout({&s, 1}, {&push, 1}, "layout"), layout);
  EXPECT_NE(kept.PipelineLayout({&s, 1}, {}, "layout"), layout);
  EXPECT_NE(kept.PipelineLayout({&u, 1}, {&push, 1}, "layout"), layout);
  // A sampler handle is not content: refused rather than keyed by its value.
  VkDescriptorSetLayoutBinding with_sampler = storage;
  const VkSampler fake = reinterpret_cast<VkSampler>(uintptr_t(1));
  with_sampler.pImmutableSamplers = &fake;
  EXPECT_THROW(kept.SetLayout({&with_sampler, 1}, "sampler"), Error);

  int made = 0;
  std::string key = "test";
  AppendKeyBytes(key, layout, a);
  const auto create = [&] {
    ++made;
    return CreateComputePipeline(*ctx, a, layout, false, "test pipeline");
  };
  const VkPipeline p = kept.Pipeline(key, create);
  EXPECT_NE(p, VK_NULL_HANDLE);
  EXPECT_TRUE(kept.HasPipeline(key));
  EXPECT_FALSE(kept.HasPipeline("other"));
  EXPECT_EQ(kept.Pipeline(key, create), p);
  EXPECT_EQ(made, 1);
  EXPECT_EQ(kept.pipelines_made(), 1u);
  EXPECT_EQ(kept.pipelines_found(), 1u);

  // What the last two sessions asked for stays; an older session's pipeline goes.
  std::string other_key = "test other";
  AppendKeyBytes(other_key, layout, a);
  kept.BeginSession();
  kept.Pipeline(other_key, create);  // session 1 asks for the other one
  kept.BeginSession();
  kept.KeepOnlyRecent(2);  // session 2 asked for none: `key` (session 0) goes
  EXPECT_FALSE(kept.HasPipeline(key));
  EXPECT_TRUE(kept.HasPipeline(other_key));
  EXPECT_EQ(kept.pipeline_count(), 1u);
  kept.BeginSession();
  kept.KeepOnlyRecent(2);
  EXPECT_EQ(kept.pipeline_count(), 0u);
  EXPECT_EQ(made, 2);
  EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
}

// A thread asking for a pipeline another thread is making waits for that one instead of making
// a second (a draw whose pipeline a worker makes ahead); when the maker fails, the waiter makes
// it itself.
TEST(KeptObjects, AskingForAPipelineBeingMadeWaitsForIt) {
  auto ctx = test::MakeLavapipeContext();
  KeptObjects& kept = ctx->kept();
  const VkShaderModule module = kept.Module(EmptyComputeShader());
  const VkPipelineLayout layout = kept.PipelineLayout({}, {}, "layout");
  for (bool maker_fails : {false, true}) {
    std::string key = maker_fails ? "failing" : "waited";
    AppendKeyBytes(key, layout, module);
    std::atomic<bool> started{false}, release{false};
    std::atomic<int> made_by_maker{0}, made_by_waiter{0};
    std::thread maker([&] {
      try {
        kept.Pipeline(key, [&] {
          started = true;
          while (!release) std::this_thread::yield();
          if (maker_fails) throw Error("the maker's pipeline failed");
          ++made_by_maker;
          return CreateComputePipeline(*ctx, module, layout, false, "maker");
        });
      } catch (const Error&) {
      }
    });
    while (!started) std::this_thread::yield();
    std::atomic<bool> waiter_done{false};
    VkPipeline waited = VK_NULL_HANDLE;
    std::thread waiter([&] {
      waited = kept.Pipeline(key, [&] {
        ++made_by_waiter;
        return CreateComputePipeline(*ctx, module, layout, false, "waiter");
      });
      waiter_done = true;
    });
    // The waiter cannot finish while the maker holds the key.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(waiter_done) << (maker_fails ? "failing maker" : "maker");
    release = true;
    maker.join();
    waiter.join();
    EXPECT_NE(waited, VK_NULL_HANDLE);
    EXPECT_EQ(made_by_maker.load(), maker_fails ? 0 : 1);
    EXPECT_EQ(made_by_waiter.load(), maker_fails ? 1 : 0);
    EXPECT_TRUE(kept.HasPipeline(key));
  }
  EXPECT_EQ(kept.pipelines_made(), 2u);
  EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
}

TEST(VulkanContext, AKeptContextGoesToTheNextTakeOfItsKindWithFreshCounters) {
  test::UseLavapipe();
  VulkanContext::DropKept();
  ContextOptions options;
  options.validate = true;
  options.synchronization_validation = true;
  auto first = VulkanContext::Take(options);
  const VkDevice device = first->device();
  first->AddGpuSeconds(1.5);
  const VkShaderModule module = first->kept().Module(EmptyComputeShader());
  VulkanContext::Keep(std::move(first));

  // Another kind (no synchronization validation) gets a device of its own.
  ContextOptions other = options;
  other.synchronization_validation = false;
  auto second = VulkanContext::Take(other);
  EXPECT_NE(second->device(), device);

  auto again = VulkanContext::Take(options);
  EXPECT_EQ(again->device(), device);
  EXPECT_EQ(again->gpu_seconds(), 0.0);
  EXPECT_EQ(again->kept().Module(EmptyComputeShader()), module);
  EXPECT_EQ(again->validation_message_count(), 0u) << test::ValidationReport(*again);
  // Taken, it is no longer kept: the next Take of the kind makes a new one.
  auto third = VulkanContext::Take(options);
  EXPECT_NE(third->device(), device);
  VulkanContext::Keep(std::move(second));
  VulkanContext::Keep(std::move(again));
  VulkanContext::Keep(std::move(third));
  VulkanContext::DropKept();
  auto fresh = VulkanContext::Take(options);
  EXPECT_NE(fresh->device(), VK_NULL_HANDLE);
}

}  // namespace
}  // namespace xnt::vk
