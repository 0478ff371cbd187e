// Host render-target formats per guest format: CPU conversions (host texel <-> guest bits, clear
// values) and, on lavapipe with validation, resolve clears of every format read back through
// EdramCache::Snapshot, transfers between formats / sample counts / colour and depth, bit-exact.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <vector>

#include "../fake_guest.h"
#include "../test_env.h"
#include "edram_rig.h"
#include "xnt/gpu/edram.h"
#include "xnt/vk/fbo/render_targets.h"
#include "xnt/vk/fbo/xenos_renderer.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

using xenos::ColorRenderTargetFormat;
using xenos::DepthRenderTargetFormat;
using xenos::Reg;

constexpr ColorRenderTargetFormat kColorFormats[] = {
    ColorRenderTargetFormat::k_8_8_8_8,
    ColorRenderTargetFormat::k_8_8_8_8_GAMMA,
    ColorRenderTargetFormat::k_2_10_10_10,
    ColorRenderTargetFormat::k_2_10_10_10_FLOAT,
    ColorRenderTargetFormat::k_16_16,
    ColorRenderTargetFormat::k_16_16_16_16,
    ColorRenderTargetFormat::k_16_16_FLOAT,
    ColorRenderTargetFormat::k_16_16_16_16_FLOAT,
    ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10,
    ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16,
    ColorRenderTargetFormat::k_32_FLOAT,
    ColorRenderTargetFormat::k_32_32_FLOAT,
};

bool Is64(ColorRenderTargetFormat f) { return xenos::IsColorRenderTargetFormat64bpp(f); }

// Guest bit patterns a format can hold and a host format keeps exactly (for 7e3: canonical
// 7e3 codes; 16_16: not -32768, which SNORM reads as -1.0 like -32767).
std::vector<uint64_t> Patterns(ColorRenderTargetFormat f) {
  switch (f) {
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16:
      return {0x00000000u, 0x3FFFFFFFu | (3u << 30), 0x12345678u & 0x3FFFFFFFu,
              0x0FF003FFu | (1u << 30), 0x2AB55CD3u | (2u << 30), 0x00100401u};
    case ColorRenderTargetFormat::k_16_16:
      return {0x00000000u, 0x7FFF8001u, 0x12345678u, 0xFFFF0001u, 0xC0004000u};
    case ColorRenderTargetFormat::k_16_16_16_16:
      return {0x0ull, 0x7FFF8001C0004000ull, 0x123456789ABC7654ull, 0x0001FFFF00010002ull};
    case ColorRenderTargetFormat::k_16_16_FLOAT:
      return {0x00000000u, 0x3C00BC00u, 0x7BFF0001u, 0x80003555u};
    case ColorRenderTargetFormat::k_16_16_16_16_FLOAT:
      return {0x0ull, 0x3C00BC007BFF0001ull, 0x8000355512344321ull};
    case ColorRenderTargetFormat::k_32_FLOAT:
      return {0x00000000u, 0x3F800000u, 0xC2F6E979u, 0x00000001u, 0x7F7FFFFFu};
    case ColorRenderTargetFormat::k_32_32_FLOAT:
      return {0x0ull, 0x3F800000C2F6E979ull, 0x000000017F7FFFFFull};
    default:
      return {0x00000000u, 0xFFFFFFFFu, 0x12345678u, 0x80FF7F01u, 0xC0000000u};
  }
}

