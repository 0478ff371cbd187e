// Tessellated draws (gpu/tessellated_draw.h): the guest vertex shader runs as the domain shader,
// placing each generated vertex from its tessellation coordinates and patch index. The shaders
// bend the patch's first edge into a parabola, so the outline of the drawn shape is the polyline
// through that edge's generated points: the expected image is that polygon, its points worked by
// hand from the factor rules (the tessellator's own output is never consulted).
//
// Screen coordinates are Direct3D's (pixel centres on integers, the scenes' PA_SU_VTX_CNTL), so
// pixel (i, j) is covered when the point (i, j) is inside the outline; a centre closer than
// 1/64 pixel to an edge makes the expected image throw rather than guess.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "listing_head.h"
#include "sample_entry.h"
#include "shader_scenes.h"
#include "xnt/base/error.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::samples {
namespace {

using ucode::Float4;
using xenos::PrimitiveType;
using xenos::Reg;

// Quad patch domain shader: r0.x patch index, r0.yz (u, v). Screen position
// (c0.x + c0.z u + c1.x p, c0.y + c0.w v + c1.y u (1 - u) (1 - v)), to clip space by c2; colour
// c4 + p c5.
const char* const kQuadPatchVs = XNT_SAMPLE_VS_HEAD R"(    exec
    mad r2.x, r0.y, c3.x, c3.y
    mad r2.y, r0.z, c3.x, c3.y
    mul r2.x, r2.x, r0.y
    mul r2.x, r2.x, r2.y
    mad r1.x, r0.y, c0.z, c0.x
    mad r1.y, r0.z, c0.w, c0.y
    exec
    mad r1.x, r0.x, c1.x, r1.x
    mad r1.y, r2.x, c1.y, r1.y
    mad r1.xy, r1.xy, c2.xy, c2.zw
    mad r2, r0.xxxx, c5, c4
)" XNT_SAMPLE_VS_EXPORT_R1XY_R2;

// Triangle patch domain shader: r0.xyz (w, v, u) weighting corners C, B, A; r1.x patch index.
// Screen position u A + v B + w C + (c1.x p, c1.y u v) with A = c0.xy, B = c0.zw, C = c6.xy.
const char* const kTrianglePatchVs = XNT_SAMPLE_VS_HEAD R"(    exec
    mul r3.xy, r0.zz, c0.xy
    mad r3.xy, r0.yy, c0.zw, r3.xy
    mad r3.xy, r0.xx, c6.xy, r3.xy
    mul r2.x, r0.z, r0.y
    mad r3.y, r2.x, c1.y, r3.y
    mad r3.x, r1.x, c1.x, r3.x
    exec
    mad r2, r1.xxxx, c5, c4
    mad r1.xy, r3.xy, c2.xy, c2.zw
)" XNT_SAMPLE_VS_EXPORT_R1XY_R2;

// Triangle-list domain shader, control points: r0.xyz (w, v, u), r1.xyz the control-point
// indices, whose screen positions it fetches (vf0, float2); the same placement and bend as
// kTrianglePatchVs, colour c4 + r1.x c5.
const char* const kControlPointVs = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r2.xy__, r1.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=2
    vfetch_full r3.xy__, r1.y, vf0, DataFormat=FMT_32_32_FLOAT, Stride=2
    vfetch_full r4.xy__, r1.z, vf0, DataFormat=FMT_32_32_FLOAT, Stride=2
    exec
    mul r5.xy, r0.zz, r2.xy
    mad r5.xy, r0.yy, r3.xy, r5.xy
    mad r5.xy, r0.xx, r4.xy, r5.xy
    mul r6.x, r0.z, r0.y
    mad r5.y, r6.x, c1.y, r5.y
    mad r2, r1.xxxx, c5, c4
    exec
    mad r1.xy, r5.xy, c2.xy, c2.zw
)" XNT_SAMPLE_VS_EXPORT_R1XY_R2;

const char* const kColorPs = XNT_SAMPLE_PS_HEAD R"(    alloc colors
    exece
    mov oC0, r0
)";

constexpr uint32_t kWidth = 320, kHeight = 240;
// Colours of low contrast: the slanted outlines split host pixels at a resolution scale, and the
// box-downsampled frame stays within the scale tests' 40 dB of the 1x image.
constexpr std::array<uint8_t, 4> kClear = {96, 128, 112, 255};
constexpr float kBulge = 16.0f;  // the parabola's height at the middle of the edge, pixels

