// The fbo path end to end on lavapipe, without the translator: hand-written GLSL shaders that
// follow the shader_interface.h contract (vertices read from shared memory through a vertex fetch
// constant, colour from a pixel-shader float constant) drive XenosRenderer::Draw; a resolve
// writes the render target into tiled guest memory and the swap reads it back through texture
// fetch constant 0. Pixels are checked exactly, with the validation layer on.
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "fake_guest.h"
#include "test_env.h"
#include "xnt/vk/host_shaders.h"
#include "xnt/vk/fbo/xenos_renderer.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

using xenos::Reg;

constexpr char kInterface[] = R"(#version 450
layout(std430, set = 0, binding = 0) readonly buffer XeSharedMemory { uint words[]; } xe_shared_memory[4];
layout(std140, set = 1, binding = 3) uniform XePixelFloatConstants { vec4 ps_float_constants[256]; };
layout(std140, set = 1, binding = 4) uniform XeConstants {
  uvec4 fetch_constants[48]; uvec4 bool_constants[2]; uvec4 loop_constants[8];
};
layout(std140, set = 1, binding = 1) uniform XeSystemConstants {
  uint flags; uint vertex_index_endian; int vertex_base_index; uint pad0;
  vec4 ndc_scale; vec4 ndc_offset; vec4 point_size_min_max; ivec4 color_exp_bias;
  float alpha_test_reference; uint alpha_test_func; uint pad1; uint pad2;
};
uint xe_load_word(uint a) { return xe_shared_memory[a >> 27].words[(a & 0x7FFFFFFu) >> 2]; }
uint bswap(uint v) {
  return (v << 24) | ((v & 0xFF00u) << 8) | ((v >> 8) & 0xFF00u) | (v >> 24);
}
)";

// Vertex fetch constant 1 (fetch dwords 2, 3) -> x, y, z big-endian floats per vertex.
constexpr char kVertexShader[] = R"(
layout(location = 0) out vec4 xe_interpolators[16];
void main() {
  uint index = uint(gl_VertexIndex + vertex_base_index);
  uint base = fetch_constants[0].z & 0xFFFFFFFCu;
  uint a = base + index * 12u;
  vec4 pos = vec4(uintBitsToFloat(bswap(xe_load_word(a))), uintBitsToFloat(bswap(xe_load_word(a + 4u))),
                  uintBitsToFloat(bswap(xe_load_word(a + 8u))), 1.0);
  for (int i = 0; i < 16; ++i) xe_interpolators[i] = vec4(0.0);
  xe_interpolators[0] = vec4(float(index), 0.0, 0.0, 1.0);
  gl_Position = vec4(pos.xyz * ndc_scale.xyz + ndc_offset.xyz * pos.w, pos.w);
}
)";

constexpr char kPixelShader[] = R"(
layout(location = 0) in vec4 xe_interpolators[16];
layout(location = 0) out vec4 oC0;
void main() { oC0 = ps_float_constants[0]; }
)";

struct Scene {
  std::unique_ptr<VulkanContext> ctx;
  std::unique_ptr<XenosRenderer> renderer;
  test::FakeGuest guest;
  std::vector<uint32_t> regs = std::vector<uint32_t>(xenos::kRegisterCount, 0);
  VkShaderModule vs = VK_NULL_HANDLE, ps = VK_NULL_HANDLE;

  static constexpr uint32_t kWidth = 64, kHeight = 64;
  static constexpr uint32_t kVertices = 0x10000, kResolveRect = 0x20000, kFront = 0x100000;

  void Set(Reg r, uint32_t v) { regs[xenos::RegIndex(r)] = v; }
  void SetF(Reg r, float f) { Set(r, std::bit_cast<uint32_t>(f)); }

