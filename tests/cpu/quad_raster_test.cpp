// The triangle rasterizer's two orders against each other: with RasterState::quads the covered
// pixels come in runs of 2x2 quads (coverage of quads wholly inside taken without per-sample
// tests, the quads' attributes computed a run at a time in vector registers), without it pixel by
// pixel through the scalar Interpolate. The hardware's rule is the same for both, so every covered
// pixel must come out of both with the same coverage, the same depth at each covered sample and
// the same interpolator bits, and the quad order may add only helpers (no sample covered). Random
// triangles (perspective, steep, thin, large), 1 / 2 / 4 samples, centroid masks, depth on and off.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <utility>

#include "geometry.h"

namespace xnt::cpu {
namespace {

ClipVertex RandomVertex(std::mt19937& rng, double reach, bool perspective) {
  std::uniform_real_distribution<double> pos(-reach * 0.25, reach * 1.25), w(0.25, 4.0),
      z(0.0, 1.0);
  std::uniform_real_distribution<float> attr(-100.0f, 100.0f);
  ClipVertex v;
  const double vw = perspective ? w(rng) : 1.0;
  v.pos = {pos(rng) * vw, pos(rng) * vw, z(rng) * vw, vw};
  for (auto& i : v.interpolators) {
    for (float& c : i) c = attr(rng);
  }
  return v;
}

using Key = std::pair<uint32_t, uint32_t>;

TEST(CpuQuadRaster, QuadsGiveThePerPixelFragmentsBitForBit) {
  std::mt19937 rng(2026);
  uint64_t pixels = 0, fully_covered = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const bool perspective = trial % 3 != 0;
    const double reach = trial % 5 == 0 ? 300.0 : 48.0;
    const ClipVertex a = RandomVertex(rng, reach, perspective);
    const ClipVertex b = RandomVertex(rng, reach, perspective);
    const ClipVertex c = RandomVertex(rng, reach, perspective);
    RasterState s;
    s.x0 = int32_t(rng() % 7), s.y0 = int32_t(rng() % 7);  // odd edges: partial quads
    s.x1 = s.x0 + 40 + int32_t(rng() % 200), s.y1 = s.y0 + 40 + int32_t(rng() % 200);
    s.interpolator_count = 1 + rng() % 16;
    s.samples = 1u << (rng() % 3);
    s.centroid_mask = trial % 4 == 0 ? uint32_t(rng()) : 0u;
    s.depth = trial % 2 == 0;
    s.perspective = perspective || trial % 7 == 0;
    s.never_cull = true;
    std::map<Key, Fragment> by_pixel;
    s.quads = false;
    RasterizeTriangle(a, b, c, s, [&](const Fragment& f) {
      EXPECT_TRUE(by_pixel.emplace(Key{f.x, f.y}, f).second) << "pixel emitted twice";
    });
    s.quads = true;
    size_t seen = 0;
    RasterizeTriangle(a, b, c, s, [&](const Fragment& f) {
      if (f.helper) {
        EXPECT_EQ(f.coverage, 0u);
        return;
      }
      ++seen;
      const auto it = by_pixel.find(Key{f.x, f.y});
      ASSERT_NE(it, by_pixel.end()) << "trial " << trial << " pixel " << f.x << "," << f.y;
      const Fragment& p = it->second;
      ASSERT_EQ(f.coverage, p.coverage) << "trial " << trial << " pixel " << f.x << "," << f.y;
      for (uint32_t smp = 0; smp < s.samples && s.depth; ++smp) {
        if (p.coverage & (1u << smp)) {
          ASSERT_EQ(f.depth[smp], p.depth[smp]) << "trial " << trial;
        }
      }
      for (uint32_t k = 0; k < s.interpolator_count; ++k) {
        ASSERT_EQ(std::memcmp(&f.interpolators[k], &p.interpolators[k], sizeof(Float4)), 0)
            << "trial " << trial << " pixel " << f.x << "," << f.y << " interpolator " << k;
      }
      fully_covered += f.coverage == (1u << s.samples) - 1u;
    });
    EXPECT_EQ(seen, by_pixel.size()) << "trial " << trial;
    pixels += seen;
  }
  // The cases reach enough pixels, and fully covered ones, to exercise both coverage routes.
  EXPECT_GT(pixels, 100000u);
  EXPECT_GT(fully_covered, 50000u);
}

}  // namespace
}  // namespace xnt::cpu