Float4 Color(int r, int g, int b) { return {r / 255.0f, g / 255.0f, b / 255.0f, 1.0f}; }

struct Point {
  double x, y;
};

struct Outline {
  std::vector<Point> points;
  std::array<uint8_t, 4> rgba{};
};

// The bent edge from `a` to `b` through the hand-worked locations `t` (0 .. 1), lifted by
// 4 kBulge t (1 - t).
std::vector<Point> BentEdge(Point a, Point b, const std::vector<double>& t) {
  std::vector<Point> out;
  for (double s : t) {
    out.push_back({a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s - 4 * kBulge * s * (1 - s)});
  }
  return out;
}

double SegmentDistance(Point p, Point a, Point b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double len2 = dx * dx + dy * dy;
  double s = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
  s = std::fmin(1, std::fmax(0, s));
  return std::hypot(p.x - (a.x + s * dx), p.y - (a.y + s * dy));
}

Image ExpectedOutlines(const std::array<uint8_t, 4>& clear, const std::vector<Outline>& shapes) {
  Image img{kWidth, kHeight, std::vector<uint8_t>(size_t(kWidth) * kHeight * 4)};
  for (uint32_t j = 0; j < kHeight; ++j) {
    for (uint32_t i = 0; i < kWidth; ++i) {
      std::array<uint8_t, 4> c = clear;
      const Point p{double(i), double(j)};
      for (const Outline& o : shapes) {
        bool inside = false;
        const size_t n = o.points.size();
        for (size_t k = 0; k < n; ++k) {
          const Point a = o.points[k], b = o.points[(k + 1) % n];
          if (SegmentDistance(p, a, b) < 1.0 / 64) {
            throw Error("tessellation sample: pixel " + std::to_string(i) + "," +
                        std::to_string(j) + " centre lies on an outline edge");
          }
          if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)) {
            inside = !inside;
          }
        }
        if (inside) c = o.rgba;
      }
      std::copy(c.begin(), c.end(), img.rgba.begin() + (size_t(j) * kWidth + i) * 4);
    }
  }
  return img;
}

// Tessellation on, in `mode`, at VGT_HOS_MAX_TESS_LEVEL `max_level` (min 0).
std::vector<std::pair<uint32_t, uint32_t>> TessellationRegisters(xenos::TessellationMode mode,
                                                                 float max_level) {
  return {{xenos::RegIndex(Reg::VGT_OUTPUT_PATH_CNTL),
           uint32_t(xenos::VGTOutputPath::kTessellationEnable)},
          {xenos::RegIndex(Reg::VGT_HOS_CNTL), uint32_t(mode)},
          {xenos::RegIndex(Reg::VGT_HOS_MAX_TESS_LEVEL), FloatBits(max_level)},
          {xenos::RegIndex(Reg::VGT_HOS_MIN_TESS_LEVEL), FloatBits(0.0f)}};
}

ShaderScene BaseScene(const char* vs) {
  ShaderScene s;
  s.width = kWidth;
  s.height = kHeight;
  s.clear_rgba = kClear;
  s.vs_microcode = ucode::AssembleShader(vs).microcode;
  s.ps_microcode = ucode::AssembleShader(kColorPs).microcode;
  s.vs_registers = 4;
  s.ps_registers = 1;
  s.vs_exports = 1;
  return s;
}

// Clip space from screen pixels: x / 160 - 1, 1 - y / 120 (ClipX / ClipY).
const Float4 kToClip = {2.0f / kWidth, -2.0f / kHeight, -1.0f, 1.0f};

const std::array<uint8_t, 4> kFirst = {64, 176, 128, 255}, kSecond = {160, 144, 80, 255};
Float4 SecondMinusFirst() {
  const Float4 a = Color(kFirst[0], kFirst[1], kFirst[2]), b = Color(kSecond[0], kSecond[1], kSecond[2]);
  return {b[0] - a[0], b[1] - a[1], b[2] - a[2], 0.0f};
}

