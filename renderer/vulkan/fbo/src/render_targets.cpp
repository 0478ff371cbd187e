// Host render targets (see render_targets.h).
#include "xnt/vk/fbo/render_targets.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/gpu/edram.h"
#include "xnt/vk/fbo/edram_transfer.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk {

using xenos::ColorRenderTargetFormat;

namespace {

bool IsKnownColorFormat(uint32_t f) {
  switch (ColorRenderTargetFormat(f)) {
    case ColorRenderTargetFormat::k_8_8_8_8:
    case ColorRenderTargetFormat::k_8_8_8_8_GAMMA:
    case ColorRenderTargetFormat::k_2_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT:
    case ColorRenderTargetFormat::k_16_16:
    case ColorRenderTargetFormat::k_16_16_16_16:
    case ColorRenderTargetFormat::k_16_16_FLOAT:
    case ColorRenderTargetFormat::k_16_16_16_16_FLOAT:
    case ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16:
    case ColorRenderTargetFormat::k_32_FLOAT:
    case ColorRenderTargetFormat::k_32_32_FLOAT:
      return true;
  }
  return false;
}

// Host texel bits are the guest bits for these pairs (little-endian, R in the low bits, 64bpp
// R/G in the low dword as gpu::edram::PackColor).
bool IsRawPair(uint32_t guest, VkFormat host) {
  switch (ColorRenderTargetFormat(guest)) {
    case ColorRenderTargetFormat::k_8_8_8_8:
    case ColorRenderTargetFormat::k_8_8_8_8_GAMMA:
      return host == VK_FORMAT_R8G8B8A8_UNORM;
    case ColorRenderTargetFormat::k_2_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10:
      return host == VK_FORMAT_A2B10G10R10_UNORM_PACK32;
    case ColorRenderTargetFormat::k_16_16:
      return host == VK_FORMAT_R16G16_SNORM;
    case ColorRenderTargetFormat::k_16_16_16_16:
      return host == VK_FORMAT_R16G16B16A16_SNORM;
    case ColorRenderTargetFormat::k_16_16_FLOAT:
      return host == VK_FORMAT_R16G16_SFLOAT;
    case ColorRenderTargetFormat::k_16_16_16_16_FLOAT:
      return host == VK_FORMAT_R16G16B16A16_SFLOAT;
    case ColorRenderTargetFormat::k_32_FLOAT:
      return host == VK_FORMAT_R32_SFLOAT;
    case ColorRenderTargetFormat::k_32_32_FLOAT:
      return host == VK_FORMAT_R32G32_SFLOAT;
    default:
      break;
  }
  // Unknown guest formats are kept as raw 32-bit words in an RGBA8 target.
  return !IsKnownColorFormat(guest) && host == VK_FORMAT_R8G8B8A8_UNORM;
}

// k_8_8_8_8_GAMMA in R32G32B32A32_SFLOAT holds each channel's guest code k as k / 255 (the pixel
// shader outputs whole codes of the PWL encoding, ChooseHostColorFormat); transfers round to the
// nearest code (gpu::edram Unorm) rather than re-encoding linear values.
bool IsPwlCodePair(uint32_t guest, VkFormat host) {
  return ColorRenderTargetFormat(guest) == ColorRenderTargetFormat::k_8_8_8_8_GAMMA &&
         host == VK_FORMAT_R32G32B32A32_SFLOAT;
}

bool Is16_16Fixed(uint32_t guest) {
  return guest == uint32_t(ColorRenderTargetFormat::k_16_16) ||
         guest == uint32_t(ColorRenderTargetFormat::k_16_16_16_16);
}

float SrgbToLinear(float s) {
  return s <= 0.04045f ? s / 12.92f : std::pow((s + 0.055f) / 1.055f, 2.4f);
}
float LinearToSrgb(float l) {
  if (!(l > 0.0f)) return 0.0f;
  if (l >= 1.0f) return 1.0f;
  return l <= 0.0031308f ? l * 12.92f : 1.055f * std::pow(l, 1.0f / 2.4f) - 0.055f;
}

uint32_t ToUnorm(float v, uint32_t max) {
  if (!(v > 0.0f)) return 0;
  if (v >= 1.0f) return max;
  return uint32_t(v * float(max) + 0.5f);
}

uint32_t ToSnorm16(float v) {
  if (std::isnan(v)) v = 0.0f;
  return uint32_t(int32_t(std::lround(std::clamp(v, -1.0f, 1.0f) * 32767.0f))) & 0xFFFFu;
}

float FromSnorm16(uint32_t bits) {
  return std::max(float(int16_t(uint16_t(bits))) / 32767.0f, -1.0f);
}

bool CanRender(VkPhysicalDevice device, VkFormat format, bool* blendable) {
  if (!device) {
    *blendable = true;
    return true;
  }
  VkFormatProperties props;
  vkGetPhysicalDeviceFormatProperties(device, format, &props);
  VkFormatFeatureFlags need = VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
                              VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                              VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  *blendable = (props.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT) != 0;
  return (props.optimalTilingFeatures & need) == need;
}

}  // namespace

