// The presentation chain on the CPU (renderer/present post.h): pixels worked out by hand for
// each pass, structural checks, the plan, the dither's bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "xnt/base/error.h"
#include "xnt/present/post.h"

namespace xnt::present {
namespace {

std::vector<float> Grey(const std::vector<float>& values) {
  std::vector<float> out;
  for (float v : values) out.insert(out.end(), {v, v, v, 1.0f});
  return out;
}

float At(const std::vector<float>& img, int w, int x, int y, int c = 0) {
  return img[(size_t(y) * size_t(w) + size_t(x)) * 4 + size_t(c)];
}

PassConstants Pass(PassKind kind, int sw, int sh, int dw, int dh) {
  return MakePass(kind, uint32_t(sw), uint32_t(sh), uint32_t(dw), uint32_t(dh));
}

TEST(PostPlan, PassesFollowTheIssue) {
  PostOptions o;
  EXPECT_EQ(DescribePlan(PlanPasses(o, 64, 32)), "64x32 -> copy 64x32 (dithered to 8 bpc)");
  o.aa = AntiAliasing::kFxaaExtreme;
  o.scaler = Scaler::kFsr;
  o.width = 3840;
  o.height = 2160;
  // 1280x720 -> 2x -> 2560x1440 -> at most 2x again -> 3840x2160, then RCAS.
  EXPECT_EQ(DescribePlan(PlanPasses(o, 1280, 720)),
            "1280x720 -> fxaa 1280x720 -> easu 2560x1440 -> easu 3840x2160 -> rcas 3840x2160 "
            "(dithered to 8 bpc)");
  o.dither = false;
  o.width = 1280;
  o.height = 720;  // not upscaling: CAS replaces FSR
  EXPECT_EQ(DescribePlan(PlanPasses(o, 1280, 720)),
            "1280x720 -> fxaa 1280x720 -> cas 1280x720 (rounded to 8 bpc)");
  o.width = 1920;
  o.height = 540;  // wider but lower: FSR (one axis grows), the first EASU pass also shrinks
  EXPECT_EQ(DescribePlan(PlanPasses(o, 1280, 720)),
            "1280x720 -> fxaa 1280x720 -> easu 1920x540 -> rcas 1920x540 (rounded to 8 bpc)");
  o.width = 640;
  o.height = 360;  // smaller: CAS
  EXPECT_EQ(DescribePlan(PlanPasses(o, 1280, 720)),
            "1280x720 -> fxaa 1280x720 -> cas 640x360 (rounded to 8 bpc)");
  o.aa = AntiAliasing::kNone;
  o.scaler = Scaler::kCas;
  o.width = 3000;
  o.height = 1000;  // above 2x: CAS to 2x, then bilinear
  EXPECT_EQ(DescribePlan(PlanPasses(o, 1000, 600)),
            "1000x600 -> cas 2000x1000 -> bilinear 3000x1000 (rounded to 8 bpc)");
  const PostPlan fsr = PlanPasses({AntiAliasing::kFxaa, Scaler::kFsr, 200, 100, 0.0f, 1.0f, true}, 100, 50);
  EXPECT_EQ(fsr.passes[0].fxaa_steps, 5);
  EXPECT_FLOAT_EQ(fsr.passes[0].fxaa_subpix, 0.75f);
  EXPECT_FLOAT_EQ(fsr.passes[0].fxaa_edge_threshold, 0.166f);
  EXPECT_FLOAT_EQ(fsr.passes[0].fxaa_edge_threshold_min, 0.0833f);
  EXPECT_FLOAT_EQ(fsr.passes.back().rcas_sharpness, 0.5f);  // 1 stop = half the sharpening
  o.cas_sharpness = 2.0f;
  EXPECT_THROW(PlanPasses(o, 10, 10), Error);
}

TEST(PostHalf, RoundsToNearestEven) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(0.5f), 0x3800);
  EXPECT_EQ(FloatToHalf(1.0f + 1.0f / 2048.0f), 0x3c00);  // tie -> even
  EXPECT_EQ(FloatToHalf(1.0f + 3.0f / 2048.0f), 0x3c02);  // tie -> even (up)
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  for (uint32_t h = 0; h < 0x7c00; ++h) EXPECT_EQ(FloatToHalf(HalfToFloat(uint16_t(h))), h);
}

