// Four frames chained through memory that shaders and resolves wrote in earlier frames, so a
// slice cut at any frame boundary or event must carry those bytes in its state:
//  - frame k's vertex shader exports (eA / eM0) its four positions moved 16 pixels right into
//    vertex buffer k + 1, which frame k + 1 draws through its vertex fetch constant;
//  - the same shader exports, through a second eA, a 4 x 4 k_8_8_8_8 texture (vertex r writes
//    row r, eM0-eM3 its four texels) that frame k + 1 samples;
//  - frame 0 resolves its picture to a texture that frame 2 samples.
// Each stream constant covers more than the draw writes (the position stream two pages, of which
// the draw exports 64 bytes), as a title's stream over a whole buffer does; the trace fills every
// exported buffer with stale contents first (vertices one row lower, magenta texels), so a replay
// that reads them where an export or resolve should have landed shows it.
#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "edram_scenarios.h"
#include "edram_scene_builder.h"
#include "listing_head.h"
#include "xnt/xenos/memexport_stream.h"

namespace xnt::samples {
namespace {

using namespace edram_scene;

constexpr uint32_t kWidth = 64, kHeight = 32, kFrames = 4;
// Vertex buffer k (k = 0..5; 4 and 5 only exported to) and exported texture k (1..4).
constexpr uint32_t kVertexBuffers = 0x00500000, kExportTextures = 0x00510000;
constexpr uint32_t VertexBuffer(uint32_t k) { return kVertexBuffers + k * 0x1000; }
constexpr uint32_t ExportTexture(uint32_t k) { return kExportTextures + k * 0x1000; }
// Stream elements: 512 float4 positions (two pages), and 4 rows of 64 texels: a linear texture's
// rows are 256 bytes apart (gpu/texture_address.h, from Xenia texture_util.cc).
constexpr uint32_t kTexelPitch = 64;
constexpr uint32_t kPositionElements = 512, kTexelElements = 4 * kTexelPitch;
// The stream fields (ColorFormat and Endian128 numbers: xenos/memexport_stream.h).
constexpr uint32_t kFormatK8888 = 6, kFormatK32323232Float = 38, kEndian8in32 = 2;
constexpr std::array<uint8_t, 4> kStaleTexel = {255, 0, 255, 255};

// Vertex i (stride 4 dwords: clip x, y, 0, 1) exports r1 + c2 as element i of stream c0, and row
// r2 = c6 + i * c7 with column offsets 0, c8, c9, c10 as elements 64 i .. 64 i + 3 of stream c3
// (c4 = (0, 64, 0, 0): row i of the texture), then draws itself at r1.xy (the pixel shader's
// colour is its constant; the interpolator r2 goes unread).
constexpr const char* kExportVs = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4
    mad r2, r0.xxxx, c7, c6
    alloc export
    exec
    mad eA, r0.xxxx, c1, c0
    add eM0, r1, c2
    alloc export
    exec
    mad eA, r0.xxxx, c4, c3
    mov eM0, r2
    add eM1, r2, c8
    add eM2, r2, c9
    add eM3, r2, c10
)" XNT_SAMPLE_VS_EXPORT_R1XY_R2;

Rgba RectColor(uint32_t k) {
  static constexpr std::array<Rgba, kFrames> colors = {C8(200, 40, 40), C8(40, 200, 60),
                                                       C8(60, 80, 220), C8(220, 200, 40)};
  return colors[k];
}
// Frame k's rectangle (drawn from vertex buffer k); `rows_down` moves it (the stale contents).
Rect FrameRect(uint32_t k, float rows_down = 0.0f) {
  const float x = float(4 + 16 * k) - 0.25f, y = 3.75f + rows_down;
  return {x, y, x + 8.0f, y + 8.0f, 0.0f, RectColor(k)};
}
// The texel frame e exports at column c, row r of texture e + 1, as 8-bit codes.
std::array<uint8_t, 4> ExportedTexel(uint32_t e, uint32_t c, uint32_t r) {
  return {uint8_t(40 + 60 * c), uint8_t(30 + 50 * r), uint8_t(50 + 60 * e), 255};
}

std::vector<uint8_t> BigEndianWords(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes(words.size() * 4);
  for (size_t i = 0; i < words.size(); ++i) StoreBE32(bytes.data() + 4 * i, words[i]);
  return bytes;
}
// A rectangle as a 4-vertex strip in clip space (x, y, 0, 1), one page.
std::vector<uint8_t> RectVertices(const Rect& r) {
  std::vector<uint32_t> words(0x1000 / 4, 0);
  const float corners[4][2] = {{r.x0, r.y0}, {r.x1, r.y0}, {r.x0, r.y1}, {r.x1, r.y1}};
  for (size_t i = 0; i < 4; ++i) {
    const float v[4] = {corners[i][0] / (float(kWidth) / 2) - 1.0f,
                        1.0f - corners[i][1] / (float(kHeight) / 2), 0.0f, 1.0f};
    for (size_t c = 0; c < 4; ++c) words[4 * i + c] = std::bit_cast<uint32_t>(v[c]);
  }
  return BigEndianWords(words);
}

std::array<float, 4> StreamConstant(uint32_t base, uint32_t format, uint32_t count) {
  const auto d = xenos::MemExportStreamDwords(base, format, count, kEndian8in32, 0, false);
  return {std::bit_cast<float>(d[0]), std::bit_cast<float>(d[1]), std::bit_cast<float>(d[2]),
          std::bit_cast<float>(d[3])};
}

// Frame k's exporting draw: vertex buffer k, exports into vertex buffer and texture k + 1.
void ExportDraw(SceneBuilder& s, uint32_t k) {
  s.Record([k](capture::Pm4Builder& b) {
    static const auto vs = ucode::AssembleShader(kExportVs);
    static const auto ps = ucode::AssembleShader(kConstantColorPixelShader);
    capture::D3dSetShaders(b, capture::ShaderPair{vs.microcode, ps.microcode, 3, 1, 1});
    const float c = 1.0f / 255.0f;
    const std::vector<std::array<float, 4>> constants = {
        StreamConstant(VertexBuffer(k + 1), kFormatK32323232Float, kPositionElements),
        {0.0f, 1.0f, 0.0f, 0.0f},
        {16.0f / (float(kWidth) / 2), 0.0f, 0.0f, 0.0f},  // 16 pixels right
        StreamConstant(ExportTexture(k + 1), kFormatK8888, kTexelElements),
        {0.0f, float(kTexelPitch), 0.0f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f},
        {40 * c, 30 * c, float(50 + 60 * k) * c, 1.0f},
        {0.0f, 50 * c, 0.0f, 0.0f},
        {60 * c, 0.0f, 0.0f, 0.0f},
        {120 * c, 0.0f, 0.0f, 0.0f},
        {180 * c, 0.0f, 0.0f, 0.0f}};
    for (size_t i = 0; i < constants.size(); ++i) b.SetAluConstants(uint32_t(i), constants[i]);
    b.SetAluConstants(256, RectColor(k));
    capture::D3dSetVertexFetch(b, 95, VertexBuffer(k), 16);
    b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleStrip, 4);
  });
}