HostColorFormat ChooseHostColorFormat(uint32_t guest_format, gpu::GammaMode gamma,
                                      VkPhysicalDevice physical_device) {
  HostColorFormat c;
  c.raw = true;
  c.exact = true;
  switch (ColorRenderTargetFormat(guest_format)) {
    case ColorRenderTargetFormat::k_8_8_8_8:
      c.format = VK_FORMAT_R8G8B8A8_UNORM;
      break;
    case ColorRenderTargetFormat::k_8_8_8_8_GAMMA:
      if (gamma == gpu::GammaMode::kSrgb) {
        c.format = VK_FORMAT_R8G8B8A8_SRGB;
        c.raw = false;
        c.exact = false;
        c.note = "k_8_8_8_8_GAMMA as sRGB (linear-space blending, sRGB curve instead of PWL)";
      } else if (bool blendable; CanRender(physical_device, VK_FORMAT_R32G32B32A32_SFLOAT,
                                           &blendable) && blendable) {
        // PWL codes / 255 in 32-bit floats (IsPwlCodePair), so that blending runs in IEEE float
        // on every driver: Vulkan lets an UNORM8 target blend at "at least" 8 bits, and llvmpipe
        // rounds each term to 8 bits where NVIDIA blends in float (docs/speed.md).
        c.format = VK_FORMAT_R32G32B32A32_SFLOAT;
        c.output_mode = kColorOutputPwlGamma;
        c.raw = false;
        c.exact = false;
        c.note = "k_8_8_8_8_GAMMA as PWL codes / 255 in a 32-bit float host target (blending in "
                 "float, results outside 0..1 kept until the next transfer)";
      } else {
        c.format = VK_FORMAT_R8G8B8A8_UNORM;
        c.output_mode = kColorOutputPwlGamma;
      }
      break;
    case ColorRenderTargetFormat::k_2_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10:
      c.format = VK_FORMAT_A2B10G10R10_UNORM_PACK32;
      break;
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16:
      // Xenia's host-render-target path uses R16G16B16A16_SFLOAT for 7e3 too.
      c.format = VK_FORMAT_R16G16B16A16_SFLOAT;
      c.output_mode = kColorOutput7e3;
      c.raw = false;
      c.exact = false;
      c.note = "7e3 in a 16-bit float host target (blending at half precision)";
      break;
    case ColorRenderTargetFormat::k_16_16:
      c.format = VK_FORMAT_R16G16_SNORM;
      c.output_mode = kColorOutputFixed16Snorm;
      break;
    case ColorRenderTargetFormat::k_16_16_16_16:
      c.format = VK_FORMAT_R16G16B16A16_SNORM;
      c.output_mode = kColorOutputFixed16Snorm;
      break;
    case ColorRenderTargetFormat::k_16_16_FLOAT:
      c.format = VK_FORMAT_R16G16_SFLOAT;
      break;
    case ColorRenderTargetFormat::k_16_16_16_16_FLOAT:
      c.format = VK_FORMAT_R16G16B16A16_SFLOAT;
      break;
    case ColorRenderTargetFormat::k_32_FLOAT:
      c.format = VK_FORMAT_R32_SFLOAT;
      break;
    case ColorRenderTargetFormat::k_32_32_FLOAT:
      c.format = VK_FORMAT_R32G32_SFLOAT;
      break;
    default:
      c.format = VK_FORMAT_R8G8B8A8_UNORM;
      c.exact = false;
      c.note = "unknown colour format " + std::to_string(guest_format) +
               " kept as raw 32-bit words in an RGBA8 target";
      break;
  }
  if (CanRender(physical_device, c.format, &c.blendable)) return c;
  const VkFormat fallbacks[] = {VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT,
                                VK_FORMAT_R8G8B8A8_UNORM};
  for (VkFormat f : fallbacks) {
    if (f == c.format || !CanRender(physical_device, f, &c.blendable)) continue;
    c.note = "host format " + std::to_string(uint32_t(c.format)) +
             " cannot be rendered to on this device; fallback VkFormat " +
             std::to_string(uint32_t(f)) + " (approximated)";
    c.format = f;
    c.raw = IsRawPair(guest_format, f);
    c.exact = false;
    if (Is16_16Fixed(guest_format)) c.output_mode = kColorOutputFixed16;
    if (IsPwlCodePair(guest_format, f)) c.output_mode = kColorOutputPwlGamma;
    return c;
  }
  throw Error("no renderable host colour format for guest colour format " +
              std::to_string(guest_format));
}

