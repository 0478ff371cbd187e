// How close a frame rendered at a resolution scale is to the 1x expected image: the scaled frame
// box-filtered back to guest pixels (each guest pixel the mean of its S x T host pixels), and the
// samples whose scaled frames cannot come back to the 1x image on any path.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "xnt/format/reader.h"
#include "xnt/gpu/front_buffer.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
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
    {"raster_polygon_modes",
     "triangles' edges as lines and vertices as sprites, at quarter pixels: the finer picture "
     "covers parts of guest pixels the 1x one leaves whole or empty"},
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
    {"clip_rectangle_lists",
     "diagonal clip-plane edges on a 64x32 frame (see clip_user_planes)"},
    {"clip_vertex_kill",
     "diagonal triangle edges on a 64x32 frame (see clip_user_planes), and lines stay one host "
     "pixel wide"},
    {"raster_point_sprite_mips",
     "sprite edges at k + 0.625 guest pixels: at 2x a host pixel centre lies on each side, so "
     "the box filter's partial coverage there is too large a share of so small a frame for 40 dB"},
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

// Samples whose scaled frames cannot pass the decimation check on any path, and why.
inline const std::map<std::string, std::string> kNotDecimationInvariant = {
    // Samples that texture from a resolve of their own rendering: the scaled resolve copy holds
    // S x T texels per guest texel, so a filtered or compared fetch reads other texels.
    {"edram_shadow_map_three_pass",
     "frame 1 samples the resolved shadow map of frame 0 (a scaled resolve copy): the depth "
     "compare's bilinear footprint covers host texels, not guest ones"},
    {"edram_float16_above_65504_resolve",
     "reads its own 64bpp resolve bits as 32bpp texels at another pitch: the scaled copy's "
     "texels do not line up with the guest ones"},
    // Multisampled edges: the front buffer holds a resolve that averages a pixel's samples, and
    // the middle host pixel's samples lie in the middle of the guest pixel, so an edge pixel's
    // coverage (and its centroid) differs from the guest pixel's.
    {"interp_centroid_msaa4x_edge",
     "4x MSAA edge pixels resolve their own samples' coverage: 1.1 % off at 3x3 and 3x1"},
};

// Samples whose decimation check fails only where a host sampler filters them (fbo, fsi), and why.
inline const std::map<std::string, std::string> kNotDecimationInvariantOnHostSampler = {
    // Vulkan leaves the anisotropic level to the implementation ("may be approximated"); at a
    // scale the host takes the guest-pixel footprint as a bias (square scales) or as explicit
    // gradients (1x3, 3x1), and its choice from those differs from its implicit sample's at 1x.
    {"texfetch_aniso_lod",
     "the host sampler's anisotropic level choice, implementation-defined: lavapipe 18 % of "
     "pixels off at 3x3 (bias), 36 % at 1x3 and 3x1 (gradients)"},
};

// The scales the decimation check runs at: a middle host pixel on both axes.
inline constexpr std::pair<uint32_t, uint32_t> kDecimationScales[] = {{3, 3}, {1, 3}, {3, 1}};

// At most this share of a frame's pixels may miss the decimation check (edges that pass within
// the 1/256-pixel snapping of a sample position round differently at another scale).
inline constexpr double kDecimationTolerance = 0.005;

// Every frame a trace swaps on `path` at S x T, in order; *validation_messages gets the
// session's count (the fbo path runs with the validation layer), *validation their text;
// `derivatives`: what a screen derivative spans at the scale (the replay's default: a guest pixel).
inline std::vector<gpu::SwapImage> ReplayFrames(const std::string& file, renderer::Path path,
                                                uint32_t sx, uint32_t sy,
                                                uint32_t* validation_messages = nullptr,
                                                std::string* validation = nullptr,
                                                gpu::ScaledDerivatives derivatives =
                                                    gpu::ScaledDerivatives::kGuest) {
  renderer::SessionOptions options;
  options.path = path;
  options.validate = path == renderer::Path::kFbo;
  options.renderer.scale_x = sx;
  options.renderer.scale_y = sy;
  options.renderer.derivatives = derivatives;
  std::vector<gpu::SwapImage> frames;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { frames.push_back(image); };
  auto session = renderer::Session::Create(options);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Play(*format::Reader::Open(file));
  session->Flush();
  if (validation_messages) *validation_messages = session->validation_message_count();
  if (validation) {
    validation->clear();
    for (const std::string& m : session->validation_messages()) *validation += m + "\n";
  }
  return frames;
}

