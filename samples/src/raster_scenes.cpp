// Rasterizer samples with hand-worked expected images (see raster_scenes.h):
// - raster_lines_list_strip_loop: LINE_LIST, LINE_STRIP and LINE_LOOP draws through the flat
//   scene's authoring; the expected image is the union of 1-pixel-wide rectangles around the
//   segments (the rule both render paths follow, geometry.h RasterizeLine) sampled at the
//   Direct3D 9 pixel centres, every endpoint at k + 0.25 so no centre lies within 1/64 pixel of
//   a rectangle's side or end (ExpectedLines throws otherwise). At 1x3, 3x1 and 3x3 the image is
//   the same rectangles sampled at the host pixel centres (the guest's quad mapped to host
//   pixels), none within 1/64 of a host pixel of a side or end.
// - raster_wide_lines: the same with PA_SU_LINE_CNTL widths 2, 3, 5 and 1: rectangles of that
//   width around the segments (Vulkan's rectangular lines, which lavapipe draws for the fbo path
//   and the cpu path follows; an axis-aligned line is the same rectangle under any rule, the
//   diagonal ones assume the rectangle: the Xenos extrusion of a diagonal wide line is not
//   documented).
// - raster_polygon_offset_decals: coplanar decals over depth-tested bases; each passes or fails
//   LESS only because of PA_SU_POLY_OFFSET_* (constant +-1/64 of the depth range, i.e. 2^18
//   unorm24 steps; slope-scaled 4 * 1/256 per pixel = 1/64), far from any rounding.
// - raster_polygon_modes: PA_SU_SC_MODE_CNTL poly_mode 1 with each face drawn as points, lines or
//   filled (gpu/polygon_mode.h): the expected image is the faces' line rectangles (as above),
//   sprites ([c - w/2, c + w/2) x [c - h/2, c + h/2), as point lists draw them) and filled
//   triangles, by each triangle's facing, culling and the face bit.
#include "raster_scenes.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "flat_scene.h"
#include "guest_bytes.h"
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
using Rgba = std::array<uint8_t, 4>;

Image Fill(uint32_t w, uint32_t h, Rgba c) {
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.resize(size_t(w) * h * 4);
  for (size_t p = 0; p < size_t(w) * h; ++p) std::copy(c.begin(), c.end(), img.rgba.begin() + 4 * p);
  return img;
}

void Put(Image& img, uint32_t x, uint32_t y, Rgba c) {
  std::copy(c.begin(), c.end(), img.rgba.begin() + 4 * (size_t(y) * img.width + x));
}

// ---- Lines ---------------------------------------------------------------------------------------

// 1 inside the `width`-pixel-wide rectangle around p -> q, 0 outside; throws within `m` pixels
// of its boundary (a scene that would depend on tie rules or snapping: 1/64 of a host pixel).
int InLineRect(Vec2 p, Vec2 q, double width, double x, double y, double m) {
  const double ex = double(q.x) - p.x, ey = double(q.y) - p.y, len = std::sqrt(ex * ex + ey * ey);
  const double along = ((x - p.x) * ex + (y - p.y) * ey) / len;
  const double across = std::fabs((x - p.x) * ey - (y - p.y) * ex) / len;
  const bool near_end = std::fabs(along) < m || std::fabs(along - len) < m;
  const bool near_side = std::fabs(across - width / 2) < m;
  const bool in_along = along > 0 && along < len, in_across = across < width / 2;
  if ((near_end && in_across) || (near_side && in_along)) {
    throw Error("raster line scene: a pixel centre lies on a line's rectangle");
  }
  return in_along && in_across;
}

std::vector<std::pair<Vec2, Vec2>> Segments(const FlatDraw& d) {
  const auto& v = d.vertices;
  std::vector<std::pair<Vec2, Vec2>> s;
  switch (d.primitive) {
    case PrimitiveType::kLineList:
      for (size_t i = 0; i + 1 < v.size(); i += 2) s.push_back({v[i], v[i + 1]});
      break;
    case PrimitiveType::kLineStrip:
    case PrimitiveType::kLineLoop:
      for (size_t i = 0; i + 1 < v.size(); ++i) s.push_back({v[i], v[i + 1]});
      if (d.primitive == PrimitiveType::kLineLoop && v.size() > 2) s.push_back({v.back(), v[0]});
      break;
    default:
      throw Error("raster line scene: not a line primitive");
  }
  return s;
}

