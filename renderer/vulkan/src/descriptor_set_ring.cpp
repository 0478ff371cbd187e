// Per-draw descriptor sets reused submission by submission (see descriptor_set_ring.h).
#include "xnt/vk/descriptor_set_ring.h"

#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

DescriptorSetRing::DescriptorSetRing(VkDevice device, VkDescriptorSetLayout layout,
                                     std::vector<VkDescriptorPoolSize> sizes, const char* what,
                                     std::function<void(VkDescriptorSet)> on_create)
    : device_(device),
      layout_(layout),
      sizes_(std::move(sizes)),
      what_(what),
      on_create_(std::move(on_create)) {
  for (VkDescriptorPoolSize& size : sizes_) size.descriptorCount *= kSetsPerPool;
}

DescriptorSetRing::~DescriptorSetRing() {
  for (VkDescriptorPool pool : pools_) vkDestroyDescriptorPool(device_, pool, nullptr);
}

VkDescriptorSet DescriptorSetRing::Next(uint64_t submission) {
  if (submission != submission_) {
    submission_ = submission;
    next_ = 0;
  }
  if (next_ == sets_.size()) {
    if (sets_.size() == pools_.size() * kSetsPerPool) {
      pools_.push_back(CreateDescriptorPool(device_, kSetsPerPool, sizes_.data(),
                                            uint32_t(sizes_.size()), what_));
    }
    VkDescriptorSet set = VK_NULL_HANDLE;
    AllocateSets(device_, pools_.back(), &layout_, 1, &set, what_);
    if (on_create_) on_create_(set);
    sets_.push_back(set);
  }
  return sets_[next_++];
}

}  // namespace xnt::vk
