// EDRAM scenario samples (see edram_scenarios.h). Coordinates follow flat_scene.h's rule (edges
// at k+0.75 or k-0.25) so coverage is exact under either pixel-centre convention; depth values
// are chosen so that float -> 24-bit conversion has no rounding tie (z * (2^24 - 1) has a
// fractional part of .25), and colours so that unorm conversions have no .5 ties.
#include "edram_scenarios.h"

#include <array>
#include <cmath>

#include "edram_scene_builder.h"

namespace xnt::samples {

namespace {

using namespace edram_scene;  // NOLINT: the scenarios are written in the builder's terms

// ---- Expected images ----------------------------------------------------------------------------

// The Xenos piecewise-linear gamma curve as render targets apply it (8-bit gamma <-> 10-bit
// linear, 4 segments of slopes 1, 2, 4, 8 with the small correction that maps 255 to 1023; the
// same definition as gpu::edram::PwlGammaToLinear / LinearToPwlGamma, after Xenia's shader
// translator), repeated here because samples do not link the renderer.
namespace edram_pwl {
float ToLinear(float gamma) {
  float g = std::clamp(gamma, 0.0f, 1.0f);
  float scale, offset;
  if (g >= 192.0f / 255.0f) {
    scale = 8.0f / 1024.0f;
    offset = -1024.0f;
  } else if (g >= 96.0f / 255.0f) {
    scale = 4.0f / 1024.0f;
    offset = -256.0f;
  } else if (g >= 64.0f / 255.0f) {
    scale = 2.0f / 1024.0f;
    offset = -64.0f;
  } else {
    scale = 1.0f / 1024.0f;
    offset = 0.0f;
  }
  float linear = g * (255.0f * 1024.0f * scale) + offset;
  linear += std::trunc(linear * scale);
  return linear * (1.0f / 1023.0f);
}
float ToGamma(float linear) {
  float l = std::clamp(linear, 0.0f, 1.0f) * 1023.0f, g;
  if (l < 64.0f) {
    g = l;
  } else if (l < 128.0f) {
    g = (l + 64.0f) * 0.5f;
  } else if (l < 512.0f) {
    g = (l + 256.0f) * 0.25f;
  } else {
    g = (l + 1024.0f) * 0.125f;
  }
  return std::min(g / 255.0f, 1.0f);
}
}  // namespace edram_pwl


// ---- The scenarios ------------------------------------------------------------------------------


EdramScenario Bloom() {
  // A 72x40 bloom target resolved into a texture whose rows are 96 texels (72 rounded up to 32),
  // then fetched as 72x40 by the swap: the texture width differs from the pitch.
  const Rect a{8.75f, 4.75f, 40.75f, 20.75f, 0, C8(255, 153, 51)};
  const Rect b{30.75f, 15.75f, 70.75f, 38.75f, 0, C8(51, 102, 255)};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup rt;
    rt.surface_pitch = 72;
    s.Target(rt, 72, 40);
    ResolveOpts clear;
    clear.width = 72;
    clear.height = 40;
    clear.clear_color = true;
    clear.clear_color_value = Packed8888(kDark);
    s.Resolve(clear);
    s.Draw(a);
    s.Draw(b);
    ResolveOpts present;
    present.width = 72;
    present.height = 40;
    present.dest = kFrontA;
    present.dest_pitch = 96;
    s.Resolve(present);
    s.Swap(kFrontA, 72, 40);
  };
  auto frames = [=] {
    Image img = Fill(72, 40, kDark);
    Paint(img, a, U8(a.color));
    Paint(img, b, U8(b.color));
    return std::vector<Image>{img};
  };
  return {MakeSample("edram_bloom_72x40_pitch96",
                     "72x40 bloom target resolved at pitch 96 (RB_COPY_DEST_PITCH) and fetched "
                     "as a 72x40 texture by the swap",
                     "Dark (16,24,32) 72x40 frame; an orange (255,153,51) rectangle x 9..40 y "
                     "5..20 under a blue (51,102,255) one x 31..70 y 16..38. All pixels exact.",
                     build, frames),
          frames, 0, "one colour target, never rebound: nothing changes owner", ""};
}

EdramScenario ShadowMap() {
  // Pass 1 renders a depth-only shadow map at tiles 0-7 and resolves it (k_24_8) to a texture;
  // pass 2 renders the scene into colour tiles 8-15 with depth at 16-23; pass 3 draws a HUD and
  // an inset that samples the shadow-map texture (point-sampled k_24_8 reads the depth in every
  // channel). Every target has its own tiles, so no range ever changes owner. Frame 0 shows the
  // resolved shadow map's dwords through the swap; frame 1 is the scene with the inset. (No
  // shadow comparison: the inset shows the sampled depth itself.)
  const Rect occ1{16.75f, 8.75f, 60.75f, 40.75f, 0.25f, {}};
  const Rect occ2{80.75f, 24.75f, 120.75f, 60.75f, 0.25f, {}};
  const Rect floor{-0.25f, -0.25f, 127.75f, 63.75f, 0.75f, C8(77, 153, 77)};
  const Rect box{40.75f, 10.75f, 90.75f, 50.75f, 0.25f, C8(204, 51, 51)};
  const Rect hud{4.75f, 54.75f, 60.75f, 61.75f, 0.0f, C8(255, 255, 102)};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup shadow;
    shadow.surface_pitch = 128;
    shadow.color_base_tiles = 2040;  // never used: colour writes are masked off
    shadow.depth = true;
    shadow.depth_base_tiles = 0;
    s.Target(shadow, 128, 64);
    ResolveOpts clear;
    clear.width = 128;
    clear.height = 64;
    clear.source = 4;
    clear.clear_depth = true;
    clear.clear_depth_value = 0xFFFFFF00u;  // depth 1.0, stencil 0
    clear.format = TextureFormat::k_24_8;
    s.Resolve(clear);
    s.ColorMask(0);
    s.Depth(true, true, CompareFunction::kLess);
    s.Draw(occ1);
    s.Draw(occ2);
    ResolveOpts out = clear;
    out.clear_depth = false;
    out.dest = kTexture;
    s.Resolve(out);
    s.Swap(kTexture, 128, 64);
    // Pass 2.
    RenderTargetSetup main;
    main.surface_pitch = 128;
    main.color_base_tiles = 8;
    main.depth = true;
    main.depth_base_tiles = 16;
    s.Target(main, 128, 64);
    s.ColorMask(0xF);
    s.Depth(false, false, CompareFunction::kAlways);
    ResolveOpts mclear;
    mclear.width = 128;
    mclear.height = 64;
    mclear.clear_color = true;
    mclear.clear_color_value = Packed8888(kDark);
    mclear.clear_depth = true;
    mclear.clear_depth_value = 0xFFFFFF00u;
    s.Resolve(mclear);
    s.Depth(true, true, CompareFunction::kLess);
    s.Draw(box);    // nearer first
    s.Draw(floor);  // behind the box: covers only the rest
    // Pass 3: HUD and the shadow-map inset, without depth.
    s.Depth(false, false, CompareFunction::kAlways);
    s.Draw(hud);
    s.DrawTextured(64, 0, 64, 32, 128, 64,
                   capture::TextureFetch2D(kTexture, 128, 64, TextureFormat::k_24_8));
    s.Present(kFrontA, 128, 64);
  };
  auto frames = [=] {
    // 0.25 * (2^24 - 1) = 4194303.75 -> 0x400000; 1.0 -> 0xFFFFFF; stencil 0.
    Image shadow_img = Fill(128, 64, DepthAsColor(0xFFFFFF00u));
    Paint(shadow_img, occ1, DepthAsColor(0x40000000u));
    Paint(shadow_img, occ2, DepthAsColor(0x40000000u));
    Image scene = Fill(128, 64, kDark);
    Paint(scene, floor, U8(floor.color));
    Paint(scene, box, U8(box.color));
    Paint(scene, hud, U8(hud.color));
    // The inset: pixel (64 + i, j) shows texel (i, j): depth d / (2^24 - 1) in R, G, B (opaque).
    for (uint32_t j = 0; j < 32; ++j) {
      for (uint32_t i = 0; i < 64; ++i) {
        bool occluded = occ1.Covers(i, j) || occ2.Covers(i, j);
        uint8_t c = occluded ? 64 : 255;  // 0x400000 / 0xFFFFFF * 255 + .5 = 64.25
        uint8_t* p = scene.rgba.data() + 4 * (size_t(j) * 128 + 64 + i);
        p[0] = p[1] = p[2] = c;
        p[3] = 255;
      }
    }
    return std::vector<Image>{shadow_img, scene};
  };
  return {MakeSample("edram_shadow_map_three_pass",
                     "Three passes (depth-only shadow map resolved as k_24_8, scene with depth, "
                     "HUD) on disjoint EDRAM tiles: zero ownership transfers",
                     "Frame 0: the shadow map's k_24_8 dwords as RGB (R stencil 0, G/B depth bits "
                     "7:0 / 15:8; alpha shown opaque): (0,255,255) with two (0,0,0) occluders x 17..60 y 9..40 and x "
                     "81..120 y 25..60. Frame 1: dark background, green (77,153,77) floor "
                     "everywhere except a red (204,51,51) box x 41..90 y 11..50 in front, a "
                     "yellow (255,255,102) HUD bar x 5..60 y 55..61; the top-right 64x32 inset "
                     "shows the shadow map's top-left quarter sampled as a texture: grey 64 "
                     "where occluded (x 81..124 y 9..31), white elsewhere. All pixels exact.",
                     build, frames),
          frames, 0, "shadow depth, scene colour and scene depth never share tiles", ""};
}