TEST(HostFormats, EveryGuestColourFormatHasTheDesignedHostFormat) {
  struct Want {
    ColorRenderTargetFormat guest;
    VkFormat host;
    bool raw;
  };
  const Want wants[] = {
      {ColorRenderTargetFormat::k_8_8_8_8, VK_FORMAT_R8G8B8A8_UNORM, true},
      {ColorRenderTargetFormat::k_8_8_8_8_GAMMA, VK_FORMAT_R32G32B32A32_SFLOAT, false},
      {ColorRenderTargetFormat::k_2_10_10_10, VK_FORMAT_A2B10G10R10_UNORM_PACK32, true},
      {ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10, VK_FORMAT_A2B10G10R10_UNORM_PACK32,
       true},
      {ColorRenderTargetFormat::k_2_10_10_10_FLOAT, VK_FORMAT_R16G16B16A16_SFLOAT, false},
      {ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16, VK_FORMAT_R16G16B16A16_SFLOAT,
       false},
      {ColorRenderTargetFormat::k_16_16, VK_FORMAT_R16G16_SNORM, true},
      {ColorRenderTargetFormat::k_16_16_16_16, VK_FORMAT_R16G16B16A16_SNORM, true},
      {ColorRenderTargetFormat::k_16_16_FLOAT, VK_FORMAT_R16G16_SFLOAT, true},
      {ColorRenderTargetFormat::k_16_16_16_16_FLOAT, VK_FORMAT_R16G16B16A16_SFLOAT, true},
      {ColorRenderTargetFormat::k_32_FLOAT, VK_FORMAT_R32_SFLOAT, true},
      {ColorRenderTargetFormat::k_32_32_FLOAT, VK_FORMAT_R32G32_SFLOAT, true},
  };
  for (const Want& w : wants) {
    HostColorFormat c = ChooseHostColorFormat(uint32_t(w.guest), gpu::GammaMode::kExact, nullptr);
    EXPECT_EQ(c.format, w.host) << uint32_t(w.guest);
    EXPECT_EQ(c.raw, w.raw) << uint32_t(w.guest);
    // 64bpp guest formats, and 7e3 in its half-float stand-in, take 8 bytes per host texel;
    // gamma codes in 32-bit floats 16.
    EXPECT_EQ(HostTexelBytes(c.format),
              w.host == VK_FORMAT_R32G32B32A32_SFLOAT ? 16u : Is64(w.guest) || !w.raw ? 8u : 4u)
        << uint32_t(w.guest);
  }
  EXPECT_EQ(ChooseHostColorFormat(uint32_t(ColorRenderTargetFormat::k_16_16), gpu::GammaMode::kExact,
                                  nullptr).output_mode,
            uint32_t(kColorOutputFixed16Snorm));
  HostColorFormat gamma = ChooseHostColorFormat(
      uint32_t(ColorRenderTargetFormat::k_8_8_8_8_GAMMA), gpu::GammaMode::kExact, nullptr);
  EXPECT_EQ(gamma.output_mode, uint32_t(kColorOutputPwlGamma));
  EXPECT_FALSE(gamma.exact);
  HostColorFormat srgb = ChooseHostColorFormat(
      uint32_t(ColorRenderTargetFormat::k_8_8_8_8_GAMMA), gpu::GammaMode::kSrgb, nullptr);
  EXPECT_EQ(srgb.format, VK_FORMAT_R8G8B8A8_SRGB);
  EXPECT_EQ(srgb.output_mode, uint32_t(kColorOutputPass));
  EXPECT_FALSE(srgb.exact);
}

TEST(HostFormats, GuestBitsSurviveTheHostFormatAndTheClearValue) {
  for (ColorRenderTargetFormat f : kColorFormats) {
    VkFormat host = ChooseHostColorFormat(uint32_t(f), gpu::GammaMode::kExact, nullptr).format;
    for (uint64_t bits : Patterns(f)) {
      uint8_t texel[16] = {};
      GuestToHostTexel(uint32_t(f), host, bits, texel);
      EXPECT_EQ(HostTexelToGuest(uint32_t(f), host, texel), bits)
          << xenos::ColorRenderTargetFormatName(uint32_t(f)) << " " << std::hex << bits;
      // The clear value, as the device would store it (float -> host texel).
      VkClearColorValue clear = HostColorClearValue(uint32_t(f), host, bits);
      uint8_t stored[16] = {};
      FloatsToHostTexel(host, {clear.float32[0], clear.float32[1], clear.float32[2],
                               clear.float32[3]}, stored);
      EXPECT_EQ(HostTexelToGuest(uint32_t(f), host, stored), bits)
          << "clear " << xenos::ColorRenderTargetFormatName(uint32_t(f)) << " " << std::hex
          << bits;
    }
  }
}

