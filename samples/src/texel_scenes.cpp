// The texture unit's coordinate -> texel rule at magnification (renderer/gpu texel_coordinate.h):
// textured quads whose pixel centres fall exactly on texel boundaries, where a host sampler that
// floors its own coordinate may read either texel. The expected images are worked out here in
// exact integer arithmetic: a pixel centre a distance d (in pixels) from the quad's left edge reads
// texel floor(d x texels / pixels), a centre on a boundary the texel to its right (below), which
// is the texel the hardware's rounded fixed-point coordinate names.
#include <algorithm>
#include <string>

#include "texel_scenes.h"

#include "listing_head.h"
#include "sample_entry.h"
#include "xnt/base/error.h"

namespace xnt::samples {

std::array<uint8_t, 4> PatternTexel(uint32_t x, uint32_t y) {
  return {uint8_t(x * 3 + 16), uint8_t(y * 5 + 8), uint8_t((x ^ y) * 29), 0xFF};
}

std::array<uint32_t, 6> AddPatternTexture(TexturedScene& scene, uint32_t address, uint32_t width,
                                          uint32_t height, uint32_t clamp, TexelFilters f) {
  constexpr uint32_t kFormat8888 = 6;   // xenos::TextureFormat k_8_8_8_8
  constexpr uint32_t kEndian8in32 = 2;  // xenos::Endian k8in32: the texel's bytes big-endian
  const uint32_t pitch = (width + 63) & ~63u;  // 256-byte rows
  if (width > 512 || height > 512 || (address & 0xFFF)) {
    throw Error("pattern texture: at most 512x512 (1 MiB) at a 4 KiB-aligned address");
  }
  std::vector<uint8_t> bytes(size_t(pitch) * height * 4);
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const auto t = PatternTexel(x, y);
      uint8_t* p = &bytes[(size_t(y) * pitch + x) * 4];
      p[0] = t[3], p[1] = t[2], p[2] = t[1], p[3] = t[0];
    }
  }
  scene.memory.push_back({address, std::move(bytes)});
  // Xenia xenos.h xe_gpu_texture_fetch_t: dword 0 type 2 (texture), clamp x bits 10..12, y
  // 13..15, pitch / 32 at 22; dword 1 format, endian at 6, address; dword 2 size - 1; dword 3
  // identity swizzle, mag bits 19..20, min 21..22, aniso 25..27; dword 5 dimension 2D at 9.
  std::array<uint32_t, 6> d{};
  d[0] = 2u | (clamp << 10) | (clamp << 13) | ((pitch >> 5) << 22);
  d[1] = kFormat8888 | (kEndian8in32 << 6) | address;
  d[2] = (width - 1) | ((height - 1) << 13);
  d[3] = ((0u | (1u << 3) | (2u << 6) | (3u << 9)) << 1) | (f.mag << 19) | (f.min << 21) |
         (f.aniso << 25);
  d[5] = 1u << 9;
  return d;
}

namespace {

constexpr uint32_t kRepeat = 0, kMirroredRepeat = 1, kClampToEdge = 2;

struct TexelBuilder {
  TexturedScene scene;
  Image expected;
  uint32_t next = kTexturedFirstTextureAddress;

  TexelBuilder(uint32_t width, uint32_t height) {
    scene.width = width;
    scene.height = height;
    scene.clear_rgba = {0x18, 0x18, 0x28, 0xFF};
    expected.width = width;
    expected.height = height;
    expected.rgba.resize(size_t(width) * height * 4);
    for (size_t i = 0; i < expected.rgba.size(); i += 4) {
      std::copy(scene.clear_rgba.begin(), scene.clear_rgba.end(), expected.rgba.begin() + i);
    }
  }

  std::array<uint32_t, 6> Texture(uint32_t width, uint32_t height, uint32_t clamp, TexelFilters f) {
    const std::array<uint32_t, 6> fetch = AddPatternTexture(scene, next, width, height, clamp, f);
    next += 0x100000;  // AddPatternTexture takes at most 1 MiB
    return fetch;
  }

