// Compare(): errors, PSNR, thresholds and hashes against hand-computed values; SSIM against a
// direct O(N x 121) reference; the FLIP-style term against a direct evaluation on flat colours.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>
#include <limits>

#include "diff_test_util.h"
#include "xnt/base/error.h"
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
  ForEachKernelSet([&](const char* k, const CompareOptions& base) {
    SCOPED_TRACE(k);
    CompareOptions o = base;
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

// Every 8-bit and 16-bit value normalizes to exactly float(v) / 255 or / 65535 (the unpacking
// kernels may compute it without a division): against a float image holding those quotients,
// Compare finds no difference at all, in every kernel build.
TEST(DiffMetrics, EveryIntegerValueNormalizesExactly) {
  OwnedImage u8 = Make8(256, 1, 3, [](int x, int, int) { return x; });
  OwnedImage u16 = Make16(256, 256, 3, [](int x, int y, int) { return y * 256 + x; });
  OwnedImage f8(256, 1, 3, PixelType::kF32), f16(256, 256, 3, PixelType::kF32);
  for (int x = 0; x < 256; ++x)
    for (int c = 0; c < 3; ++c) {
      const float v = float(x) / 255.0f;
      std::memcpy(f8.MutableRow(0) + (x * 3 + c) * 4, &v, 4);
    }
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x)
      for (int c = 0; c < 3; ++c) {
        const float v = float(y * 256 + x) / 65535.0f;
        std::memcpy(f16.MutableRow(y) + (x * 3 + c) * 4, &v, 4);
      }
  ForEachKernelSet([&](const char* k, const CompareOptions& base) {
    SCOPED_TRACE(k);
    Metrics m8 = Compare(u8.view(), f8.view(), base);
    EXPECT_TRUE(m8.exact);
    EXPECT_EQ(m8.pixels_differing, 0u);
    Metrics m16 = Compare(u16.view(), f16.view(), base);
    EXPECT_TRUE(m16.exact);
    EXPECT_EQ(m16.pixels_differing, 0u);
    // And a one-step change is seen: 16-bit 1 vs 0.
    Metrics step = Compare(u16.view().Crop(0, 0, 2, 1), f16.view().Crop(1, 0, 2, 1), base);
    EXPECT_EQ(step.pixels_differing, 2u);
    EXPECT_EQ(step.max_abs, double(1.0f / 65535.0f));
  });
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
    ForEachKernelSet([&](const char* k, const CompareOptions& base) {
      SCOPED_TRACE(std::string(k) + " " + std::to_string(sc.w) + "x" + std::to_string(sc.h));
      Metrics m = Compare(a.view(), b.view(), base);
      EXPECT_NEAR(m.ssim_luma, ref_luma, 1e-6);
      for (int c = 0; c < sc.ch; ++c) EXPECT_NEAR(m.channel[size_t(c)].ssim, ref_ch[size_t(c)], 1e-6) << "channel " << c;
      if (sc.w * sc.h > 1) {
        EXPECT_LT(m.ssim_luma, 0.999);
      }
    });
  }
}

// CIELAB (D65) of a display-encoded sRGB colour, in double: the definition the FLIP-style term uses.
void SrgbToLab(const double s[3], double out[3]) {
  double l[3];
  for (int k = 0; k < 3; ++k) {
    const double v = std::clamp(s[k], 0.0, 1.0);
    l[k] = v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  }
  auto f = [](double t) { return t > 0.008856451679 ? std::cbrt(t) : t / (3 * (6.0 / 29) * (6.0 / 29)) + 4.0 / 29; };
  double X = (0.4124564 * l[0] + 0.3575761 * l[1] + 0.1804375 * l[2]) / 0.95047;
  double Y = 0.2126729 * l[0] + 0.7151522 * l[1] + 0.0721750 * l[2];
  double Z = (0.0193339 * l[0] + 0.1191920 * l[1] + 0.9503041 * l[2]) / 1.08883;
  out[0] = 116 * f(Y) - 16;
  out[1] = 500 * (f(X) - f(Y));
  out[2] = 200 * (f(Y) - f(Z));
}

double HyAB(const double p[3], const double q[3]) {
  double lp[3], lq[3];
  SrgbToLab(p, lp);
  SrgbToLab(q, lq);
  return std::fabs(lp[0] - lq[0]) + std::hypot(lp[1] - lq[1], lp[2] - lq[2]);
}

