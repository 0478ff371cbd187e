// raster_point_sprite_mips: textured point sprites whose mip level follows their size.
//
// The hardware shades every primitive in 2x2 quads, point sprites included, so a sprite's pixels
// have screen derivatives of the sprite coordinate (param gen z/w, gl_PointCoord on the fbo
// path's host): 1 / size per pixel. Sampling a 16x16 texture with it gives rho = 16 / size
// texels per pixel and lambda = log2(16 / size): sprites of 16, 8, 4 and 2 pixels read levels
// 0, 1, 2 and 3 (nearest mip, point filters). Every level is one colour, so the expected image
// is the four squares in their level's colour, independent of where in a level a pixel samples.
//
// Memory layout (texture_descriptor.cpp, after Xenia texture_util GetGuestTextureLayout): the
// base is a linear 16x16 k_8_8_8_8 with a 32-texel pitch, rows 256-byte aligned (16 rows of
// 256 bytes); without packed mips each mip storage is 32x32 blocks with 256-byte rows, 8 KiB,
// one after the other from the mip address: level 1 at +0, level 2 at +8 KiB, level 3 at +16 KiB.
#include <algorithm>
#include <cmath>
#include <string>

#include "point_scene.h"
#include "raster_scenes.h"
#include "present_frame.h"
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
using Rgba = std::array<uint8_t, 4>;

constexpr uint32_t kWidth = 96, kHeight = 32;
constexpr uint32_t kRing = 0x00080000, kVertexBase = 0x00010000, kResolveVerts = 0x00070000;
constexpr uint32_t kScratch = 0x00300000, kFront = 0x00200000;
constexpr uint32_t kTexture = 0x01000000, kMips = 0x01010000;
constexpr uint32_t kLevels = 4;

const Rgba kLevelColor[kLevels] = {
    {0xE0, 0x30, 0x30, 0xFF}, {0x30, 0xC8, 0x40, 0xFF}, {0x40, 0x60, 0xF0, 0xFF},
    {0xF0, 0xD0, 0x20, 0xFF}};

struct Sprite {
  // Centre, authored (D3D9) pixels: k + 0.125 puts the (even-sized) edges at k + 0.625 on the
  // screen, off every pixel centre at 1x and every host pixel centre at 2x and 3x.
  float x, y;
  uint32_t size;  // pixels
  uint32_t level; // log2(16 / size)
};
const Sprite kSprites[] = {{12.125f, 16.125f, 16, 0},
                           {36.125f, 16.125f, 8, 1},
                           {60.125f, 16.125f, 4, 2},
                           {80.125f, 16.125f, 2, 3}};

// The sprite coordinate (param gen in r1, z/w) as the texture coordinate.
const char* const kPointPixelShader = XNT_SAMPLE_PS_HEAD R"(    exec
    tfetch2D r0, r1.zw, tf0
    alloc colors
    exece
    mov oC0, r0
)";

std::vector<uint8_t> Solid(size_t bytes, const Rgba& c) {
  std::vector<uint8_t> out(bytes);
  for (size_t i = 0; i < bytes; i += 4) std::copy(c.begin(), c.end(), out.begin() + i);
  return out;
}

void AuthorPointSprites(format::Writer& writer) {
  const auto vs = ucode::AssembleShader(kPositionVertexShader);
  const auto ps = ucode::AssembleShader(kPointPixelShader);
  capture::RenderTargetSetup rt;
  rt.surface_pitch = kWidth;
  rt.color_base_tiles = 0;

  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveVerts,
                                   capture::ResolveRectangleVertices(kWidth, kHeight)});
  // Texel bytes R, G, B, A in memory (k_8_8_8_8, no endian swap).
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kTexture,
                                   Solid(16 * 256, kLevelColor[0])});
  std::vector<uint8_t> mips;
  for (uint32_t level = 1; level < kLevels; ++level) {
    const auto storage = Solid(0x2000, kLevelColor[level]);
    mips.insert(mips.end(), storage.begin(), storage.end());
  }
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kMips, mips});
  for (size_t i = 0; i < std::size(kSprites); ++i) {
    WritePointVertex(writer, kVertexBase + uint32_t(i) * 0x1000, kWidth, kHeight, kSprites[i].x,
                     kSprites[i].y);
  }

  capture::Pm4Builder b;
  capture::D3dDeviceDefaults(b);
  const capture::ResolveSetup clear = DarkClear(kWidth, kHeight, kScratch, kResolveVerts);
  capture::D3dResolve(b, rt, clear);

  capture::D3dSetViewport(b, 0, 0, float(kWidth), float(kHeight));
  capture::D3dSetShaders(b, {vs.microcode, ps.microcode, 2, 2, 1});
  ParamGenIntoR1(b);
  // The texture: 16x16 linear k_8_8_8_8, mag/min/mip point, mip levels 0..3, no packed mips.
  std::array<uint32_t, 6> fetch = capture::TextureFetch2D(
      kTexture, 16, 16, xenos::TextureFormat::k_8_8_8_8, false, xenos::Endian::kNone);
  fetch[3] &= ~(0x3Fu << 19);
  fetch[4] = (fetch[4] & ~0x3FCu) | ((kLevels - 1) << 6);
  fetch[5] = (fetch[5] & 0xFFFu) | kMips;
  b.WriteRegisters(xenos::FetchConstantIndex(0, 0), fetch);
  b.WriteRegister(Reg::PA_SU_POINT_MINMAX, 0xFFFF0000u);
  for (size_t i = 0; i < std::size(kSprites); ++i) {
    // PA_SU_POINT_SIZE: half width and half height in 12.4 fixed point.
    const uint32_t half = kSprites[i].size * 8;
    b.WriteRegister(Reg::PA_SU_POINT_SIZE, half | half << 16);
    capture::D3dSetVertexFetch(b, 95, kVertexBase + uint32_t(i) * 0x1000, 2);
    b.DrawIndx2Auto(PrimitiveType::kPointList, 1);
  }

  PresentFrame(b, writer, rt, clear, kFront, kRing, kWidth, kHeight);
}