// At a resolution scale the hardware draws the guest's rectangle at S x T the resolution: host
// pixel (x, y) is covered when its centre, in guest pixels, lies in it. Odd scales only: at an
// even one host centres fall on the scenes' quarter-pixel sides.
Image ExpectedLines(const FlatScene& scene, ResolutionScale scale = {}) {
  if (scale.x % 2 == 0 || scale.y % 2 == 0) {
    throw Error("raster line scene: no expected image at " + scale.Name());
  }
  const uint32_t w = scene.width * scale.x, h = scene.height * scale.y;
  const double margin = 1.0 / (64.0 * std::max(scale.x, scale.y));  // guest pixels
  Image img = Fill(w, h, scene.clear_rgba);
  for (const FlatDraw& d : scene.draws) {
    const auto segs = Segments(d);
    // PA_SU_LINE_CNTL's half width in 12.4 (0: not written, 1 pixel; gpu/line_width.h).
    const double width = d.line_cntl == 0 ? 1.0 : double(d.line_cntl & 0xFFFF) / 8.0;
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        // PA_SU_VTX_CNTL pix_center = 0 (D3dDeviceDefaults): Direct3D 9 centres, so the host
        // pixel centre (x + 1/2) / S in guest pixels is the authored position minus 1/2 less
        // (pixel (x, y) samples the authored (x, y) at 1x).
        const double gx = (x + 0.5) / scale.x - 0.5, gy = (y + 0.5) / scale.y - 0.5;
        bool a = false;
        for (const auto& [p, q] : segs) a = InLineRect(p, q, width, gx, gy, margin) || a;
        if (a) Put(img, x, y, d.rgba);
      }
    }
  }
  return img;
}

FlatScene LinesScene() {
  FlatScene s;
  s.width = 64;
  s.height = 48;
  s.clear_rgba = {0x10, 0x18, 0x20, 0xFF};
  // A list: a horizontal, a vertical and a 45-degree segment.
  s.draws.push_back({PrimitiveType::kLineList,
                     {{4.25f, 4.25f}, {30.25f, 4.25f}, {34.25f, 2.25f}, {34.25f, 20.25f},
                      {4.25f, 10.25f}, {24.25f, 30.25f}},
                     {},
                     {0xF0, 0x40, 0x30, 0xFF}});
  // A strip: a staircase of three segments (the shared endpoints meet end to end).
  s.draws.push_back({PrimitiveType::kLineStrip,
                     {{4.25f, 40.25f}, {20.25f, 40.25f}, {20.25f, 34.25f}, {40.25f, 44.25f}},
                     {},
                     {0x40, 0xE0, 0x60, 0xFF}});
  // A loop: a right triangle; the closing segment is the diagonal back to the first vertex.
  s.draws.push_back({PrimitiveType::kLineLoop,
                     {{40.25f, 6.25f}, {60.25f, 6.25f}, {60.25f, 26.25f}},
                     {},
                     {0x50, 0x80, 0xFF, 0xFF}});
  return s;
}

// Wide lines: PA_SU_LINE_CNTL widths 2, 3 (an odd width: the rectangle's sides at k + 0.75 /
// k - 1.25 around a k + 0.25 line) and 5, horizontal, vertical and diagonal; endpoints at
// k + 0.25 so no pixel centre lies on a rectangle's side or end (ExpectedLines checks).
FlatScene WideLinesScene() {
  FlatScene s;
  s.width = 64;
  s.height = 48;
  s.clear_rgba = {0x10, 0x18, 0x20, 0xFF};
  // Width 2 (half width 16): a horizontal and a vertical segment.
  s.draws.push_back({PrimitiveType::kLineList,
                     {{4.25f, 4.25f}, {28.25f, 4.25f}, {34.25f, 2.25f}, {34.25f, 18.25f}},
                     {},
                     {0xF0, 0x40, 0x30, 0xFF},
                     16});
  // Width 3 (half width 24): a strip, horizontal then down-right at 45 degrees.
  s.draws.push_back({PrimitiveType::kLineStrip,
                     {{4.25f, 12.25f}, {20.25f, 12.25f}, {30.25f, 22.25f}},
                     {},
                     {0x40, 0xE0, 0x60, 0xFF},
                     24});
  // Width 5 (half width 40): a loop, a right triangle.
  s.draws.push_back({PrimitiveType::kLineLoop,
                     {{8.25f, 28.25f}, {58.25f, 28.25f}, {58.25f, 38.25f}},
                     {},
                     {0x50, 0x80, 0xFF, 0xFF},
                     40});
  // Back to 1 pixel (half width 8) inside the triangle.
  s.draws.push_back({PrimitiveType::kLineList,
                     {{44.25f, 8.25f}, {60.25f, 8.25f}},
                     {},
                     {0xFF, 0xFF, 0x40, 0xFF},
                     8});
  return s;
}

