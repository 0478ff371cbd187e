// Sampling cache textures with samplers made from the fetch constant: a compute shader
// point-samples every texel centre (optionally shifted by whole texture widths to exercise the
// clamp modes) of a TextureCache image through SamplerCache's sampler, and the results are
// compared with what was encoded into guest memory.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "../test_env.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/host_shaders.h"
#include "xnt/vk/sampler_cache.h"
#include "xnt/vk/shared_memory.h"
#include "xnt/gpu/texture_address.h"
#include "xnt/vk/texture_cache.h"

namespace xnt::vk {
namespace {

constexpr const char* kSampleShader = R"GLSL(#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2DArray tex;
layout(std430, set = 0, binding = 1) writeonly buffer Out { vec4 texels[]; } out_buf;
layout(push_constant) uniform P { uint width; uint height; uint layer; float shift_x; } p;
void main() {
  uvec2 id = gl_GlobalInvocationID.xy;
  if (id.x >= p.width || id.y >= p.height) return;
  vec2 uv = (vec2(id) + 0.5) / vec2(p.width, p.height) + vec2(p.shift_x, 0.0);
  out_buf.texels[id.y * p.width + id.x] = textureLod(tex, vec3(uv, float(p.layer)), 0.0);
}
)GLSL";

struct Pages {
  std::map<uint32_t, std::vector<uint8_t>> pages;
  uint64_t generation = 1;
  void Write32(uint32_t address, uint32_t v) {
    auto& p = pages[address >> 12];
    if (p.empty()) p.resize(4096);
    std::memcpy(&p[address & 4095], &v, 4);
  }
  gpu::GuestPageSource Source() {
    gpu::GuestPageSource s;
    s.generation = [this] { return generation; };
    s.page_generation = [this](uint32_t p) { return pages.count(p) ? generation : uint64_t(0); };
    s.page_data = [this](uint32_t p) -> const uint8_t* {
      auto it = pages.find(p);
      return it == pages.end() ? nullptr : it->second.data();
    };
    return s;
  }
};

class SamplingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = test::MakeLavapipeContext();
    ASSERT_TRUE(ctx_);
    device_ = ctx_->device();
    stream_ = std::make_unique<CommandStream>(*ctx_, 16ull << 20);
    memory_ = std::make_unique<SharedMemory>(*ctx_, *stream_);
    cache_ = std::make_unique<TextureCache>(*ctx_, *stream_, *memory_);
    samplers_ = std::make_unique<SamplerCache>(*ctx_);
    VkDescriptorSetLayoutBinding b[2]{};
    b[0] = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    b[1] = {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.bindingCount = 2;
    li.pBindings = b;
    CheckVk(vkCreateDescriptorSetLayout(device_, &li, nullptr, &set_layout_), "layout");
    pipeline_layout_ = CreatePipelineLayout(device_, &set_layout_, 1,
                                            {VK_SHADER_STAGE_COMPUTE_BIT, 0, 16}, "pipeline layout");
    auto spirv = CompileHostGlsl(kSampleShader, VK_SHADER_STAGE_COMPUTE_BIT, "sample_test");
    pipeline_ = CreateComputePipeline(*ctx_, CreateShaderModule(device_, spirv), pipeline_layout_,
                                      true, "pipeline");
    VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 64},
                                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64}};
    pool_ = CreateDescriptorPool(device_, 64, sizes, 2, "pool");
  }
  void TearDown() override {
    if (!ctx_) return;
    vkDeviceWaitIdle(device_);
    vkDestroyDescriptorPool(device_, pool_, nullptr);
    vkDestroyPipeline(device_, pipeline_, nullptr);
    vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
    vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
    EXPECT_EQ(ctx_->validation_message_count(), 0u) << test::ValidationReport(*ctx_);
  }

  // A 32x8 tiled k_8_8_8_8 texture (8in32) whose texel (x, y) is x | y << 8 | 0x55 << 16 | ...
  std::array<uint32_t, 6> MakeTexture(uint32_t clamp_x, uint32_t border) {
    const uint32_t base = 0x00200000, w = 32, h = 8;
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        uint32_t v = x | (y << 8) | (0x55u << 16) | (0xAAu << 24);
        uint32_t swapped = __builtin_bswap32(v);  // 8in32 in guest memory
        guest_.Write32(base + uint32_t(gpu::TiledOffset2D(int32_t(x), int32_t(y), 32, 2)), swapped);
      }
    }
    std::array<uint32_t, 6> d{};
    d[0] = 2u | (clamp_x << 10) | (2u << 13) | (1u << 22) | (1u << 31);
    d[1] = 6u | (2u << 6) | ((base >> 12) << 12);
    d[2] = (w - 1) | ((h - 1) << 13);
    d[5] = border | (1u << 9);
    return d;
  }

  std::vector<float> Sample(const std::array<uint32_t, 6>& fetch, float shift_x) {
    memory_->Sync(guest_.Source());
    const auto& t = cache_->Get(fetch.data(), guest_.Source());
    VkSampler sampler =
        samplers_->Get(SamplerState::FromFetchConstant(fetch.data(), &ctx_->capabilities()));
    size_t bytes = size_t(t.width) * t.height * 16;
    auto out = stream_->Allocate(bytes, 256);
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool_;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &set_layout_;
    VkDescriptorSet set;
    CheckVk(vkAllocateDescriptorSets(device_, &ai, &set), "set");
    VkDescriptorImageInfo image{sampler, t.view, VK_IMAGE_LAYOUT_GENERAL};
    VkDescriptorBufferInfo buffer{out.buffer, out.offset, bytes};
    VkWriteDescriptorSet w[2]{};
    w[0] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1,
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &image, nullptr, nullptr};
    w[1] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 1, 0, 1,
            VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, &buffer, nullptr};
    vkUpdateDescriptorSets(device_, 2, w, 0, nullptr);
    VkCommandBuffer cmd = stream_->cmd();
    // The cache makes its loads visible to draws (vertex/fragment) and copies; this probe samples
    // from a compute shader, so it waits for the load's compute writes itself.
    VkMemoryBarrier loaded{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    loaded.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    loaded.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &loaded, 0, nullptr, 0,
                         nullptr);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout_, 0, 1, &set, 0,
                            nullptr);
    struct { uint32_t w, h, layer; float shift; } push{t.width, t.height, 0, shift_x};
    vkCmdPushConstants(cmd, pipeline_layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, 16, &push);
    vkCmdDispatch(cmd, (t.width + 7) / 8, (t.height + 7) / 8, 1);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                         1, &barrier, 0, nullptr, 0, nullptr);
    stream_->Flush();
    std::vector<float> result(bytes / 4);
    std::memcpy(result.data(), out.data, bytes);
    return result;
  }

  static uint32_t Byte(float f) { return uint32_t(f * 255.0f + 0.5f); }

  std::unique_ptr<VulkanContext> ctx_;
  VkDevice device_ = VK_NULL_HANDLE;
  std::unique_ptr<CommandStream> stream_;
  std::unique_ptr<SharedMemory> memory_;
  std::unique_ptr<TextureCache> cache_;
  std::unique_ptr<SamplerCache> samplers_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  Pages guest_;
};

