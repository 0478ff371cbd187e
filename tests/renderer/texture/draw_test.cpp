// Textures through replayed draws: a CPU encoder writes known (random) texels into guest memory,
// a trace authored with the PM4 builder draws quads that point-sample each texel 1:1 into a
// k_8_8_8_8 render target, resolves it to a tiled front buffer and swaps; the replay (TracePlayer
// + FboBackend on lavapipe with validation) must give, for every pixel, the 8-bit value of
// the CPU decoder's texel: round(clamp(v, 0, 1) * 255). The swap forces alpha to 255, so each
// texture is drawn twice: once with the identity swizzle (RGB = XYZ) and once with the fetch
// constant swizzle W, Z, Y, 1 (R = W).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "../replay_helpers.h"
#include "listing_head.h"
#include "texture_reference.h"
#include "texture_scene.h"
#include "xnt/base/byte_order.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/format/reader.h"
#include "xnt/ucode/assembler.h"
#include "xnt/samples/samples.h"
#include "xnt/xenos/enums.h"
#include "test_files.h"

namespace xnt::vk {
namespace {

using namespace texref;
using samples::TexturedQuad;
using samples::TexturedQuadFetch;
using samples::TexturedScene;

// Fetch constant dword 3 swizzles (3 bits per component, 0..3 = x..w, 4 = 0, 5 = 1).
constexpr uint32_t Swizzle(uint32_t x, uint32_t y, uint32_t z, uint32_t w) {
  return (x | (y << 3) | (z << 6) | (w << 9)) << 1;
}
constexpr uint32_t kIdentity = Swizzle(0, 1, 2, 3);
constexpr uint32_t kWzy1 = Swizzle(3, 2, 1, 5);

uint8_t Quantize(double v) {
  if (!(v > 0)) return 0;  // negatives and NaN
  if (v >= 1) return 255;
  return uint8_t(std::lround(v * 255.0));
}

// Xenos PWL gamma -> linear, in the same steps as glsl_prelude.cpp's xe_pwl_gamma_to_linear
// (times the float nearest 1/1023, as the texture unit model does).
double PwlToLinear(double g) {
  float x = std::clamp(float(g), 0.0f, 1.0f);
  float scale, offset;
  if (x < 64.0f / 255.0f) { scale = 1.0f / 1024.0f; offset = 0.0f; }
  else if (x < 96.0f / 255.0f) { scale = 2.0f / 1024.0f; offset = -64.0f; }
  else if (x < 192.0f / 255.0f) { scale = 4.0f / 1024.0f; offset = -256.0f; }
  else { scale = 8.0f / 1024.0f; offset = -1024.0f; }
  float t = x * (255.0f * 1024.0f) * scale + offset;
  return double((t + std::trunc(t * scale)) * (1.0f / 1023.0f));
}

class TextureDrawTest : public ::testing::Test {
 protected:
  // One texture (2D/stacked/cube) encoded in the fake guest, with its expected texels.
  struct Placed {
    std::array<uint32_t, 6> fetch;
    Layout layout;
    std::vector<Texel> texels;
  };

  Placed Add(uint32_t format, uint32_t endian, const Layout& l, uint32_t seed) {
    Placed p{Fetch(next_address_, format, endian, l), l,
             Encode(guest_, next_address_, format, endian, l, seed, 1.0f)};
    TextureDescriptor d = TextureDescriptor::FromFetchConstant(p.fetch.data());
    next_address_ += uint32_t((d.ByteSize() + 0xFFFF) & ~uint64_t(0xFFFF));
    return p;
  }

