// Host render targets for the fbo path, for now: one host image per (EDRAM base, surface pitch,
// format, colour/depth). Colour k_8_8_8_8 -> R8G8B8A8_UNORM; depth D24S8 -> D24_UNORM_S8_UINT or,
// where the device lacks it, D32_SFLOAT_S8_UINT. Render targets have no height on Xenos, so the
// host image is as tall as the EDRAM rows left after its base (at most 8192). Images stay in
// VK_IMAGE_LAYOUT_GENERAL for their whole life; users place barriers between uses.
//
// Not modelled yet (the EDRAM render target cache replaces this in its own issue): aliasing of
// EDRAM between targets of different formats/pitches, MSAA (targets are rendered at 1 sample),
// formats other than k_8_8_8_8 (drawn into an 8-bit host target and reported as approximated).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>

#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

struct RenderTargetKey {
  uint32_t base_tiles = 0;    // RB_COLOR_INFO color_base / RB_DEPTH_INFO depth_base
  uint32_t pitch_pixels = 0;  // RB_SURFACE_INFO surface_pitch
  uint32_t guest_format = 0;  // ColorRenderTargetFormat or DepthRenderTargetFormat
  bool is_depth = false;
  auto tie() const { return std::tie(base_tiles, pitch_pixels, guest_format, is_depth); }
  bool operator<(const RenderTargetKey& o) const { return tie() < o.tie(); }
  bool operator==(const RenderTargetKey& o) const { return tie() == o.tie(); }
};

struct RenderTarget {
  RenderTargetKey key;
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t width = 0;
  uint32_t height = 0;
  VkImageAspectFlags aspects = 0;
  // The host format keeps what the guest format holds (false = approximated).
  bool exact = true;
};

// Rows of pixels the EDRAM holds after `base_tiles` for a target `pitch_pixels` wide
// (80x16-sample tiles, 2048 of them; xenia.md §4.6), clamped to [16, max_dimension].
uint32_t EdramRowsAfter(uint32_t base_tiles, uint32_t pitch_pixels, uint32_t max_dimension);

class RenderTargetCache {
 public:
  explicit RenderTargetCache(VulkanContext& context);
  ~RenderTargetCache();
  RenderTargetCache(const RenderTargetCache&) = delete;
  RenderTargetCache& operator=(const RenderTargetCache&) = delete;

  // The target for `key`, created (and cleared to zero with `cmd`) on first use. Throws
  // xnt::Error for a zero or too-large pitch.
  RenderTarget& Get(const RenderTargetKey& key, VkCommandBuffer cmd);
  const RenderTarget* Find(const RenderTargetKey& key) const;
  size_t size() const { return targets_.size(); }

 private:
  VulkanContext& context_;
  VkDevice device_;
  uint32_t max_dimension_;
  std::map<RenderTargetKey, std::unique_ptr<RenderTarget>> targets_;
};

}  // namespace xnt::vk