uint32_t HostTexelBytes(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
    case VK_FORMAT_R16G16_SNORM:
    case VK_FORMAT_R16G16_SFLOAT:
    case VK_FORMAT_R32_SFLOAT:
      return 4;
    case VK_FORMAT_R16G16B16A16_SNORM:
    case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R32G32_SFLOAT:
      return 8;
    case VK_FORMAT_R32G32B32A32_SFLOAT:
      return 16;
    default:
      return 0;
  }
}

std::array<float, 4> HostTexelToFloats(VkFormat host, const uint8_t* t) {
  auto u16 = [&](uint32_t i) { return uint32_t(t[2 * i]) | (uint32_t(t[2 * i + 1]) << 8); };
  auto f32 = [&](uint32_t i) { return std::bit_cast<float>(LoadLE32(t + 4 * i)); };
  switch (host) {
    case VK_FORMAT_R8G8B8A8_UNORM:
      return {t[0] / 255.0f, t[1] / 255.0f, t[2] / 255.0f, t[3] / 255.0f};
    case VK_FORMAT_R8G8B8A8_SRGB:
      return {SrgbToLinear(t[0] / 255.0f), SrgbToLinear(t[1] / 255.0f),
              SrgbToLinear(t[2] / 255.0f), t[3] / 255.0f};
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32: {
      uint32_t v = LoadLE32(t);
      return {float(v & 0x3FF) / 1023.0f, float((v >> 10) & 0x3FF) / 1023.0f,
              float((v >> 20) & 0x3FF) / 1023.0f, float(v >> 30) / 3.0f};
    }
    case VK_FORMAT_R16G16_SNORM:
      return {FromSnorm16(u16(0)), FromSnorm16(u16(1)), 0.0f, 1.0f};
    case VK_FORMAT_R16G16B16A16_SNORM:
      return {FromSnorm16(u16(0)), FromSnorm16(u16(1)), FromSnorm16(u16(2)), FromSnorm16(u16(3))};
    case VK_FORMAT_R16G16_SFLOAT:
      return {gpu::edram::HalfToFloat(uint16_t(u16(0))), gpu::edram::HalfToFloat(uint16_t(u16(1))), 0.0f,
              1.0f};
    case VK_FORMAT_R16G16B16A16_SFLOAT:
      return {gpu::edram::HalfToFloat(uint16_t(u16(0))), gpu::edram::HalfToFloat(uint16_t(u16(1))),
              gpu::edram::HalfToFloat(uint16_t(u16(2))), gpu::edram::HalfToFloat(uint16_t(u16(3)))};
    case VK_FORMAT_R32_SFLOAT:
      return {f32(0), 0.0f, 0.0f, 1.0f};
    case VK_FORMAT_R32G32_SFLOAT:
      return {f32(0), f32(1), 0.0f, 1.0f};
    case VK_FORMAT_R32G32B32A32_SFLOAT:
      return {f32(0), f32(1), f32(2), f32(3)};
    default:
      throw Error("host colour format " + std::to_string(uint32_t(host)) + " not convertible");
  }
}

