// texfetch_aniso_lod: which mip level an anisotropic footprint reads, for each of the fetch
// constant's anisotropy limits (aniso_filter 0..5: off, 1:1, 2:1, 4:1, 8:1, 16:1).
//
// A texture filtered anisotropically is not read at the level of its larger screen footprint
// but at that footprint divided by the number of taps along it: with rho_max and rho_min the
// texels per pixel along the two axes and N the limit, the taps are eta = min(rho_max / rho_min,
// N) and the level lambda = log2(rho_max / eta) (Vulkan's specification, "Texel Anisotropic
// Filtering"; Direct3D states the same rule; Xenia hands the fetch constant's limit to the host
// sampler as the maximum anisotropy, so the Xenos texture unit is taken to follow it too). Every
// mip level of the texture is one colour, so the picture is exactly the level each quad reads,
// independent of where the taps fall and how many there are.
//
// The quads map 8 (or 4) texels to a pixel along one axis and 1 (or 2) along the other, an
// affine mapping whose derivatives are the same in every quad of pixels:
//   rho 8 x 1 (ratio 8):  off, 1:1 -> log2 8 = 3; 2:1 -> 2; 4:1 -> 1; 8:1 and 16:1 -> 0;
//   rho 8 x 2 (ratio 4):  off, 1:1 -> 3; 2:1 -> 2; 4:1, 8:1, 16:1 -> log2(8 / 4) = 1.
// The ratio is taken along u in the first row and along v in the second (the rule does not
// depend on which axis is the major one). Nearest-mip selection of an integral lambda: the level
// itself. Minification linear and magnification point, as a real driver's default fetch constant.
//
// Memory layout (texture_descriptor.cpp, after Xenia texture_util GetGuestTextureLayout): a
// linear 32x32 k_8_8_8_8 base with 256-byte rows (32 rows, 8 KiB); without packed mips each mip
// level's storage is 32 rows of 256 bytes, 8 KiB, one after the other from the mip address.
#include <algorithm>
#include <string>

#include "sample_entry.h"
#include "texture_scene.h"
#include "xnt/capture/pm4_builder.h"

