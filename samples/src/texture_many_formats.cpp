// textures_many_formats: one frame of textured quads, each point-sampling a different guest
// texture format / layout 1:1 (texture_scene.h), with the expected front buffer decoded on the CPU
// from the same raw texels. Texel bits come from a fixed-seed generator; the CPU decoder here
// follows the same Xenos conventions as the GPU loader (renderer/vulkan/src/texture_load.cpp,
// after Xenia texture_info_formats.inc / texture_load_*.xesl): X is the lowest bits, missing
// components replicate the last present one, DXT endpoints widen by bit replication and
// interpolate in 8-bit integers.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>

#include "sample_entry.h"
#include "texture_scene.h"
#include "xnt/base/error.h"
#include "xnt/xenos/enums.h"

namespace xnt::samples {

namespace {

// 32x32-tiled block offset (Xenia src/xenia/gpu/texture_address.h Tiled2D, as
// renderer/gpu/src/texture_address.cpp; samples cannot link the renderer).
uint32_t TiledOffset(uint32_t x, uint32_t y, uint32_t pitch_blocks, uint32_t bpb_log2) {
  uint32_t pitch_tiles = (pitch_blocks + 31) >> 5;
  uint32_t outer = ((y >> 5) * pitch_tiles + (x >> 5)) << 6;
  uint32_t inner = (((y >> 1) & 7) << 3) | (x & 7);
  uint32_t oi = (outer | inner) << bpb_log2;
  uint32_t bank = (y >> 4) & 1;
  uint32_t pipe = ((x >> 3) & 3) ^ (((y >> 3) & 1) << 1);
  return (oi & 0xF) | ((y & 1) << 4) | (((oi >> 4) & 1) << 5) | (pipe << 6) |
         (((oi >> 5) & 7) << 8) | (bank << 11) | ((oi >> 8) << 12);
}

uint32_t Swap(uint32_t v, xenos::Endian e) {
  if (e == xenos::Endian::k8in16 || e == xenos::Endian::k8in32) {
    v = ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu);
  }
  if (e == xenos::Endian::k8in32 || e == xenos::Endian::k16in32) v = (v << 16) | (v >> 16);
  return v;
}

struct Rng {
  uint64_t s;
  uint32_t Next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(s >> 32);
  }
};

struct FormatSpec {
  uint32_t format;
  uint32_t block;      // texels per block side (1 or 4)
  uint32_t bpb_log2;   // bytes per block
};

uint32_t Bits(uint32_t v, uint32_t o, uint32_t n) { return (v >> o) & ((1u << n) - 1); }
double U(uint32_t v, uint32_t bits) { return double(v) / double((1u << bits) - 1); }
double Half(uint32_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 31, man = h & 1023;
  double v = exp == 0 ? std::ldexp(double(man), -24) : std::ldexp(double(man | 1024), int(exp) - 25);
  return sign ? -v : v;
}
double Float(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return double(f);
}

std::array<uint32_t, 3> Rgb565(uint32_t c) {
  uint32_t r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
  return {(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)};
}
std::array<uint32_t, 3> DxtColor(uint32_t w0, uint32_t w1, uint32_t i, bool four) {
  uint32_t c0 = w0 & 0xFFFF, c1 = w0 >> 16;
  auto e0 = Rgb565(c0), e1 = Rgb565(c1);
  uint32_t index = (w1 >> (2 * i)) & 3;
  std::array<uint32_t, 3> out{};
  for (int k = 0; k < 3; ++k) {
    uint32_t a = e0[k], b = e1[k];
    if (index == 0) out[k] = a;
    else if (index == 1) out[k] = b;
    else if (four || c0 > c1) out[k] = index == 2 ? (2 * a + b) / 3 : (a + 2 * b) / 3;
    else out[k] = index == 2 ? (a + b) / 2 : 0;
  }
  return out;
}
uint32_t Dxt5Alpha(uint32_t w0, uint32_t w1, uint32_t i) {
  uint64_t bits = uint64_t(w0) | (uint64_t(w1) << 32);
  uint32_t a0 = w0 & 0xFF, a1 = (w0 >> 8) & 0xFF;
  uint32_t index = uint32_t(bits >> (16 + 3 * i)) & 7;
  if (index == 0) return a0;
  if (index == 1) return a1;
  if (a0 > a1) return ((8 - index) * a0 + (index - 1) * a1) / 7;
  if (index == 6) return 0;
  if (index == 7) return 255;
  return ((6 - index) * a0 + (index - 1) * a1) / 5;
}

