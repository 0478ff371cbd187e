// The descriptor set layouts of the shader_interface.h contract that every Vulkan path's draws
// bind: set 1 the guest and system constants (uniform buffers in the ring, written per draw:
// descriptor_set_ring.h) and a tessellated draw's domain inputs, set 2 the texture arrays, and the pipeline layout of sets 0-2 over the shared-memory layout. A path with sets of
// its own (fsi's EDRAM, set 3) builds its pipeline layout from these set layouts.
#pragma once

#include <vulkan/vulkan.h>

#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

class DrawSetLayouts {
 public:
  // The layouts are the context's kept ones (kept_objects.h): nothing here destroys them.
  DrawSetLayouts(VulkanContext& context, VkDescriptorSetLayout shared_memory_layout);

  VkDescriptorSetLayout constants_layout() const { return constants_layout_; }
  VkDescriptorSetLayout textures_layout() const { return textures_layout_; }
  // Sets 0 (shared memory), 1 (constants) and 2 (textures).
  VkPipelineLayout layout() const { return layout_; }

 private:
  VkDescriptorSetLayout constants_layout_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout textures_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
};

}  // namespace xnt::vk
