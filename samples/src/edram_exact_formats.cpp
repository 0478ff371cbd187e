// EDRAM scenarios that prove guest formats are stored bit-exactly where host formats cannot
// ("new samples with hand-worked expected images"): 7e3 colour, float16 above 65504
// through a resolve, and 20e4 depth compared at its own precision after a round trip. Every
// expected bit pattern below is worked by hand from the format definitions (the comments show
// the arithmetic); nothing is computed by the renderer's encoders.
#include <array>
#include <cmath>

#include "edram_scenarios.h"
#include "edram_scene_builder.h"

namespace xnt::samples {

namespace {

using namespace edram_scene;  // NOLINT: the scenarios are written in the builder's terms

// A dword as the swap shows it after a k8in32 resolve (the front buffer's own endian): bytes 0,
// 1, 2 as R, G, B; byte 3 (alpha) is shown opaque (swap.cpp).
std::array<uint8_t, 4> Bytes012(uint32_t v) {
  return {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), 255};
}
// The same dword resolved with RB_COPY_DEST_INFO endian k16in32 while the swap reads k8in32:
// memory byte i holds dword byte i ^ 2, the swap's k8in32 read takes texel byte k from memory
// byte 3 - k, so R, G, B show dword bytes 1, 0, 3 (byte 3 is the one the first view hides).
std::array<uint8_t, 4> Bytes103(uint32_t v) {
  return {uint8_t(v >> 8), uint8_t(v), uint8_t(v >> 24), 255};
}

Image DwordFrame(uint32_t w, uint32_t h, const std::function<uint32_t(uint32_t, uint32_t)>& dword,
                 std::array<uint8_t, 4> (*show)(uint32_t)) {
  Image img = Fill(w, h, {0, 0, 0, 255});
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      auto c = show(dword(x, y));
      std::copy(c.begin(), c.end(), img.rgba.begin() + 4 * (size_t(y) * w + x));
    }
  }
  return img;
}

