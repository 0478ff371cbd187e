// Pipeline creation (see pipeline_cache.h).
#include "xnt/vk/pipeline_cache.h"

#include <algorithm>
#include <system_error>
#include <vector>

#include "xnt/base/error.h"
#include "xnt/vk/draw_pipeline_list.h"
#include "xnt/vk/kept_objects.h"
#include "xnt/vk/pipeline_cache_file.h"
#include "xnt/vk/host_shaders.h"
#include "xnt/vk/translator/shader_interface.h"
#include "xnt/vk/translator/spirv_cache.h"

namespace xnt::vk {

size_t PipelineKeyHash::operator()(const PipelineKey& k) const {
  // FNV-1a over the key's bytes (keys are zero-initialised, so padding is deterministic).
  const auto* p = reinterpret_cast<const uint8_t*>(&k);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < sizeof(k); ++i) h = (h ^ p[i]) * 1099511628211ull;
  return size_t(h);
}

PipelineCache::PipelineCache(VulkanContext& context, const DrawSetLayouts& layouts)
    : context_(context), device_(context.device()), layout_(layouts.layout()) {}

VkShaderModule PipelineCache::CreateModule(const std::vector<uint32_t>& spirv) {
  return context_.kept().Module(spirv);
}

PipelineCache::~PipelineCache() { FinishAhead(); }

std::string PipelineCache::KeptKey(const PipelineKey& key) const {
  // The key's modules and the layout are kept handles, so its bytes name the same pipeline in
  // every session on the device.
  std::string kept_key = "draw";
  AppendKeyBytes(kept_key, layout_, key);
  return kept_key;
}

VkPipeline PipelineCache::Get(const PipelineKey& key) {
  auto it = pipelines_.find(key);
  if (it != pipelines_.end()) return it->second;
  const VkPipeline pipeline = context_.kept().Pipeline(
      KeptKey(key), [&] { return Create(key, context_.pipeline_cache()); });
  pipelines_.emplace(key, pipeline);
  used_.push_back(key);
  return pipeline;
}

void PipelineCache::MakeAhead(const DrawPipelineList& list) {
  if (!workers_.empty() || !ahead_.empty()) return;
  std::vector<VkShaderModule> modules;
  modules.reserve(list.modules.size());
  for (const std::vector<uint32_t>& words : list.modules) {
    modules.push_back(context_.kept().Module(words));  // the handles the draws will ask with
  }
  auto module = [&](uint32_t index) {
    return index == StoredDrawPipeline::kNoModule ? VK_NULL_HANDLE : modules.at(index);
  };
  for (const StoredDrawPipeline& p : list.pipelines) {
    PipelineKey key = p.key;
    key.vertex_shader = module(p.vertex_shader);
    key.pixel_shader = module(p.pixel_shader);
    key.quad_shader = module(p.quad_shader);
    if (!context_.kept().HasPipeline(KeptKey(key))) ahead_.push_back(key);
  }
  if (ahead_.empty()) return;
  const uint32_t cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t count = std::min<size_t>({ahead_.size(), cores, 4});
  for (size_t i = 0; i < count; ++i) {
    const VkPipelineCache cache = CreateWorkerPipelineCache(device_, context_.pipeline_cache());
    worker_caches_.push_back(cache);
    try {
      workers_.emplace_back([this, cache] {
        for (size_t k; (k = ahead_next_.fetch_add(1)) < ahead_.size();) {
          const PipelineKey& key = ahead_[k];
          bool made = false;
          try {
            context_.kept().Pipeline(KeptKey(key), [&] {
              made = true;
              return Create(key, cache);
            });
          } catch (...) {
            // A list from another build or a device without what the key needs (geometry
            // shaders for a rectangle list): the draw that needs it makes it and reports why.
            made = false;
          }
          if (made) ahead_made_count_.fetch_add(1);
        }
      });
    } catch (const std::system_error&) {
      break;  // no thread: the draws make what is left
    }
  }
}

void PipelineCache::FinishAhead() {
  ahead_next_.store(ahead_.size());  // workers stop after the pipeline each is making
  for (std::thread& t : workers_) t.join();
  workers_.clear();
  for (VkPipelineCache cache : worker_caches_) {
    MergeWorkerPipelineCache(device_, context_.pipeline_cache(), cache);
  }
  worker_caches_.clear();
}

DrawPipelineList PipelineCache::UsedList() const {
  DrawPipelineList list;
  std::unordered_map<VkShaderModule, uint32_t> index;
  auto add = [&](VkShaderModule module, bool& ok) -> uint32_t {
    if (!module) return StoredDrawPipeline::kNoModule;
    auto it = index.find(module);
    if (it != index.end()) return it->second;
    std::vector<uint32_t> words = context_.kept().ModuleWords(module);
    if (words.empty()) {
      ok = false;
      return StoredDrawPipeline::kNoModule;
    }
    const uint32_t i = uint32_t(list.modules.size());
    list.modules.push_back(std::move(words));
    index.emplace(module, i);
    return i;
  };
  for (const PipelineKey& key : used_) {
    // Room for this entry's modules and itself within what a load accepts.
    if (list.pipelines.size() >= kMaxListedPipelines ||
        list.modules.size() + 3 > kMaxListedModules) {
      break;
    }
    bool ok = true;
    StoredDrawPipeline p;
    p.vertex_shader = add(key.vertex_shader, ok);
    p.pixel_shader = add(key.pixel_shader, ok);
    p.quad_shader = add(key.quad_shader, ok);
    // A module made some other way than from kept words (none is today) cannot be listed.
    if (!ok || p.vertex_shader == StoredDrawPipeline::kNoModule) continue;
    p.key = key;
    p.key.vertex_shader = p.key.pixel_shader = p.key.quad_shader = VK_NULL_HANDLE;
    list.pipelines.push_back(p);
  }
  return list;
}

