// The Vulkan objects a shader check harness makes for itself: host-visible mapped buffers (inputs
// up, results back), device-local images with one view, shader modules from SPIR-V words, and the
// descriptor set layouts of the translated shaders' interface.
// Shared by the `shader translate --check` device (check_device.cpp) and the translator tests'
// draw harness (tests/renderer/translator/draw_harness.cpp), which make the same objects.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "xnt/vk/translator/shader_interface.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk::check {

// A buffer in host-visible, coherent memory, mapped for its whole life.
struct MappedBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
};
MappedBuffer MakeMappedBuffer(VulkanContext& context, VkDeviceSize size, VkBufferUsageFlags usage);
// Unmaps and frees; safe on a default (never made) buffer. Leaves `buffer` default.
void Destroy(VkDevice device, MappedBuffer& buffer);

// A one-mip, optimal-tiling image in device-local memory with a view of all its `layers`.
struct DeviceImage {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};
DeviceImage MakeDeviceImage(VulkanContext& context, VkImageType type, VkImageViewType view_type,
                            VkFormat format, VkExtent3D extent, uint32_t layers,
                            VkImageUsageFlags usage, VkImageAspectFlags aspect,
                            VkImageCreateFlags flags = 0);
void Destroy(VkDevice device, DeviceImage& image);

VkShaderModule MakeShaderModule(VkDevice device, const uint32_t* words, size_t count);

// The layouts of the translated shaders' sets 0-2 (shader_interface.h): set 0 the shared-memory
// storage buffers, set 1 the guest and system constants, set 2 the combined image samplers of the
// first `texture_dimensions` of the 2D-array, cube and 3D bindings (1: the 2D array only), all
// visible to `stages`.
std::array<VkDescriptorSetLayout, 3> MakeShaderInterfaceSetLayouts(VkDevice device,
                                                                   VkShaderStageFlags stages,
                                                                   uint32_t texture_dimensions);

// The descriptor writes that bind one XeConstants-sized uniform buffer's three parts
// (shader_interface.h kXeConstantParts) to set 1's guest-constant bindings; `infos` must outlive
// the writes.
std::array<VkWriteDescriptorSet, kXeConstantPartCount> GuestConstantWrites(
    VkDescriptorSet set, VkBuffer buffer, std::array<VkDescriptorBufferInfo, kXeConstantPartCount>& infos);

}  // namespace xnt::vk::check
