// Samples whose shaders do more than pass a colour through: rectangle lists, predicated
// execution and kills, loops over loop constants with aL-relative constants and a call/return.
// Expected images come from the CPU interpreter (shader_scenes.h).
#include <cstdint>

#include "flat_scene.h"
#include "listing_head.h"
#include "shader_scenes.h"
#include "xnt/ucode/assembler.h"

namespace xnt::samples {

namespace {

using ucode::Float4;
using xenos::PrimitiveType;

// Position (float2) and an 8_8_8_8 colour per vertex, colour to o0.
const char* const kPositionColorVs = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1.xy__, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=3
    vfetch_full r2, r0.x, vf0, Offset=2, DataFormat=FMT_8_8_8_8, Stride=3
)" XNT_SAMPLE_VS_EXPORT_R1XY_R2;

const char* const kInterpolatorPs = XNT_SAMPLE_PS_HEAD R"(    alloc colors
    exece
    mov oC0, r0
)";

// Colour chosen by the predicate (c0.x > 0 picks c1, else c2), brightened by c3 under cexec b1,
// the pixel killed when c0.y > 0, and a predicated multiply by c4 when the first predicate held.
const char* const kPredicatedPs = XNT_SAMPLE_PS_HEAD R"(    exec
    setp_gt r1.x, c0.x
    (p0) exec
    mov r0, c1
    (!p0) exec
    mov r0, c2
    cexec b1, PredicateClean=false
    add r0.xyz, r0.xyz, c3.xyz
    exec
    max r2, r0, r0
    + kills_gt r1.y, c0.y
    (p0) mul r0.xyz, r2.xyz, c4.xyz
    alloc colors
    exece
    mov oC0, r0
)";

// Loop i0 displaces the vertex by c4+aL.. (aL from the loop constant's start), then a call to a
// subroutine computes the colour c1 * c2 into o0.
const char* const kLoopingVs = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1.xy__, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=2
    loop i0, Lafter
Lbody:
    exec
    add r1.xy, r1.xy, c[4+aL].xy
    endloop i0, Lbody
Lafter:
    call Lcolor
    alloc position
    exec
    mov oPos.xy01, r1.xy
    alloc interpolators
    exece
    mov o0, r2
Lcolor:
    exec
    mul r2, c1, c2
    ret
)";

// Loop i1 adds c8+aL.. to the interpolated colour.
const char* const kLoopingPs = XNT_SAMPLE_PS_HEAD R"(    exec
    mov r1, r0
    loop i1, Lafter
Lbody:
    exec
    add r1, r1, c[8+aL]
    endloop i1, Lbody
Lafter:
    alloc colors
    exece
    mov oC0, r1
)";

uint32_t Rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a = 0xFF) {
  return uint32_t(r) | uint32_t(g) << 8 | uint32_t(b) << 16 | uint32_t(a) << 24;
}

Float4 Color(int r, int g, int b, int a = 255) {
  return {float(r) / 255.0f, float(g) / 255.0f, float(b) / 255.0f, float(a) / 255.0f};
}

// Appends a vertex: clip-space position of screen (x, y) + optional extra words.
void PushVertex(std::vector<uint32_t>& w, const ShaderScene& s, float x, float y,
                std::initializer_list<uint32_t> extra = {}) {
  w.push_back(FloatBits(ClipX(x, s.width)));
  w.push_back(FloatBits(ClipY(y, s.height)));
  w.insert(w.end(), extra.begin(), extra.end());
}

std::vector<uint32_t> Microcode(const char* text) { return ucode::AssembleShader(text).microcode; }