TEST_F(SamplingTest, PointSamplesEveryTexelExactly) {
  auto r = Sample(MakeTexture(2, 0), 0.0f);
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 32; ++x) {
      const float* t = &r[(y * 32 + x) * 4];
      ASSERT_EQ(Byte(t[0]), x) << x << "," << y;
      ASSERT_EQ(Byte(t[1]), y) << x << "," << y;
      ASSERT_EQ(Byte(t[2]), 0x55u);
      ASSERT_EQ(Byte(t[3]), 0xAAu);
    }
  }
}

TEST_F(SamplingTest, ClampModesAndBorderColours) {
  // Repeat: one texture width to the right wraps to the same texel.
  auto repeat = Sample(MakeTexture(0, 0), 1.0f);
  EXPECT_EQ(Byte(repeat[(3 * 32 + 5) * 4]), 5u);
  // Mirrored repeat: the next width is mirrored, texel x reads 31 - x.
  auto mirror = Sample(MakeTexture(1, 0), 1.0f);
  EXPECT_EQ(Byte(mirror[(3 * 32 + 5) * 4]), 26u);
  // Clamp to edge: everything to the right reads the last column.
  auto edge = Sample(MakeTexture(2, 0), 1.0f);
  EXPECT_EQ(Byte(edge[(3 * 32 + 5) * 4]), 31u);
  EXPECT_EQ(Byte(edge[(3 * 32 + 5) * 4 + 1]), 3u);
  // Clamp to border: white and (transparent) black borders.
  auto white = Sample(MakeTexture(6, 1), 1.0f);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(white[(3 * 32 + 5) * 4 + k], 1.0f);
  auto black = Sample(MakeTexture(6, 0), 1.0f);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(black[(3 * 32 + 5) * 4 + k], 0.0f);
  EXPECT_EQ(samplers_->size(), 5u);
}

// Mirror-once (kMirrorClampToEdge) with samplerMirrorClampToEdge: one width to the left is the
// mirror image (texel 31 - x), two widths to the left clamp to the far edge (mirrored repeat
// would read texel x again).
TEST_F(SamplingTest, MirrorOnceClampsAfterOneMirror) {
  if (!ctx_->capabilities().sampler_mirror_clamp_to_edge) GTEST_SKIP() << "no samplerMirrorClampToEdge";
  auto once = Sample(MakeTexture(3, 0), -1.0f);
  EXPECT_EQ(Byte(once[(3 * 32 + 5) * 4]), 26u);
  auto twice = Sample(MakeTexture(3, 0), -2.0f);
  EXPECT_EQ(Byte(twice[(3 * 32 + 5) * 4]), 31u);
  auto repeat = Sample(MakeTexture(1, 0), -2.0f);
  EXPECT_EQ(Byte(repeat[(3 * 32 + 5) * 4]), 5u);
}