// Two quad patches, discrete, VGT_HOS_MAX_TESS_LEVEL 3.0: factor 3 + 1 = 4, integer
// partitioning, so every edge has the points 0, 1/4, 1/2, 3/4, 1. The top edge of patch p runs
// from (20.75 + 150 p, 60.75) to (140.75 + 150 p, 60.75), lifted by 12, 16, 12 pixels at the
// inner points; the patch reaches down to y 180.75.
constexpr double kQuadX = 20.75, kQuadY = 60.75, kQuadW = 120, kQuadH = 120, kQuadStep = 150;

ShaderScene QuadPatchScene() {
  ShaderScene s = BaseScene(kQuadPatchVs);
  ShaderDraw d;
  d.primitive = PrimitiveType::kQuadPatch;
  d.vertex_count = 2;  // two patches, auto-indexed: patch indices 0 and 1
  d.vs_constants = {{0, {float(kQuadX), float(kQuadY), float(kQuadW), float(kQuadH)}},
                    {1, {float(kQuadStep), -4 * kBulge, 0, 0}},
                    {2, kToClip},
                    {3, {-1, 1, 0, 0}},
                    {4, Color(kFirst[0], kFirst[1], kFirst[2])},
                    {5, SecondMinusFirst()}};
  d.register_writes = TessellationRegisters(xenos::TessellationMode::kDiscrete, 3.0f);
  s.draws.push_back(d);
  return s;
}

Image QuadPatchExpected() {
  std::vector<Outline> shapes;
  for (int p = 0; p < 2; ++p) {
    const double x = kQuadX + kQuadStep * p;
    Outline o;
    o.points = BentEdge({x, kQuadY}, {x + kQuadW, kQuadY}, {0, 0.25, 0.5, 0.75, 1});
    o.points.push_back({x + kQuadW, kQuadY + kQuadH});
    o.points.push_back({x, kQuadY + kQuadH});
    o.rgba = p ? kSecond : kFirst;
    shapes.push_back(o);
  }
  return ExpectedOutlines(kClear, shapes);
}

// Two triangle patches, adaptive: per patch three float32 edge factors in a 32-bit big-endian
// index buffer (v0->v1, v1->v2, v2->v0), each + 1 and clamped to [0 + 1, 14 + 1], fractional_even
// (at least 2). Patch 0's v0->v1 factor 2 becomes 3: half factor 1.5 blends the layouts of 2
// (0, 1/2) and 4 (0, 1/4, 1/2) halfway: 0, 3/8, 1/2, 5/8, 1. Patch 1's 6 becomes 7: half 3.5,
// split point (RemoveMSB(3) << 1) + 1 = 3, floor layout sixths, ceiling eighths: points 1..3 at
// (i/6 + i/8) / 2 = 7/48, 7/24, 7/16, then 1/2 and the mirror 9/16, 17/24, 41/48, 1. The other
// edges (factor 0 -> 1 -> 2) stay straight: the bend u v vanishes on them.
constexpr double kTriX = 30.5, kTriY = 70.0625, kTriW = 96, kTriH = 96, kTriStep = 150;

ShaderScene TrianglePatchScene() {
  ShaderScene s = BaseScene(kTrianglePatchVs);
  ShaderDraw d;
  d.primitive = PrimitiveType::kTrianglePatch;
  d.indices32 = {FloatBits(2.0f), FloatBits(0.0f), FloatBits(0.0f),
                 FloatBits(6.0f), FloatBits(0.0f), FloatBits(0.0f)};
  d.vs_constants = {{0, {float(kTriX), float(kTriY), float(kTriX + kTriW), float(kTriY)}},
                    {6, {float(kTriX + kTriW / 2), float(kTriY + kTriH), 0, 0}},
                    {1, {float(kTriStep), -4 * kBulge, 0, 0}},
                    {2, kToClip},
                    {4, Color(kFirst[0], kFirst[1], kFirst[2])},
                    {5, SecondMinusFirst()}};
  d.register_writes = TessellationRegisters(xenos::TessellationMode::kAdaptive, 14.0f);
  s.draws.push_back(d);
  return s;
}

// The two triangles' outlines, the first edge of each through its own points.
Image TrianglesExpected(const std::vector<double>& first, const std::vector<double>& second) {
  std::vector<Outline> shapes;
  for (int p = 0; p < 2; ++p) {
    const double x = kTriX + kTriStep * p;
    Outline o;
    o.points = BentEdge({x, kTriY}, {x + kTriW, kTriY}, p ? second : first);
    o.points.push_back({x + kTriW / 2, kTriY + kTriH});
    o.rgba = p ? kSecond : kFirst;
    shapes.push_back(o);
  }
  return ExpectedOutlines(kClear, shapes);
}