void Build(SceneBuilder& s) {
  RenderTargetSetup rt;
  rt.surface_pitch = kWidth;
  s.Target(rt, kWidth, kHeight);
  s.Memory(VertexBuffer(0), RectVertices(FrameRect(0)));
  for (uint32_t k = 1; k <= kFrames + 1; ++k) {
    s.Memory(VertexBuffer(k), RectVertices(FrameRect(k % kFrames, 20.0f)));
  }
  for (uint32_t k = 1; k <= kFrames; ++k) {
    s.Memory(ExportTexture(k),
             BigEndianWords(std::vector<uint32_t>(kTexelElements, Packed8888(kStaleTexel))));
  }
  const auto resolved = capture::TextureFetch2D(kTexture, kWidth, kHeight, TextureFormat::k_8_8_8_8,
                                                true, xenos::Endian::k8in32);
  for (uint32_t k = 0; k < kFrames; ++k) {
    s.Resolve(ResolveOpts{.width = kWidth, .height = kHeight, .clear_color = true,
                          .clear_color_value = Packed8888(kDark)});
    ExportDraw(s, k);
    if (k > 0) {
      const auto texture = capture::TextureFetch2D(ExportTexture(k), 4, 4, TextureFormat::k_8_8_8_8,
                                                   false, xenos::Endian::k8in32);
      s.DrawTextured(4 + 16 * k, 20, 4, 4, 4, 4, texture, {}, 0.6f);
    }
    if (k == 0) s.Resolve(ResolveOpts{.width = kWidth, .height = kHeight, .dest = kTexture});
    // Frame 2 shows the top-left 16 x 16 of what frame 0 resolved.
    if (k == 2) s.DrawTextured(48, 16, 16, 16, kWidth, kHeight, resolved, {}, 0.6f);
    s.Present(kFrontA, kWidth, kHeight);
  }
}

std::vector<Image> Frames() {
  std::vector<Image> out;
  for (uint32_t k = 0; k < kFrames; ++k) {
    Image img = Fill(kWidth, kHeight, kDark);
    Paint(img, FrameRect(k), U8(RectColor(k)));
    for (uint32_t r = 0; k > 0 && r < 4; ++r) {
      for (uint32_t c = 0; c < 4; ++c) {
        const auto texel = ExportedTexel(k - 1, c, r);
        std::copy(texel.begin(), texel.end(),
                  img.rgba.begin() + 4 * (size_t(20 + r) * kWidth + 4 + 16 * k + c));
      }
    }
    if (k == 2) {
      // Frame 0's pixels [0, 16)^2 at (48, 16): its rectangle [4, 12)^2 at [52, 60) x [20, 28).
      Paint(img, Rect{51.75f, 19.75f, 59.75f, 27.75f}, U8(RectColor(0)));
    }
    out.push_back(img);
  }
  return out;
}

EdramScenario MemExportChain() {
  return {MakeSample("slice_memexport_4_frames",
                     "four frames chained through memory written in earlier frames: frame k's "
                     "vertex shader exports its positions 16 pixels right (k_32_32_32_32_FLOAT, "
                     "8in32) into the vertex buffer frame k+1 draws, and a 4x4 k_8_8_8_8 texture "
                     "(a second eA: one row per vertex, eM0-eM3) that frame k+1 samples; frame 0 "
                     "resolves its picture to a texture frame 2 samples; the trace first fills "
                     "every exported buffer with stale vertices (one row lower) and magenta texels",
                     "frame k, 64x32 on dark (16,24,32): an 8x8 rectangle at x 4+16k, y 4 in "
                     "(200,40,40) / (40,200,60) / (60,80,220) / (220,200,40); frames 1-3 a 4x4 "
                     "block at x 4+16k, y 20, texel (c, r) = (40+60c, 30+50r, 50+60(k-1)); frame 2 "
                     "also frame 0's top-left 16x16 at (48,16) (its red rectangle at x 52-59, "
                     "y 20-27). No magenta anywhere; stale vertices would draw the rectangle 20 "
                     "rows lower. All pixels exact.",
                     Build, Frames),
          Frames, 0, "one target at tile 0 throughout", ""};
}

}  // namespace

std::vector<EdramScenario> SliceMemExportScenarios() { return {MemExportChain()}; }

}  // namespace xnt::samples
