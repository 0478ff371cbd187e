// The post-processing chain as Vulkan compute passes (post_vk.h).
#include "xnt/vk/present/post_vk.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <string>

#include "xnt/base/error.h"
#include "xnt/vk/host_shaders.h"

namespace xnt::vk {
namespace {

using present::PassConstants;
using present::PassKind;

#define XNT_POST_KERNELS(...) #__VA_ARGS__
constexpr const char* kKernelText =
#include "xnt/present/post_kernels.inc"
    ;
#undef XNT_POST_KERNELS

std::string Prelude() {
  std::string s = R"(#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer SrcTexels { uvec4 src_texels[]; };
layout(std430, set = 0, binding = 1) writeonly buffer DstTexels { uvec4 dst_texels[]; };
layout(std430, set = 0, binding = 2) writeonly buffer OutPixels { uint out_pixels[]; };
layout(push_constant) uniform PassConstants {
  int kind; int src_w; int src_h; int dst_w; int dst_h; int last; int dither; int fxaa_steps;
  float fxaa_subpix; float fxaa_edge_threshold; float fxaa_edge_threshold_min;
  float cas_peak; float rcas_sharpness; int store; int src_store; int pad2;
  float src_scale_x; float src_scale_y; float src_offset_x; float src_offset_y;
} pc;
const int kBlueNoise[256] = int[256](
)";
  const auto& ranks = present::BlueNoiseRanks();
  for (size_t i = 0; i < ranks.size(); ++i) {
    s += std::to_string(ranks[i]);
    s += i + 1 < ranks.size() ? (i % 16 == 15 ? ",\n" : ",") : ");\n";
  }
  s += R"(int BlueNoise(int x, int y) { return kBlueNoise[y * 16 + x]; }
vec4 Load(int x, int y) {
  x = clamp(x, 0, pc.src_w - 1);
  y = clamp(y, 0, pc.src_h - 1);
  uvec4 v = src_texels[y * pc.src_w + x];
  if (pc.src_store == 0) return vec4(unpackHalf2x16(v.x), unpackHalf2x16(v.y));
  return uintBitsToFloat(v);
}
vec4 RoundHalf4(vec4 c) {
  return vec4(unpackHalf2x16(packHalf2x16(c.xy)), unpackHalf2x16(packHalf2x16(c.zw)));
}
)";
  return s;
}

const char* KernelFunction(PassKind kind) {
  switch (kind) {
    case PassKind::kFxaa: return "FxaaPixel";
    case PassKind::kCas: return "CasPixel";
    case PassKind::kEasu: return "EasuPixel";
    case PassKind::kRcas: return "RcasPixel";
    case PassKind::kBilinear: return "BilinearPixel";
    case PassKind::kCopy: break;
  }
  return "CopyPixel";
}

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  void* mapped = nullptr;
};

class VulkanPostProcessor final : public present::PostProcessor {
 public:
  VulkanPostProcessor(VulkanContext& context, std::unique_ptr<VulkanContext> owned,
                      const present::PostOptions& options)
      : PostProcessor(options), owned_(std::move(owned)), ctx_(context), device_(context.device()) {
    VkDescriptorSetLayoutBinding bindings[3] = {};
    for (uint32_t i = 0; i < 3; ++i) {
      bindings[i].binding = i;
      bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      bindings[i].descriptorCount = 1;
      bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.bindingCount = 3;
    li.pBindings = bindings;
    CheckVk(vkCreateDescriptorSetLayout(device_, &li, nullptr, &set_layout_),
            "vkCreateDescriptorSetLayout(post)");
    layout_ = CreatePipelineLayout(device_, &set_layout_, 1,
                                   {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(PassConstants)},
                                   "vkCreatePipelineLayout(post)");
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3 * kMaxPasses};
    pool_ = CreateDescriptorPool(device_, kMaxPasses, &size, 1, "vkCreateDescriptorPool(post)");
    // Timestamps: only where the queue family has valid bits.
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx_.physical_device(), &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(ctx_.physical_device(), &count, families.data());
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(ctx_.physical_device(), &props);
    timestamp_period_ns_ = props.limits.timestampPeriod;
    if (ctx_.queue_family() < count && families[ctx_.queue_family()].timestampValidBits > 0 &&
        timestamp_period_ns_ > 0) {
      VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
      qi.queryCount = 2;
      CheckVk(vkCreateQueryPool(device_, &qi, nullptr, &queries_), "vkCreateQueryPool(post)");
    }
  }

