// The renderer's internal draws (MSAA sample writes, EDRAM loads into host render targets) are a
// full-screen triangle per pass that writes one attachment from a fragment shader, with no vertex
// input, dynamic rendering and dynamic viewport/scissor; only the fragment shader, the attachment
// and the depth/stencil writes differ. One helper builds them all so they cannot drift apart.
// The attachment is written whole (no blending, every channel, depth and stencil tests ALWAYS):
// these passes move texel bits, and gl_SampleMask / discard pick what they touch.
#pragma once

#include <vulkan/vulkan.h>

#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

// Vertex shader of every full-screen draw: vertices 0..2 -> a triangle covering clip space
// (draw 3 vertices). Callers compile it once and pass the module.
extern const char* const kFullscreenTriangleVertexGlsl;

struct FullscreenPipelineDesc {
  VkShaderModule vertex = VK_NULL_HANDLE;  // kFullscreenTriangleVertexGlsl
  VkShaderModule fragment = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  // Exactly one attachment: colour (color_format), or a combined depth/stencil image
  // (depth_stencil_format, used for both aspects). Depth/stencil pipelines always take the stencil
  // write mask and reference as dynamic state (bit-plane passes set them per draw).
  VkFormat color_format = VK_FORMAT_UNDEFINED;
  VkFormat depth_stencil_format = VK_FORMAT_UNDEFINED;
  bool depth_write = false;    // depth test (ALWAYS) and write, of gl_FragDepth
  bool stencil_write = false;  // stencil test (ALWAYS) replacing with the reference, write-masked
  const char* what = "fullscreen";  // names the pipeline in a creation error
};

// Throws xnt::Error (through CheckVk) when the driver fails to create the pipeline.
VkPipeline CreateFullscreenPipeline(const VulkanContext& context,
                                    const FullscreenPipelineDesc& desc);

}  // namespace xnt::vk