TEST(PostBilinear, HandWorked2To4) {
  // Source centres 0.5, 1.5 hold 0 and 1; output centres map to 0.25, 0.75, 1.25, 1.75:
  // clamped 0, 0 + 0.25 * 1, 0.75, clamped 1.
  const auto out = RunPassCpu(Pass(PassKind::kBilinear, 2, 1, 4, 1), Grey({0.0f, 1.0f}));
  EXPECT_FLOAT_EQ(At(out, 4, 0, 0), 0.0f);
  EXPECT_FLOAT_EQ(At(out, 4, 1, 0), 0.25f);
  EXPECT_FLOAT_EQ(At(out, 4, 2, 0), 0.75f);
  EXPECT_FLOAT_EQ(At(out, 4, 3, 0), 1.0f);
}

TEST(PostCas, SharpnessZeroOnAFlatImageIsTheIdentity) {
  PassConstants p = Pass(PassKind::kCas, 8, 8, 8, 8);
  p.cas_peak = -1.0f / 8.0f;  // sharpness 0
  for (float v : {0.0f, 0.25f, 0.5f, 0.75f, 1.0f}) {
    const auto out = RunPassCpu(p, Grey(std::vector<float>(64, v)));
    for (int i = 0; i < 64; ++i) EXPECT_NEAR(out[size_t(i) * 4], v, 0.5f / 255) << v;
  }
  // Through the whole chain (8-bit in, 8-bit out, no dither): byte-identical.
  PostOptions o;
  o.scaler = Scaler::kCas;
  o.dither = false;
  FloatImage img{16, 16, {}};
  for (int i = 0; i < 256; ++i) img.rgba.insert(img.rgba.end(), {100 / 255.0f, 150 / 255.0f, 200 / 255.0f, 1});
  const PostResult r = MakeCpuPostProcessor(o, 1)->Run(img);
  for (int i = 0; i < 256; ++i) {
    EXPECT_EQ(r.image.rgba[size_t(i) * 4 + 0], 100);
    EXPECT_EQ(r.image.rgba[size_t(i) * 4 + 1], 150);
    EXPECT_EQ(r.image.rgba[size_t(i) * 4 + 2], 200);
  }
}

TEST(PostCas, HandWorkedCross) {
  // Centre 0.5, cross neighbours 0.25 (grey): soft min 0.25, max 0.5 (corners unused by the
  // 5-tap CAS). The reference's default path approximates 1/max and the square root with ffx_a.h's
  // bit tricks: APrxLoRcp(0.5) = bits(0x7ef07ebb - 0x3f000000 = 0x3ff07ebb) = 1.8788675;
  // min(0.25, 1 - 0.5) * 1.8788675 = 0.4697169; APrxLoSqrt: bits(0x3ef07ebb) / 2 + 0x1fbc4639
  // = 0.7051634 (sqrt would give 0.6854). w = 0.7051634 * -1/8 = -0.0881454;
  // out = (4 * 0.25 * w + 0.5) / (1 + 4w) = 0.4118546 / 0.6474184 = 0.636149: the centre moves
  // away from its darker neighbours.
  std::vector<float> v(9, 0.25f);
  v[4] = 0.5f;
  v[0] = v[2] = v[6] = v[8] = 0.0f;
  PassConstants p = Pass(PassKind::kCas, 3, 3, 3, 3);
  p.cas_peak = -1.0f / 8.0f;
  EXPECT_NEAR(At(RunPassCpu(p, Grey(v)), 3, 1, 1), 0.636149f, 2e-4f);
  // Sharpness 1: peak -1/5, w = -0.1410327, out = (0.5 - 0.1410327) / (1 - 0.5641308) = 0.823566.
  p.cas_peak = -1.0f / 5.0f;
  EXPECT_NEAR(At(RunPassCpu(p, Grey(v)), 3, 1, 1), 0.823566f, 2e-4f);
}