TEST(SamplerState, DecodesFiltersBiasAndReportsApproximations) {
  uint32_t d[6] = {};
  d[0] = 2u | (3u << 10);                          // clamp_x mirror-once
  d[3] = (1u << 19) | (1u << 21) | (1u << 23);     // linear mag/min/mip
  d[4] = uint32_t(-48 & 0x3FF) << 12;              // lod bias -1.5
  auto s = SamplerState::FromFetchConstant(d);
  EXPECT_EQ(s.mag, VK_FILTER_LINEAR);
  EXPECT_EQ(s.min, VK_FILTER_LINEAR);
  EXPECT_EQ(s.mip, VK_SAMPLER_MIPMAP_MODE_LINEAR);
  EXPECT_EQ(s.lod_bias, -1.5f);
  EXPECT_EQ(s.address[0], VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT);
  EXPECT_NE(s.inexact.find("mirror-once"), std::string::npos);
  // With the device feature the mode is exact.
  Capabilities caps;
  caps.sampler_mirror_clamp_to_edge = true;
  caps.sampler_anisotropy = true;
  caps.max_sampler_anisotropy = 8.0f;
  d[3] |= 5u << 25;  // aniso 16:1, clamped to the device's 8
  auto exact = SamplerState::FromFetchConstant(d, &caps);
  EXPECT_EQ(exact.address[0], VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE);
  EXPECT_EQ(exact.max_anisotropy, 8.0f);
  EXPECT_TRUE(exact.inexact.empty()) << exact.inexact;
  d[3] &= ~(7u << 25);
  d[0] = 2u;
  EXPECT_TRUE(SamplerState::FromFetchConstant(d).inexact.empty());
  // A volume whose z filter (vol_mag/vol_min_filter) is point under linear x/y filters: the
  // translated shader filters it (the sampler keeps x and y's), so nothing is inexact.
  d[5] = 2u << 9;
  EXPECT_TRUE(SamplerState::FromFetchConstant(d).inexact.empty());
  // A LOD bias of 15.5 (dword 4 bits 12..21, 1/32) past a device's maxSamplerLodBias of 15 is
  // clamped to it and reported; -16 likewise; within the limit it stays.
  caps.max_sampler_lod_bias = 15.0f;
  d[4] = (d[4] & ~(0x3FFu << 12)) | (496u << 12);
  const auto over = SamplerState::FromFetchConstant(d, &caps);
  EXPECT_EQ(over.lod_bias, 15.0f);
  EXPECT_NE(over.inexact.find("maxSamplerLodBias"), std::string::npos);
  d[4] = (d[4] & ~(0x3FFu << 12)) | (0x200u << 12);
  EXPECT_EQ(SamplerState::FromFetchConstant(d, &caps).lod_bias, -15.0f);
  d[4] = (d[4] & ~(0x3FFu << 12)) | (480u << 12);
  const auto within = SamplerState::FromFetchConstant(d, &caps);
  EXPECT_EQ(within.lod_bias, 15.0f);
  EXPECT_EQ(within.inexact.find("maxSamplerLodBias"), std::string::npos);
}

// A real driver's default fetch constant (mag point, min linear, aniso 2:1) on a slot whose
// magnification the host sampler decides: no host anisotropy, and the reason noted; linear
// magnification keeps it.
TEST(SamplerState, PointMagnificationDropsHostAnisotropyWhereTheHostDecides) {
  Capabilities caps;
  caps.sampler_anisotropy = true;
  caps.max_sampler_anisotropy = 16.0f;
  uint32_t d[6] = {};
  d[0] = 2u;
  d[3] = (0u << 19) | (1u << 21) | (2u << 25);
  auto s = SamplerState::FromFetchConstant(d, &caps);
  EXPECT_EQ(s.max_anisotropy, 2.0f);
  EXPECT_TRUE(s.KeepMagnificationPoint());
  EXPECT_EQ(s.max_anisotropy, 1.0f);
  EXPECT_NE(s.inexact.find("point magnification"), std::string::npos) << s.inexact;
  EXPECT_FALSE(s.KeepMagnificationPoint());  // already off
  d[3] |= 1u << 19;  // mag linear
  auto linear = SamplerState::FromFetchConstant(d, &caps);
  EXPECT_FALSE(linear.KeepMagnificationPoint());
  EXPECT_EQ(linear.max_anisotropy, 2.0f);
  EXPECT_TRUE(linear.inexact.empty()) << linear.inexact;
  // An instruction's MagFilter=point on a linear fetch constant counts too.
  linear.ApplyInstructionFilters(0u | (3u << 2) | (3u << 4) | (7u << 6), &caps);
  EXPECT_TRUE(linear.KeepMagnificationPoint());
}

}  // namespace
}  // namespace xnt::vk
