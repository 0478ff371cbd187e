// Memexport samples: shaders that write guest memory with eA / eM#, on every path.
// Expected images are worked by hand (axis-aligned rectangles whose corners sit a quarter pixel
// before pixel boundaries, so both pixel-centre conventions cover the same pixels); the exported
// bytes can be inspected with `xenotrace replay --dump-memory`.
#include <array>
#include <bit>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include "listing_head.h"
#include "shader_scenes.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/memexport_stream.h"
#include "xnt/xenos/registers.h"

namespace xnt::samples {

namespace {

using ucode::Float4;
using xenos::PrimitiveType;

constexpr uint32_t kVertexBuffers = 0x00100000;  // shader_scenes.cpp kSceneVertexAddress
constexpr uint32_t kIndexBuffers = 0x00140000;   // shader_scenes.cpp kSceneIndexAddress
constexpr uint32_t kScratch = 0x00F00000;
// The stream fields the scenes use (ColorFormat, Endian128 and SurfaceNumberFormat numbers).
constexpr uint32_t kFormatK8888 = 6, kFormatK16 = 24, kFormatK32Float = 36,
                   kFormatK3232Float = 37, kFormatK32323232Float = 38;
constexpr uint32_t kEndian8in16 = 1, kEndian8in32 = 2, kNumericUInteger = 2;

float F(uint32_t bits) { return std::bit_cast<float>(bits); }

// A memexport stream constant (xenos/memexport_stream.h) as the float4 the shader reads.
Float4 Stream(uint32_t base_bytes, uint32_t format, uint32_t count, uint32_t endian,
              uint32_t numeric = 0, bool red_blue_swap = false) {
  const auto d = xenos::MemExportStreamDwords(base_bytes, format, count, endian, numeric, red_blue_swap);
  return {F(d[0]), F(d[1]), F(d[2]), F(d[3])};
}

// Every vertex shader here starts the same way (vertex index in r0.x, one vertex fetch constant)
// and ends by drawing the vertex at r1.xy with colour c4; VsMicrocode puts its own part between.
const char* const kVsHead = XNT_SAMPLE_VS_HEAD R"(    exec
)";
const char* const kVsDraw = R"(    alloc position
    exec
    mov oPos.xy01, r1.xy
    alloc interpolators
    exece
    mov o0, c4
)";
// Both pixel shaders start with this and end by writing the interpolated colour.
const char* const kPsHead = XNT_SAMPLE_PS_HEAD;
const char* const kPsColor = R"(    alloc colors
    exece
    mov oC0, r0
)";
const char* const kFetchPosition =
    "    vfetch_full r1.xy__, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=4\n";

// Fetches a float2 position (4 dwords per vertex), exports (x, y) + c3.xy as
// k_32_32_32_32_FLOAT element (vertex index + c5.x) of stream c0, draws the vertex where it was
// with colour c4.
const std::string kExportPositionVs = std::string(kFetchPosition) + R"(    add r2.x, r0.x, c5.x
    alloc export
    exec
    mad eA, r2.xxxx, c1, c0
    mad eM0, r1.xyxy, c2, c3
)";

// Transform feedback into an index stream, the way the tessellation-factor shaders in Xenia's "Implement memexport" discussion feed
// a later draw: vertex i exports the value i + c5.x as element i of stream c0 (eA from
// `mad eA, r0.xxxx, c1, c0` with c1 = (0, 1, 0, 0): X = dword address | 0x40000000, Y = 2^23 +
// index, Z = the format word, W = 2^23 + count), then draws itself with colour c4.
const std::string kExportIndexVs = std::string(kFetchPosition) + R"(    add r2, r0.xxxx, c5.xxxx
    alloc export
    exec
    mad eA, r0.xxxx, c1, c0
    mov eM0, r2
)";

// Fetches (x, y, f) per vertex (4 dwords apart), draws at x + f * c3.x, and exports c2.x as
// k_32_FLOAT element (4 * vertex index) of stream c0: with the stream's base at dword 2 of a
// vertex buffer, that is the f slot of every vertex (those shaders export float32 factors
// the same way for a later draw to read).
const char* const kExportFactorVs = R"(    vfetch_full r1.xyz_, r0.x, vf0, DataFormat=FMT_32_32_32_FLOAT, Stride=4
    mul r2.x, r1.z, c3.x
    add r1.x, r1.x, r2.x
    alloc export
    exec
    mad eA, r0.xxxx, c1, c0
    mov eM0, c2
)";

