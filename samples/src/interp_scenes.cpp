// Pixel-shader inputs the sequencer generates (renderer/gpu/pixel_inputs.h):
//
// interp_centroid_msaa4x_edge: under 4x MSAA, interpolator 0 sampled at the centroid and
// interpolator 1 at the pixel centre (SQ_CONTEXT_MISC sc_sample_cntl = both, SQ_INTERPOLATOR_CNTL
// sampling_pattern bit 1 = centre), both holding one attribute that falls off linearly from a
// vertical right edge; the pixel shader writes them as red and green. Three bands of 8 rows
// (rectangles from x 24, two triangles each) put the edge at x = 40 + 7/16, 3/4 and 15/16:
// the edge column then covers samples {0, 2}, {0, 2, 3} and all four (4x positions (3/8, 1/8),
// (7/8, 3/8), (1/8, 5/8), (5/8, 7/8)). The present resolves sample 0 (copy_sample_select 0),
// which every visible pixel covers, so the lowest covered sample is sample 0: red is the
// attribute at x + 3/8 there, green at x + 1/2, in the first band beyond the edge
// (extrapolated). Fully covered pixels take the centre for both; the pixels the rectangle's
// diagonal cuts are partly covered by each of its triangles, so red is at x + 3/8 there too.
//
// interp_param_gen: PsParamGen in r1 of a pixel shader that shows |x| and |y| as red and green
// (3/256 per pixel), the sprite coordinate as blue s / 2 + t / 4, and the flags from the sign
// bits (rcp turns -0 into -inf, cndge tests it): back face +1/4 blue, point +1/4 green, line
// +1/4 red. A back-facing rectangle x 0..31 (its column 0 is x = -0.0), a front-facing one
// x 32..63 (rows 0..15), 4-pixel point sprites and a 1-pixel horizontal line (rows 16..31).
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "interp_scenes.h"
#include "present_frame.h"
#include "sample_entry.h"
#include "sample_shaders.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::samples {

namespace {

using xenos::PrimitiveType;
using xenos::Reg;

constexpr uint32_t kRing = 0x00080000, kVertexBase = 0x00010000, kResolveVerts = 0x00070000;
constexpr uint32_t kScratch = 0x00300000, kFront = 0x00200000;
constexpr uint32_t kPsConstants = 256;  // D3D's 256/256 partition: c0 of the pixel shader
constexpr uint32_t kStreamSlot = 95;    // vf0

// Position (clip float2) and one attribute, exported to interpolators 0 and 1.
const char* const kAttributeVertexShader = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1.xyz_, r0.x, vf0, DataFormat=FMT_32_32_32_FLOAT, Stride=3
    alloc position
    exec
    mov oPos.xy01, r1.xy
    alloc interpolators
    exec
    mov o0, r1.zzzz
    exece
    mov o1, r1.zzzz
)";

const char* const kCentroidPixelShader = XNT_SAMPLE_PS_HEAD R"(    exec
    mov r2.x, r0.x
    mov r2.y, r1.x
    alloc colors
    exece
    mov oC0.xy01, r2.xy
)";

// c0 = (0, 1/4, 0, 1), c1 = (3/256, 3/256, 1/2, 1/4). r4: 1/4 per sign bit of x, y, z.
const char* const kParamGenPixelShader = XNT_SAMPLE_PS_HEAD R"(    exec
    rcp r5.x, r1.x
    rcp r5.y, r1.y
    rcp r5.z, r1.z
    mov r5.w, c0.w
    cndge r4, r5, c0.xxxx, c0.yyyy
    exec
    mul r3, r1_abs, c1
    add r3.xyz, r3.xyz, r4.zyxw
    add r3.z, r3.z, r3.w
    alloc colors
    exece
    mov oC0, r3
)";

uint8_t Unorm8(double v) { return uint8_t(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); }

// Throws when v * 255 is within 1/512 of a rounding tie: the paths compute in float and must not
// be able to round the other way.
uint8_t SafeUnorm8(double v) {
  const double scaled = std::clamp(v, 0.0, 1.0) * 255.0;
  if (std::fabs(scaled - std::floor(scaled) - 0.5) < 1.0 / 512) {
    throw Error("interp sample value " + std::to_string(v) + " is too close to a rounding tie");
  }
  return Unorm8(v);
}