ShaderScene RectangleList() {
  ShaderScene s;
  s.clear_rgba = {0x20, 0x20, 0x20, 0xFF};
  s.vs_microcode = Microcode(kPositionColorVs);
  s.ps_microcode = Microcode(kInterpolatorPs);
  s.vs_registers = 3;
  s.ps_registers = 1;
  s.vs_exports = 1;
  ShaderDraw d;
  d.primitive = PrimitiveType::kRectangleList;
  const uint32_t red = Rgba(220, 40, 40), green = Rgba(40, 200, 80), blue = Rgba(50, 90, 230);
  // Right angle at the first corner.
  PushVertex(d.vertex_words, s, 20.75f, 20.75f, {red});
  PushVertex(d.vertex_words, s, 140.75f, 20.75f, {red});
  PushVertex(d.vertex_words, s, 20.75f, 100.75f, {red});
  // Right angle at the second corner.
  PushVertex(d.vertex_words, s, 160.75f, 20.75f, {green});
  PushVertex(d.vertex_words, s, 300.75f, 20.75f, {green});
  PushVertex(d.vertex_words, s, 300.75f, 100.75f, {green});
  // Right angle at the third corner.
  PushVertex(d.vertex_words, s, 20.75f, 120.75f, {blue});
  PushVertex(d.vertex_words, s, 140.75f, 220.75f, {blue});
  PushVertex(d.vertex_words, s, 20.75f, 220.75f, {blue});
  d.vertex_count = 9;
  s.draws.push_back(d);
  // An indexed rectangle list over the others, its vertex buffer stored out of order.
  ShaderDraw e;
  e.primitive = PrimitiveType::kRectangleList;
  const uint32_t yellow = Rgba(240, 210, 30);
  PushVertex(e.vertex_words, s, 220.75f, 80.75f, {yellow});   // 0
  PushVertex(e.vertex_words, s, 120.75f, 180.75f, {yellow});  // 1
  PushVertex(e.vertex_words, s, 120.75f, 80.75f, {yellow});   // 2
  e.indices = {2, 0, 1};
  s.draws.push_back(e);
  return s;
}

// A quad (4 vertices, QUAD_LIST) of position-only vertices.
ShaderDraw Quad(const ShaderScene& s, float x0, float y0, float x1, float y1) {
  ShaderDraw d;
  d.primitive = PrimitiveType::kQuadList;
  PushVertex(d.vertex_words, s, x0, y0);
  PushVertex(d.vertex_words, s, x1, y0);
  PushVertex(d.vertex_words, s, x1, y1);
  PushVertex(d.vertex_words, s, x0, y1);
  d.vertex_count = 4;
  return d;
}

ShaderScene PredicatedShader() {
  ShaderScene s;
  s.clear_rgba = {0x10, 0x30, 0x30, 0xFF};
  s.vs_microcode = Microcode(kPositionVertexShader);
  s.ps_microcode = Microcode(kPredicatedPs);
  s.vs_registers = 2;
  s.ps_registers = 3;
  s.vs_exports = 1;
  // c1/c3 even components so that the predicated x0.5 lands on whole steps.
  const Float4 c1 = Color(200, 60, 20), c2 = Color(30, 90, 210), c3 = Color(40, 100, 20, 0);
  const Float4 c4 = {0.5f, 0.5f, 1.0f, 1.0f};
  struct Case {
    float x0, y0, select, kill;
    bool b1;
  };
  const Case cases[] = {
      {20.75f, 20.75f, 1.0f, 0.0f, false},    // p0: c1 * c4
      {120.75f, 20.75f, -1.0f, 0.0f, false},  // !p0: c2
      {220.75f, 20.75f, 1.0f, 0.0f, true},    // p0, b1: (c1 + c3) * c4
      {20.75f, 130.75f, -1.0f, 1.0f, true},   // killed: the clear colour stays
      {120.75f, 130.75f, 0.0f, 0.0f, true},   // 0 > 0 is false: c2 + c3
      {220.75f, 130.75f, 2.0f, -1.0f, false}, // p0, kill test false: c1 * c4
  };
  for (const Case& c : cases) {
    ShaderDraw d = Quad(s, c.x0, c.y0, c.x0 + 80.0f, c.y0 + 80.0f);
    d.ps_constants = {{0, {c.select, c.kill, 0.0f, 0.0f}}, {1, c1}, {2, c2}, {3, c3}, {4, c4}};
    std::array<uint32_t, 8> bools{};
    bools[0] = c.b1 ? 2u : 0u;
    d.bool_constants = bools;
    s.draws.push_back(d);
  }
  return s;
}