// Position only (4 dwords per vertex), colour c4.
const char* const kPlainVs = kFetchPosition;

// Every pixel exports eM0-eM4 = c2, c3, c7, c8, c9 as elements c6.x.. of stream c0 (all pixels
// of a draw write the same bytes), then outputs its colour.
const char* const kExportPs = R"(    alloc export
    exec
    mad eA, c6.xxxx, c1, c0
    mov eM0, c2
    mov eM1, c3
    mov eM2, c7
    mov eM3, c8
    mov eM4, c9
)";

std::vector<uint32_t> VsMicrocode(std::string_view body) {
  return ucode::AssembleShader(std::string(kVsHead) + std::string(body) + kVsDraw).microcode;
}
std::vector<uint32_t> PsMicrocode(std::string_view body) {
  return ucode::AssembleShader(std::string(kPsHead) + std::string(body) + kPsColor).microcode;
}

// A scene on a black width x height target drawn with the vertex shader kVsHead + `vs_body` +
// kVsDraw (`vs_registers` temporaries) and the pixel shader kPsHead + `ps_body` + kPsColor.
ShaderScene ExportScene(uint32_t width, uint32_t height, std::string_view vs_body,
                        uint32_t vs_registers, std::string_view ps_body) {
  ShaderScene s;
  s.width = width;
  s.height = height;
  s.clear_rgba = {0, 0, 0, 0xFF};
  s.vs_microcode = VsMicrocode(vs_body);
  s.ps_microcode = PsMicrocode(ps_body);
  s.vs_registers = vs_registers;
  s.ps_registers = 1;
  return s;
}

// Two triangles covering pixels [x0, x1) x [y0, y1): corners a quarter pixel before the pixel
// edges, 4 dwords per vertex (x, y, 0, 0).
void PushRect(std::vector<uint32_t>& w, const ShaderScene& s, int x0, int y0, int x1, int y1) {
  const float l = float(x0) - 0.25f, r = float(x1) - 0.25f, t = float(y0) - 0.25f,
              b = float(y1) - 0.25f;
  const float corners[6][2] = {{l, t}, {r, t}, {l, b}, {r, t}, {r, b}, {l, b}};
  for (const auto& c : corners) {
    w.push_back(FloatBits(ClipX(c[0], s.width)));
    w.push_back(FloatBits(ClipY(c[1], s.height)));
    w.push_back(0);
    w.push_back(0);
  }
}

Image Canvas(const ShaderScene& s) {
  Image img;
  img.width = s.width;
  img.height = s.height;
  img.rgba.resize(size_t(s.width) * s.height * 4);
  for (size_t p = 0; p < size_t(s.width) * s.height; ++p) {
    for (size_t c = 0; c < 4; ++c) img.rgba[4 * p + c] = s.clear_rgba[c];
  }
  return img;
}

void FillRect(Image& img, int x0, int y0, int x1, int y1, std::array<uint8_t, 4> rgba) {
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      for (size_t c = 0; c < 4; ++c) img.rgba[(size_t(y) * img.width + size_t(x)) * 4 + c] = rgba[c];
    }
  }
}

// Draw 0 (red, pixels [8,24)^2) exports its 6 positions moved 32 pixels right into draw 1's
// vertex buffer, which the trace filled with zeros (a degenerate point); draw 1 (green) therefore
// draws at [40,56) x [8,24). Draw 1 exports to elements 6..11 of a 6-element stream over draw 2's
// vertex buffer: every element is past the count and dropped, so draw 2 (blue) draws its two
// rectangles where the trace put them, [8,24) and [40,56) x [40,56). Draw 2 exports its 12
// positions + 32 px to 0x00F00000 (see --dump-memory).
ShaderScene PositionsScene() {
  ShaderScene s = ExportScene(64, 64, kExportPositionVs, 3, "");
  const float shift = 32.0f / (float(s.width) / 2);  // 32 pixels in clip units: 1.0
  ShaderDraw d0;
  d0.primitive = PrimitiveType::kTriangleList;
  PushRect(d0.vertex_words, s, 8, 8, 24, 24);
  d0.vertex_count = 6;
  d0.vs_constants = {{0, Stream(kVertexBuffers + 0x1000, kFormatK32323232Float, 6, kEndian8in32)},
                     {1, {0.0f, 1.0f, 0.0f, 0.0f}},
                     {2, {1.0f, 1.0f, 0.0f, 0.0f}},
                     {3, {shift, 0.0f, 0.0f, 1.0f}},
                     {4, {1.0f, 0.0f, 0.0f, 1.0f}},
                     {5, {0.0f, 0.0f, 0.0f, 0.0f}}};
  ShaderDraw d1;
  d1.vertex_words.assign(24, 0);
  d1.vertex_count = 6;
  d1.vs_constants = {{0, Stream(kVertexBuffers + 0x2000, kFormatK32323232Float, 6, kEndian8in32)},
                     {4, {0.0f, 1.0f, 0.0f, 1.0f}},
                     {5, {6.0f, 0.0f, 0.0f, 0.0f}}};
  ShaderDraw d2;
  PushRect(d2.vertex_words, s, 8, 40, 24, 56);
  PushRect(d2.vertex_words, s, 40, 40, 56, 56);
  d2.vertex_count = 12;
  d2.vs_constants = {{0, Stream(kScratch, kFormatK32323232Float, 12, kEndian8in32)},
                     {4, {0.0f, 0.0f, 1.0f, 1.0f}},
                     {5, {0.0f, 0.0f, 0.0f, 0.0f}}};
  s.draws = {d0, d1, d2};
  return s;
}

