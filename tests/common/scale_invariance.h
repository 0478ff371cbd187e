// How close a frame rendered at a resolution scale is to the 1x expected image: the scaled frame
// box-filtered back to guest pixels (each guest pixel the mean of its S x T host pixels), and the
// samples whose scaled frames cannot come back to the 1x image on any path.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>

#include "xnt/gpu/front_buffer.h"
#include "xnt/samples/samples.h"

namespace xnt::test {

// Samples whose downsampled frame cannot match the 1x image, and why.
inline const std::map<std::string, std::string> kNotScaleInvariant = {
    {"raster_lines_list_strip_loop",
     "diagonal lines with ends at quarter pixels: the finer picture covers parts of guest pixels "
     "the 1x one leaves whole or empty"},
    {"edram_float16_above_65504_resolve",
     "reads 64bpp resolve bits as 32bpp texels at another pitch: the scaled copy's texels "
     "do not line up with the guest ones"},
    {"raster_wide_lines",
     "wide diagonal lines with ends at quarter pixels: the finer picture covers parts of guest "
     "pixels the 1x one leaves whole or empty"},
    {"texel_boundaries_256_to_640",
     "point sampling magnified 2.5x: host pixel centres sit at other fractions of a texel than "
     "guest ones, so pixels beside a texel boundary show the neighbouring texel"},
    {"texel_boundaries_1_to_2",
     "point sampling magnified 2x with guest pixel centres on texel boundaries: a host pixel "
     "centre is on either side of the boundary"},
    {"texel_aniso_magnified_point",
     "point sampling magnified 2.5x: host pixel centres sit at other fractions of a texel"},
    {"interp_param_gen",
     "its line stays one host pixel wide; the position it shows moves 1/S guest pixel per host "
     "pixel (gpu::ParamGenPosition)"},
    {"raster_point_sprite_mips",
     "a sprite S host pixels per guest pixel moves its coordinate 1/S as far per host pixel: "
     "the mip level drops by log2(S), as rendering at a higher resolution does"},
    {"texfetch_lod_queries",
     "getCompTexLOD and getGradients measure per host pixel: at S host pixels per guest pixel "
     "lambda drops by log2(S) and the gradients by 1/S, as rendering at a higher resolution does"},
};

// PSNR in dB of the box-downsampled RGB of `scaled` (sx x sy host pixels per guest pixel) against
// `want`; infinity when identical.
inline double DownsampledPsnr(const gpu::SwapImage& scaled, uint32_t sx, uint32_t sy,
                              const samples::Image& want) {
  double squared = 0.0;
  for (uint32_t y = 0; y < want.height; ++y) {
    for (uint32_t x = 0; x < want.width; ++x) {
      for (uint32_t c = 0; c < 3; ++c) {
        uint32_t sum = 0;
        for (uint32_t j = 0; j < sy; ++j) {
          for (uint32_t i = 0; i < sx; ++i) {
            sum += scaled.rgba[(size_t(y * sy + j) * scaled.width + x * sx + i) * 4 + c];
          }
        }
        const double d = double(sum) / double(sx * sy) -
                         double(want.rgba[(size_t(y) * want.width + x) * 4 + c]);
        squared += d * d;
      }
    }
  }
  const double mse = squared / (double(want.width) * want.height * 3);
  return mse == 0.0 ? INFINITY : 10.0 * std::log10(255.0 * 255.0 / mse);
}

// The decimation check: at 3x3, 1x3 and 3x1 the middle host pixel of each S x T block has its
// centre at (S * (x + 1/2), T * (y + 1/2)), the guest pixel centre scaled, so it samples what the
// guest pixel samples at 1x; keeping only those pixels of a scaled frame must give the 1x frame.
// Counts the guest pixels whose kept host pixel differs from `one` by more than `lsb` in any
// channel (alpha included: the front buffer's bits). Odd scales only (an even one has no middle).
inline size_t DecimatedMismatches(const gpu::SwapImage& scaled, uint32_t sx, uint32_t sy,
                                  const gpu::SwapImage& one, int lsb = 1) {
  size_t off = 0;
  for (uint32_t y = 0; y < one.height; ++y) {
    for (uint32_t x = 0; x < one.width; ++x) {
      const uint8_t* a = &scaled.rgba[(size_t(y * sy + sy / 2) * scaled.width + x * sx + sx / 2) * 4];
      const uint8_t* b = &one.rgba[(size_t(y) * one.width + x) * 4];
      for (int c = 0; c < 4; ++c) {
        if (std::abs(int(a[c]) - int(b[c])) > lsb) {
          ++off;
          break;
        }
      }
    }
  }
  return off;
}

// Samples whose scaled frames cannot pass the decimation check on any path, and why; with
// `both_axes` only at scales that enlarge both axes (3x3), the others are still checked.
struct DecimationException {
  std::string why;
  bool both_axes = false;
};
inline const std::map<std::string, DecimationException> kNotDecimationInvariant = {
    // Samples that texture from a resolve of their own rendering: the scaled resolve copy holds
    // S x T texels per guest texel, so a filtered or compared fetch reads other texels.
    {"edram_shadow_map_three_pass",
     {"frame 1 samples the resolved shadow map of frame 0 (a scaled resolve copy): the depth "
      "compare's bilinear footprint covers host texels, not guest ones", false}},
    {"edram_float16_above_65504_resolve",
     {"reads its own 64bpp resolve bits as 32bpp texels at another pitch: the scaled copy's "
      "texels do not line up with the guest ones", false}},
    // A sprite S host pixels per guest pixel moves its coordinate 1/S as far per host pixel: the
    // texture LOD drops by log2(S) on the axis with the largest footprint, as rendering at a
    // higher resolution does (finer mips are the point of scaling). 1x3 and 3x1 leave the other
    // axis's footprint, the larger, unchanged, so they are checked.
    {"raster_point_sprite_mips",
     {"its picture is the mip level the sprite's screen size selects: at 3x3 a finer one", true}},
};

// The scales the decimation check runs at: a middle host pixel on both axes.
inline constexpr std::pair<uint32_t, uint32_t> kDecimationScales[] = {{3, 3}, {1, 3}, {3, 1}};

// At most this share of a frame's pixels may miss the decimation check (edges that pass within
// the 1/256-pixel snapping of a sample position round differently at another scale).
inline constexpr double kDecimationTolerance = 0.005;

// Pixels (any channel) in which `got` differs from `want`; every pixel when the sizes differ.
inline size_t DifferingPixels(const gpu::SwapImage& got, const samples::Image& want) {
  if (got.width != want.width || got.height != want.height) return size_t(want.width) * want.height;
  size_t n = 0;
  for (size_t i = 0; i + 3 < want.rgba.size(); i += 4) {
    n += got.rgba[i] != want.rgba[i] || got.rgba[i + 1] != want.rgba[i + 1] ||
         got.rgba[i + 2] != want.rgba[i + 2] || got.rgba[i + 3] != want.rgba[i + 3];
  }
  return n;
}

}  // namespace xnt::test
