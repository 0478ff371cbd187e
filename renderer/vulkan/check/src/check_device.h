// The device half of translate --check: fixed descriptor sets in the translated shaders' layout
// (shader_interface.h) plus a set 3 for the harness, 1x1 textures, a 64-wide grid of RGBA32F
// targets with a depth/stencil target, and one pipeline per check.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xnt/vk/check_objects.h"
#include "xnt/vk/translate_check.h"
#include "xnt/vk/translator/shader_interface.h"
#include "xnt/vk/translator/shader_translator.h"

namespace xnt::vk {

struct TranslateChecker::Device {
  static constexpr uint32_t kColumns = 64;
  static constexpr uint32_t kMaxLanes = 16384;
  // Guest memory: the first kMemoryBytes of each shared-memory binding (guest bytes 0.., 128 MiB..,
  // 256 MiB.., 384 MiB..); the translated shaders' reads and stores past a binding's end drop.
  static constexpr uint32_t kMemoryBytes = 64 * 1024;
  // Vertex capture per lane (capture.geom): gl_Position, o0..o15, oPts, the kill cull distance.
  static constexpr uint32_t kCaptureVectors = 19;

  struct Inputs {
    XeConstants constants{};
    XeSystemConstants system{};
    std::vector<uint32_t> memory;              // binding 0's kMemoryBytes / 4 words (the others 0)
    std::array<std::array<float, 4>, 3> texels{};  // 2D array, cube, 3D
    std::vector<uint32_t> lane_words;          // pixel: 16 interpolators x 4 words per lane
    // Pixel shaders in 2x2 quads (check_quads.h): a triangle list, 17 x 4 words per vertex (the
    // 16 interpolators, then the position in pixels), over `quad_rows` rows of the grid; the
    // outputs are then per pixel of those rows (x + 64 y), not per lane.
    std::vector<uint32_t> quad_vertices;
    uint32_t quad_rows = 0;
  };
  struct Outputs {
    std::array<std::vector<float>, 4> colors;  // [target][lane * 4 + c]
    std::vector<float> depth;
    std::vector<uint8_t> stencil;              // 1: the fragment survived
    std::vector<uint32_t> capture;             // vertex: kCaptureVectors x 4 words per lane
    // Guest memory after the draws (memexport), binding by binding, kMemoryBytes / 4 words each.
    std::array<std::vector<uint32_t>, kSharedMemoryBindingCount> memory;
  };

  explicit Device(VulkanContext& context);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  void RunPixel(const std::vector<uint32_t>& spirv, uint32_t color_targets, uint32_t lanes,
                const Inputs& in, Outputs& out);
  void RunVertex(const std::vector<uint32_t>& spirv, uint32_t lanes, const Inputs& in, Outputs& out);
  // Binds set 2 for the next run: for each slot in `slots`, the texture of its fetch constant
  // (`fetch_constants`: 192 dwords) loaded by the paths' texture cache from `bytes` at guest
  // `address`, with the sampler the paths make for it (`reflection`'s instruction filters);
  // every other element the 1x1 textures. Returns the loader's and sampler's notes
  // (check_device_textures.cpp).
  std::vector<std::string> BindTextures(const uint32_t* fetch_constants, uint32_t slots,
                                        uint32_t address, const std::vector<uint8_t>& bytes,
                                        const ShaderReflection& reflection);

 private:
  using Buffer = check::MappedBuffer;
  using Image = check::DeviceImage;
  Buffer MakeBuffer(VkDeviceSize size, VkBufferUsageFlags usage) {
    return check::MakeMappedBuffer(context_, size, usage);
  }
  Image MakeImage(VkImageType type, VkImageViewType view_type, VkFormat format, VkExtent3D extent,
                  uint32_t layers, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                  VkImageCreateFlags flags = 0) {
    return check::MakeDeviceImage(context_, type, view_type, format, extent, layers, usage, aspect,
                                  flags);
  }
  template <typename Object>
  void Destroy(Object& o) { check::Destroy(device_, o); }
  void CreateRenderPass();  // render_pass_ and framebuffer_ over colors_ and depth_
  VkShaderModule Module(const uint32_t* words, size_t count) {
    return check::MakeShaderModule(device_, words, count);
  }
  void Upload(const Inputs& in);
  // Runs each pipeline over `vertices` vertices and copies back `pixels` pixels of the grid (the
  // pixel check) or the vertex capture of `vertices` vertices.
  void Draw(const std::vector<VkPipeline>& pipelines, uint32_t vertices, uint32_t pixels, bool pixel,
            Outputs& out);

  VulkanContext& context_;
  VkDevice device_;
  std::array<VkDescriptorSetLayout, 4> set_layouts_{};
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::array<VkDescriptorSet, 4> sets_{};
  std::array<Buffer, kSharedMemoryBindingCount> memory_{};
  Buffer constants_, system_, lanes_, capture_, staging_, readback_;
  std::array<Image, 3> textures_{};  // 2D array, cube, 3D
  VkSampler sampler_ = VK_NULL_HANDLE;
  std::array<Image, 4> colors_{};
  Image depth_;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
  VkShaderModule lanes_vs_ = VK_NULL_HANDLE;
  VkShaderModule quads_vs_ = VK_NULL_HANDLE;
  std::array<VkShaderModule, 2> capture_gs_{};  // gl_Position + o0-o7, o8-o15
  bool textures_ready_ = false;
  // The texture cache, its shared memory and command stream, the sampler cache: made on first use.
  struct TexturePath;
  struct TextureBinding {
    TextureBinding();
    ~TextureBinding();
    std::unique_ptr<TexturePath> path;
  } textures_path_;
};

}  // namespace xnt::vk
