// replay::Backend on Vulkan with host render targets (see fbo_backend.h).
#include "xnt/vk/fbo/fbo_backend.h"

#include <algorithm>
#include <memory>

namespace xnt::vk {

FboBackend::FboBackend(VulkanContext& context, FboBackendOptions options)
    : PathBackend(context, std::make_unique<XenosRenderer>(context, options.renderer),
                  options, "fbo") {}

void FboBackend::DrawTranslation(const replay::DrawCall& call, TranslationOptions&,
                                 TranslationOptions& ps) {
  const replay::RegisterFile& regs = *call.registers;
  const auto cc = regs.Decode<xenos::reg::RB_COLORCONTROL>();
  if (call.pixel_shader && cc.alpha_to_mask_enable) {
    // The guest sample count as DrawPlan counts it (1 << min(msaa_samples, 2)).
    const uint32_t msaa = uint32_t(regs.Decode<xenos::reg::RB_SURFACE_INFO>().msaa_samples);
    ps.ps_msaa_samples = 1u << std::min(msaa, 2u);
    const uint32_t host = uint32_t(renderer().render_targets().HostSamples(ps.ps_msaa_samples));
    ps.ps_alpha_to_mask = 0x100u | (host << 12);
    for (uint32_t q = 0; q < 4; ++q) ps.ps_alpha_to_mask |= (cc.alpha_to_mask_offset[q] & 3u) << (2 * q);
    // The host samples hold guest samples as the render targets map them (a guest 2x target on
    // a 4x host image: two host samples per guest sample); the mask is written per host sample.
    for (uint32_t h = 0; h < host; ++h) {
      ps.ps_alpha_to_mask |= GuestSampleOfHost(ps.ps_msaa_samples, host, h) << (16 + 4 * h);
    }
  }
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