Image PositionsExpected(const ShaderScene& s) {
  Image img = Canvas(s);
  FillRect(img, 8, 8, 24, 24, {0xFF, 0, 0, 0xFF});
  FillRect(img, 40, 8, 56, 24, {0, 0xFF, 0, 0xFF});
  FillRect(img, 8, 40, 24, 56, {0, 0, 0xFF, 0xFF});
  FillRect(img, 40, 40, 56, 56, {0, 0, 0xFF, 0xFF});
  return img;
}

// Draw 0 (red, auto-indexed, [8,24)^2) exports 6 + i for its vertex i as k_16 UINTEGER with the
// 8in16 swap (big-endian halfwords, the layout a DMA index buffer with VGT_DMA_SIZE swap 8in16
// reads) over draw 1's index buffer, which the trace filled with 0..5. Draw 1 (green) is
// indexed: its vertices 0..5 are a rectangle at [40,56)^2 and 6..11 one at x [40,56) y [8,24),
// so only index reading that sees the exported bytes draws it top right; stale indices would put
// it bottom right. Draw 1's own exports go to the scratch range.
ShaderScene IndexStreamScene() {
  ShaderScene s = ExportScene(64, 64, kExportIndexVs, 3, "");
  ShaderDraw d0;
  PushRect(d0.vertex_words, s, 8, 8, 24, 24);
  d0.vertex_count = 6;
  d0.vs_constants = {{0, Stream(kIndexBuffers + 0x1000, kFormatK16, 6, kEndian8in16, kNumericUInteger)},
                     {1, {0.0f, 1.0f, 0.0f, 0.0f}},
                     {4, {1.0f, 0.0f, 0.0f, 1.0f}},
                     {5, {6.0f, 0.0f, 0.0f, 0.0f}}};
  ShaderDraw d1;
  PushRect(d1.vertex_words, s, 40, 40, 56, 56);
  PushRect(d1.vertex_words, s, 40, 8, 56, 24);
  d1.indices = {0, 1, 2, 3, 4, 5};
  d1.vs_constants = {{0, Stream(kScratch, kFormatK16, 12, kEndian8in16, kNumericUInteger)},
                     {4, {0.0f, 1.0f, 0.0f, 1.0f}}};
  s.draws = {d0, d1};
  return s;
}

Image IndexStreamExpected(const ShaderScene& s) {
  Image img = Canvas(s);
  FillRect(img, 8, 8, 24, 24, {0xFF, 0, 0, 0xFF});
  FillRect(img, 40, 8, 56, 24, {0, 0xFF, 0, 0xFF});
  return img;
}