void Put(std::vector<uint8_t>& bytes, const std::vector<float>& floats) {
  for (float f : floats) {
    uint8_t word[4];
    StoreBE32(word, std::bit_cast<uint32_t>(f));
    bytes.insert(bytes.end(), word, word + 4);
  }
}

// One draw's vertex buffer (big-endian floats) at kVertexBase + index * 4 KiB.
void WriteVertexBuffer(format::Writer& writer, uint32_t index, const std::vector<float>& floats) {
  std::vector<uint8_t> bytes;
  Put(bytes, floats);
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                                   kVertexBase + index * 0x1000, bytes});
}

// The resolve clearing a width x height target to `color` (RB_COLOR_CLEAR), copied to scratch.
capture::ResolveSetup ClearTo(uint32_t width, uint32_t height, uint32_t color) {
  return {.width = width, .height = height, .dest_address = kScratch, .dest_pitch = width,
          .dest_height = height, .clear_color = true, .clear_color_value = color,
          .vertex_address = kResolveVerts};
}

// A scene's start: device defaults, the clear to `color` (returned: the present copies the same
// rectangle), the whole viewport and the shader pair.
capture::ResolveSetup BeginScene(capture::Pm4Builder& b, const capture::RenderTargetSetup& rt,
                                 uint32_t width, uint32_t height, uint32_t color,
                                 const capture::ShaderPair& shaders) {
  capture::D3dDeviceDefaults(b);
  const capture::ResolveSetup clear = ClearTo(width, height, color);
  capture::D3dResolve(b, rt, clear);
  capture::D3dSetViewport(b, 0, 0, float(width), float(height));
  capture::D3dSetShaders(b, shaders);
  return clear;
}

// Screen position (pixel centres on halves) -> clip space of a width x height viewport, whose
// Direct3D 9 transform adds the half pixel (pixel centres on integers in the authored space).
float ClipX(float x, uint32_t width) { return (x - 0.5f) / (float(width) / 2) - 1.0f; }
float ClipY(float y, uint32_t height) { return 1.0f - (y - 0.5f) / (float(height) / 2); }

// ---- interp_centroid_msaa4x_edge ----------------------------------------------------------------

constexpr uint32_t kCentroidWidth = 64, kCentroidHeight = 40;
constexpr double kEdgeFraction[3] = {7.0 / 16, 12.0 / 16, 15.0 / 16};
constexpr double kAttributeBase = 0.25, kAttributeSlope = 0.1;  // per pixel left of the edge

double EdgeX(int band) { return 40.0 + kEdgeFraction[band]; }  // screen
double BandTop(int band) { return 8.0 + 8.0 * band; }
double Attribute(int band, double screen_x) {
  return kAttributeBase + (EdgeX(band) - screen_x) * kAttributeSlope;
}
constexpr double kBandLeft = 24.0;

// Band `band`'s rectangle x [24, e), rows [top, top + 8) as two triangles split by the diagonal
// from (24, top) to (e, top + 8): 1 above it (upper right), 0 below. Every corner lies on the
// screen: a host that clips a primitive to its viewport (lavapipe does) splits it into a fan
// whose inner edges leave partly covered pixels (which take the centroid) where the cpu path's
// unsplit triangle has none; and no scissor, which lavapipe's 4x rasterizer oversteps by the
// right/lower samples of the pixels beside it.
bool AboveDiagonal(int band, double x, double y) {
  return (y - BandTop(band)) * (EdgeX(band) - kBandLeft) < 8.0 * (x - kBandLeft);
}