EdramScenario Exact7e3() {
  // k_2_10_10_10_FLOAT: R, G, B in 10-bit 7e3 (3-bit exponent, bias 3, 7-bit mantissa, no sign:
  // 0..31.875; exponent 0 holds denormals m / 128 * 2^-2), A in 2-bit unorm (Xenia's article "Leaving No Pixel Behind" on
  // 10.10.10.2 floating point). Encoding from Xenia's PreClampedFloat32To7e3 /
  // UnclampedFloat32To7e3 (spirv_shader_translator_rb.cc, after DirectXTex's 7e3 code): clamp to
  // [0, 31.875] (negative and NaN -> 0), below 0.25 denormalise, round to nearest even at the
  // 7-bit mantissa. Every colour below is exact in a host float16 too, so a path that keeps 7e3
  // in a half-float host target (Xenia's FBO path, ours) can reproduce the bits; the rounding
  // happens only in the 7e3 step.
  struct Draw {
    Rect rect;
    uint32_t word;  // the expected EDRAM dword
  };
  auto column = [](uint32_t i, Rgba c) {
    return Rect{16.0f * float(i) + 1.75f, 1.75f, 16.0f * float(i) + 13.75f, 13.75f, 0, c};
  };
  const Draw draws[] = {
      // 1.0 = 2^0: e 3, m 0 -> 0x180; 2.0: e 4 -> 0x200; 0.5: e 2 -> 0x100; alpha 1 -> 3.
      // 0x180 | 0x200 << 10 | 0x100 << 20 | 3 << 30.
      {column(0, {1.0f, 2.0f, 0.5f, 1.0f}), 0xD0080180u},
      // 31.875 = 2^4 * (1 + 127/128): 0x3FF; 40 clamps to 0x3FF; -1 clamps to 0; alpha 0.
      {column(1, {31.875f, 40.0f, -1.0f, 0.0f}), 0x000FFFFFu},
      // Denormals (value m / 512): 0.125 -> 0x040, 3/512 -> 0x003, 127/512 -> 0x07F;
      // alpha 1/3 * 3 + 0.5 -> 1.
      {column(2, {0.125f, 3.0f / 512.0f, 127.0f / 512.0f, 1.0f / 3.0f}), 0x47F00C40u},
      // Ties, to the even mantissa: 1 + 1/256 (half a step above 1.0) -> 0x180; 1 + 3/256
      // (between m 1 and 2) -> 0x182; 0.25 + 1/1024 (half a step above 0.25, e 1) -> 0x080;
      // alpha 2/3 * 3 + 0.5 -> 2.
      {column(3, {1.0f + 1.0f / 256.0f, 1.0f + 3.0f / 256.0f, 0.25f + 1.0f / 1024.0f, 2.0f / 3.0f}),
       0x88060980u},
      // 3 = 2 * 1.5: e 4, m 64 -> 0x240; 1 + 5/512 is 1.25 steps above 1.0 -> m 1 -> 0x181;
      // 17 = 16 * (1 + 8/128): e 7, m 8 -> 0x388; alpha 3.
      {column(4, {3.0f, 1.0f + 5.0f / 512.0f, 17.0f, 1.0f}), 0xF8860640u},
  };
  // The clear writes RB_COLOR_CLEAR's bits as they are: R 0x155 (0.83203125), G 0x2AA
  // (5.3125), B 0x0F0 (0.46875), A 2.
  constexpr uint32_t kClear = 0x155u | 0x2AAu << 10 | 0x0F0u << 20 | 2u << 30;  // 0x8F0AA955
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup rt;
    rt.surface_pitch = 80;
    rt.color_format = ColorRenderTargetFormat::k_2_10_10_10_FLOAT;
    s.Target(rt, 80, 16);
    ResolveOpts clear;
    clear.width = 80;
    clear.height = 16;
    clear.clear_color = true;
    clear.clear_color_value = kClear;
    s.Resolve(clear);
    for (const Draw& d : draws) s.Draw(d.rect);
    // The same tiles as k_8_8_8_8: an ownership transfer that must carry the 7e3 bits, then
    // two bitwise resolves that show all four bytes of each dword between them.
    RenderTargetSetup as_8888 = rt;
    as_8888.color_format = ColorRenderTargetFormat::k_8_8_8_8;
    s.Target(as_8888, 80, 16);
    s.Present(kFrontA, 80, 16);
    ResolveOpts swapped;
    swapped.width = 80;
    swapped.height = 16;
    swapped.dest = kFrontB;
    swapped.endian = xenos::Endian128::k16in32;
    s.Resolve(swapped);
    s.Swap(kFrontB, 80, 16);
  };
  auto frames = [=] {
    auto dword = [&](uint32_t x, uint32_t y) {
      for (const Draw& d : draws) {
        if (d.rect.Covers(x, y)) return d.word;
      }
      return kClear;
    };
    return std::vector<Image>{DwordFrame(80, 16, dword, Bytes012),
                              DwordFrame(80, 16, dword, Bytes103)};
  };
  return {MakeSample("edram_7e3_exact_bits",
                     "k_2_10_10_10_FLOAT (7e3) clear and draws (denormals, clamps, round-to-even "
                     "ties) read back bit-exactly through a k_8_8_8_8 view of the same tiles",
                     "80x16 frames of raw 7e3 dwords. Frame 0 shows bytes 0,1,2 as RGB: clear "
                     "0x8F0AA955 (85,169,10) around five 12x12 squares at x 2,18,34,50,66 y 2..13: "
                     "0xD0080180 (128,1,8), 0x000FFFFF (255,255,15), 0x47F00C40 (64,12,240), "
                     "0x88060980 (128,9,6), 0xF8860640 (64,6,134). Frame 1 (resolved k16in32) "
                     "shows bytes 1,0,3: (169,85,143), (1,128,208), (255,255,0), (12,64,71), "
                     "(9,128,136), (6,64,248). All pixels exact.",
                     build, frames),
          frames, 1, "7e3 -> k_8_8_8_8 when the tiles are viewed as integers", ""};
}