EdramScenario MsaaDepthClear() {
  // Direct3D clears a 1x depth buffer with a resolve whose RB_SURFACE_INFO says 4x MSAA (the
  // fast-clear trick): the 4x depth owner's cleared tiles become the 1x depth target's.
  const Rect pass{8.75f, 4.75f, 40.75f, 28.75f, 0.25f, C8(51, 230, 77)};
  const Rect fail{30.75f, 10.75f, 60.75f, 20.75f, 0.75f, C8(230, 26, 26)};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup rt;
    rt.surface_pitch = 64;
    rt.color_base_tiles = 0;
    rt.depth = true;
    rt.depth_base_tiles = 2;
    RenderTargetSetup rt4 = rt;
    rt4.msaa = xenos::MsaaSamples::k4X;
    s.Target(rt4, 64, 32);
    ResolveOpts dclear;
    dclear.width = 64;
    dclear.height = 32;
    dclear.source = 4;
    dclear.clear_depth = true;
    dclear.clear_depth_value = 0x80000000u;  // 0x800000 / 0xFFFFFF = 0.50000003
    dclear.format = TextureFormat::k_24_8;
    s.Resolve(dclear);
    s.Target(rt, 64, 32);
    ResolveOpts cclear;
    cclear.width = 64;
    cclear.height = 32;
    cclear.clear_color = true;
    cclear.clear_color_value = Packed8888(kDark);
    s.Resolve(cclear);
    s.Depth(true, false, CompareFunction::kLess);
    s.Draw(pass);
    s.Draw(fail);
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDark);
    Paint(img, pass, U8(pass.color));
    return std::vector<Image>{img};
  };
  return {MakeSample("edram_msaa4x_depth_clear_of_1x",
                     "A 1x depth buffer cleared by a resolve with 4x MSAA surface info, then "
                     "depth-tested at 1x",
                     "Dark background; a green (51,230,77) rectangle x 9..40 y 5..28 (z 0.25 "
                     "passes LESS against the cleared 0.5); the red z 0.75 rectangle fails "
                     "everywhere. All pixels exact.",
                     build, frames),
          frames, 1, "the 1x depth draw takes tiles 2-3 from the 4x depth owner of the clear", ""};
}

