// Resolution-scaling samples (see scale_scenes.h). The scene builder keeps Direct3D's
// half-pixel offset on (PA_SU_VTX_CNTL pix_center 0: positions move by +0.5 pixel), so a
// rectangle given as [a - 0.6, b - 0.6) lands on screen at [a - 0.1, b - 0.1): it covers pixels
// a..b-1 at 1x, and host pixels Sa..Sb-1 at S (the nearest host centre, 0.5 / S past the edge,
// is never on it). Textured quads use the same 0.6 edge: pixel (x + i) reads texel i at 1x and
// the scaled copy's texel S i + j in its host pixel j, i.e. exactly the host pixel the resolve
// copied there.
#include "scale_scenes.h"

#include <algorithm>
#include <array>
#include <span>
#include <string>

#include "edram_scene_builder.h"
#include "listing_head.h"

namespace xnt::samples {

namespace {

using namespace edram_scene;

constexpr float kEdge = 0.6f;  // see above

// A rectangle covering pixels [x0, x1) x [y0, y1) at every scale (half-pixel offset on).
Rect Pixels(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, Rgba c) {
  return {float(x0) - kEdge, float(y0) - kEdge, float(x1) - kEdge, float(y1) - kEdge, 0.0f, c};
}
// What it covers, for the expected image.
void Fill(Image& img, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, std::array<uint8_t, 4> c) {
  for (uint32_t y = y0; y < y1; ++y) {
    for (uint32_t x = x0; x < x1; ++x) std::copy(c.begin(), c.end(), img.rgba.begin() + 4 * (size_t(y) * img.width + x));
  }
}
std::array<uint8_t, 4> At(const Image& img, uint32_t x, uint32_t y) {
  const uint8_t* p = &img.rgba[4 * (size_t(y) * img.width + x)];
  return {p[0], p[1], p[2], p[3]};
}

RenderTargetSetup Target8888(uint32_t pitch) {
  RenderTargetSetup rt;
  rt.surface_pitch = pitch;
  rt.color_format = ColorRenderTargetFormat::k_8_8_8_8;
  return rt;
}

void Clear(SceneBuilder& b, uint32_t w, uint32_t h, std::array<uint8_t, 4> c) {
  ResolveOpts clear;
  clear.width = w;
  clear.height = h;
  clear.clear_color = true;
  clear.clear_color_value = Packed8888(c);
  clear.dest = kScratch;
  b.Resolve(clear);
}

// ---- scale_bloom_taps_72x40_pitch96 ----------------------------------------------------------------
// A 160x96 scene; its top-left 72x40 is resolved into a texture of pitch 96 (RB_COPY_DEST_PITCH
// 96, as a bloom chain's quarter-size buffer sits in a wider allocation) and drawn back at
// (80, 48) through a "bloom" pass: the maximum of four point taps one texel left, right, up and
// down (tfetch OffsetX/OffsetY), so bright shapes grow by a texel each way. At a scale the
// texture is the scaled copy (S x T texels per guest texel) and, with scale-aware sampling, each
// tap is still one guest texel away: the pass keeps its 1x footprint.

constexpr uint32_t kBloomW = 160, kBloomH = 96;
const char* const kBloomPs = XNT_SAMPLE_PS_HEAD R"(    exec
    tfetch2D r1, r0.xy, tf0, OffsetX=-1
    tfetch2D r2, r0.xy, tf0, OffsetX=1
    tfetch2D r3, r0.xy, tf0, OffsetY=-1
    tfetch2D r4, r0.xy, tf0, OffsetY=1
    alloc colors
    exece
    max r1, r1, r2
    max r3, r3, r4
    max oC0, r1, r3
)";

struct BloomShape {
  uint32_t x0, y0, x1, y1;
  std::array<uint8_t, 4> c;
};
const BloomShape kBloomShapes[] = {{20, 10, 50, 30, {220, 200, 120, 255}},
                                   {8, 32, 16, 38, {40, 180, 250, 255}},
                                   {60, 4, 66, 12, {250, 60, 60, 255}},
                                   {100, 20, 140, 40, {90, 90, 90, 255}}};
constexpr std::array<uint8_t, 4> kBloomBack = {16, 24, 32, 255};

// The scenes whose source is rectangles on a k_8_8_8_8 target cleared to `back`: drawing them,
// and the image they make before any copy of it is drawn back.
void DrawShapes(SceneBuilder& b, uint32_t width, uint32_t height, const std::array<uint8_t, 4>& back,
                std::span<const BloomShape> shapes) {
  b.Target(Target8888(width), width, height);
  Clear(b, width, height, back);
  for (const BloomShape& s : shapes) {
    b.Draw(Pixels(s.x0, s.y0, s.x1, s.y1, C8(s.c[0], s.c[1], s.c[2], s.c[3])));
  }
}
Image ExpectedShapes(uint32_t width, uint32_t height, const std::array<uint8_t, 4>& back,
                     std::span<const BloomShape> shapes) {
  Image img = edram_scene::Fill(width, height, back);
  for (const BloomShape& s : shapes) Fill(img, s.x0, s.y0, s.x1, s.y1, s.c);
  return img;
}

// The target's top-left width x height resolved into a tiled k_8_8_8_8 texture (rows `pitch`
// texels apart when not 0, else the resolve's own) and drawn back 1:1 at (x, y) through
// `pixel_shader` (the plain textured one when empty).
void DrawBackCopy(SceneBuilder& b, uint32_t width, uint32_t height, uint32_t pitch, uint32_t x, uint32_t y,
                  const std::string& pixel_shader) {
  ResolveOpts copy;
  copy.width = width;
  copy.height = height;
  copy.dest = kTexture;
  copy.dest_pitch = pitch;
  copy.dest_height = pitch ? height : 0;
  b.Resolve(copy);
  auto fetch = capture::TextureFetch2D(kTexture, width, height, TextureFormat::k_8_8_8_8, true,
                                       xenos::Endian::k8in32);
  b.DrawTextured(x, y, width, height, width, height, fetch, pixel_shader, kEdge);
}

void BuildBloom(SceneBuilder& b) {
  DrawShapes(b, kBloomW, kBloomH, kBloomBack, kBloomShapes);
  DrawBackCopy(b, 72, 40, 96, 80, 48, kBloomPs);
  b.Present(kFrontA, kBloomW, kBloomH);
}

Image ExpectedBloom() {
  Image img = ExpectedShapes(kBloomW, kBloomH, kBloomBack, kBloomShapes);
  const Image scene = img;
  // Texel (i, j) of the copy is scene pixel (i, j); taps clamp to the last texel (clamp mode 2).
  for (uint32_t j = 0; j < 40; ++j) {
    for (uint32_t i = 0; i < 72; ++i) {
      const std::array<uint8_t, 4> taps[4] = {
          At(scene, i == 0 ? 0 : i - 1, j), At(scene, std::min(i + 1, 71u), j),
          At(scene, i, j == 0 ? 0 : j - 1), At(scene, i, std::min(j + 1, 39u))};
      std::array<uint8_t, 4> m{};
      for (const auto& t : taps) {
        for (int c = 0; c < 4; ++c) m[c] = std::max(m[c], t[c]);
      }
      m[3] = 255;  // the swap shows frames opaque
      Fill(img, 80 + i, 48 + j, 81 + i, 49 + j, m);
    }
  }
  return img;
}

// ---- scale_resolve_texture_2x2 ------------------------------------------------------------------
// Shapes drawn into a 128x64 target, its top-left 64x32 resolved to a tiled texture and read back
// point-sampled 1:1 at (64, 32): the frame shows the shapes twice. At 2x2 (or any scale) the read
// is from the scaled copy, so the second copy is as sharp as the first (a 1x read would show
// every guest texel as S x T equal host pixels).

constexpr uint32_t kCopyW = 128, kCopyH = 64;
const BloomShape kCopyShapes[] = {{4, 4, 30, 20, {240, 120, 0, 255}},
                                  {20, 12, 50, 28, {0, 200, 90, 255}},
                                  {40, 2, 62, 9, {200, 40, 160, 255}},
                                  {70, 8, 120, 24, {230, 230, 60, 255}}};
constexpr std::array<uint8_t, 4> kCopyBack = {24, 24, 40, 255};

void BuildResolveTexture(SceneBuilder& b) {
  DrawShapes(b, kCopyW, kCopyH, kCopyBack, kCopyShapes);
  DrawBackCopy(b, 64, 32, 0, 64, 32, {});
  b.Present(kFrontA, kCopyW, kCopyH);
}

Image ExpectedResolveTexture() {
  Image img = ExpectedShapes(kCopyW, kCopyH, kCopyBack, kCopyShapes);
  const Image scene = img;
  for (uint32_t j = 0; j < 32; ++j) {
    for (uint32_t i = 0; i < 64; ++i) Fill(img, 64 + i, 32 + j, 65 + i, 33 + j, At(scene, i, j));
  }
  return img;
}

// ---- scale_half_pixel_3x3 -----------------------------------------------------------------------
// Direct3D-style geometry with the half-pixel offset on: a full-target quad from -0.5 to W - 0.5
// (pixel centres on integers) and rectangles at k - 0.5, whose screen edges then fall exactly on
// pixel boundaries. The target is cleared to red first: at 3x3 every host pixel must be covered
// by the quad (a half pixel applied in host pixels instead of guest ones would leave the first
// host column and row red, the gap Xenia fills by duplicating the second scaled column / row).

constexpr uint32_t kHalfW = 96, kHalfH = 64;
constexpr std::array<uint8_t, 4> kHalfRed = {255, 0, 0, 255};
constexpr std::array<uint8_t, 4> kHalfBack = {20, 60, 100, 255};
const BloomShape kHalfShapes[] = {{0, 0, 12, 8, {250, 250, 250, 255}},
                                  {30, 20, 61, 45, {60, 200, 60, 255}},
                                  {84, 50, 96, 64, {250, 200, 0, 255}}};

Rect D3dPixels(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, Rgba c) {
  return {float(x0) - 0.5f, float(y0) - 0.5f, float(x1) - 0.5f, float(y1) - 0.5f, 0.0f, c};
}

void BuildHalfPixel(SceneBuilder& b) {
  b.Target(Target8888(kHalfW), kHalfW, kHalfH);
  Clear(b, kHalfW, kHalfH, kHalfRed);
  b.Draw(D3dPixels(0, 0, kHalfW, kHalfH, C8(kHalfBack[0], kHalfBack[1], kHalfBack[2])));
  for (const BloomShape& s : kHalfShapes) {
    b.Draw(D3dPixels(s.x0, s.y0, s.x1, s.y1, C8(s.c[0], s.c[1], s.c[2], s.c[3])));
  }
  b.Present(kFrontA, kHalfW, kHalfH);
}

Image ExpectedHalfPixel() {
  return ExpectedShapes(kHalfW, kHalfH, kHalfBack, kHalfShapes);
}

// ---- scale_frame_1280x720 -----------------------------------------------------------------------
// A 720p frame for the memory figures in docs/edram.md: a k_8_8_8_8 colour target and a D24S8
// depth target at pitch 1280, rectangles depth-tested against each other, resolved to a front
// buffer and swapped.

constexpr uint32_t k720W = 1280, k720H = 720;
constexpr std::array<uint8_t, 4> k720Back = {30, 30, 30, 255};
struct DepthShape {
  uint32_t x0, y0, x1, y1;
  float z;
  std::array<uint8_t, 4> c;
};
const DepthShape k720Shapes[] = {{100, 100, 900, 500, 0.5f, {200, 80, 40, 255}},
                                 {400, 300, 1200, 700, 0.25f, {40, 160, 220, 255}},
                                 {600, 50, 800, 650, 0.75f, {240, 240, 240, 255}}};

void Build720(SceneBuilder& b) {
  RenderTargetSetup rt = Target8888(k720W);
  rt.depth = true;
  rt.depth_base_tiles = 1024;  // after the colour target's 720 tiles (45 rows of 16)
  rt.depth_format = DepthRenderTargetFormat::kD24S8;
  b.Target(rt, k720W, k720H);
  ResolveOpts clear;
  clear.width = k720W;
  clear.height = k720H;
  clear.clear_color = clear.clear_depth = true;
  clear.clear_color_value = Packed8888(k720Back);
  clear.clear_depth_value = 0xFFFFFF00u;
  b.Resolve(clear);
  b.Depth(true, true, CompareFunction::kLess);
  for (const DepthShape& s : k720Shapes) {
    Rect r = Pixels(s.x0, s.y0, s.x1, s.y1, C8(s.c[0], s.c[1], s.c[2], s.c[3]));
    r.z = s.z;
    b.Draw(r);
  }
  b.Present(kFrontA, k720W, k720H);
}

Image Expected720() {
  Image img = edram_scene::Fill(k720W, k720H, k720Back);
  std::vector<float> depth(size_t(k720W) * k720H, 1.0f);
  for (const DepthShape& s : k720Shapes) {
    for (uint32_t y = s.y0; y < s.y1; ++y) {
      for (uint32_t x = s.x0; x < s.x1; ++x) {
        float& d = depth[size_t(y) * k720W + x];
        if (s.z < d) {
          d = s.z;
          Fill(img, x, y, x + 1, y + 1, s.c);
        }
      }
    }
  }
  return img;
}

}  // namespace

