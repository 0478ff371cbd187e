// Graphics pipelines for guest draws, keyed by what cannot be dynamic state: the shader modules,
// the topology class (rectangle lists add the geometry shader), attachment formats, per-target
// blending and write masks, and the polygon mode. Everything Vulkan 1.3 makes dynamic without
// extensions (viewport, scissor, cull mode, front face, topology, depth test/write/compare,
// stencil test/ops/masks/reference, blend constants) is set per draw instead, which keeps the
// number of pipelines per shader pair small. Rendering uses VK_KHR_dynamic_rendering (core 1.3),
// so no render pass objects exist.
//
// The pipeline layout is the shader_interface.h contract (draw_set_layouts.h): set 0 shared
// memory, set 1 the guest and system constants as uniform buffers (a set written per draw),
// set 2 the 32 texture slots.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>
#include <unordered_map>

#include "xnt/gpu/primitive_processor.h"
#include "xnt/vk/draw_set_layouts.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

struct PipelineKey {
  VkShaderModule vertex_shader = VK_NULL_HANDLE;
  VkShaderModule pixel_shader = VK_NULL_HANDLE;  // null: depth-only draw
  uint32_t topology = 0;                         // gpu::HostTopology
  uint32_t polygon_mode = 0;                     // VkPolygonMode
  std::array<uint32_t, 4> color_formats{};       // VkFormat, 0 = no target in the slot
  uint32_t depth_format = 0;                     // VkFormat, 0 = none
  std::array<VkPipelineColorBlendAttachmentState, 4> blend{};
  uint32_t samples = 1;  // rasterizationSamples (VkSampleCountFlagBits: 1, 2, 4); also keeps
                         // the struct padding-free, so memcmp/hashing are exact
  uint32_t depth_clamp = 0;  // depthClampEnable (HostRasterizer::depth_clamp)
  // The pixel shader's specialization: XeSystemConstants::color_output_modes for these targets
  // (shader_interface.h kXeSpecColorOutputModes). Also keeps the size a multiple of 8.
  uint32_t color_output_modes = 0;
  // The line-quad, point-quad or rectangle-list geometry shader (PathRenderer::QuadsOf), or null.
  VkShaderModule quad_shader = VK_NULL_HANDLE;

  bool operator==(const PipelineKey& o) const { return std::memcmp(this, &o, sizeof(*this)) == 0; }
};
static_assert(std::has_unique_object_representations_v<PipelineKey>);

struct PipelineKeyHash {
  size_t operator()(const PipelineKey& k) const;
};

// A session's front to the pipelines its device keeps (kept_objects.h): a lookup by the key
// alone, then the device's, then a pipeline made.
class PipelineCache {
 public:
  // Pipelines are made with `layouts.layout()`.
  PipelineCache(VulkanContext& context, const DrawSetLayouts& layouts);
  PipelineCache(const PipelineCache&) = delete;
  PipelineCache& operator=(const PipelineCache&) = delete;

  // Keys must be built from a zero-initialised PipelineKey (the hash covers padding bytes).
  VkPipeline Get(const PipelineKey& key);
  VkPipelineLayout layout() const { return layout_; }
  size_t size() const { return pipelines_.size(); }

  // The device's kept module of these words.
  VkShaderModule CreateModule(const std::vector<uint32_t>& spirv);

 private:
  VkPipeline Create(const PipelineKey& key) const;

  VulkanContext& context_;
  VkDevice device_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;  // DrawSetLayouts::layout()
  std::unordered_map<PipelineKey, VkPipeline, PipelineKeyHash> pipelines_;
};

}  // namespace xnt::vk
