// Compare(): errors, PSNR, thresholds and hashes against hand-computed values; SSIM against a
// direct O(N x 121) reference; the FLIP-style term against a direct evaluation on flat colours.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "diff_test_util.h"
#include "xnt/diff/error.h"
#include "xnt/diff/metrics.h"

namespace xnt::diff {
namespace {

using test::ForEachKernelSet;
using test::Make16;
using test::Make8;

TEST(DiffMetrics, HandComputedErrorsPsnrAndThresholds) {
  OwnedImage a = Make8(2, 2, 3, [](int, int, int) { return 0; });
  // (0,0) = (255,0,0), (1,0) = (0,51,0), (0,1) = 0, (1,1) = (10,10,10)
  OwnedImage b = Make8(2, 2, 3, [](int x, int y, int c) {
    if (x == 0 && y == 0) return c == 0 ? 255 : 0;
    if (x == 1 && y == 0) return c == 1 ? 51 : 0;
    if (x == 1 && y == 1) return 10;
    return 0;
  });
  ForEachKernelSet([&](const char* k) {
    SCOPED_TRACE(k);
    CompareOptions o;
    o.pixel_threshold = {0.1f, 0.1f, 0.1f, 0.1f};
    Metrics m = Compare(a.view(), b.view(), o);
    const double t = 10.0 / 255.0;
    EXPECT_FALSE(m.exact);
    EXPECT_EQ(m.channels, 3);
    EXPECT_NEAR(m.channel[0].max_abs, 1.0, 1e-7);
    EXPECT_NEAR(m.channel[1].max_abs, 0.2, 1e-7);
    EXPECT_NEAR(m.channel[2].max_abs, t, 1e-7);
    EXPECT_NEAR(m.channel[0].mean_abs, (1 + t) / 4, 1e-7);
    EXPECT_NEAR(m.channel[1].mean_abs, (0.2 + t) / 4, 1e-7);
    EXPECT_NEAR(m.channel[2].mean_abs, t / 4, 1e-7);
    const double mse_r = (1 + t * t) / 4, mse_g = (0.04 + t * t) / 4, mse_b = t * t / 4;
    EXPECT_NEAR(m.channel[0].mse, mse_r, 1e-7);
    EXPECT_NEAR(m.channel[0].psnr, 10 * std::log10(1 / mse_r), 1e-5);
    EXPECT_NEAR(m.channel[1].psnr, 10 * std::log10(1 / mse_g), 1e-5);
    EXPECT_NEAR(m.channel[2].psnr, 10 * std::log10(1 / mse_b), 1e-4);
    EXPECT_NEAR(m.psnr, 10 * std::log10(3 / (mse_r + mse_g + mse_b)), 1e-5);
    EXPECT_NEAR(m.min_channel_psnr, m.channel[0].psnr, 1e-12);
    EXPECT_NEAR(m.max_abs, 1.0, 1e-7);
    EXPECT_EQ(m.max_x, 0);
    EXPECT_EQ(m.max_y, 0);
    EXPECT_NEAR(m.mean_abs, ((1 + t) / 4 + (0.2 + t) / 4 + t / 4) / 3, 1e-7);
    EXPECT_EQ(m.pixels_differing, 3u);
    EXPECT_EQ(m.pixels_over, 2u);  // (1,1) is under 0.1 in every channel
    EXPECT_EQ(m.channel[0].pixels_over, 1u);
    EXPECT_EQ(m.channel[1].pixels_over, 1u);
    EXPECT_EQ(m.channel[2].pixels_over, 0u);
    EXPECT_NE(m.hash_a, m.hash_b);
  });
}

TEST(DiffMetrics, PerChannelThresholdsAndMaps) {
  OwnedImage a = Make8(3, 1, 3, [](int, int, int) { return 100; });
  OwnedImage b = Make8(3, 1, 3, [](int x, int, int c) { return 100 + (c == x ? 20 : 0); });  // R at x0, G x1, B x2
  CompareOptions o;
  o.pixel_threshold = {0.5f, 0.01f, 0.5f, 0.0f};  // only green is strict
  ErrorMaps maps;
  o.maps = &maps;
  Metrics m = Compare(a.view(), b.view(), o);
  EXPECT_EQ(m.pixels_over, 1u);
  EXPECT_EQ(m.channel[1].pixels_over, 1u);
  ASSERT_EQ(maps.max_abs.size(), 3u);
  for (float v : maps.max_abs) EXPECT_NEAR(v, 20.0 / 255.0, 1e-7);
  EXPECT_EQ(maps.flip.size(), 3u);
  EXPECT_EQ(maps.ssim_luma.size(), 3u);
}

TEST(DiffMetrics, IdenticalImagesAndFormats) {
  uint32_t seed = 7;
  OwnedImage a = Make8(37, 19, 4, [&](int, int, int c) { return c == 3 ? 255 : int(test::Lcg(seed) & 255); });
  // The same pixels with a padded stride: same hash, exact.
  OwnedImage padded(40, 19, 4, PixelType::kU8);
  for (int y = 0; y < 19; ++y) std::memcpy(padded.MutableRow(y), a.view().Row(y), 37 * 4);
  Image view = padded.view().Crop(0, 0, 37, 19);
  Metrics m = Compare(a.view(), view);
  EXPECT_TRUE(m.exact);
  EXPECT_EQ(m.hash_a, m.hash_b);
  EXPECT_EQ(m.pixels_differing, 0u);
  EXPECT_EQ(m.max_x, -1);
  EXPECT_TRUE(std::isinf(m.psnr));
  EXPECT_EQ(m.ssim_luma, 1.0);
  EXPECT_EQ(m.ssim_min, 1.0);
  EXPECT_EQ(m.flip_mean, 0.0);
  EXPECT_EQ(m.channels, 4);

  // 16-bit v*257 holds the same normalized values as 8-bit v; RGB compares as opaque RGBA.
  OwnedImage wide = Make16(37, 19, 4, [&](int x, int y, int c) { return a.view().Row(y)[x * 4 + c] * 257; });
  EXPECT_TRUE(Compare(a.view(), wide.view()).exact);
  EXPECT_NE(HashPixels(a.view()), HashPixels(wide.view()));  // the hash covers the stored format
  OwnedImage rgb = Make8(37, 19, 3, [&](int x, int y, int c) { return a.view().Row(y)[x * 4 + c]; });
  Metrics mr = Compare(rgb.view(), a.view());
  EXPECT_TRUE(mr.exact);
  EXPECT_EQ(mr.channels, 4);
}

TEST(DiffMetrics, AlphaComparedOrIgnored) {
  OwnedImage a = Make8(8, 8, 4, [](int x, int, int c) { return c == 3 ? 255 : x * 30; });
  OwnedImage b = Make8(8, 8, 4, [](int x, int y, int c) { return c == 3 ? (y < 4 ? 255 : 0) : x * 30; });
  Metrics m = Compare(a.view(), b.view());
  EXPECT_FALSE(m.exact);
  EXPECT_EQ(m.pixels_differing, 32u);
  EXPECT_NEAR(m.channel[3].max_abs, 1.0, 1e-7);
  EXPECT_EQ(m.channel[0].max_abs, 0.0);
  EXPECT_EQ(m.channel[0].ssim, 1.0);  // identical channel: exactly 1
  EXPECT_LT(m.channel[3].ssim, 0.9);
  EXPECT_EQ(m.ssim_luma, 1.0);
  EXPECT_EQ(m.flip_mean, 0.0);  // colour identical: the FLIP-style term ignores alpha
  CompareOptions o;
  o.ignore_alpha = true;
  Metrics mi = Compare(a.view(), b.view(), o);
  EXPECT_TRUE(mi.exact);
  EXPECT_EQ(mi.channels, 3);
}

struct SsimCase {
  int w, h, ch;
};

TEST(DiffMetrics, SsimMatchesDirectReference) {
  // Sizes cover 1-pixel images, windows wider than the image, and widths across the column-strip
  // boundaries (strips are 384 columns; 390 leaves a 6-column strip, less than the halo).
  const SsimCase cases[] = {{1, 1, 3}, {5, 7, 3}, {13, 11, 4}, {37, 23, 3}, {390, 14, 4}, {400, 12, 3}};
  for (const SsimCase& sc : cases) {
    uint32_t seed = uint32_t(sc.w * 131 + sc.h);
    // A: smooth pattern plus noise; B: A with structured and random changes, and a flat region
    // (where the variance terms are near zero and float cancellation would show).
    OwnedImage a = Make8(sc.w, sc.h, sc.ch, [&](int x, int y, int c) {
      if (x < sc.w / 4) return 128;
      return int((x * 7 + y * 13 + c * 50 + (test::Lcg(seed) & 31)) & 255);
    });
    OwnedImage b = Make8(sc.w, sc.h, sc.ch, [&](int x, int y, int c) {
      int v = a.view().Row(y)[x * sc.ch + c];
      if (x < sc.w / 4) return y % 3 == 0 ? 131 : 128;
      return std::clamp(v + int(test::Lcg(seed) % 41) - 20 + (x > sc.w / 2 ? 30 : 0), 0, 255);
    });
    auto val = [&](const OwnedImage& img, int x, int y, int c) {
      return img.view().Row(y)[x * sc.ch + c] / 255.0;
    };
    auto luma = [&](const OwnedImage& img, int x, int y) {
      return 0.299 * val(img, x, y, 0) + 0.587 * val(img, x, y, 1) + 0.114 * val(img, x, y, 2);
    };
    const double ref_luma = test::ReferenceSsim(
        sc.w, sc.h, [&](int x, int y) { return luma(a, x, y); }, [&](int x, int y) { return luma(b, x, y); });
    std::vector<double> ref_ch;
    for (int c = 0; c < sc.ch; ++c)
      ref_ch.push_back(test::ReferenceSsim(
          sc.w, sc.h, [&](int x, int y) { return val(a, x, y, c); }, [&](int x, int y) { return val(b, x, y, c); }));
    ForEachKernelSet([&](const char* k) {
      SCOPED_TRACE(std::string(k) + " " + std::to_string(sc.w) + "x" + std::to_string(sc.h));
      Metrics m = Compare(a.view(), b.view());
      EXPECT_NEAR(m.ssim_luma, ref_luma, 1e-6);
      for (int c = 0; c < sc.ch; ++c) EXPECT_NEAR(m.channel[size_t(c)].ssim, ref_ch[size_t(c)], 1e-6) << "channel " << c;
      if (sc.w * sc.h > 1) {
        EXPECT_LT(m.ssim_luma, 0.999);
      }
    });
  }
}

// FLIP-style error of two flat colours, computed directly in double: no edges, and the Gaussian
// of a flat image is the colour itself, so e = remap(HyAB(Lab(a), Lab(b)) ^ 0.7).
double FlatFlip(const double a[3], const double b[3]) {
  auto lab = [](const double s[3], double out[3]) {
    double l[3];
    for (int k = 0; k < 3; ++k) l[k] = s[k] <= 0.04045 ? s[k] / 12.92 : std::pow((s[k] + 0.055) / 1.055, 2.4);
    auto f = [](double t) { return t > 0.008856451679 ? std::cbrt(t) : t / (3 * (6.0 / 29) * (6.0 / 29)) + 4.0 / 29; };
    double X = (0.4124564 * l[0] + 0.3575761 * l[1] + 0.1804375 * l[2]) / 0.95047;
    double Y = 0.2126729 * l[0] + 0.7151522 * l[1] + 0.0721750 * l[2];
    double Z = (0.0193339 * l[0] + 0.1191920 * l[1] + 0.9503041 * l[2]) / 1.08883;
    out[0] = 116 * f(Y) - 16;
    out[1] = 500 * (f(X) - f(Y));
    out[2] = 200 * (f(Y) - f(Z));
  };
  auto hyab = [&](const double p[3], const double q[3]) {
    double lp[3], lq[3];
    lab(p, lp);
    lab(q, lq);
    return std::fabs(lp[0] - lq[0]) + std::hypot(lp[1] - lq[1], lp[2] - lq[2]);
  };
  const double green[3] = {0, 1, 0}, blue[3] = {0, 0, 1};
  // Green and blue here are linear colours; in sRGB encoding 0 and 1 are the same values.
  const double cmax = std::pow(hyab(green, blue), 0.7);
  const double d = std::pow(hyab(a, b), 0.7);
  const double e = d < 0.4 * cmax ? 0.95 / (0.4 * cmax) * d : 0.95 + (d - 0.4 * cmax) / (cmax - 0.4 * cmax) * 0.05;
  return std::min(e, 1.0);
}

TEST(DiffMetrics, FlipStyleOnFlatColours) {
  const int pairs[][6] = {{0, 0, 0, 255, 255, 255}, {128, 128, 128, 130, 128, 128}, {200, 30, 30, 30, 200, 30},
                          {10, 20, 30, 12, 20, 30},  {255, 255, 0, 250, 250, 10}};
  for (const auto& p : pairs) {
    OwnedImage a = Make8(16, 16, 3, [&](int, int, int c) { return p[c]; });
    OwnedImage b = Make8(16, 16, 3, [&](int, int, int c) { return p[3 + c]; });
    const double ca[3] = {p[0] / 255.0, p[1] / 255.0, p[2] / 255.0}, cb[3] = {p[3] / 255.0, p[4] / 255.0, p[5] / 255.0};
    const double want = FlatFlip(ca, cb);
    ForEachKernelSet([&](const char* k) {
      SCOPED_TRACE(k);
      Metrics m = Compare(a.view(), b.view());
      EXPECT_NEAR(m.flip_mean, want, 2e-4) << p[0] << "," << p[1] << "," << p[2];
      EXPECT_NEAR(m.flip_max, want, 2e-4);
    });
  }
}

TEST(DiffMetrics, FlipStyleGrowsWithErrorAndEdges) {
  OwnedImage a = Make8(32, 32, 3, [](int x, int, int) { return x < 16 ? 40 : 200; });  // a vertical edge
  auto shifted = [&](int delta) {
    return Make8(32, 32, 3, [&](int x, int, int) { return (x < 16 ? 40 : 200) + delta; });
  };
  OwnedImage small = shifted(3), big = shifted(30);
  double e_small = Compare(a.view(), small.view()).flip_mean, e_big = Compare(a.view(), big.view()).flip_mean;
  EXPECT_GT(e_small, 0.0);
  EXPECT_GT(e_big, e_small);
  // Same mean colour change, but B loses the edge: the feature term raises the error there.
  OwnedImage blurred = Make8(32, 32, 3, [](int x, int, int) { return x < 15 ? 40 : x > 16 ? 200 : 120; });
  ErrorMaps maps;
  CompareOptions o;
  o.maps = &maps;
  Metrics m = Compare(a.view(), blurred.view(), o);
  EXPECT_GT(maps.flip[size_t(10 * 32 + 16)], maps.flip[size_t(10 * 32 + 8)]);
  EXPECT_EQ(maps.flip[size_t(10 * 32 + 2)], 0.0f);  // far from the change: nothing
  EXPECT_GT(m.flip_max, 0.1);
}

TEST(DiffMetrics, RejectsMismatchedOrInvalidImages) {
  OwnedImage a = Make8(4, 4, 3, [](int, int, int) { return 0; });
  OwnedImage b = Make8(4, 5, 3, [](int, int, int) { return 0; });
  EXPECT_THROW(Compare(a.view(), b.view()), Error);
  Image bad = a.view();
  bad.channels = 2;
  EXPECT_THROW(Compare(bad, a.view()), Error);
  bad = a.view();
  bad.row_stride = 3;
  EXPECT_THROW(Compare(bad, a.view()), Error);
  bad = a.view();
  bad.data = nullptr;
  EXPECT_THROW(Compare(bad, a.view()), Error);
  CompareOptions o;
  o.pixel_threshold[0] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW(Compare(a.view(), a.view(), o), Error);
  EXPECT_THROW(OwnedImage(1 << 16, 1, 3, PixelType::kU8), Error);
}

TEST(DiffMetrics, FloatImagesClampAndCompare) {
  OwnedImage f(2, 1, 3, PixelType::kF32);
  const float px[6] = {0.5f, 2.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(), 0.25f, 1.0f};
  std::memcpy(f.MutableRow(0), px, sizeof(px));
  OwnedImage g(2, 1, 3, PixelType::kF32);
  const float py[6] = {0.5f, 1.0f, 0.0f, 0.0f, 0.25f, 0.75f};
  std::memcpy(g.MutableRow(0), py, sizeof(py));
  Metrics m = Compare(f.view(), g.view());
  EXPECT_EQ(m.pixels_differing, 1u);  // only the last channel differs once clamped; NaN reads as 0
  EXPECT_NEAR(m.channel[2].max_abs, 0.25, 1e-7);
}

}  // namespace
}  // namespace xnt::diff