// X, Y, Z of texel `ti` (index in a 4x4 block) of a block whose dwords are `w` (after the endian
// swap); `t` holds a sub-dword texel's bits.
std::array<double, 3> Decode(uint32_t f, const uint32_t* w, uint32_t t, uint32_t ti) {
  switch (f) {
    case 2: return {U(t & 0xFF, 8), U(t & 0xFF, 8), U(t & 0xFF, 8)};
    case 3: return {U(Bits(t, 0, 5), 5), U(Bits(t, 5, 5), 5), U(Bits(t, 10, 5), 5)};
    case 4: return {U(Bits(t, 0, 5), 5), U(Bits(t, 5, 6), 6), U(Bits(t, 11, 5), 5)};
    case 5: return {U(Bits(t, 0, 5), 5), U(Bits(t, 5, 5), 5), U(Bits(t, 10, 6), 6)};
    case 6: return {U(Bits(t, 0, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 16, 8), 8)};
    case 7: return {U(Bits(t, 0, 10), 10), U(Bits(t, 10, 10), 10), U(Bits(t, 20, 10), 10)};
    case 10: return {U(Bits(t, 0, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 8, 8), 8)};
    case 15: return {U(Bits(t, 0, 4), 4), U(Bits(t, 4, 4), 4), U(Bits(t, 8, 4), 4)};
    case 16: return {U(Bits(t, 0, 11), 11), U(Bits(t, 11, 11), 11), U(Bits(t, 22, 10), 10)};
    case 17: return {U(Bits(t, 0, 10), 10), U(Bits(t, 10, 11), 11), U(Bits(t, 21, 11), 11)};
    case 24: return {U(t & 0xFFFF, 16), U(t & 0xFFFF, 16), U(t & 0xFFFF, 16)};
    case 25: return {U(t & 0xFFFF, 16), U(t >> 16, 16), U(t >> 16, 16)};
    case 26: return {U(w[0] & 0xFFFF, 16), U(w[0] >> 16, 16), U(w[1] & 0xFFFF, 16)};
    case 31: return {Half(t & 0xFFFF), Half(t >> 16), Half(t >> 16)};
    case 32: return {Half(w[0] & 0xFFFF), Half(w[0] >> 16), Half(w[1] & 0xFFFF)};
    case 36: return {Float(w[0]), Float(w[0]), Float(w[0])};
    case 38: return {Float(w[0]), Float(w[1]), Float(w[2])};
    case 18: {
      auto c = DxtColor(w[0], w[1], ti, false);
      return {c[0] / 255.0, c[1] / 255.0, c[2] / 255.0};
    }
    case 19: case 20: {
      auto c = DxtColor(w[2], w[3], ti, true);
      return {c[0] / 255.0, c[1] / 255.0, c[2] / 255.0};
    }
    case 49: {
      double y = Dxt5Alpha(w[2], w[3], ti) / 255.0;
      return {Dxt5Alpha(w[0], w[1], ti) / 255.0, y, y};
    }
    default: throw Error("textures_many_formats: no CPU decoder for format " + std::to_string(f));
  }
}

// Random block dwords; float formats get values in [-0.25, 1.25] (halves: |v| < 2).
uint32_t RandomWord(Rng& rng, uint32_t f) {
  uint32_t v = rng.Next();
  if (f == 31 || f == 32) {
    for (int h = 0; h < 2; ++h) v &= ~(1u << (14 + 16 * h));  // exponent <= 15
  } else if (f == 36 || f == 38) {
    // Random mantissas: no value lands on a rounding tie of the 8-bit target (k/1000 would).
    float x = float(double(rng.Next()) / 4294967296.0 * 1.5 - 0.25);
    std::memcpy(&v, &x, 4);
  }
  return v;
}

uint8_t Quantize(double v) {
  if (!(v > 0)) return 0;
  if (v >= 1) return 255;
  return uint8_t(std::lround(v * 255.0));
}

struct Builder {
  TexturedScene scene;
  Image expected;
  std::map<uint32_t, std::vector<uint8_t>> pages;
  uint32_t next = kTexturedFirstTextureAddress;
  Rng rng{0x5EED};

  void Write(uint32_t address, uint8_t b) {
    auto& p = pages[address >> 12];
    if (p.empty()) p.resize(4096);
    p[address & 4095] = b;
  }