void FloatsToHostTexel(VkFormat host, const std::array<float, 4>& c, uint8_t* t) {
  auto put16 = [&](uint32_t i, uint32_t v) {
    t[2 * i] = uint8_t(v);
    t[2 * i + 1] = uint8_t(v >> 8);
  };
  switch (host) {
    case VK_FORMAT_R8G8B8A8_UNORM:
      for (uint32_t i = 0; i < 4; ++i) t[i] = uint8_t(ToUnorm(c[i], 255));
      return;
    case VK_FORMAT_R8G8B8A8_SRGB:
      for (uint32_t i = 0; i < 3; ++i) t[i] = uint8_t(ToUnorm(LinearToSrgb(c[i]), 255));
      t[3] = uint8_t(ToUnorm(c[3], 255));
      return;
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
      StoreLE32(t, ToUnorm(c[0], 1023) | (ToUnorm(c[1], 1023) << 10) |
                       (ToUnorm(c[2], 1023) << 20) | (ToUnorm(c[3], 3) << 30));
      return;
    case VK_FORMAT_R16G16_SNORM:
    case VK_FORMAT_R16G16B16A16_SNORM:
      for (uint32_t i = 0; i < (host == VK_FORMAT_R16G16_SNORM ? 2u : 4u); ++i) {
        put16(i, ToSnorm16(c[i]));
      }
      return;
    case VK_FORMAT_R16G16_SFLOAT:
    case VK_FORMAT_R16G16B16A16_SFLOAT:
      for (uint32_t i = 0; i < (host == VK_FORMAT_R16G16_SFLOAT ? 2u : 4u); ++i) {
        put16(i, gpu::edram::FloatToHalf(c[i]));
      }
      return;
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_R32G32_SFLOAT:
    case VK_FORMAT_R32G32B32A32_SFLOAT:
      for (uint32_t i = 0; i < HostTexelBytes(host) / 4; ++i) {
        StoreLE32(t + 4 * i, std::bit_cast<uint32_t>(c[i]));
      }
      return;
    default:
      throw Error("host colour format " + std::to_string(uint32_t(host)) + " not convertible");
  }
}

uint64_t HostTexelToGuest(uint32_t guest_format, VkFormat host, const uint8_t* texel) {
  if (IsRawPair(guest_format, host)) {
    uint64_t v = LoadLE32(texel);
    if (HostTexelBytes(host) == 8) v |= uint64_t(LoadLE32(texel + 4)) << 32;
    return v;
  }
  if (IsPwlCodePair(guest_format, host)) {
    std::array<float, 4> c = HostTexelToFloats(host, texel);
    uint64_t v = 0;
    for (uint32_t i = 0; i < 4; ++i) v |= uint64_t(ToUnorm(c[i], 255)) << (8 * i);
    return v;
  }
  return gpu::edram::PackColor(ColorRenderTargetFormat(guest_format), HostTexelToFloats(host, texel));
}

void GuestToHostTexel(uint32_t guest_format, VkFormat host, uint64_t bits, uint8_t* texel) {
  if (IsRawPair(guest_format, host)) {
    StoreLE32(texel, uint32_t(bits));
    if (HostTexelBytes(host) == 8) StoreLE32(texel + 4, uint32_t(bits >> 32));
    return;
  }
  if (IsPwlCodePair(guest_format, host)) {
    std::array<float, 4> c;
    for (uint32_t i = 0; i < 4; ++i) c[i] = float((bits >> (8 * i)) & 0xFFu) / 255.0f;
    FloatsToHostTexel(host, c, texel);
    return;
  }
  FloatsToHostTexel(host, gpu::edram::UnpackColor(ColorRenderTargetFormat(guest_format), bits), texel);
}

VkClearColorValue HostColorClearValue(uint32_t guest_format, VkFormat host, uint64_t clear) {
  uint8_t texel[16] = {};
  GuestToHostTexel(guest_format, host, clear, texel);
  std::array<float, 4> c = HostTexelToFloats(host, texel);
  VkClearColorValue value{};
  for (uint32_t i = 0; i < 4; ++i) value.float32[i] = c[i];
  return value;
}

