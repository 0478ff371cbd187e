// raster_point_size_nonsquare: points whose width and height differ, and points whose size the
// vertex shader exports, each showing its sprite coordinate as colour.
//
// PA_SU_POINT_SIZE holds the half width (bits 16-31) and half height (bits 0-15) of a point in
// 12.4 fixed point; a size the vertex shader writes to oPts.x is a diameter for both axes,
// clamped to PA_SU_POINT_MINMAX (half minimum in bits 0-15, half maximum in bits 16-31), while
// the constant size is not clamped (gpu/point_size.h, after Xenia's command processors and its
// point-list geometry shader, which also drop a point with no area). The pixel shader writes the
// sprite coordinate (param gen z, w in r1) to red and green: 0 at the sprite's left / top edge,
// 1 at its right / bottom one.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "point_scene.h"
#include "present_frame.h"
#include "raster_scenes.h"
#include "sample_entry.h"
#include "sample_shaders.h"
#include "xnt/base/error.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::samples {

namespace {

using xenos::PrimitiveType;
using xenos::Reg;

constexpr uint32_t kWidth = 64, kHeight = 32;
constexpr uint32_t kRing = 0x00080000, kVertexBase = 0x00010000, kResolveVerts = 0x00070000;
constexpr uint32_t kScratch = 0x00300000, kFront = 0x00200000;
// PA_SU_POINT_MINMAX: exported diameters clamped to [2, 6] pixels (half sizes 1 and 3 in 12.4).
constexpr uint32_t kMinMax = (3u * 16u) << 16 | (1u * 16u);

struct Point {
  // Centre, authored (D3D9) pixels. Sizes are even and centres at k + 1/2, so every edge lies on
  // a half pixel: between the host pixel centres of two guest pixels at every scale, which
  // keeps the box-downsampled frames the 1x one. (An odd size would put its middle pixel's
  // coordinate at exactly 1/2, which UNORM8 rounds on a tie.)
  float x, y;
  float width, height;     // PA_SU_POINT_SIZE diameters (exported points: unused)
  float exported = -1.0f;  // oPts.x, or < 0 when the point takes the constant size
};
const Point kPoints[] = {
    {10.5f, 8.5f, 8.0f, 4.0f},             // wider than tall: x 7..14, y 7..10
    {24.5f, 16.5f, 2.0f, 10.0f},           // taller than wide: x 24..25, y 12..21
    {40.5f, 8.5f, 6.0f, 0.0f},             // no height: nothing drawn
    {40.5f, 22.5f, 0.0f, 0.0f, 10.0f},     // exported 10, clamped to 6: x 38..43, y 20..25
    {54.5f, 16.5f, 0.0f, 0.0f, 1.0f},      // exported 1, clamped to 2: x 54..55, y 16..17
};

// Position from the vertex buffer's first two floats, oPts.x from the third.
constexpr const char* kSizeVertexShader = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1.xyz_, r0.x, vf0, DataFormat=FMT_32_32_32_FLOAT, Stride=3
    alloc position
    exec
    mov oPos.xy01, r1.xy
    mov oPts.x___, r1.z
    alloc interpolators
    exece
)";
// The sprite coordinate (param gen in r1, z / w) as red and green.
constexpr const char* kCoordPixelShader = XNT_SAMPLE_PS_HEAD R"(    alloc colors
    exece
    mov oC0.xy01, r1.zw
)";