EdramScenario Float16Above65504() {
  // Xenos float16 has no infinity or NaN: exponent 31 is an ordinary exponent, so a
  // k_16_16_16_16_FLOAT target holds up to 2^16 * (2 - 2^-10) = 131008 (Xenia canary 3ff230d23
  // "extended-range float16" in render-target pack/unpack; Xenia's article "Leaving No Pixel Behind"). Values are exact in it, so
  // no rounding rule is involved: 65536 -> 0x7C00 (IEEE's +inf), 98304 = 1.5 * 2^16 -> 0x7E00 (an
  // IEEE NaN), 131008 -> 0x7FFF, 81920 = 1.25 * 2^16 -> 0x7D00, 70016 = (1 + 70/1024) * 2^16 ->
  // 0x7C46, 65600 -> 0x7C01. The target is resolved bitwise to memory as k_16_16_16_16_FLOAT,
  // that memory is fetched as a k_32_32_FLOAT texture (same 64bpp tiling; each float32 is
  // G:R or A:B, normal floats because G and A are small halves) into a k_32_32_FLOAT target,
  // whose tiles are presented as k_8_8_8_8 at twice the pitch: pixel 2x shows R's two bytes and
  // G's low byte, pixel 2x + 1 B's and A's.
  struct Draw {
    Rect rect;
    uint32_t lo, hi;  // expected dwords: G << 16 | R, A << 16 | B
  };
  auto column = [](uint32_t i, Rgba c) {
    return Rect{26.0f * float(i) + 1.75f, 1.75f, 26.0f * float(i) + 25.75f, 13.75f, 0, c};
  };
  const Draw draws[] = {
      {column(0, {98304.0f, 1.0f, 131008.0f, 2.0f}), 0x3C007E00u, 0x40007FFFu},
      {column(1, {65536.0f, 0.5f, 81920.0f, 0.25f}), 0x38007C00u, 0x34007D00u},
      {column(2, {70016.0f, 1.0f, 65600.0f, 1.0f}), 0x3C007C46u, 0x3C007C01u},
  };
  // The clear's raw bits: R 0x7C00 (65536), G 1.0 | B 0x7BFF (65504), A 0.5.
  constexpr uint32_t kClearLo = 0x3C007C00u, kClearHi = 0x38007BFFu;
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup f16;
    f16.surface_pitch = 80;
    f16.color_format = ColorRenderTargetFormat::k_16_16_16_16_FLOAT;
    s.Target(f16, 80, 16);
    ResolveOpts clear;
    clear.width = 80;
    clear.height = 16;
    clear.format = TextureFormat::k_16_16_16_16_FLOAT;
    clear.clear_color = true;
    clear.clear_color_lo = kClearLo;
    clear.clear_color_value = kClearHi;
    s.Resolve(clear);
    for (const Draw& d : draws) s.Draw(d.rect);
    ResolveOpts out;
    out.width = 80;
    out.height = 16;
    out.format = TextureFormat::k_16_16_16_16_FLOAT;
    out.dest = kTexture;
    s.Resolve(out);
    // The resolved texels as float32 pairs, into tiles 4-5 (the float16 target has 0-1).
    RenderTargetSetup f32;
    f32.surface_pitch = 80;
    f32.color_base_tiles = 4;
    f32.color_format = ColorRenderTargetFormat::k_32_32_FLOAT;
    s.Target(f32, 80, 16);
    // The quad's edges 0.6 before the pixels (scale_scenes.cpp's kEdge; the builder's half-pixel
    // offset moves them to -0.1): host pixel j of guest pixel i reads the scaled copy's texel
    // S i + j at 0.6, 0.7, 0.8 of the way into it at S = 1, 2, 3, never on a texel boundary,
    // where point sampling may pick either neighbour (docs/compare.md).
    s.DrawTextured(0, 0, 80, 16, 80, 16,
                   capture::TextureFetch2D(kTexture, 80, 16, TextureFormat::k_32_32_FLOAT), {},
                   0.6f);
    RenderTargetSetup as_8888;
    as_8888.surface_pitch = 160;
    as_8888.color_base_tiles = 4;
    s.Target(as_8888, 160, 16);
    s.Present(kFrontA, 160, 16);
  };
  auto frames = [=] {
    auto dword = [&](uint32_t x, uint32_t y) {
      for (const Draw& d : draws) {
        if (d.rect.Covers(x / 2, y)) return x % 2 ? d.hi : d.lo;
      }
      return x % 2 ? kClearHi : kClearLo;
    };
    return std::vector<Image>{DwordFrame(160, 16, dword, Bytes012)};
  };
  EdramScenario sc{
      MakeSample("edram_float16_above_65504_resolve",
                 "k_16_16_16_16_FLOAT target drawn with values 65536..131008 (exponent 31, no "
                 "infinity on Xenos), resolved to memory and shown bit for bit",
                 "160x16 frame of the resolved halves, two pixels per texel (R lo, R hi, G lo | "
                 "B lo, B hi, A lo): clear (0,124,0)|(255,123,0) around three 48x12 blocks at x "
                 "4..51, 56..103, 108..155, y 2..13: (0,126,0)|(255,127,0) = 98304, 131008; "
                 "(0,124,0)|(0,125,0) = 65536, 81920; (70,124,0)|(1,124,0) = 70016, 65600. All "
                 "pixels exact.",
                 build, frames),
      frames, 1, "k_32_32_FLOAT -> k_8_8_8_8 for the present", ""};
  sc.sample.differs_on["fbo"] =
      "the fbo path keeps k_16_16_16_16_FLOAT in an IEEE R16G16B16A16_SFLOAT host target, where "
      "draws above 65504 become infinity (0x7C00) instead of the Xenos exponent-31 values";
  return sc;
}