TEST(PostRcas, HandWorkedRing) {
  // Ring b, d = 0.25 and f, h = 0.75 around e = 0.625 (grey). mn4 = 0.25, mx4 = 0.75:
  // hitMin = min(0.25, e) / (4 * 0.75) = 1/12, hitMax = (1 - max(0.75, e)) / (4 * 0.25 - 4) =
  // -1/12, lobe = max(-1/12, -1/12) = -1/12 (inside the -0.1875 limit), times 2^-0.2 = 0.8705506:
  // -0.0725459. The resolve uses the reference's medium-precision reciprocal,
  // APrxMedRcp(4 lobe + 1 = 0.7098165) = 1.4063233 (exactly 1.4088149), so
  // out = (2 lobe + 0.625) * 1.4063233 = 0.674906.
  std::vector<float> v(9, 0.0f);
  v[1] = 0.25f;  // b
  v[3] = 0.25f;  // d
  v[4] = 0.625f; // e
  v[5] = 0.75f;  // f
  v[7] = 0.75f;  // h
  PassConstants p = Pass(PassKind::kRcas, 3, 3, 3, 3);
  p.rcas_sharpness = std::exp2(-0.2f);
  const auto out = RunPassCpu(p, Grey(v));
  EXPECT_NEAR(At(out, 3, 1, 1), 0.674906f, 3e-4f);
  // Sharpness reduction 2 stops: lobe = -1/48, out = (0.625 - 1/24) * APrxMedRcp(11/12) =
  // 0.5833333 * 1.0896846 = 0.635649.
  p.rcas_sharpness = 0.25f;
  EXPECT_NEAR(At(RunPassCpu(p, Grey(v)), 3, 1, 1), 0.635649f, 3e-4f);
}

TEST(PostRcas, CentreAboveItsRingIsLimitedByItself) {
  // A ring of 0.5 around a centre of 0.9 at full sharpness (0 stops). The limits take the centre
  // into account: hitMin = min(0.5, 0.9) / (4 * 0.5) = 0.25, hitMax = (1 - max(0.5, 0.9)) /
  // (4 * 0.5 - 4) = -0.05, lobe = max(-0.25, -0.05) = -0.05: the largest negative lobe that keeps
  // the centre at or below 1, (4 * -0.05 * 0.5 + 0.9) / (1 - 0.2) = 1 exactly, which the medium
  // reciprocal makes 0.8 * APrxMedRcp(0.8) = 0.8 * 1.2488632 = 0.999091. (Without the centre in
  // hitMax the lobe would be the -0.1875 limit and the result 1.5.)
  std::vector<float> v(9, 0.5f);
  v[4] = 0.9f;
  PassConstants p = Pass(PassKind::kRcas, 3, 3, 3, 3);
  p.rcas_sharpness = 1.0f;
  EXPECT_NEAR(At(RunPassCpu(p, Grey(v)), 3, 1, 1), 0.999091f, 3e-4f);
}

TEST(PostEasu, FlatStaysFlatAndAHardEdgeStaysPut) {
  PassConstants p = Pass(PassKind::kEasu, 8, 4, 16, 8);
  const auto flat = RunPassCpu(p, Grey(std::vector<float>(32, 0.375f)));
  for (size_t i = 0; i < flat.size(); i += 4) EXPECT_NEAR(flat[i], 0.375f, 1e-6f);
  // Columns 0-3 black, 4-7 white: the edge is at source x = 4, output x = 8. Output pixel x maps
  // to source 0.5x - 0.25; x <= 6 has only black among its 4 nearest (deringing clamps to them:
  // exactly 0), x >= 9 only white (exactly 1); x = 7 and 8 straddle the edge, mirror images.
  std::vector<float> edge;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x) edge.push_back(x < 4 ? 0.0f : 1.0f);
  const auto out = RunPassCpu(p, Grey(edge));
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x <= 6; ++x) EXPECT_EQ(At(out, 16, x, y), 0.0f) << x << "," << y;
    for (int x = 9; x < 16; ++x) EXPECT_EQ(At(out, 16, x, y), 1.0f) << x << "," << y;
    EXPECT_LT(At(out, 16, 7, y), 0.5f);
    EXPECT_GT(At(out, 16, 8, y), 0.5f);
    EXPECT_NEAR(At(out, 16, 7, y) + At(out, 16, 8, y), 1.0f, 2e-3f);
    // Sharper than bilinear (which gives 0.25 / 0.75 there): EASU keeps the edge hard.
    EXPECT_LT(At(out, 16, 7, y), 0.25f);
  }
}

