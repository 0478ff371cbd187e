// Descriptor set and pipeline layouts of the draw interface (see draw_set_layouts.h).
#include "xnt/vk/draw_set_layouts.h"

#include "xnt/vk/kept_objects.h"
#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

DrawSetLayouts::DrawSetLayouts(VulkanContext& context, VkDescriptorSetLayout shared_memory_layout) {
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
  // All three kept with the device (kept_objects.h): the pipelines made over them are too.
  KeptObjects& kept = context.kept();
  constants_layout_ = kept.SetLayout(constants, "vkCreateDescriptorSetLayout(constants)");
  // Texture arrays: 2D array, cube and 3D views (shader_interface.h, set 2).
  VkDescriptorSetLayoutBinding textures[kTextureBindingArrays]{};
  for (uint32_t i = 0; i < kTextureBindingArrays; ++i) {
    textures[i] = LayoutBinding(kTexturesBinding + i, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                VK_SHADER_STAGE_ALL_GRAPHICS, kTextureBindingCount);
  }
  textures_layout_ = kept.SetLayout(textures, "vkCreateDescriptorSetLayout(textures)");
  const VkDescriptorSetLayout sets[3] = {shared_memory_layout, constants_layout_, textures_layout_};
  layout_ = kept.PipelineLayout(sets, {}, "vkCreatePipelineLayout");
}

}  // namespace xnt::vk