EdramScenario Float24EqualWithinQuantum() {
  // kD24FS8 stores 20e4 (4-bit exponent, bias 15, 20-bit mantissa; Xenia xenos.cc
  // Float32To20e4, round to nearest even as its FSI path always does), and the
  // hardware compares the incoming depth converted to 20e4 with the stored 20e4. In [0.5, 1)
  // one 20e4 step is 2^-21 (float32's is 2^-24), so a pre-pass at z and an EQUAL pass at z'
  // pass wherever z and z' round to the same 20e4 code, even though z != z':
  //   a: pre-pass 0.75 + 2^-23 (a quarter step above 0.75) -> 0xE80000; EQUAL at 0.75 ->
  //      0xE80000. Fails at float32 precision, and at unorm24 (12582913 vs 12582911).
  //   b: pre-pass 0.75 - 2^-23 (a quarter step below) -> rounds up to 0xE80000; EQUAL at 0.75.
  //      Fails also where 20e4 is truncated (0xE7FFFF).
  //   c: pre-pass 0.75 + 3 * 2^-23 (three quarters) -> 0xE80001; EQUAL at 0.75 + 2^-21 ->
  //      0xE80001. Fails where truncated (0xE80000) and at float32 precision.
  // Between the passes the depth tiles are read as k_8_8_8_8 (a frame of their bits) and come
  // back as depth. The existing edram_float24_prepass_equal repeats the same z in both passes,
  // which any consistent depth store passes; this one pins the 20e4 precision and rounding.
  constexpr float kQ = 1.0f / 8388608.0f;  // 2^-23
  const Rect pre[] = {{1.75f, 1.75f, 25.75f, 29.75f, 0.75f + kQ, {}},
                      {27.75f, 1.75f, 51.75f, 29.75f, 0.75f - kQ, {}},
                      {53.75f, 1.75f, 77.75f, 29.75f, 0.75f + 3.0f * kQ, {}}};
  const Rect equal[] = {{1.75f, 1.75f, 25.75f, 29.75f, 0.75f, C8(230, 128, 26)},
                        {27.75f, 1.75f, 51.75f, 29.75f, 0.75f, C8(26, 128, 230)},
                        {53.75f, 1.75f, 77.75f, 29.75f, 0.75f + 4.0f * kQ, C8(51, 204, 102)}};
  // Depth dwords (20e4 << 8 | stencil 0): clear 1.0 = exponent 15 -> 0xF00000; 0.75 = 1.5 *
  // 2^-1 -> exponent 14, mantissa 0x80000 -> 0xE80000; one step more -> 0xE80001.
  constexpr uint32_t kCleared = 0xF0000000u;
  const uint32_t stored[] = {0xE8000000u, 0xE8000000u, 0xE8000100u};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup rt;
    rt.surface_pitch = 80;
    rt.color_base_tiles = 0;
    rt.depth = true;
    rt.depth_base_tiles = 2;
    rt.depth_format = DepthRenderTargetFormat::kD24FS8;
    s.Target(rt, 80, 32);
    ResolveOpts clear;
    clear.width = 80;
    clear.height = 32;
    clear.clear_color = true;
    clear.clear_color_value = Packed8888(kDark);
    clear.clear_depth = true;
    clear.clear_depth_value = kCleared;
    s.Resolve(clear);
    s.ColorMask(0);
    s.Depth(true, true, CompareFunction::kLess);
    for (const Rect& r : pre) s.Draw(r);
    // The depth tiles as colour, resolved k16in32 so that the exponent byte shows.
    RenderTargetSetup as_color = rt;
    as_color.color_base_tiles = 2;
    as_color.depth = false;
    s.Target(as_color, 80, 32);
    ResolveOpts peek;
    peek.width = 80;
    peek.height = 32;
    peek.dest = kFrontA;
    peek.endian = xenos::Endian128::k16in32;
    s.Resolve(peek);
    s.Swap(kFrontA, 80, 32);
    // Back to depth: the colour pass with EQUAL.
    s.Target(rt, 80, 32);
    s.ColorMask(0xF);
    s.Depth(true, false, CompareFunction::kEqual);
    for (const Rect& r : equal) s.Draw(r);
    s.Depth(false, false, CompareFunction::kAlways);
    s.Present(kFrontB, 80, 32);
  };
  auto frames = [=] {
    // Depth sample x sits at colour column (x + 40) % 80 of its tile (the depth halves are
    // swapped, edram_depth_evict_8888), and the colour view shows column p = depth (p + 40) % 80.
    auto dword = [&](uint32_t p, uint32_t y) {
      const uint32_t x = (p + 40) % 80;
      for (size_t i = 0; i < 3; ++i) {
        if (pre[i].Covers(x, y)) return stored[i];
      }
      return kCleared;
    };
    Image bits = DwordFrame(80, 32, dword, Bytes103);
    Image scene = Fill(80, 32, kDark);
    for (const Rect& r : equal) Paint(scene, r, U8(r.color));
    return std::vector<Image>{bits, scene};
  };
  EdramScenario sc{
      MakeSample("edram_float24_equal_within_20e4_step",
                 "kD24FS8 pre-pass and EQUAL pass at depths that differ by less than one 20e4 "
                 "step (quarter steps above and below, three quarters up), the depth tiles read "
                 "as colour in between",
                 "Frame 0, the depth dwords as colour (resolved k16in32: R = depth bits 7:0, G = "
                 "stencil, B = depth bits 23:16; the depth tile halves swapped): (0,0,240) "
                 "cleared 1.0, (0,0,232) = 0xE80000 at x 42..65 and x 68..79 + 0..11, (1,0,232) = "
                 "0xE80001 at x 14..37, rows 2..29. Frame 1: dark with three solid rectangles "
                 "rows 2..29: orange (230,128,26) x 2..25, blue (26,128,230) x 28..51, green "
                 "(51,204,102) x 54..77 (EQUAL passes everywhere). All pixels exact.",
                 build, frames),
      frames, 2, "depth -> k_8_8_8_8 for the peek, k_8_8_8_8 -> depth for the EQUAL pass", ""};
  return sc;
}

}  // namespace

std::vector<EdramScenario> ExactFormatScenarios() {
  return {Exact7e3(), Float16Above65504(), Float24EqualWithinQuantum()};
}

}  // namespace xnt::samples