// ---- Polygon fill modes --------------------------------------------------------------------------

// PA_SU_SC_MODE_CNTL fields (gpu/polygon_mode.h).
constexpr uint32_t kModeCullFront = 1u << 0, kModeCullBack = 1u << 1, kModeFrontCw = 1u << 2;
constexpr uint32_t kModeDual = 1u << 3, kModeProvokingLast = 1u << 19;
constexpr uint32_t FrontType(uint32_t t) { return t << 5; }
constexpr uint32_t BackType(uint32_t t) { return t << 8; }
constexpr uint32_t kPoints = 0, kLines = 1, kFill = 2;

// Three triangle-list draws, each face by its own mode; the faces' pixels never overlap.
// Vertices of line and point faces at k + 0.25 (their diagonal edges at 45 degrees, as the line
// scenes'), filled faces' edges at k + 0.25 / k + 0.75 or along x - y = m + 0.5, so no pixel centre (at 1x and odd scales) lies on a line's rectangle, a
// sprite's side or a triangle's edge (ExpectedPolygonModes checks).
FlatScene PolygonModesScene() {
  FlatScene s;
  s.width = 64;
  s.height = 48;
  s.clear_rgba = {0x10, 0x18, 0x20, 0xFF};
  // Front faces (counter-clockwise, face = 0) as 1-pixel lines, back faces filled: an outlined
  // right triangle on the left, a filled one on the right.
  FlatDraw a{PrimitiveType::kTriangleList,
             {{4.25f, 4.25f}, {4.25f, 24.25f}, {24.25f, 24.25f},
              {36.75f, 4.25f}, {56.75f, 4.25f}, {56.75f, 24.25f}},
             {},
             {0xF0, 0x40, 0x30, 0xFF},
             8};
  a.mode_cntl = kModeProvokingLast | kModeDual | FrontType(kLines) | BackType(kFill);
  s.draws.push_back(a);
  // Front faces as 3 x 5 sprites at the vertices, back faces as 2-pixel lines.
  FlatDraw b{PrimitiveType::kTriangleList,
             {{6.25f, 32.25f}, {6.25f, 42.25f}, {22.25f, 42.25f},
              {30.25f, 30.25f}, {46.25f, 30.25f}, {46.25f, 46.25f}},
             {},
             {0x40, 0xE0, 0x60, 0xFF},
             16};
  b.mode_cntl = kModeProvokingLast | kModeDual | FrontType(kPoints) | BackType(kLines);
  b.point_size = (24u << 16) | 40u;  // half width 1.5, half height 2.5 pixels (12.4)
  s.draws.push_back(b);
  // face = 1 (clockwise is front) with front faces culled: the counter-clockwise triangle is a
  // back face, drawn as lines; the clockwise one draws nothing.
  FlatDraw c{PrimitiveType::kTriangleList,
             {{52.25f, 30.25f}, {52.25f, 40.25f}, {62.25f, 40.25f},
              {24.25f, 4.25f}, {33.25f, 4.25f}, {33.25f, 14.25f}},
             {},
             {0x50, 0x80, 0xFF, 0xFF},
             8};
  c.mode_cntl = kModeProvokingLast | kModeDual | kModeFrontCw | kModeCullFront |
                FrontType(kLines) | BackType(kLines);
  s.draws.push_back(c);
  return s;
}