Image TrianglePatchExpected() {
  return TrianglesExpected({0, 3.0 / 8, 0.5, 5.0 / 8, 1},
                           {0, 7.0 / 48, 7.0 / 24, 7.0 / 16, 0.5, 9.0 / 16, 17.0 / 24, 41.0 / 48, 1});
}

// The same two triangles as a TRIANGLE_LIST of control points (16-bit indices into a shuffled
// vertex buffer: C0 A0 B0 A1 C1 B1, indices 1 2 0 3 5 4), continuous at VGT_HOS_MAX_TESS_LEVEL
// 2.0: factor 3 on every edge and inside, fractional_even, so both bent edges pass through 0,
// 3/8, 1/2, 5/8, 1. The colour follows the first control point's index (1, 3).
ShaderScene ControlPointScene() {
  ShaderScene s = BaseScene(kControlPointVs);
  s.vs_registers = 7;
  ShaderDraw d;
  d.primitive = PrimitiveType::kTriangleList;
  for (int p = 0; p < 2; ++p) {
    const float x = float(kTriX + kTriStep * p), y = float(kTriY);
    const float a[2] = {x, y}, b[2] = {x + float(kTriW), y};
    const float c[2] = {x + float(kTriW / 2), y + float(kTriH)};
    for (const float* v : p ? std::array<const float*, 3>{a, c, b} : std::array<const float*, 3>{c, a, b}) {
      d.vertex_words.push_back(FloatBits(v[0]));
      d.vertex_words.push_back(FloatBits(v[1]));
    }
  }
  d.indices = {1, 2, 0, 3, 5, 4};
  d.explicit_major_mode = true;  // a triangle list is a list of patches only then
  const Float4 first = Color(kFirst[0], kFirst[1], kFirst[2]), step = SecondMinusFirst();
  const Float4 half = {step[0] / 2, step[1] / 2, step[2] / 2, 0.0f};
  d.vs_constants = {{1, {0, -4 * kBulge, 0, 0}},
                    {2, kToClip},
                    {4, {first[0] - half[0], first[1] - half[1], first[2] - half[2], 1.0f}},
                    {5, half}};
  d.register_writes = TessellationRegisters(xenos::TessellationMode::kContinuous, 2.0f);
  s.draws.push_back(d);
  return s;
}

Image ControlPointExpected() {
  return TrianglesExpected({0, 3.0 / 8, 0.5, 5.0 / 8, 1}, {0, 3.0 / 8, 0.5, 5.0 / 8, 1});
}

// A TRIANGLE_STRIP of four control points, continuous at VGT_HOS_MAX_TESS_LEVEL 2.0 (factor 3,
// fractional_even: 0, 3/8, 1/2, 5/8, 1 on every edge): V0 (30.5, 70.5), V1 (126.5, 70.5),
// V2 (78.5, 166.5), V3 (174.5, 166.5), where no pixel centre comes within 1/36 pixel of an
// outline. Its patches are triangle 0 (V0, V1, V2) and the odd triangle 1 as (V1, V3, V2),
// which winds as triangle 0 does; kControlPointVs bends each patch's first edge (V0->V1 and
// V1->V3) up, out of the patch, and colours it by its first control point's index (0, 1).
// The shared edge V1-V2 does not move (u v = 0 on it).
constexpr double kStripX = 30.5, kStripY = 70.5, kStripW = 96, kStripH = 96;

std::array<Point, 4> StripCorners() {
  return {Point{kStripX, kStripY}, Point{kStripX + kStripW, kStripY},
          Point{kStripX + kStripW / 2, kStripY + kStripH},
          Point{kStripX + 1.5 * kStripW, kStripY + kStripH}};
}