  // A tiled (or linear) texture of `layers` slices; returns its fetch constant and fills
  // `texels` with the decoded X, Y, Z per texel.
  std::array<uint32_t, 6> Texture(const FormatSpec& s, uint32_t width, uint32_t height,
                                  uint32_t pitch, uint32_t layers, uint32_t dimension, bool tiled,
                                  std::vector<std::array<double, 3>>& texels) {
    const xenos::Endian endian = s.bpb_log2 == 0   ? xenos::Endian::kNone
                                 : s.bpb_log2 == 1 ? xenos::Endian::k8in16
                                                   : xenos::Endian::k8in32;
    const uint32_t block_bytes = 1u << s.bpb_log2;
    uint32_t pitch_blocks = (pitch + s.block - 1) / s.block;
    uint32_t height_blocks = (height + s.block - 1) / s.block;
    if (tiled) {
      pitch_blocks = (pitch_blocks + 31) & ~31u;
      height_blocks = (height_blocks + 31) & ~31u;
    }
    // Linear rows are 256-byte-aligned; tiled rows are the tile-aligned pitch.
    const uint32_t row_bytes =
        tiled ? pitch_blocks << s.bpb_log2 : ((pitch_blocks << s.bpb_log2) + 255) & ~255u;
    // Slices are whole surfaces with rows aligned to 32 blocks, rounded to 4 KiB (Xenia
    // texture_util.cc GetGuestTextureLayout).
    const uint32_t slice = (row_bytes * ((height_blocks + 31) & ~31u) + 4095) & ~4095u;
    const uint32_t base = next;
    next += (slice * layers + 0xFFFF) & ~0xFFFFu;
    texels.assign(size_t(width) * height * layers, {});
    for (uint32_t z = 0; z < layers; ++z) {
      for (uint32_t by = 0; by < (height + s.block - 1) / s.block; ++by) {
        for (uint32_t bx = 0; bx < (width + s.block - 1) / s.block; ++bx) {
          uint32_t offset = tiled ? TiledOffset(bx, by, pitch_blocks, s.bpb_log2)
                                  : by * row_bytes + (bx << s.bpb_log2);
          uint32_t address = base + z * slice + offset;
          uint32_t w[4] = {};
          if (block_bytes >= 4) {
            for (uint32_t i = 0; i < block_bytes / 4; ++i) {
              w[i] = RandomWord(rng, s.format);
              uint32_t stored = Swap(w[i], endian);
              for (uint32_t b = 0; b < 4; ++b) Write(address + 4 * i + b, uint8_t(stored >> (8 * b)));
            }
          } else {
            uint32_t mask = block_bytes == 1 ? 0xFFu : 0xFFFFu;
            w[0] = RandomWord(rng, s.format) & mask;
            uint32_t shift = 8 * (address & 3);
            uint32_t stored = Swap(w[0] << shift, endian), lanes = Swap(mask << shift, endian);
            for (uint32_t b = 0; b < 4; ++b) {
              if ((lanes >> (8 * b)) & 0xFF) Write((address & ~3u) + b, uint8_t(stored >> (8 * b)));
            }
          }
          for (uint32_t ty = 0; ty < s.block; ++ty) {
            for (uint32_t tx = 0; tx < s.block; ++tx) {
              uint32_t x = bx * s.block + tx, y = by * s.block + ty;
              if (x >= width || y >= height) continue;
              texels[(size_t(z) * height + y) * width + x] = Decode(s.format, w, w[0], ty * 4 + tx);
            }
          }
        }
      }
    }
    std::array<uint32_t, 6> d{};
    d[0] = 2u | ((pitch >> 5) << 22) | (tiled ? 1u << 31 : 0u);
    d[1] = s.format | (uint32_t(endian) << 6) | ((base >> 12) << 12);
    d[2] = (width - 1) | ((height - 1) << 13) | ((layers - 1) << 26);
    d[3] = (0u | (1u << 3) | (2u << 6) | (3u << 9)) << 1;  // identity swizzle, point filters
    d[5] = dimension << 9;
    return d;
  }