// 1 when (x, y) is in [c - w/2, c + w/2) x [c - h/2, c + h/2); throws within m of a side.
int InSprite(Vec2 c, double w, double h, double x, double y, double m) {
  const double dx = x - c.x, dy = y - c.y;
  if (std::fabs(std::fabs(dx) - w / 2) < m || std::fabs(std::fabs(dy) - h / 2) < m) {
    if (std::fabs(dx) < w / 2 + m && std::fabs(dy) < h / 2 + m) {
      throw Error("polygon mode scene: a pixel centre lies on a sprite's side");
    }
  }
  return dx >= -w / 2 && dx < w / 2 && dy >= -h / 2 && dy < h / 2;
}

// 1 inside the triangle, 0 outside; throws within m of an edge.
int InTriangle(Vec2 a, Vec2 b, Vec2 c, double x, double y, double m) {
  const Vec2 v[3] = {a, b, c};
  double sign = 0.0;
  bool inside = true;
  for (int e = 0; e < 3; ++e) {
    const Vec2 p = v[e], q = v[(e + 1) % 3];
    const double ex = double(q.x) - p.x, ey = double(q.y) - p.y;
    const double d = (ex * (y - p.y) - ey * (x - p.x)) / std::sqrt(ex * ex + ey * ey);
    if (std::fabs(d) < m) throw Error("polygon mode scene: a pixel centre lies on an edge");
    if (sign == 0.0) sign = d;
    inside = inside && (d > 0) == (sign > 0);
  }
  return inside;
}

// The hardware's picture by gpu/polygon_mode.h, at 1x or an odd scale (host pixel centres in
// guest pixels, as ExpectedLines samples them).
Image ExpectedPolygonModes(const FlatScene& scene, ResolutionScale scale = {}) {
  if (scale.x % 2 == 0 || scale.y % 2 == 0) {
    throw Error("polygon mode scene: no expected image at " + scale.Name());
  }
  const uint32_t w = scene.width * scale.x, h = scene.height * scale.y;
  const double m = 1.0 / (64.0 * std::max(scale.x, scale.y));
  Image img = Fill(w, h, scene.clear_rgba);
  for (const FlatDraw& d : scene.draws) {
    const double width = d.line_cntl == 0 ? 1.0 : double(d.line_cntl & 0xFFFF) / 8.0;
    const double sprite_w = double(d.point_size >> 16) / 8.0, sprite_h = double(d.point_size & 0xFFFF) / 8.0;
    for (size_t i = 0; i + 2 < d.vertices.size(); i += 3) {
      const Vec2 a = d.vertices[i], b = d.vertices[i + 1], c = d.vertices[i + 2];
      const double cross = (double(b.x) - a.x) * (double(c.y) - a.y) -
                           (double(b.y) - a.y) * (double(c.x) - a.x);
      const bool clockwise = cross > 0;  // y down
      const bool front = clockwise == ((d.mode_cntl & kModeFrontCw) != 0);
      if ((front && (d.mode_cntl & kModeCullFront)) || (!front && (d.mode_cntl & kModeCullBack))) {
        continue;
      }
      const uint32_t type = (d.mode_cntl >> (front ? 5 : 8)) & 7;
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
          const double gx = (x + 0.5) / scale.x - 0.5, gy = (y + 0.5) / scale.y - 0.5;
          bool in = false;
          if (type == kLines) {
            in = InLineRect(a, b, width, gx, gy, m) | InLineRect(b, c, width, gx, gy, m) |
                 InLineRect(c, a, width, gx, gy, m);
          } else if (type == kPoints) {
            in = InSprite(a, sprite_w, sprite_h, gx, gy, m) |
                 InSprite(b, sprite_w, sprite_h, gx, gy, m) |
                 InSprite(c, sprite_w, sprite_h, gx, gy, m);
          } else {
            in = InTriangle(a, b, c, gx, gy, m);
          }
          if (in) Put(img, x, y, d.rgba);
        }
      }
    }
  }
  return img;
}

// ---- Polygon offset ------------------------------------------------------------------------------

struct Vec3 {
  float x, y, z;  // screen pixels (y down) and depth
};