ShaderScene StripScene() {
  ShaderScene s = BaseScene(kControlPointVs);
  s.vs_registers = 7;
  ShaderDraw d;
  d.primitive = PrimitiveType::kTriangleStrip;
  for (const Point& v : StripCorners()) {
    d.vertex_words.push_back(FloatBits(float(v.x)));
    d.vertex_words.push_back(FloatBits(float(v.y)));
  }
  d.indices = {0, 1, 2, 3};
  d.explicit_major_mode = true;
  d.vs_constants = {{1, {0, -4 * kBulge, 0, 0}},
                    {2, kToClip},
                    {4, Color(kFirst[0], kFirst[1], kFirst[2])},
                    {5, SecondMinusFirst()}};
  d.register_writes = TessellationRegisters(xenos::TessellationMode::kContinuous, 2.0f);
  s.draws.push_back(d);
  return s;
}

Image StripExpected() {
  const std::array<Point, 4> v = StripCorners();
  const std::vector<double> t = {0, 3.0 / 8, 0.5, 5.0 / 8, 1};
  Outline first, second;
  first.points = BentEdge(v[0], v[1], t);
  first.points.push_back(v[2]);
  first.rgba = kFirst;
  second.points = BentEdge(v[1], v[3], t);
  second.points.push_back(v[2]);
  second.rgba = kSecond;
  return ExpectedOutlines(kClear, {first, second});
}

// One quad patch, discrete, VGT_HOS_MAX_TESS_LEVEL 2.0: factor 3 on every edge and inside
// (integer, odd). Points, in the reference tessellator's order (the outer ring from (0,1): u = 0
// falling, v = 0 rising, u = 1 rising, v = 1 falling; then the inner ring the same way round):
//   0 (0,1)    1 (0,2/3)  2 (0,1/3)  3 (0,0)    4 (1/3,0)   5 (2/3,0)   6 (1,0)    7 (1,1/3)
//   8 (1,2/3)  9 (1,1)   10 (2/3,1) 11 (1/3,1) 12 (1/3,2/3) 13 (1/3,1/3) 14 (2/3,1/3) 15 (2/3,2/3)
// Every side of the outer ring (4 points, odd: one half point) meets a side of the inner ring
// (2 points, odd) in StitchTransition: the corner triangle, the two odd middles joined as a quad
// split from the inner side's first point to the outer side's second, then the far corner; the
// inner ring's one-segment middle is a strip of one quad split from its first outer point to its
// last inner one (DIAGONALS_INSIDE_TO_OUTSIDE_EXCEPT_MIDDLE).
constexpr int kTransitionTriangles[18][3] = {
    {0, 1, 12},  {12, 1, 13}, {13, 1, 2},   {2, 3, 13},   {3, 4, 13},   {13, 4, 14},
    {14, 4, 5},  {5, 6, 14},  {6, 7, 14},   {14, 7, 15},  {15, 7, 8},   {8, 9, 15},
    {9, 10, 15}, {15, 10, 12}, {12, 10, 11}, {11, 0, 12}, {12, 14, 15}, {12, 13, 14}};
constexpr double kTransitionUv[16][2] = {
    {0, 1},         {0, 2.0 / 3},   {0, 1.0 / 3},       {0, 0},
    {1.0 / 3, 0},   {2.0 / 3, 0},   {1, 0},             {1, 1.0 / 3},
    {1, 2.0 / 3},   {1, 1},         {2.0 / 3, 1},       {1.0 / 3, 1},
    {1.0 / 3, 2.0 / 3}, {1.0 / 3, 1.0 / 3}, {2.0 / 3, 1.0 / 3}, {2.0 / 3, 2.0 / 3}};

// The domain shader moves the inner points only (B = u (1 - u) v (1 - v) vanishes on the
// patch's edges): up by kLift B 81/4 and towards the other half by kCross (u - 1/2) B 486/4
// pixels, so the inner ring's points at u = 1/3 and 2/3 trade places and its top two leave the
// patch above its top edge. Inside the patch every pixel is covered whatever the triangles
// (its edges stay put); above it the folded triangles reaching the two raised points cover
// what their diagonals make them cover.
// Screen (c0.x + c0.z u + c1.z (u - 1/2) B, c0.y + c0.w v + c1.y B), clip space by c2, colour c4.
const char* const kFoldingQuadVs = XNT_SAMPLE_VS_HEAD R"(    exec
    mad r2.x, r0.y, c3.x, c3.y
    mad r2.y, r0.z, c3.x, c3.y
    mul r2.x, r2.x, r0.y
    mul r2.y, r2.y, r0.z
    mul r2.x, r2.x, r2.y
    add r3.x, r0.y, c3.z
    exec
    mul r3.x, r3.x, r2.x
    mad r1.x, r0.y, c0.z, c0.x
    mad r1.y, r0.z, c0.w, c0.y
    mad r1.x, r3.x, c1.z, r1.x
    mad r1.y, r2.x, c1.y, r1.y
    mad r1.xy, r1.xy, c2.xy, c2.zw
    exec
    mov r2, c4
)" XNT_SAMPLE_VS_EXPORT_R1XY_R2;