EdramScenario Float24RoundTrip() {
  // D24FS8 depth pre-pass at z values 20e4 cannot hold exactly; the depth tiles are then read
  // as k_8_8_8_8 colour (a resolve) and come back as depth for an EQUAL colour pass. The host
  // depth kept beside the 24-bit value still converts to the stored bits, so EQUAL passes on
  // every pixel (no stripes).
  const Rect r1{4.75f, 2.75f, 36.75f, 29.75f, 0.3f, C8(230, 128, 26)};
  const Rect r2{30.75f, 6.75f, 60.75f, 24.75f, 0.7f, C8(26, 128, 230)};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup rt;
    rt.surface_pitch = 64;
    rt.color_base_tiles = 0;
    rt.depth = true;
    rt.depth_base_tiles = 2;
    rt.depth_format = DepthRenderTargetFormat::kD24FS8;
    s.Target(rt, 64, 32);
    ResolveOpts clear;
    clear.width = 64;
    clear.height = 32;
    clear.clear_color = true;
    clear.clear_color_value = Packed8888(kDark);
    clear.clear_depth = true;
    clear.clear_depth_value = 0xF0000000u;  // 20e4 1.0 (exponent 15, mantissa 0)
    s.Resolve(clear);
    s.ColorMask(0);
    s.Depth(true, true, CompareFunction::kLess);
    s.Draw(r1);
    s.Draw(r2);
    // The depth tiles as a colour target: a copy of them as k_8_8_8_8.
    RenderTargetSetup as_color = rt;
    as_color.color_base_tiles = 2;
    as_color.depth = false;
    s.Target(as_color, 64, 32);
    ResolveOpts peek;
    peek.width = 64;
    peek.height = 32;
    s.Resolve(peek);
    // Back to depth: colour pass with EQUAL.
    s.Target(rt, 64, 32);
    s.ColorMask(0xF);
    s.Depth(true, false, CompareFunction::kEqual);
    s.Draw(r1);
    s.Draw(r2);
    s.Depth(false, false, CompareFunction::kAlways);
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDark);
    Paint(img, r1, U8(r1.color));
    // r2 is behind r1 where they overlap: the depth there is r1's, r2's EQUAL fails.
    Image out = img;
    for (uint32_t y = 0; y < 32; ++y) {
      for (uint32_t x = 0; x < 64; ++x) {
        if (r2.Covers(x, y) && !r1.Covers(x, y)) {
          auto c = U8(r2.color);
          std::copy(c.begin(), c.end(), out.rgba.begin() + 4 * (size_t(y) * 64 + x));
        }
      }
    }
    return std::vector<Image>{out};
  };
  return {MakeSample("edram_float24_prepass_equal",
                     "D24FS8 depth pre-pass, depth tiles read as colour and back, then an EQUAL "
                     "colour pass with the same geometry",
                     "Dark background; an orange (230,128,26) rectangle x 5..36 y 3..29 and a "
                     "blue (26,128,230) one x 37..60 y 7..24 (behind the orange one), solid: no "
                     "stripes where EQUAL fails. All pixels exact.",
                     build, frames),
          frames, 2, "depth -> k_8_8_8_8 for the copy, k_8_8_8_8 -> depth for the EQUAL pass", ""};
}