VkPipeline PipelineCache::Create(const PipelineKey& key, VkPipelineCache cache) const {
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  stage.pName = "main";
  stage.stage = VK_SHADER_STAGE_VERTEX_BIT;
  stage.module = key.vertex_shader;
  stages.push_back(stage);
  gpu::HostTopology topology = gpu::HostTopology(key.topology);
  if (topology == gpu::HostTopology::kRectangleList) {
    if (!context_.capabilities().geometry_shader) {
      throw Error("rectangle lists need geometry shaders, which this device lacks");
    }
    // PathRenderer::QuadsOf's rectangle-list geometry shader for the vertex shader's distances.
    stage.stage = VK_SHADER_STAGE_GEOMETRY_BIT;
    stage.module = key.quad_shader;
    stages.push_back(stage);
  } else if (key.quad_shader) {
    stage.stage = VK_SHADER_STAGE_GEOMETRY_BIT;
    stage.module = key.quad_shader;
    stages.push_back(stage);
  }
  // A translated pixel shader's colour output modes (shader_interface.h); a host pixel shader
  // declares no such constant, and an entry for an undeclared ID changes nothing.
  const VkSpecializationMapEntry output_modes_entry{kXeSpecColorOutputModes, 0, sizeof(uint32_t)};
  const VkSpecializationInfo specialization{1, &output_modes_entry, sizeof(uint32_t),
                                            &key.color_output_modes};
  if (key.pixel_shader) {
    stage.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stage.module = key.pixel_shader;
    stage.pSpecializationInfo = &specialization;
    stages.push_back(stage);
  }

  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo input_assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  // The topology is dynamic, but must stay within the class set here.
  switch (topology) {
    case gpu::HostTopology::kPointList:
      input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
      break;
    case gpu::HostTopology::kLineList:
      input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
      break;
    default:
      input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      break;
  }
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VkPolygonMode(key.polygon_mode);
  raster.depthClampEnable = key.depth_clamp ? VK_TRUE : VK_FALSE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples =
      key.samples ? VkSampleCountFlagBits(key.samples) : VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth_stencil{
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth_stencil.maxDepthBounds = 1.0f;

  // Attachments are compacted: slot i of the key is colour location i; unbound locations get
  // VK_FORMAT_UNDEFINED (allowed by dynamic rendering) and a zero write mask.
  uint32_t color_count = 0;
  VkFormat formats[4];
  VkPipelineColorBlendAttachmentState blend[4];
  for (uint32_t i = 0; i < 4; ++i) {
    formats[i] = VkFormat(key.color_formats[i]);
    blend[i] = key.blend[i];
    if (formats[i] != VK_FORMAT_UNDEFINED) color_count = i + 1;
  }
  VkPipelineColorBlendStateCreateInfo color_blend{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  color_blend.attachmentCount = color_count;
  color_blend.pAttachments = blend;

  const VkDynamicState dynamic_states[] = {
      VK_DYNAMIC_STATE_VIEWPORT,          VK_DYNAMIC_STATE_SCISSOR,
      VK_DYNAMIC_STATE_BLEND_CONSTANTS,   VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK,
      VK_DYNAMIC_STATE_STENCIL_WRITE_MASK, VK_DYNAMIC_STATE_STENCIL_REFERENCE,
      VK_DYNAMIC_STATE_CULL_MODE,         VK_DYNAMIC_STATE_FRONT_FACE,
      VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
      VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
      VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE, VK_DYNAMIC_STATE_STENCIL_OP,
      // Polygon offset per draw (xenos_renderer.cpp; gpu/polygon_offset.h).
      VK_DYNAMIC_STATE_DEPTH_BIAS,        VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
      // PA_SU_LINE_CNTL's width per draw (xenos_renderer.cpp; gpu/line_width.h).
      VK_DYNAMIC_STATE_LINE_WIDTH};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = uint32_t(std::size(dynamic_states));
  dynamic.pDynamicStates = dynamic_states;

  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = color_count;
  rendering.pColorAttachmentFormats = formats;
  rendering.depthAttachmentFormat = VkFormat(key.depth_format);
  rendering.stencilAttachmentFormat = VkFormat(key.depth_format);

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = uint32_t(stages.size());
  info.pStages = stages.data();
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &input_assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth_stencil;
  info.pColorBlendState = &color_blend;
  info.pDynamicState = &dynamic;
  info.layout = layout_;
  VkPipeline pipeline = VK_NULL_HANDLE;
  CheckVk(vkCreateGraphicsPipelines(device_, cache, 1, &info, nullptr, &pipeline),
          "vkCreateGraphicsPipelines");
  return pipeline;
}

}  // namespace xnt::vk