TEST(HostFormats, ConvertedPairsRoundThroughTheHostValues) {
  // 7e3 through half: every 10-bit code survives (every 7e3 value is a half).
  VkFormat half = VK_FORMAT_R16G16B16A16_SFLOAT;
  uint32_t f7e3 = uint32_t(ColorRenderTargetFormat::k_2_10_10_10_FLOAT);
  for (uint32_t code = 0; code < 1024; ++code) {
    uint64_t bits = code | (code << 10) | ((1023u - code) << 20) | ((code & 3u) << 30);
    uint8_t texel[8];
    GuestToHostTexel(f7e3, half, bits, texel);
    ASSERT_EQ(HostTexelToGuest(f7e3, half, texel), bits) << code;
  }
  // A half that is not a 7e3 value rounds like the guest's store (gpu::edram::Float32To7e3).
  std::array<float, 4> rgba = {0.30078125f, 40.0f, -1.0f, 1.0f};
  uint8_t texel[8];
  FloatsToHostTexel(half, rgba, texel);
  EXPECT_EQ(HostTexelToGuest(f7e3, half, texel),
            gpu::edram::PackColor(ColorRenderTargetFormat::k_2_10_10_10_FLOAT, rgba));
  // Exact-mode gamma: PWL codes k / 255 in 32-bit floats. Every code loads as the float nearest
  // k / 255 and stores back as k; a float blend result rounds to the nearest code (Unorm:
  // v * 255 + 0.5 truncated), clamped to 0..255.
  const uint32_t gamma8 = uint32_t(ColorRenderTargetFormat::k_8_8_8_8_GAMMA);
  const VkFormat f32x4 = VK_FORMAT_R32G32B32A32_SFLOAT;
  for (uint32_t code = 0; code < 256; ++code) {
    uint64_t bits = code | ((255u - code) << 8) | ((code ^ 0x5Au) << 16) | (code << 24);
    uint8_t t[16];
    GuestToHostTexel(gamma8, f32x4, bits, t);
    ASSERT_EQ(HostTexelToFloats(f32x4, t)[0], float(code) / 255.0f) << code;
    ASSERT_EQ(HostTexelToGuest(gamma8, f32x4, t), bits) << code;
  }
  // DST_COLOR x src + SRC_COLOR x dst with src code 192 over dst codes 128 and 96 (the
  // edram_gamma_decal_2src_dst sample): 2 x 192 x 128 / 255 = 192.75 -> 193 and
  // 2 x 192 x 96 / 255 = 144.56 -> 145; 1.25 clamps to 255, -0.1 to 0.
  uint8_t blended[16];
  FloatsToHostTexel(f32x4,
                    {2.0f * (192.0f / 255.0f) * (128.0f / 255.0f),
                     2.0f * (192.0f / 255.0f) * (96.0f / 255.0f), 1.25f, -0.1f},
                    blended);
  EXPECT_EQ(HostTexelToGuest(gamma8, f32x4, blended), 193u | (145u << 8) | (255u << 16));
  // sRGB-mode gamma: the host holds sRGB bytes; stores re-encode with the PWL curve.
  uint32_t gamma = uint32_t(ColorRenderTargetFormat::k_8_8_8_8_GAMMA);
  uint8_t srgb_texel[4] = {0, 255, 188, 128};  // sRGB 188 ~ linear 0.5
  uint64_t pwl = HostTexelToGuest(gamma, VK_FORMAT_R8G8B8A8_SRGB, srgb_texel);
  EXPECT_EQ(pwl & 0xFFFFFFu, (255u << 8) | (gpu::edram::PackColor(ColorRenderTargetFormat::k_8_8_8_8_GAMMA,
                                                             {0.0f, 0.0f, 0.5029f, 0.0f}) &
                                            0xFF0000u));
  EXPECT_EQ(pwl >> 24, 128u);
}

