// Host render targets (see render_targets.h).
#include "xnt/vk/render_targets.h"

#include <algorithm>

#include "xnt/base/error.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk {

uint32_t EdramRowsAfter(uint32_t base_tiles, uint32_t pitch_pixels, uint32_t max_dimension) {
  uint32_t pitch_tiles = std::max(1u, (pitch_pixels + xenos::kEdramTileWidthSamples - 1) /
                                          xenos::kEdramTileWidthSamples);
  uint32_t tiles_left = base_tiles < xenos::kEdramTileCount ? xenos::kEdramTileCount - base_tiles
                                                            : 0;
  uint32_t rows = tiles_left / pitch_tiles * xenos::kEdramTileHeightSamples;
  return std::clamp(rows, 16u, max_dimension);
}

RenderTargetCache::RenderTargetCache(VulkanContext& context)
    : context_(context), device_(context.device()) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context.physical_device(), &props);
  max_dimension_ = std::min(8192u, props.limits.maxFramebufferHeight);
}

RenderTargetCache::~RenderTargetCache() {
  vkDeviceWaitIdle(device_);
  for (auto& [key, rt] : targets_) {
    vkDestroyImageView(device_, rt->view, nullptr);
    vkDestroyImage(device_, rt->image, nullptr);
    vkFreeMemory(device_, rt->memory, nullptr);
  }
}

const RenderTarget* RenderTargetCache::Find(const RenderTargetKey& key) const {
  auto it = targets_.find(key);
  return it == targets_.end() ? nullptr : it->second.get();
}

RenderTarget& RenderTargetCache::Get(const RenderTargetKey& key, VkCommandBuffer cmd) {
  auto it = targets_.find(key);
  if (it != targets_.end()) return *it->second;
  if (key.pitch_pixels == 0 || key.pitch_pixels > max_dimension_) {
    throw Error("render target pitch " + std::to_string(key.pitch_pixels) +
                " is outside 1.." + std::to_string(max_dimension_));
  }
  auto rt = std::make_unique<RenderTarget>();
  rt->key = key;
  rt->width = key.pitch_pixels;
  rt->height = EdramRowsAfter(key.base_tiles, key.pitch_pixels, max_dimension_);
  if (key.is_depth) {
    rt->format = context_.capabilities().depth_stencil_format;
    rt->aspects = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    // D24FS8 (20e4 float depth) is kept in the host's 24-bit unorm / 32-bit float for now.
    rt->exact = key.guest_format == uint32_t(xenos::DepthRenderTargetFormat::kD24S8) &&
                rt->format == VK_FORMAT_D24_UNORM_S8_UINT;
  } else {
    rt->format = VK_FORMAT_R8G8B8A8_UNORM;
    rt->aspects = VK_IMAGE_ASPECT_COLOR_BIT;
    rt->exact = key.guest_format == uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  }
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = rt->format;
  info.extent = {rt->width, rt->height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
               (key.is_depth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                             : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  CheckVk(vkCreateImage(device_, &info, nullptr, &rt->image), "vkCreateImage(render target)");
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device_, rt->image, &req);
  VkMemoryAllocateInfo mem{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mem.allocationSize = req.size;
  mem.memoryTypeIndex =
      context_.FindMemoryType(req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  VkResult r = vkAllocateMemory(device_, &mem, nullptr, &rt->memory);
  if (r == VK_SUCCESS) r = vkBindImageMemory(device_, rt->image, rt->memory, 0);
  if (r == VK_SUCCESS) {
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = rt->image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = rt->format;
    view.subresourceRange = {rt->aspects, 0, 1, 0, 1};
    r = vkCreateImageView(device_, &view, nullptr, &rt->view);
  }
  if (r != VK_SUCCESS) {
    if (rt->memory) vkFreeMemory(device_, rt->memory, nullptr);
    vkDestroyImage(device_, rt->image, nullptr);
    CheckVk(r, "render target memory/view");
  }

  // Undefined -> general, cleared to zero (EDRAM content is unknown; zero keeps replays
  // deterministic).
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = 0;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = rt->image;
  barrier.subresourceRange = {rt->aspects, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                       0, nullptr, 0, nullptr, 1, &barrier);
  VkImageSubresourceRange range{rt->aspects, 0, 1, 0, 1};
  if (key.is_depth) {
    VkClearDepthStencilValue zero{0.0f, 0};
    vkCmdClearDepthStencilImage(cmd, rt->image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
  } else {
    VkClearColorValue zero{};
    vkCmdClearColorImage(cmd, rt->image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
  }
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = key.is_depth ? VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                             VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT
                                       : VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                                             VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                           VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT |
                           VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       0, 0, nullptr, 0, nullptr, 1, &barrier);
  RenderTarget& ref = *rt;
  targets_.emplace(key, std::move(rt));
  return ref;
}

}  // namespace xnt::vk
