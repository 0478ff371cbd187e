// replay::Backend on Vulkan with host render targets (see fbo_backend.h).
#include "xnt/vk/fbo/fbo_backend.h"

#include <memory>

namespace xnt::vk {

FboBackend::FboBackend(VulkanContext& context, FboBackendOptions options)
    : PathBackend(context, std::make_unique<XenosRenderer>(context, options.renderer),
                  options, "fbo") {}

void FboBackend::DrawTranslation(const replay::DrawCall&, TranslationOptions&,
                                 TranslationOptions& ps) {
  if (!ps.ps_centroid_mask) return;
  // The render targets' mapping (render_targets.h HostSampleOfGuest): the pixel shader reads
  // gl_SampleMaskIn bits in host sample order.
  const uint32_t host = uint32_t(renderer().render_targets().HostSamples(ps.ps_msaa_samples));
  ps.ps_host_sample_of_guest = 0;
  for (uint32_t g = 0; g < ps.ps_msaa_samples; ++g) {
    ps.ps_host_sample_of_guest |= HostSampleOfGuest(ps.ps_msaa_samples, host, g) << (4 * g);
  }
}

}  // namespace xnt::vk
