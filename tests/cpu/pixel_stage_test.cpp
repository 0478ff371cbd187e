// The pixel stage spread over row bands: a large draw of overlapping, blended triangles gives
// the same EDRAM bytes with 1, 2, 3 and 8 threads, and a draw whose targets alias stays on one
// thread (still the same bytes).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

#include "pixel_stage.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu {
namespace {

using xenos::Reg;

ClipVertex V(double x, double y, double z, float r, float g) {
  ClipVertex v;
  v.pos = {x, y, z, 1.0};
  v.interpolators[0] = {r, g, 0.5f, 0.5f};
  return v;
}

std::vector<uint8_t> Render(uint32_t threads, bool alias) {
  replay::RegisterFile regs;
  regs.Set(Reg::RB_SURFACE_INFO, 640);
  regs.Set(Reg::RB_COLOR_INFO, uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8) << 16);
  regs.Set(Reg::RB_COLOR1_INFO, (alias ? 8u : 600u) | (uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8) << 16));
  regs.Set(Reg::RB_COLOR_MASK, 0xFF);
  // Additive blending makes the result depend on the order of overlapping fragments.
  regs.Set(Reg::RB_BLENDCONTROL0, 1 | (1 << 8) | (1 << 16) | (1 << 24));
  regs.Set(Reg::RB_BLENDCONTROL1, 6 | (7 << 8) | (6 << 16) | (7 << 24));
  const ucode::Shader ps = ucode::Decode(
      ucode::Assemble("xps_3_0\n    alloc colors\n    exece\n    mov oC0, r0\n    mov oC1, r0\n"),
      ucode::ShaderType::kPixel);
  std::vector<Triangle> tris;
  for (int i = 0; i < 12; ++i) {
    const double o = i * 13.0;
    tris.push_back({V(5 + o, 3, 0.5, 0.1f, 0.2f), V(600 - o, 40 + o, 0.5, 0.3f, 0.05f),
                    V(50 + o, 470 - o, 0.5, 0.02f, 0.4f)});
  }
  gpu::edram::Edram edram;
  PixelJob job;
  job.triangles = &tris;
  job.state.x0 = 0, job.state.y0 = 0, job.state.x1 = 640, job.state.y1 = 480;
  job.state.interpolator_count = 1;
  job.state.never_cull = true;
  job.pixel_shader = &ps;
  const ucode::InterpreterConstants constants{};
  job.pixel_constants = &constants;
  job.registers = &regs;
  job.edram = &edram;
  job.color_used[0] = job.color_used[1] = true;
  job.parallel_safe = !alias;
  const PixelStats stats = RunPixels(job, threads);
  EXPECT_GT(stats.pixels_shaded, 100000u);
  EXPECT_EQ(stats.threads, alias ? 1u : threads);
  return {edram.bytes().begin(), edram.bytes().end()};
}

TEST(CpuPixelStage, RowBandsGiveTheSameBytesForAnyThreadCount) {
  const std::vector<uint8_t> one = Render(1, false);
  for (uint32_t t : {2u, 3u, 8u}) EXPECT_TRUE(Render(t, false) == one) << t << " threads";
}

TEST(CpuPixelStage, AliasingTargetsStayOnOneThread) {
  const std::vector<uint8_t> one = Render(1, true);
  EXPECT_TRUE(Render(8, true) == one);
}

}  // namespace
}  // namespace xnt::cpu