TEST(PostEasu, OutputForRcasIsHeldAsEightBits) {
  // 100x80 -> 300x240 is EASU to 2x, EASU to 3x, RCAS: the first EASU's output is RGBA16F, the
  // one RCAS reads RGBA8 UNORM (AMD's sample's intermediary); the input is read as given.
  PostOptions o;
  o.scaler = Scaler::kFsr;
  o.width = 300;
  o.height = 240;
  PostPlan plan = PlanPasses(o, 100, 80);
  ASSERT_EQ(plan.passes.size(), 3u);
  EXPECT_EQ(plan.passes[0].src_store, int32_t(StoreFormat::kFloat32));
  EXPECT_EQ(plan.passes[0].store, int32_t(StoreFormat::kHalf));
  EXPECT_EQ(plan.passes[1].src_store, int32_t(StoreFormat::kHalf));
  EXPECT_EQ(plan.passes[1].store, int32_t(StoreFormat::kUnorm8));
  EXPECT_EQ(plan.passes[2].src_store, int32_t(StoreFormat::kUnorm8));
  // FsrEasuCon's con0 for 200 -> 300: 200 / 300 = 0.6666667 and 0.5 * that - 0.5.
  EXPECT_EQ(plan.passes[1].src_scale_x, 200.0f * (1.0f / 300.0f));
  EXPECT_EQ(plan.passes[1].src_offset_x, 0.5f * (200.0f * (1.0f / 300.0f)) - 0.5f);
  o.easu_output = StoreFormat::kHalf;
  EXPECT_EQ(PlanPasses(o, 100, 80).passes[1].store, int32_t(StoreFormat::kHalf));

  // A flat 0.41 through EASU stays 0.41, then is stored: 0.41 * 255 = 104.55 -> 105 / 255 as
  // 8 bits; as a half (steps of 1 / 4096 in [0.25, 0.5)), 0.41 * 4096 = 1679.36 -> 1679 / 4096.
  PassConstants p = Pass(PassKind::kEasu, 8, 4, 16, 8);
  p.store = int32_t(StoreFormat::kUnorm8);
  for (float v : RunPassCpu(p, Grey(std::vector<float>(32, 0.41f)))) {
    EXPECT_TRUE(v == 105.0f / 255.0f || v == 1.0f) << v;  // alpha 1 stays 1
  }
  p.store = int32_t(StoreFormat::kHalf);
  const auto half = RunPassCpu(p, Grey(std::vector<float>(32, 0.41f)));
  EXPECT_EQ(half[0], 1679.0f / 4096.0f);

  // The whole chain keeps a flat image: RCAS on a flat v has hitMin = v / 4v and hitMax =
  // (1 - v) / (4v - 4), both -1/4, so the lobe is the limit -0.1875 * 2^-0.2 and the result
  // v * (1 + 4 lobe) * APrxMedRcp(1 + 4 lobe), within 0.3% of v: 105/255 stays 105.
  FloatImage flat{8, 4, {}};
  for (int i = 0; i < 32; ++i) flat.rgba.insert(flat.rgba.end(), {0.41f, 0.41f, 0.41f, 1.0f});
  o.easu_output = StoreFormat::kUnorm8;
  o.width = 16;
  o.height = 8;
  o.dither = false;
  const PostResult r = MakeCpuPostProcessor(o, 1)->Run(flat);
  for (size_t i = 0; i < r.image.rgba.size(); ++i) EXPECT_EQ(r.image.rgba[i], i % 4 == 3 ? 255 : 105);
}

PassConstants Fxaa(bool extreme, int w, int h) {
  PassConstants p = Pass(PassKind::kFxaa, w, h, w, h);
  p.fxaa_steps = extreme ? 12 : 5;
  p.fxaa_subpix = extreme ? 1.0f : 0.75f;
  p.fxaa_edge_threshold = extreme ? 0.063f : 0.166f;
  p.fxaa_edge_threshold_min = extreme ? 0.0312f : 0.0833f;
  return p;
}

