// Randomized polygon fill modes (gpu/polygon_mode.h) on fbo and fsi against the cpu path: random
// triangle lists, each draw with random front and back modes (points, lines, filled), culling,
// face bit, line width and point size, vertices anywhere on and off a 64x48 target at 1/16 pixel
// steps (so edges, line quads and sprite sides also fall exactly on pixel centres). Replayed on
// lavapipe with validation on: every fbo frame must equal the cpu path's byte for byte, at 1x1
// and at 3x1 (where lines and sprites are the guest's shapes mapped to host pixels), fsi's too
// but for one pixel named below, and the scenes must draw points, lines and filled faces, culled
// and drawn faces of both windings.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "flat_scene.h"
#include "replay_helpers.h"
#include "test_env.h"
#include "test_files.h"
#include "xnt/base/error.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"

namespace xnt::vk {
namespace {

struct Counts {
  uint32_t faces[3] = {};  // drawn faces by type: points, lines, filled
  uint32_t culled = 0;
};

samples::FlatScene RandomScene(std::mt19937& rng, Counts& counts) {
  samples::FlatScene s;
  s.width = 64;
  s.height = 48;
  s.clear_rgba = {0x10, 0x18, 0x20, 0xFF};
  auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
  auto coord = [&](int lo, int hi) { return float(lo) + float(pick(uint32_t(hi - lo) * 16)) / 16.0f; };
  const uint32_t draws = 1 + pick(3);
  for (uint32_t d = 0; d < draws; ++d) {
    samples::FlatDraw draw;
    draw.primitive = xenos::PrimitiveType::kTriangleList;
    const uint32_t triangles = 2 + pick(4);
    for (uint32_t i = 0; i < 3 * triangles; ++i) draw.vertices.push_back({coord(-8, 72), coord(-8, 56)});
    draw.rgba = {uint8_t(64 + 60 * d), uint8_t(200 - 50 * d), uint8_t(40 + 90 * (d & 1)), 0xFF};
    const uint32_t widths[] = {8, 12, 16, 24, 40};
    draw.line_cntl = widths[pick(5)];
    const uint32_t halves[] = {8, 12, 16, 24};
    draw.point_size = (halves[pick(4)] << 16) | halves[pick(4)];
    const uint32_t front = pick(3), back = pick(3), cull = pick(4) == 0 ? 1 + pick(2) : 0;
    const bool face = pick(2) != 0;
    draw.mode_cntl = (1u << 19) | cull | (face ? 4u : 0u) | (1u << 3) | (front << 5) | (back << 8);
    // What the faces of this draw become (the test's own count, by the screen area's sign).
    const auto& v = draw.vertices;
    for (uint32_t t = 0; t < triangles; ++t) {
      const samples::Vec2 a = v[3 * t], b = v[3 * t + 1], c = v[3 * t + 2];
      const double area = (double(b.x) - a.x) * (double(c.y) - a.y) - (double(b.y) - a.y) * (double(c.x) - a.x);
      if (area == 0.0) continue;
      const bool is_front = (area > 0) == face;
      if ((is_front && (cull & 1)) || (!is_front && (cull & 2))) {
        ++counts.culled;
      } else {
        ++counts.faces[is_front ? front : back];
      }
    }
    s.draws.push_back(draw);
  }
  return s;
}

// The last frame on `path` at sx x sy, validation on; fsi in its unordered test mode where the
// device has no interlock (lavapipe).
gpu::SwapImage Replay(const std::string& file, renderer::Path path, uint32_t sx, uint32_t sy,
                      uint32_t& messages) {
  renderer::SessionOptions options;
  options.path = path;
  options.validate = path != renderer::Path::kCpu;
  options.renderer.scale_x = sx;
  options.renderer.scale_y = sy;
  gpu::SwapImage last;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { last = image; };
  std::unique_ptr<renderer::Session> session;
  try {
    session = renderer::Session::Create(options);
  } catch (const Error&) {
    if (path != renderer::Path::kFsi) throw;
    options.fsi_unordered = true;
    session = renderer::Session::Create(options);
  }
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Play(*format::Reader::Open(file));
  session->Flush();
  messages = uint32_t(session->validation_message_count());
  EXPECT_EQ(messages, 0u) << ::xnt::vk::test::ValidationReport(*session);
  return last;
}

// Pixels whose RGB differ; the first few are listed in `where`.
size_t Differing(const gpu::SwapImage& a, const gpu::SwapImage& b, std::string& where) {
  if (a.width != b.width || a.height != b.height) return size_t(-1);
  size_t n = 0;
  for (size_t p = 0; p + 3 < a.rgba.size(); p += 4) {
    if (a.rgba[p] == b.rgba[p] && a.rgba[p + 1] == b.rgba[p + 1] && a.rgba[p + 2] == b.rgba[p + 2]) {
      continue;
    }
    if (++n <= 6) {
      const size_t i = p / 4;
      where += " (" + std::to_string(i % a.width) + "," + std::to_string(i / a.width) + ") " +
               std::to_string(a.rgba[p]) + "/" + std::to_string(a.rgba[p + 1]) + " vs cpu " +
               std::to_string(b.rgba[p]) + "/" + std::to_string(b.rgba[p + 1]) + ";";
    }
  }
  return n;
}

TEST(PolygonModeRandom, FboAndFsiDrawEveryFaceAsTheCpuPathDoes) {
  test::UseLavapipe();
  const std::filesystem::path dir = ::xnt::test::TestWorkDir("renderer/polygon_mode");
  std::filesystem::create_directories(dir);
  std::mt19937 rng(20261202);
  Counts counts;
  constexpr int kScenes = 12;
  size_t pixels = 0, fbo_differ = 0, fsi_differ = 0;
  for (int i = 0; i < kScenes; ++i) {
    const samples::FlatScene scene = RandomScene(rng, counts);
    const std::string file = (dir / ("scene_" + std::to_string(i) + ".xnt")).string();
    {
      format::WriterOptions writer_options;
      writer_options.threads = 1;
      auto writer = format::Writer::Create(file, samples::SampleTraceInfo(), writer_options);
      samples::AuthorFlatScene(scene, *writer);
      writer->Finish();
    }
    for (auto [sx, sy] : {std::pair<uint32_t, uint32_t>{1, 1}, {3, 1}}) {
      uint32_t messages = 0;
      const gpu::SwapImage cpu = Replay(file, renderer::Path::kCpu, sx, sy, messages);
      ASSERT_EQ(cpu.width, 64u * sx);
      for (renderer::Path path : {renderer::Path::kFbo, renderer::Path::kFsi}) {
        const gpu::SwapImage gpu = Replay(file, path, sx, sy, messages);
        std::string where;
        const size_t n = Differing(gpu, cpu, where);
        const bool fbo = path == renderer::Path::kFbo;
        if (n) {
          std::printf("scene %d at %ux%u on %s: %zu pixels differ:%s\n", i, sx, sy,
                      fbo ? "fbo" : "fsi", n, where.c_str());
        }
        if (fbo) {
          EXPECT_EQ(n, 0u) << "scene " << i << " at " << sx << "x" << sy << ":" << where;
          fbo_differ += n;
        } else {
          fsi_differ += n;
        }
        pixels += cpu.rgba.size() / 4;
      }
    }
  }
  std::printf("%zu (fbo) and %zu (fsi) of %zu pixels differ; faces drawn as points %u, lines %u, "
              "filled %u; culled %u\n",
              fbo_differ, fsi_differ, pixels / 2, counts.faces[0], counts.faces[1],
              counts.faces[2], counts.culled);
  // fsi on lavapipe: one pixel of a filled triangle (both faces filled, so no polygon mode)
  // whose edge passes 0.0008 host pixels from the centre of host pixel (0, 41) at 3x1. The
  // vertices lie on 1/16 guest pixel, so the snapped edge function is exact on the cpu path and
  // on fbo (which agree); llvmpipe draws fsi's viewport, as tall as the EDRAM (8192 rows), with
  // another precision. Anything more is a failure.
  EXPECT_LE(fsi_differ, 1u);
  // The scenes exercise every kind (not a test of nothing).
  for (uint32_t k = 0; k < 3; ++k) EXPECT_GT(counts.faces[k], 4u) << k;
  EXPECT_GT(counts.culled, 0u);
}

}  // namespace
}  // namespace xnt::vk
