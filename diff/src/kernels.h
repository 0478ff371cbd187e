// The inner loops of Compare(), on plain float/double rows. They are compiled three times from
// kernels.inc: for the baseline x86-64 target, with AVX2+FMA and with AVX-512, picked at run time
// by the CPU, so the same binary runs everywhere and uses the widest vectors it can. Results of the
// builds agree to rounding (FMA contracts a*b+c), not bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "xnt/diff/metrics.h"

namespace xnt::diff::kernels {

inline constexpr int kTaps = 11;
inline constexpr int kRadius = kTaps / 2;
inline constexpr int kBlockRows = 4;  // output rows per vertical pass (filter_column4)

struct RowStats {
  float max = 0;
  double sum = 0, sum_sq = 0;
  uint32_t over = 0;
};

struct FlipInputs {
  // Gaussian-filtered display-encoded R, G, B of the two images at this row.
  const double* ra; const double* ga; const double* ba;
  const double* rb; const double* gb; const double* bb;
  // Sobel edge magnitudes of the two images' luma at this row.
  const float* ea;
  const float* eb;
  float cmax;      // HyAB(green, blue)^qc
  float* scratch;  // 8 * n floats
};

struct Kernels {
  const char* name;
  // Horizontal pass in chunks of 8: out[c * stride + i] = sum_k w[k] in[8c + i + k], i < 8, c < chunks
  // (`in` holds 8 * chunks + 10 values).
  void (*filter_row)(const double* in, double* out, int chunks, size_t stride, const double* w);
  // Vertical pass over rows stored in chunks of 8 (row k's chunk c at rows[k] + c * stride):
  // outs[j][8c + i] = sum_k w[k] rows[j + k][chunk c, i] for j < count (1..4; count + 10 rows).
  void (*filter_column)(const double* const* rows, double* const* outs, int count, int chunks, size_t stride,
                        const double* w);
  // The same with count = 4 (14 rows).
  void (*filter_column4)(const double* const* rows, double* const* outs, int chunks, size_t stride, const double* w);
  // The SSIM moments of a row pair in double: x, y and, when sq/xy are not null, x^2 + y^2, xy.
  void (*moments)(const float* a, const float* b, double* mx, double* my, double* sq, double* xy, int n);
  // The moments of the BT.601 luma of R, G, B rows c[0..2] (A) and c[3..5] (B), in double; mx/my may
  // be null.
  void (*luma_moments)(const float* const* c, double* mx, double* my, double* sq, double* xy, int n);
  // l = 0.299 r + 0.587 g + 0.114 b in double.
  void (*luma_mix)(const double* r, const double* g, const double* b, double* l, int n);
  // Per-pixel SSIM from the filtered moments into out; returns their sum.
  double (*ssim_row)(const double* mx, const double* my, const double* exxyy, const double* exy, float* out, int n);
  // Interleaved row (type 0 = 8-bit, 1 = 16-bit, 2 = float; in_ch values per pixel) into nc float
  // planes, plane p at planes + p * stride, as Image::RowToFloat normalizes; missing alpha is 1.
  void (*unpack)(const uint8_t* src, int type, int in_ch, int nc, float* planes, size_t stride, int n);
  // BT.601 luma.
  void (*luma)(const float* r, const float* g, const float* b, float* l, int n);
  // |a-b| statistics of one channel row; sets over[i] |= (d > threshold), amax[i] = max(amax[i], d).
  RowStats (*error_row)(const float* a, const float* b, int n, float threshold, uint8_t* over, float* amax);
  // Counts of over[i] != 0 and amax[i] > 0; returns max amax.
  float (*row_summary)(const uint8_t* over, const float* amax, int n, uint32_t* over_count, uint32_t* diff_count);
  // FLIP-style error of one row into out[0..n).
  void (*flip_row)(const FlipInputs& in, float* out, int n);
  // Sum of v (returned) and its maximum (*max; values are >= 0).
  double (*sum_max)(const float* v, int n, float* max);
  // Sobel gradient magnitude of rows[1] (rows y-1, y, y+1), clamped at both array ends.
  void (*sobel)(const float* const* rows, float* out, int n);
};

// The widest table the CPU runs up to `cap`: AVX-512, AVX2+FMA, else the baseline.
const Kernels& Get(KernelSet cap);
const Kernels& Baseline();

}  // namespace xnt::diff::kernels
