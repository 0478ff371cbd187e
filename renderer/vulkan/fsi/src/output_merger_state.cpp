// Register decoding for the fsi output merger (see output_merger_state.h).
#include "output_merger_state.h"

#include <algorithm>
#include <cmath>

#include "xnt/gpu/edram.h"
#include "xnt/gpu/polygon_offset.h"
#include "xnt/gpu/viewport.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk::fsi {

using xenos::Reg;

namespace {

void PackFace(uint32_t func, uint32_t fail, uint32_t zfail, uint32_t pass, uint32_t ref,
                  uint32_t mask, uint32_t write_mask, uint32_t out[4]) {
  out[0] = func;
  out[1] = fail | (zfail << 8) | (pass << 16);
  out[2] = ref & 0xFFu;
  out[3] = (mask & 0xFFu) | ((write_mask & 0xFFu) << 8);
}

bool AlphaTestOn(const xenos::reg::RB_COLORCONTROL& cc) {
  return cc.alpha_test_enable && cc.alpha_func != xenos::CompareFunction::kAlways;
}

}  // namespace

bool EarlyDepthStencilWanted(gpu::RegisterValues regs) {
  const auto cc = xenos::reg::RB_COLORCONTROL::Decode(gpu::RegisterValue(regs, Reg::RB_COLORCONTROL));
  if (AlphaTestOn(cc) || cc.alpha_to_mask_enable) return false;
  const auto dc = xenos::reg::RB_DEPTHCONTROL::Decode(gpu::RegisterValue(regs, Reg::RB_DEPTHCONTROL));
  return (dc.z_enable && dc.zfunc != xenos::CompareFunction::kAlways) || dc.stencil_enable;
}

