// Compare(): every metric of one pair of equally sized images, in a single pass over bands of rows
// (memory O(width x 11), never O(image)). Values are normalized: a channel runs 0..1, so an
// error of one 8-bit step is 1/255 = 0.00392.
//
// What is computed (docs/diff.md has the long form):
//   - hash_a / hash_b: XXH3-64 of each image's pixels (header: width, height, channels, type; then
//     the packed rows, no row padding).
//   - per compared channel: max and mean absolute error, MSE, PSNR = 10 log10(1 / MSE) (infinite
//     when MSE is 0), count of pixels whose error exceeds that channel's threshold, SSIM.
//   - pixels_over: pixels where ANY compared channel exceeds its threshold.
//   - SSIM (Wang et al. 2004): 11x11 Gaussian window, sigma 1.5, C1 = 0.01^2, C2 = 0.03^2 (L = 1),
//     clamp-to-edge at the borders, averaged over every pixel; on luma (BT.601 weights of the
//     stored values) and per channel.
//   - FLIP-style error (NOT NVIDIA's FLIP; see docs/diff.md): colour term from a Gaussian-filtered
//     CIELAB HyAB difference, feature term from a Sobel edge difference, combined as
//     e_c ^ (1 - e_f); mean and max over pixels.
// Alpha is compared unless ignore_alpha; an RGB image compared with an RGBA one counts as opaque.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "xnt/diff/image.h"

namespace xnt::diff {

// Per-pixel maps, filled when CompareOptions::maps is set (this is O(image) memory, for reports).
struct ErrorMaps {
  int width = 0, height = 0;
  std::vector<float> max_abs;    // max over compared channels of |a - b|
  std::vector<float> flip;       // FLIP-style error, 0..1
  std::vector<float> ssim_luma;  // SSIM of luma at each pixel
};

// Which build of the inner loops Compare() may use: the widest the CPU runs (AVX-512, AVX2+FMA,
// else baseline x86-64), or at most AVX2, or the baseline. Capping rules out FMA rounding when two
// machines' SSIM / FLIP-style values disagree in the last bits; the tests run every build.
enum class KernelSet : uint8_t { kWidest, kAvx2, kBaseline };

struct CompareOptions {
  bool ignore_alpha = false;
  KernelSet kernels = KernelSet::kWidest;
  // A channel's error counts as "over" when it is strictly greater than its threshold.
  std::array<float, 4> pixel_threshold = {0, 0, 0, 0};
  bool ssim = true;
  bool flip = true;
  ErrorMaps* maps = nullptr;
};

struct ChannelMetrics {
  double max_abs = 0;
  double mean_abs = 0;
  double mse = 0;
  double psnr = std::numeric_limits<double>::infinity();
  double ssim = 1;
  uint64_t pixels_over = 0;
};

struct Metrics {
  int width = 0, height = 0;
  int channels = 0;  // compared channels: 3 (RGB) or 4 (RGBA)
  uint64_t hash_a = 0, hash_b = 0;
  bool exact = false;  // every compared channel value equal (after normalization to 0..1)
  std::array<ChannelMetrics, 4> channel{};
  double max_abs = 0;   // over compared channels
  double mean_abs = 0;  // mean over compared channels and pixels
  int max_x = -1, max_y = -1;  // a pixel where max_abs occurs (-1 when exact)
  double psnr = std::numeric_limits<double>::infinity();  // from the MSE of all compared channels
  double min_channel_psnr = std::numeric_limits<double>::infinity();
  uint64_t pixels_differing = 0;  // pixels with any nonzero channel error
  uint64_t pixels_over = 0;       // pixels with any channel over its threshold
  double ssim_luma = 1;
  double ssim_min = 1;  // the lowest of ssim_luma and the per-channel SSIMs
  double flip_mean = 0, flip_max = 0;
  bool has_ssim = false, has_flip = false;
  size_t work_bytes = 0;  // the band buffers Compare allocated (the bounded working memory)
  const char* kernels = "";  // which kernel build ran: "avx2" or "baseline"
};

// Throws Error when the views are invalid or their sizes differ (match sizes first: resample.h).
Metrics Compare(const Image& a, const Image& b, const CompareOptions& options = {});

// XXH3-64 of an image's pixels as described above.
uint64_t HashPixels(const Image& image);

}  // namespace xnt::diff