  // A quad of `width` x `height` pixels at (x, y) whose coordinates run 0 .. repeats across it,
  // over a texture of tw x th texels, fetched by `pixel_shader` (empty: the plain tfetch2D) with
  // an offset of `offset_half` half texels on both axes. The scene's edge_inset puts pixel i's
  // centre i + centre_half / 2 pixels from the quad's edge: texel
  // floor(((2 i + centre_half) x repeats x tw + offset_half x width) / (2 width)), wrapped by the
  // clamp mode.
  void Quad(const std::array<uint32_t, 6>& fetch, uint32_t x, uint32_t y, uint32_t width,
            uint32_t height, uint32_t tw, uint32_t th, uint32_t repeats, uint32_t clamp,
            int32_t centre_half, int32_t offset_half = 0, std::string pixel_shader = {}) {
    TexturedQuad q;
    q.x = x, q.y = y, q.width = width, q.height = height;
    q.fetch = fetch;
    q.texture_width = width / repeats;  // u1 = width / texture_width = repeats
    q.texture_height = height / repeats;
    q.pixel_shader = std::move(pixel_shader);
    scene.quads.push_back(q);
    auto texel = [&](uint32_t i, uint32_t pixels, uint32_t n) -> uint32_t {
      const int64_t num = (2 * int64_t(i) + centre_half) * repeats * n + int64_t(offset_half) * pixels;
      const int64_t den = 2 * int64_t(pixels);
      const int64_t t = num >= 0 ? num / den : -((-num + den - 1) / den);  // floor
      if (clamp == kClampToEdge) return uint32_t(std::clamp<int64_t>(t, 0, n - 1));
      if (clamp == kRepeat) return uint32_t(((t % n) + n) % n);
      const int64_t m = ((t % (2 * n)) + 2 * n) % (2 * n);
      return uint32_t(m < n ? m : 2 * n - 1 - m);
    };
    for (uint32_t j = 0; j < height; ++j) {
      const uint32_t ty = texel(j, height, th);
      for (uint32_t i = 0; i < width; ++i) {
        const auto t = PatternTexel(texel(i, width, tw), ty);
        uint8_t* px = &expected.rgba[(size_t(y + j) * expected.width + x + i) * 4];
        std::copy(t.begin(), t.end(), px);
      }
    }
  }
};

// edge_inset values (texture_scene.h: the Direct3D half-pixel offset the scenes set moves edges
// half a pixel right/down): quad edges on pixel edges (centres half a pixel in), or on pixel
// centres (the first column and row covered by the top-left rule, at distance 0).
constexpr float kEdgesOnPixelEdges = 0.5f;
constexpr float kEdgesOnPixelCentres = 0.0f;

// 256 x 192 texels magnified to 640 x 480 (2.5x) with the quad's edges on pixel edges, as a
// driver without Direct3D's half-pixel convention draws a full-screen quad: every fifth column
// and row of pixel centres lies exactly on a texel boundary (pixel 5k + 2 at texel 2k + 1).
TexelBuilder Magnified256To640() {
  TexelBuilder b(640, 480);
  b.scene.edge_inset = kEdgesOnPixelEdges;
  b.Quad(b.Texture(256, 192, kClampToEdge, {}), 0, 0, 640, 480, 256, 192, 1, kClampToEdge, 1);
  return b;
}

// 1:2 magnification with the edges on pixel centres: every other pixel centre is exactly on a
// texel boundary (pixel 2k at texel k). Clamp; repeat and mirrored repeat with the coordinates
// running to 2 (a boundary at the wrap, u = 1 exactly); repeat with a -1 texel offset (negative
// coordinates, texel -1 exactly at the first pixel).
TexelBuilder Magnified1To2() {
  TexelBuilder b(320, 240);
  b.scene.edge_inset = kEdgesOnPixelCentres;
  b.Quad(b.Texture(64, 48, kClampToEdge, {}), 8, 8, 128, 96, 64, 48, 1, kClampToEdge, 0);
  b.Quad(b.Texture(32, 24, kRepeat, {}), 152, 8, 128, 96, 32, 24, 2, kRepeat, 0);
  b.Quad(b.Texture(32, 24, kMirroredRepeat, {}), 8, 120, 128, 96, 32, 24, 2, kMirroredRepeat, 0);
  const std::string offset_shader = std::string(XNT_SAMPLE_PS_HEAD) + R"(    exec
    tfetch2D r1, r0.xy, tf0, OffsetX=-1, OffsetY=-1
    alloc colors
    exece
    mov oC0, r1
)";
  b.Quad(b.Texture(64, 48, kRepeat, {}), 152, 120, 128, 96, 64, 48, 1, kRepeat, 0, -2,
         offset_shader);
  return b;
}

// The texture fetch constant a real driver sets by default: magnification point, minification
// linear, anisotropy max 2:1 (aniso filter field 2), magnified 2.5x over the whole frame. A
// magnified footprint is point sampled; anisotropic filtering only walks a minified one.
TexelBuilder AnisoMagnifiedPoint() {
  TexelBuilder b(320, 240);
  b.scene.edge_inset = kEdgesOnPixelEdges;
  const TexelFilters filters{.mag = 0, .min = 1, .aniso = 2};
  b.Quad(b.Texture(128, 96, kClampToEdge, filters), 0, 0, 320, 240, 128, 96, 1, kClampToEdge, 1);
  return b;
}

}  // namespace

std::vector<Sample> TexelSamples() {
  std::vector<Sample> v;
  v.push_back(DescribedSample(
      "texel_boundaries_256_to_640",
      "640x480: a 256x192 k_8_8_8_8 texture point-sampled across the whole frame (2.5x "
      "magnification), quad edges on pixel edges: every fifth pixel centre column and row lies "
      "exactly on a texel boundary",
      "the texture's pattern (R from x, G from y) in blocks of 2 and 3 pixels alternating; a pixel "
      "centre on a texel boundary shows the texel to its right (below). All pixels exact.",
      [](format::Writer& w) { AuthorTexturedScene(Magnified256To640().scene, w); },
      [] { return Magnified256To640().expected; }));
  v.push_back(DescribedSample(
      "texel_boundaries_1_to_2",
      "320x240: four k_8_8_8_8 textures point-sampled at 1:2 with every other pixel centre on a "
      "texel boundary: clamp, repeat and mirrored repeat across the wrap at u = 1, repeat with "
      "a -1 texel offset (negative coordinates)",
      "four 128x96 tiles of 2x2-pixel texel blocks over navy; each boundary pixel shows the texel "
      "to its right (below): upper right wraps to texel 0 at its middle, lower left mirrors back "
      "to texel 31, lower right starts with the last texel. All pixels exact.",
      [](format::Writer& w) { AuthorTexturedScene(Magnified1To2().scene, w); },
      [] { return Magnified1To2().expected; }));
  v.push_back(DescribedSample(
      "texel_aniso_magnified_point",
      "320x240: a 128x96 texture whose fetch constant says magnification point, minification "
      "linear, anisotropy 2:1, magnified 2.5x over the whole frame",
      "the texture point sampled (blocks of 2 and 3 pixels, no blending between texels); "
      "anisotropic filtering never filters a magnified footprint. All pixels exact.",
      [](format::Writer& w) { AuthorTexturedScene(AnisoMagnifiedPoint().scene, w); },
      [] { return AnisoMagnifiedPoint().expected; }));
  return v;
}

}  // namespace xnt::samples