uint32_t EdramRowsAfter(uint32_t base_tiles, uint32_t pitch_pixels, uint32_t max_dimension) {
  uint32_t pitch_tiles = std::max(1u, (pitch_pixels + xenos::kEdramTileWidthSamples - 1) /
                                          xenos::kEdramTileWidthSamples);
  uint32_t tiles_left = base_tiles < xenos::kEdramTileCount ? xenos::kEdramTileCount - base_tiles
                                                            : 0;
  uint32_t rows = tiles_left / pitch_tiles * xenos::kEdramTileHeightSamples;
  return std::clamp(rows, 16u, max_dimension);
}

uint32_t EdramRowsAfter(const RenderTargetKey& key, uint32_t max_dimension) {
  gpu::edram::Surface s;
  s.base_tiles = key.base_tiles % xenos::kEdramTileCount;
  s.pitch_pixels = key.pitch_pixels;
  s.is_depth = key.is_depth;
  s.format = key.guest_format;
  s.msaa = key.msaa_samples >= 4   ? xenos::MsaaSamples::k4X
           : key.msaa_samples == 2 ? xenos::MsaaSamples::k2X
                                   : xenos::MsaaSamples::k1X;
  // The whole EDRAM from the base: a target's rows run past tile 2047 into tile 0.
  return std::clamp(s.RowsInEdram(max_dimension), 16u, max_dimension);
}

uint32_t HostSampleOfGuest(uint32_t guest_samples, uint32_t host_samples,
                           uint32_t guest_sample) {
  if (host_samples <= 1) return 0;
  if (guest_samples == 2) {
    if (host_samples == 2) return guest_sample == 0 ? 1u : 0u;
    return guest_sample == 0 ? 0u : 2u;  // 2x in a 4x image: top row, bottom row
  }
  return guest_sample;
}

uint32_t GuestSampleOfHost(uint32_t guest_samples, uint32_t host_samples, uint32_t host_sample) {
  if (guest_samples <= 1) return 0;
  if (guest_samples == 2) {
    if (host_samples == 2) return host_sample == 0 ? 1u : 0u;
    return host_sample >> 1;
  }
  return host_sample;
}

VkSampleCountFlagBits RenderTargetCache::HostSamples(uint32_t guest_samples) const {
  if (guest_samples <= 1) return VK_SAMPLE_COUNT_1_BIT;
  if (guest_samples == 2 && (sample_counts_ & VK_SAMPLE_COUNT_2_BIT)) return VK_SAMPLE_COUNT_2_BIT;
  if (sample_counts_ & VK_SAMPLE_COUNT_4_BIT) return VK_SAMPLE_COUNT_4_BIT;
  throw Error("the device cannot render and sample " + std::to_string(guest_samples) +
              "x MSAA targets (no 4x support)");
}

RenderTargetCache::RenderTargetCache(VulkanContext& context, RenderTargetOptions options)
    : context_(context), device_(context.device()), options_(options) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context.physical_device(), &props);
  max_dimension_ = std::min(8192u, props.limits.maxFramebufferHeight);
  const VkPhysicalDeviceLimits& l = props.limits;
  sample_counts_ = l.framebufferColorSampleCounts & l.framebufferDepthSampleCounts &
                   l.framebufferStencilSampleCounts & l.sampledImageColorSampleCounts &
                   l.sampledImageIntegerSampleCounts & l.sampledImageDepthSampleCounts &
                   l.sampledImageStencilSampleCounts;
}

RenderTargetCache::~RenderTargetCache() {
  context_.WaitIdle();
  for (auto& [key, rt] : targets_) {
    vkDestroyImageView(device_, rt->view, nullptr);
    for (VkImageView v : {rt->uint_view, rt->depth_view, rt->stencil_view}) {
      if (v) vkDestroyImageView(device_, v, nullptr);
    }
    vkDestroyImage(device_, rt->image, nullptr);
    vkFreeMemory(device_, rt->memory, nullptr);
  }
}

const RenderTarget* RenderTargetCache::Find(const RenderTargetKey& key) const {
  auto it = targets_.find(key);
  return it == targets_.end() ? nullptr : it->second.get();
}