constexpr double kFoldX = 70.375, kFoldY = 60.5625, kFoldSize = 162, kLift = 81, kCross = 40.5;

ShaderScene FoldingQuadScene() {
  ShaderScene s = BaseScene(kFoldingQuadVs);
  ShaderDraw d;
  d.primitive = PrimitiveType::kQuadPatch;
  d.vertex_count = 1;
  const float size = float(kFoldSize);
  d.vs_constants = {{0, {float(kFoldX), float(kFoldY), size, size}},
                    {1, {0, float(-kLift * 81 / 4), float(-kCross * 486 / 4), 0}},
                    {2, kToClip},
                    {3, {-1, 1, -0.5f, 0}},
                    {4, Color(kFirst[0], kFirst[1], kFirst[2])}};
  d.register_writes = TessellationRegisters(xenos::TessellationMode::kDiscrete, 2.0f);
  s.draws.push_back(d);
  return s;
}

// Whether `p` lies strictly inside the triangle, whichever way it winds (folded ones wind back).
bool InTriangle(Point p, const std::array<Point, 3>& t) {
  double sign[3];
  for (int k = 0; k < 3; ++k) {
    const Point a = t[k], b = t[(k + 1) % 3];
    sign[k] = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
  }
  return (sign[0] > 0 && sign[1] > 0 && sign[2] > 0) || (sign[0] < 0 && sign[1] < 0 && sign[2] < 0);
}

// The union of the 18 triangles above at the shader's positions (thirds exact: the 16.16 ones
// are within 0.001 pixel). A pixel is covered when the four points 1/64 pixel diagonally off its
// centre are all inside some triangle, clear when none is; mixed means its centre lies on the
// union's outline, which throws rather than guess (a centre on an edge between two triangles
// has each of the four points inside one of them, so it counts as covered, as the rasterizer's
// fill rule gives it to exactly one).
Image FoldingQuadExpected() {
  std::vector<std::array<Point, 3>> triangles;
  for (const auto& t : kTransitionTriangles) {
    std::array<Point, 3> screen{};
    for (int k = 0; k < 3; ++k) {
      const double u = kTransitionUv[t[k]][0], v = kTransitionUv[t[k]][1];
      const double b = u * (1 - u) * v * (1 - v);
      screen[k] = {kFoldX + kFoldSize * u - kCross * 486 / 4 * (u - 0.5) * b,
                   kFoldY + kFoldSize * v - kLift * 81 / 4 * b};
    }
    triangles.push_back(screen);
  }
  Image img{kWidth, kHeight, std::vector<uint8_t>(size_t(kWidth) * kHeight * 4)};
  constexpr double kOff = 1.0 / 64;
  for (uint32_t j = 0; j < kHeight; ++j) {
    for (uint32_t i = 0; i < kWidth; ++i) {
      int inside = 0;
      for (const Point d : {Point{-kOff, -kOff}, Point{kOff, -kOff}, Point{-kOff, kOff},
                            Point{kOff, kOff}}) {
        const Point p{i + d.x, j + d.y};
        inside += std::any_of(triangles.begin(), triangles.end(),
                              [&](const auto& t) { return InTriangle(p, t); });
      }
      if (inside % 4 != 0) {
        throw Error("tessellation sample: pixel " + std::to_string(i) + "," + std::to_string(j) +
                    " centre lies on the folded patch's outline");
      }
      const std::array<uint8_t, 4>& c = inside ? kFirst : kClear;
      std::copy(c.begin(), c.end(), img.rgba.begin() + (size_t(j) * kWidth + i) * 4);
    }
  }
  return img;
}

}  // namespace