void AuthorPointSizes(format::Writer& writer) {
  const auto vs_size = ucode::AssembleShader(kSizeVertexShader);
  // Every point has a buffer of its own (one vertex): the position shader's stride never matters.
  const auto vs_constant = ucode::AssembleShader(kPositionVertexShader);
  const auto ps = ucode::AssembleShader(kCoordPixelShader);
  capture::RenderTargetSetup rt;
  rt.surface_pitch = kWidth;
  rt.color_base_tiles = 0;
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveVerts,
                                   capture::ResolveRectangleVertices(kWidth, kHeight)});
  for (size_t i = 0; i < std::size(kPoints); ++i) {
    WritePointVertex(writer, kVertexBase + uint32_t(i) * 0x1000, kWidth, kHeight, kPoints[i].x,
                     kPoints[i].y, {kPoints[i].exported});
  }

  capture::Pm4Builder b;
  capture::D3dDeviceDefaults(b);
  const capture::ResolveSetup clear = DarkClear(kWidth, kHeight, kScratch, kResolveVerts);
  capture::D3dResolve(b, rt, clear);
  capture::D3dSetViewport(b, 0, 0, float(kWidth), float(kHeight));
  b.WriteRegister(Reg::PA_SU_POINT_MINMAX, kMinMax);
  for (size_t i = 0; i < std::size(kPoints); ++i) {
    const Point& p = kPoints[i];
    const bool exported = p.exported >= 0.0f;
    capture::D3dSetShaders(b, {exported ? vs_size.microcode : vs_constant.microcode,
                               ps.microcode, 2, 2, 1});
    ParamGenIntoR1(b);
    // PA_SU_POINT_SIZE: half width (bits 16-31) and half height (bits 0-15), 12.4 fixed point.
    const uint32_t half_w = uint32_t(p.width * 8.0f), half_h = uint32_t(p.height * 8.0f);
    b.WriteRegister(Reg::PA_SU_POINT_SIZE, half_w << 16 | half_h);
    capture::D3dSetVertexFetch(b, 95, kVertexBase + uint32_t(i) * 0x1000, 3);
    b.DrawIndx2Auto(PrimitiveType::kPointList, 1);
  }
  PresentFrame(b, writer, rt, clear, kFront, kRing, kWidth, kHeight);
}

// Host pixel (x, y) at S x T samples the authored position g = ((x + 1/2) / S - 1/2, ...): it is
// covered when g lies in [c - w/2, c + w/2) x [c - h/2, c + h/2), and its sprite coordinate is
// (g - (c - w/2)) / w on x (likewise y), written as UNORM8 (x 255, rounded to nearest).
Image ExpectedPointSizes(ResolutionScale scale = {}) {
  Image img;
  img.width = kWidth * scale.x;
  img.height = kHeight * scale.y;
  img.rgba.resize(size_t(img.width) * img.height * 4);
  for (size_t p = 0; p < size_t(img.width) * img.height; ++p) {
    const uint8_t clear[4] = {0x10, 0x18, 0x20, 0xFF};
    std::copy(clear, clear + 4, img.rgba.begin() + 4 * p);
  }
  auto unorm = [](double v) {
    const double scaled = v * 255.0;
    if (std::fabs(scaled - std::floor(scaled) - 0.5) < 1e-3) {
      throw Error("raster_point_size_nonsquare: a coordinate rounds on a tie");
    }
    return uint8_t(std::floor(scaled + 0.5));
  };
  for (const Point& p : kPoints) {
    const double w = p.exported >= 0.0f ? std::clamp(double(p.exported), 2.0, 6.0) : p.width;
    const double h = p.exported >= 0.0f ? w : p.height;
    if (!(w > 0.0) || !(h > 0.0)) continue;
    const double left = p.x - w / 2, top = p.y - h / 2;
    for (uint32_t y = 0; y < img.height; ++y) {
      const double gy = (y + 0.5) / scale.y - 0.5;
      if (gy < top || gy >= top + h) continue;
      for (uint32_t x = 0; x < img.width; ++x) {
        const double gx = (x + 0.5) / scale.x - 0.5;
        if (gx < left || gx >= left + w) continue;
        uint8_t* px = &img.rgba[4 * (size_t(y) * img.width + x)];
        px[0] = unorm((gx - left) / w);
        px[1] = unorm((gy - top) / h);
        px[2] = 0;
        px[3] = 0xFF;
      }
    }
  }
  return img;
}

}  // namespace

std::vector<Sample> RasterPointSizeSamples() {
  Sample s = DescribedSample(
      "raster_point_size_nonsquare",
      "Point sprites of PA_SU_POINT_SIZE width != height (8x4, 2x10, 6x0 which draws nothing) "
      "and of sizes the vertex shader exports in oPts.x clamped to PA_SU_POINT_MINMAX [2, 6] "
      "(10 -> 6, 1 -> 2), each showing its sprite coordinate as red / green",
      "64x32, dark (16,24,32) background; sprites whose red runs 0 -> 255 left to right and green "
      "0 -> 255 top to bottom (blue 0): x 7..14 y 7..10 (8x4); x 24..25 y 12..21 (2x10); x 38..43 "
      "y 20..25 (6x6); x 54..55 y 16..17 (2x2); nothing around (40, 8). All pixels exact.",
      [](format::Writer& w) { AuthorPointSizes(w); }, [] { return ExpectedPointSizes(); });
  s.expected_image_scaled = [](ResolutionScale scale) { return ExpectedPointSizes(scale); };
  return {s};
}

}  // namespace xnt::samples