namespace xnt::samples {

namespace {

using Rgba = std::array<uint8_t, 4>;

constexpr uint32_t kBase = kTexturedFirstTextureAddress;
constexpr uint32_t kMips = kTexturedFirstTextureAddress + 0x10000;
constexpr uint32_t kSize = 32, kLevels = 6;  // 32, 16, 8, 4, 2, 1 texels
constexpr uint32_t kLevelBytes = 0x2000;

// One colour per level (bytes R, G, B, A in memory: no endian swap).
constexpr Rgba kLevelColor[kLevels] = {{0xE0, 0x30, 0x30, 0xFF}, {0x30, 0xC8, 0x40, 0xFF},
                                       {0x40, 0x60, 0xF0, 0xFF}, {0xF0, 0xD0, 0x20, 0xFF},
                                       {0xC0, 0x40, 0xE0, 0xFF}, {0x20, 0xD0, 0xD0, 0xFF}};

constexpr uint32_t kQuad = 16, kGap = 4;  // pixels
constexpr uint32_t kAnisoLimits[] = {0, 1, 2, 3, 4, 5};  // xenos::AnisoFilter off .. 16:1

// The level of a footprint of rho_max x rho_min texels per pixel (powers of two) under an
// aniso_filter field: log2(rho_max / eta), eta = min(rho_max / rho_min, limit).
uint32_t Level(uint32_t rho_max, uint32_t rho_min, uint32_t aniso) {
  const uint32_t limit = aniso == 0 ? 1 : 1u << (aniso - 1);
  const uint32_t eta = std::min(rho_max / rho_min, limit);
  uint32_t level = 0;
  for (uint32_t rho = rho_max / eta; rho > 1; rho >>= 1) ++level;
  return level;
}

std::array<uint32_t, 6> Fetch(uint32_t aniso) {
  std::array<uint32_t, 6> d = capture::TextureFetch2D(kBase, kSize, kSize,
                                                      xenos::TextureFormat::k_8_8_8_8, false,
                                                      xenos::Endian::kNone);
  d[0] &= ~(0x1FFu << 10);  // clamp x, y, z: wrap (the coordinates run over several repeats)
  // Xenia xenos.h xe_gpu_texture_fetch_t dword 3: mag filter 19..20 point, min 21..22 linear,
  // mip 23..24 point, aniso_filter 25..27; dword 4: highest mip level 6..9; dword 5: mip address.
  d[3] = (d[3] & ~(0x1FFu << 19)) | (1u << 21) | (aniso << 25);
  d[4] = (kLevels - 1) << 6;
  d[5] = (d[5] & 0xFFFu) | kMips;
  return d;
}

struct AnisoScene {
  TexturedScene scene;
  Image expected;
};

AnisoScene Build() {
  AnisoScene a;
  TexturedScene& s = a.scene;
  s.width = 128;  // 6 quads and their gaps (124 pixels) in a width the resolve copies whole
  static_assert(kGap + 6 * (kQuad + kGap) <= 128);
  s.height = 88;
  static_assert(kGap + 4 * (kQuad + kGap) <= 88);
  s.clear_rgba = {0x10, 0x10, 0x30, 0xFF};
  std::vector<uint8_t> base(kLevelBytes);
  for (size_t i = 0; i < base.size(); i += 4) std::copy_n(kLevelColor[0].begin(), 4, &base[i]);
  s.memory.push_back({kBase, std::move(base)});
  std::vector<uint8_t> mips((kLevels - 1) * kLevelBytes);
  for (uint32_t l = 1; l < kLevels; ++l) {
    for (uint32_t i = 0; i < kLevelBytes; i += 4) {
      std::copy_n(kLevelColor[l].begin(), 4, &mips[(l - 1) * kLevelBytes + i]);
    }
  }
  s.memory.push_back({kMips, std::move(mips)});

  a.expected.width = s.width;
  a.expected.height = s.height;
  a.expected.rgba.resize(size_t(s.width) * s.height * 4);
  for (size_t i = 0; i < a.expected.rgba.size(); i += 4) {
    std::copy_n(s.clear_rgba.begin(), 4, &a.expected.rgba[i]);
  }
  // Rows: (major texels per pixel along u, along v): 8 x 1 and 1 x 8 (ratio 8), 8 x 2 and
  // 2 x 8 (ratio 4). A quad of 16 pixels spans 16 x rho texels: texture_width (the size the
  // coordinates are normalised by) = 16 x 32 / (16 x rho) = 32 / rho pixels.
  struct Row {
    uint32_t rho_u, rho_v;
  };
  const Row rows[] = {{8, 1}, {1, 8}, {8, 2}, {2, 8}};
  for (uint32_t r = 0; r < 4; ++r) {
    const uint32_t rho_max = std::max(rows[r].rho_u, rows[r].rho_v);
    const uint32_t rho_min = std::min(rows[r].rho_u, rows[r].rho_v);
    for (uint32_t c = 0; c < 6; ++c) {
      TexturedQuad q;
      q.x = kGap + c * (kQuad + kGap);
      q.y = kGap + r * (kQuad + kGap);
      q.width = q.height = kQuad;
      q.fetch = Fetch(kAnisoLimits[c]);
      q.texture_width = kSize / rows[r].rho_u;
      q.texture_height = kSize / rows[r].rho_v;
      s.quads.push_back(q);
      const Rgba& colour = kLevelColor[Level(rho_max, rho_min, kAnisoLimits[c])];
      for (uint32_t y = q.y; y < q.y + kQuad; ++y) {
        for (uint32_t x = q.x; x < q.x + kQuad; ++x) {
          std::copy_n(colour.begin(), 4, &a.expected.rgba[(size_t(y) * s.width + x) * 4]);
        }
      }
    }
  }
  return a;
}

}  // namespace

std::vector<Sample> TexFetchAnisoSamples() {
  Sample sample = DescribedSample(
      "texfetch_aniso_lod",
      "128x88: 24 quads sampling a 6-level mip chain (one colour per level) with footprints of "
      "8x1, 1x8, 8x2 and 2x8 texels per pixel (rows), under aniso_filter off, 1:1, 2:1, 4:1, "
      "8:1 and 16:1 (columns); nearest mip, linear minification",
      "each quad in the colour of level log2(8 / min(ratio, limit)): ratio-8 rows levels 3, 3, "
      "2, 1, 0, 0 (yellow, yellow, blue, green, red, red); ratio-4 rows 3, 3, 2, 1, 1, 1. Every "
      "pixel exact.",
      [](format::Writer& w) { AuthorTexturedScene(Build().scene, w); },
      [] { return Build().expected; });
  // The fbo and fsi paths hand anisotropic minification to the host sampler, whose level choice
  // Vulkan leaves to the implementation ("may be approximated"). Measured: lavapipe (Mesa 25
  // llvmpipe) reads level 2 instead of 1 in the two quads whose ratio 8 exceeds the 4:1 limit
  // (512 pixels); every other quad, the clamped 2:1 ones included, agrees.
  const char* why =
      "the host sampler chooses the anisotropic level itself, an implementation-defined choice: "
      "lavapipe reads level 2 where the ratio (8) exceeds the 4:1 limit, the rule says level 1";
  sample.differs_on["fbo"] = why;
  sample.differs_on["fsi"] = why;
  return {sample};
}

}  // namespace xnt::samples