std::vector<Sample> TessellationSamples() {
  std::vector<Sample> v;
  v.push_back(DescribedSample(
      "tess_quad_patch_discrete",
      "Two quad patches (QUAD_PATCH, auto-indexed) tessellated discretely at "
      "VGT_HOS_MAX_TESS_LEVEL 3.0 (factor 4); the domain shader bends each top edge upwards",
      "Grey-green (96,128,112) background; a green (64,176,128) shape x 21..140 and an ochre "
      "(160,144,80) one "
      "x 171..290, both down to y 180; their top edges are polylines through the points at 0, "
      "1/4, 1/2, 3/4, 1 of the edge, raised 0, 12, 16, 12, 0 pixels above y 60.75. All pixels "
      "exact.",
      [](format::Writer& w) { AuthorShaderScene(QuadPatchScene(), w); }, QuadPatchExpected));
  v.push_back(DescribedSample(
      "tess_triangle_patch_adaptive",
      "Two triangle patches (TRIANGLE_PATCH) with adaptive per-edge factors read as float32 "
      "from a 32-bit big-endian index buffer; the domain shader bends each v0->v1 edge upwards",
      "Grey-green (96,128,112) background; a green (64,176,128) and an ochre (160,144,80) "
      "downward triangle with "
      "apex at (78.5 + 150 p, 166.0625); their top edges are polylines through the fractional_even points of "
      "factors 3 (0, 3/8, 1/2, 5/8, 1) and 7 (0, 7/48, 7/24, 7/16, 1/2 and mirrored), raised by "
      "64 t (1 - t) pixels. All pixels exact.",
      [](format::Writer& w) { AuthorShaderScene(TrianglePatchScene(), w); },
      TrianglePatchExpected));
  v.push_back(DescribedSample(
      "tess_triangle_list_continuous",
      "A TRIANGLE_LIST of control points (16-bit indices, shuffled vertex buffer) tessellated "
      "continuously at VGT_HOS_MAX_TESS_LEVEL 2.0; the domain shader fetches its three control "
      "points by the indices in r1 and bends the first edge upwards",
      "The two triangles of tess_triangle_patch_adaptive, both top edges through the points of "
      "factor 3 (0, 3/8, 1/2, 5/8, 1), green (64,176,128) and ochre (160,144,80) on grey-green "
      "(96,128,112). All pixels exact.",
      [](format::Writer& w) { AuthorShaderScene(ControlPointScene(), w); },
      ControlPointExpected));
  v.push_back(DescribedSample(
      "tess_triangle_strip_continuous",
      "A TRIANGLE_STRIP of four control points tessellated continuously at "
      "VGT_HOS_MAX_TESS_LEVEL 2.0: its two triangles are patches, the odd one's control points "
      "in the order that winds it as the first; the domain shader bends each patch's first edge "
      "upwards and colours it by its first control point's index",
      "Grey-green (96,128,112) background; a green (64,176,128) downward triangle (30.5, 70.5) "
      "(126.5, 70.5) (78.5, 166.5) whose top edge bulges up through the factor-3 points "
      "(0, 3/8, 1/2, 5/8, 1) by 64 t (1 - t) pixels, and beside it an ochre (160,144,80) upward "
      "triangle (126.5, 70.5) (174.5, 166.5) (78.5, 166.5) whose right edge bulges up "
      "and out through the same points. All pixels exact.",
      [](format::Writer& w) { AuthorShaderScene(StripScene(), w); }, StripExpected));
  v.push_back(DescribedSample(
      "tess_quad_patch_transition",
      "One quad patch tessellated discretely at VGT_HOS_MAX_TESS_LEVEL 2.0 (factor 3); the "
      "domain shader moves the inner ring's four points up and across each other, folding the "
      "triangles between the rings, so the coverage shows which diagonals the tessellator drew",
      "Grey-green (96,128,112) background; green (64,176,128) where any of the 18 triangles of "
      "the Direct3D 11 reference's factor-3 quad covers the pixel: the patch square x 70.375.."
      "232.375, y 60.5625..222.5625 with the inner points (1/3, 1/3), (2/3, 1/3), (1/3, 2/3), "
      "(2/3, 2/3) moved to x 164.875, 137.875, 164.875, 137.875 and y 33.5625, 33.5625, 87.5625, "
      "87.5625, the folds above the top edge. All pixels exact.",
      [](format::Writer& w) { AuthorShaderScene(FoldingQuadScene(), w); }, FoldingQuadExpected));
  return v;
}

}  // namespace xnt::samples
