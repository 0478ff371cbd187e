// Helpers shared by the diff tests: building small images and a straightforward SSIM reference.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>

#include "xnt/diff/image.h"
#include "xnt/diff/metrics.h"

namespace xnt::diff::test {

// An 8-bit image whose channel values come from f(x, y, c).
inline OwnedImage Make8(int w, int h, int ch, const std::function<int(int, int, int)>& f) {
  OwnedImage img(w, h, ch, PixelType::kU8);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < ch; ++c) img.MutableRow(y)[x * ch + c] = uint8_t(f(x, y, c));
  return img;
}

inline OwnedImage Make16(int w, int h, int ch, const std::function<int(int, int, int)>& f) {
  OwnedImage img(w, h, ch, PixelType::kU16);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < ch; ++c) {
        uint16_t v = uint16_t(f(x, y, c));
        std::memcpy(img.MutableRow(y) + (x * ch + c) * 2, &v, 2);
      }
  return img;
}

inline uint32_t Lcg(uint32_t& s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}

// Direct SSIM: for every pixel, the full 11x11 Gaussian window (sigma 1.5, weights normalized)
// with clamp-to-edge indexing, in double; the mean over all pixels. `plane(img, x, y)` gives the
// value of the plane being measured.
inline double ReferenceSsim(int w, int h, const std::function<double(int, int)>& a,
                            const std::function<double(int, int)>& b) {
  double g[11], sum = 0;
  for (int i = 0; i < 11; ++i) {
    g[i] = std::exp(-double((i - 5) * (i - 5)) / (2 * 1.5 * 1.5));
    sum += g[i];
  }
  for (double& v : g) v /= sum;
  const double c1 = 0.01 * 0.01, c2 = 0.03 * 0.03;
  double total = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double mx = 0, my = 0, xx = 0, yy = 0, xy = 0;
      for (int j = 0; j < 11; ++j)
        for (int i = 0; i < 11; ++i) {
          int sx = std::min(std::max(x + i - 5, 0), w - 1), sy = std::min(std::max(y + j - 5, 0), h - 1);
          double wt = g[i] * g[j], va = a(sx, sy), vb = b(sx, sy);
          mx += wt * va;
          my += wt * vb;
          xx += wt * va * va;
          yy += wt * vb * vb;
          xy += wt * va * vb;
        }
      double vx = xx - mx * mx, vy = yy - my * my, cxy = xy - mx * my;
      total += ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
    }
  return total / (double(w) * h);
}

// Runs `body` with options choosing the default kernels (the widest the CPU has), then capped at
// AVX2 and at the baseline (each falls back to what the CPU runs).
inline void ForEachKernelSet(const std::function<void(const char*, const CompareOptions&)>& body) {
  const std::pair<const char*, KernelSet> sets[] = {
      {"default", KernelSet::kWidest}, {"avx2", KernelSet::kAvx2}, {"baseline", KernelSet::kBaseline}};
  for (const auto& [name, set] : sets) {
    CompareOptions base;
    base.kernels = set;
    body(name, base);
  }
}

}  // namespace xnt::diff::test

#include <filesystem>
#include <string>
#include <unistd.h>

namespace xnt::diff::test {

// A fresh, empty folder under the system temp dir, removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    path_ = std::filesystem::temp_directory_path() / ("xnt_diff_" + tag + "_" + std::to_string(getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string operator/(const std::string& rel) const { return (path_ / rel).string(); }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// A 96x64 RGBA gradient; with `square`, a pure red square at x 41..59, y 21..39 (361 pixels).
inline OwnedImage Gradient(bool square) {
  return Make8(96, 64, 4, [&](int x, int y, int c) {
    if (square && x > 40 && x < 60 && y > 20 && y < 40) return c == 0 || c == 3 ? 255 : 0;
    return c == 0 ? x * 255 / 96 : c == 1 ? y * 255 / 64 : c == 2 ? 128 : 255;
  });
}

}  // namespace xnt::diff::test
