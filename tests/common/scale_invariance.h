// How close a frame rendered at a resolution scale is to the 1x expected image: the scaled frame
// box-filtered back to guest pixels (each guest pixel the mean of its S x T host pixels), and the
// samples whose scaled frames cannot come back to the 1x image on any path.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "xnt/gpu/front_buffer.h"
#include "xnt/samples/samples.h"

namespace xnt::test {

// Samples whose downsampled frame cannot match the 1x image, and why.
inline const std::map<std::string, std::string> kNotScaleInvariant = {
    {"raster_lines_list_strip_loop", "lines stay one host pixel wide"},
    {"edram_float16_above_65504_resolve",
     "reads 64bpp resolve bits as 32bpp texels at another pitch: the scaled copy's texels "
     "do not line up with the guest ones"},
    {"raster_wide_lines", "line widths stay in host pixels (PA_SU_LINE_CNTL is not scaled)"},
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
    {"clip_user_planes",
     "diagonal triangle edges on a 64x32 frame: host pixels split along them, and the box "
     "filter's partial coverage there is too large a share of so small a frame for 40 dB"},
    {"clip_vertex_kill",
     "diagonal triangle edges on a 64x32 frame (see clip_user_planes), and lines stay one host "
     "pixel wide"},
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

}  // namespace xnt::test