namespace xnt::cpu {
namespace {

// Point sprites: a square of `size` pixels centred on the vertex covers the pixels whose centres
// lie in [c - size/2, c + size/2) on both axes; the sprite coordinate runs 0..1 across it.
std::vector<Fragment> Point(double x, double y, double z, float size) {
  PointSprite p;
  p.vertex.pos = {x, y, z, 1.0};
  p.vertex.depth_distance = {z, 1.0 - z};  // Direct3D clip space, depth range 0..1
  p.size = p.height = size;
  RasterState state;
  state.x0 = 0, state.y0 = 0, state.x1 = 64, state.y1 = 64;
  std::vector<Fragment> out;
  RasterizePoint(p, state, [&](const Fragment& f) { out.push_back(f); });
  return out;
}

// A sprite whose finite centre lies far outside any int pixel range covers nothing, and one
// whose square is huge covers the whole scissor (the bounds are clamped before conversion).
TEST(CpuPoints, FarCentresAndHugeSizesStayInTheScissor) {
  for (double far : {1e37, -1e37, 3e9, -3e9}) {
    EXPECT_TRUE(Point(far, 20.0, 0.5, 4.0f).empty()) << far;
    EXPECT_TRUE(Point(10.0, far, 0.5, 4.0f).empty()) << far;
  }
  EXPECT_EQ(Point(10.0, 20.0, 0.5, 1e30f).size(), 64u * 64u);
  EXPECT_EQ(Point(-1e20, 20.0, 0.5, 1e30f).size(), 64u * 64u);
}

TEST(CpuPoints, SquareCoverageIsHalfOpen) {
  // Size 4 at (10, 20): [8, 12) x [18, 22): pixels 8..11 x 18..21.
  std::vector<Fragment> f = Point(10.0, 20.0, 0.5, 4.0f);
  ASSERT_EQ(f.size(), 16u);
  EXPECT_EQ(f.front().x, 8u);
  EXPECT_EQ(f.front().y, 18u);
  EXPECT_EQ(f.back().x, 11u);
  EXPECT_EQ(f.back().y, 21u);
  EXPECT_FLOAT_EQ(f.front().point_coord[0], 0.125f);  // (8.5 - 8) / 4
  EXPECT_FLOAT_EQ(f.back().point_coord[1], 0.875f);   // (21.5 - 18) / 4
  EXPECT_FLOAT_EQ(f.front().depth[0], 0.5f);
  // Size 3 at (10, 20): [8.5, 11.5): centres 8.5, 9.5, 10.5 are in, 11.5 is not.
  f = Point(10.0, 20.0, 0.5, 3.0f);
  ASSERT_EQ(f.size(), 9u);
  EXPECT_EQ(f.front().x, 8u);
  EXPECT_EQ(f.back().x, 10u);
  // Beyond the far plane or before the near one: nothing.
  EXPECT_TRUE(Point(10.0, 20.0, 1.5, 4.0f).empty());
  EXPECT_TRUE(Point(10.0, 20.0, -0.25, 4.0f).empty());
}

// A sprite cut by a user plane (ps_ucp_mode 2-3: PointSprite::clip_planes) against a scalar rule
// over random sprites and planes: a pixel is drawn when its centre is in the sprite's half-open
// rectangle and on the kept side of the plane, with the sprite's depth, flat interpolators and
// sprite coordinate. Pixels whose centre lies within 1/64 pixel of the plane's line or of the
// sprite's edges (where the triangle rasterizer's 1/256-pixel snapping may decide either way,
// as a host's does) are not judged.
TEST(CpuPoints, ClippedSpriteCoversTheKeptSideOfThePlane) {
  std::mt19937 rng(20261130);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  uint32_t judged = 0, drawn = 0, cut = 0;
  for (int iteration = 0; iteration < 300; ++iteration) {
    const double cx = 12.0 + 40.0 * u(rng), cy = 12.0 + 40.0 * u(rng), w = 0.5 + 3.5 * u(rng);
    const float width = float(1 + int(16 * u(rng))) * 0.5f;
    const float height = float(1 + int(16 * u(rng))) * 0.5f;
    // The plane as a function of the screen position: d = a (x - cx) + b (y - cy) + d0, a line
    // through the sprite or near it.
    const double angle = 6.283185307179586 * u(rng);
    const double a = std::cos(angle), b = std::sin(angle);
    const double d0 = (u(rng) - 0.5) * (width + height) * 0.5;
    const auto distance = [&](double x, double y) { return a * (x - cx) + b * (y - cy) + d0; };
    PointSprite p;
    p.vertex.pos = {cx * w, cy * w, 0.25 * w, w};
    p.vertex.depth_distance = {0.25 * w, 0.75 * w};
    p.vertex.interpolators[0] = {0.125f, 0.5f, 0.75f, 1.0f};
    p.size = width, p.height = height;
    // The sides snapped to 1/256 pixel, as the rasterizer (and the host, the Vulkan paths'
    // point quads) snaps them.
    const auto snap = [](double v) { return std::round(v * 256.0) / 256.0; };
    const double left = snap(cx - width * 0.5), top = snap(cy - height * 0.5);
    const double right = snap(cx + width * 0.5), bottom = snap(cy + height * 0.5);
    for (size_t i = 0; i < 4; ++i) {  // top-left, bottom-left, top-right, bottom-right
      p.corner_distance[i][0] = distance(i & 2 ? right : left, i & 1 ? bottom : top) * w;
    }
    p.clip_planes = 1;
    RasterState state;
    state.x0 = 0, state.y0 = 0, state.x1 = 64, state.y1 = 64;
    state.cull_front = state.cull_back = true;  // a sprite has no facing: never culled
    std::map<std::pair<uint32_t, uint32_t>, Fragment> got;
    RasterizePoint(p, state, [&](const Fragment& f) {
      EXPECT_TRUE(got.emplace(std::pair{f.x, f.y}, f).second) << "pixel twice";
    });
    for (uint32_t y = 0; y < 64; ++y) {
      for (uint32_t x = 0; x < 64; ++x) {
        const double px = x + 0.5, py = y + 0.5;
        const bool in_sprite = px >= left && px < right && py >= top && py < bottom;
        const double d = distance(px, py);
        const auto it = got.find({x, y});
        if (!in_sprite) {
          EXPECT_EQ(it, got.end()) << iteration << ": " << x << "," << y << " outside the sprite";
          continue;
        }
        const double edge =
            std::min(std::min(px - left, right - px), std::min(py - top, bottom - py));
        if (std::fabs(d) < 1.0 / 64.0 || edge < 1.0 / 64.0) continue;
        ++judged;
        cut += d < 0.0;
        ASSERT_EQ(it != got.end(), d >= 0.0)
            << iteration << ": pixel " << x << "," << y << " d " << d;
        if (it == got.end()) continue;
        ++drawn;
        const Fragment& f = it->second;
        EXPECT_TRUE(f.point);
        EXPECT_FLOAT_EQ(f.depth[0], 0.25f);
        EXPECT_EQ(f.interpolators[0][1], 0.5f);
        EXPECT_NEAR(f.point_coord[0], (px - left) / width, 1e-6);
        EXPECT_NEAR(f.point_coord[1], (py - top) / height, 1e-6);
      }
    }
  }
  // Both sides were seen, many times.
  EXPECT_GT(drawn, 2000u);
  EXPECT_GT(cut, 2000u);
  EXPECT_GT(judged, drawn + 2000u);
}

}  // namespace
}  // namespace xnt::cpu
