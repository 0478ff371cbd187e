#include "xnt/vk/check_objects.h"

namespace xnt::vk::check {

MappedBuffer MakeMappedBuffer(VulkanContext& context, VkDeviceSize size, VkBufferUsageFlags usage) {
  const VkDevice device = context.device();
  MappedBuffer b;
  context.CreateBuffer(size, usage,
                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                       0, b.buffer, b.memory, "mapped buffer");
  CheckVk(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
  return b;
}

void Destroy(VkDevice device, MappedBuffer& b) {
  if (b.memory) vkUnmapMemory(device, b.memory);
  vkDestroyBuffer(device, b.buffer, nullptr);
  vkFreeMemory(device, b.memory, nullptr);
  b = {};
}

DeviceImage MakeDeviceImage(VulkanContext& context, VkImageType type, VkImageViewType view_type,
                            VkFormat format, VkExtent3D extent, uint32_t layers,
                            VkImageUsageFlags usage, VkImageAspectFlags aspect,
                            VkImageCreateFlags flags) {
  const VkDevice device = context.device();
  DeviceImage i;
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = flags;
  info.imageType = type;
  info.format = format;
  info.extent = extent;
  info.mipLevels = 1;
  info.arrayLayers = layers;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  context.CreateImage(info, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, i.image, i.memory,
                      "device image");
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = i.image;
  view.viewType = view_type;
  view.format = format;
  view.subresourceRange = {aspect, 0, 1, 0, layers};
  CheckVk(vkCreateImageView(device, &view, nullptr, &i.view), "vkCreateImageView");
  return i;
}

void Destroy(VkDevice device, DeviceImage& i) {
  vkDestroyImageView(device, i.view, nullptr);
  vkDestroyImage(device, i.image, nullptr);
  vkFreeMemory(device, i.memory, nullptr);
  i = {};
}

VkShaderModule MakeShaderModule(VkDevice device, const uint32_t* words, size_t count) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = count * sizeof(uint32_t);
  info.pCode = words;
  VkShaderModule module = VK_NULL_HANDLE;
  CheckVk(vkCreateShaderModule(device, &info, nullptr, &module), "vkCreateShaderModule");
  return module;
}

std::array<VkDescriptorSetLayout, 3> MakeShaderInterfaceSetLayouts(VkDevice device,
                                                                   VkShaderStageFlags stages,
                                                                   uint32_t texture_dimensions) {
  const VkDescriptorSetLayoutBinding memory{kSharedMemoryBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                            kSharedMemoryBindingCount, stages, nullptr};
  const VkDescriptorSetLayoutBinding constants[4] = {
      {kVertexFloatConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stages, nullptr},
      {kSystemConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stages, nullptr},
      {kPixelFloatConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stages, nullptr},
      {kFetchBoolLoopConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stages, nullptr}};
  const VkDescriptorSetLayoutBinding textures[3] = {
      {kTexturesBinding, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kTextureBindingCount, stages,
       nullptr},
      {kTexturesCubeBinding, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kTextureBindingCount,
       stages, nullptr},
      {kTextures3DBinding, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kTextureBindingCount, stages,
       nullptr}};
  const VkDescriptorSetLayoutBinding* bindings[3] = {&memory, constants, textures};
  const uint32_t counts[3] = {1, 4, texture_dimensions};
  std::array<VkDescriptorSetLayout, 3> layouts{};
  for (int i = 0; i < 3; ++i) {
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = counts[i];
    info.pBindings = bindings[i];
    CheckVk(vkCreateDescriptorSetLayout(device, &info, nullptr, &layouts[i]),
            "vkCreateDescriptorSetLayout");
  }
  return layouts;
}

std::array<VkWriteDescriptorSet, kXeConstantPartCount> GuestConstantWrites(
    VkDescriptorSet set, VkBuffer buffer,
    std::array<VkDescriptorBufferInfo, kXeConstantPartCount>& infos) {
  std::array<VkWriteDescriptorSet, kXeConstantPartCount> writes{};
  for (uint32_t part = 0; part < kXeConstantPartCount; ++part) {
    const XeConstantPartLayout& layout = kXeConstantParts[part];
    infos[part] = {buffer, layout.offset, uint64_t(layout.rows) * 16};
    writes[part] = BufferWrite(set, layout.binding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &infos[part]);
  }
  return writes;
}

}  // namespace xnt::vk::check
