// Host render targets for the fbo path: one host image per (EDRAM base, surface pitch, guest
// format, colour/depth). Render targets have no height on Xenos, so the host image is as tall as
// the EDRAM rows left after its base (at most 8192). Images stay in VK_IMAGE_LAYOUT_GENERAL for
// their whole life; users place barriers between uses. Which EDRAM tiles a host image really
// holds is the EDRAM cache's business (edram_cache.h): it moves data between host images when a
// used tile range changes owner.
//
// Host format per guest format (ChooseHostColorFormat), following Xenia's host-render-target
// path (vulkan_render_target_cache.cc):
//   k_8_8_8_8                        R8G8B8A8_UNORM              bits identical
//   k_8_8_8_8_GAMMA  (exact mode)    R32G32B32A32_SFLOAT         code k as k / 255 (guest bits
//                                                                identical unblended); the pixel
//                                                                shader encodes linear -> PWL
//                                                                gamma in whole codes; the host
//                                                                blends in float on every driver
//                                                                (R8G8B8A8_UNORM where RGBA32F
//                                                                cannot blend)
//   k_8_8_8_8_GAMMA  (sRGB mode)     R8G8B8A8_SRGB               approximation: blending in
//                                                                linear space, sRGB curve
//   k_2_10_10_10(_AS_10_10_10_10)    A2B10G10R10_UNORM_PACK32    bits identical
//   k_2_10_10_10_FLOAT(_AS_16_16_16_16) R16G16B16A16_SFLOAT      7e3 stand-in (every 7e3 value is
//                                                                a half; stores round to 7e3)
//   k_16_16 / k_16_16_16_16          R16G16(B16A16)_SNORM        bits identical; the shader maps
//                                                                -32..32 to -1..1 (Xenia's
//                                                                "snorm16 full range" option)
//   k_16_16_FLOAT / _16_16_16_16_FLOAT  R16G16(B16A16)_SFLOAT    bits identical
//   k_32_FLOAT / k_32_32_FLOAT       R32_SFLOAT / R32G32_SFLOAT  bits identical
//   kD24S8                           D24_UNORM_S8_UINT, else D32_SFLOAT_S8_UINT
//   kD24FS8 (20e4)                   D32_SFLOAT_S8_UINT (the 32-bit host depth is kept beside the
//                                                                24-bit guest value, edram.h)
// A format the device cannot render to (vkGetPhysicalDeviceFormatProperties) falls back to
// R16G16B16A16_SFLOAT, then R32G32B32A32_SFLOAT, then R8G8B8A8_UNORM; the choice carries a note.
//
// MSAA: 2x and 4x guest targets are VK_SAMPLE_COUNT_2 / _4 images (a device without 2x for
// attachments and sampled images gets 4x for 2x targets, as Xenia does, with a note); MSAA depth
// images are always D32_SFLOAT_S8_UINT (its depth is read back exactly through a sampled view).
// Guest sample numbering is edram.h's (2x: sample s is sample row s; 4x: column s & 1, row s >> 1).
// With Vulkan's standard sample locations, 4x host sample i sits where guest sample i does
// (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right); 2x host sample 0 is the bottom one
// (0.75, 0.75) and 1 the top one (0.25, 0.25), so guest sample 0 is host sample 1; 2x on a 4x
// image: guest sample 0 is host samples 0 and 1 (top row), guest sample 1 host samples 2 and 3.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "xnt/gpu/renderer_options.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

using gpu::GammaMode;

struct RenderTargetOptions {
  gpu::GammaMode gamma = gpu::GammaMode::kExact;
  // Resolution scale (host pixels per guest pixel per axis, 1..3): every host image is
  // pitch x scale_x wide and its rows x scale_y tall, the host pixels of the scaled EDRAM tiles
  // (80S x 16T samples, gpu/edram.h) it stands for. Keys stay in guest units.
  uint32_t scale_x = 1, scale_y = 1;
};

// Colour output conversion the translated pixel shader applies for a target
// (XeSystemConstants::color_output_modes, 4 bits per target; shader_interface.h).
enum ColorOutputMode : uint32_t {
  kColorOutputPass = 0,         // as is (the host format clamps/rounds like the guest)
  kColorOutputFixed16Snorm = 1, // clamp to -32..32, then / 32 into an SNORM host target
  kColorOutputPwlGamma = 2,     // RGB linear -> Xenos PWL gamma (clamped 0..1), alpha as is
  kColorOutput7e3 = 3,          // RGB clamped to 0..31.875 (7e3 range), alpha to 0..1
  kColorOutputFixed16 = 4,      // clamp to -32..32 (float host stand-in for 16_16)
};

struct HostColorFormat {
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t output_mode = kColorOutputPass;
  bool raw = false;    // host texel bits == guest bits (transfers copy bits)
  bool exact = false;  // the host keeps every guest value and rounds stores like the guest
  bool blendable = true;
  std::string note;    // non-empty: why the choice is approximate / a fallback
};

// The host format for a guest colour format on `physical_device` (nullptr: no support check).
HostColorFormat ChooseHostColorFormat(uint32_t guest_format, gpu::GammaMode gamma,
                                      VkPhysicalDevice physical_device);