XeOutputMergerConstants ComputeOutputMergerConstants(gpu::RegisterValues regs,
                                                     const OutputMergerInput& input) {
  XeOutputMergerConstants c{};
  const auto surface = xenos::reg::RB_SURFACE_INFO::Decode(gpu::RegisterValue(regs, Reg::RB_SURFACE_INFO));
  const uint32_t msaa = std::min(uint32_t(surface.msaa_samples), 2u);
  c.surface[0] = surface.surface_pitch * input.scale_x;
  c.surface[1] = msaa;
  c.surface[2] = input.scale_x;
  c.surface[3] = input.scale_y;
  const auto mask = xenos::reg::RB_COLOR_MASK::Decode(gpu::RegisterValue(regs, Reg::RB_COLOR_MASK));
  for (uint32_t i = 0; i < 4; ++i) {
    const auto info = xenos::reg::RB_COLOR_INFO::Decode(gpu::RegisterValue(regs, xenos::kColorInfoRegs[i]));
    gpu::edram::Surface s;
    s.base_tiles = info.color_base;
    s.pitch_pixels = surface.surface_pitch;
    s.msaa = xenos::MsaaSamples(msaa);
    s.format = uint32_t(info.color_format);
    c.rt_base[i] = info.color_base;
    c.rt_pitch_tiles[i] = s.pitch_tiles();
    c.rt_format[i] = uint32_t(info.color_format);
    c.rt_exp_scale[i] = std::ldexp(1.0f, int(info.color_exp_bias));
    const auto bc = xenos::reg::RB_BLENDCONTROL::Decode(gpu::RegisterValue(regs, xenos::kBlendControlRegs[i]));
    const bool blend = !(bc.color_srcblend == xenos::BlendFactor::kOne &&
                         bc.color_destblend == xenos::BlendFactor::kZero &&
                         bc.color_comb_fcn == xenos::BlendOp::kAdd &&
                         bc.alpha_srcblend == xenos::BlendFactor::kOne &&
                         bc.alpha_destblend == xenos::BlendFactor::kZero &&
                         bc.alpha_comb_fcn == xenos::BlendOp::kAdd);
    c.rt_blend[i] = (uint32_t(bc.color_srcblend) & 31u) | ((uint32_t(bc.color_destblend) & 31u) << 5) |
                    ((uint32_t(bc.color_comb_fcn) & 7u) << 10) |
                    ((uint32_t(bc.alpha_srcblend) & 31u) << 16) |
                    ((uint32_t(bc.alpha_destblend) & 31u) << 21) |
                    ((uint32_t(bc.alpha_comb_fcn) & 7u) << 26) | (blend ? 0x80000000u : 0u);
    uint64_t keep = 0;
    const uint32_t write_mask = mask.rt_mask(i);
    for (uint32_t comp = 0; comp < 4; ++comp) {
      if (!(write_mask & (1u << comp))) keep |= gpu::edram::ColorComponentBits(info.color_format, comp);
    }
    c.rt_keep_lo[i] = uint32_t(keep);
    c.rt_keep_hi[i] = uint32_t(keep >> 32);
    c.rt_flags[i] = (input.color_used[i] ? 1u : 0u) | (s.is_64bpp() ? 2u : 0u) |
                    (gpu::edram::ColorFormatIsUnorm(info.color_format) ? 4u : 0u);
  }
  c.blend_constant[0] = gpu::RegisterFloat(regs, xenos::RegIndex(Reg::RB_BLEND_RED));
  c.blend_constant[1] = gpu::RegisterFloat(regs, xenos::RegIndex(Reg::RB_BLEND_GREEN));
  c.blend_constant[2] = gpu::RegisterFloat(regs, xenos::RegIndex(Reg::RB_BLEND_BLUE));
  c.blend_constant[3] = gpu::RegisterFloat(regs, xenos::RegIndex(Reg::RB_BLEND_ALPHA));

  const auto depth_info = xenos::reg::RB_DEPTH_INFO::Decode(gpu::RegisterValue(regs, Reg::RB_DEPTH_INFO));
  gpu::edram::Surface ds;
  ds.base_tiles = depth_info.depth_base;
  ds.pitch_pixels = surface.surface_pitch;
  ds.msaa = xenos::MsaaSamples(msaa);
  ds.is_depth = true;
  ds.format = uint32_t(depth_info.depth_format);
  const auto dc = xenos::reg::RB_DEPTHCONTROL::Decode(gpu::RegisterValue(regs, Reg::RB_DEPTHCONTROL));
  const auto cc = xenos::reg::RB_COLORCONTROL::Decode(gpu::RegisterValue(regs, Reg::RB_COLORCONTROL));
  uint32_t flags = 0;
  if (dc.z_enable) flags |= kXeOmDepthTest;
  if (dc.z_enable && dc.z_write_enable) flags |= kXeOmDepthWrite;
  if (dc.stencil_enable) flags |= kXeOmStencil;
  if (input.has_pixel_shader && AlphaTestOn(cc)) flags |= kXeOmAlphaTest;
  if (input.has_pixel_shader && cc.alpha_to_mask_enable) flags |= kXeOmAlphaToMask;
  const bool float24 = depth_info.depth_format == xenos::DepthRenderTargetFormat::kD24FS8;
  if (float24) flags |= kXeOmDepth20e4;
  if (!gpu::DepthClipped(regs)) flags |= kXeOmDepthClamp;
  c.depth[0] = depth_info.depth_base;
  c.depth[1] = ds.pitch_tiles();
  c.depth[2] = flags;
  c.depth[3] = uint32_t(dc.zfunc);

  c.misc[0] = uint32_t(cc.alpha_func);
  for (uint32_t q = 0; q < 4; ++q) c.misc[1] |= (cc.alpha_to_mask_offset[q] & 3u) << (2 * q);
  // Host coverage -> guest samples (rasterizer.cpp SamplePositions against Vulkan's standard
  // locations): 4x matches sample for sample; Vulkan's 2x lists (0.75, 0.75) first, the guest
  // (0.25, 0.25); guest 2x on a 4-sample host takes the nearest host samples 0 and 3.
  const uint32_t guest_samples = 1u << msaa;
  c.misc[2] = guest_samples == 2 ? (input.host_samples == 2 ? 1u : 2u) : 0u;

  const auto front_mask = xenos::reg::RB_STENCILREFMASK::Decode(gpu::RegisterValue(regs, Reg::RB_STENCILREFMASK));
  const auto back_mask = xenos::reg::RB_STENCILREFMASK::Decode(gpu::RegisterValue(regs, Reg::RB_STENCILREFMASK_BF));
  PackFace(uint32_t(dc.stencilfunc), uint32_t(dc.stencilfail), uint32_t(dc.stencilzfail),
           uint32_t(dc.stencilzpass), front_mask.stencilref, front_mask.stencilmask,
           front_mask.stencilwritemask, c.stencil_front);
  if (dc.backface_enable) {
    PackFace(uint32_t(dc.stencilfunc_bf), uint32_t(dc.stencilfail_bf),
             uint32_t(dc.stencilzfail_bf), uint32_t(dc.stencilzpass_bf), back_mask.stencilref,
             back_mask.stencilmask, back_mask.stencilwritemask, c.stencil_back);
  } else {
    std::copy(c.stencil_front, c.stencil_front + 4, c.stencil_back);
  }

  c.alpha_ref_offsets[0] = gpu::RegisterFloat(regs, xenos::RegIndex(Reg::RB_ALPHA_REF));
  // Polygon offset (gpu/polygon_offset.h): constant term OFFSET for k_24_8 (r = 2^-24 times
  // OFFSET * 2^24); for 20e4 OFFSET * 2^21, times r = 2^(e - 23) in the shader.
  const gpu::PolygonOffsets offsets = gpu::ReadPolygonOffsets(regs, input.polygonal);
  const uint32_t depth_format = uint32_t(depth_info.depth_format);
  c.alpha_ref_offsets[1] = gpu::ShaderPolygonOffsetConstant(offsets.front, depth_format);
  c.alpha_ref_offsets[2] = gpu::ShaderPolygonOffsetConstant(offsets.back, depth_format);
  c.slope_factors[0] = gpu::DepthBiasSlopeFactor(offsets.front);
  c.slope_factors[1] = gpu::DepthBiasSlopeFactor(offsets.back);
  const bool guest = input.derivatives == gpu::ScaledDerivatives::kGuest;
  c.slope_factors[2] = guest ? float(input.scale_x) : 1.0f;
  c.slope_factors[3] = guest ? float(input.scale_y) : 1.0f;
  return c;
}

}  // namespace xnt::vk::fsi
