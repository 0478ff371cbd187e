// A tiny Vulkan harness for the translator tests: binds the shader_interface.h descriptor sets
// (shared memory, guest/system constants, textures), draws with a given vertex + fragment SPIR-V
// pair into an RGBA32F target and reads colour target 0 back. Runs on lavapipe with validation.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "xnt/vk/check_objects.h"
#include "xnt/vk/translator/shader_interface.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk::test {

class DrawHarness {
 public:
  // Size of each of the 4 shared-memory bindings in this harness (not 128 MiB: the translated
  // code bounds-checks against the bound range, so small buffers are fine).
  static constexpr uint32_t kMemoryBindingBytes = 64 * 1024;

  explicit DrawHarness(VulkanContext& context);
  ~DrawHarness();
  DrawHarness(const DrawHarness&) = delete;
  DrawHarness& operator=(const DrawHarness&) = delete;

  XeConstants constants{};
  XeSystemConstants system{};
  // Guest memory bytes 0 .. kMemoryBindingBytes (binding 0); raw, as the shader sees them.
  std::vector<uint8_t> memory = std::vector<uint8_t>(kMemoryBindingBytes);
  // 2x2 RGBA8 texels (row-major) of the texture bound to every xe_textures slot.
  std::array<uint32_t, 4> texels = {0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u, 0xFFFFFFFFu};
  float clear_value = -1234.5f;
  // When set, the fragment stage's kXeSpecColorOutputModes specialization (as the fbo path makes
  // its pipelines); unset, a translated shader reads system.color_output_modes.
  std::optional<uint32_t> color_output_modes_specialization;

  // Draws `vertex_count` vertices into a width x height RGBA32F target cleared to clear_value and
  // returns its texels (4 floats each, row-major).
  std::vector<float> Draw(const std::vector<uint32_t>& vertex_spirv,
                          const std::vector<uint32_t>& fragment_spirv,
                          VkPrimitiveTopology topology, uint32_t vertex_count, uint32_t width,
                          uint32_t height = 1);

 private:
  using Buffer = check::MappedBuffer;
  VulkanContext& context_;
  VkDevice device_;
  std::array<VkDescriptorSetLayout, 3> set_layouts_{};
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::array<VkDescriptorSet, 3> sets_{};
  std::array<Buffer, kSharedMemoryBindingCount> memory_buffers_{};
  Buffer constants_buffer_, system_buffer_, texture_staging_;
  check::DeviceImage texture_;
  VkSampler sampler_ = VK_NULL_HANDLE;
};

}  // namespace xnt::vk::test