  Scene() {
    ctx = test::MakeLavapipeContext();
    renderer = std::make_unique<XenosRenderer>(*ctx);
    vs = renderer->ShaderModule(
        1, CompileHostGlsl(std::string(kInterface) + kVertexShader, VK_SHADER_STAGE_VERTEX_BIT, "vs"));
    ps = renderer->ShaderModule(
        2, CompileHostGlsl(std::string(kInterface) + kPixelShader, VK_SHADER_STAGE_FRAGMENT_BIT, "ps"));
    Set(Reg::RB_SURFACE_INFO, kWidth);
    Set(Reg::RB_COLOR_INFO, 0);  // base 0, k_8_8_8_8
    Set(Reg::RB_COLOR_MASK, 0xF);
    Set(Reg::RB_BLENDCONTROL0, 0x00010001);  // src one, dst zero: no blending
    Set(Reg::PA_SC_WINDOW_SCISSOR_BR, kWidth | (kHeight << 16));
    Set(Reg::PA_SC_SCREEN_SCISSOR_BR, kWidth | (kHeight << 16));
    Set(Reg::PA_SU_VTX_CNTL, 1);  // OpenGL pixel centres: no half-pixel offset
    // Pixel shader constant c0 (float constant 256).
    for (int i = 0; i < 4; ++i) {
      // 128/255 rather than 0.5: 127.5 is a rounding tie that lavapipe and NVIDIA resolve
      // differently, and these tests must hold on both drivers.
      const float c[4] = {1.0f, 128.0f / 255.0f, 0.25f, 1.0f};
      regs[xenos::AluConstantIndex(256, uint32_t(i))] = std::bit_cast<uint32_t>(c[i]);
    }
    // Vertex fetch constant 1: type vertex (3), address in dwords, 8in32.
    regs[xenos::VertexFetchConstantIndex(1)] = 3u | kVertices;
    regs[xenos::VertexFetchConstantIndex(1) + 1] = 2u | (64u << 2);
  }

  bool DrawTriangles(xenos::PrimitiveType type, std::initializer_list<float> xyz) {
    guest.WriteBEFloats(kVertices, xyz);
    Set(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
    DrawInput d;
    d.regs = regs;
    d.vertex_shader = vs;
    d.pixel_shader = ps;
    d.pixel_shader_color_mask = 1;
    d.primitives.type = type;
    d.primitives.vertex_count = uint32_t(xyz.size() / 3);
    return renderer->Draw(d, guest.Access());
  }

  // Resolve the whole target to kFront (tiled, 8in32), optionally clearing it afterwards.
  void ResolveToFront(bool clear, uint32_t clear_color = 0,
                      uint32_t dest_info = 2u | (6u << 7) /* 8in32, k_8_8_8_8 */) {
    guest.WriteBEFloats(kResolveRect, {0.0f, 0.0f, float(kWidth), 0.0f, float(kWidth), float(kHeight)});
    regs[xenos::VertexFetchConstantIndex(0)] = 3u | kResolveRect;
    regs[xenos::VertexFetchConstantIndex(0) + 1] = 2u | (6u << 2);
    Set(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kCopy));
    Set(Reg::RB_COPY_CONTROL, clear ? (1u << 8) : 0u);
    Set(Reg::RB_COLOR_CLEAR, clear_color);
    Set(Reg::RB_COPY_DEST_BASE, kFront);
    Set(Reg::RB_COPY_DEST_PITCH, kWidth | (kHeight << 16));
    Set(Reg::RB_COPY_DEST_INFO, dest_info);
    renderer->Resolve(regs, guest.Access());
  }