// The downsampling check's scales (DownsampledPsnr against the 1x expected image; the tests only
// print 3x3's, whose host pixel centres at thirds split pixels with edges at quarter positions).
inline constexpr std::pair<uint32_t, uint32_t> kDownsamplingScales[] = {{1, 2}, {2, 1}, {2, 2}, {3, 3}};

// The scales the scale tests replay each sample at, each once: the downsampling scales, then the
// decimation scales not among them (3x3 serves both checks from one replay).
inline constexpr std::pair<uint32_t, uint32_t> kScaleTestScales[] = {
    {1, 2}, {2, 1}, {2, 2}, {3, 3}, {1, 3}, {3, 1}};

template <size_t N>
bool HasScale(const std::pair<uint32_t, uint32_t> (&scales)[N], uint32_t sx, uint32_t sy) {
  for (const auto& [x, y] : scales) {
    if (x == sx && y == sy) return true;
  }
  return false;
}

// The decimation check of one sample's frames at S x T (`scaled`) against its 1x frames (`one`),
// both from the same path, each frame printed; asserted unless `kNotDecimationInvariant` excuses
// the sample at that scale, or `host_sampler` (fbo, fsi) and kNotDecimationInvariantOnHostSampler.
inline void ExpectDecimatedFrames(const std::string& name, const std::vector<gpu::SwapImage>& one,
                                  const std::vector<gpu::SwapImage>& scaled, uint32_t sx,
                                  uint32_t sy, bool host_sampler = false) {
  ASSERT_EQ(scaled.size(), one.size());
  const bool skip = kNotDecimationInvariant.count(name) ||
                    (host_sampler && kNotDecimationInvariantOnHostSampler.count(name));
  for (size_t f = 0; f < one.size(); ++f) {
    ASSERT_EQ(scaled[f].width, one[f].width * sx);
    ASSERT_EQ(scaled[f].height, one[f].height * sy);
    const size_t off = DecimatedMismatches(scaled[f], sx, sy, one[f]);
    const double share = double(off) / (double(one[f].width) * one[f].height);
    std::printf("%s frame %zu %ux%u: %zu pixels (%.3f %%) off the 1x frame\n", name.c_str(), f,
                sx, sy, off, 100.0 * share);
    if (!skip) {
      EXPECT_LE(share, kDecimationTolerance) << "frame " << f;
    }
  }
}

// The pixels (RGBA dwords) in which two frames of one size differ, and the first of them.
struct FrameDifference {
  size_t pixels = 0;
  size_t first = SIZE_MAX;  // SIZE_MAX: none
};
inline FrameDifference CompareFrames(const gpu::SwapImage& a, const gpu::SwapImage& b) {
  FrameDifference d;
  for (size_t i = 0; i + 3 < a.rgba.size() && i + 3 < b.rgba.size(); i += 4) {
    if (std::memcmp(&a.rgba[i], &b.rgba[i], 4) == 0) continue;
    if (d.first == SIZE_MAX) d.first = i / 4;
    ++d.pixels;
  }
  return d;
}

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

// Every sample with images worked out at a scale (Sample::expected_image_scaled) against the
// last frame `path` shows at each decimation scale (the trace written into `dir`); `expect_equal`
// false asserts a difference instead (a path's own limit, a fix of which shows up as a failure).
// Returns how many images were asserted equal.
inline size_t CompareScaledExpectedImages(const std::string& dir, renderer::Path path,
                                          const std::function<bool(const std::string&, uint32_t,
                                                                   uint32_t)>& expect_equal) {
  size_t equal = 0;
  for (const samples::Sample& sample : samples::Registry()) {
    if (!sample.expected_image_scaled) continue;
    const std::string file = dir + "/" + sample.name + ".expected.xnt";
    samples::WriteSample(sample, file);
    for (auto [sx, sy] : kDecimationScales) {
      const samples::Image want = sample.expected_image_scaled({sx, sy});
      uint32_t messages = 0;
      const std::vector<gpu::SwapImage> frames = ReplayFrames(file, path, sx, sy, &messages);
      EXPECT_EQ(messages, 0u);
      const size_t differ = frames.empty() ? size_t(want.width) * want.height
                                           : DifferingPixels(frames.back(), want);
      std::printf("%s %ux%u: %zu of %u pixels differ from the image worked out at the scale\n",
                  sample.name.c_str(), sx, sy, differ, want.width * want.height);
      if (expect_equal(sample.name, sx, sy)) {
        EXPECT_EQ(differ, 0u) << sample.name << " " << sx << "x" << sy;
        ++equal;
      } else {
        EXPECT_GT(differ, 0u) << sample.name << " " << sx << "x" << sy;
      }
    }
  }
  return equal;
}

}  // namespace xnt::test