  void Quad(const std::array<uint32_t, 6>& fetch, const std::vector<std::array<double, 3>>& texels,
            uint32_t x, uint32_t y, uint32_t width, uint32_t height, TexturedQuadFetch op,
            uint32_t layer, uint32_t layers) {
    TexturedQuad q;
    q.x = x;
    q.y = y;
    q.width = width;
    q.height = height;
    q.fetch = fetch;
    q.op = op;
    q.z = op == TexturedQuadFetch::kCube ? float(layer) : (float(layer) + 0.5f) / float(layers);
    scene.quads.push_back(q);
    for (uint32_t j = 0; j < height; ++j) {
      for (uint32_t i = 0; i < width; ++i) {
        const auto& t = texels[(size_t(layer) * height + j) * width + i];
        uint8_t* px = &expected.rgba[(size_t(y + j) * expected.width + x + i) * 4];
        for (int c = 0; c < 3; ++c) px[c] = Quantize(t[c]);
        px[3] = 255;
      }
    }
  }
};

Builder BuildManyFormats() {
  Builder b;
  b.scene.width = 320;
  b.scene.height = 176;
  b.scene.clear_rgba = {0x18, 0x18, 0x28, 0xFF};
  // Texel boundaries off host pixel centres at every resolution scale (texture_scene.h).
  b.scene.edge_inset = 0.375f;
  b.expected.width = b.scene.width;
  b.expected.height = b.scene.height;
  b.expected.rgba.resize(size_t(b.scene.width) * b.scene.height * 4);
  for (size_t i = 0; i < b.expected.rgba.size(); i += 4) {
    std::copy(b.scene.clear_rgba.begin(), b.scene.clear_rgba.end(), b.expected.rgba.begin() + i);
  }
  const FormatSpec formats[] = {
      {2, 1, 0},  {3, 1, 1},  {4, 1, 1},  {5, 1, 1},  {6, 1, 2},  {7, 1, 2},  {10, 1, 1},
      {15, 1, 1}, {16, 1, 2}, {17, 1, 2}, {24, 1, 1}, {25, 1, 2}, {26, 1, 3}, {31, 1, 2},
      {32, 1, 3}, {36, 1, 2}, {38, 1, 4}, {18, 4, 3}, {19, 4, 4}, {20, 4, 4}, {49, 4, 4}};
  std::vector<std::array<double, 3>> texels;
  uint32_t n = 0;
  for (const FormatSpec& s : formats) {
    // 32x24 textures, 8 per row; every fourth one linear instead of tiled.
    auto fetch = b.Texture(s, 32, 24, 32, 1, 1, n % 4 != 3, texels);
    b.Quad(fetch, texels, 4 + (n % 8) * 39, 4 + (n / 8) * 28, 32, 24, TexturedQuadFetch::k2D, 0, 1);
    ++n;
  }
  // 72x40 DXT1 inside a 96-texel-pitch tiled allocation.
  auto dxt = b.Texture({18, 4, 3}, 72, 40, 96, 1, 1, true, texels);
  b.Quad(dxt, texels, 4, 90, 72, 40, TexturedQuadFetch::k2D, 0, 1);
  // A 3-slice stacked k_8_8_8_8 texture through tfetch3D, one quad per slice.
  auto stack = b.Texture({6, 1, 2}, 24, 24, 32, 3, 1, true, texels);
  for (uint32_t z = 0; z < 3; ++z) b.Quad(stack, texels, 82 + z * 28, 90, 24, 24, TexturedQuadFetch::k3D, z, 3);
  // A 16x16 k_5_6_5 cube map through tfetchCube, one quad per face.
  auto cube = b.Texture({4, 1, 1}, 16, 16, 32, 6, 3, true, texels);
  for (uint32_t f = 0; f < 6; ++f) b.Quad(cube, texels, 82 + f * 20, 120, 16, 16, TexturedQuadFetch::kCube, f, 6);
  for (auto& [page, bytes] : b.pages) b.scene.memory.push_back({page << 12, bytes});
  return b;
}

}  // namespace

std::vector<Sample> TextureSamples() {
  return {DescribedSample(
      "textures_many_formats",
      "320x176: 21 texture formats (8/16/32-bit unorm, packed, half/float, DXT1/2_3/4_5, DXN) "
      "point-sampled 1:1, tiled and linear, a 72x40 DXT1 in a 96 pitch, a 3-slice stack, a cube",
      "a grid of 32x24 noise tiles (one per format) over navy, a 72x40 block-compressed tile, "
      "three stacked slices and six cube faces; every pixel is its texel's RGB",
      [](format::Writer& w) { AuthorTexturedScene(BuildManyFormats().scene, w); },
      [] { return BuildManyFormats().expected; })};
}

}  // namespace xnt::samples
