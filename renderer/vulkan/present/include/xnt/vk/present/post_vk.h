// The post-processing chain of renderer/present (post.h) as Vulkan compute passes: one pipeline
// per pass kind built from post_kernels.inc compiled as GLSL (the CPU implementation compiles
// the same text as C++), RGBA16F intermediates (packHalf2x16 pairs in storage buffers), the last
// pass writing RGBA8 with the blue-noise dither. Run() reports the passes' GPU time from
// timestamp queries (uploads and readback excluded) when the queue supports them.
#pragma once

#include <memory>

#include "xnt/present/post.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

// Uses `context` (which must outlive the processor).
std::unique_ptr<present::PostProcessor> MakeVulkanPostProcessor(VulkanContext& context,
                                                                const present::PostOptions& options);
// Creates and owns its own context.
std::unique_ptr<present::PostProcessor> MakeVulkanPostProcessor(const ContextOptions& context_options,
                                                                const present::PostOptions& options);

// The GLSL compute shader of one pass kind (for --dump and tests).
std::string PostPassGlsl(present::PassKind kind);

}  // namespace xnt::vk