RenderTarget& RenderTargetCache::Get(const RenderTargetKey& key, VkCommandBuffer cmd) {
  auto it = targets_.find(key);
  if (it != targets_.end()) return *it->second;
  // At a resolution scale the host image is S x T times the guest one; the guest limits shrink
  // so that it still fits the device's framebuffer limit.
  const uint32_t sx = std::max(1u, options_.scale_x), sy = std::max(1u, options_.scale_y);
  if (key.pitch_pixels == 0 || key.pitch_pixels > max_dimension_ / sx) {
    throw Error("render target pitch " + std::to_string(key.pitch_pixels) +
                " is outside 1.." + std::to_string(max_dimension_ / sx) +
                (sx > 1 ? " at " + std::to_string(sx) + "x" + std::to_string(sy) : std::string()));
  }
  auto rt = std::make_unique<RenderTarget>();
  rt->key = key;
  rt->scale_x = sx;
  rt->scale_y = sy;
  rt->width = key.pitch_pixels * sx;
  rt->height = EdramRowsAfter(key, max_dimension_ / sy) * sy;
  ChooseHostFormat(*rt);
  CreateImage(*rt);
  ClearNew(*rt, cmd);
  RenderTarget& ref = *rt;
  targets_.emplace(key, std::move(rt));
  return ref;
}

void RenderTargetCache::ChooseHostFormat(RenderTarget& rt) const {
  const RenderTargetKey& key = rt.key;
  if (key.is_depth) {
    rt.aspects = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    rt.texel_bytes = 4;
    if (key.guest_format == uint32_t(xenos::DepthRenderTargetFormat::kD24FS8)) {
      // 20e4 needs more than 24-bit unorm: a 32-bit float depth, rounded through the 20e4 rule
      // when it moves through the EDRAM (gpu::edram::HostDepthStillMatches).
      VkFormatProperties props;
      vkGetPhysicalDeviceFormatProperties(context_.physical_device(), VK_FORMAT_D32_SFLOAT_S8_UINT,
                                          &props);
      if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) {
        rt.format = VK_FORMAT_D32_SFLOAT_S8_UINT;
      } else {
        rt.format = context_.capabilities().depth_stencil_format;
        rt.exact = false;
        rt.note = "kD24FS8 in a 24-bit unorm host depth (D32_SFLOAT_S8_UINT unsupported)";
      }
    } else {
      rt.format = context_.capabilities().depth_stencil_format;
      rt.exact = rt.format == VK_FORMAT_D24_UNORM_S8_UINT;
      if (!rt.exact) rt.note = "kD24S8 in a 32-bit float host depth (D24_UNORM_S8_UINT unsupported)";
    }
  } else {
    HostColorFormat c =
        ChooseHostColorFormat(key.guest_format, options_.gamma, context_.physical_device());
    rt.format = c.format;
    rt.aspects = VK_IMAGE_ASPECT_COLOR_BIT;
    rt.texel_bytes = HostTexelBytes(c.format);
    rt.output_mode = c.output_mode;
    rt.raw = c.raw;
    rt.blendable = c.blendable;
    rt.exact = c.exact;
    rt.note = c.note;
  }
  rt.samples = HostSamples(key.msaa_samples);
  bool msaa = rt.samples != VK_SAMPLE_COUNT_1_BIT;
  if (msaa && key.msaa_samples == 2 && rt.samples == VK_SAMPLE_COUNT_4_BIT) {
    rt.note += std::string(rt.note.empty() ? "" : "; ") +
                "2x MSAA rendered with 4 host samples (the device lacks 2x): coverage at host "
                "positions (0.375, 0.125) and (0.125, 0.625), not the guest's (0.25, 0.25) and "
                "(0.75, 0.75), so edge pixels may differ from the cpu path";
  }
  if (msaa && key.is_depth && rt.format != VK_FORMAT_D32_SFLOAT_S8_UINT) {
    // Sampled MSAA depth is read back as float: keep it exact with a float host depth.
    rt.format = VK_FORMAT_D32_SFLOAT_S8_UINT;
    rt.exact = key.guest_format == uint32_t(xenos::DepthRenderTargetFormat::kD24FS8);
  }
}