void AuthorCentroidEdge(format::Writer& writer) {
  const auto vs = ucode::AssembleShader(kAttributeVertexShader);
  const auto ps = ucode::AssembleShader(kCentroidPixelShader);
  capture::RenderTargetSetup rt;
  rt.surface_pitch = kCentroidWidth;
  rt.msaa = xenos::MsaaSamples::k4X;
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveVerts,
                                   capture::ResolveRectangleVertices(kCentroidWidth,
                                                                     kCentroidHeight)});
  for (int band = 0; band < 3; ++band) {
    const double e = EdgeX(band), l = kBandLeft, t = BandTop(band), b = t + 8.0;
    const double xs[6] = {l, e, e, l, e, l}, ys[6] = {t, t, b, t, b, b};
    std::vector<float> v;
    for (int i = 0; i < 6; ++i) {
      v.insert(v.end(), {ClipX(float(xs[i]), kCentroidWidth), ClipY(float(ys[i]), kCentroidHeight),
                         float(Attribute(band, xs[i]))});
    }
    WriteVertexBuffer(writer, uint32_t(band), v);
  }
  capture::Pm4Builder b;
  // Cleared to blue 64.
  const capture::ShaderPair shaders{vs.microcode, ps.microcode, 2, 3, 2};
  const capture::ResolveSetup clear =
      BeginScene(b, rt, kCentroidWidth, kCentroidHeight, 0xFF400000u, shaders);
  // Centroids and centres per interpolator; interpolator 1 at the centre.
  b.WriteRegister(Reg::SQ_CONTEXT_MISC, uint32_t(xenos::SampleControl::kCentroidsAndCenters) << 2);
  b.WriteRegister(Reg::SQ_INTERPOLATOR_CNTL, 0x2u << 16);
  for (uint32_t band = 0; band < 3; ++band) {
    capture::D3dSetVertexFetch(b, kStreamSlot, kVertexBase + band * 0x1000, 18);
    b.DrawIndx2Auto(PrimitiveType::kTriangleList, 6);
  }
  PresentFrame(b, writer, rt, clear, kFront, kRing, kCentroidWidth, kCentroidHeight);
}

Image ExpectedCentroidEdge() {
  constexpr double kSampleX[4] = {3.0 / 8, 7.0 / 8, 1.0 / 8, 5.0 / 8};
  constexpr double kSampleY[4] = {1.0 / 8, 3.0 / 8, 5.0 / 8, 7.0 / 8};
  Image img;
  img.width = kCentroidWidth;
  img.height = kCentroidHeight;
  img.rgba.resize(size_t(kCentroidWidth) * kCentroidHeight * 4);
  for (uint32_t y = 0; y < kCentroidHeight; ++y) {
    const int band = int(y / 8) - 1;
    for (uint32_t x = 0; x < kCentroidWidth; ++x) {
      uint8_t* p = &img.rgba[(size_t(y) * kCentroidWidth + x) * 4];
      p[0] = 0, p[1] = 0, p[2] = 64, p[3] = 255;
      if (band < 0 || band > 2 || x < kBandLeft) continue;
      // Sample 0 is what the present copies: covered when left of the right edge (the rows and
      // x >= 24 are whole pixels, no sample on an edge); the triangle holding it covers the
      // samples on its side of the diagonal too.
      if (!(x + kSampleX[0] < EdgeX(band))) continue;
      const bool above = AboveDiagonal(band, x + kSampleX[0], y + kSampleY[0]);
      uint32_t coverage = 0;
      for (uint32_t s = 0; s < 4; ++s) {
        if (x + kSampleX[s] < EdgeX(band) &&
            AboveDiagonal(band, x + kSampleX[s], y + kSampleY[s]) == above) {
          coverage |= 1u << s;
        }
      }
      // Partly covered: the centroid is sample 0, the lowest covered one (the attribute varies
      // along x only).
      const double centroid_x = coverage == 15u ? x + 0.5 : x + kSampleX[0];
      p[0] = SafeUnorm8(Attribute(band, centroid_x));
      p[1] = SafeUnorm8(Attribute(band, x + 0.5));
      p[2] = 0;
    }
  }
  return img;
}

// ---- interp_param_gen ---------------------------------------------------------------------------

constexpr uint32_t kGenWidth = 64, kGenHeight = 32;
struct GenSprite {
  float x, y;  // screen centre; k + 5/8 keeps the 4-pixel square's edges off pixel centres
};
constexpr GenSprite kGenSprites[] = {{6.625f, 20.625f}, {14.625f, 26.625f}, {24.625f, 22.625f}};
constexpr float kLineY = 24.75f, kLineX0 = 36.75f, kLineX1 = 60.75f;  // screen