// At a resolution scale a sprite is size x S by size x T host pixels and its coordinate moves
// 1 / (size x S) and 1 / (size x T) per host pixel. A replay's screen derivatives are per guest
// pixel by default (gpu::ScaledDerivatives::kGuest: the host's differences times S and T), so
// rho is 16 / size at every scale and each sprite reads its 1x level. Edges at k + 0.625 guest
// pixels lie 1/8 or more from every host centre at odd scales; even scales have no image here.
Image ExpectedPointSprites(ResolutionScale scale = {}) {
  if (scale.x % 2 == 0 || scale.y % 2 == 0) {
    throw Error("raster_point_sprite_mips: no expected image at " + scale.Name());
  }
  Image img;
  img.width = kWidth * scale.x;
  img.height = kHeight * scale.y;
  img.rgba.resize(size_t(img.width) * img.height * 4);
  const Rgba clear{0x10, 0x18, 0x20, 0xFF};
  for (size_t p = 0; p < size_t(img.width) * img.height; ++p) {
    std::copy(clear.begin(), clear.end(), img.rgba.begin() + 4 * p);
  }
  for (const Sprite& s : kSprites) {
    const double lambda = std::log2(16.0 / double(s.size));
    const uint32_t level = uint32_t(std::clamp(std::floor(lambda + 0.5), 0.0, double(kLevels - 1)));
    // Host pixel (x, y) samples the authored position ((x + 1/2) / S - 1/2, ...) (D3D9 centres:
    // pixel (x, y) samples (x, y) at 1x): covered when it lies in [c - size/2, c + size/2) on
    // both axes.
    const double half = double(s.size) / 2;
    for (uint32_t y = 0; y < img.height; ++y) {
      const double gy = (y + 0.5) / scale.y - 0.5;
      if (gy < s.y - half || gy >= s.y + half) continue;
      for (uint32_t x = 0; x < img.width; ++x) {
        const double gx = (x + 0.5) / scale.x - 0.5;
        if (gx < s.x - half || gx >= s.x + half) continue;
        const Rgba& c = kLevelColor[level];
        std::copy(c.begin(), c.end(), img.rgba.begin() + 4 * (size_t(y) * img.width + x));
      }
    }
  }
  return img;
}

}  // namespace

std::vector<Sample> RasterPointSamples() {
  Sample s = DescribedSample(
      "raster_point_sprite_mips",
      "Textured point sprites of 16, 8, 4 and 2 pixels sampling a 4-level mip chain through the "
      "sprite coordinate: the level follows the size (quads give points derivatives)",
      "96x32, dark (16,24,32) background; squares centred on row 16: x 5..20 y 9..24 red "
      "(224,48,48) = level 0; x 33..40 y 13..20 green (48,200,64) = level 1; x 59..62 y 15..18 "
      "blue (64,96,240) = level 2; x 80..81 y 16..17 yellow (240,208,32) = level 3. All pixels "
      "exact.",
      [](format::Writer& w) { AuthorPointSprites(w); }, [] { return ExpectedPointSprites(); });
  s.expected_image_scaled = [](ResolutionScale scale) { return ExpectedPointSprites(scale); };
  return {s};
}

}  // namespace xnt::samples
