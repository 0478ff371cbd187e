// Pipeline creation (see pipeline_cache.h).
#include "xnt/vk/pipeline_cache.h"

#include <vector>

#include "xnt/base/error.h"
#include "xnt/vk/kept_objects.h"
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

VkPipeline PipelineCache::Get(const PipelineKey& key) {
  auto it = pipelines_.find(key);
  if (it != pipelines_.end()) return it->second;
  // The key's modules and the layout are kept handles, so its bytes name the same pipeline in
  // every session on the device.
  std::string kept_key = "draw";
  AppendKeyBytes(kept_key, layout_, key);
  const VkPipeline pipeline =
      context_.kept().Pipeline(kept_key, [&] { return Create(key); });
  pipelines_.emplace(key, pipeline);
  return pipeline;
}

VkPipeline PipelineCache::Create(const PipelineKey& key) const {

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
  CheckVk(vkCreateGraphicsPipelines(device_, context_.pipeline_cache(), 1, &info, nullptr, &pipeline),
          "vkCreateGraphicsPipelines");
  return pipeline;
}

}  // namespace xnt::vk