EdramScenario DepthThrough8888() {
  // A D24S8 buffer evicted to k_8_8_8_8 (a colour resolve of its tiles: stencil in R, depth in
  // GBA, the two 40-column halves of each tile swapped) and uploaded back as depth.
  const Rect left{-0.25f, -0.25f, 39.75f, 31.75f, 1.0f, {}};
  const Rect all{-0.25f, -0.25f, 79.75f, 31.75f, 0.5f, C8(51, 204, 102)};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup depth_rt;
    depth_rt.surface_pitch = 80;
    depth_rt.color_base_tiles = 4;
    depth_rt.depth = true;
    depth_rt.depth_base_tiles = 0;
    s.Target(depth_rt, 80, 32);
    ResolveOpts dclear;
    dclear.width = 80;
    dclear.height = 32;
    dclear.source = 4;
    dclear.clear_depth = true;
    dclear.clear_depth_value = 0x12345678u;  // depth 0x123456, stencil 0x78
    dclear.format = TextureFormat::k_24_8;
    s.Resolve(dclear);
    s.ColorMask(0);
    s.Depth(true, true, CompareFunction::kAlways);
    s.Draw(left);  // depth 1.0 on columns 0-39
    // Evict: the tiles as k_8_8_8_8, presented.
    RenderTargetSetup as_color;
    as_color.surface_pitch = 80;
    as_color.color_base_tiles = 0;
    s.Target(as_color, 80, 32);
    s.ColorMask(0xF);
    s.Depth(false, false, CompareFunction::kAlways);
    s.Present(kFrontA, 80, 32);
    // Upload back: a colour pass tested against the depth.
    s.Target(depth_rt, 80, 32);
    ResolveOpts cclear;
    cclear.width = 80;
    cclear.height = 32;
    cclear.clear_color = true;
    cclear.clear_color_value = Packed8888(kDark);
    s.Resolve(cclear);
    s.Depth(true, false, CompareFunction::kLess);
    s.Draw(all);  // z 0.5 < 1.0 on columns 0-39 only
    s.Present(kFrontB, 80, 32);
  };
  auto frames = [=] {
    Image evicted = Fill(80, 32, DepthAsColor(0x12345678u));
    // Colour column x holds depth column (x + 40) % 80: depth columns 0-39 show at 40-79.
    Paint(evicted, Rect{39.75f, -0.25f, 79.75f, 31.75f}, DepthAsColor(0xFFFFFF78u));
    Image uploaded = Fill(80, 32, kDark);
    Paint(uploaded, left, U8(all.color));
    return std::vector<Image>{evicted, uploaded};
  };
  return {MakeSample("edram_depth_evict_8888",
                     "D24S8 depth read as k_8_8_8_8 (stencil in R, depth in GBA, tile halves "
                     "swapped) and uploaded back for a depth-tested pass",
                     "Frame 0 (alpha shown opaque): columns 0-39 (120,86,52) = clear depth "
                     "0x123456 / stencil 0x78, columns 40-79 (120,255,255) = the depth-1.0 draw on columns "
                     "0-39, column-swapped. Frame 1: green (51,204,102) on columns 0-39, dark "
                     "on 40-79. All pixels exact.",
                     build, frames),
          frames, 2, "depth -> k_8_8_8_8 for the eviction resolve, back to depth for frame 1", ""};
}

