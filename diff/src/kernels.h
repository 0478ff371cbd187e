// The inner loops of Compare(), on plain float/double rows. They are compiled three times from
// kernels.inc: for the baseline x86-64 target, with AVX2+FMA and with AVX-512, picked at run time
// by the CPU, so the same binary runs everywhere and uses the widest vectors it can. Results of the
// builds agree to rounding (FMA contracts a*b+c), not bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>

namespace xnt::diff::kernels {

inline constexpr int kTaps = 11;
inline constexpr int kRadius = kTaps / 2;

struct RowStats {
  float max = 0;
  double sum = 0, sum_sq = 0;
  uint32_t over = 0;
};

struct FlipInputs {
  // Gaussian-filtered display-encoded R, G, B of the two images at this row.
  const float* ra; const float* ga; const float* ba;
  const float* rb; const float* gb; const float* bb;
  // Sobel edge magnitudes of the two images' luma at this row.
  const float* ea;
  const float* eb;
  float cmax;      // HyAB(green, blue)^qc
  float* scratch;  // 8 * n floats
};

struct Kernels {
  const char* name;
  // out[x] = sum_k w[k] in[x+k]; `in` has kRadius padding on each side.
  void (*filter_row)(const double* in, double* out, int n, const double* w);
  // Vertical pass over 11 rows of the two images: mean x, mean y, E[x^2 + y^2], E[xy].
  void (*filter_column)(const float* const* xa, const float* const* xb, double* mx, double* my, double* sq,
                        double* xy, int n, const double* w);
  // Per-pixel SSIM from the filtered moments into out; returns their sum.
  double (*ssim_row)(const double* mx, const double* my, const double* exxyy, const double* exy, double* out, int n);
  // |a-b| statistics of one channel row; sets over[i] |= (d > threshold), amax[i] = max(amax[i], d).
  RowStats (*error_row)(const float* a, const float* b, int n, float threshold, uint8_t* over, float* amax);
  // FLIP-style error of one row into out[0..n).
  void (*flip_row)(const FlipInputs& in, float* out, int n);
  double (*sum)(const float* v, int n);
  // Sobel gradient magnitude of rows[1] (rows y-1, y, y+1), clamped at both array ends.
  void (*sobel)(const float* const* rows, float* out, int n);
};

// The widest table the CPU runs: AVX-512, AVX2+FMA, else the baseline (XNT_DIFF_KERNELS=avx2 or
// =baseline caps it).
const Kernels& Get();
const Kernels& Baseline();

}  // namespace xnt::diff::kernels