// Float factors read back through vertex fetch. Draw 0 (red, [8,24)^2, f = 0 in its own
// buffer) exports f = 1.0 as k_32_FLOAT, 8in32 (big-endian, as vertex fetch reads it), to
// elements 0, 4, .., 20 of a stream whose base is dword 2 of draw 1's vertex buffer: the f of
// each of draw 1's six vertices (c1 = (0, 4, 0, 0): element 4 i for vertex i). Draw 1 (green)
// is a rectangle at [8,24) x [40,56) in the trace with f = 0; it draws at x + f * 1.0 clip units
// = 32 pixels further right, [40,56)^2, only when its vertex fetch reads the exported factors.
// Draw 1's own exports go to the scratch range.
ShaderScene FactorFetchScene() {
  ShaderScene s = ExportScene(64, 64, kExportFactorVs, 3, "");
  ShaderDraw d0;
  PushRect(d0.vertex_words, s, 8, 8, 24, 24);
  d0.vertex_count = 6;
  d0.vs_constants = {{0, Stream(kVertexBuffers + 0x1000 + 8, kFormatK32Float, 24, kEndian8in32)},
                     {1, {0.0f, 4.0f, 0.0f, 0.0f}},
                     {2, {1.0f, 0.0f, 0.0f, 0.0f}},
                     {3, {32.0f / (float(s.width) / 2), 0.0f, 0.0f, 0.0f}},
                     {4, {1.0f, 0.0f, 0.0f, 1.0f}}};
  ShaderDraw d1;
  PushRect(d1.vertex_words, s, 8, 40, 24, 56);
  d1.vertex_count = 6;
  d1.vs_constants = {{0, Stream(kScratch, kFormatK32Float, 24, kEndian8in32)},
                     {4, {0.0f, 1.0f, 0.0f, 1.0f}}};
  s.draws = {d0, d1};
  return s;
}

Image FactorFetchExpected(const ShaderScene& s) {
  Image img = Canvas(s);
  FillRect(img, 8, 8, 24, 24, {0xFF, 0, 0, 0xFF});
  FillRect(img, 40, 40, 56, 56, {0, 0xFF, 0, 0xFF});
  return img;
}

// Exports of draws both paths skip (they rasterize nothing): the vertex shader still runs on the
// hardware and its exports land (renderer/gpu/include/xnt/gpu/vertex_exports.h). Draw 0 has
// RB_COLOR_MASK 0 and no depth test (nothing to write: skipped, not drawn) and exports indices
// 6..11 over draw 2's index buffer; draw 1 has RB_MODECONTROL edram_mode kIgnore (skipped) and
// exports 12..17 over draw 3's. Draws 2 and 3 (green, blue; mask and mode restored) are indexed
// over 18 vertices: 0..5 a rectangle at [8,24) x [40,56), 6..11 at [40,56) x [8,24), 12..17 at
// [40,56)^2; the trace's indices are 0..5 for both. So the image shows draw 2 top right and
// draw 3 bottom right only when the skipped draws exported; without the exports both would land
// bottom left, and the red of draws 0 and 1 never shows.
ShaderScene SkippedDrawScene() {
  ShaderScene s = ExportScene(64, 64, kExportIndexVs, 3, "");
  ShaderDraw d0;
  PushRect(d0.vertex_words, s, 8, 8, 24, 24);
  d0.vertex_count = 6;
  d0.register_writes = {{xenos::RegIndex(xenos::Reg::RB_COLOR_MASK), 0}};
  d0.vs_constants = {{0, Stream(kIndexBuffers + 0x2000, kFormatK16, 6, kEndian8in16, kNumericUInteger)},
                     {1, {0.0f, 1.0f, 0.0f, 0.0f}},
                     {4, {1.0f, 0.0f, 0.0f, 1.0f}},
                     {5, {6.0f, 0.0f, 0.0f, 0.0f}}};
  ShaderDraw d1 = d0;
  d1.register_writes = {{xenos::RegIndex(xenos::Reg::RB_COLOR_MASK), 0xF},
                        {xenos::RegIndex(xenos::Reg::RB_MODECONTROL),
                         uint32_t(xenos::ModeControl::kIgnore)}};
  d1.vs_constants = {{0, Stream(kIndexBuffers + 0x3000, kFormatK16, 6, kEndian8in16, kNumericUInteger)},
                     {5, {12.0f, 0.0f, 0.0f, 0.0f}}};
  ShaderDraw d2;
  PushRect(d2.vertex_words, s, 8, 40, 24, 56);
  PushRect(d2.vertex_words, s, 40, 8, 56, 24);
  PushRect(d2.vertex_words, s, 40, 40, 56, 56);
  d2.indices = {0, 1, 2, 3, 4, 5};
  d2.register_writes = {{xenos::RegIndex(xenos::Reg::RB_MODECONTROL),
                         uint32_t(xenos::ModeControl::kColorDepth)}};
  d2.vs_constants = {{0, Stream(kScratch, kFormatK16, 6, kEndian8in16, kNumericUInteger)},
                     {4, {0.0f, 1.0f, 0.0f, 1.0f}}};
  ShaderDraw d3 = d2;
  d3.register_writes.clear();
  d3.vs_constants = {{4, {0.0f, 0.0f, 1.0f, 1.0f}}};
  s.draws = {d0, d1, d2, d3};
  return s;
}