EdramScenario GBuffer() {
  // A G-buffer normals target in k_2_10_10_10 whose tiles are reused as k_2_10_10_10_FLOAT for
  // a HUD and then resolved as k_2_10_10_10: the HUD's bits, read as integers, must show.
  // 409/1023 and 205/1023: exact 10-bit codes.
  const Rect normals{-0.25f, -0.25f, 63.75f, 31.75f, 0, {409.0f / 1023.0f, 205.0f / 1023.0f, 1.0f, 1.0f}};
  const Rect hud{8.75f, 6.75f, 48.75f, 22.75f, 0, {1.0f, 2.0f, 0.5f, 1.0f}};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup rt;
    rt.surface_pitch = 64;
    rt.color_format = ColorRenderTargetFormat::k_2_10_10_10;
    s.Target(rt, 64, 32);
    s.Draw(normals);
    RenderTargetSetup as_float = rt;
    as_float.color_format = ColorRenderTargetFormat::k_2_10_10_10_FLOAT;
    s.Target(as_float, 64, 32);
    s.Draw(hud);
    s.Target(rt, 64, 32);
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    // Normals as unorm10: 0.4 -> 409, 0.2 -> 205, 1 -> 1023, alpha 3; resolved to 8 bits:
    // 409 * 255 / 1023 + .5 -> 102, 205 -> 51, 255, 255.
    auto u10to8 = [](uint32_t v) { return uint8_t(float(v) / 1023.0f * 255.0f + 0.5f); };
    Image img = Fill(64, 32, {u10to8(409), u10to8(205), 255, 255});
    // HUD in 7e3: 1.0 = 0x180, 2.0 = 0x200, 0.5 = 0x100, read as unorm10: 96, 128, 64.
    Paint(img, hud, {u10to8(0x180), u10to8(0x200), u10to8(0x100), 255});
    return std::vector<Image>{img};
  };
  return {MakeSample("edram_gbuffer_1010102_int_float_int",
                     "k_2_10_10_10 G-buffer tiles reused as k_2_10_10_10_FLOAT for a HUD, "
                     "resolved as k_2_10_10_10",
                     "Normals (102,51,255,255) everywhere except the HUD rectangle x 9..48 y "
                     "7..22 showing its 7e3 bits read as unorm10 (96,128,64,255). All pixels "
                     "exact.",
                     build, frames),
          frames, 2, "integer -> float for the HUD draw, float -> integer for the resolve", ""};
}