void RenderTargetCache::CreateImage(RenderTarget& rt) {
  const RenderTargetKey& key = rt.key;
  const bool msaa = rt.samples != VK_SAMPLE_COUNT_1_BIT;
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = rt.format;
  // Colour images also get a UINT view (edram_transfer.h moves their bits through it).
  if (!key.is_depth) info.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  info.extent = {rt.width, rt.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = rt.samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
               (key.is_depth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                             : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT) |
               (msaa || key.is_depth ? uint32_t(VK_IMAGE_USAGE_SAMPLED_BIT) : 0u);
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  CheckVk(vkCreateImage(device_, &info, nullptr, &rt.image), "vkCreateImage(render target)");
  if (context_.labels().enabled()) {
    // As a frame debugger's user knows the target from the guest's registers: RB_COLOR_INFO /
    // RB_DEPTH_INFO base (tiles) and format, RB_SURFACE_INFO pitch and MSAA.
    const std::string format(key.is_depth ? xenos::DepthRenderTargetFormatName(key.guest_format)
                                          : xenos::ColorRenderTargetFormatName(key.guest_format));
    context_.labels().Name(rt.image, std::string(key.is_depth ? "depth" : "colour") +
                                         " target EDRAM base " + std::to_string(key.base_tiles) +
                                         " pitch " + std::to_string(key.pitch_pixels) + " " +
                                         format + " " + std::to_string(key.msaa_samples) + "x");
  }
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device_, rt.image, &req);
  VkMemoryAllocateInfo mem{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mem.allocationSize = req.size;
  mem.memoryTypeIndex =
      context_.FindMemoryType(req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  VkResult r = vkAllocateMemory(device_, &mem, nullptr, &rt.memory);
  if (r == VK_SUCCESS) r = vkBindImageMemory(device_, rt.image, rt.memory, 0);
  if (r == VK_SUCCESS) device_bytes_ += req.size;
  if (r == VK_SUCCESS) {
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = rt.image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = rt.format;
    view.subresourceRange = {rt.aspects, 0, 1, 0, 1};
    r = vkCreateImageView(device_, &view, nullptr, &rt.view);
    if (r == VK_SUCCESS && !key.is_depth) {
      view.format = SampleTransportUintFormat(rt.format);
      r = vkCreateImageView(device_, &view, nullptr, &rt.uint_view);
    }
    // Depth and stencil aspect views: the sample transport and the GPU EDRAM store read them.
    if (r == VK_SUCCESS && key.is_depth) {
      view.subresourceRange.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
      r = vkCreateImageView(device_, &view, nullptr, &rt.depth_view);
      if (r == VK_SUCCESS) {
        view.subresourceRange.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
        r = vkCreateImageView(device_, &view, nullptr, &rt.stencil_view);
      }
    }
  }
  if (r != VK_SUCCESS) {
    for (VkImageView v : {rt.view, rt.uint_view, rt.depth_view, rt.stencil_view}) {
      if (v) vkDestroyImageView(device_, v, nullptr);
    }
    if (rt.memory) vkFreeMemory(device_, rt.memory, nullptr);
    vkDestroyImage(device_, rt.image, nullptr);
    CheckVk(r, "render target memory/view");
  }

}

void RenderTargetCache::ClearNew(const RenderTarget& rt, VkCommandBuffer cmd) {
  const RenderTargetKey& key = rt.key;
  // Undefined -> general, cleared to zero (EDRAM content is unknown; zero keeps replays
  // deterministic).
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = 0;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = rt.image;
  barrier.subresourceRange = {rt.aspects, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                       0, nullptr, 0, nullptr, 1, &barrier);
  VkImageSubresourceRange range{rt.aspects, 0, 1, 0, 1};
  if (key.is_depth) {
    VkClearDepthStencilValue zero{0.0f, 0};
    vkCmdClearDepthStencilImage(cmd, rt.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
  } else {
    VkClearColorValue zero{};
    vkCmdClearColorImage(cmd, rt.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
  }
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = key.is_depth ? VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                             VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT
                                       : VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                                             VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                           VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT |
                           VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       0, 0, nullptr, 0, nullptr, 1, &barrier);
}

}  // namespace xnt::vk
