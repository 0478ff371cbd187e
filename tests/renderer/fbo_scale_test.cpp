// Resolution scaling on the fbo path (lavapipe, validation layer on: no message at any scale):
// every bundled sample replays once at 1x1 and once at each of 1x2, 2x1, 2x2, 3x3, 1x3 and 3x1,
// and each scaled replay serves every check that applies to it:
// - against the cpu path (1x2, 2x1, 2x2, 3x3): a front buffer S x T times the guest size that is
//   byte-identical to the cpu path's at the same scale (the cpu path is the reference: same
//   scaled EDRAM rules, same resolves), except the samples that already differ between the paths
//   at 1x1 (Sample::differs_on "fbo"); box-downsampled, the frames of the scale-invariant samples
//   match the sample's 1x expected image at PSNR >= 40 dB (printed for every sample and scale;
//   3x3 splits pixels whose edges lie at quarter positions, so it is only printed, as in
//   tests/cpu/cpu_scale_test.cpp);
// - decimation (3x3, 1x3, 3x1; scale_invariance.h): every frame's blocks' middle host pixels
//   against the fbo path's own 1x frame, the samples that differ from the cpu path at 1x
//   included (the check compares a path with itself).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <vector>

#include "scale_invariance.h"
#include "xnt/format/reader.h"
#include "xnt/renderer/session.h"
#include "xnt/vk/fbo/fbo_backend.h"
#include "xnt/vk/vulkan_context.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"
#include "test_files.h"