  ~VulkanPostProcessor() override {
    ctx_.WaitIdle();
    for (auto& [kind, p] : pipelines_) vkDestroyPipeline(device_, p, nullptr);
    for (Buffer* b : {&staging_, &ping_, &pong_, &out8_, &readback_}) Free(*b);
    if (queries_) vkDestroyQueryPool(device_, queries_, nullptr);
    vkDestroyDescriptorPool(device_, pool_, nullptr);
    vkDestroyPipelineLayout(device_, layout_, nullptr);
    vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  }

  std::string device_name() const override { return ctx_.capabilities().device_name; }

  present::PostResult Run(const present::FloatImage& input) override {
    const auto start = std::chrono::steady_clock::now();
    const present::PostPlan plan = present::PlanPasses(options_, input.width, input.height);
    if (input.rgba.size() != size_t(input.width) * input.height * 4) {
      throw Error("post: image data does not match its size");
    }
    if (plan.passes.size() > kMaxPasses) throw Error("post: too many passes");
    VkDeviceSize texels = VkDeviceSize(input.width) * input.height;
    for (const PassConstants& p : plan.passes) {
      texels = std::max(texels, VkDeviceSize(p.dst_w) * VkDeviceSize(p.dst_h));
    }
    // 16 bytes per texel: the input as floats (read exactly), RGBA16F outputs as packed halves
    // (the next pass unpacks them: a shader compiler may drop an unpack(pack(x)) pair within one
    // pass, so the rounding must go through the buffer), RGBA8 UNORM ones as the floats k / 255.
    const VkDeviceSize in_bytes = VkDeviceSize(input.width) * input.height * 16;
    const VkDeviceSize out_bytes = VkDeviceSize(plan.out_width) * plan.out_height * 4;
    Ensure(staging_, in_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    Ensure(ping_, texels * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    Ensure(pong_, texels * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    Ensure(out8_, out_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, false);
    Ensure(readback_, out_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    std::memcpy(staging_.mapped, input.rgba.data(), size_t(in_bytes));

    CheckVk(vkResetDescriptorPool(device_, pool_, 0), "vkResetDescriptorPool(post)");
    std::vector<VkDescriptorSet> sets(plan.passes.size());
    std::vector<VkDescriptorSetLayout> layouts(plan.passes.size(), set_layout_);
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool_;
    ai.descriptorSetCount = uint32_t(sets.size());
    ai.pSetLayouts = layouts.data();
    CheckVk(vkAllocateDescriptorSets(device_, &ai, sets.data()), "vkAllocateDescriptorSets(post)");
    for (size_t i = 0; i < plan.passes.size(); ++i) {
      const Buffer& src = i % 2 == 0 ? ping_ : pong_;
      const Buffer& dst = i % 2 == 0 ? pong_ : ping_;
      VkDescriptorBufferInfo infos[3] = {{src.buffer, 0, VK_WHOLE_SIZE},
                                         {dst.buffer, 0, VK_WHOLE_SIZE},
                                         {out8_.buffer, 0, VK_WHOLE_SIZE}};
      VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      w.dstSet = sets[i];
      w.dstBinding = 0;
      w.descriptorCount = 3;
      w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      w.pBufferInfo = infos;
      vkUpdateDescriptorSets(device_, 1, &w, 0, nullptr);
    }
    std::vector<VkPipeline> pipes;
    for (const PassConstants& p : plan.passes) pipes.push_back(Pipeline(PassKind(p.kind)));

    ctx_.SubmitAndWait([&](VkCommandBuffer cmd) {
      // Earlier runs' reads and writes of these buffers come before this run's.
      Barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT |
                  VK_ACCESS_SHADER_WRITE_BIT,
              VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT |
                  VK_ACCESS_SHADER_WRITE_BIT);
      VkBufferCopy copy{0, 0, in_bytes};
      vkCmdCopyBuffer(cmd, staging_.buffer, ping_.buffer, 1, &copy);
      Barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
      if (queries_) {
        vkCmdResetQueryPool(cmd, queries_, 0, 2);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries_, 0);
      }
      for (size_t i = 0; i < plan.passes.size(); ++i) {
        const PassConstants& p = plan.passes[i];
        if (i) {
          Barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        }
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipes[i]);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &sets[i], 0,
                                nullptr);
        vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(PassConstants), &p);
        if (ctx_.labels().enabled()) {
          ctx_.labels().Insert(cmd, std::string("post pass ") +
                                        present::PassKindName(PassKind(p.kind)) + " " +
                                        std::to_string(p.dst_w) + "x" + std::to_string(p.dst_h));
        }
        vkCmdDispatch(cmd, (uint32_t(p.dst_w) + 7) / 8, (uint32_t(p.dst_h) + 7) / 8, 1);
      }
      if (queries_) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, 1);
      Barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
              VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
      VkBufferCopy back{0, 0, out_bytes};
      vkCmdCopyBuffer(cmd, out8_.buffer, readback_.buffer, 1, &back);
      Barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
              VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    });

    present::PostResult result;
    if (queries_) {
      uint64_t stamps[2] = {};
      if (vkGetQueryPoolResults(device_, queries_, 0, 2, sizeof(stamps), stamps, sizeof(uint64_t),
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS) {
        result.gpu_milliseconds = double(stamps[1] - stamps[0]) * timestamp_period_ns_ * 1e-6;
      }
    }
    result.image.width = plan.out_width;
    result.image.height = plan.out_height;
    result.image.rgba.resize(size_t(out_bytes));
    std::memcpy(result.image.rgba.data(), readback_.mapped, size_t(out_bytes));
    result.wall_milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
  }

 private:
  static constexpr uint32_t kMaxPasses = 16;

  static void Barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src,
                      VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    b.srcAccessMask = src;
    b.dstAccessMask = dst;
    vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, nullptr, 0, nullptr);
  }

  VkPipeline Pipeline(PassKind kind) {
    auto it = pipelines_.find(kind);
    if (it != pipelines_.end()) return it->second;
    const std::vector<uint32_t> spirv =
        CompileHostGlsl(PostPassGlsl(kind), VK_SHADER_STAGE_COMPUTE_BIT,
                        std::string("post_") + present::PassKindName(kind));
    VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mi.codeSize = spirv.size() * sizeof(uint32_t);
    mi.pCode = spirv.data();
    VkShaderModule module;
    CheckVk(vkCreateShaderModule(device_, &mi, nullptr, &module), "vkCreateShaderModule(post)");
    const VkPipeline pipeline =
        CreateComputePipeline(ctx_, module, layout_, true, "vkCreateComputePipelines(post)");
    pipelines_[kind] = pipeline;
    return pipeline;
  }

  void Free(Buffer& b) {
    if (b.buffer) vkDestroyBuffer(device_, b.buffer, nullptr);
    if (b.memory) vkFreeMemory(device_, b.memory, nullptr);
    b = Buffer{};
  }

  // Grows `b` to at least `size` bytes (kept between runs: replay posts every frame).
  void Ensure(Buffer& b, VkDeviceSize size, VkBufferUsageFlags usage, bool host) {
    if (b.buffer && b.size >= size) return;
    Free(b);
    if (host) {
      ctx_.CreateBuffer(size, usage,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        VK_MEMORY_PROPERTY_HOST_CACHED_BIT, b.buffer, b.memory, "post buffer");
    } else {
      ctx_.CreateBuffer(size, usage, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, b.buffer, b.memory,
                        "post buffer");
    }
    if (host) CheckVk(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory(post)");
    b.size = size;
  }

  std::unique_ptr<VulkanContext> owned_;
  VulkanContext& ctx_;
  VkDevice device_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkQueryPool queries_ = VK_NULL_HANDLE;
  float timestamp_period_ns_ = 0;
  std::map<PassKind, VkPipeline> pipelines_;
  Buffer staging_, ping_, pong_, out8_, readback_;
};

}  // namespace