// Bytes of one texel of a colour host format (as copied to a buffer); 0 for unknown formats.
uint32_t HostTexelBytes(VkFormat format);
// A host colour texel (as copied to a buffer) <-> guest bits of `guest_format` (ColorRender-
// TargetFormat; 64bpp formats use the high dword). Raw pairs copy bits; others convert through
// the values the host format holds (e.g. half -> 7e3, sRGB -> PWL gamma). Throws xnt::Error for a
// host format it does not know.
uint64_t HostTexelToGuest(uint32_t guest_format, VkFormat host, const uint8_t* texel);
void GuestToHostTexel(uint32_t guest_format, VkFormat host, uint64_t bits, uint8_t* texel);
// The RGBA values a host colour texel holds (what blending/sampling sees) and the inverse.
std::array<float, 4> HostTexelToFloats(VkFormat host, const uint8_t* texel);
void FloatsToHostTexel(VkFormat host, const std::array<float, 4>& rgba, uint8_t* texel);
// The host clear value of a guest colour clear (RB_COLOR_CLEAR in the low dword,
// RB_COLOR_CLEAR_LO in the high dword for 64bpp), so that the host target holds exactly the
// guest bits `clear` (through HostTexelToGuest).
VkClearColorValue HostColorClearValue(uint32_t guest_format, VkFormat host, uint64_t clear);

// The host sample a store reads for guest sample `guest_sample`, and the guest sample a load
// writes into host sample `host_sample` (guest_samples / host_samples: 1, 2 or 4).
uint32_t HostSampleOfGuest(uint32_t guest_samples, uint32_t host_samples, uint32_t guest_sample);
uint32_t GuestSampleOfHost(uint32_t guest_samples, uint32_t host_samples, uint32_t host_sample);

struct RenderTargetKey {
  uint32_t base_tiles = 0;    // RB_COLOR_INFO color_base / RB_DEPTH_INFO depth_base
  uint32_t pitch_pixels = 0;  // RB_SURFACE_INFO surface_pitch
  uint32_t guest_format = 0;  // ColorRenderTargetFormat or DepthRenderTargetFormat
  bool is_depth = false;
  // RB_SURFACE_INFO msaa_samples as a count (1, 2, 4). Host images have one sample, but a 2x/4x
  // target covers other EDRAM samples than a 1x one, so each sample count has its own image.
  uint32_t msaa_samples = 1;
  auto tie() const {
    return std::tie(base_tiles, pitch_pixels, guest_format, is_depth, msaa_samples);
  }
  bool operator<(const RenderTargetKey& o) const { return tie() < o.tie(); }
  bool operator==(const RenderTargetKey& o) const { return tie() == o.tie(); }
};

struct RenderTarget {
  RenderTargetKey key;
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t width = 0;   // host pixels: pitch x scale_x
  uint32_t height = 0;  // host pixels: guest rows x scale_y
  uint32_t scale_x = 1, scale_y = 1;
  VkImageAspectFlags aspects = 0;
  // Host samples (2x guest targets use 4 where the device lacks 2, see guest_samples).
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  // edram_transfer.h: the UINT view of a colour image; the depth-only and stencil-only views of
  // an MSAA depth image.
  VkImageView uint_view = VK_NULL_HANDLE;
  VkImageView depth_view = VK_NULL_HANDLE;
  VkImageView stencil_view = VK_NULL_HANDLE;
  uint32_t texel_bytes = 4;       // colour: bytes per texel in a buffer copy
  uint32_t output_mode = 0;       // ColorOutputMode for the pixel shader
  bool raw = false;               // colour: host bits == guest bits
  bool blendable = true;
  // The host format keeps what the guest format holds (false = approximated).
  bool exact = true;
  std::string note;               // why not exact / a fallback
};

// Rows of pixels the EDRAM holds after `base_tiles` for a target `pitch_pixels` wide
// (80x16-sample tiles, 2048 of them), clamped to [16, max_dimension]. The
// four-argument form knows the target's format and sample count (64bpp and MSAA targets cover
// fewer pixels per tile).
uint32_t EdramRowsAfter(uint32_t base_tiles, uint32_t pitch_pixels, uint32_t max_dimension);
uint32_t EdramRowsAfter(const RenderTargetKey& key, uint32_t max_dimension);

class RenderTargetCache {
 public:
  explicit RenderTargetCache(VulkanContext& context, RenderTargetOptions options = {});
  ~RenderTargetCache();
  RenderTargetCache(const RenderTargetCache&) = delete;
  RenderTargetCache& operator=(const RenderTargetCache&) = delete;

  // The target for `key`, created (and cleared to zero with `cmd`) on first use. Throws
  // xnt::Error for a zero or too-large pitch.
  RenderTarget& Get(const RenderTargetKey& key, VkCommandBuffer cmd);
  const RenderTarget* Find(const RenderTargetKey& key) const;
  size_t size() const { return targets_.size(); }
  // Device memory of every host image (their allocations' sizes).
  uint64_t device_bytes() const { return device_bytes_; }
  const RenderTargetOptions& options() const { return options_; }
  // The host sample count for a guest sample count (1, 2, 4).
  VkSampleCountFlagBits HostSamples(uint32_t guest_samples) const;

 private:
  // Get's steps for a new target: the host format standing in for the guest one (with its
  // exactness note) and the sample count; the image, its memory and views; the first use,
  // undefined -> general and cleared to zero (EDRAM content is unknown: zero keeps replays
  // deterministic).
  void ChooseHostFormat(RenderTarget& rt) const;
  void CreateImage(RenderTarget& rt);
  static void ClearNew(const RenderTarget& rt, VkCommandBuffer cmd);
  VulkanContext& context_;
  VkDevice device_;
  RenderTargetOptions options_;
  uint32_t max_dimension_;
  VkSampleCountFlags sample_counts_ = VK_SAMPLE_COUNT_1_BIT;
  std::map<RenderTargetKey, std::unique_ptr<RenderTarget>> targets_;
  uint64_t device_bytes_ = 0;
};

}  // namespace xnt::vk