void AuthorParamGen(format::Writer& writer) {
  const auto vs = ucode::AssembleShader(kPositionVertexShader);
  const auto ps = ucode::AssembleShader(kParamGenPixelShader);
  capture::RenderTargetSetup rt;
  rt.surface_pitch = kGenWidth;
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveVerts,
                                   capture::ResolveRectangleVertices(kGenWidth, kGenHeight)});
  auto clip = [](float x, float y) {
    return std::vector<float>{ClipX(x, kGenWidth), ClipY(y, kGenHeight)};
  };
  // Rectangles x [0.25, 32.25) / [32.25, 64.25), y [0.25, 16.25) on screen: pixels 0..31 and
  // 32..63 of rows 0..15. Counter-clockwise on screen (y down) is front-facing (face = 0).
  const float l = 0.25f, m = 32.25f, r = 64.25f, t = 0.25f, btm = 16.25f;
  const float back[6][2] = {{l, t}, {m, t}, {l, btm}, {m, t}, {m, btm}, {l, btm}};
  const float front[6][2] = {{m, t}, {m, btm}, {r, t}, {r, t}, {m, btm}, {r, btm}};
  std::vector<std::vector<float>> buffers(3 + std::size(kGenSprites));
  for (int i = 0; i < 6; ++i) {
    for (float f : clip(back[i][0], back[i][1])) buffers[0].push_back(f);
    for (float f : clip(front[i][0], front[i][1])) buffers[1].push_back(f);
  }
  for (float f : clip(kLineX0, kLineY)) buffers[2].push_back(f);
  for (float f : clip(kLineX1, kLineY)) buffers[2].push_back(f);
  for (size_t i = 0; i < std::size(kGenSprites); ++i) {
    buffers[3 + i] = clip(kGenSprites[i].x, kGenSprites[i].y);
  }
  for (size_t i = 0; i < buffers.size(); ++i) WriteVertexBuffer(writer, uint32_t(i), buffers[i]);
  capture::Pm4Builder b;
  const capture::ResolveSetup clear = BeginScene(b, rt, kGenWidth, kGenHeight, 0xFF000000u,
                                                 {vs.microcode, ps.microcode, 2, 6, 1});
  // Param gen into r1 (SQ_PROGRAM_CNTL param_gen, SQ_CONTEXT_MISC param_gen_pos = 1).
  b.WriteRegister(Reg::SQ_PROGRAM_CNTL,
                  xenos::Field(1, 0, 6) | xenos::Field(5, 8, 6) | (1u << 16) | (1u << 18));
  b.WriteRegister(Reg::SQ_CONTEXT_MISC, 4u | (1u << 8));
  const float constants[8] = {0.0f, 0.25f, 0.0f, 1.0f, 3.0f / 256, 3.0f / 256, 0.5f, 0.25f};
  b.SetAluConstants(kPsConstants, constants);
  for (uint32_t i = 0; i < 2; ++i) {
    capture::D3dSetVertexFetch(b, kStreamSlot, kVertexBase + i * 0x1000, 12);
    b.DrawIndx2Auto(PrimitiveType::kTriangleList, 6);
  }
  b.WriteRegister(Reg::PA_SU_LINE_CNTL, 8);  // 1 pixel wide (half width 0.5 in 12.4)
  capture::D3dSetVertexFetch(b, kStreamSlot, kVertexBase + 2 * 0x1000, 4);
  b.DrawIndx2Auto(PrimitiveType::kLineList, 2);
  b.WriteRegister(Reg::PA_SU_POINT_MINMAX, 0xFFFF0000u);
  b.WriteRegister(Reg::PA_SU_POINT_SIZE, 32u | (32u << 16));  // 4 pixels: half size 2 in 12.4
  for (uint32_t i = 0; i < std::size(kGenSprites); ++i) {
    capture::D3dSetVertexFetch(b, kStreamSlot, kVertexBase + (3 + i) * 0x1000, 2);
    b.DrawIndx2Auto(PrimitiveType::kPointList, 1);
  }
  PresentFrame(b, writer, rt, clear, kFront, kRing, kGenWidth, kGenHeight);
}