// ---- lavapipe --------------------------------------------------------------------------------

struct Rig : test::EdramRig {
  void Colour(ColorRenderTargetFormat f, uint32_t base = 0) {
    Set(Reg::RB_COLOR_INFO, base | (uint32_t(f) << 16));
  }
  void Depth(DepthRenderTargetFormat f, uint32_t base = 0) {
    Set(Reg::RB_DEPTH_INFO, base | (uint32_t(f) << 16));
  }
  // A resolve event with only clears (no copy) over [x0, x1) x [y0, y1).
  void Clear(uint32_t pitch, int32_t x0, int32_t y0, int32_t x1, int32_t y1, bool colour,
             uint64_t colour_value, bool depth, uint32_t depth_value) {
    ResolveRect(pitch, x0, y0, x1, y1, ClearOnly(colour, depth));
    // 64bpp: RB_COLOR_CLEAR_LO holds the low dword.
    Set(Reg::RB_COLOR_CLEAR, uint32_t(colour_value >> 32 ? colour_value >> 32 : colour_value));
    Set(Reg::RB_COLOR_CLEAR_LO, uint32_t(colour_value));
    Set(Reg::RB_DEPTH_CLEAR, depth_value);
    renderer->Resolve(regs, guest.Access());
  }
  gpu::edram::Surface ColourSurface(ColorRenderTargetFormat f, uint32_t pitch, uint32_t base = 0) {
    gpu::edram::Surface s;
    s.base_tiles = base;
    s.pitch_pixels = pitch;
    s.msaa = xenos::MsaaSamples(msaa);
    s.format = uint32_t(f);
    return s;
  }
  gpu::edram::Surface DepthSurface(DepthRenderTargetFormat f, uint32_t pitch, uint32_t base = 0) {
    gpu::edram::Surface s = ColourSurface(ColorRenderTargetFormat(0), pitch, base);
    s.is_depth = true;
    s.format = uint32_t(f);
    return s;
  }
};

TEST(HostFormatsOnDevice, ResolveClearsOfEveryFormatStoreTheGuestBits) {
  Rig r;
  for (ColorRenderTargetFormat f : kColorFormats) {
    // Each format on its own tiles (base 16 apart), two values in two halves.
    uint32_t base = 16 * (uint32_t(f) + 1);
    r.Colour(f, base);
    std::vector<uint64_t> p = Patterns(f);
    uint64_t a = p[1], b = p[2];
    if (!Is64(f)) {
      a &= 0xFFFFFFFFu;
      b &= 0xFFFFFFFFu;
    }
    // k_16_16_16_16 etc.: the 32bpp formats have RB_COLOR_CLEAR = value.
    auto clear_value = [&](uint64_t v) { return Is64(f) ? v : (v | (v << 32)); };
    r.Clear(80, 0, 0, 40, 16, true, clear_value(a), false, 0);
    r.Clear(80, 40, 0, 80, 16, true, clear_value(b), false, 0);
    const gpu::edram::Edram& e = r.renderer->edram().Snapshot(r.ColourSurface(f, 80, base), 16);
    gpu::edram::Surface s = r.ColourSurface(f, 80, base);
    for (uint32_t y : {0u, 7u, 15u}) {
      for (uint32_t x : {0u, 39u, 40u, 79u}) {
        if (Is64(f) && x >= 40) continue;  // 64bpp: 40 pixels per tile; 80 wide = 2 tiles
        ASSERT_EQ(e.Load(s, x, y, 0), x < 40 ? a : b)
            << xenos::ColorRenderTargetFormatName(uint32_t(f)) << " " << x << "," << y;
      }
    }
    if (Is64(f)) {
      EXPECT_EQ(e.Load(s, 79, 3, 0), b);
    }
  }
  EXPECT_EQ(r.ctx->validation_message_count(), 0u) << test::ValidationReport(*r.ctx);
}

