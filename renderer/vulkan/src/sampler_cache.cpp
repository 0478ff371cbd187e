// Sampler cache (sampler_cache.h). Clamp / border semantics from Xenia src/xenia/gpu/xenos.h
// (ClampMode, BorderColor) and vulkan/vulkan_texture_cache.cc (sampler creation).
#include "xnt/vk/sampler_cache.h"

#include <algorithm>
#include <cmath>

#include "xnt/xenos/enums.h"

namespace xnt::vk {

namespace {
void AddInexact(std::string& s, const std::string& what) {
  if (!s.empty()) s += "; ";
  s += what;
}

VkSamplerAddressMode Address(xenos::ClampMode mode, std::string& inexact, bool mirror_once) {
  switch (mode) {
    case xenos::ClampMode::kRepeat: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
    case xenos::ClampMode::kMirroredRepeat: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    case xenos::ClampMode::kClampToEdge: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    case xenos::ClampMode::kClampToBorder: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    case xenos::ClampMode::kClampToHalfway:
      AddInexact(inexact, "clamp-to-halfway sampled as clamp-to-edge");
      return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    case xenos::ClampMode::kMirrorClampToEdge:
    case xenos::ClampMode::kMirrorClampToHalfway:
    case xenos::ClampMode::kMirrorClampToBorder:
      if (!mirror_once) {
        // Needs samplerMirrorClampToEdge, which this device does not have.
        AddInexact(inexact, "mirror-once clamp sampled as mirrored repeat");
        return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
      }
      if (mode == xenos::ClampMode::kMirrorClampToHalfway) {
        AddInexact(inexact, "mirror-once clamp-to-halfway sampled as mirror-once to edge");
      } else if (mode == xenos::ClampMode::kMirrorClampToBorder) {
        AddInexact(inexact, "mirror-once clamp-to-border sampled as mirror-once to edge");
      }
      return VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
  }
  AddInexact(inexact, "unknown clamp mode");
  return VK_SAMPLER_ADDRESS_MODE_REPEAT;
}

VkFilter Filter(xenos::TextureFilter f) {
  return f == xenos::TextureFilter::kLinear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
}
}  // namespace

SamplerState SamplerState::FromFetchConstant(const uint32_t dwords[6], const Capabilities* caps) {
  const bool mirror_once = caps && caps->sampler_mirror_clamp_to_edge;
  auto f = xenos::TextureFetchConstant::Decode(dwords);
  SamplerState s;
  s.mag = Filter(f.mag_filter);
  s.min = Filter(f.min_filter);
  s.mip = f.mip_filter == xenos::TextureFilter::kLinear ? VK_SAMPLER_MIPMAP_MODE_LINEAR
                                                         : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  if (f.mag_filter == xenos::TextureFilter::kUseFetchConst ||
      f.min_filter == xenos::TextureFilter::kUseFetchConst) {
    AddInexact(s.inexact, "fetch constant filter 'use fetch constant' taken as point");
  }
  s.address[0] = Address(f.clamp_x, s.inexact, mirror_once);
  s.address[1] = Address(f.clamp_y, s.inexact, mirror_once);
  s.address[2] = Address(f.clamp_z, s.inexact, mirror_once);
  // A volume's own z filter (dword 4 vol_mag / vol_min_filter) has no place in a host 3D
  // sampler; where it differs from the x/y filter the translated shader filters the volume
  // itself (glsl_volume_filter.h), so the sampler takes x and y's.
  switch (f.border_color) {
    case xenos::BorderColor::k_ABGR_Black: s.border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK; break;
    case xenos::BorderColor::k_ABGR_White: s.border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE; break;
    default:
      s.border = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
      AddInexact(s.inexact, "YCbCr black border colour sampled as opaque black");
      break;
  }
  s.lod_bias = float(f.lod_bias) / 32.0f;
  // The fetch constant's bias reaches -16..15.97; a device allows +-maxSamplerLodBias (NVIDIA 15).
  if (caps && std::abs(s.lod_bias) > caps->max_sampler_lod_bias) {
    s.lod_bias = std::clamp(s.lod_bias, -caps->max_sampler_lod_bias, caps->max_sampler_lod_bias);
    AddInexact(s.inexact, "LOD bias beyond the device's maxSamplerLodBias: clamped to it");
  }
  if (f.mip_filter != xenos::TextureFilter::kBaseMap && f.mip_address != 0) {
    s.min_lod = float(f.mip_min_level);
    s.max_lod = float(std::max(f.mip_max_level, f.mip_min_level));
  }
  // aniso_filter 2..5 = max 2:1 .. 16:1 (Xenia xenos.h AnisoFilter); 7 "use fetch constant"
  // has no fetch-constant value to use here and is taken as disabled.
  uint32_t aniso = uint32_t(f.aniso_filter);
  if (aniso >= 2 && aniso <= 5) {
    if (caps && caps->sampler_anisotropy) {
      s.max_anisotropy = std::min(float(1u << (aniso - 1)), caps->max_sampler_anisotropy);
    } else {
      AddInexact(s.inexact, "anisotropic filtering not applied (device lacks samplerAnisotropy)");
    }
  }
  return s;
}

void SamplerState::ApplyInstructionFilters(uint32_t packed, const Capabilities* caps) {
  uint32_t mag_f = packed & 3, min_f = (packed >> 2) & 3, mip_f = (packed >> 4) & 3;
  uint32_t aniso = (packed >> 6) & 7;
  if (mag_f < 2) mag = mag_f == 1 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  if (min_f < 2) min = min_f == 1 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  if (mip_f == 2) {
    max_lod = min_lod;  // base map: no mip selection
  } else if (mip_f < 2) {
    mip = mip_f == 1 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  }
  if (aniso != 7) {
    max_anisotropy = 1.0f;
    if (aniso >= 2 && aniso <= 5) {
      if (caps && caps->sampler_anisotropy) {
        max_anisotropy = std::min(float(1u << (aniso - 1)), caps->max_sampler_anisotropy);
      } else {
        AddInexact(inexact, "anisotropic filtering not applied (device lacks samplerAnisotropy)");
      }
    }
  }
}

SamplerState SamplerState::ForSlot(const uint32_t fetch_dwords[6], uint32_t instruction_filters,
                                   bool host_lod, const Capabilities* caps) {
  SamplerState state = FromFetchConstant(fetch_dwords, caps);
  state.ApplyInstructionFilters(instruction_filters, caps);
  if (host_lod) state.KeepMagnificationPoint();
  return state;
}

bool SamplerState::KeepMagnificationPoint() {
  if (mag != VK_FILTER_NEAREST || max_anisotropy <= 1.0f) return false;
  max_anisotropy = 1.0f;
  AddInexact(inexact,
             "anisotropic filtering off for a texture with point magnification sampled with the "
             "host's own LOD (cube, 1D, volume, register LOD or gradients, vertex shader): a host "
             "anisotropic sampler filters magnified footprints");
  return true;
}

SamplerCache::~SamplerCache() {
  for (auto& [state, sampler] : samplers_) vkDestroySampler(device_, sampler, nullptr);
}

VkSampler SamplerCache::Get(const SamplerState& state) {
  auto it = samplers_.find(state);
  if (it != samplers_.end()) return it->second;
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = state.mag;
  info.minFilter = state.min;
  info.mipmapMode = state.mip;
  info.addressModeU = state.address[0];
  info.addressModeV = state.address[1];
  info.addressModeW = state.address[2];
  info.mipLodBias = state.lod_bias;
  info.minLod = state.min_lod;
  info.maxLod = state.max_lod;
  info.borderColor = state.border;
  if (state.max_anisotropy > 1.0f) {
    info.anisotropyEnable = VK_TRUE;
    info.maxAnisotropy = state.max_anisotropy;
  }
  VkSampler sampler;
  CheckVk(vkCreateSampler(device_, &info, nullptr, &sampler), "vkCreateSampler(texture)");
  samplers_.emplace(state, sampler);
  return sampler;
}

}  // namespace xnt::vk