TEST(PostFxaa, VerticalEdgeHandWorked) {
  // 8x8, columns 0-3 black, 4-7 white. Pixel (3, y): lumaM 0, E 1, N = S = W 0: range 1 is above
  // the threshold. edgeVert = |W+E-2M| * 2 + |NW+NE-2N| + |SW+SE-2S| = 2 + 1 + 1 = 4 > edgeHorz
  // = 0: a vertical edge, searched along y. subpixA = (N+S+W+E) * 2 + NW+SW+NE+SE = 2 + 2 = 4;
  // subpixC = |4/12 - 0| / range = 1/3; subpixF = (3 - 2/3) * 1/9 = 0.259259; its square
  // 0.0672154 times subpix (0.75) = 0.0504115. The span runs off both ends equally (clamped
  // edge), so the edge offset is 0 and the subpixel offset wins: the pixel is re-read 0.0504115
  // of a pixel towards the white side -> 0.0504115. By symmetry (4, y) -> 1 - 0.0504115.
  std::vector<float> img;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) img.push_back(x < 4 ? 0.0f : 1.0f);
  for (bool extreme : {false, true}) {
    const auto out = RunPassCpu(Fxaa(extreme, 8, 8), Grey(img));
    const float expected = extreme ? 0.0672154f : 0.0504115f;
    for (int y = 0; y < 8; ++y) {
      EXPECT_NEAR(At(out, 8, 3, y), expected, 1e-4f) << y;
      EXPECT_NEAR(At(out, 8, 4, y), 1.0f - expected, 5e-4f) << y;
      for (int x : {0, 1, 2}) EXPECT_EQ(At(out, 8, x, y), 0.0f);  // no edge: unchanged
      for (int x : {5, 6, 7}) EXPECT_EQ(At(out, 8, x, y), 1.0f);
    }
  }
}

TEST(PostFxaa, ChangesOnlyPixelsNearEdges) {
  // A smooth ramp (below the thresholds) with a bright square: only pixels within one pixel of
  // the square's border may change.
  const int w = 32, h = 24;
  std::vector<float> img;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const bool inside = x >= 10 && x < 20 && y >= 8 && y < 16;
      const float ramp = 0.2f + 0.005f * float(x);
      img.insert(img.end(), {inside ? 0.9f : ramp, inside ? 0.8f : ramp, inside ? 0.7f : ramp, 1.0f});
    }
  }
  const auto out = RunPassCpu(Fxaa(true, w, h), img);
  std::vector<float> in_h(img.size());
  for (size_t i = 0; i < img.size(); ++i) in_h[i] = HalfToFloat(FloatToHalf(img[i]));
  int changed = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const bool near_edge = x >= 9 && x <= 20 && y >= 7 && y <= 16 &&
                             !(x >= 11 && x <= 18 && y >= 9 && y <= 14);
      bool diff = false;
      for (int c = 0; c < 3; ++c) diff |= At(out, w, x, y, c) != At(in_h, w, x, y, c);
      if (diff) ++changed;
      if (!near_edge) {
        EXPECT_FALSE(diff) << x << "," << y;
      }
    }
  }
  EXPECT_GT(changed, 30);
}

TEST(PostDither, BlueNoiseIsAPermutationAndBoundsHold) {
  const auto& ranks = BlueNoiseRanks();
  EXPECT_EQ(std::set<int>(ranks.begin(), ranks.end()).size(), 256u);
  // 0.375 * 255 = 95.625: floor(95.625 + (r + 0.5) / 256) is 96 iff r >= 96: 160 of every 256.
  PostOptions o;
  FloatImage flat{32, 32, {}};
  for (int i = 0; i < 32 * 32; ++i) flat.rgba.insert(flat.rgba.end(), {0.375f, 0.375f, 0.375f, 1});
  const PostResult r = MakeCpuPostProcessor(o, 2)->Run(flat);
  int high = 0;
  for (int i = 0; i < 32 * 32; ++i) {
    const int v = r.image.rgba[size_t(i) * 4];
    EXPECT_TRUE(v == 95 || v == 96);
    high += v == 96;
  }
  EXPECT_EQ(high, 4 * 160);
  // Random values: every dithered byte within one LSB of the exact value.
  FloatImage noise{64, 64, {}};
  uint32_t s = 1;
  for (int i = 0; i < 64 * 64 * 4; ++i) {
    s = s * 1664525u + 1013904223u;
    noise.rgba.push_back(float(s >> 8) / float(1u << 24));
  }
  const PostResult d = MakeCpuPostProcessor(o, 2)->Run(noise);
  for (int i = 0; i < 64 * 64; ++i) {
    for (int c = 0; c < 3; ++c) {
      const float exact = noise.rgba[size_t(i) * 4 + size_t(c)] * 255.0f;  // the input is read exactly
      EXPECT_LT(std::fabs(float(d.image.rgba[size_t(i) * 4 + size_t(c)]) - exact), 1.0f);
    }
    EXPECT_EQ(d.image.rgba[size_t(i) * 4 + 3], 255);
  }
}

}  // namespace
}  // namespace xnt::present
