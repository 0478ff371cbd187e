// Descriptor set and pipeline layouts of the draw interface (see draw_set_layouts.h).
#include "xnt/vk/draw_set_layouts.h"

#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

DrawSetLayouts::DrawSetLayouts(VulkanContext& context, VkDescriptorSetLayout shared_memory_layout)
    : device_(context.device()) {
  const VkDescriptorSetLayoutBinding constants[5] = {
      LayoutBinding(kVertexFloatConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                    VK_SHADER_STAGE_ALL_GRAPHICS),
      LayoutBinding(kSystemConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                    VK_SHADER_STAGE_ALL_GRAPHICS),
      LayoutBinding(kDomainInputsBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                    VK_SHADER_STAGE_VERTEX_BIT),
      LayoutBinding(kPixelFloatConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                    VK_SHADER_STAGE_ALL_GRAPHICS),
      LayoutBinding(kFetchBoolLoopConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                    VK_SHADER_STAGE_ALL_GRAPHICS)};
  constants_layout_ =
      CreateSetLayout(device_, constants, 5, "vkCreateDescriptorSetLayout(constants)");
  // Texture arrays: 2D array, cube and 3D views (shader_interface.h, set 2).
  VkDescriptorSetLayoutBinding textures[kTextureBindingArrays]{};
  for (uint32_t i = 0; i < kTextureBindingArrays; ++i) {
    textures[i] = LayoutBinding(kTexturesBinding + i, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                VK_SHADER_STAGE_ALL_GRAPHICS, kTextureBindingCount);
  }
  textures_layout_ = CreateSetLayout(device_, textures, kTextureBindingArrays,
                                     "vkCreateDescriptorSetLayout(textures)");
  VkDescriptorSetLayout sets[3] = {shared_memory_layout, constants_layout_, textures_layout_};
  VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout.setLayoutCount = 3;
  layout.pSetLayouts = sets;
  CheckVk(vkCreatePipelineLayout(device_, &layout, nullptr, &layout_), "vkCreatePipelineLayout");
}

DrawSetLayouts::~DrawSetLayouts() {
  if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
  if (textures_layout_) vkDestroyDescriptorSetLayout(device_, textures_layout_, nullptr);
  if (constants_layout_) vkDestroyDescriptorSetLayout(device_, constants_layout_, nullptr);
}

}  // namespace xnt::vk
