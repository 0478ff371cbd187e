// The post-processing chain on the CPU (post.h): post_kernels.inc compiled as C++, each pass's
// output rounded as the Vulkan passes store it (StoredTexel: half, or 8-bit UNORM after EASU), one
// row band per thread.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <thread>

#include "xnt/base/error.h"
#include "xnt/base/parallel.h"
#include "xnt/present/post.h"

namespace xnt::present {
namespace glsl {

// The GLSL subset post_kernels.inc uses, with GLSL's definitions (min(x, y) = y < x ? y : x).
using uint = uint32_t;
struct vec4 {
  float x = 0, y = 0, z = 0, w = 0;
  vec4() = default;
  explicit vec4(float s) : x(s), y(s), z(s), w(s) {}
  vec4(float x_, float y_, float z_, float w_) : x(x_), y(y_), z(z_), w(w_) {}
};
inline vec4 operator+(vec4 a, vec4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
inline vec4 operator-(vec4 a, vec4 b) { return {a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w}; }
inline vec4 operator*(vec4 a, float s) { return {a.x * s, a.y * s, a.z * s, a.w * s}; }
inline vec4 operator*(float s, vec4 a) { return a * s; }
inline float min(float a, float b) { return b < a ? b : a; }
inline float max(float a, float b) { return a < b ? b : a; }
inline vec4 min(vec4 a, vec4 b) { return {min(a.x, b.x), min(a.y, b.y), min(a.z, b.z), min(a.w, b.w)}; }
inline vec4 max(vec4 a, vec4 b) { return {max(a.x, b.x), max(a.y, b.y), max(a.z, b.z), max(a.w, b.w)}; }
inline float clamp(float v, float lo, float hi) { return min(max(v, lo), hi); }
inline float abs(float v) { return std::fabs(v); }
inline float floor(float v) { return std::floor(v); }
inline float sqrt(float v) { return std::sqrt(v); }
inline uint floatBitsToUint(float v) { return std::bit_cast<uint>(v); }
inline float uintBitsToFloat(uint v) { return std::bit_cast<float>(v); }

struct Kernels {
  const float* src = nullptr;  // src_w * src_h * 4, as the previous pass stored them
  PassConstants pc;
  const uint8_t* noise = nullptr;

  vec4 Load(int x, int y) const {
    x = std::clamp(x, 0, pc.src_w - 1);
    y = std::clamp(y, 0, pc.src_h - 1);
    const float* p = src + (size_t(y) * size_t(pc.src_w) + size_t(x)) * 4;
    return {p[0], p[1], p[2], p[3]};
  }
  int BlueNoise(int x, int y) const { return noise[y * 16 + x]; }
  static vec4 RoundHalf4(vec4 c) {
    return {HalfToFloat(FloatToHalf(c.x)), HalfToFloat(FloatToHalf(c.y)),
            HalfToFloat(FloatToHalf(c.z)), HalfToFloat(FloatToHalf(c.w))};
  }

#define XNT_POST_KERNELS(...) __VA_ARGS__
#include "xnt/present/post_kernels.inc"
#undef XNT_POST_KERNELS

  vec4 PassPixel(int x, int y) {
    switch (PassKind(pc.kind)) {
      case PassKind::kFxaa: return FxaaPixel(x, y);
      case PassKind::kCas: return CasPixel(x, y);
      case PassKind::kEasu: return EasuPixel(x, y);
      case PassKind::kRcas: return RcasPixel(x, y);
      case PassKind::kBilinear: return BilinearPixel(x, y);
      case PassKind::kCopy: break;
    }
    return CopyPixel(x, y);
  }
};

}  // namespace glsl

namespace {

// Rows [y0, y1) of one pass. Non-last passes write RGBA as stored (`pc.store`); the last one 8-bit
// values (as floats 0..255) or, through `out8`, packed RGBA8.
void RunRows(const PassConstants& pc, const float* src, float* dst, uint8_t* out8, int y0, int y1) {
  glsl::Kernels k;
  k.src = src;
  k.pc = pc;
  k.noise = BlueNoiseRanks().data();
  for (int y = y0; y < y1; ++y) {
    for (int x = 0; x < pc.dst_w; ++x) {
      const glsl::vec4 c = k.PassPixel(x, y);
      const size_t i = (size_t(y) * size_t(pc.dst_w) + size_t(x)) * 4;
      if (pc.last) {
        const uint32_t packed = k.PackOutput(c, x, y);
        for (int ch = 0; ch < 4; ++ch) {
          const uint8_t b = uint8_t(packed >> (8 * ch));
          if (out8) out8[i + size_t(ch)] = b;
          if (dst) dst[i + size_t(ch)] = float(b);
        }
      } else {
        const glsl::vec4 s = k.StoredTexel(c);
        dst[i + 0] = s.x;
        dst[i + 1] = s.y;
        dst[i + 2] = s.z;
        dst[i + 3] = s.w;
      }
    }
  }
}

void RunPass(const PassConstants& pc, const float* src, float* dst, uint8_t* out8,
             unsigned threads) {
  const int h = pc.dst_h;
  const unsigned n = std::max(1u, std::min<unsigned>(threads, unsigned(h)));
  RunShares(n, [&](uint32_t t, uint32_t shares) {
    RunRows(pc, src, dst, out8, int(uint64_t(h) * t / shares), int(uint64_t(h) * (t + 1) / shares));
  });
}

class CpuPostProcessor final : public PostProcessor {
 public:
  CpuPostProcessor(const PostOptions& options, unsigned threads)
      : PostProcessor(options),
        threads_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

  PostResult Run(const FloatImage& input) override {
    const auto start = std::chrono::steady_clock::now();
    const PostPlan plan = PlanPasses(options_, input.width, input.height);
    if (input.rgba.size() != size_t(input.width) * input.height * 4) {
      throw Error("post: image data does not match its size");
    }
    // The input is read exactly, as the sample's input texture (8-bit UNORM) holds it: EASU's
    // direction and length are ratios of small luma differences, which rounding the input to
    // half moved by up to 8/255 on photographs.
    std::vector<float> cur = input.rgba;
    PostResult result;
    result.image.width = plan.out_width;
    result.image.height = plan.out_height;
    result.image.rgba.resize(size_t(plan.out_width) * plan.out_height * 4);
    std::vector<float> next;
    for (const PassConstants& pc : plan.passes) {
      if (pc.last) {
        RunPass(pc, cur.data(), nullptr, result.image.rgba.data(), threads_);
        break;
      }
      next.assign(size_t(pc.dst_w) * size_t(pc.dst_h) * 4, 0.0f);
      RunPass(pc, cur.data(), next.data(), nullptr, threads_);
      cur.swap(next);
    }
    result.wall_milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
  }

  std::string device_name() const override {
    return "CPU (" + std::to_string(threads_) + " threads)";
  }

 private:
  unsigned threads_;
};

}  // namespace

std::unique_ptr<PostProcessor> MakeCpuPostProcessor(const PostOptions& options, unsigned threads) {
  return std::make_unique<CpuPostProcessor>(options, threads);
}

std::vector<float> RunPassCpu(const PassConstants& pass, const std::vector<float>& src) {
  if (src.size() != size_t(pass.src_w) * size_t(pass.src_h) * 4) {
    throw Error("RunPassCpu: source size does not match the pass");
  }
  std::vector<float> out(size_t(pass.dst_w) * size_t(pass.dst_h) * 4);
  RunPass(pass, src.data(), out.data(), nullptr, 1);
  return out;
}

}  // namespace xnt::present
