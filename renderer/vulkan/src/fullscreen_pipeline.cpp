// Full-screen internal draw pipelines (see fullscreen_pipeline.h).
#include "xnt/vk/fullscreen_pipeline.h"

#include <string>

#include "xnt/base/error.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

const char* const kFullscreenTriangleVertexGlsl = R"(#version 450
void main() {
  vec2 q = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
  gl_Position = vec4(q * 2.0 - 1.0, 0.0, 1.0);
}
)";

VkPipeline CreateFullscreenPipeline(const VulkanContext& context,
                                    const FullscreenPipelineDesc& desc) {
  bool depth = desc.depth_stencil_format != VK_FORMAT_UNDEFINED;
  if (depth == (desc.color_format != VK_FORMAT_UNDEFINED)) {
    throw Error(std::string(desc.what) + ": a full-screen pipeline needs exactly one attachment");
  }
  VkPipelineShaderStageCreateInfo stages[2]{};
  for (auto& s : stages) {
    s.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    s.pName = "main";
  }
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = desc.vertex;
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = desc.fragment;
  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = desc.samples;
  VkPipelineDepthStencilStateCreateInfo ds{
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  if (depth) {
    ds.depthTestEnable = desc.depth_write ? VK_TRUE : VK_FALSE;
    ds.depthWriteEnable = ds.depthTestEnable;
    ds.depthCompareOp = VK_COMPARE_OP_ALWAYS;
    ds.stencilTestEnable = desc.stencil_write ? VK_TRUE : VK_FALSE;
    ds.front.failOp = ds.front.passOp = ds.front.depthFailOp = VK_STENCIL_OP_REPLACE;
    ds.front.compareOp = VK_COMPARE_OP_ALWAYS;
    ds.front.compareMask = 0xFF;
    ds.front.writeMask = 0xFF;  // dynamic
    ds.front.reference = 0xFF;  // dynamic
    ds.back = ds.front;
    ds.maxDepthBounds = 1.0f;
  }
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo color_blend{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  color_blend.attachmentCount = depth ? 0 : 1;
  color_blend.pAttachments = &blend;
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                                           VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
                                           VK_DYNAMIC_STATE_STENCIL_REFERENCE};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = depth ? 4 : 2;
  dynamic.pDynamicStates = dynamic_states;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  if (depth) {
    rendering.depthAttachmentFormat = desc.depth_stencil_format;
    rendering.stencilAttachmentFormat = desc.depth_stencil_format;
  } else {
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &desc.color_format;
  }
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &ds;
  info.pColorBlendState = &color_blend;
  info.pDynamicState = &dynamic;
  info.layout = desc.layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkResult result = vkCreateGraphicsPipelines(context.device(), context.pipeline_cache(), 1, &info,
                                              nullptr, &pipeline);
  if (result != VK_SUCCESS) {
    CheckVk(result, (std::string("vkCreateGraphicsPipelines(") + desc.what + ")").c_str());
  }
  return pipeline;
}

}  // namespace xnt::vk
