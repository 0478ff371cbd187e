// Host samplers for texture fetch constants: filters, clamp modes, border colour and LOD bias
// from dwords 0, 3, 4 and 5 (xenos::TextureFetchConstant), one VkSampler per distinct state.
// What Vulkan cannot express exactly without device features the context does not enable is
// approximated and reported in `Sampler::inexact` (the caller counts it as a note).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <string>
#include <tuple>

#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

struct SamplerState {
  VkFilter mag = VK_FILTER_NEAREST, min = VK_FILTER_NEAREST;
  VkSamplerMipmapMode mip = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  VkSamplerAddressMode address[3] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                     VK_SAMPLER_ADDRESS_MODE_REPEAT};
  VkBorderColor border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  float lod_bias = 0.0f;  // fetch constant lod_bias (signed 5.5 fixed point)
  // LOD clamp: mip_min_level (dword 4 bits 2..5) up to mip_max_level (bits 6..9), or 0..0 for
  // the kBaseMap mip filter; the texture's view holds only the loaded levels anyway.
  float min_lod = 0.0f, max_lod = 0.0f;
  float max_anisotropy = 1.0f;  // > 1: anisotropic filtering (aniso_filter, device max)
  std::string inexact;     // empty when exact
  bool operator<(const SamplerState& o) const {
    return std::tie(mag, min, mip, address[0], address[1], address[2], border, lod_bias, min_lod,
                    max_lod, max_anisotropy) <
           std::tie(o.mag, o.min, o.mip, o.address[0], o.address[1], o.address[2], o.border,
                    o.lod_bias, o.min_lod, o.max_lod, o.max_anisotropy);
  }
  // Derived from the 6 fetch-constant dwords. Without `caps` (or when the device lacks the
  // features) mirror-once clamps fall back to mirrored repeat and anisotropy is not applied,
  // both reported in `inexact`.
  static SamplerState FromFetchConstant(const uint32_t dwords[6],
                                        const Capabilities* caps = nullptr);
  // A tfetch instruction's filter fields override the fetch constant's unless they say "keep"
  // (packed as ShaderReflection::texture_filters: mag 0-1, min 2-3, mip 4-5, aniso 6-8).
  void ApplyInstructionFilters(uint32_t packed, const Capabilities* caps = nullptr);
  // For a slot some fetch samples through the host's own magnification choice
  // (ShaderReflection::texture_host_lod_slots): with point magnification, no anisotropy. The
  // texture unit never filters a magnified footprint whose mag filter is point, while a host
  // anisotropic sampler may (lavapipe does); a minified one then loses its anisotropic walk
  // (reported in `inexact`). True when it changed the state.
  bool KeepMagnificationPoint();
  // The sampler a draw binds to one texture slot: the fetch constant's state, the slot's tfetch
  // filter overrides (`instruction_filters`) and, for a slot sampled through the host's own
  // magnification choice (`host_lod`), KeepMagnificationPoint. Replay and translate --check both
  // derive a slot's sampler here.
  static SamplerState ForSlot(const uint32_t fetch_dwords[6], uint32_t instruction_filters,
                              bool host_lod, const Capabilities* caps);
};

class SamplerCache {
 public:
  explicit SamplerCache(VulkanContext& context) : device_(context.device()) {}
  ~SamplerCache();
  SamplerCache(const SamplerCache&) = delete;
  SamplerCache& operator=(const SamplerCache&) = delete;

  VkSampler Get(const SamplerState& state);
  size_t size() const { return samplers_.size(); }

 private:
  VkDevice device_;
  std::map<SamplerState, VkSampler> samplers_;
};

}  // namespace xnt::vk