Image SkippedDrawExpected(const ShaderScene& s) {
  Image img = Canvas(s);
  FillRect(img, 40, 8, 56, 24, {0, 0xFF, 0, 0xFF});
  FillRect(img, 40, 40, 56, 56, {0, 0, 0xFF, 0xFF});
  return img;
}

// Pixel-shader exports in several formats, each draw a 4x4 square whose 16 pixels all write the
// same elements into the 0xAA-filled tail of their own vertex buffer page (offset 0x100), so the
// 8- and 16-bit formats must keep the neighbouring bytes. Per draw: format, endian, numeric type,
// red/blue swap, first index. The packing rules are worked by hand in
// tests/ucode/memexport_test.cpp; fbo and cpu leave the same bytes (--dump-memory 0x100100:0x5100).
struct FormatCase {
  uint32_t format, endian, numeric;
  bool swap;
  uint32_t index, count;
};
constexpr FormatCase kFormatCases[] = {
    {6, 2, 0, true, 0, 8},    // k_8_8_8_8 8in32, R<->B
    {26, 1, 0, false, 0, 8},  // k_16_16_16_16 8in16
    {2, 0, 0, false, 1, 5},   // k_8: bytes 1-4 (index 5 is past the count: dropped)
    {24, 1, 1, false, 1, 8},  // k_16 snorm 8in16: halfwords 1-5
    {32, 4, 0, false, 0, 8},  // k_16_16_16_16_FLOAT 8in64
    {7, 2, 3, false, 0, 8},   // k_2_10_10_10 sint 8in32
};

ShaderScene FormatsScene() {
  ShaderScene s = ExportScene(64, 16, kPlainVs, 2, kExportPs);
  for (size_t i = 0; i < std::size(kFormatCases); ++i) {
    const FormatCase& c = kFormatCases[i];
    ShaderDraw d;
    PushRect(d.vertex_words, s, 4 + 8 * int(i), 4, 8 + 8 * int(i), 8);
    d.vertex_count = 6;
    d.vertex_words.resize(0x100 / 4, 0);
    d.vertex_words.resize(0x200 / 4, 0xAAAAAAAAu);
    const uint32_t base = kVertexBuffers + uint32_t(i) * 0x1000 + 0x100;
    d.vs_constants = {{4, {0.0f, float(40 * (i + 1)) / 255.0f, 1.0f, 1.0f}}};
    d.ps_constants = {{0, Stream(base, c.format, c.count, c.endian, c.numeric, c.swap)},
                      {1, {0.0f, 1.0f, 0.0f, 0.0f}},
                      {2, {1.0f, 0.5f, 0.0f, 0.25f}},
                      {3, {-1.0f, 0.25f, 2.0f, -0.5f}},
                      {6, {float(c.index), 0.0f, 0.0f, 0.0f}},
                      {7, {0.75f, -3.0f, 0.125f, 1.0f}},
                      {8, {100.0f, 0.0f, -1.0f, 0.5f}},
                      {9, {65504.0f, -2.5f, 0.1f, 1.0f}}};
    s.draws.push_back(std::move(d));
  }
  return s;
}

Image FormatsExpected(const ShaderScene& s) {
  Image img = Canvas(s);
  for (int i = 0; i < int(std::size(kFormatCases)); ++i) {
    // Green 40 * (i + 1) / 255 is exact in 8 bits.
    FillRect(img, 4 + 8 * i, 4, 8 + 8 * i, 8, {0, uint8_t(40 * (i + 1)), 0xFF, 0xFF});
  }
  return img;
}

// Pixel-shader exports of a draw that writes no target (RB_COLOR_MASK 0, no depth/stencil test):
// the pixel shader still runs on every covered pixel in colour/depth mode (Xenia draw_util.cc
// IsPixelShaderNeededWithRasterization). One vertex shader for both draws fetches (x, y, f, g),
// draws at x + f * c3.x and interpolates c4 + (f, g, f, g) * c5; the pixel shader turns the
// interpolated (f, g) into its pixel's index floor(g) * c5.x + floor(f) and exports
// (1.0, index) as k_32_32_FLOAT element 2 * index of stream c0 (c1 = (0, 2, 0, 0)), then writes
// the interpolated colour.
const char* const kTargetlessVs = R"(    vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4
    mad r1.x, r1.z, c3.x, r1.x
    mad r2, r1.zwzw, c5, c4
)" XNT_SAMPLE_VS_EXPORT_R1XY_R2;
const char* const kPixelIndexExportPs = R"(    exec
    floor r1.xy, r0.xy
    mad r1.x, r1.y, c5.x, r1.x
    alloc export
    exec
    mad eA, r1.xxxx, c1, c0
    mad eM0, r1.xxxx, c3, c2
)";