  // One rectangle-list draw of the scene's shaders into its colour target (regs set per draw).
  DrawInput RectangleDraw() {
    Set(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
    DrawInput d;
    d.vertex_shader = vs;
    d.pixel_shader = ps;
    d.pixel_shader_color_mask = 1;
    d.primitives.type = xenos::PrimitiveType::kRectangleList;
    d.primitives.vertex_count = 3;
    return d;
  }

  gpu::SwapImage Swap() {
    // Texture fetch constant 0 describing the front buffer, as VdSwap writes it.
    uint32_t* t = &regs[xenos::FetchConstantIndex(0, 0)];
    t[0] = 2u | ((kWidth >> 5) << 22) | (1u << 31);
    t[1] = 6u | (2u << 6) | ((kFront >> 12) << 12);
    t[2] = (kWidth - 1) | ((kHeight - 1) << 13);
    t[3] = (0u | (1u << 3) | (2u << 6) | (3u << 9)) << 1;
    t[4] = 0;
    t[5] = 1u << 9;  // 2D
    return renderer->Swap(regs, kFront, kWidth, kHeight, guest.Access());
  }
};

uint32_t Pixel(const gpu::SwapImage& img, uint32_t x, uint32_t y) {
  const uint8_t* p = &img.rgba[(size_t(y) * img.width + x) * 4];
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}

constexpr uint32_t kShaded = 0xFF4080FFu;  // (255, 128, 64, 255) as R | G<<8 | B<<16 | A<<24
constexpr uint32_t kBlack = 0xFF000000u;   // alpha is forced to 255 by the swap

TEST(XenosRenderer, TriangleResolvesAndSwapsExactly) {
  Scene s;
  ASSERT_TRUE(s.DrawTriangles(xenos::PrimitiveType::kTriangleList,
                              {0, 0, 0, 64, 0, 0, 0, 64, 0}));
  s.ResolveToFront(false);
  gpu::SwapImage img = s.Swap();
  ASSERT_EQ(img.width, 64u);
  for (uint32_t y = 0; y < 64; ++y) {
    for (uint32_t x = 0; x < 64; ++x) {
      if (x + y == 63) continue;  // centre exactly on the diagonal: tie-breaking rule
      ASSERT_EQ(Pixel(img, x, y), x + y < 63 ? kShaded : kBlack) << x << "," << y;
    }
  }
  EXPECT_EQ(s.renderer->stats().draws, 1u);
  EXPECT_EQ(s.ctx->validation_message_count(), 0u) << test::ValidationReport(*s.ctx);
}

TEST(XenosRenderer, RectangleListFillsTheFourthCorner) {
  Scene s;
  // Three corners of the rectangle [8, 40) x [16, 48); the GS derives (40, 48).
  ASSERT_TRUE(s.DrawTriangles(xenos::PrimitiveType::kRectangleList,
                              {8, 16, 0, 40, 16, 0, 8, 48, 0}));
  s.ResolveToFront(false);
  gpu::SwapImage img = s.Swap();
  for (uint32_t y = 0; y < 64; ++y) {
    for (uint32_t x = 0; x < 64; ++x) {
      bool inside = x >= 8 && x < 40 && y >= 16 && y < 48;
      ASSERT_EQ(Pixel(img, x, y), inside ? kShaded : kBlack) << x << "," << y;
    }
  }
  EXPECT_EQ(s.ctx->validation_message_count(), 0u) << test::ValidationReport(*s.ctx);
}

TEST(XenosRenderer, ResolveClearAndHalfPixelOffset) {
  Scene s;
  // Clear to (R=0x10, G=0x20, B=0x30, A=0x40) through a resolve, then resolve again to see it.
  s.ResolveToFront(true, 0x40302010u);
  // Direct3D pixel centres: the quad [0.5, 16.5) shifted by the half-pixel offset covers
  // exactly pixels 1..16.
  s.Set(Reg::PA_SU_VTX_CNTL, 0);
  ASSERT_TRUE(s.DrawTriangles(xenos::PrimitiveType::kQuadList,
                              {0.5f, 0.5f, 0, 16.5f, 0.5f, 0, 16.5f, 16.5f, 0, 0.5f, 16.5f, 0}));
  s.Set(Reg::PA_SU_VTX_CNTL, 1);
  s.ResolveToFront(false);
  gpu::SwapImage img = s.Swap();
  for (uint32_t y = 0; y < 64; ++y) {
    for (uint32_t x = 0; x < 64; ++x) {
      bool inside = x >= 1 && x <= 16 && y >= 1 && y <= 16;
      ASSERT_EQ(Pixel(img, x, y), inside ? kShaded : 0xFF302010u) << x << "," << y;
    }
  }
  EXPECT_EQ(s.ctx->validation_message_count(), 0u) << test::ValidationReport(*s.ctx);
}

TEST(XenosRenderer, ResolveWritesTiledBigEndianMemory) {
  Scene s;
  ASSERT_TRUE(s.DrawTriangles(xenos::PrimitiveType::kRectangleList,
                              {0, 0, 0, 64, 0, 0, 0, 64, 0}));
  s.ResolveToFront(false);
  // Pixel (5, 0) is at tiled offset 32 + 4; 8in32 stores the R|G<<8|B<<16|A<<24 dword
  // big-endian, so the bytes are A, B, G, R.
  uint8_t bytes[4];
  s.guest.Read(Scene::kFront + 36, bytes);
  EXPECT_EQ(bytes[0], 0xFF);
  EXPECT_EQ(bytes[1], 0x40);
  EXPECT_EQ(bytes[2], 0x80);
  EXPECT_EQ(bytes[3], 0xFF);
  EXPECT_EQ(s.ctx->validation_message_count(), 0u) << test::ValidationReport(*s.ctx);
}

TEST(XenosRenderer, DepthTestKeepsTheNearerTriangle) {
  Scene s;
  s.Set(Reg::RB_DEPTH_INFO, 256);  // depth at tile 256
  // Clear depth to 1.0 (0xFFFFFF << 8) through a resolve's depth clear.
  s.guest.WriteBEFloats(Scene::kResolveRect, {0, 0, 64, 0, 64, 64});
  s.regs[xenos::VertexFetchConstantIndex(0)] = 3u | Scene::kResolveRect;
  s.regs[xenos::VertexFetchConstantIndex(0) + 1] = 2u | (6u << 2);
  s.Set(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kCopy));
  s.Set(Reg::RB_COPY_CONTROL, (1u << 9) | (3u << 20));  // depth clear, copy command null
  s.Set(Reg::RB_DEPTH_CLEAR, 0xFFFFFF00u);
  s.renderer->Resolve(s.regs, s.guest.Access());
  // z enable, write enable, LESS.
  s.Set(Reg::RB_DEPTHCONTROL, (1u << 1) | (1u << 2) | (1u << 4));
  s.Set(Reg::PA_CL_VTE_CNTL, 1u << 4 | 1u << 5);  // z scale/offset on: z * 1 + 0
  s.SetF(Reg::PA_CL_VPORT_ZSCALE, 1.0f);
  s.SetF(Reg::PA_CL_VPORT_ZOFFSET, 0.0f);
  // Near rectangle (z 0.25) then a far one (z 0.75) covering everything: the far one only shows
  // outside the near one.
  ASSERT_TRUE(s.DrawTriangles(xenos::PrimitiveType::kRectangleList,
                              {0, 0, 0.25f, 32, 0, 0.25f, 0, 32, 0.25f}));
  const float c2[4] = {0.0f, 1.0f, 0.0f, 1.0f};
  for (int i = 0; i < 4; ++i) s.regs[xenos::AluConstantIndex(256, uint32_t(i))] = std::bit_cast<uint32_t>(c2[i]);
  ASSERT_TRUE(s.DrawTriangles(xenos::PrimitiveType::kRectangleList,
                              {0, 0, 0.75f, 64, 0, 0.75f, 0, 64, 0.75f}));
  s.Set(Reg::RB_DEPTHCONTROL, 0);
  s.ResolveToFront(false);
  gpu::SwapImage img = s.Swap();
  EXPECT_EQ(Pixel(img, 5, 5), kShaded);
  EXPECT_EQ(Pixel(img, 40, 5), 0xFF00FF00u);
  EXPECT_EQ(Pixel(img, 5, 40), 0xFF00FF00u);
  EXPECT_EQ(s.ctx->validation_message_count(), 0u) << test::ValidationReport(*s.ctx);
}