struct DepthQuad {
  float x0, y0, x1, y1;  // edges at k + 0.75: covers pixels floor(x0)+1 .. floor(x1)
  float z_left, z_right;  // depth along x (a plane sloped in x when they differ)
  Rgba rgba;
  bool back_facing = false;
  uint32_t mode_bits = 0;  // PA_SU_SC_MODE_CNTL poly_offset_*_enable bits
  float front_scale = 0, front_offset = 0, back_scale = 0, back_offset = 0;
  bool visible = true;     // what the depth test with the offset decides (hand-worked)
};

constexpr uint32_t kFrontEnable = 1u << 11, kBackEnable = 1u << 12;
constexpr uint32_t kWidth = 96, kHeight = 64;
constexpr uint32_t kVertexBase = 0x00010000, kRing = 0x00080000, kResolveVerts = 0x00070000;
constexpr uint32_t kScratch = 0x00300000, kFront = 0x00200000;

std::vector<Vec3> Triangles(const DepthQuad& q) {
  const float span = q.x1 - q.x0;
  auto z = [&](float x) { return q.z_left + (q.z_right - q.z_left) * (x - q.x0) / span; };
  const Vec3 tl{q.x0, q.y0, z(q.x0)}, bl{q.x0, q.y1, z(q.x0)};
  const Vec3 tr{q.x1, q.y0, z(q.x1)}, br{q.x1, q.y1, z(q.x1)};
  // Counter-clockwise on screen is front-facing with PA_SU_SC_MODE_CNTL face = 0.
  if (!q.back_facing) return {tl, bl, tr, tr, bl, br};
  return {tl, tr, bl, tr, br, bl};
}

std::vector<DepthQuad> OffsetQuads() {
  const Rgba grey{0x80, 0x80, 0x80, 0xFF}, dark{0x40, 0x40, 0x48, 0xFF};
  std::vector<DepthQuad> q;
  // Top band: a flat base at depth 0.5, then coplanar decals.
  q.push_back({3.75f, 3.75f, 91.75f, 29.75f, 0.5f, 0.5f, grey});
  // Constant offset -1/64 on front faces: 0.484375 < 0.5, passes.
  q.push_back({7.75f, 7.75f, 27.75f, 25.75f, 0.5f, 0.5f, {0xE0, 0x30, 0x30, 0xFF}, false,
               kFrontEnable, 0, -1.0f / 64});
  // No offset: equal depth fails LESS (the control).
  q.push_back({35.75f, 7.75f, 55.75f, 25.75f, 0.5f, 0.5f, {0x30, 0xE0, 0x30, 0xFF}, false, 0, 0,
               0, 0, 0, false});
  // Back-facing with only the back offset enabled: the BACK registers (-1/64) apply, the front
  // ones (+1/64, disabled) do not. Passes.
  q.push_back({63.75f, 7.75f, 83.75f, 25.75f, 0.5f, 0.5f, {0xC0, 0x40, 0xE0, 0xFF}, true,
               kBackEnable, 0, 1.0f / 64, 0, -1.0f / 64});
  // Bottom band: a base sloped in x, 1/256 of depth per pixel (0.25 at x = 3.75).
  q.push_back({3.75f, 33.75f, 91.75f, 59.75f, 0.25f, 0.25f + 88.0f / 256, dark});
  // Slope-scaled only: SCALE -64 -> -64/16 * 1/256 = -1/64, passes.
  auto sloped = [](float x0, float x1, Rgba c, float scale, bool visible) {
    return DepthQuad{x0, 37.75f, x1, 55.75f, 0.25f + (x0 - 3.75f) / 256,
                     0.25f + (x1 - 3.75f) / 256, c, false, kFrontEnable, scale, 0, 0, 0, visible};
  };
  q.push_back(sloped(7.75f, 39.75f, {0xF0, 0xD0, 0x20, 0xFF}, -64.0f, true));
  // SCALE +64 -> +1/64, fails.
  q.push_back(sloped(51.75f, 83.75f, {0x20, 0xD0, 0xF0, 0xFF}, 64.0f, false));
  return q;
}