ShaderScene LoopingShader() {
  ShaderScene s;
  s.clear_rgba = {0x00, 0x00, 0x00, 0xFF};
  s.vs_microcode = Microcode(kLoopingVs);
  s.ps_microcode = Microcode(kLoopingPs);
  s.vs_registers = 3;
  s.ps_registers = 2;
  s.vs_exports = 1;
  // Displacements c4..c7: +60 px right and +30 px down each (exact in clip space).
  std::vector<std::pair<uint32_t, Float4>> vs_common = {
      {1, Color(60, 40, 20)}, {2, {1.0f, 1.0f, 1.0f, 1.0f}}};
  for (uint32_t i = 0; i < 4; ++i) vs_common.push_back({4 + i, {0.375f, -0.25f, 0.0f, 0.0f}});
  std::vector<std::pair<uint32_t, Float4>> ps_common = {
      {8, Color(0, 0, 0, 0)}, {9, Color(50, 0, 0, 0)}, {10, Color(0, 60, 0, 0)},
      {11, Color(0, 0, 70, 0)}, {12, Color(30, 30, 30, 0)}};
  for (uint32_t n = 0; n < 5; ++n) {
    ShaderDraw d = Quad(s, 10.75f, 10.75f, 60.75f, 50.75f);
    if (n == 0) {
      d.vs_constants = vs_common;
      d.ps_constants = ps_common;
    }
    // i0: count n, start 0, step 1 (draw 0 skips the VS loop entirely). i1: count n + 1,
    // start 0 for even draws, 1 for odd ones, step 1 (walks c8.. or c9..).
    d.loop_constants = {{0, n | (0u << 8) | (1u << 16)},
                        {1, (n + 1) | ((n & 1u) << 8) | (1u << 16)}};
    // Colour factor per draw through the call: c2 = 1, 2, 1, 2, 1.
    const float f = (n & 1) ? 2.0f : 1.0f;
    d.vs_constants.push_back({2, {f, f, f, 1.0f}});
    s.draws.push_back(d);
  }
  return s;
}

}  // namespace

std::vector<Sample> ShaderSceneSamples() {
  std::vector<Sample> v;
  v.push_back(ShaderSceneSample(
      "rectangle_list",
      "RECTANGLE_LIST draws (3 vertices each, the GPU derives the 4th) with per-vertex 8_8_8_8 "
      "colours passed through an interpolator",
      "Dark grey background; rectangles red (220,40,40) x 21..140 y 21..100, green (40,200,80) "
      "x 161..300 y 21..100, blue (50,90,230) x 21..140 y 121..220, and yellow (240,210,30) "
      "x 121..220 y 81..180 drawn last over the others. Expected image from the CPU interpreter.",
      RectangleList()));
  v.push_back(ShaderSceneSample(
      "predicated_shader",
      "A pixel shader with setp_gt, (p0)/(!p0) exec, cexec on a bool constant, a co-issued "
      "kills_gt and a predicated ALU op; six quads with different constants",
      "Teal background; six 80x80 quads in two rows: brown (100,30,20), blue (30,90,210), "
      "(120,80,40); in the second row the first is killed (background shows), then (70,190,230) "
      "and (100,30,20). Expected image from the CPU interpreter.",
      PredicatedShader()));
  v.push_back(ShaderSceneSample(
      "looping_shader",
      "A vertex shader that loops over loop constant i0 displacing the quad with aL-relative "
      "constants and calls a subroutine for its colour; a pixel shader looping over i1",
      "Black background; five 50x40 quads on a diagonal from x 11..60 y 11..50, each 60 px right "
      "and 30 px down of the previous: (60,40,20), (170,140,40), (110,100,20), (200,170,140), "
      "(140,130,120). Expected image from the CPU interpreter.",
      LoopingShader()));
  return v;
}

}  // namespace xnt::samples
