// Speed and memory of Compare() on a pair of frames (default 3840x2160 RGBA8, every metric on).
// Prints wall time (best of N runs, one core) and peak RSS (VmHWM) before and after comparing, so
// the working memory beyond the two input images shows directly.
//   xnt_diff_bench [width height [runs]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "xnt/diff/image.h"
#include "xnt/diff/metrics.h"

namespace {

long VmHwmKiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace xnt::diff;
  const int w = argc > 2 ? std::atoi(argv[1]) : 3840;
  const int h = argc > 2 ? std::atoi(argv[2]) : 2160;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 3;
  OwnedImage a(w, h, 4, PixelType::kU8), b(w, h, 4, PixelType::kU8);
  uint32_t seed = 12345;
  for (int y = 0; y < h; ++y) {
    uint8_t* ra = a.MutableRow(y);
    uint8_t* rb = b.MutableRow(y);
    for (int x = 0; x < w; ++x) {
      for (int c = 0; c < 4; ++c) {
        seed = seed * 1664525u + 1013904223u;
        // A smooth gradient plus noise, and B = A with small random errors: a realistic pair
        // where most pixels differ a little (the slowest case for the FLIP-style term).
        int v = (x * 255 / w + y * 255 / h + c * 40) / 2 + int((seed >> 24) & 7);
        ra[x * 4 + c] = uint8_t(v & 255);
        rb[x * 4 + c] = uint8_t((v + int((seed >> 16) & 3) - 1) & 255);
      }
    }
  }
  const long before = VmHwmKiB();
  double best = 1e9;
  Metrics m;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    m = Compare(a.view(), b.view());
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  const long after = VmHwmKiB();
  std::printf("%dx%d RGBA8, all metrics (hash, errors, PSNR, SSIM luma+4 channels, FLIP-style)\n", w, h);
  std::printf("time: %.3f s (best of %d)\n", best, runs);
  std::printf("peak RSS: %ld KiB with both images loaded, %ld KiB after comparing (+%ld KiB); "
              "band buffers %.1f KiB\n",
              before, after, after - before, double(m.work_bytes) / 1024.0);
  std::printf("ssim_luma %.6f psnr %.3f flip_mean %.6f max_abs %.6f\n", m.ssim_luma, m.psnr, m.flip_mean, m.max_abs);
  return 0;
}