EdramScenario GammaDecal() {
  // 2*src*dst ("modulate 2x") decals on a k_8_8_8_8_GAMMA target. The hardware converts the
  // destination through the piecewise-linear curve, blends in linear space and encodes again
  // (Xenia's article "Leaving No Pixel Behind", "The gamma difficulty curve"), so a neutral 0.5 decal leaves the target as it
  // was; blending the PWL-encoded values instead turns 0.5 into ~0.75 (Halo 3's bright squares).
  // Expected: the hardware model; the replay uses the sRGB-target mode (linear-space blending),
  // the decals are neutral (0.5) or zero per channel, which that mode reproduces exactly.
  const Rect neutral{10.75f, 6.75f, 40.75f, 24.75f, 0, {0.5f, 0.5f, 0.5f, 1.0f}};
  const Rect green_only{30.75f, 14.75f, 58.75f, 28.75f, 0, {0.0f, 0.5f, 0.0f, 1.0f}};
  // Gamma codes below 192: there decode -> encode returns the code under either rounding of the
  // encoder (in the top segment the decoder's +trunc(l/128) correction leaves .5-.875 after
  // encoding, so round-to-nearest and truncation disagree; the hardware's choice is unknown).
  constexpr std::array<uint8_t, 4> kDst = {0x80, 0x60, 0xA0, 0xFF};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup rt;
    rt.surface_pitch = 64;
    rt.color_format = ColorRenderTargetFormat::k_8_8_8_8_GAMMA;
    s.Target(rt, 64, 32);
    ResolveOpts clear;
    clear.width = 64;
    clear.height = 32;
    clear.clear_color = true;
    clear.clear_color_value = Packed8888(kDst);
    s.Resolve(clear);
    s.Blend(xenos::BlendFactor::kDstColor, xenos::BlendFactor::kSrcColor);
    s.Draw(neutral);
    s.Draw(green_only);
    s.Blend(xenos::BlendFactor::kOne, xenos::BlendFactor::kZero);
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDst);
    for (uint32_t y = 0; y < 32; ++y) {
      for (uint32_t x = 0; x < 64; ++x) {
        uint8_t* p = img.rgba.data() + 4 * (size_t(y) * 64 + x);
        for (const Rect* r : {&neutral, &green_only}) {
          if (!r->Covers(x, y)) continue;
          for (int i = 0; i < 3; ++i) {
            float dst = edram_pwl::ToLinear(float(p[i]) / 255.0f);
            p[i] = U8(edram_pwl::ToGamma(2.0f * r->color[i] * dst));
          }
          p[3] = 255;  // alpha: ONE * 1.0 + ZERO * dst
        }
      }
    }
    return std::vector<Image>{img};
  };
  EdramScenario sc{MakeSample("edram_gamma_decal_2src_dst",
                              "2*src*dst decals blended on a k_8_8_8_8_GAMMA (piecewise-linear) "
                              "target in linear space (replayed with the sRGB-target mode)",
                              "Gamma codes (128,96,160) everywhere: the neutral 0.5 decal x "
                              "11..40 y 7..24 is invisible; the (0,0.5,0) decal x 31..58 y 15..28 "
                              "shows (0,96,0). All pixels exact.",
                              build, frames),
                   frames, 0, "one target", "srgb"};
  return sc;
}

EdramScenario Resolve64bppBiasSwap() {
  // A k_16_16_16_16_FLOAT target (cleared through RB_COLOR_CLEAR_LO / RB_COLOR_CLEAR, drawn with
  // values above 1) resolved to k_8_8_8_8 with exponent bias -1 and red/blue swap: the resolve's
  // conversion path (unpack halves, scale by 2^-1, swap, saturate, round) through the renderer.
  const Rect r{12.75f, 6.75f, 44.75f, 22.75f, 0, {2.0f, 1.0f, 0.5f, 1.0f}};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup rt;
    rt.surface_pitch = 64;
    rt.color_format = ColorRenderTargetFormat::k_16_16_16_16_FLOAT;
    s.Target(rt, 64, 32);
    ResolveOpts clear;
    clear.width = 64;
    clear.height = 32;
    clear.format = TextureFormat::k_16_16_16_16_FLOAT;
    clear.clear_color = true;
    clear.clear_color_lo = 0x38003400u;     // R 0.25, G 0.5 (halves)
    clear.clear_color_value = 0x3C003A00u;  // B 0.75, A 1.0
    s.Resolve(clear);
    s.Draw(r);
    ResolveOpts present;
    present.width = 64;
    present.height = 32;
    present.dest = kFrontA;
    present.exp_bias = -1;
    present.swap = true;
    s.Resolve(present);
    s.Swap(kFrontA, 64, 32);
  };
  auto frames = [=] {
    // Clear (0.25, 0.5, 0.75) * 0.5, swapped: (0.375, 0.25, 0.125) -> 96, 64, 32.
    Image img = Fill(64, 32, {96, 64, 32, 255});
    // Rectangle (2, 1, 0.5) * 0.5, swapped: (0.25, 0.5, 1.0) -> 64, 128, 255.
    Paint(img, r, {64, 128, 255, 255});
    return std::vector<Image>{img};
  };
  return {MakeSample("edram_resolve_64bpp_bias_swap",
                     "k_16_16_16_16_FLOAT target (64bpp clear through RB_COLOR_CLEAR_LO) "
                     "resolved to k_8_8_8_8 with exponent bias -1 and red/blue swap",
                     "(96,64,32) background, a (64,128,255) rectangle x 13..44 y 7..22. All "
                     "pixels exact.",
                     build, frames),
          frames, 0, "one target", ""};
}