void AuthorOffsetScene(format::Writer& writer) {
  const auto vs = ucode::AssembleShader(kPositionZVertexShader);
  const auto ps = ucode::AssembleShader(kConstantColorPixelShader);
  const auto quads = OffsetQuads();

  capture::RenderTargetSetup rt;
  rt.surface_pitch = kWidth;
  rt.color_base_tiles = 0;
  rt.depth = true;
  rt.depth_base_tiles = 8;  // 96x64 k_8_8_8_8 at 1x takes tiles 0-5
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveVerts,
                                   capture::ResolveRectangleVertices(kWidth, kHeight)});
  for (size_t i = 0; i < quads.size(); ++i) {
    std::vector<float> clip;
    for (const Vec3& v : Triangles(quads[i])) {
      clip.push_back(v.x / (float(kWidth) / 2) - 1.0f);
      clip.push_back(1.0f - v.y / (float(kHeight) / 2));
      clip.push_back(v.z);
    }
    writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                                     kVertexBase + uint32_t(i) * 0x1000, BigEndianFloats(clip)});
  }

  capture::Pm4Builder b;
  capture::D3dDeviceDefaults(b);
  capture::D3dSetRenderTarget(b, rt);
  // Colour RGBA (16, 24, 32, 255); depth 1.0, stencil 0.
  const capture::ResolveSetup clear{.width = kWidth, .height = kHeight, .dest_address = kScratch,
                                    .dest_pitch = kWidth, .dest_height = kHeight,
                                    .clear_color = true, .clear_color_value = 0xFF201810u,
                                    .clear_depth = true, .clear_depth_value = 0xFFFFFF00u,
                                    .vertex_address = kResolveVerts};
  capture::D3dResolve(b, rt, clear);

  capture::D3dSetViewport(b, 0, 0, float(kWidth), float(kHeight));
  capture::D3dSetShaders(b, {vs.microcode, ps.microcode, 2, 1, 1});
  xenos::reg::RB_DEPTHCONTROL depth{};
  depth.z_enable = true;
  depth.z_write_enable = true;
  depth.zfunc = xenos::CompareFunction::kLess;
  b.WriteRegister(Reg::RB_DEPTHCONTROL, depth.Encode());
  for (size_t i = 0; i < quads.size(); ++i) {
    const DepthQuad& q = quads[i];
    const float color[4] = {q.rgba[0] / 255.0f, q.rgba[1] / 255.0f, q.rgba[2] / 255.0f,
                            q.rgba[3] / 255.0f};
    b.SetAluConstants(256, color);
    // D3dDeviceDefaults' provoking_vtx_last plus this draw's offset enables.
    b.WriteRegister(Reg::PA_SU_SC_MODE_CNTL, (1u << 19) | q.mode_bits);
    b.WriteRegister(Reg::PA_SU_POLY_OFFSET_FRONT_SCALE, std::bit_cast<uint32_t>(q.front_scale));
    b.WriteRegister(Reg::PA_SU_POLY_OFFSET_FRONT_OFFSET, std::bit_cast<uint32_t>(q.front_offset));
    b.WriteRegister(Reg::PA_SU_POLY_OFFSET_BACK_SCALE, std::bit_cast<uint32_t>(q.back_scale));
    b.WriteRegister(Reg::PA_SU_POLY_OFFSET_BACK_OFFSET, std::bit_cast<uint32_t>(q.back_offset));
    capture::D3dSetVertexFetch(b, 95, kVertexBase + uint32_t(i) * 0x1000, 6 * 3);
    b.DrawIndx2Auto(PrimitiveType::kTriangleList, 6);
  }

  PresentFrame(b, writer, rt, clear, kFront, kRing, kWidth, kHeight);
}

Image ExpectedOffsetScene() {
  Image img = Fill(kWidth, kHeight, {0x10, 0x18, 0x20, 0xFF});
  for (const DepthQuad& q : OffsetQuads()) {
    if (!q.visible) continue;
    for (uint32_t y = uint32_t(q.y0) + 1; y <= uint32_t(q.y1); ++y) {
      for (uint32_t x = uint32_t(q.x0) + 1; x <= uint32_t(q.x1); ++x) Put(img, x, y, q.rgba);
    }
  }
  return img;
}

}  // namespace