TEST(HostFormatsOnDevice, TransfersBetweenFormatsKeepTheBits) {
  // Every 32bpp raw format -> every other raw 32bpp format over one tile: the bits move exactly.
  const ColorRenderTargetFormat raw32[] = {
      ColorRenderTargetFormat::k_8_8_8_8, ColorRenderTargetFormat::k_2_10_10_10,
      ColorRenderTargetFormat::k_16_16, ColorRenderTargetFormat::k_16_16_FLOAT,
      ColorRenderTargetFormat::k_32_FLOAT};
  Rig r;
  uint32_t value = 0x3C00C001u;  // a pattern every one of these keeps (no -32768, finite)
  for (ColorRenderTargetFormat from : raw32) {
    for (ColorRenderTargetFormat to : raw32) {
      if (from == to) continue;
      r.Colour(from);
      r.Clear(80, 0, 0, 80, 16, true, value, false, 0);
      r.Colour(to);
      size_t before = r.renderer->edram().log().size();
      r.Clear(80, 0, 8, 8, 16, true, 0x00000000u, false, 0);  // a use of `to`: moves tile 0
      ASSERT_EQ(r.renderer->edram().log().size(), before + 1);
      EXPECT_TRUE(r.renderer->edram().log().back().data_moved);
      const gpu::edram::Edram& e = r.renderer->edram().Snapshot(r.ColourSurface(to, 80), 16);
      gpu::edram::Surface s = r.ColourSurface(to, 80);
      EXPECT_EQ(e.Load(s, 40, 3, 0), value) << uint32_t(from) << " -> " << uint32_t(to);
      EXPECT_EQ(e.Load(s, 4, 12, 0), 0u);
      value = value * 2654435761u + 0x01000193u;
      // Finite, normal floats and halves, no -32768 halves.
      value = (value & 0x3FFF3FFFu) | 0x20000000u;
    }
  }
  // 64bpp <-> 32bpp: a 16_16_16_16_FLOAT pixel is two 32bpp samples side by side.
  r.Colour(ColorRenderTargetFormat::k_16_16_16_16_FLOAT);
  r.Clear(80, 0, 0, 40, 16, true, 0x3C00BC00'7BFF0001ull, false, 0);
  r.Colour(ColorRenderTargetFormat::k_8_8_8_8);
  r.Clear(80, 72, 0, 80, 8, true, 0u, false, 0);
  gpu::edram::Surface s = r.ColourSurface(ColorRenderTargetFormat::k_8_8_8_8, 80);
  const gpu::edram::Edram& e = r.renderer->edram().Snapshot(s, 16);
  EXPECT_EQ(e.Load(s, 10, 5, 0), 0x7BFF0001u);
  EXPECT_EQ(e.Load(s, 11, 5, 0), 0x3C00BC00u);
  EXPECT_EQ(r.ctx->validation_message_count(), 0u) << test::ValidationReport(*r.ctx);
}

TEST(HostFormatsOnDevice, Depth20e4KeepsTheHostDepthWhileItStillMatches) {
  Rig r;
  r.Depth(DepthRenderTargetFormat::kD24FS8);
  // 20e4 0x7FFFFF (just under 1.0... exponent 7) with stencil 0x5A.
  uint32_t dword = (0x7ABCDEu << 8) | 0x5Au;
  r.Clear(80, 0, 0, 80, 16, false, 0, true, dword);
  gpu::edram::Surface d = r.DepthSurface(DepthRenderTargetFormat::kD24FS8, 80);
  const gpu::edram::Edram& e = r.renderer->edram().Snapshot(d, 16);
  EXPECT_EQ(uint32_t(e.Load(d, 0, 0, 0)), dword);
  EXPECT_EQ(uint32_t(e.Load(d, 79, 15, 0)), dword);
  // Through k_8_8_8_8 and back: stencil in R, depth in GBA, columns swapped.
  r.Colour(ColorRenderTargetFormat::k_8_8_8_8);
  r.Clear(80, 0, 0, 8, 8, true, 0x11111111u, false, 0);
  gpu::edram::Surface c = r.ColourSurface(ColorRenderTargetFormat::k_8_8_8_8, 80);
  EXPECT_EQ(uint32_t(r.renderer->edram().Snapshot(c, 16).Load(c, 20, 10, 0)), dword);
  r.Clear(80, 40, 8, 48, 16, false, 0, true, (0x123456u << 8) | 7u);  // depth use again
  const gpu::edram::Edram& back = r.renderer->edram().Snapshot(d, 16);
  EXPECT_EQ(uint32_t(back.Load(d, 60, 12, 0)), dword);
  // Colour columns 0-7 rows 0-7 land on depth columns 40-47.
  EXPECT_EQ(uint32_t(back.Load(d, 44, 4, 0)), 0x11111111u);
  EXPECT_EQ(uint32_t(back.Load(d, 44, 12, 0)), (0x123456u << 8) | 7u);
  EXPECT_EQ(r.ctx->validation_message_count(), 0u) << test::ValidationReport(*r.ctx);
}

TEST(HostFormatsOnDevice, Msaa4xDepthClearReadBackAt1x) {
  // A 4x depth clear of a 40x8-pixel tile covers all 80x16 samples; the 1x colour view of the
  // same tile sees every sample (2x2 per pixel, depth half swap applied).
  Rig r;
  r.msaa = 2;  // 4x
  r.Depth(DepthRenderTargetFormat::kD24S8);
  r.Clear(40, 0, 0, 16, 8, false, 0, true, 0xAAAAAA01u);
  r.Clear(40, 16, 0, 40, 8, false, 0, true, 0x55555502u);
  gpu::edram::Surface d4 = r.DepthSurface(DepthRenderTargetFormat::kD24S8, 40);
  const gpu::edram::Edram& e4 = r.renderer->edram().Snapshot(d4, 8);
  for (uint32_t sample = 0; sample < 4; ++sample) {
    EXPECT_EQ(uint32_t(e4.Load(d4, 3, 3, sample)), 0xAAAAAA01u);
    EXPECT_EQ(uint32_t(e4.Load(d4, 30, 3, sample)), 0x55555502u);
  }
  r.msaa = 0;
  r.Colour(ColorRenderTargetFormat::k_8_8_8_8);
  r.Clear(80, 72, 8, 80, 16, true, 0u, false, 0);  // 1x colour use of tile 0
  ASSERT_FALSE(r.renderer->edram().log().empty());
  EXPECT_NE(r.renderer->edram().log().back().transfer.reason.find("depth -> colour"),
            std::string::npos);
  gpu::edram::Surface c = r.ColourSurface(ColorRenderTargetFormat::k_8_8_8_8, 80);
  const gpu::edram::Edram& e1 = r.renderer->edram().Snapshot(c, 16);
  for (uint32_t y = 0; y < 16; y += 5) {
    for (uint32_t x = 0; x < 72; x += 3) {
      // Colour sample column x is depth sample column (x + 40) % 80 = depth pixel ((x+40)%80)/2.
      uint32_t depth_pixel = ((x + 40) % 80) / 2;
      ASSERT_EQ(uint32_t(e1.Load(c, x, y, 0)), depth_pixel < 16 ? 0xAAAAAA01u : 0x55555502u)
          << x << "," << y;
    }
  }
  EXPECT_EQ(r.ctx->validation_message_count(), 0u) << test::ValidationReport(*r.ctx);
}

}  // namespace
}  // namespace xnt::vk