  // Draws layer/face `layer` of `p` at (x, y), with `swizzle` and optional sign / exp_adjust
  // fields; records the expected pixels.
  void Quad(const Placed& p, uint32_t x, uint32_t y, uint32_t swizzle, uint32_t layer = 0,
            uint32_t signs = 0, int32_t exp_adjust = 0, int32_t level = -1) {
    TexturedQuad q;
    q.x = x;
    q.y = y;
    const uint32_t l = level < 0 ? 0 : uint32_t(level);
    q.width = std::max(p.layout.width >> l, 1u);
    q.height = std::max(p.layout.height >> l, 1u);
    const bool row = p.layout.dimension == 0;  // 1D: every pixel row shows the texel row
    if (row) q.height = 4;
    size_t level_start = 0;
    for (uint32_t i = 0; i < l; ++i) {
      level_start += size_t(std::max(p.layout.width >> i, 1u)) *
                     std::max(p.layout.height >> i, 1u) * p.layout.layers;
    }
    q.fetch = p.fetch;
    q.fetch[0] |= signs << 2;
    q.fetch[3] = swizzle | (uint32_t(exp_adjust & 63) << 13);  // point filters, no bias
    if (row) {
      q.op = TexturedQuadFetch::k1D;
    } else if (level >= 0) {
      q.op = TexturedQuadFetch::k2DLod;  // setTexLOD + tfetch2D UseRegisterLOD (textureLod)
      q.z = float(level);
    } else if (p.layout.dimension == 3) {
      q.op = TexturedQuadFetch::kCube;
      q.z = float(layer);
    } else if (p.layout.layers > 1 || p.layout.dimension == 2) {
      q.op = TexturedQuadFetch::k3D;
      q.z = (float(layer) + 0.5f) / float(p.layout.layers);
    }
    scene_.quads.push_back(q);
    for (uint32_t j = 0; j < q.height; ++j) {
      for (uint32_t i = 0; i < q.width; ++i) {
        const Texel& t = row ? p.texels[i]
                             : p.texels[level_start + (size_t(layer) * q.height + j) * q.width + i];
        double v[4];
        for (uint32_t c = 0; c < 4; ++c) {
          double value = t[c].value;
          uint32_t sign = (signs >> (2 * c)) & 3;
          if (sign == 1) {
            // Signed: the field as two's complement (texture_load.cpp).
            uint32_t bits = 0;
            while ((1u << bits) - 1 < t[c].max) ++bits;
            int32_t r = int32_t(std::lround(value * t[c].max));
            int32_t s = r >= int32_t(1u << (bits - 1)) ? r - int32_t(1u << bits) : r;
            value = std::max(double(float(s) / float((1u << (bits - 1)) - 1)), -1.0);
          } else if (sign == 2) {
            value = double(float(value) * 2.0f - 1.0f);
          } else if (sign == 3) {
            value = PwlToLinear(value);
          }
          v[c] = value * std::ldexp(1.0, exp_adjust);
        }
        uint8_t* px = &expected_[(size_t(y + j) * scene_.width + x + i) * 4];
        for (uint32_t c = 0; c < 3; ++c) {
          uint32_t s = (swizzle >> (1 + 3 * c)) & 7;
          px[c] = s < 4 ? Quantize(v[s]) : s == 5 ? 255 : 0;
        }
        px[3] = 255;
      }
    }
  }

  void Begin(uint32_t width, uint32_t height) {
    scene_ = {};
    scene_.width = width;
    scene_.height = height;
    scene_.clear_rgba = {0x20, 0x40, 0x60, 0xFF};
    expected_.assign(size_t(width) * height * 4, 0);
    for (size_t i = 0; i < expected_.size(); i += 4) {
      std::copy(scene_.clear_rgba.begin(), scene_.clear_rgba.end(), expected_.begin() + i);
    }
  }