std::vector<Sample> RasterSamples() {
  // Line scenes are checked against the same line rasterizer, whatever their widths.
  auto lines = [](std::string name, std::string description, std::string expected, FlatScene scene) {
    Sample s = DescribedSample(
        std::move(name), std::move(description), std::move(expected),
        [scene](format::Writer& w) { AuthorFlatScene(scene, w); }, [scene] { return ExpectedLines(scene); });
    s.expected_image_scaled = [scene](ResolutionScale scale) { return ExpectedLines(scene, scale); };
    return s;
  };
  std::vector<Sample> v;
  v.push_back(lines(
      "raster_lines_list_strip_loop",
      "LINE_LIST, LINE_STRIP and LINE_LOOP draws, 1 pixel wide, on a 64x48 target",
      "Dark (16,24,32) background; red (240,64,48) lines: row 4 x 5..30, column 34 y 3..20 and "
      "a 45-degree line from (5,11) down-right to (24,30); a green (64,224,96) staircase: row "
      "40 x 5..20, column 20 y 35..40, then a half-slope line down-right to (40,44); a blue "
      "(80,128,255) right-triangle outline: row 6 x 41..60, column 60 y 7..26 and the diagonal "
      "back to (41,7). 1-pixel-wide rectangles around the segments; all pixels exact.",
      LinesScene()));
  v.push_back(lines(
      "raster_wide_lines",
      "Line draws 2, 3, 5 and 1 pixels wide through PA_SU_LINE_CNTL, on a 64x48 target",
      "Dark (16,24,32) background; red (240,64,48) width-2 lines: rows 4..5 x 5..28 and columns "
      "34..35 y 3..18; a green (64,224,96) width-3 strip: rows 11..13 from x 5 to 20, then a "
      "45-degree band down-right to (30,22); a blue (80,128,255) width-5 right-triangle outline "
      "(rows 26..30 along the top, columns 56..60 on the right, a diagonal back); a yellow "
      "(255,255,64) 1-pixel line on row 8 x 45..60. Each line is the rectangle of its width "
      "around the segment (no caps); all pixels exact.",
      WideLinesScene()));
  v.push_back(DescribedSample(
      "raster_polygon_offset_decals",
      "Coplanar decals that pass or fail a LESS depth test only through PA_SU_POLY_OFFSET_* "
      "(constant, back-face and slope-scaled)",
      "96x64, dark (16,24,32) background. Top: grey (128,128,128) base x 4..91 y 4..29 at depth "
      "0.5 with a red (224,48,48) decal x 8..27 y 8..25 (offset -1/64) and a purple "
      "(192,64,224) back-facing decal x 64..83 (back offset -1/64); the green decal x 36..55 "
      "(no offset) is hidden. Bottom: dark grey (64,64,72) base x 4..91 y 34..59 sloped 1/256 "
      "per pixel with a yellow (240,208,32) decal x 8..39 y 38..55 (slope scale -64); the cyan "
      "decal x 52..83 (scale +64) is hidden. All pixels exact.",
      [](format::Writer& w) { AuthorOffsetScene(w); }, [] { return ExpectedOffsetScene(); }));
  {
    const FlatScene scene = PolygonModesScene();
    Sample s = DescribedSample(
        "raster_polygon_modes",
        "PA_SU_SC_MODE_CNTL polygon modes: each face of a triangle list drawn as points, lines "
        "or filled by its facing, with culling and the face bit, on a 64x48 target",
        "Dark (16,24,32) background. Red (240,64,48): a counter-clockwise (front) right triangle "
        "drawn as its three 1-pixel edges (column 4 y 4..24, row 24 x 4..24 and the 45-degree "
        "diagonal back), a clockwise (back) one filled (x 37..56, y 5..24 under its diagonal). Green "
        "(64,224,96): a front triangle as three 3x5 sprites at its vertices (6,32), (6,42), "
        "(22,42), a back triangle as 2-pixel edges (rows 30..31 x 30..46, columns 46..47, the "
        "45-degree diagonal). Blue (80,128,255), front = clockwise with front faces culled: a "
        "counter-clockwise triangle at (52..62, 30..40) as 1-pixel edges; the clockwise one "
        "near (24..33, 4..14) draws nothing. All pixels exact.",
        [scene](format::Writer& w) { AuthorFlatScene(scene, w); },
        [scene] { return ExpectedPolygonModes(scene); });
    s.expected_image_scaled = [scene](ResolutionScale scale) {
      return ExpectedPolygonModes(scene, scale);
    };
    v.push_back(std::move(s));
  }
  return v;
}

}  // namespace xnt::samples