std::string PostPassGlsl(PassKind kind) {
  std::string s = Prelude();
  s += kKernelText;
  s += "\nvoid main() {\n"
       "  int x = int(gl_GlobalInvocationID.x);\n"
       "  int y = int(gl_GlobalInvocationID.y);\n"
       "  if (x >= pc.dst_w || y >= pc.dst_h) return;\n"
       "  vec4 c = ";
  s += KernelFunction(kind);
  s += "(x, y);\n"
       "  int i = y * pc.dst_w + x;\n"
       "  if (pc.last != 0) {\n"
       "    out_pixels[i] = PackOutput(c, x, y);\n"
       "  } else {\n"
       "    vec4 s = StoredTexel(c);\n"
       "    dst_texels[i] = pc.store == 0 ? uvec4(packHalf2x16(s.xy), packHalf2x16(s.zw), 0u, 0u)\n"
       "                                  : floatBitsToUint(s);\n"
       "  }\n"
       "}\n";
  return s;
}

std::unique_ptr<present::PostProcessor> MakeVulkanPostProcessor(VulkanContext& context,
                                                                const present::PostOptions& options) {
  return std::make_unique<VulkanPostProcessor>(context, nullptr, options);
}

std::unique_ptr<present::PostProcessor> MakeVulkanPostProcessor(const ContextOptions& context_options,
                                                                const present::PostOptions& options) {
  auto owned = std::make_unique<VulkanContext>(context_options);
  VulkanContext& ref = *owned;
  return std::make_unique<VulkanPostProcessor>(ref, std::move(owned), options);
}

}  // namespace xnt::vk