// Draw 0 has RB_COLOR_MASK 0 and no depth test; it covers the 4 x 3 pixels [8,12) x [8,11) and
// interpolates (f, g) = the screen position minus (8, 8) (vertex (f, g) = corner + 0.5 - 8: the
// half-pixel offset puts a corner at screen corner + 0.5), so pixel (x, y) reads
// (x - 8 + 1/2, y - 8 + 1/2) at its centre, and at 2x2 (x - 8 + 1/4 or 3/4, ...) at its host
// pixels': the floors are x - 8 and y - 8 either way, and pixel (x, y) exports index
// 4 (y - 8) + (x - 8), 0..11, each once. The stream's base is dword 2 of draw 1's vertex buffer,
// 16 bytes per vertex, so index k writes (f, g) = (1.0, k) of draw 1's vertex k, big-endian
// (8in32, as vertex fetch reads it). Draw 1 (green, mask 0xF restored) has 12 vertices with
// f = 0 in the trace: rectangles at x [8,24), y [20,32) and [40,56); moved by f * 1.0 clip units
// = 32 pixels, they land at x [40,56) only when all twelve pixels of draw 0 exported. Draw 1's
// own exports (every pixel the same element) go to the scratch range.
ShaderScene TargetlessPixelScene() {
  ShaderScene s;
  s.width = 64;
  s.height = 64;
  s.clear_rgba = {0, 0, 0, 0xFF};
  s.vs_microcode = ucode::AssembleShader(std::string(kVsHead) + kTargetlessVs).microcode;
  s.ps_microcode = PsMicrocode(kPixelIndexExportPs);
  s.vs_registers = 3;
  s.ps_registers = 2;
  ShaderDraw d0;
  PushRect(d0.vertex_words, s, 8, 8, 12, 11);
  for (size_t v = 0; v < 6; ++v) {
    // (f, g): the corner's pixel coordinate (PushRect: edge - 1/4) + 1/2 - 8.
    const float x = (v == 1 || v == 3 || v == 4) ? 12.0f : 8.0f;
    const float y = (v == 2 || v == 4 || v == 5) ? 11.0f : 8.0f;
    d0.vertex_words[4 * v + 2] = FloatBits(x - 0.25f + 0.5f - 8.0f);
    d0.vertex_words[4 * v + 3] = FloatBits(y - 0.25f + 0.5f - 8.0f);
  }
  d0.vertex_count = 6;
  d0.register_writes = {{xenos::RegIndex(xenos::Reg::RB_COLOR_MASK), 0}};
  d0.vs_constants = {{3, {0.0f, 0.0f, 0.0f, 0.0f}},
                     {4, {0.0f, 0.0f, 0.0f, 0.0f}},
                     {5, {1.0f, 1.0f, 0.0f, 0.0f}}};
  d0.ps_constants = {{0, Stream(kVertexBuffers + 0x1000 + 8, kFormatK3232Float, 24, kEndian8in32)},
                     {1, {0.0f, 2.0f, 0.0f, 0.0f}},
                     {2, {1.0f, 0.0f, 0.0f, 0.0f}},
                     {3, {0.0f, 1.0f, 0.0f, 0.0f}},
                     {5, {4.0f, 0.0f, 0.0f, 0.0f}}};
  ShaderDraw d1;
  PushRect(d1.vertex_words, s, 8, 20, 24, 32);
  PushRect(d1.vertex_words, s, 8, 40, 24, 56);
  d1.vertex_count = 12;
  d1.register_writes = {{xenos::RegIndex(xenos::Reg::RB_COLOR_MASK), 0xF}};
  d1.vs_constants = {{3, {32.0f / (float(s.width) / 2), 0.0f, 0.0f, 0.0f}},
                     {4, {0.0f, 1.0f, 0.0f, 1.0f}},
                     {5, {0.0f, 0.0f, 0.0f, 0.0f}}};
  d1.ps_constants = {{0, Stream(kScratch, kFormatK3232Float, 24, kEndian8in32)}};
  s.draws = {d0, d1};
  return s;
}

