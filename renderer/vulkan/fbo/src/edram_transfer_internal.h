// Private to the EDRAM transfer code (edram_transfer.h): what sample_transport.cpp (the MSAA
// sample transport, and the descriptor sets and layout both halves share) and edram_gpu_copy.cpp
// (GPU transfers through the device-local EDRAM copy) both need. Every shader of the two binds the
// same set layout and one push-constant range, so their push blocks share kPushBytes.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "xnt/vk/fbo/render_targets.h"

namespace xnt::vk::transfer_internal {

// The one push-constant range of the shared pipeline layout (compute and fragment stages).
constexpr uint32_t kPushBytes = 64;

// How a UINT view's components pack into the host texel's bits (little-endian, R lowest).
enum ViewKind : uint32_t {
  k8888 = 0,
  k1010102 = 1,
  k16x2 = 2,
  k16x4 = 3,
  k32x1 = 4,
  k32x2 = 5,
  k32x4 = 6,
};

// The UINT format of `format`'s colour view, and how its components pack (*kind, a ViewKind);
// throws xnt::Error for a format without one.
VkFormat UintViewFormat(VkFormat format, uint32_t* kind);

// Points `set` at `rt`'s samples (its depth and stencil aspect views, or its UINT colour view
// twice) as bindings 0 and 1 and at `texels` as binding 2: the layout the store and read
// shaders take.
void WriteSampleSet(VkDevice device, VkDescriptorSet set, VkSampler sampler, const RenderTarget& rt,
                    const VkDescriptorBufferInfo& texels);

// Points binding 2 of `set` at `texels` (the storage buffer every transport shader reads or
// writes).
void WriteTexelBinding(VkDevice device, VkDescriptorSet set, const VkDescriptorBufferInfo& texels);

// Begins rendering rows [y0, y1) of `rt` (into its depth and stencil, or through its UINT colour
// view), keeping what is there outside them, with the whole image as the viewport and the rows
// as the scissor; returns the rows' render area.
VkRect2D BeginRowRendering(VkCommandBuffer cmd, const RenderTarget& rt, uint32_t y0, uint32_t y1);

}  // namespace xnt::vk::transfer_internal
