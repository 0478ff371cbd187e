// fsi path: resolves and clears in compute, straight from the EDRAM storage buffer (no readback
// of the EDRAM): shaders/edram_resolve.comp writes a resolve's destination bit for bit as the CPU
// resolve engine (gpu/resolve.h) would, into the guest-memory mirror or a host-visible scratch
// buffer; shaders/edram_clear.comp writes a resolve's clears as gpu::ApplyResolveClears does.
//
// Plan() decides whether the shader may do a copy: it may unless the engine would refuse the
// copy or part of it (a destination outside guest memory, a corrupt pitch, a format it cannot
// pack), the rectangle starts left of or above the origin, the destination is linear (never
// from registers), or pitch/height would map two pixels to one byte (the engine's last write
// wins there; the shader has no order). Those copies stay on the CPU engine, reported by name.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "xnt/gpu/register_values.h"
#include "xnt/gpu/resolve.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk::fsi {

class EdramCompute {
 public:
  // `dest_layout`: the shared-memory set layout (4 storage ranges of 128 MiB), which the copy's
  // destination set uses whether it is the mirror or the scratch buffer.
  EdramCompute(VulkanContext& context, CommandStream& stream, VkBuffer edram,
               VkDescriptorSetLayout dest_layout);
  ~EdramCompute();
  EdramCompute(const EdramCompute&) = delete;
  EdramCompute& operator=(const EdramCompute&) = delete;

  struct Band {
    int64_t lo = 0, hi = 0;  // bytes the band may touch (16-byte blocks; a superset)
  };
  struct CopyPlan {
    gpu::ResolveInfo info;
    uint32_t bytes_per_pixel = 0;
    std::vector<Band> bands;  // per 32-row band, from info.y0
    int64_t lo = 0, hi = 0;   // union of the bands
    uint32_t push[16] = {};   // edram_resolve.comp XeResolve
  };
  // A plan when the shader can do the copy exactly; otherwise false with the reason in `why`.
  bool Plan(const gpu::ResolveInfo& info, CopyPlan& plan, std::string& why) const;

  // Records the copy with its destination bound by `dest` (byte addresses minus `dest_sub`).
  // The caller has made the draws' EDRAM writes and the destination visible to compute.
  // Afterwards the destination writes are visible to transfers and the host.
  void RecordCopy(const CopyPlan& plan, VkDescriptorSet dest, uint32_t dest_sub);
  // After the submission holding RecordCopy completed: each band's written range [lo, hi)
  // (16-byte blocks, as the engine's read-modify-write), hi <= lo where a band wrote nothing.
  std::vector<std::pair<uint32_t, uint32_t>> WrittenBands(const CopyPlan& plan) const;

  // A host-visible buffer of at least `bytes` (at most 128 MiB) bound as a copy destination;
  // valid until the next call. Null data when `bytes` is too large.
  VkDescriptorSet Scratch(uint64_t bytes, uint8_t** data);

  // Records the resolve's colour and depth clears on the EDRAM buffer (as
  // gpu::ApplyResolveClears at this scale), each made visible to later draws and dispatches.
  // False when the resolve clears nothing.
  bool RecordClears(const gpu::ResolveInfo& info, gpu::RegisterValues regs, uint32_t scale_x,
                    uint32_t scale_y);

 private:
  void CreatePipelines();
  void BarrierComputeWrites(VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

  VulkanContext& context_;
  CommandStream& stream_;
  VkDevice device_;
  VkBuffer edram_;
  VkDescriptorSetLayout dest_layout_;

  VkDescriptorSetLayout edram_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline resolve_ = VK_NULL_HANDLE, clear_ = VK_NULL_HANDLE;  // created on first use
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet edram_set_ = VK_NULL_HANDLE, scratch_set_ = VK_NULL_HANDLE;

  // Per-band ranges the copy writes (atomics), read by the host after the submission.
  VkBuffer bands_ = VK_NULL_HANDLE;
  VkDeviceMemory bands_memory_ = VK_NULL_HANDLE;
  uint32_t* bands_data_ = nullptr;

  VkBuffer scratch_ = VK_NULL_HANDLE;
  VkDeviceMemory scratch_memory_ = VK_NULL_HANDLE;
  uint8_t* scratch_data_ = nullptr;
  uint64_t scratch_bytes_ = 0;
};

}  // namespace xnt::vk::fsi