Image ExpectedParamGen() {
  Image img;
  img.width = kGenWidth;
  img.height = kGenHeight;
  img.rgba.assign(size_t(kGenWidth) * kGenHeight * 4, 0);
  for (size_t p = 0; p < size_t(kGenWidth) * kGenHeight; ++p) img.rgba[p * 4 + 3] = 255;
  // The front buffer keeps no alpha (the swap shows it opaque).
  auto put = [&](uint32_t x, uint32_t y, double r, double g, double b) {
    uint8_t* p = &img.rgba[(size_t(y) * kGenWidth + x) * 4];
    p[0] = SafeUnorm8(r), p[1] = SafeUnorm8(g), p[2] = SafeUnorm8(b);
  };
  constexpr double kStep = 3.0 / 256;
  // Rectangles: position only, +1/4 blue on the back face (pixels 0..31).
  for (uint32_t y = 0; y < 16; ++y) {
    for (uint32_t x = 0; x < kGenWidth; ++x) put(x, y, x * kStep, y * kStep, x < 32 ? 0.25 : 0.0);
  }
  // The line: screen row 24.75 +- 1/2 holds the centre of row 24; x 36.75..60.75 the centres
  // of pixels 37..60.
  for (uint32_t x = 37; x <= 60; ++x) put(x, 24, x * kStep + 0.25, 24 * kStep, 0.0);
  // Sprites: pixel x is covered when its centre x + 1/2 lies in [c - 2, c + 2); its sprite
  // coordinate is (x + 1/2 - (c - 2)) / 4.
  for (const GenSprite& s : kGenSprites) {
    for (uint32_t y = 0; y < kGenHeight; ++y) {
      for (uint32_t x = 0; x < kGenWidth; ++x) {
        const double cx = x + 0.5, cy = y + 0.5;
        if (cx < s.x - 2 || cx >= s.x + 2 || cy < s.y - 2 || cy >= s.y + 2) continue;
        const double u = (cx - (s.x - 2.0)) / 4.0, v = (cy - (s.y - 2.0)) / 4.0;
        put(x, y, x * kStep, y * kStep + 0.25, u * 0.5 + v * 0.25);
      }
    }
  }
  return img;
}

}  // namespace

std::vector<Sample> InterpSamples() {
  std::vector<Sample> v;
  v.push_back(DescribedSample(
      "interp_centroid_msaa4x_edge",
      "4x MSAA: interpolator 0 at the centroid, interpolator 1 at the pixel centre "
      "(SQ_CONTEXT_MISC sc_sample_cntl both, SQ_INTERPOLATOR_CNTL sampling_pattern), one "
      "attribute falling off from a vertical right edge, written as red and green",
      "64x40, blue (0,0,64) background; bands of rows 8..15, 16..23, 24..31 from x 24 to their "
      "edge at x 40 + 7/16, 3/4, 15/16, red = green falling from 255 to (88,88), (96,96), "
      "(100,100) at x 39. Edge column x 40: rows 8..15 red 65 (the centroid, sample 0, inside) "
      "vs green 62 (the centre, outside the triangle: extrapolated); rows 16..23 red 73 vs green "
      "70; rows 24..31 (every sample covered: the centre) both 75. Where each band's diagonal "
      "(from its top-left corner to its bottom-right) cuts a pixel red is above green (104 vs "
      "100 at (39,31)). All pixels exact.",
      [](format::Writer& w) { AuthorCentroidEdge(w); }, [] { return ExpectedCentroidEdge(); }));
  v.push_back(DescribedSample(
      "interp_param_gen",
      "PsParamGen (SQ_PROGRAM_CNTL param_gen, SQ_CONTEXT_MISC param_gen_pos) shown as colour: "
      "position, back face, point and line flags in the sign bits, point sprite coordinate",
      "64x32 black. Rows 0..15: red = 3x/256, green = 3y/256 (pixel x, y, no half-pixel: (96,9,0) "
      "at (32,3)), blue 64 on the back-facing left half (column 0 too: x = -0.0, (0,15,64) at "
      "(0,5)). Row 24, x 37..60: a line, red + 64 ((174,72,0) at x 37). Three 4x4 point sprites "
      "at x 5..8 y 19..22, x 13..16 y 25..28, x 23..26 y 21..24: green + 64, blue s/2 + t/4 of the "
      "sprite coordinate ((15,121,42) at (5,19)). All pixels exact.",
      [](format::Writer& w) { AuthorParamGen(w); }, [] { return ExpectedParamGen(); }));
  return v;
}

}  // namespace xnt::samples