std::vector<Sample> ScaleSamples() {
  std::vector<Sample> v;
  v.push_back(MakeSample(
      "scale_bloom_taps_72x40_pitch96",
      "160x96 k_8_8_8_8 scene; its top-left 72x40 resolved into a texture of pitch 96 and drawn "
      "back at (80, 48) through a 4-tap max (OffsetX/Y +-1 texel) bloom pass",
      "Dark (16,24,32) background; a sand (220,200,120) rectangle x 20..49 y 10..29, a blue "
      "(40,180,250) one x 8..15 y 32..37, a red (250,60,60) one x 60..65 y 4..11, a grey "
      "(90,90,90) one x 100..139 y 20..39; at x 80..151 y 48..87 the top-left 72x40 with every "
      "shape grown by one pixel each way (the per-channel maximum of the four neighbours). All "
      "pixels exact.",
      BuildBloom, [] { return std::vector<Image>{ExpectedBloom()}; }));
  v.push_back(MakeSample(
      "scale_resolve_texture_2x2",
      "128x64 k_8_8_8_8 scene; its top-left 64x32 resolved to a tiled texture and point-sampled "
      "back 1:1 at (64, 32)",
      "Navy (24,24,40) background; orange (240,120,0) x 4..29 y 4..19, green (0,200,90) x 20..49 "
      "y 12..27 over it, purple (200,40,160) x 40..61 y 2..8, yellow (230,230,60) x 70..119 y "
      "8..23; the top-left 64x32 repeated at x 64..127 y 32..63. All pixels exact.",
      BuildResolveTexture, [] { return std::vector<Image>{ExpectedResolveTexture()}; }));
  v.push_back(MakeSample(
      "scale_half_pixel_3x3",
      "96x64 target cleared red, then Direct3D-style geometry with the half-pixel offset: a "
      "full-target quad from -0.5 and three rectangles at k - 0.5",
      "Blue (20,60,100) everywhere (no red: the full-target quad covers every pixel, at any "
      "scale); white (250,250,250) x 0..11 y 0..7, green (60,200,60) x 30..60 y 20..44, yellow "
      "(250,200,0) x 84..95 y 50..63. All pixels exact.",
      BuildHalfPixel, [] { return std::vector<Image>{ExpectedHalfPixel()}; }));
  v.push_back(MakeSample(
      "scale_frame_1280x720",
      "1280x720 k_8_8_8_8 colour + D24S8 depth (base 1024), three depth-tested rectangles, "
      "resolve, swap (the frame docs/edram.md's scaling memory figures are measured on)",
      "Grey (30,30,30) background; a brown (200,80,40) rectangle x 100..899 y 100..499 (z 0.5), "
      "a blue (40,160,220) one x 400..1199 y 300..699 (z 0.25) in front of it, a white one x "
      "600..799 y 50..649 (z 0.75) behind both. All pixels exact.",
      Build720, [] { return std::vector<Image>{Expected720()}; }));
  return v;
}

}  // namespace xnt::samples
