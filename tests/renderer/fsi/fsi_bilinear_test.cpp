// Bilinear fetches on the fsi path give the cpu path's bytes (TranslationOptions::exact_bilinear,
// docs/fsi.md): 256 one-pixel quads each fetch a random 16x16 k_8_8_8_8 texture bilinearly at a
// random coordinate in [-0.75, 1.75)^2 (every quad the same coordinate at its three vertices, so
// both paths hand the fetch exactly that float), with random clamp modes per axis (all eight,
// borders included) and a random border colour. The fsi frame must equal the cpu path's byte for
// byte; so must a row of +-1e30 and NaN coordinates. The fbo path filters with the host sampler; lavapipe's weights for an 8-bit texture are
// fixed-point, so some of its pixels must differ from the cpu path's: that is what the test would
// see on fsi without the option.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include <unistd.h>

#include "fsi_depth_scene.h"
#include "replay_helpers.h"
#include "test_env.h"
#include "texture_scene.h"
#include "xnt/base/error.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/format/reader.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"

namespace xnt::vk {
namespace {

constexpr uint32_t kQuadsPerRow = 16;

using depth_scene::Rng;

samples::TexturedScene BilinearScene() {
  samples::TexturedScene scene;
  scene.width = 64;
  scene.height = 32;
  scene.clear_rgba = {0, 0, 0, 0xFF};
  Rng rng{0xB111EA};
  // 32x32 tiled texels of which the 16x16 texture uses some: random bytes are valid texels.
  std::vector<uint8_t> texels(32 * 32 * 4);
  for (uint8_t& b : texels) b = uint8_t(rng.Next() >> 24);
  scene.memory.push_back({samples::kTexturedFirstTextureAddress, texels});
  // A 16x16 k_32_32_32_32_FLOAT texture whose components are finite or infinite: the cpu path's
  // lerp t0 + (t1 - t0) w turns an infinity beside a finite texel into NaN (stored as 0 in an
  // 8-bit target), where a host sampler may keep the infinity (255).
  const uint32_t float_texture = samples::kTexturedFirstTextureAddress + 0x10000;
  const float values[8] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f, -0.5f, INFINITY, -INFINITY};
  std::vector<uint8_t> floats(32 * 32 * 16);
  for (size_t i = 0; i < floats.size(); i += 4) {
    uint32_t bits;
    std::memcpy(&bits, &values[rng.Next() >> 29], 4);
    for (uint32_t b = 0; b < 4; ++b) floats[i + b] = uint8_t(bits >> (24 - 8 * b));  // k8in32
  }
  scene.memory.push_back({float_texture, floats});
  const std::string ps = R"(xps_3_0
config AutoSerialize=false
config AutoResource=false

    exec
    tfetch2D r1, r0.xy, tf0, MagFilter=linear, MinFilter=linear
    alloc colors
    exece
    mov oC0, r1
)";
  for (uint32_t i = 0; i < 256; ++i) {
    samples::TexturedQuad q;
    q.x = 8 + (i % kQuadsPerRow) * 3;
    q.y = 4 + (i / kQuadsPerRow);
    q.width = q.height = 1;
    q.fetch = i % 4 == 3 ? capture::TextureFetch2D(float_texture, 16, 16,
                                                   xenos::TextureFormat::k_32_32_32_32_FLOAT)
                         : capture::TextureFetch2D(samples::kTexturedFirstTextureAddress, 16, 16,
                                                   xenos::TextureFormat::k_8_8_8_8);
    // Clamp modes (dword 0 bits 10..12 x, 13..15 y) and border colour (dword 5 bits 0..1).
    q.fetch[0] = (q.fetch[0] & ~(0x3Fu << 10)) | (rng.Next() >> 29) << 10 |
                 (rng.Next() >> 29) << 13;
    q.fetch[5] = (q.fetch[5] & ~3u) | rng.Next() >> 30;
    q.fixed_coord = true;
    const float range = i % 2 ? 2.5f : 250.0f;
    q.coord = {(rng.Unit() - 0.3f) * range, (rng.Unit() - 0.3f) * range, 0.0f};
    q.pixel_shader = ps;
    scene.quads.push_back(q);
  }
  // The last row: coordinates no float -> int conversion takes as they are (+-1e30, NaN), the
  // cpu path's rule (texture_unit.cpp FloorIndex: NaN texel 0, magnitudes held to 2^30) in the
  // shader too, under every clamp mode, on the 8-bit texture. No infinities: an infinite vertex
  // attribute does not interpolate to the same float on every rasterizer (0 * inf in a
  // barycentric sum is NaN), so the fetch would not see the same coordinate; the filter's rule
  // for them is checked where the coordinate reaches the fetch as it is (renderer_translate_
  // check_test, ExactBilinearOfInfiniteCoordinates).
  const float extremes[4] = {1e30f, -1e30f, std::nanf(""), 0.3f};
  for (uint32_t i = 0; i < 16; ++i) {
    samples::TexturedQuad& q = scene.quads[256 - 16 + i];
    q.fetch = capture::TextureFetch2D(samples::kTexturedFirstTextureAddress, 16, 16,
                                      xenos::TextureFormat::k_8_8_8_8);
    q.fetch[0] = (q.fetch[0] & ~(0x3Fu << 10)) | (i % 8) << 10 | ((i + 3) % 8) << 13;
    q.coord = {extremes[i % 4], extremes[(i / 4 + 3) % 4], 0.0f};
  }
  return scene;
}

