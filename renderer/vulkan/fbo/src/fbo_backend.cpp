// replay::Backend on Vulkan with host render targets (see fbo_backend.h).
#include "xnt/vk/fbo/fbo_backend.h"

#include <memory>

namespace xnt::vk {

FboBackend::FboBackend(VulkanContext& context, FboBackendOptions options)
    : PathBackend(context, std::make_unique<XenosRenderer>(context, options.renderer),
                  options, "fbo") {}

}  // namespace xnt::vk