  // Replays the scene; returns the number of differing pixels (reporting the first few).
  test::ReplayResult Replay(uint64_t* differing) {
    for (const auto& [page, bytes] : guest_.pages) scene_.memory.push_back({page << 12, bytes});
    samples::Sample sample;
    sample.name = "texture_draw_test";
    TexturedScene scene = scene_;
    sample.author = [scene](format::Writer& w) { samples::AuthorTexturedScene(scene, w); };
    auto path = ::xnt::test::TestWorkDir("renderer") / ("texture_draw_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".xnt");
    std::filesystem::create_directories(path.parent_path());
    samples::WriteSample(sample, path.string());
    auto reader = format::Reader::Open(path.string());
    auto result = test::ReplayRecords([&](const std::function<void(const format::Record&)>& apply) {
      reader->ForEachRecord([&](const format::Record& r) {
        apply(r);
        return true;
      });
    });
    std::filesystem::remove(path);
    *differing = 0;
    if (result.last_image.width != scene_.width || result.last_image.height != scene_.height) {
      ADD_FAILURE() << "no frame of the scene's size";
      *differing = UINT64_MAX;
      return result;
    }
    for (size_t i = 0; i < expected_.size() / 4; ++i) {
      if (std::memcmp(&result.last_image.rgba[i * 4], &expected_[i * 4], 3) != 0) {
        if ((*differing)++ < 5) {
          const uint8_t* g = &result.last_image.rgba[i * 4];
          const uint8_t* e = &expected_[i * 4];
          ADD_FAILURE() << "pixel (" << i % scene_.width << ", " << i / scene_.width << "): got "
                        << int(g[0]) << " " << int(g[1]) << " " << int(g[2]) << ", want "
                        << int(e[0]) << " " << int(e[1]) << " " << int(e[2]);
        }
      }
    }
    return result;
  }

  FakeGuest guest_;
  uint32_t next_address_ = samples::kTexturedFirstTextureAddress;
  TexturedScene scene_;
  std::vector<uint8_t> expected_;
};

const uint32_t kDrawFormats[] = {2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 14, 15, 16, 17,
                                 18, 19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 36,
                                 37, 38, 49, 50, 51, 52, 53, 54, 55, 56, 58, 59, 60, 61};

TEST_F(TextureDrawTest, EveryFormatPointSampledThroughADraw) {
  // 8 formats per row, each as two 16x16 quads (XYZ and WZY1) in a 40x20 cell.
  Begin(320, 120);
  uint32_t n = 0;
  for (uint32_t format : kDrawFormats) {
    Layout l{16, 16, 32, 1, n % 3 != 2};  // mostly tiled, every third linear
    Placed p = Add(format, n % 4, l, 500 + format);
    uint32_t x = (n % 8) * 40 + 2, y = (n / 8) * 20 + 2;
    Quad(p, x, y, kIdentity);
    Quad(p, x + 18, y, kWzy1);
    ++n;
  }
  uint64_t differing = 0;
  auto r = Replay(&differing);
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(r.validation_messages, 0u) << r.validation_report;
  EXPECT_EQ(r.stats.draws_skipped, 0u);
  for (const auto& [what, count] : r.notes) {
    EXPECT_EQ(what.find("texture fetch constant"), std::string::npos) << what;
  }
}

TEST_F(TextureDrawTest, NonAlignedStackedCubeSignsAndExpAdjust) {
  Begin(320, 160);
  // 72x40 inside a 96-texel-pitch tiled allocation.
  Placed a = Add(6, 2, Layout{72, 40, 96, 1, true}, 11);
  Quad(a, 2, 2, kIdentity);
  Quad(a, 78, 2, kWzy1);
  Placed dxt = Add(18, 1, Layout{72, 40, 96, 1, true}, 12);
  Quad(dxt, 154, 2, kIdentity);
  // A 3-layer stack, each layer through tfetch3D (z selects the layer).
  Placed stack = Add(6, 2, Layout{24, 20, 32, 3, true, 1}, 13);
  for (uint32_t layer = 0; layer < 3; ++layer) Quad(stack, 2 + layer * 26, 46, kIdentity, layer);
  // A 16x16 cube, every face through tfetchCube.
  Placed cube = Add(6, 2, Layout{16, 16, 32, 6, true, 3}, 14);
  for (uint32_t face = 0; face < 6; ++face) Quad(cube, 82 + face * 18, 46, kIdentity, face);
  // Signs: X signed, Y biased, Z gamma (8_8_8_8 and 16_16_16_16), then exp_adjust -1 and +1.
  Placed signs8 = Add(6, 2, Layout{16, 16, 32, 1, true}, 15);
  Quad(signs8, 2, 70, kIdentity, 0, 1 | (2 << 2) | (3 << 4));
  Placed signs16 = Add(26, 2, Layout{16, 16, 32, 1, true}, 16);
  Quad(signs16, 20, 70, kIdentity, 0, 1 | (2 << 2) | (3 << 4));
  Quad(signs16, 38, 70, kWzy1, 0, 1 << 6);  // W signed, shown in R
  // (exp -1 on random floats: halving unorm texels can land exactly on rounding ties.)
  Placed floats = Add(38, 2, Layout{16, 16, 32, 1, true}, 17);
  Quad(floats, 56, 70, kIdentity, 0, 0, -1);
  Quad(signs8, 74, 70, kIdentity, 0, 0, 1);
  Quad(floats, 92, 70, kWzy1, 0, 0, 2);
  uint64_t differing = 0;
  auto r = Replay(&differing);
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(r.validation_messages, 0u) << r.validation_report;
  EXPECT_EQ(r.stats.draws_skipped, 0u);
}

// A 32x32x4-tiled volume (depth 5, every slice through tfetch3D on a sampler3D), a one-slice
// volume, and 1D rows through tfetch1D.
TEST_F(TextureDrawTest, VolumeAndRowThroughDraws) {
  Begin(320, 60);
  Placed volume = Add(6, 2, Layout{16, 16, 32, 5, true, 2}, 31);
  for (uint32_t z = 0; z < 5; ++z) Quad(volume, 2 + z * 18, 2, kIdentity, z);
  Placed dxt_volume = Add(18, 1, Layout{24, 20, 32, 4, true, 2}, 32);
  for (uint32_t z = 0; z < 4; ++z) Quad(dxt_volume, 2 + z * 26, 22, kIdentity, z);
  // One slice is still a volume: 3D tiles and a 3D view (a 2D-array view on the 3D binding was
  // a validation error; Xenia texture_util.cc takes is_3d from the dimension alone).
  Placed one_slice = Add(6, 2, Layout{16, 16, 32, 1, true, 2}, 35);
  Quad(one_slice, 2, 42, kIdentity, 0);
  Placed row = Add(6, 2, Layout{100, 1, 128, 1, false, 0}, 33);
  Quad(row, 110, 2, kIdentity);
  Quad(row, 110, 8, kWzy1);
  Placed row16 = Add(26, 2, Layout{60, 1, 64, 1, false, 0}, 34);
  Quad(row16, 110, 14, kIdentity);
  uint64_t differing = 0;
  auto r = Replay(&differing);
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(r.validation_messages, 0u) << r.validation_report;
  EXPECT_EQ(r.stats.draws_skipped, 0u);
}

// A 64x64 mip chain whose levels 2..6 share a packed tail, every level drawn 1:1 with an explicit
// LOD; and a 40x24 DXT4_5 chain (packed from level 1) the same way.
TEST_F(TextureDrawTest, MipChainWithPackedTailThroughTextureLod) {
  Begin(320, 100);
  Layout l{64, 64, 64, 1, true};
  l.max_level = 6;
  l.packed_mips = true;
  l.mip_address = next_address_ + 0x100000;
  Placed chain = Add(6, 2, l, 21);
  next_address_ += 0x200000;
  uint32_t x = 2;
  for (int32_t level = 0; level <= 6; ++level) {
    Quad(chain, x, 2, kIdentity, 0, 0, 0, level);
    x += std::max(64u >> level, 1u) + 4;
  }
  Layout d{40, 24, 64, 1, true};
  d.max_level = 5;
  d.packed_mips = true;
  d.mip_address = next_address_ + 0x100000;
  Placed dxt = Add(20, 2, d, 22);
  x = 2;
  for (int32_t level = 0; level <= 5; ++level) {
    Quad(dxt, x, 70, kWzy1, 0, 0, 0, level);
    x += std::max(40u >> level, 1u) + 4;
  }
  uint64_t differing = 0;
  auto r = Replay(&differing);
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(r.validation_messages, 0u) << r.validation_report;
  EXPECT_EQ(r.stats.draws_skipped, 0u);
}

// Texture instructions beyond a plain fetch: unnormalised coordinates, fetch offsets (half-texel
// units, clamped to the edge), getWeights at a known position, and the instruction's LOD bias
// selecting mip level 1 of a chain at a 1:1 scale.
TEST_F(TextureDrawTest, UnnormalizedOffsetsWeightsAndInstructionLodBias) {
  Begin(160, 40);
  auto shader = [](const std::string& body) {
    return XNT_SAMPLE_PS_HEAD "    exec\n    " +
           body + "\n    alloc colors\n    exece\n    mov oC0, r1\n";
  };
  Placed a = Add(6, 2, Layout{16, 16, 32, 1, true}, 41);
  const uint32_t clamp_edge = (2u << 10) | (2u << 13);
  auto texel = [&](uint32_t i, uint32_t j) { return a.texels[size_t(j) * 16 + i]; };
  auto put = [&](uint32_t x, uint32_t y, const Texel& t) {
    uint8_t* px = &expected_[(size_t(y) * scene_.width + x) * 4];
    for (int c = 0; c < 3; ++c) px[c] = Quantize(t[c].value);
  };
  // Unnormalised: coordinates in texels.
  TexturedQuad q;
  q.x = 2;
  q.y = 2;
  q.width = q.height = 16;
  q.fetch = a.fetch;
  q.fetch[0] |= clamp_edge;
  q.fetch[3] = kIdentity;
  q.unnormalized = true;
  q.pixel_shader = shader("tfetch2D r1, r0.xy, tf0, UnnormalizedTextureCoords=true");
  scene_.quads.push_back(q);
  for (uint32_t j = 0; j < 16; ++j) for (uint32_t i = 0; i < 16; ++i) put(2 + i, 2 + j, texel(i, j));
  // Offsets +1, -1 texel (OffsetX/Y are stored in half texels).
  q.x = 22;
  q.unnormalized = false;
  q.pixel_shader = shader("tfetch2D r1, r0.xy, tf0, OffsetX=1, OffsetY=-1");
  scene_.quads.push_back(q);
  for (uint32_t j = 0; j < 16; ++j) {
    for (uint32_t i = 0; i < 16; ++i) put(22 + i, 2 + j, texel(std::min(i + 1, 15u), j == 0 ? 0 : j - 1));
  }
  // getWeights at texel position (5.3, 2.9): fract(5.3 - 0.5) = 0.8, fract(2.9 - 0.5) = 0.4.
  q.x = 42;
  q.fixed_coord = true;
  q.coord = {5.3f / 16.0f, 2.9f / 16.0f, 0.0f};
  q.pixel_shader = shader("getWeights2D r1, r0.xy, tf0");
  scene_.quads.push_back(q);
  Texel weights{};
  weights[0].value = 0.8f;
  weights[1].value = 0.4f;
  for (uint32_t j = 0; j < 16; ++j) for (uint32_t i = 0; i < 16; ++i) put(42 + i, 2 + j, weights);
  // LODBias=1 on a 32x32 chain drawn 1:1: level 1, texel (i / 2, j / 2).
  Layout l{32, 32, 32, 1, true};
  l.max_level = 1;
  l.mip_address = next_address_ + 0x100000;
  Placed chain = Add(6, 2, l, 42);
  next_address_ += 0x200000;
  q = TexturedQuad{};
  q.x = 62;
  q.y = 2;
  q.width = q.height = 32;
  q.fetch = chain.fetch;
  q.fetch[3] = kIdentity;
  q.pixel_shader = shader("tfetch2D r1, r0.xy, tf0, LODBias=1");
  scene_.quads.push_back(q);
  for (uint32_t j = 0; j < 32; ++j) {
    for (uint32_t i = 0; i < 32; ++i) put(62 + i, 2 + j, chain.texels[32 * 32 + (j / 2) * 16 + i / 2]);
  }
  uint64_t differing = 0;
  auto r = Replay(&differing);
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(r.validation_messages, 0u) << r.validation_report;
  EXPECT_EQ(r.stats.draws_skipped, 0u);
}

// A tfetch's MagFilter/MinFilter override the fetch constant's point filters: halfway between
// the two texels of a 2x1 float texture the linear fetch returns their average, the plain fetch
// (fetch constant: point) the second texel.
TEST_F(TextureDrawTest, InstructionFiltersOverrideTheFetchConstant) {
  Begin(64, 16);
  auto shader = [](const std::string& body) {
    return XNT_SAMPLE_PS_HEAD "    exec\n    " +
           body + "\n    alloc colors\n    exece\n    mov oC0, r1\n";
  };
  Placed t = Add(38, 2, Layout{2, 1, 32, 1, true}, 51);
  auto put = [&](uint32_t x0, const std::array<double, 3>& rgb) {
    for (uint32_t y = 2; y < 10; ++y) {
      for (uint32_t x = x0; x < x0 + 8; ++x) {
        uint8_t* px = &expected_[(size_t(y) * scene_.width + x) * 4];
        for (int c = 0; c < 3; ++c) px[c] = Quantize(rgb[c]);
      }
    }
  };
  TexturedQuad q;
  q.y = 2;
  q.width = q.height = 8;
  q.fetch = t.fetch;
  q.fetch[0] |= (2u << 10) | (2u << 13);  // clamp to edge
  q.fetch[3] = kIdentity;                 // point filters in the fetch constant
  q.fixed_coord = true;
  q.coord = {0.5f, 0.5f, 0.0f};
  q.x = 2;
  q.pixel_shader = shader("tfetch2D r1, r0.xy, tf0, MagFilter=linear, MinFilter=linear");
  scene_.quads.push_back(q);
  std::array<double, 3> average{}, second{};
  for (int c = 0; c < 3; ++c) {
    average[c] = double((t.texels[0][c].value + t.texels[1][c].value) * 0.5f);
    second[c] = t.texels[1][c].value;
  }
  put(2, average);
  q.x = 14;
  q.pixel_shader = shader("tfetch2D r1, r0.xy, tf0");
  scene_.quads.push_back(q);
  put(14, second);
  uint64_t differing = 0;
  auto r = Replay(&differing);
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(r.validation_messages, 0u) << r.validation_report;
}

// Vertex textures: the vertex shader fetches a texel (textureLod on the host) at a per-quad
// coordinate and passes it down; the quad shows that texel's colour.
TEST_F(TextureDrawTest, VertexShaderTextureFetch) {
  Begin(64, 16);
  const std::string vs = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1.xy__, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=5
    vfetch_full r2.xyz_, r0.x, vf0, DataFormat=FMT_32_32_32_FLOAT, Stride=5, Offset=2
    tfetch2D r3, r2.xy, tf0
    alloc position
    exec
    mov oPos.xy01, r1.xy
    alloc interpolators
    exece
    mov o0, r3
)";
  const std::string ps =
      XNT_SAMPLE_PS_HEAD "    alloc colors\n"
      "    exece\n    mov oC0, r0\n";
  Placed t = Add(6, 2, Layout{8, 8, 32, 1, true}, 61);
  const uint32_t texels[3][2] = {{1, 2}, {6, 5}, {3, 7}};
  for (uint32_t k = 0; k < 3; ++k) {
    TexturedQuad q;
    q.x = 2 + k * 12;
    q.y = 2;
    q.width = q.height = 8;
    q.fetch = t.fetch;
    q.fetch[3] = kIdentity;
    q.fixed_coord = true;
    q.coord = {(float(texels[k][0]) + 0.5f) / 8.0f, (float(texels[k][1]) + 0.5f) / 8.0f, 0.0f};
    q.vertex_shader = vs;
    q.pixel_shader = ps;
    scene_.quads.push_back(q);
    const Texel& want = t.texels[texels[k][1] * 8 + texels[k][0]];
    for (uint32_t y = 2; y < 10; ++y) {
      for (uint32_t x = q.x; x < q.x + 8; ++x) {
        uint8_t* px = &expected_[(size_t(y) * scene_.width + x) * 4];
        for (int c = 0; c < 3; ++c) px[c] = Quantize(want[c].value);
      }
    }
  }
  uint64_t differing = 0;
  auto r = Replay(&differing);
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(r.validation_messages, 0u) << r.validation_report;
  EXPECT_EQ(r.stats.draws_skipped, 0u);
}

// The whole cube-map chain a D3D pixel shader runs: `cube` on a direction (translator's
// xe_cube), rcp of |2 * major axis|, mad by it + 1.5, tfetchCube with .yxw; each quad's direction
// points at the centre of one texel of one face, and the quad must show exactly that texel.
TEST_F(TextureDrawTest, CubeInstructionChainSamplesTheTexelTheDirectionPointsAt) {
  Begin(128, 24);
  const std::string ps = XNT_SAMPLE_PS_HEAD R"(    exec
    cube r1, r0.zzxy, r0.yxzz
    rcp r2.x, r_abs[1].z
    mad r1.xy, r1.xy, r2.x, c0.x
    tfetchCube r3, r1.yxw, tf0
    alloc colors
    exece
    mov oC0, r3
)";
  Placed cube = Add(6, 2, Layout{16, 16, 32, 6, true, 3}, 71);
  // (face, texel x, texel y) per quad.
  const uint32_t picks[6][3] = {{0, 3, 12}, {1, 14, 1}, {2, 7, 7}, {3, 0, 15}, {4, 9, 2}, {5, 5, 10}};
  for (uint32_t k = 0; k < 6; ++k) {
    const uint32_t face = picks[k][0], i = picks[k][1], j = picks[k][2];
    const float sc = 2.0f * (float(i) + 0.5f) / 16.0f - 1.0f;
    const float tc = 2.0f * (float(j) + 0.5f) / 16.0f - 1.0f;
    // Vulkan's (and D3D's) face tables: the direction whose (sc, tc) on `face` is this texel.
    const std::array<float, 3> dirs[6] = {{1.0f, -tc, -sc}, {-1.0f, -tc, sc}, {sc, 1.0f, tc},
                                          {sc, -1.0f, -tc}, {sc, -tc, 1.0f}, {-sc, -tc, -1.0f}};
    TexturedQuad q;
    q.x = 2 + k * 20;
    q.y = 2;
    q.width = q.height = 16;
    q.fetch = cube.fetch;
    q.fetch[3] = kIdentity;
    q.fixed_coord = true;
    q.coord = dirs[face];
    q.pixel_shader = ps;
    q.ps_constants = {1.5f, 0.0f, 0.0f, 0.0f};
    scene_.quads.push_back(q);
    const Texel& want = cube.texels[(size_t(face) * 16 + j) * 16 + i];
    for (uint32_t y = 2; y < 18; ++y) {
      for (uint32_t x = q.x; x < q.x + 16; ++x) {
        uint8_t* px = &expected_[(size_t(y) * scene_.width + x) * 4];
        for (int c = 0; c < 3; ++c) px[c] = Quantize(want[c].value);
      }
    }
  }
  uint64_t differing = 0;
  auto r = Replay(&differing);
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(r.validation_messages, 0u) << r.validation_report;
  EXPECT_EQ(r.stats.draws_skipped, 0u);
}

// Memory is memory: a resolve writes a 32x32 tiled k_8_8_8_8 texture, a draw samples it, a second
// resolve overwrites it, and the next draw must see the new texels (the cache reloads because
// the resolve changed the pages), all within one submission-free frame.
TEST_F(TextureDrawTest, ResolvedDataIsSampledAndReloadedAfterTheNextResolve) {
  constexpr uint32_t kTexture = 0x01000000, kScratch = 0x00300000, kFront = 0x00200000;
  constexpr uint32_t kResolveVerts = 0x00070000, kQuadVerts = 0x00100000;
  const std::array<uint8_t, 4> navy = {0x18, 0x18, 0x28, 0xFF};
  const std::array<uint8_t, 4> first = {0xC0, 0x30, 0x10, 0xFF}, second = {0x20, 0xA0, 0xE0, 0xFF};
  auto pack = [](const std::array<uint8_t, 4>& c) {
    return uint32_t(c[0]) | uint32_t(c[1]) << 8 | uint32_t(c[2]) << 16 | uint32_t(c[3]) << 24;
  };
  samples::Sample sample;
  sample.name = "resolve_then_sample";
  sample.author = [&](format::Writer& w) {
    const auto vs = ucode::AssembleShader(samples::kTexturedVertexShader);
    const auto ps = ucode::AssembleShader(samples::TexturedPixelShader(TexturedQuadFetch::k2D));
    w.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveVerts,
                                capture::ResolveRectangleVertices(32, 32)});
    w.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveVerts + 0x1000,
                                capture::ResolveRectangleVertices(96, 64)});
    // Two 32x32 quads at (8, 8) and (48, 8), texture coordinates 0..1 (edges at k + 0.75).
    for (uint32_t q = 0; q < 2; ++q) {
      const float x0 = 8.0f + 40.0f * float(q) - 0.25f, x1 = x0 + 32.0f, y0 = 7.75f, y1 = 39.75f;
      const float c[4][4] = {{x0, y0, 0, 0}, {x1, y0, 1, 0}, {x0, y1, 0, 1}, {x1, y1, 1, 1}};
      std::vector<uint8_t> bytes;
      for (const auto& v : c) {
        const float f[5] = {v[0] / 48.0f - 1.0f, 1.0f - v[1] / 32.0f, v[2], v[3], 0.0f};
        for (float x : f) {
          uint8_t be[4];
          StoreBE32(be, std::bit_cast<uint32_t>(x));
          bytes.insert(bytes.end(), be, be + 4);
        }
      }
      w.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kQuadVerts + q * 0x1000, bytes});
    }
    capture::Pm4Builder b;
    capture::D3dDeviceDefaults(b);
    capture::RenderTargetSetup main_rt;  // 96x64 at EDRAM tile 0
    main_rt.surface_pitch = 96;
    capture::RenderTargetSetup source_rt;  // 32x32 at EDRAM tile 400
    source_rt.surface_pitch = 32;
    source_rt.color_base_tiles = 400;
    auto resolve = [&](const capture::RenderTargetSetup& rt, uint32_t size_w, uint32_t size_h,
                       uint32_t dest, bool clear, uint32_t value, uint32_t verts) {
      capture::ResolveSetup r;
      r.width = size_w;
      r.height = size_h;
      r.dest_address = dest;
      r.dest_pitch = (size_w + 31) & ~31u;
      r.dest_height = size_h;
      r.clear_color = clear;
      r.clear_color_value = value;
      r.vertex_address = verts;
      capture::D3dResolve(b, rt, r);
    };
    auto draw = [&](uint32_t q) {
      capture::D3dSetRenderTarget(b, main_rt);
      capture::D3dSetViewport(b, 0, 0, 96, 64);
      capture::D3dSetShaders(b, {vs.microcode, ps.microcode, 3, 2, 1});
      auto fetch = capture::TextureFetch2D(kTexture, 32, 32, xenos::TextureFormat::k_8_8_8_8);
      fetch[3] = kIdentity;  // point filters
      b.SetFetchConstant(0, fetch);
      capture::D3dSetVertexFetch(b, 95, kQuadVerts + q * 0x1000, 20);
      b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleStrip, 4);
    };
    resolve(main_rt, 96, 64, kScratch, true, pack(navy), kResolveVerts + 0x1000);
    // The source target cleared to `first`, resolved into the texture, sampled by quad 0.
    resolve(source_rt, 32, 32, kScratch, true, pack(first), kResolveVerts);
    resolve(source_rt, 32, 32, kTexture, false, 0, kResolveVerts);
    draw(0);
    // Cleared to `second`, resolved over the same texture, sampled by quad 1.
    resolve(source_rt, 32, 32, kScratch, true, pack(second), kResolveVerts);
    resolve(source_rt, 32, 32, kTexture, false, 0, kResolveVerts);
    draw(1);
    resolve(main_rt, 96, 64, kFront, false, 0, kResolveVerts + 0x1000);
    capture::D3dSwap(b, kFront, 96, 64);
    w.Write(format::Submission{format::SubmissionKind::kRingBuffer, 0x00080000, b.Take()});
    w.Write(format::FrameMarker{0, kFront, 96, 64, uint32_t(xenos::TextureFormat::k_8_8_8_8)});
  };
  auto path = ::xnt::test::TestWorkDir("renderer") / "texture_resolve_then_sample.xnt";
  std::filesystem::create_directories(path.parent_path());
  samples::WriteSample(sample, path.string());
  auto reader = format::Reader::Open(path.string());
  auto r = test::ReplayRecords([&](const std::function<void(const format::Record&)>& apply) {
    reader->ForEachRecord([&](const format::Record& rec) {
      apply(rec);
      return true;
    });
  });
  std::filesystem::remove(path);
  ASSERT_EQ(r.last_image.width, 96u);
  ASSERT_EQ(r.last_image.height, 64u);
  uint64_t differing = 0;
  for (uint32_t y = 0; y < 64; ++y) {
    for (uint32_t x = 0; x < 96; ++x) {
      const auto& want = (y >= 8 && y < 40 && x >= 8 && x < 40)    ? first
                         : (y >= 8 && y < 40 && x >= 48 && x < 80) ? second
                                                                   : navy;
      const uint8_t* got = &r.last_image.rgba[(size_t(y) * 96 + x) * 4];
      if (std::memcmp(got, want.data(), 3) != 0 && differing++ < 3) {
        ADD_FAILURE() << "pixel (" << x << ", " << y << "): got " << int(got[0]) << " "
                      << int(got[1]) << " " << int(got[2]);
      }
    }
  }
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(r.validation_messages, 0u) << r.validation_report;
  EXPECT_EQ(r.stats.draws_skipped, 0u);
}

}  // namespace
}  // namespace xnt::vk