gpu::SwapImage Play(const std::string& file, renderer::Path path, uint32_t& messages,
                    std::string& report) {
  const test::TraceRun run =
      test::ReplayTraceFile(file, path, 1, /*synchronization_validation=*/false);
  messages = run.validation_messages;
  if (run.validation_messages) report += run.validation_report + "\n";
  return run.frames.empty() ? gpu::SwapImage{} : run.frames.back();
}

size_t Differing(const gpu::SwapImage& a, const gpu::SwapImage& b, std::string& first) {
  size_t n = 0;
  for (size_t i = 0; i < a.rgba.size() / 4; ++i) {
    if (std::memcmp(&a.rgba[i * 4], &b.rgba[i * 4], 4) == 0) continue;
    if (!n) {
      first = "(" + std::to_string(i % a.width) + ", " + std::to_string(i / a.width) + ") " +
              std::to_string(a.rgba[i * 4]) + " vs " + std::to_string(b.rgba[i * 4]);
    }
    ++n;
  }
  return n;
}

TEST(FsiBilinear, SameBytesAsTheCpuPathAtRandomCoordinatesAndClampModes) {
  samples::Sample sample;
  sample.name = "fsi_bilinear";
  sample.author = [](format::Writer& w) { samples::AuthorTexturedScene(BilinearScene(), w); };
  const auto file = std::filesystem::path(XNT_BINARY_DIR) / "tests" / "renderer" / "fsi" /
                    ("bilinear_" + std::to_string(::getpid()) + ".xnt");
  std::filesystem::create_directories(file.parent_path());
  samples::WriteSample(sample, file.string());
  uint32_t messages = 0;
  std::string report;
  const gpu::SwapImage cpu = Play(file.string(), renderer::Path::kCpu, messages, report);
  const gpu::SwapImage fsi = Play(file.string(), renderer::Path::kFsi, messages, report);
  EXPECT_EQ(messages, 0u) << report;
  const gpu::SwapImage fbo = Play(file.string(), renderer::Path::kFbo, messages, report);
  EXPECT_EQ(messages, 0u) << report;
  std::filesystem::remove(file);
  ASSERT_EQ(cpu.width, 64u);
  ASSERT_EQ(fsi.rgba.size(), cpu.rgba.size());
  ASSERT_EQ(fbo.rgba.size(), cpu.rgba.size());
  // The quads drew: their pixels are not the opaque black clear (only a footprint wholly on an
  // opaque black border could be). The last row's NaN footprints may well be black.
  size_t drawn = 0;
  for (uint32_t i = 0; i < 240; ++i) {
    const size_t x = 8 + (i % kQuadsPerRow) * 3, y = 4 + i / kQuadsPerRow;
    const uint8_t* p = &cpu.rgba[(y * 64 + x) * 4];
    drawn += p[0] != 0 || p[1] != 0 || p[2] != 0 || p[3] != 0xFF;
  }
  EXPECT_GT(drawn, 180u);
  std::string first;
  EXPECT_EQ(Differing(cpu, fsi, first), 0u) << "first (cpu vs fsi): " << first;
  const size_t fbo_differs = Differing(cpu, fbo, first);
  std::printf("fbo (host sampler) differs from cpu in %zu of 256 bilinear pixels\n", fbo_differs);
  EXPECT_GT(fbo_differs, 0u) << "the host sampler's weights matched the cpu path's everywhere: "
                                "this scene no longer tells exact from host filtering";
}

}  // namespace
}  // namespace xnt::vk
