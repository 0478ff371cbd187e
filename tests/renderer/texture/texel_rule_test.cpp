// The coordinate -> texel rule (renderer/gpu texel_coordinate.h) through replayed draws on every
// path: quads whose every pixel fetches one fixed coordinate, hand-picked at and around texel
// boundaries (exact, one float ulp short, exactly half a 1/256 step short, a little more, just
// above, negative, at the texture's end), under repeat, mirrored repeat, clamp to edge and clamp
// to border. cpu (the texture unit), fbo and fsi (the translated shader's xe_point_texel on
// lavapipe, which samples the float coordinate itself) must all show the hand-worked texel.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>

#include "../replay_helpers.h"
#include "texel_scenes.h"
#include "xnt/samples/samples.h"
#include "test_files.h"

namespace xnt::vk {
namespace {

using samples::TexturedQuad;
using samples::TexturedScene;

constexpr uint32_t kSize = 8;  // an 8 x 8 pattern texture

struct Case {
  float texel;    // the coordinate in texels along x
  int32_t index;  // the texel it names before the address mode (hand-worked)
};
const Case kCases[] = {
    {2.0f, 2},
    {std::nextafter(2.0f, 0.0f), 2},                   // floor says 1
    {2.0f - 1.0f / 512.0f, 2},                         // half a step short rounds up
    {2.0f - 1.0f / 512.0f - 1.0f / 65536.0f, 1},
    {2.0f + 1.0f / 65536.0f, 2},
    {1.5f, 1},
    {-1.0f / 512.0f, 0},                               // negative, rounds up to 0
    {-1.0f / 512.0f - 1.0f / 65536.0f, -1},
    {-1.0f, -1},
    {-0.5f, -1},
    {8.0f, 8},                                         // the texture's right end
    {std::nextafter(8.0f, 0.0f), 8},                   // floor says 7
};

struct Mode {
  uint32_t clamp;  // xenos::ClampMode
  const char* name;
};
const Mode kModes[] = {{0, "repeat"}, {1, "mirrored repeat"}, {2, "clamp to edge"},
                       {6, "clamp to border"}};

// The texel index `i` addresses under `clamp`, -1 for the border (ABGR black: RGB 0).
int32_t Addressed(uint32_t clamp, int32_t i) {
  const int32_t n = int32_t(kSize);
  switch (clamp) {
    case 0: return ((i % n) + n) % n;
    case 1: {
      const int32_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case 2: return std::clamp(i, 0, n - 1);
    default: return i < 0 || i >= n ? -1 : i;
  }
}

// Writes `scene` as a trace and replays it on cpu, fbo and fsi (lavapipe, validation on); each
// path's one frame goes to `check`, under a trace naming the path.
void ForEveryPath(const TexturedScene& scene, const std::string& name,
                  const std::function<void(const gpu::SwapImage&)>& check) {
  samples::Sample sample;
  sample.name = name;
  sample.author = [scene](format::Writer& w) { samples::AuthorTexturedScene(scene, w); };
  const auto file = ::xnt::test::TestWorkDir("renderer") / (name + ".xnt");
  std::filesystem::create_directories(file.parent_path());
  samples::WriteSample(sample, file.string());
  for (renderer::Path path : {renderer::Path::kCpu, renderer::Path::kFbo, renderer::Path::kFsi}) {
    SCOPED_TRACE(renderer::PathName(path));
    const test::TraceRun run = test::ReplayTraceFile(file.string(), path, 1, false);
    EXPECT_EQ(run.validation_messages, 0u) << run.validation_report;
    ASSERT_EQ(run.frames.size(), 1u);
    ASSERT_EQ(run.frames[0].width, scene.width);
    ASSERT_EQ(run.frames[0].height, scene.height);
    check(run.frames[0]);
  }
  std::filesystem::remove(file);
}

TEST(TexelRule, BoundaryCoordinatesNameTheSameTexelOnEveryPath) {
  TexturedScene scene;
  scene.width = 80;
  scene.height = 32;
  scene.clear_rgba = {0x20, 0x40, 0x60, 0xFF};
  std::vector<uint8_t> expected(size_t(scene.width) * scene.height * 4);
  for (size_t i = 0; i < expected.size(); i += 4) {
    std::copy(scene.clear_rgba.begin(), scene.clear_rgba.end(), expected.begin() + i);
  }
  uint32_t address = samples::kTexturedFirstTextureAddress;
  for (uint32_t m = 0; m < std::size(kModes); ++m) {
    const auto fetch = samples::AddPatternTexture(scene, address, kSize, kSize, kModes[m].clamp, {});
    address += 0x10000;
    for (uint32_t c = 0; c < std::size(kCases); ++c) {
      TexturedQuad q;
      q.x = 4 + 6 * c;
      q.y = 4 + 6 * m;
      q.width = q.height = 4;
      q.fetch = fetch;
      q.fixed_coord = true;
      // Dividing by 8 is exact; row 3.5 is texel 3.
      q.coord = {kCases[c].texel / float(kSize), 3.5f / float(kSize), 0.0f};
      scene.quads.push_back(q);
      const int32_t x = Addressed(kModes[m].clamp, kCases[c].index);
      const auto t = x < 0 ? std::array<uint8_t, 4>{0, 0, 0, 255} : samples::PatternTexel(x, 3);
      for (uint32_t j = 0; j < 4; ++j) {
        for (uint32_t i = 0; i < 4; ++i) {
          uint8_t* px = &expected[(size_t(q.y + j) * scene.width + q.x + i) * 4];
          std::copy(t.begin(), t.begin() + 3, px);
        }
      }
    }
  }
  ForEveryPath(scene, "texel_rule", [&](const gpu::SwapImage& got) {
    uint32_t differing = 0;
    for (uint32_t m = 0; m < std::size(kModes); ++m) {
      for (uint32_t c = 0; c < std::size(kCases); ++c) {
        // One pixel per quad says it all (every pixel fetches the same coordinate).
        const size_t at = (size_t(4 + 6 * m + 1) * scene.width + 4 + 6 * c + 1) * 4;
        if (std::memcmp(&got.rgba[at], &expected[at], 3) != 0) {
          ++differing;
          ADD_FAILURE() << kModes[m].name << ", texel coordinate " << kCases[c].texel
                        << ": got R " << int(got.rgba[at]) << ", want R " << int(expected[at]);
        }
      }
    }
    EXPECT_EQ(differing, 0u);
    size_t whole = 0;
    for (size_t i = 0; i < expected.size(); i += 4) whole += std::memcmp(&got.rgba[i], &expected[i], 3) != 0;
    EXPECT_EQ(whole, 0u) << "pixels differing anywhere in the frame";
  });
}

// The fetch constant a real driver sets by default (mag point, min linear, aniso 2:1) on a 16x8
// texture magnified 4x (pixel centres at 1/8, 3/8, 5/8, 7/8 of a texel, never on a boundary):
// point sampled on every path: by the shader's own choice for the implicit-LOD 2D fetch, by a
// host sampler without anisotropy for a 1D fetch (lavapipe's anisotropic sampler filters it
// otherwise) and for a register-LOD one (setTexLOD 0 + UseRegisterLOD).
TEST(TexelRule, AnisotropyNeverFiltersAMagnifiedPointFootprint) {
  TexturedScene scene;
  scene.width = 240;
  scene.height = 48;
  scene.edge_inset = 0.5f;  // quad edges on pixel edges (texel_scenes.cpp)
  scene.clear_rgba = {0x20, 0x40, 0x60, 0xFF};
  std::vector<uint8_t> expected(size_t(scene.width) * scene.height * 4);
  for (size_t i = 0; i < expected.size(); i += 4) {
    std::copy(scene.clear_rgba.begin(), scene.clear_rgba.end(), expected.begin() + i);
  }
  const auto fetch = samples::AddPatternTexture(scene, samples::kTexturedFirstTextureAddress, 16,
                                                8, 2, {.mag = 0, .min = 1, .aniso = 2});
  // The same texels as a 16-wide 1D row (dword 2 height bits 0, dword 5 dimension 0).
  auto row = fetch;
  row[2] = 15;
  row[5] &= ~(3u << 9);
  const samples::TexturedQuadFetch ops[] = {samples::TexturedQuadFetch::k2D,
                                            samples::TexturedQuadFetch::k1D,
                                            samples::TexturedQuadFetch::k2DLod};
  for (uint32_t k = 0; k < 3; ++k) {
    TexturedQuad q;
    q.x = 8 + 80 * k;
    q.y = 8;
    q.width = 64;
    q.height = 32;
    q.fetch = k == 1 ? row : fetch;
    q.op = ops[k];
    q.z = 0.0f;  // the register LOD
    q.texture_width = 64;
    q.texture_height = 32;
    scene.quads.push_back(q);
    for (uint32_t j = 0; j < q.height; ++j) {
      for (uint32_t i = 0; i < q.width; ++i) {
        const auto t = samples::PatternTexel(i / 4, k == 1 ? 0 : j / 4);
        std::copy(t.begin(), t.begin() + 3, &expected[(size_t(q.y + j) * scene.width + q.x + i) * 4]);
      }
    }
  }
  ForEveryPath(scene, "texel_rule_aniso", [&](const gpu::SwapImage& got) {
    size_t differing[3] = {0, 0, 0};
    for (size_t i = 0; i < expected.size(); i += 4) {
      if (std::memcmp(&got.rgba[i], &expected[i], 3) != 0) ++differing[(i / 4) % scene.width / 80];
    }
    EXPECT_EQ(differing[0], 0u) << "implicit-LOD 2D fetch";
    EXPECT_EQ(differing[1], 0u) << "1D fetch";
    EXPECT_EQ(differing[2], 0u) << "register-LOD 2D fetch";
  });
}

}  // namespace
}  // namespace xnt::vk