Image TargetlessPixelExpected(const ShaderScene& s) {
  Image img = Canvas(s);
  FillRect(img, 40, 20, 56, 32, {0, 0xFF, 0, 0xFF});
  FillRect(img, 40, 40, 56, 56, {0, 0xFF, 0, 0xFF});
  return img;
}

// Exported texels read by a later draw's texture fetch (memory coherence for textures): the
// vertex shader fetches (x, y, u, v), exports c2 as k_8_8_8_8 (8in32, the byte order the scene's
// k_8_8_8_8 texture is fetched with) element (vertex index + c5.x) of stream c0, and passes
// (u, v) on; the pixel shader outputs the texel at (u, v).
const char* const kExportTexelVs = R"(    vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4
    add r2.x, r0.x, c5.x
    alloc export
    exec
    mad eA, r2.xxxx, c1, c0
    mov eM0, c2
    alloc position
    exec
    mov oPos.xy01, r1.xy
    alloc interpolators
    exece
    mov o0, r1.zwzw
)";
const char* const kTexelPs = R"(    exec
    tfetch2D r1, r0.xy, tf0
    alloc colors
    exece
    mov oC0, r1
)";
constexpr uint32_t kSceneTexture0 = 0x00180000;  // shader_scenes.cpp kSceneTextureAddress

// An 8 x 1 texture (texels R | G << 8 | B << 16 | A << 24): 0..6 red, 7 blue. Draw 0 (square
// [8,24)^2, u at the centre of texel 7: blue) exports green (c2 = (0, 1, 0, 1): 0xFF00FF00) to
// texels 0..5, one per vertex. Draw 1 then samples texel 2 for the square [40,56)^2 (green only
// when its texture fetch sees the exported bytes; stale: red) and texel 6, which nothing exported,
// for the square x [8,24) y [40,56) (red). Coordinates sit on texel centres, so point sampling
// picks the texel at any scale. Draw 1's own exports go to the scratch range.
ShaderScene TextureFetchScene() {
  ShaderScene s;
  s.width = 64;
  s.height = 64;
  s.clear_rgba = {0, 0, 0, 0xFF};
  s.vs_microcode = ucode::AssembleShader(std::string(kVsHead) + kExportTexelVs).microcode;
  s.ps_microcode = ucode::AssembleShader(std::string(kPsHead) + kTexelPs).microcode;
  s.vs_registers = 3;
  s.ps_registers = 2;
  SceneTexture t;
  t.slot = 0;
  t.width = 8;
  t.height = 1;
  t.texels.assign(8, 0xFF0000FFu);
  t.texels[7] = 0xFFFF0000u;
  s.textures = {t};
  auto rect = [&s](ShaderDraw& d, int x0, int y0, int x1, int y1, uint32_t texel) {
    const size_t first = d.vertex_words.size();
    PushRect(d.vertex_words, s, x0, y0, x1, y1);
    for (size_t w = first; w < d.vertex_words.size(); w += 4) {
      d.vertex_words[w + 2] = FloatBits((float(texel) + 0.5f) / 8.0f);
      d.vertex_words[w + 3] = FloatBits(0.5f);
    }
  };
  ShaderDraw d0;
  rect(d0, 8, 8, 24, 24, 7);
  d0.vertex_count = 6;
  d0.vs_constants = {{0, Stream(kSceneTexture0, kFormatK8888, 8, kEndian8in32)},
                     {1, {0.0f, 1.0f, 0.0f, 0.0f}},
                     {2, {0.0f, 1.0f, 0.0f, 1.0f}},
                     {5, {0.0f, 0.0f, 0.0f, 0.0f}}};
  ShaderDraw d1;
  rect(d1, 40, 40, 56, 56, 2);
  rect(d1, 8, 40, 24, 56, 6);
  d1.vertex_count = 12;
  d1.vs_constants = {{0, Stream(kScratch, kFormatK8888, 12, kEndian8in32)}};
  s.draws = {d0, d1};
  return s;
}

Image TextureFetchExpected(const ShaderScene& s) {
  Image img = Canvas(s);
  FillRect(img, 8, 8, 24, 24, {0, 0, 0xFF, 0xFF});
  FillRect(img, 40, 40, 56, 56, {0, 0xFF, 0, 0xFF});
  FillRect(img, 8, 40, 24, 56, {0xFF, 0, 0, 0xFF});
  return img;
}