namespace xnt::vk {
namespace {

// Per test: the tests of this file run side by side as processes (test_files.h).
std::filesystem::path Work() { return ::xnt::test::TestWorkDir("fbo_scale"); }

using ::xnt::test::kNotScaleInvariant;

using ::xnt::test::ReplayFrames;

class FboScale : public ::testing::TestWithParam<std::string> {};

// The cpu-path check of one scale: the fbo frame against the cpu path's, and the downsampled PSNR
// against `want`, the sample's 1x image (empty when it has none).
void ExpectSameAsCpu(const samples::Sample& sample, const std::string& file,
                     const gpu::SwapImage& fbo, uint32_t sx, uint32_t sy,
                     const samples::Image& want) {
  const bool differs_at_1x = sample.differs_on.count("fbo") != 0;
  const std::vector<gpu::SwapImage> cpu_frames = ReplayFrames(file, renderer::Path::kCpu, sx, sy);
  ASSERT_FALSE(cpu_frames.empty());
  const gpu::SwapImage& cpu = cpu_frames.back();
  ASSERT_EQ(fbo.width, cpu.width);
  ASSERT_EQ(fbo.height, cpu.height);
  const auto [differ, first] = ::xnt::test::CompareFrames(fbo, cpu);
  double psnr = NAN;
  if (!want.rgba.empty() && fbo.width == want.width * sx && fbo.height == want.height * sy) {
    psnr = ::xnt::test::DownsampledPsnr(fbo, sx, sy, want);
    if (sx * sy != 9 && !differs_at_1x && !kNotScaleInvariant.count(sample.name)) {
      EXPECT_GE(psnr, 40.0);
    }
  }
  std::printf("%s %ux%u: %zu pixels differ from cpu; downsampled PSNR %.2f dB\n",
              sample.name.c_str(), sx, sy, differ, psnr);
  if (differs_at_1x) return;
  EXPECT_EQ(differ, 0u) << "first differing host pixel (" << first % fbo.width << ", "
                        << first / fbo.width << ")";
}

TEST_P(FboScale, ScaledFramesMatchTheCpuPathAndDecimateToTheOneByOneFrame) {
  const samples::Sample* sample = samples::Find(GetParam());
  ASSERT_NE(sample, nullptr);
  const std::string file = (Work() / (sample->name + ".xnt")).string();
  samples::WriteSample(*sample, file);
  uint32_t messages = 0;
  std::string validation;
  const std::vector<gpu::SwapImage> one =
      ReplayFrames(file, renderer::Path::kFbo, 1, 1, &messages, &validation);
  EXPECT_EQ(messages, 0u) << validation;
  ASSERT_FALSE(one.empty());
  // Worked out once for the four scales that compare with it: a flat scene's image tests every
  // pixel against every triangle, and four of them were 13 % of the test's CPU (sanitized build).
  const samples::Image want = sample->expected_image ? sample->expected_image() : samples::Image{};
  for (auto [sx, sy] : ::xnt::test::kScaleTestScales) {
    SCOPED_TRACE(std::to_string(sx) + "x" + std::to_string(sy));
    const std::vector<gpu::SwapImage> fbo =
        ReplayFrames(file, renderer::Path::kFbo, sx, sy, &messages, &validation);
    EXPECT_EQ(messages, 0u) << validation;
    ASSERT_FALSE(fbo.empty());
    if (::xnt::test::HasScale(::xnt::test::kDecimationScales, sx, sy)) {
      ::xnt::test::ExpectDecimatedFrames(sample->name, one, fbo, sx, sy, true);
    }
    if (::xnt::test::HasScale(::xnt::test::kDownsamplingScales, sx, sy)) {
      ExpectSameAsCpu(*sample, file, fbo.back(), sx, sy, want);
    }
  }
}

// Samples with images worked out at a scale (Sample::expected_image_scaled) match them exactly on
// fbo: lines through the line-quad geometry shader at 1x3 and 3x1, points through the point-quad
// one (width x height guest pixels, S x T host pixels each) at every scale.
TEST(FboScaleExpected, LinesAndPointSpritesMatchTheirImagesWorkedOutAtTheScale) {
  const size_t equal = ::xnt::test::CompareScaledExpectedImages(
      Work().string(), renderer::Path::kFbo,
      [](const std::string&, uint32_t, uint32_t) { return true; });
  EXPECT_GE(equal, 12u);  // the two line and the two point samples, three scales each
}

// Host-pixel derivatives (--scaled-lod host): texture LOD, getCompTexLOD / getGradients and the
// polygon offset's slope per host pixel give the same frames on fbo as on cpu, as the default
// guest-pixel ones do (FboScale above), on the samples whose pictures show them.
TEST(FboScaledDerivatives, HostPixelDerivativesEqualTheCpuPath) {
  // (texfetch_aniso_lod's level is the host sampler's choice: kNotDecimationInvariantOnHostSampler.)
  for (const char* name : {"texfetch_lod_queries", "texfetch_volume_lod",
                           "texfetch_mips_without_base", "raster_point_sprite_mips",
                           "raster_polygon_offset_decals"}) {
    const samples::Sample* sample = samples::Find(name);
    ASSERT_NE(sample, nullptr) << name;
    const std::string file = (Work() / (std::string(name) + ".host_lod.xnt")).string();
    samples::WriteSample(*sample, file);
    for (auto [sx, sy] : {std::pair{2u, 2u}, std::pair{3u, 3u}}) {
      SCOPED_TRACE(std::string(name) + " " + std::to_string(sx) + "x" + std::to_string(sy));
      uint32_t messages = 0;
      std::string validation;
      const auto fbo = ReplayFrames(file, renderer::Path::kFbo, sx, sy, &messages, &validation,
                                    gpu::ScaledDerivatives::kHost);
      EXPECT_EQ(messages, 0u) << validation;
      const auto cpu = ReplayFrames(file, renderer::Path::kCpu, sx, sy, nullptr, nullptr,
                                    gpu::ScaledDerivatives::kHost);
      const auto guest = ReplayFrames(file, renderer::Path::kCpu, sx, sy);
      ASSERT_FALSE(fbo.empty());
      ASSERT_EQ(fbo.size(), cpu.size());
      const auto [differ, first] = ::xnt::test::CompareFrames(fbo.back(), cpu.back());
      const size_t from_guest = ::xnt::test::CompareFrames(cpu.back(), guest.back()).pixels;
      std::printf("%s %ux%u host derivatives: %zu pixels differ from cpu; cpu differs from its "
                  "guest-derivative frame in %zu\n", name, sx, sy, differ, from_guest);
      EXPECT_EQ(differ, 0u) << "first differing host pixel " << first;
    }
  }
}

// Memory at a scale for the 1280x720 sample (docs/edram.md, "Resolution scaling"): host render
// targets are exactly S x T times their 1x size (the same images, S x T times the pixels), the
// EDRAM copies S x T times 20 MiB, and the scaled resolve copies hold only the front buffer the
// frame resolved (S x T times its 3.5 MiB), not a scaled copy of guest memory.
struct Memory {
  uint64_t render_targets = 0, edram_model = 0, gpu_edram = 0, scaled_cpu = 0, scaled_arena = 0,
           scaled_device = 0;
};

Memory MeasureFrame(const std::string& file, uint32_t sx, uint32_t sy) {
  ContextOptions context_options;
  context_options.validate = true;
  VulkanContext context(context_options);
  FboBackendOptions options;
  options.renderer.scale_x = sx;
  options.renderer.scale_y = sy;
  FboBackend backend(context, options);
  replay::TracePlayer player(backend);
  backend.Attach(&player.memory(), &player.registers());
  player.Play(*format::Reader::Open(file));
  XenosRenderer& r = backend.renderer();
  r.Flush();
  EXPECT_EQ(context.validation_message_count(), 0u);
  return {r.render_targets().device_bytes(), r.edram().model_bytes(), r.edram().gpu_copy_bytes(),
          r.scaled_resolves().bytes(), r.scaled_arena_bytes(), r.scaled_device_bytes()};
}

TEST(FboScaleMemory, Frame1280x720IsSTimesTheOneByOneAmountPlusTheResolvedCopy) {
  const samples::Sample* sample = samples::Find("scale_frame_1280x720");
  ASSERT_NE(sample, nullptr);
  const std::string file = (Work() / "memory_1280x720.xnt").string();
  samples::WriteSample(*sample, file);
  const Memory one = MeasureFrame(file, 1, 1);
  EXPECT_EQ(one.scaled_cpu, 0u);
  for (auto [sx, sy] : {std::pair{1u, 1u}, {2u, 2u}, {3u, 3u}}) {
    const Memory m = sx == 1 ? one : MeasureFrame(file, sx, sy);
    const auto mib = [](uint64_t b) { return double(b) / double(1 << 20); };
    std::printf("1280x720 at %ux%u: render targets %.1f MiB, EDRAM model %.1f MiB, GPU EDRAM copy "
                "%.1f MiB, scaled resolve copies %.2f MiB (CPU, the only host copy) + %.2f MiB (arena "
                "slots, address space) + %.2f MiB (device, sparse)\n",
                sx, sy, mib(m.render_targets), mib(m.edram_model), mib(m.gpu_edram),
                mib(m.scaled_cpu), mib(m.scaled_arena), mib(m.scaled_device));
    EXPECT_LE(m.render_targets, uint64_t(sx) * sy * one.render_targets);
    EXPECT_EQ(m.edram_model, uint64_t(sx) * sy * one.edram_model);
    if (sx * sy > 1) {
      // The front buffer only: 1280x720 k_8_8_8_8 at the scale, rows in 32x32 tiles (at most
      // 736 guest rows' worth).
      EXPECT_GE(m.scaled_cpu, uint64_t(sx) * sy * 1280 * 720 * 4);
      EXPECT_LE(m.scaled_cpu, uint64_t(sx) * sy * 1280 * 736 * 4);
      EXPECT_LE(m.scaled_device, (m.scaled_cpu + (64u << 10)) / (64u << 10) * (64u << 10) + (64u << 10));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, FboScale, ::testing::ValuesIn(samples::Names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace xnt::vk
