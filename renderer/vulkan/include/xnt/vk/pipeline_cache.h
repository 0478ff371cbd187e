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
#include <atomic>
#include <thread>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>
#include <unordered_map>

#include "xnt/gpu/primitive_processor.h"
#include "xnt/vk/draw_set_layouts.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

struct DrawPipelineList;

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

  // Waits for the workers MakeAhead started (their pipelines stay kept with the device).
  ~PipelineCache();

  // Keys must be built from a zero-initialised PipelineKey (the hash covers padding bytes).
  VkPipeline Get(const PipelineKey& key);

  // Starts making the pipelines of `list` (an earlier replay's, draw_pipeline_list.h) on worker
  // threads, in its order, each through a pipeline cache of its own (CreateWorkerPipelineCache);
  // a Get for one a worker is making waits for it, one no worker took yet is made by the Get.
  // A pipeline the device keeps already is skipped. Errors stay on the workers: the draw that
  // needs the pipeline makes it and reports what fails. Once per cache.
  void MakeAhead(const DrawPipelineList& list);
  // Joins the workers and folds their caches into the device's (before that cache is saved).
  void FinishAhead();
  // Pipelines MakeAhead's workers made so far (not found kept, not failed).
  uint64_t made_ahead() const { return ahead_made_count_.load(); }
  // The pipelines Get was asked for, in first-use order, as a list to save; keys whose modules
  // the device did not keep by their words are left out.
  DrawPipelineList UsedList() const;
  VkPipelineLayout layout() const { return layout_; }
  size_t size() const { return pipelines_.size(); }

  // The device's kept module of these words.
  VkShaderModule CreateModule(const std::vector<uint32_t>& spirv);

 private:
  VkPipeline Create(const PipelineKey& key, VkPipelineCache cache) const;
  std::string KeptKey(const PipelineKey& key) const;

  VulkanContext& context_;
  VkDevice device_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;  // DrawSetLayouts::layout()
  std::unordered_map<PipelineKey, VkPipeline, PipelineKeyHash> pipelines_;
  std::vector<PipelineKey> used_;  // first-use order

  // MakeAhead's work: keys taken in order by the workers, each with a cache of its own.
  std::vector<PipelineKey> ahead_;
  std::atomic<size_t> ahead_next_{0};
  std::atomic<uint64_t> ahead_made_count_{0};
  std::vector<std::thread> workers_;
  std::vector<VkPipelineCache> worker_caches_;
};

}  // namespace xnt::vk