TEST(XenosRenderer, SkipsDrawsWithoutTargetsAndReportsUnsupportedResolves) {
  Scene s;
  s.Set(Reg::RB_COLOR_MASK, 0);
  EXPECT_FALSE(s.DrawTriangles(xenos::PrimitiveType::kTriangleList, {0, 0, 0, 64, 0, 0, 0, 64, 0}));
  EXPECT_EQ(s.renderer->stats().draws_skipped, 1u);
  s.Set(Reg::RB_COLOR_MASK, 0xF);
  // A 64bpp float source resolves (resolve.h); a destination resolves cannot write is reported.
  s.Set(Reg::RB_COLOR_INFO, uint32_t(xenos::ColorRenderTargetFormat::k_16_16_16_16_FLOAT) << 16);
  s.ResolveToFront(false);
  s.ResolveToFront(false, 0, 2u | (uint32_t(xenos::TextureFormat::k_DXT1) << 7));
  bool noted = false;
  for (auto& [what, count] : s.renderer->notes()) {
    if (what.find("k_DXT1 is not implemented") != std::string::npos) {
      noted = true;
    } else {
      EXPECT_EQ(what.find("k_16_16_16_16_FLOAT"), std::string::npos) << what;
    }
  }
  EXPECT_TRUE(noted);
  EXPECT_EQ(s.ctx->validation_message_count(), 0u) << test::ValidationReport(*s.ctx);
}

