// Resolution scaling on the cpu path: every bundled sample replays once at 1x1 and once at each of
// 1x2, 2x1, 2x2, 3x3, 1x3 and 3x1, and each scaled replay serves both checks that apply to it:
// - downsampling (1x2, 2x1, 2x2, 3x3): the front buffer is S x T times the size and,
//   box-downsampled to 1x1, matches the sample's CPU-computed 1x expected image: exactly where
//   every edge of the scene falls on a boundary the scaled host pixels share with the guest ones
//   (flat geometry at 1x2, 2x1, 2x2 with edges at quarter pixels), else at PSNR >= 40 dB, except
//   the samples listed with why;
// - decimation (3x3, 1x3, 3x1): the middle host pixels of every frame are the 1x frame.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <vector>

#include "scale_invariance.h"
#include "xnt/format/reader.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"
#include "test_files.h"

namespace xnt::cpu {
namespace {

// Per test: the tests of this file run side by side as processes (test_files.h).
std::filesystem::path Work() { return ::xnt::test::TestWorkDir("cpu_scale"); }

using ::xnt::test::kNotScaleInvariant;

class CpuScale : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuScale, ScaledFramesDownsampleToTheExpectedImageAndDecimateToTheOneByOneFrame) {
  const samples::Sample* sample = samples::Find(GetParam());
  ASSERT_NE(sample, nullptr);
  const std::string file = (Work() / (sample->name + ".xnt")).string();
  samples::WriteSample(*sample, file);
  const std::vector<gpu::SwapImage> one = ::xnt::test::ReplayFrames(file, renderer::Path::kCpu, 1, 1);
  ASSERT_FALSE(one.empty());
  const samples::Image want = sample->expected_image ? sample->expected_image() : samples::Image{};
  const auto exception = kNotScaleInvariant.find(sample->name);
  for (auto [sx, sy] : ::xnt::test::kScaleTestScales) {
    SCOPED_TRACE(std::to_string(sx) + "x" + std::to_string(sy));
    const std::vector<gpu::SwapImage> frames =
        ::xnt::test::ReplayFrames(file, renderer::Path::kCpu, sx, sy);
    ASSERT_FALSE(frames.empty());
    if (::xnt::test::HasScale(::xnt::test::kDecimationScales, sx, sy)) {
      ::xnt::test::ExpectDecimatedFrames(sample->name, one, frames, sx, sy);
    }
    if (!sample->expected_image || !::xnt::test::HasScale(::xnt::test::kDownsamplingScales, sx, sy)) {
      continue;
    }
    const gpu::SwapImage& got = frames.back();
    ASSERT_EQ(got.width, want.width * sx);
    ASSERT_EQ(got.height, want.height * sy);
    const double psnr = ::xnt::test::DownsampledPsnr(got, sx, sy, want);
    std::printf("%s %ux%u: PSNR %.2f dB\n", sample->name.c_str(), sx, sy, psnr);
    if (exception != kNotScaleInvariant.end()) continue;
    if (sx * sy == 9) continue;  // edges at quarter pixels split 3x3 host pixels (see below)
    EXPECT_GE(psnr, 40.0);
  }
}

// Samples whose expected image is also worked out at a scale (Sample::expected_image_scaled:
// lines as the guest's quads, point sprites S x T host pixels per guest pixel) match it exactly
// at 1x3, 3x1 and 3x3.
TEST(CpuScaleExpected, LinesAndPointSpritesMatchTheirImagesWorkedOutAtTheScale) {
  const size_t equal = ::xnt::test::CompareScaledExpectedImages(
      Work().string(), renderer::Path::kCpu, [](const std::string&, uint32_t, uint32_t) { return true; });
  EXPECT_GE(equal, 12u);  // the two line and the two point samples, three scales each
}

// What a screen derivative spans at a scale, worked by hand on raster_point_sprite_mips: sprites
// of 16, 8, 4 and 2 guest pixels over a 16-texel, 4-level chain (nearest mip, point filters),
// centred at guest (12.625, 16.625), (36.625, 16.625), (60.625, 16.625), (80.625, 16.625).
// Per guest pixel (the default) rho = 16 / size at every scale: levels 0, 1, 2, 3. Per host
// pixel at 3x3 a sprite is 3 size host pixels, rho = 16 / (3 size), lambda = -1.58, -0.58,
// 0.42, 1.42: nearest levels 0, 0, 0, 1; at 1x3 the x footprint (1 host pixel per guest pixel)
// is the larger, so the levels stay 0, 1, 2, 3.
TEST(CpuScaledDerivatives, PointSpriteLevelsFollowGuestOrHostPixels) {
  const samples::Sample* sample = samples::Find("raster_point_sprite_mips");
  ASSERT_NE(sample, nullptr);
  const std::string file = (Work() / "sprite_levels.xnt").string();
  samples::WriteSample(*sample, file);
  // The level colours (raster_point_scenes.cpp kLevelColor).
  const uint8_t kColor[4][3] = {{0xE0, 0x30, 0x30}, {0x30, 0xC8, 0x40}, {0x40, 0x60, 0xF0}, {0xF0, 0xD0, 0x20}};
  const double kCentreX[4] = {12.625, 36.625, 60.625, 80.625};
  struct Case {
    uint32_t sx, sy;
    gpu::ScaledDerivatives derivatives;
    uint32_t levels[4];
  };
  const Case cases[] = {{3, 3, gpu::ScaledDerivatives::kGuest, {0, 1, 2, 3}},
                        {3, 3, gpu::ScaledDerivatives::kHost, {0, 0, 0, 1}},
                        {1, 3, gpu::ScaledDerivatives::kGuest, {0, 1, 2, 3}},
                        {1, 3, gpu::ScaledDerivatives::kHost, {0, 1, 2, 3}},
                        {3, 1, gpu::ScaledDerivatives::kHost, {0, 1, 2, 3}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.sx) + "x" + std::to_string(c.sy) + " " +
                 gpu::ScaledDerivativesName(c.derivatives));
    const std::vector<gpu::SwapImage> frames = ::xnt::test::ReplayFrames(
        file, renderer::Path::kCpu, c.sx, c.sy, nullptr, nullptr, c.derivatives);
    ASSERT_FALSE(frames.empty());
    const gpu::SwapImage& f = frames.back();
    for (int i = 0; i < 4; ++i) {
      const uint32_t x = uint32_t(kCentreX[i] * c.sx), y = uint32_t(16.625 * c.sy);
      const uint8_t* p = &f.rgba[(size_t(y) * f.width + x) * 4];
      EXPECT_EQ(int(p[0]), kColor[c.levels[i]][0]) << "sprite " << i;
      EXPECT_EQ(int(p[1]), kColor[c.levels[i]][1]) << "sprite " << i;
      EXPECT_EQ(int(p[2]), kColor[c.levels[i]][2]) << "sprite " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, CpuScale, ::testing::ValuesIn(samples::Names()),
                         [](const auto& info) { return info.param; });

// A hand-checked case: at 3x3 a rectangle edge at a quarter pixel (x = 21.25 guest, 63.75 host)
// leaves host pixel 63 (centre 63.5) out and 64, 65 in, so guest pixel 21 is 2/3 covered after
// the box filter, where 1x covers it whole (centre 21.5): 3x3 is a different (finer) picture
// of such scenes, not an error, which is why the suite above only prints 3x3's PSNR.

}  // namespace
}  // namespace xnt::cpu