EdramScenario WrapPastTile2047() {
  // EDRAM addresses wrap at 2048 tiles (Xenia's article "Leaving No Pixel Behind"; Xenia's GitHub report 2031, a Fable 2 depth buffer):
  // a 160x96 k_8_8_8_8 target at tile 2040 (2 tiles per row of tiles, 6 rows of tiles) covers
  // tiles 2040-2047 and then 0-3. Target B at tile 0 with the same pitch and format is cleared
  // green first; A is cleared dark and drawn; presenting B then shows A's rows 64-95 (tiles 0-3)
  // in B's rows 0-31, pixel for pixel, because the tiles are the same bytes.
  const Rect red{20.75f, 50.75f, 140.75f, 90.75f, 0, C8(230, 40, 40)};
  const Rect blue{60.75f, 70.75f, 100.75f, 95.75f, 0, C8(40, 60, 230)};
  constexpr std::array<uint8_t, 4> kGreen = {0x20, 0xC0, 0x40, 0xFF};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup b;
    b.surface_pitch = 160;
    RenderTargetSetup a = b;
    a.color_base_tiles = 2040;
    s.Target(b, 160, 64);
    ResolveOpts clear;
    clear.width = 160;
    clear.height = 64;
    clear.clear_color = true;
    clear.clear_color_value = Packed8888(kGreen);
    s.Resolve(clear);
    s.Target(a, 160, 96);
    clear.height = 96;
    clear.clear_color_value = Packed8888(kDark);
    s.Resolve(clear);
    s.Draw(red);
    s.Draw(blue);
    s.Target(b, 160, 64);
    s.Present(kFrontA, 160, 64);
  };
  auto frames = [=] {
    Image a = Fill(160, 96, kDark);
    Paint(a, red, U8(red.color));
    Paint(a, blue, U8(blue.color));
    Image b = Fill(160, 64, kGreen);
    std::copy(a.rgba.begin() + 64 * 160 * 4, a.rgba.begin() + 96 * 160 * 4, b.rgba.begin());
    return std::vector<Image>{b};
  };
  return {MakeSample("edram_wrap_past_tile_2047",
                     "160x96 target at tile 2040 running past tile 2047 into tiles 0-3, which a "
                     "target at tile 0 then presents",
                     "160x64 frame: rows 0-31 are the wrapped rows 64-95 of the target at tile "
                     "2040 (dark (16,24,32) with a red (230,40,40) band x 21..140 to row 26 and a "
                     "blue (40,60,230) block x 61..100 rows 7..31); rows 32-63 green "
                     "(32,192,64). All pixels exact.",
                     build, frames),
          frames, 2,
          "tiles 0-3 go from the target at tile 0 to the one at 2040 when its clear wraps into "
          "them, and back when the tile-0 target is presented",
          ""};
}

}  // namespace

const std::vector<EdramScenario>& EdramScenarios() {
  static const std::vector<EdramScenario> all = [] {
    std::vector<EdramScenario> v = {GBuffer(),          ShadowMap(), MsaaDepthClear(),
                                    Float24RoundTrip(), DepthThrough8888(), Bloom(),
                                    GammaDecal(),       Resolve64bppBiasSwap(), WrapPastTile2047()};
    for (auto& sc : ExactFormatScenarios()) v.push_back(std::move(sc));
    for (auto& sc : GammaRampScenarios()) v.push_back(std::move(sc));
    for (auto& sc : AlphaToMaskScenarios()) v.push_back(std::move(sc));
    for (auto& sc : DepthPrepassScenarios()) v.push_back(std::move(sc));
    for (auto& sc : ClipControlScenarios()) v.push_back(std::move(sc));
    for (auto& sc : SnapshotScenarios()) v.push_back(std::move(sc));
    for (auto& sc : SliceChainScenarios()) v.push_back(std::move(sc));
    for (auto& sc : SliceMemExportScenarios()) v.push_back(std::move(sc));
    for (auto& sc : v) {
      sc.sample.expected_frame += " EDRAM ownership transfers: " +
                                  std::to_string(sc.expected_transfers) + " (" +
                                  sc.transfers_why + ").";
    }
    return v;
  }();
  return all;
}

}  // namespace xnt::samples
