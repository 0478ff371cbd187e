// Which passes run, in which order, at which sizes (post.h), the blue-noise ranks, and the half
// conversions both implementations share.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "xnt/base/enum_names.h"
#include "xnt/base/error.h"
#include "xnt/present/post.h"

namespace xnt::present {

std::optional<AntiAliasing> ParseAntiAliasing(const std::string& name) {
  if (name == "none") return AntiAliasing::kNone;
  if (name == "fxaa") return AntiAliasing::kFxaa;
  if (name == "fxaa_extreme") return AntiAliasing::kFxaaExtreme;
  return std::nullopt;
}

std::optional<Scaler> ParseScaler(const std::string& name) {
  if (name == "bilinear") return Scaler::kBilinear;
  if (name == "cas") return Scaler::kCas;
  if (name == "fsr") return Scaler::kFsr;
  return std::nullopt;
}

const char* AntiAliasingName(AntiAliasing aa) {
  static constexpr const char* kNames[] = {"none", "fxaa", "fxaa_extreme"};
  return EnumName(aa, kNames);
}

const char* ScalerName(Scaler scaler) {
  static constexpr const char* kNames[] = {"bilinear", "cas", "fsr"};
  return EnumName(scaler, kNames);
}

const char* PassKindName(PassKind kind) {
  static constexpr const char* kNames[] = {"copy", "fxaa", "cas", "easu", "rcas", "bilinear"};
  return EnumName(kind, kNames);
}

FloatImage ToFloatImage(const gpu::SwapImage& image) {
  FloatImage out;
  out.width = image.width;
  out.height = image.height;
  out.rgba.resize(size_t(image.width) * image.height * 4);
  for (size_t i = 0; i < out.rgba.size(); ++i) out.rgba[i] = float(image.rgba[i]) / 255.0f;
  return out;
}

PassConstants MakePass(PassKind kind, uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh) {
  PassConstants p;
  p.kind = int32_t(kind);
  p.src_w = int32_t(sw);
  p.src_h = int32_t(sh);
  p.dst_w = int32_t(dw);
  p.dst_h = int32_t(dh);
  // FsrEasuCon's con0 (ffx_fsr1.h), computed once here in float as AMD's sample computes it on
  // the CPU: a shader computing 0.5 * scale - 0.5 itself may fuse it into one fma and land an
  // ULP away, which moves EASU's result across an 8-bit rounding step now and then.
  const float scale_x = float(sw) * (1.0f / float(dw));
  const float scale_y = float(sh) * (1.0f / float(dh));
  p.src_scale_x = scale_x;
  p.src_scale_y = scale_y;
  p.src_offset_x = 0.5f * scale_x - 0.5f;
  p.src_offset_y = 0.5f * scale_y - 0.5f;
  return p;
}

namespace {

constexpr uint32_t kMaxSide = 16384;

// CAS from (w, h) towards the output: at most 2x per axis (CAS's practical limit), then bilinear.
void AddCas(std::vector<PassConstants>& passes, const PostOptions& o, uint32_t w, uint32_t h,
            uint32_t ow, uint32_t oh) {
  const uint32_t cw = std::min(ow, 2 * w), ch = std::min(oh, 2 * h);
  PassConstants p = MakePass(PassKind::kCas, w, h, cw, ch);
  // CasSetup: sharp = -1 / lerp(8, 5, saturate(sharpness)).
  const float s = std::clamp(o.cas_sharpness, 0.0f, 1.0f);
  p.cas_peak = -1.0f / (8.0f + (5.0f - 8.0f) * s);
  passes.push_back(p);
  if (cw != ow || ch != oh) passes.push_back(MakePass(PassKind::kBilinear, cw, ch, ow, oh));
}

}  // namespace

PostPlan PlanPasses(const PostOptions& o, uint32_t in_w, uint32_t in_h) {
  if (in_w == 0 || in_h == 0 || in_w > kMaxSide || in_h > kMaxSide) {
    throw Error("post: input size " + std::to_string(in_w) + "x" + std::to_string(in_h) +
                " is outside 1..16384");
  }
  const uint32_t ow = o.width ? o.width : in_w, oh = o.height ? o.height : in_h;
  if (ow > kMaxSide || oh > kMaxSide) {
    throw Error("post: output size " + std::to_string(ow) + "x" + std::to_string(oh) +
                " is outside 1..16384");
  }
  if (!(o.cas_sharpness >= 0.0f && o.cas_sharpness <= 1.0f)) {
    throw Error("post: --cas-sharpness must be within 0..1");
  }
  if (!(o.fsr_sharpness_reduction >= 0.0f && o.fsr_sharpness_reduction <= 2.0f)) {
    throw Error("post: --fsr-sharpness-reduction must be within 0..2 (stops)");
  }
  PostPlan plan;
  plan.in_width = in_w;
  plan.in_height = in_h;
  plan.out_width = ow;
  plan.out_height = oh;
  auto& passes = plan.passes;
  if (o.aa != AntiAliasing::kNone) {
    PassConstants p = MakePass(PassKind::kFxaa, in_w, in_h, in_w, in_h);
    const bool extreme = o.aa == AntiAliasing::kFxaaExtreme;
    p.fxaa_steps = extreme ? 12 : 5;  // quality preset 39 : 12
    p.fxaa_subpix = extreme ? 1.0f : 0.75f;
    p.fxaa_edge_threshold = extreme ? 0.063f : 0.166f;
    p.fxaa_edge_threshold_min = extreme ? 0.0312f : 0.0833f;
    passes.push_back(p);
  }
  const bool same = ow == in_w && oh == in_h;
  switch (o.scaler) {
    case Scaler::kBilinear:
      if (!same) passes.push_back(MakePass(PassKind::kBilinear, in_w, in_h, ow, oh));
      break;
    case Scaler::kCas:
      AddCas(passes, o, in_w, in_h, ow, oh);
      break;
    case Scaler::kFsr:
      // FSR when either axis grows (Xenia's presenter: "upsample along at least one axis"; EASU's
      // min(2x, output) then shrinks the other axis in the first pass); at the same size or
      // smaller, CAS replaces it.
      if (ow <= in_w && oh <= in_h) {
        AddCas(passes, o, in_w, in_h, ow, oh);
        break;
      }
      for (uint32_t w = in_w, h = in_h; w != ow || h != oh;) {
        const uint32_t nw = std::min(ow, 2 * w), nh = std::min(oh, 2 * h);
        passes.push_back(MakePass(PassKind::kEasu, w, h, nw, nh));
        w = nw;
        h = nh;
      }
      // AMD's FSR sample (sample/src/VK/FSR_Filter.cpp, OnCreateWindowSizeDependentResources)
      // holds EASU's output for RCAS in an R8G8B8A8_UNORM "intermediary" (SDR output). RCAS
      // sharpens by up to 1 / (1 - 4 * 0.1875) = 4x, so that rounding shows in its result:
      // against an RGBA16F intermediate the sample's output differs by up to 3/255 on
      // photographs. (Earlier EASU passes of a >2x chain, which the sample never runs, stay
      // RGBA16F.)
      passes.back().store = int32_t(o.easu_output);
      {
        PassConstants p = MakePass(PassKind::kRcas, ow, oh, ow, oh);
        p.rcas_sharpness = std::exp2(-o.fsr_sharpness_reduction);  // FsrRcasCon
        passes.push_back(p);
      }
      break;
  }
  if (passes.empty()) passes.push_back(MakePass(PassKind::kCopy, in_w, in_h, in_w, in_h));
  passes.back().last = 1;
  passes.back().dither = o.dither ? 1 : 0;
  for (size_t i = 0; i < passes.size(); ++i) {
    passes[i].src_store = i ? passes[i - 1].store : int32_t(StoreFormat::kFloat32);
  }
  return plan;
}

std::string DescribePlan(const PostPlan& plan) {
  std::string s = std::to_string(plan.in_width) + "x" + std::to_string(plan.in_height);
  for (const PassConstants& p : plan.passes) {
    s += std::string(" -> ") + PassKindName(PassKind(p.kind)) + " " + std::to_string(p.dst_w) +
         "x" + std::to_string(p.dst_h);
  }
  s += plan.passes.back().dither ? " (dithered to 8 bpc)" : " (rounded to 8 bpc)";
  return s;
}

namespace {

// Void-and-cluster (R. Ulichney, "The void-and-cluster method for dither array generation",
// SPIE 1913, 1993) on a 16x16 torus with a Gaussian filter of sigma 1.5: the tightest cluster is
// the set pixel with the highest filtered energy, the largest void the empty one with the lowest.
std::array<uint8_t, 256> MakeBlueNoise() {
  constexpr int kN = 16;
  float kernel[kN][kN];
  for (int dy = 0; dy < kN; ++dy) {
    for (int dx = 0; dx < kN; ++dx) {
      const int ex = std::min(dx, kN - dx), ey = std::min(dy, kN - dy);
      kernel[dy][dx] = std::exp(-float(ex * ex + ey * ey) / (2.0f * 1.5f * 1.5f));
    }
  }
  auto energy = [&](const bool* bits, int index, bool value) {
    float e = 0;
    const int x = index % kN, y = index / kN;
    for (int i = 0; i < kN * kN; ++i) {
      if (bits[i] != value) continue;
      e += kernel[(i / kN - y + kN) % kN][(i % kN - x + kN) % kN];
    }
    return e;
  };
  // Extreme of the energy among pixels equal to `value` (ties: the lowest index).
  auto find = [&](const bool* bits, bool value, bool highest) {
    int best = -1;
    float best_e = 0;
    for (int i = 0; i < kN * kN; ++i) {
      if (bits[i] != value) continue;
      const float e = energy(bits, i, true);
      if (best < 0 || (highest ? e > best_e : e < best_e)) {
        best = i;
        best_e = e;
      }
    }
    return best;
  };
  // Initial pattern: 26 pixels from a fixed LCG, then relaxed until it is stable.
  bool initial[kN * kN] = {};
  uint32_t state = 12345;
  int ones = 0;
  while (ones < 26) {
    state = state * 1664525u + 1013904223u;
    const int i = int((state >> 8) % (kN * kN));
    if (!initial[i]) {
      initial[i] = true;
      ++ones;
    }
  }
  for (int iter = 0; iter < 1000; ++iter) {
    const int cluster = find(initial, true, true);
    initial[cluster] = false;
    const int void_ = find(initial, false, false);
    initial[void_] = true;
    if (void_ == cluster) break;
  }
  std::array<uint8_t, 256> rank{};
  bool bits[kN * kN];
  std::memcpy(bits, initial, sizeof(bits));
  for (int r = ones - 1; r >= 0; --r) {  // phase 1: remove clusters, highest rank first
    const int c = find(bits, true, true);
    bits[c] = false;
    rank[size_t(c)] = uint8_t(r);
  }
  std::memcpy(bits, initial, sizeof(bits));
  for (int r = ones; r < kN * kN; ++r) {  // phases 2-3: fill the largest voids
    const int v = find(bits, false, false);
    bits[v] = true;
    rank[size_t(v)] = uint8_t(r);
  }
  return rank;
}

}  // namespace

const std::array<uint8_t, 256>& BlueNoiseRanks() {
  static const std::array<uint8_t, 256> ranks = MakeBlueNoise();
  return ranks;
}

uint16_t FloatToHalf(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  const uint32_t sign = (f >> 16) & 0x8000u;
  f &= 0x7fffffffu;
  if (f >= 0x7f800000u) return uint16_t(sign | (f > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (f >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // rounds to >= 65520: infinity
  if (f < 0x38800000u) {                                   // below 2^-14: subnormal half
    float a;
    std::memcpy(&a, &f, 4);
    const float scaled = a * 16777216.0f;  // units of 2^-24
    return uint16_t(sign | uint32_t(std::nearbyint(scaled)));
  }
  const uint32_t mant_odd = (f >> 13) & 1u;
  f += 0xfffu + mant_odd;  // round to nearest even
  return uint16_t(sign | ((f - 0x38000000u) >> 13));
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  float v;
  if (exp == 0) {
    v = std::ldexp(float(mant), -24);
  } else if (exp == 31) {
    v = mant ? NAN : INFINITY;
  } else {
    const uint32_t bits = ((exp + 112u) << 23) | (mant << 13);
    std::memcpy(&v, &bits, 4);
  }
  return sign ? -v : v;
}

}  // namespace xnt::present