TEST(XenosRenderer, ManySmallDrawsLandWhereTheyShould) {
  // 2048 one-pixel-row rectangles, each with its own colour constant and vertex data (so each
  // draw re-syncs shared memory and uploads constants): exercises the per-draw path and prints
  // the draw rate (the lavapipe number in docs/renderer.md comes from here).
  Scene s;
  // Forward writes like the replay backend does, so each draw uploads only its vertex page.
  s.renderer->shared_memory().EnableWriteTracking();
  s.guest.on_write = [&](uint32_t a, size_t n) { s.renderer->shared_memory().Invalidate(a, n); };
  constexpr uint32_t kDraws = 2048;
  // All vertex data up front (as a game's vertex buffers); each draw points vertex fetch
  // constant 1 at its own rectangle and sets its own colour.
  constexpr uint32_t kBuffer = 0x200000;
  for (uint32_t i = 0; i < kDraws; ++i) {
    float x = float(i % 64), y = float(i / 64);
    s.guest.WriteBEFloats(kBuffer + i * 36, {x, y, 0, x + 1, y, 0, x, y + 1, 0});
  }
  DrawInput d = s.RectangleDraw();
  auto access = s.guest.Access();
  // Draw 0 creates the pipeline (lavapipe compiles it with LLVM): time the rest.
  auto start = std::chrono::steady_clock::now();
  for (uint32_t i = 0; i < kDraws; ++i) {
    if (i == 1) {
      s.renderer->Flush();
      start = std::chrono::steady_clock::now();
    }
    const float c[4] = {float(i % 256) / 255.0f, 0.0f, 1.0f, 1.0f};
    for (int k = 0; k < 4; ++k) {
      s.regs[xenos::AluConstantIndex(256, uint32_t(k))] = std::bit_cast<uint32_t>(c[k]);
    }
    s.regs[xenos::VertexFetchConstantIndex(1)] = 3u | (kBuffer + i * 36);
    d.regs = s.regs;
    ASSERT_TRUE(s.renderer->Draw(d, access));
  }
  double record_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.renderer->Flush();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ info ] %u draws in %.3f s (%.3f s recording): %.0f draws/s (%s)\n", kDraws,
              seconds, record_seconds, double(kDraws - 1) / seconds,
              s.ctx->capabilities().device_name.c_str());
  s.ResolveToFront(false);
  gpu::SwapImage img = s.Swap();
  for (uint32_t i = 0; i < kDraws; i += 97) {
    uint32_t expected = 0xFFFF0000u | (i % 256);
    ASSERT_EQ(Pixel(img, i % 64, i / 64), expected) << i;
  }
  EXPECT_EQ(Pixel(img, 10, 40), kBlack);  // rows 32.. were never drawn
  EXPECT_EQ(s.renderer->stats().draws, kDraws);
  EXPECT_EQ(s.ctx->validation_message_count(), 0u) << test::ValidationReport(*s.ctx);
}

TEST(XenosRenderer, CaptureShapedFramesAreSubmittedInPartsOfBoundedRingData) {
  // Frames shaped as a capture records them: every draw writes its vertices to a fresh 4 KiB
  // page just before it. Each page goes through the ring, so a frame's ring data grows with its
  // draws; the renderer cuts submissions at kSubmissionRingBound, so what one submission holds
  // (and what the driver keeps for it) is bounded by that part, neither by the frame nor by how
  // many frames came before.
  Scene s;
  s.renderer->shared_memory().EnableWriteTracking();
  s.guest.on_write = [&](uint32_t a, size_t n) { s.renderer->shared_memory().Invalidate(a, n); };
  constexpr uint32_t kDraws = 1500;  // about 6.5 MiB of ring data a frame
  constexpr uint32_t kBuffer = 0x400000;
  DrawInput d = s.RectangleDraw();
  const auto frame = [&](uint32_t f) {
    for (uint32_t i = 0; i < kDraws; ++i) {
      const uint32_t page = kBuffer + (f * kDraws + i) * 4096;
      const float x = float(i % 64), y = float(i / 64 % 32);
      s.guest.WriteBEFloats(page, {x, y, 0, x + 1, y, 0, x, y + 1, 0});
      s.regs[xenos::VertexFetchConstantIndex(1)] = 3u | page;
      d.regs = s.regs;
      ASSERT_TRUE(s.renderer->Draw(d, s.guest.Access()));
    }
    s.renderer->Flush();
  };
  frame(0);
  const uint64_t first_submissions = s.renderer->stats().submissions;
  const uint64_t first_peak = s.renderer->stats().peak_submission_ring_bytes;
  // 1,500 pages of 4 KiB cannot fit one 4 MiB part: at least two.
  EXPECT_GE(first_submissions, 2u);
  EXPECT_GT(first_peak, PathRenderer::kSubmissionRingBound / 2);
  // A part ends with the draw that passed the bound, which may have reserved a new block for
  // uploads ahead (CommandStream::kAheadBlock) besides its indices and constants (well under
  // 64 KiB).
  constexpr uint64_t kMostPerPart =
      PathRenderer::kSubmissionRingBound + CommandStream::kAheadBlock + (64u << 10);
  EXPECT_LE(first_peak, kMostPerPart);
  for (uint32_t f = 1; f < 4; ++f) frame(f);
  // Four frames: about four times the submissions, the same bound per submission.
  EXPECT_GE(s.renderer->stats().submissions, 4 * first_submissions - 3);
  EXPECT_LE(s.renderer->stats().peak_submission_ring_bytes, kMostPerPart);
  EXPECT_EQ(s.renderer->stats().draws, 4 * kDraws);
  EXPECT_EQ(s.ctx->validation_message_count(), 0u) << test::ValidationReport(*s.ctx);
}

}  // namespace
}  // namespace xnt::vk
