// Descriptor sets of one layout handed out one per draw and written with that draw's buffer
// offsets, in place of one set bound with dynamic offsets.
//
// Why: a driver may implement dynamic offsets by copying the bound set. lavapipe does, for every
// vkCmdBindDescriptorSets that carries any (lvp_execute.c apply_dynamic_offsets: a fresh
// descriptor buffer object, a 4 KiB mapping, per set in the call from the first dynamic one on,
// freed when the submission retires), and that mmap/munmap pair per set per draw was the largest
// cost of a capture-shaped draw there (docs/speed.md). A set written on the host costs a few
// descriptor stores instead, on every driver.
//
// The sets a submission used may be written again only once it has completed; the command
// stream's Flush waits for it, so a new submission number (CommandStream::submission_count) frees
// every set. Sets are made as a submission first needs them and kept: a replay allocates as many
// as its busiest submission drew (the renderer bounds draws per submission), never per draw.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace xnt::vk {

class DescriptorSetRing {
 public:
  // `sizes`: the descriptors of one set of `layout` (a pool holds kSetsPerPool of them).
  // `on_create` writes what every draw's set holds alike (fsi's EDRAM binding), once per set made.
  DescriptorSetRing(VkDevice device, VkDescriptorSetLayout layout,
                    std::vector<VkDescriptorPoolSize> sizes, const char* what,
                    std::function<void(VkDescriptorSet)> on_create = {});
  ~DescriptorSetRing();
  DescriptorSetRing(const DescriptorSetRing&) = delete;
  DescriptorSetRing& operator=(const DescriptorSetRing&) = delete;

  // A set no command of submission `submission` has been given yet, for the caller to write.
  VkDescriptorSet Next(uint64_t submission);
  // Sets made so far (the most one submission used).
  size_t size() const { return sets_.size(); }

  static constexpr uint32_t kSetsPerPool = 256;

 private:
  VkDevice device_;
  VkDescriptorSetLayout layout_;
  std::vector<VkDescriptorPoolSize> sizes_;
  const char* what_;
  std::function<void(VkDescriptorSet)> on_create_;
  std::vector<VkDescriptorPool> pools_;
  std::vector<VkDescriptorSet> sets_;
  size_t next_ = 0;
  uint64_t submission_ = UINT64_MAX;
};

}  // namespace xnt::vk
