// A "flat scene": a colour target cleared by a resolve-with-clear, flat-coloured draws (colour
// from a pixel-shader constant), a resolve into a 32x32-tiled front buffer, and a swap — the
// programming model of ../shared/xenia-oracle. Author() turns it into records; ExpectedImage()
// rasterises it on the CPU.
//
// Coverage is made independent of the pixel-centre convention (D3D9 integer centres vs. +0.5)
// and of tie-breaking rules: every edge is axis-aligned at a k+0.75 coordinate or runs along
// x - y = m + 0.5, so a half-pixel diagonal shift of the sample grid moves no centre across an
// edge and no centre lies on one. ExpectedImage() checks this and throws if a scene breaks it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sample_shaders.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/format/writer.h"
#include "xnt/samples/samples.h"
#include "xnt/xenos/enums.h"

namespace xnt::samples {

struct Vec2 {
  float x, y;  // screen pixels, y down
};

struct FlatDraw {
  xenos::PrimitiveType primitive = xenos::PrimitiveType::kTriangleList;
  std::vector<Vec2> vertices;
  std::vector<uint16_t> indices;  // empty: auto-indexed DRAW_INDX_2; else DMA 16-bit indices
  std::array<uint8_t, 4> rgba{};  // flat colour (PS constant c0)
  // PA_SU_LINE_CNTL written before the draw (half the line width in 12.4 fixed point: 8 is 1
  // pixel; gpu/line_width.h); 0: not written.
  uint32_t line_cntl = 0;
  // PA_SU_SC_MODE_CNTL and PA_SU_POINT_SIZE written before the draw; 0: not written.
  uint32_t mode_cntl = 0;
  uint32_t point_size = 0;
};

struct FlatScene {
  uint32_t width = 320, height = 240;
  std::array<uint8_t, 4> clear_rgba{};
  std::vector<FlatDraw> draws;
};

void AuthorFlatScene(const FlatScene& scene, format::Writer& writer);
// The resolve that clears a scene's width x height colour target to `rgba` (copying it to the
// scratch buffer at kScratchAddress), as the flat and shader scenes begin; also the rectangle of
// their present.
capture::ResolveSetup SceneClear(uint32_t width, uint32_t height,
                                 const std::array<uint8_t, 4>& rgba);
Image ExpectedFlatScene(const FlatScene& scene);

// Coverage of a point by the union of a draw's triangles, for the expected images of the flat and
// shader scenes (edges shared inside the draw do not matter: whichever triangle owns a pixel on
// them gives the same result). 1 inside, 0 outside, -1 when points 1/64 pixel around it disagree,
// i.e. an outer edge passes too close to call.
template <class Tri, class InTriangle>
int InsideUnion(const std::vector<Tri>& tris, double x, double y, InTriangle in_triangle) {
  constexpr double m = 1.0 / 64;
  const double probe[9][2] = {{0, 0}, {m, 0}, {-m, 0}, {0, m}, {0, -m},
                              {m, m}, {-m, -m}, {m, -m}, {-m, m}};
  int inside = 0;
  for (const auto& d : probe) {
    for (const Tri& t : tris) {
      if (in_triangle(t, x + d[0], y + d[1])) {
        ++inside;
        break;
      }
    }
  }
  return inside == 9 ? 1 : inside == 0 ? 0 : -1;
}

// Guest addresses the scene uses.
inline constexpr uint32_t kRingAddress = 0x00080000;
inline constexpr uint32_t kVertexAddress = 0x00010000;   // vertex buffers, 4 KiB apart per draw
inline constexpr uint32_t kIndexAddress = 0x00040000;    // index buffers, 4 KiB apart per draw
inline constexpr uint32_t kResolveVertexAddress = 0x00070000;
inline constexpr uint32_t kScratchAddress = 0x00300000;  // the clear's copy destination
inline constexpr uint32_t kFrontBufferAddress = 0x00200000;

}  // namespace xnt::samples
