// Speed and memory of Compare() on a pair of frames (default 3840x2160 RGBA8, every metric on),
// one thread. Three pairs: "worst" (every channel of every pixel differs, alpha too), "typical"
// (opaque alpha in both, colour differs a little everywhere, as with a renderer change) and
// "identical". Prints the median and best of N runs in CPU time (getrusage user + system of this
// process, so other load on the machine does not count) and the median wall time, and peak RSS
// (VmHWM) before and after comparing, so the working memory beyond the two input images shows.
//   xnt_diff_bench [width height [runs]]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <sys/resource.h>

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

double CpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto sec = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return sec(ru.ru_utime) + sec(ru.ru_stime);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace xnt::diff;
  const int w = argc > 2 ? std::atoi(argv[1]) : 3840;
  const int h = argc > 2 ? std::atoi(argv[2]) : 2160;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 5;
  if (w <= 0 || h <= 0 || runs <= 0) return 2;
  OwnedImage a(w, h, 4, PixelType::kU8), worst(w, h, 4, PixelType::kU8), typical(w, h, 4, PixelType::kU8);
  uint32_t seed = 12345;
  for (int y = 0; y < h; ++y) {
    uint8_t* ra = a.MutableRow(y);
    uint8_t* rw = worst.MutableRow(y);
    uint8_t* rt = typical.MutableRow(y);
    for (int x = 0; x < w; ++x) {
      for (int c = 0; c < 4; ++c) {
        seed = seed * 1664525u + 1013904223u;
        const int noise = int((seed >> 24) & 15);
        const int v = c == 3 ? 255 : std::clamp((x * 200 / w + y * 55 / h + c * 20) + noise, 0, 255);
        ra[x * 4 + c] = uint8_t(v);
        rw[x * 4 + c] = uint8_t(std::clamp(v + int((seed >> 8) % 9) - 4, 0, 254));
        rt[x * 4 + c] = uint8_t(c == 3 ? 255 : std::clamp(v + int((seed >> 12) % 3) - 1, 0, 255));
      }
    }
  }
  const long before = VmHwmKiB();
  struct Case {
    const char* name;
    const OwnedImage* b;
  };
  const Case cases[] = {{"worst", &worst}, {"typical", &typical}, {"identical", &a}};
  std::printf("%dx%d RGBA8, all metrics (hash, errors, PSNR, SSIM luma + per channel, FLIP-style), 1 thread\n", w, h);
  Metrics m;
  size_t work_bytes = 0;
  for (const Case& c : cases) {
    std::vector<double> cpu, wall;
    for (int r = 0; r < runs; ++r) {
      const double c0 = CpuSeconds();
      const auto t0 = std::chrono::steady_clock::now();
      m = Compare(a.view(), c.b->view());
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      cpu.push_back(CpuSeconds() - c0);
      work_bytes = std::max(work_bytes, m.work_bytes);
    }
    std::printf("  %-9s cpu median %.3f s, best %.3f s; wall median %.3f s (%d runs, %s kernels, %.1f KiB band "
                "buffers)  ssim_luma %.6f ssim_min %.6f psnr %.2f flip_mean %.5f\n",
                c.name, Median(cpu), *std::min_element(cpu.begin(), cpu.end()), Median(wall), runs, m.kernels,
                double(m.work_bytes) / 1024.0, m.ssim_luma, m.ssim_min, m.psnr, m.flip_mean);
  }
  const long after = VmHwmKiB();
  std::printf("peak RSS: %ld KiB with the three images in memory, %ld KiB after comparing (+%ld KiB); "
              "Compare's band buffers: %.1f KiB\n",
              before, after, after - before, double(work_bytes) / 1024.0);
  return 0;
}