Sample Make(std::string name, std::string description, std::string expected, ShaderScene scene,
            Image (*image)(const ShaderScene&)) {
  Sample s = ShaderSceneSample(std::move(name), std::move(description), std::move(expected), scene);
  s.expected_image = [scene, image] { return image(scene); };
  return s;
}

}  // namespace

std::vector<Sample> MemExportSamples() {
  std::vector<Sample> v;
  v.push_back(Make(
      "memexport_vertex_positions",
      "a vertex shader exports its positions (k_32_32_32_32_FLOAT, 8in32) into the next draw's "
      "vertex buffer, which draws them; a stream whose indices are all past its size writes "
      "nothing",
      "black 64x64; red square [8,24)^2; green square x [40,56) y [8,24) (drawn from the "
      "exported positions); blue squares x [8,24) and [40,56), y [40,56) (unmoved: the "
      "out-of-range exports were dropped)",
      PositionsScene(), PositionsExpected));
  v.push_back(Make(
      "memexport_pixel_formats",
      "a pixel shader exports eM0-eM4 in k_8_8_8_8 (R/B swap, 8in32), k_16_16_16_16 (8in16), "
      "k_8, k_16 snorm (8in16), k_16_16_16_16_FLOAT (8in64) and k_2_10_10_10 sint; the 8/16-bit "
      "ones keep their neighbouring bytes; one element past the stream size is dropped",
      "black 64x16 with six 4x4 squares at x = 4 + 8i, y 4..8, colour (0, 40(i+1), 255); the "
      "exported words are checked with --dump-memory 0x100100:0x100 etc.",
      FormatsScene(), FormatsExpected));
  v.push_back(Make(
      "memexport_index_stream",
      "a vertex shader exports integers (k_16 UINTEGER, 8in16) over the next draw's index buffer, "
      "as tessellation-factor shaders feed a later draw; the later draw's index fetch "
      "reads the exported indices, not the ones the trace wrote",
      "black 64x64; red square [8,24)^2; green square x [40,56) y [8,24) (drawn through the "
      "exported indices 6..11; stale indices 0..5 would draw it at y [40,56))",
      IndexStreamScene(), IndexStreamExpected));
  v.push_back(Make(
      "memexport_factor_fetch",
      "a vertex shader exports float32 factors (k_32_FLOAT, 8in32, every fourth element: one "
      "dword of each vertex) into the next draw's vertex buffer, as tessellation-factor shaders "
      "do; the next draw's vertex fetch reads them and moves its vertices by them",
      "black 64x64; red square [8,24)^2; green square [40,56)^2 (moved 32 pixels right by the "
      "exported factor 1.0; the trace's factor 0 would leave it at x [8,24))",
      FactorFetchScene(), FactorFetchExpected));
  v.push_back(Make(
      "memexport_skipped_draw",
      "two draws that rasterize nothing (RB_COLOR_MASK 0 without a depth test; RB_MODECONTROL "
      "kIgnore) still run their vertex shader, which exports indices over two later draws' "
      "index buffers; the later draws are drawn through the exported indices",
      "black 64x64; green square x [40,56) y [8,24); blue square [40,56)^2 (stale indices "
      "would put both at x [8,24) y [40,56); the skipped draws' red never shows)",
      SkippedDrawScene(), SkippedDrawExpected));
  v.back().draws_skipped = 2;
  v.push_back(Make(
      "memexport_pixel_targetless",
      "a draw with RB_COLOR_MASK 0 and no depth/stencil test still runs its pixel shader, which "
      "exports (1.0, pixel index) per covered pixel (k_32_32_FLOAT, 8in32, index from the pixel "
      "position) into the next draw's vertex buffer; the next draw's vertex fetch reads the "
      "exported values and moves its vertices by them",
      "black 64x64; green rectangles x [40,56), y [20,32) and [40,56) (moved 32 pixels right by "
      "the twelve exported 1.0s; without the exports at x [8,24)); the target-less draw's "
      "pixels [8,12) x [8,11) stay black",
      TargetlessPixelScene(), TargetlessPixelExpected));
  v.push_back(Make(
      "memexport_texture_fetch",
      "a vertex shader exports texels (k_8_8_8_8, 8in32) into a texture that a later draw "
      "samples in the same frame; the texture fetch reads the exported texels, not the ones the "
      "trace wrote",
      "black 64x64; blue square [8,24)^2 (texel 7, not exported); green square [40,56)^2 "
      "(exported texel 2; stale: red); red square x [8,24) y [40,56) (texel 6, not exported)",
      TextureFetchScene(), TextureFetchExpected));
  return v;
}

}  // namespace xnt::samples