// FLIP's colour remap: hyab^0.7, linear to 0.95 at 0.4 cmax, then linear to 1 at cmax, clamped.
double FlipColour(double hyab) {
  const double green[3] = {0, 1, 0}, blue[3] = {0, 0, 1};
  // Green and blue here are linear colours; in sRGB encoding 0 and 1 are the same values.
  const double cmax = std::pow(HyAB(green, blue), 0.7);
  const double d = std::pow(hyab, 0.7);
  const double e = d < 0.4 * cmax ? 0.95 / (0.4 * cmax) * d : 0.95 + (d - 0.4 * cmax) / (cmax - 0.4 * cmax) * 0.05;
  return std::min(e, 1.0);
}

// FLIP-style error of two flat colours, computed directly in double: no edges, and the Gaussian
// of a flat image is the colour itself, so e = remap(HyAB(Lab(a), Lab(b)) ^ 0.7).
double FlatFlip(const double a[3], const double b[3]) { return FlipColour(HyAB(a, b)); }

TEST(DiffMetrics, FlipStyleOnFlatColours) {
  const int pairs[][6] = {{0, 0, 0, 255, 255, 255}, {128, 128, 128, 130, 128, 128}, {200, 30, 30, 30, 200, 30},
                          {10, 20, 30, 12, 20, 30},  {255, 255, 0, 250, 250, 10}};
  for (const auto& p : pairs) {
    OwnedImage a = Make8(16, 16, 3, [&](int, int, int c) { return p[c]; });
    OwnedImage b = Make8(16, 16, 3, [&](int, int, int c) { return p[3 + c]; });
    const double ca[3] = {p[0] / 255.0, p[1] / 255.0, p[2] / 255.0}, cb[3] = {p[3] / 255.0, p[4] / 255.0, p[5] / 255.0};
    const double want = FlatFlip(ca, cb);
    ForEachKernelSet([&](const char* k, const CompareOptions& base) {
      SCOPED_TRACE(k);
      Metrics m = Compare(a.view(), b.view(), base);
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

// Every metric of the fast path (band/strip order, vector kernels, float lanes) against a direct
// evaluation of the definitions on random images: per-pixel errors in the same float arithmetic
// summed in double, SSIM by the full 11x11 window per pixel, the FLIP-style term per pixel in
// double (Gaussian of R, G, B, sRGB -> CIELAB, HyAB, Sobel on luma). 613 columns cross a strip
// boundary (384) with a partial strip, 77 rows leave a partial block of the 4-row vertical pass.
// Exact: max error and where, differing / over-threshold counts. Sums: float lanes of at most 48
// values per row against double, relative 2e-6 (the bound for 48 float additions; seen: 2e-8).
// SSIM: 1e-6 (seen: 1e-9). FLIP-style mean and max: relative 5e-5 (seen: up to 1.3e-5, and the
// same before the speed work; the colour transform runs in float: CIELAB a* and b* are 500 and 200
// times a difference of cube roots, and e = e_c^(1 - e_f) with e_f = sqrt(.) is steep where the
// float luma's two edge magnitudes nearly agree).
struct RefCase {
  int w, h, ch;
  PixelType type;
};

TEST(DiffMetrics, FastPathMatchesDirectReferenceOnRandomImages) {
  const RefCase cases[] = {{613, 77, 4, PixelType::kU8}, {401, 21, 3, PixelType::kU16}, {9, 6, 3, PixelType::kU8}};
  for (const RefCase& rc : cases) {
    const int w = rc.w, h = rc.h, nc = rc.ch;
    const bool wide = rc.type == PixelType::kU16;
    const int top = wide ? 65535 : 255;
    uint32_t seed = uint32_t(w * 7919 + h);
    std::vector<int> va(size_t(w) * h * nc), vb(va.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < nc; ++c) {
          const size_t i = (size_t(y) * w + x) * nc + c;
          // A: gradient + noise, a flat band, a hard edge; B: A changed by region (identical, small
          // noise, large shift, alpha holes).
          int v = (x * 3 + y * 5 + c * 40) % 256 + int(test::Lcg(seed) % 7);
          if (y % 20 < 4) v = 90;
          if (x > w * 3 / 4) v = (x / 5 + y / 5) % 2 ? 240 : 20;
          v = std::clamp(v, 0, 255) * top / 255;
          va[i] = v;
          int d = 0;
          if (x % 97 < 40) d = int(test::Lcg(seed) % 5) - 2;
          else if (x % 97 < 50) d = 60;
          if (c == 3 && (x * y) % 13 == 0) d = -v;
          vb[i] = std::clamp(v + d * (wide ? 257 : 1), 0, top);
        }
    auto make = [&](const std::vector<int>& v) {
      return wide ? test::Make16(w, h, nc, [&](int x, int y, int c) { return v[(size_t(y) * w + x) * nc + c]; })
                  : test::Make8(w, h, nc, [&](int x, int y, int c) { return v[(size_t(y) * w + x) * nc + c]; });
    };
    OwnedImage a = make(va), b = make(vb);
    // Normalized as Compare normalizes (float division).
    auto fa = [&](int x, int y, int c) { return float(va[(size_t(y) * w + x) * nc + c]) / float(top); };
    auto fb = [&](int x, int y, int c) { return float(vb[(size_t(y) * w + x) * nc + c]) / float(top); };
    const std::array<float, 4> thr = {0.01f, 0.0f, 0.1f, 0.5f};

    // Errors.
    float max_all = 0;
    int max_x = -1, max_y = -1;
    uint64_t differing = 0, over = 0, ch_over[4] = {};
    double sum[4] = {}, sq[4] = {};
    float ch_max[4] = {};
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        float px = 0;
        bool any_over = false;
        for (int c = 0; c < nc; ++c) {
          const float d = std::fabs(fa(x, y, c) - fb(x, y, c));
          px = std::max(px, d);
          ch_max[c] = std::max(ch_max[c], d);
          sum[c] += d;
          sq[c] += double(d) * d;
          if (d > thr[size_t(c)]) {
            ++ch_over[c];
            any_over = true;
          }
        }
        differing += px > 0;
        over += any_over;
        if (px > max_all) {
          max_all = px;
          max_x = x;
          max_y = y;
        }
      }
    const double n = double(w) * h;
    // SSIM on luma and per channel.
    auto luma = [&](auto& f, int x, int y) { return 0.299 * f(x, y, 0) + 0.587 * f(x, y, 1) + 0.114 * f(x, y, 2); };
    const double ssim_luma = test::ReferenceSsim(
        w, h, [&](int x, int y) { return luma(fa, x, y); }, [&](int x, int y) { return luma(fb, x, y); });
    double ssim_ch[4];
    for (int c = 0; c < nc; ++c)
      ssim_ch[c] = test::ReferenceSsim(
          w, h, [&](int x, int y) { return double(fa(x, y, c)); }, [&](int x, int y) { return double(fb(x, y, c)); });
    // FLIP-style term.
    double g[11], gs = 0;
    for (int i = 0; i < 11; ++i) gs += g[i] = std::exp(-double((i - 5) * (i - 5)) / (2 * 1.5 * 1.5));
    for (double& v : g) v /= gs;
    auto cx = [&](int x) { return std::clamp(x, 0, w - 1); };
    auto cy = [&](int y) { return std::clamp(y, 0, h - 1); };
    auto sobel = [&](auto& f, int x, int y) {
      auto l = [&](int xx, int yy) { return luma(f, cx(xx), cy(yy)); };
      const double gx = (l(x + 1, y - 1) + 2 * l(x + 1, y) + l(x + 1, y + 1)) - (l(x - 1, y - 1) + 2 * l(x - 1, y) + l(x - 1, y + 1));
      const double gy = (l(x - 1, y + 1) + 2 * l(x, y + 1) + l(x + 1, y + 1)) - (l(x - 1, y - 1) + 2 * l(x, y - 1) + l(x + 1, y - 1));
      return std::sqrt(gx * gx + gy * gy) * 0.25;
    };
    double flip_sum = 0, flip_max = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        double ma[3] = {}, mb[3] = {};
        for (int j = 0; j < 11; ++j)
          for (int i = 0; i < 11; ++i)
            for (int c = 0; c < 3; ++c) {
              ma[c] += g[i] * g[j] * fa(cx(x + i - 5), cy(y + j - 5), c);
              mb[c] += g[i] * g[j] * fb(cx(x + i - 5), cy(y + j - 5), c);
            }
        const double hyab = HyAB(ma, mb);
        const double ec = hyab > 0 ? FlipColour(hyab) : 0.0;
        const double ef = std::sqrt(std::min(std::fabs(sobel(fa, x, y) - sobel(fb, x, y)) / std::sqrt(2.0), 1.0));
        const double e = ec > 0 ? std::pow(ec, 1 - ef) : 0.0;
        flip_sum += e;
        flip_max = std::max(flip_max, e);
      }

    ForEachKernelSet([&](const char* k, const CompareOptions& base) {
      SCOPED_TRACE(std::string(k) + " " + std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(nc));
      CompareOptions o = base;
      o.pixel_threshold = thr;
      Metrics m = Compare(a.view(), b.view(), o);
      ASSERT_EQ(m.channels, nc);
      EXPECT_EQ(m.max_abs, double(max_all));
      EXPECT_EQ(m.max_x, max_x);
      EXPECT_EQ(m.max_y, max_y);
      EXPECT_EQ(m.pixels_differing, differing);
      EXPECT_EQ(m.pixels_over, over);
      double mse_total = 0;
      for (int c = 0; c < nc; ++c) {
        const ChannelMetrics& cm = m.channel[size_t(c)];
        EXPECT_EQ(cm.max_abs, double(ch_max[c])) << c;
        EXPECT_EQ(cm.pixels_over, ch_over[c]) << c;
        EXPECT_NEAR(cm.mean_abs, sum[c] / n, 2e-6 * sum[c] / n) << c;
        EXPECT_NEAR(cm.mse, sq[c] / n, 2e-6 * sq[c] / n) << c;
        EXPECT_NEAR(cm.ssim, ssim_ch[c], 1e-6) << c;
        mse_total += sq[c] / n;
      }
      EXPECT_NEAR(m.psnr, 10 * std::log10(nc / mse_total), 1e-5);
      EXPECT_NEAR(m.ssim_luma, ssim_luma, 1e-6);
      EXPECT_NEAR(m.flip_mean, flip_sum / n, 5e-5 * flip_sum / n);
      EXPECT_NEAR(m.flip_max, flip_max, 5e-5 * flip_max);
      EXPECT_GT(m.flip_mean, 0.0);
      EXPECT_LT(m.ssim_luma, 0.999);
    });
  }
}

// SSIM alone and the FLIP-style term alone (CompareOptions::ssim / ::flip) take shorter paths
// through the band pass (FLIP alone filters only the means); they give the same values as both
// together, with the other metric reported as absent. Includes a pair whose only difference is in
// one colour channel (the other planes skip filtering) and one that differs in alpha only.
TEST(DiffMetrics, SsimOnlyAndFlipOnlyMatchBoth) {
  uint32_t seed = 99;
  OwnedImage a = Make8(420, 23, 4, [&](int x, int y, int c) {
    return c == 3 ? 255 : int((x * 5 + y * 3 + c * 60 + (test::Lcg(seed) & 15)) & 255);
  });
  auto variant = [&](int which) {
    return Make8(420, 23, 4, [&](int x, int y, int c) {
      const int v = a.view().Row(y)[x * 4 + c];
      if (which == 0) return std::clamp(v + int(test::Lcg(seed) % 9) - 4, 0, 255);  // every channel
      if (which == 1) return c == 1 && x % 7 < 3 ? 255 - v : v;                       // green only
      return c == 3 && (x + y) % 5 == 0 ? 0 : v;                                       // alpha only
    });
  };
  for (int which = 0; which < 3; ++which) {
    OwnedImage b = variant(which);
    ForEachKernelSet([&](const char* k, const CompareOptions& base) {
      SCOPED_TRACE(std::string(k) + " variant " + std::to_string(which));
      const Metrics both = Compare(a.view(), b.view(), base);
      CompareOptions so = base;
      so.flip = false;
      const Metrics s = Compare(a.view(), b.view(), so);
      CompareOptions fo = base;
      fo.ssim = false;
      const Metrics f = Compare(a.view(), b.view(), fo);
      EXPECT_TRUE(s.has_ssim);
      EXPECT_FALSE(s.has_flip);
      EXPECT_FALSE(f.has_ssim);
      EXPECT_TRUE(f.has_flip);
      EXPECT_EQ(s.ssim_luma, both.ssim_luma);
      for (int c = 0; c < 4; ++c) EXPECT_EQ(s.channel[size_t(c)].ssim, both.channel[size_t(c)].ssim) << c;
      EXPECT_EQ(f.flip_mean, both.flip_mean);
      EXPECT_EQ(f.flip_max, both.flip_max);
      EXPECT_EQ(s.max_abs, both.max_abs);
      EXPECT_EQ(f.pixels_differing, both.pixels_differing);
      if (which == 0) {
        EXPECT_LT(both.ssim_luma, 0.999);
        EXPECT_GT(both.flip_mean, 0.0);
      }
      if (which == 1) {
        EXPECT_EQ(both.channel[0].ssim, 1.0);
        EXPECT_LT(both.channel[1].ssim, 0.9);
        EXPECT_LT(both.ssim_luma, 0.99);
        EXPECT_GT(both.flip_mean, 0.0);
      }
      if (which == 2) {
        EXPECT_EQ(both.ssim_luma, 1.0);
        EXPECT_LT(both.channel[3].ssim, 0.9);
        EXPECT_EQ(both.flip_mean, 0.0);
      }
    });
  }
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
