// replay::Backend on Vulkan with host render targets (see fbo_backend.h).
#include "xnt/vk/fbo/fbo_backend.h"

#include <algorithm>
#include <memory>

#include "xnt/gpu/draw_plan.h"

namespace xnt::vk {

FboBackend::FboBackend(VulkanContext& context, FboBackendOptions options)
    : PathBackend(context, std::make_unique<XenosRenderer>(context, options.renderer),
                  options, "fbo") {}

void FboBackend::DrawTranslation(const replay::DrawCall& call, TranslationOptions& vs,
                                 TranslationOptions& ps) {
  ExactDepthTranslation(call, vs, ps);
  const replay::RegisterFile& regs = *call.registers;
  // Only the colour attachments the draw binds (xenos_renderer DrawAttachments: the plan's
  // targets) are pixel shader outputs.
  ps.ps_color_attachments = gpu::DrawColorTargets(regs.values(), 0xFu);
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

void FboBackend::ExactDepthTranslation(const replay::DrawCall& call, TranslationOptions& vs,
                                       TranslationOptions& ps) {
  // Vulkan leaves a triangle's depth interpolation and its rounding to the implementation, so
  // the host's depth of a pixel differs from the guest's in the last bits, and a depth test
  // between two triangles' equal depths (a pre-pass and its EQUAL pass, one drawn before a
  // slice's cut and loaded from the cpu path's EDRAM) goes the host's way. The pixel shader
  // writes the cpu path's depth instead, already in the guest format, so the host depth holds
  // the guest's values and compares as the hardware does. Xenia's host render targets do the
  // format half of it (render_target_cache.cc, depth_float24_conversion "round" / "truncate":
  // the pixel shader converts its depth to 20e4 before the host stores it).
  const replay::RegisterFile& regs = *call.registers;
  if (!regs.Decode<xenos::reg::RB_DEPTHCONTROL>().z_enable || !FilledTriangles(call)) return;
  if (regs.Decode<xenos::reg::RB_SURFACE_INFO>().msaa_samples != xenos::MsaaSamples::k1X) {
    // Without sample-rate shading a fragment shader writes one depth for all its samples, while
    // each guest sample takes the triangle's plane at its own position: those keep the host's.
    ++notes_["fbo: multisampled depth is the host rasterizer's per-sample plane: may differ "
             "from the cpu path in the last bits, and depth tests between equal depths with it"];
    return;
  }
  if (!ExactDepthDevice(call)) {
    ++notes_["fbo: depth is the host rasterizer's plane (no geometry shader or shaderFloat64, "
             "or more interpolators than its inputs hold): may differ from the cpu path in the "
             "last bits, and depth tests between equal depths with it"];
    return;
  }
  vs.fsi_exact_polygon_offset = true;
  vs.vs_position_location = ExactDepthPositionLocation(call);
  ps.fsi_exact_polygon_offset = true;
}

}  // namespace xnt::vk
