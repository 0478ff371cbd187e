// MSAA host render targets on lavapipe with validation: 4x targets are 4-sample images, draws
// rasterise 4 samples, and ownership transfers move every sample through the sample transport
// (compute reads, per-sample draws; stencil through VK_EXT_shader_stencil_export and through
// the bit-plane fallback), each guest sample at its EDRAM position.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <memory>
#include <string>

#include "../fake_guest.h"
#include "../test_env.h"
#include "edram_rig.h"
#include "glsl_prelude.h"
#include "xnt/vk/translator/shader_compiler.h"
#include "xnt/gpu/edram.h"
#include "xnt/vk/fbo/xenos_renderer.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

using xenos::ColorRenderTargetFormat;
using xenos::DepthRenderTargetFormat;
using xenos::Reg;

// Vertex i of three: a full-screen triangle, or, when vertex constant c0.x != 0, the lower-left
// half of the c1.x x c1.x pixel square at the origin of a c1.y x c1.z pixel target.
constexpr char kVertex[] = R"(
layout(location = 0) out vec4 xe_interpolators[16];
void main() {
  for (int i = 0; i < 16; ++i) { xe_interpolators[i] = vec4(0.0); }
  vec2 q;
  vec4 c0 = xe_float_constants.c[0], c1 = xe_float_constants.c[1];
  if (c0.x == 0.0) {
    q = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2)) * 2.0 - 1.0;
  } else {
    vec2 p = gl_VertexIndex == 0 ? vec2(0.0) : gl_VertexIndex == 1 ? vec2(0.0, c1.x) : c1.xx;
    q = p / c1.yz * 2.0 - 1.0;
  }
  gl_Position = vec4(q, 0.0, 1.0);
  gl_PointSize = 1.0;
}
)";

// Colour 0 = a value unique per pixel centre (x + 1000 y), or c0 when c0.w > 0; nothing (every
// fragment discarded: a use of the target that keeps its bits) when c0.w < 0.
constexpr char kPixel[] = R"(
layout(location = 0) in vec4 xe_interpolators[16];
layout(location = 0) out vec4 oC0;
void main() {
  vec4 c = xe_float_constants.c[0];  // pixel constant c0 (register 256)
  if (c.w < 0.0) { discard; }
  oC0 = c.w != 0.0 ? c : vec4(gl_FragCoord.x + 1000.0 * gl_FragCoord.y, 0.0, 0.0, 0.0);
}
)";

struct MsaaRig : test::EdramRig {
  VkShaderModule vs = VK_NULL_HANDLE, ps = VK_NULL_HANDLE;

  explicit MsaaRig(gpu::RendererOptions options = {}) : EdramRig(options) {
    vs = renderer->ShaderModule(
        1, CompileGlsl(GlslPrelude(GlslShaderKind::kVertex) + kVertex, GlslStage::kVertex, "vs"));
    ps = renderer->ShaderModule(
        2, CompileGlsl(GlslPrelude(GlslShaderKind::kPixel) + kPixel, GlslStage::kFragment, "ps"));
    Set(Reg::RB_COLOR_MASK, 0xF);
    Set(Reg::RB_BLENDCONTROL0, 0x00010001u);
    Set(Reg::PA_SC_SCREEN_SCISSOR_BR, 8192u | (8192u << 16));
  }
  // A draw over [0, width) x [0, height) (scissored), full screen or the lower-left half.
  void Draw(uint32_t pitch, uint32_t width, uint32_t height, bool half,
            std::array<float, 4> colour = {}, float target_height = 0.0f) {
    const float vc[8] = {half ? 1.0f : 0.0f, 0, 0, 0, float(width), float(pitch), target_height, 0};
    for (uint32_t i = 0; i < 8; ++i) {
      regs[xenos::AluConstantIndex(i / 4, i % 4)] = std::bit_cast<uint32_t>(vc[i]);
    }
    for (uint32_t i = 0; i < 4; ++i) {
      regs[xenos::AluConstantIndex(256, i)] = std::bit_cast<uint32_t>(colour[i]);
    }
    Set(Reg::RB_SURFACE_INFO, pitch | (msaa << 16));
    Set(Reg::PA_SC_WINDOW_SCISSOR_BR, width | (height << 16));
    Set(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
    DrawInput d;
    d.regs = regs;
    d.vertex_shader = vs;
    d.pixel_shader = ps;
    d.pixel_shader_color_mask = 1;
    d.primitives.type = xenos::PrimitiveType::kTriangleList;
    d.primitives.vertex_count = 3;
    ASSERT_TRUE(renderer->Draw(d, guest.Access()));
    Set(Reg::PA_SC_WINDOW_SCISSOR_BR, 8192u | (8192u << 16));
  }
  void Clear(uint32_t pitch, int32_t x0, int32_t y0, int32_t x1, int32_t y1, bool colour,
             uint32_t colour_value, bool depth, uint32_t depth_value) {
    ResolveRect(pitch, x0, y0, x1, y1, ClearOnly(colour, depth));
    Set(Reg::RB_COLOR_CLEAR, colour_value);
    Set(Reg::RB_COLOR_CLEAR_LO, colour_value);
    Set(Reg::RB_DEPTH_CLEAR, depth_value);
    renderer->Resolve(regs, guest.Access());
  }
  gpu::edram::Surface Surface(uint32_t format, uint32_t pitch, bool depth = false) {
    gpu::edram::Surface s;
    s.pitch_pixels = pitch;
    s.msaa = xenos::MsaaSamples(msaa);
    s.format = format;
    s.is_depth = depth;
    return s;
  }
  void Validation() {
    EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
  }
};

float Centre(uint32_t x, uint32_t y) { return (float(x) + 0.5f) + 1000.0f * (float(y) + 0.5f); }

TEST(Msaa, FourSampleDrawsRasteriseEverySample) {
  MsaaRig r;
  r.msaa = 2;
  r.Set(Reg::RB_COLOR_INFO, uint32_t(ColorRenderTargetFormat::k_8_8_8_8) << 16);
  r.Draw(40, 40, 8, false, {0.0f, 0.0f, 0.0f, 1.0f});
  const RenderTarget* rt = r.renderer->render_targets().Find(
      {0, 40, uint32_t(ColorRenderTargetFormat::k_8_8_8_8), false, 4});
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(rt->samples, VK_SAMPLE_COUNT_4_BIT);
  // The lower-left half of the 8x8 square at the origin.
  r.Draw(40, 8, 8, true, {1.0f, 1.0f, 1.0f, 1.0f}, float(rt->height));
  gpu::edram::Surface s = r.Surface(0, 40);
  const gpu::edram::Edram& e = r.renderer->edram().Snapshot(s, 8);
  EXPECT_EQ(uint32_t(e.Load(s, 0, 7, 3)), 0xFFFFFFFFu);  // deep inside
  EXPECT_EQ(uint32_t(e.Load(s, 7, 0, 0)), 0xFF000000u);  // deep outside
  // Pixels on the diagonal are partly covered: their samples differ.
  uint32_t partial = 0;
  for (uint32_t i = 0; i < 8; ++i) {
    uint32_t white = 0;
    for (uint32_t sample = 0; sample < 4; ++sample) {
      white += uint32_t(e.Load(s, i, i, sample)) == 0xFFFFFFFFu;
    }
    if (white > 0 && white < 4) ++partial;
  }
  EXPECT_GE(partial, 4u);
  r.Validation();
}

TEST(Msaa, TransfersPlaceEverySampleAtItsEdramPosition) {
  MsaaRig r;
  uint32_t f32 = uint32_t(ColorRenderTargetFormat::k_32_FLOAT);
  r.Set(Reg::RB_COLOR_INFO, f32 << 16);
  r.Draw(80, 80, 16, false);  // 1x: every pixel its own value
  r.msaa = 2;
  r.Draw(40, 8, 8, false, {-1.0f, 0.0f, 0.0f, 1.0f});  // 4x use of tile 0: moves 1x -> 4x
  ASSERT_EQ(r.renderer->edram().log().size(), 1u);
  EXPECT_TRUE(r.renderer->edram().log()[0].data_moved) << r.renderer->edram().log()[0].note;
  gpu::edram::Surface s4 = r.Surface(f32, 40);
  const gpu::edram::Edram& e = r.renderer->edram().Snapshot(s4, 8);
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 40; ++x) {
      for (uint32_t sample = 0; sample < 4; ++sample) {
        float want = x < 8 ? -1.0f : Centre(2 * x + (sample & 1), 2 * y + (sample >> 1));
        ASSERT_EQ(std::bit_cast<float>(uint32_t(e.Load(s4, x, y, sample))), want)
            << x << "," << y << " sample " << sample;
      }
    }
  }
  // Back to 1x: the 4x samples land on the 1x pixels again.
  r.msaa = 0;
  r.Draw(80, 80, 16, false, {0.0f, 0.0f, 0.0f, 0.0f});  // a use; its values are the gradient
  ASSERT_EQ(r.renderer->edram().log().size(), 2u);
  r.Validation();
}

// Every colour format: 1x -> 4x -> 1x keeps the bits of a tile (clears of two values).
TEST(Msaa, EveryColourFormatRoundTripsThroughFourSamples) {
  MsaaRig r;
  const ColorRenderTargetFormat formats[] = {
      ColorRenderTargetFormat::k_8_8_8_8, ColorRenderTargetFormat::k_8_8_8_8_GAMMA,
      ColorRenderTargetFormat::k_2_10_10_10, ColorRenderTargetFormat::k_2_10_10_10_FLOAT,
      ColorRenderTargetFormat::k_16_16, ColorRenderTargetFormat::k_16_16_16_16,
      ColorRenderTargetFormat::k_16_16_FLOAT, ColorRenderTargetFormat::k_16_16_16_16_FLOAT,
      ColorRenderTargetFormat::k_32_FLOAT, ColorRenderTargetFormat::k_32_32_FLOAT};
  for (ColorRenderTargetFormat f : formats) {
    uint32_t base = 8 * uint32_t(f);
    r.Set(Reg::RB_COLOR_INFO, base | (uint32_t(f) << 16));
    bool wide = xenos::IsColorRenderTargetFormat64bpp(f);
    uint32_t pitch1 = wide ? 40 : 80;  // one tile per row
    r.msaa = 0;
    uint32_t a = 0x3C00BC01u, b = 0x12345678u;
    if (f == ColorRenderTargetFormat::k_2_10_10_10_FLOAT) b = 0x4010040Fu;  // canonical 7e3
    r.Clear(pitch1, 0, 0, 8, 16, true, a, false, 0);
    r.Clear(pitch1, 8, 0, int32_t(pitch1), 16, true, b, false, 0);
    gpu::edram::Surface s1 = r.Surface(uint32_t(f), pitch1);
    s1.base_tiles = base;
    std::vector<uint64_t> before;
    {
      const gpu::edram::Edram& e = r.renderer->edram().Snapshot(s1, 16);
      for (uint32_t y = 0; y < 16; ++y) {
        for (uint32_t x = 0; x < pitch1; ++x) before.push_back(e.Load(s1, x, y, 0));
      }
    }
    // Uses that keep the bits (every fragment discarded).
    size_t moves = r.renderer->edram().log().size();
    r.msaa = 2;
    r.Draw(pitch1 / 2, pitch1 / 2, 8, false, {0.0f, 0.0f, 0.0f, -1.0f});
    EXPECT_EQ(r.renderer->edram().log().size(), moves + 1) << uint32_t(f);
    r.msaa = 0;
    r.Draw(pitch1, pitch1, 16, false, {0.0f, 0.0f, 0.0f, -1.0f});
    EXPECT_EQ(r.renderer->edram().log().size(), moves + 2) << uint32_t(f);
    const gpu::edram::Edram& e = r.renderer->edram().Snapshot(s1, 16);
    size_t i = 0;
    for (uint32_t y = 0; y < 16; ++y) {
      for (uint32_t x = 0; x < pitch1; ++x, ++i) {
        ASSERT_EQ(e.Load(s1, x, y, 0), before[i])
            << xenos::ColorRenderTargetFormatName(uint32_t(f)) << " " << x << "," << y;
      }
    }
  }
  r.Validation();
}

void DepthStencilThroughFourSamples(bool bit_planes) {
  MsaaRig r;
  if (bit_planes) r.renderer->edram().sample_transport().set_force_stencil_bit_planes(true);
  r.Set(Reg::RB_DEPTH_INFO, uint32_t(DepthRenderTargetFormat::kD24S8) << 16);
  r.Clear(80, 0, 0, 40, 16, false, 0, true, 0x123456A5u);
  r.Clear(80, 40, 0, 80, 8, false, 0, true, 0xFEDCBA5Au);
  r.Clear(80, 40, 8, 80, 16, false, 0, true, 0x00000100u);
  // 4x use of the tile (a depth clear of an 8x8 corner).
  r.msaa = 2;
  r.Clear(40, 32, 0, 40, 8, false, 0, true, 0x77777777u);
  ASSERT_EQ(r.renderer->edram().log().size(), 1u);
  gpu::edram::Surface d4 = r.Surface(uint32_t(DepthRenderTargetFormat::kD24S8), 40, true);
  const gpu::edram::Edram& e = r.renderer->edram().Snapshot(d4, 8);
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 40; ++x) {
      for (uint32_t sample = 0; sample < 4; ++sample) {
        uint32_t sx = 2 * x + (sample & 1), sy = 2 * y + (sample >> 1);
        uint32_t want = sx < 40 ? 0x123456A5u : sy < 8 ? 0xFEDCBA5Au : 0x00000100u;
        if (x >= 32) want = 0x77777777u;
        ASSERT_EQ(uint32_t(e.Load(d4, x, y, sample)), want)
            << x << "," << y << " sample " << sample << (bit_planes ? " bit planes" : "");
      }
    }
  }
  r.Validation();
}

TEST(Msaa, DepthAndStencilMoveIntoFourSamplesWithStencilExport) {
  DepthStencilThroughFourSamples(false);
}

TEST(Msaa, DepthAndStencilMoveIntoFourSamplesWithBitPlanes) {
  DepthStencilThroughFourSamples(true);
}


// The GPU transfer path (compute store into the GPU EDRAM copy, per-sample load draws) against
// the CPU model round trip: every colour format as a source into three other formats, at 1x and
// at 4x, from per-pixel-unique source bits. The destination tiles must hold the same bits.
std::vector<uint64_t> RunPairs(bool gpu, uint64_t* gpu_moves, uint64_t* transfers) {
  const ColorRenderTargetFormat formats[] = {
      ColorRenderTargetFormat::k_8_8_8_8, ColorRenderTargetFormat::k_8_8_8_8_GAMMA,
      ColorRenderTargetFormat::k_2_10_10_10, ColorRenderTargetFormat::k_2_10_10_10_FLOAT,
      ColorRenderTargetFormat::k_16_16, ColorRenderTargetFormat::k_16_16_16_16,
      ColorRenderTargetFormat::k_16_16_FLOAT, ColorRenderTargetFormat::k_16_16_16_16_FLOAT,
      ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10,
      ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16,
      ColorRenderTargetFormat::k_32_FLOAT, ColorRenderTargetFormat::k_32_32_FLOAT};
  MsaaRig r;
  r.renderer->edram().set_gpu_transfers(gpu);
  std::vector<uint64_t> bits;
  uint32_t base = 0;
  for (uint32_t msaa : {0u, 2u}) {
    for (uint32_t a = 0; a < 12; ++a) {
      for (uint32_t step : {1u, 5u, 7u}) {
        ColorRenderTargetFormat fa = formats[a], fb = formats[(a + step) % 12];
        uint32_t pitch = msaa ? 40 : 80, rows = msaa ? 8 : 16;
        r.msaa = 0;
        r.Set(Reg::RB_COLOR_INFO, base | (uint32_t(ColorRenderTargetFormat::k_32_FLOAT) << 16));
        r.Draw(80, 80, 16, false);  // per-pixel-unique floats in tile `base`
        r.msaa = msaa;
        r.Set(Reg::RB_COLOR_INFO, base | (uint32_t(fa) << 16));
        r.Draw(pitch, pitch, rows, false, {0.0f, 0.0f, 0.0f, -1.0f});  // use: 32F -> A
        r.Set(Reg::RB_COLOR_INFO, base | (uint32_t(fb) << 16));
        r.Draw(pitch, pitch, rows, false, {0.0f, 0.0f, 0.0f, -1.0f});  // use: A -> B
        gpu::edram::Surface s = r.Surface(uint32_t(fb), pitch);
        s.base_tiles = base;
        const gpu::edram::Edram& e = r.renderer->edram().Snapshot(s, rows);
        uint32_t width = xenos::IsColorRenderTargetFormat64bpp(fb) ? pitch / 2 : pitch;
        for (uint32_t y = 0; y < rows; ++y) {
          for (uint32_t x = 0; x < width; ++x) {
            for (uint32_t sample = 0; sample < s.sample_count(); ++sample) {
              bits.push_back(e.Load(s, x, y, sample));
            }
          }
        }
        base += 4;
      }
    }
  }
  *gpu_moves = r.renderer->edram().gpu_transfer_count();
  *transfers = r.renderer->edram().log().size();
  r.Validation();
  return bits;
}

TEST(GpuTransfers, EveryColourFormatPairMatchesTheCpuReference) {
  uint64_t gpu_moves = 0, cpu_moves = 0, gpu_log = 0, cpu_log = 0;
  std::vector<uint64_t> gpu = RunPairs(true, &gpu_moves, &gpu_log);
  std::vector<uint64_t> cpu = RunPairs(false, &cpu_moves, &cpu_log);
  EXPECT_EQ(cpu_moves, 0u);
  // 32F -> A and A -> B for 36 pairs at 1x and 4x, less the three 1x pairs whose A is 32F.
  EXPECT_EQ(gpu_log, 2u * 12 * 3 * 2 - 3);
  EXPECT_EQ(cpu_log, gpu_log);
  EXPECT_EQ(gpu_moves, gpu_log);  // every one of them on the GPU
  ASSERT_EQ(gpu.size(), cpu.size());
  size_t differ = 0, nonzero = 0;
  for (size_t i = 0; i < gpu.size(); ++i) {
    differ += gpu[i] != cpu[i];
    nonzero += cpu[i] != 0;
  }
  EXPECT_EQ(differ, 0u);
  EXPECT_GT(nonzero, gpu.size() / 2);  // the data is not trivially zero
}

// Depth pairs on the GPU (compute store of the depth/stencil aspects into the GPU EDRAM copy with
// the host depth beside it, per-sample depth load draws, a D24 host image through copies of its
// rows) against the CPU model round trip. Per case, in fresh tiles: per-pixel-unique k_32_FLOAT
// bits -> depth A (colour words read as depth: stencil = low byte) -> depth B (another format,
// pitch or sample count) -> colour C (depth read as colour, halves swapped) -> depth A again
// (host depth kept while it still converts to the stored bits). Every sample of B, C and the
// final A is compared bit for bit.
struct DepthCase {
  DepthRenderTargetFormat a;
  uint32_t a_msaa, a_pitch;
  DepthRenderTargetFormat b;
  uint32_t b_msaa, b_pitch;
  ColorRenderTargetFormat c;
  uint32_t c_msaa, c_pitch;
};

std::vector<uint64_t> RunDepthPairs(int mode, uint64_t* moved, uint64_t* on_gpu) {
  using D = DepthRenderTargetFormat;
  using C = ColorRenderTargetFormat;
  const DepthCase cases[] = {
      {D::kD24S8, 0, 80, D::kD24FS8, 0, 80, C::k_8_8_8_8, 0, 80},
      {D::kD24FS8, 0, 80, D::kD24S8, 0, 80, C::k_16_16_16_16, 0, 80},
      {D::kD24FS8, 0, 80, D::kD24S8, 2, 40, C::k_8_8_8_8, 0, 80},
      {D::kD24S8, 2, 40, D::kD24FS8, 0, 80, C::k_16_16_16_16_FLOAT, 2, 40},
      {D::kD24S8, 0, 80, D::kD24S8, 0, 160, C::k_8_8_8_8, 2, 40},   // depth re-pitched
      {D::kD24FS8, 2, 40, D::kD24FS8, 2, 80, C::k_32_FLOAT, 0, 80},  // 4x re-pitched
      {D::kD24S8, 2, 40, D::kD24S8, 0, 80, C::k_32_32_FLOAT, 2, 40},
  };
  MsaaRig r;
  r.renderer->edram().set_gpu_transfers(mode != 0);
  if (mode == 2) r.renderer->edram().sample_transport().set_force_stencil_bit_planes(true);
  std::vector<uint64_t> bits;
  auto rows_of = [](uint32_t msaa) { return msaa ? 8u : 16u; };
  auto snapshot = [&](gpu::edram::Surface s, uint32_t rows) {
    const gpu::edram::Edram& e = r.renderer->edram().Snapshot(s, rows);
    uint32_t width = s.is_64bpp() ? s.pitch_pixels / 2 : s.pitch_pixels;
    for (uint32_t y = 0; y < rows; ++y) {
      for (uint32_t x = 0; x < width; ++x) {
        for (uint32_t sample = 0; sample < s.sample_count(); ++sample) {
          bits.push_back(e.Load(s, x, y, sample));
        }
      }
    }
  };
  auto use_depth = [&](uint32_t base, D f, uint32_t msaa, uint32_t pitch) {
    r.msaa = msaa;
    r.Set(Reg::RB_COLOR_MASK, 0);  // only the depth target is used
    r.Set(Reg::RB_DEPTH_INFO, base | (uint32_t(f) << 16));
    r.Set(Reg::RB_DEPTHCONTROL, 0x2u | (7u << 4));  // z test ALWAYS, no write
    r.Draw(pitch, pitch, rows_of(msaa), false, {0.0f, 0.0f, 0.0f, -1.0f});
    r.Set(Reg::RB_DEPTHCONTROL, 0);
    r.Set(Reg::RB_COLOR_MASK, 0xF);
    gpu::edram::Surface s = r.Surface(uint32_t(f), pitch, true);
    s.base_tiles = base;
    return s;
  };
  uint32_t base = 16;
  for (const DepthCase& c : cases) {
    r.msaa = 0;
    r.Set(Reg::RB_COLOR_INFO, base | (uint32_t(C::k_32_FLOAT) << 16));
    r.Draw(80, 80, 16, false);  // per-pixel-unique floats in tile `base`
    use_depth(base, c.a, c.a_msaa, c.a_pitch);                          // 32F -> A
    snapshot(use_depth(base, c.b, c.b_msaa, c.b_pitch), rows_of(c.b_msaa));  // A -> B
    r.msaa = c.c_msaa;
    r.Set(Reg::RB_COLOR_INFO, base | (uint32_t(c.c) << 16));
    r.Draw(c.c_pitch, c.c_pitch, rows_of(c.c_msaa), false, {0.0f, 0.0f, 0.0f, -1.0f});  // B -> C
    gpu::edram::Surface cs = r.Surface(uint32_t(c.c), c.c_pitch);
    cs.base_tiles = base;
    snapshot(cs, rows_of(c.c_msaa));
    snapshot(use_depth(base, c.a, c.a_msaa, c.a_pitch), rows_of(c.a_msaa));  // C -> A
    base += 8;
  }
  *moved = *on_gpu = 0;
  for (const gpu::EdramLogEntry& e : r.renderer->edram().log()) {
    *moved += e.data_moved;
    *on_gpu += e.on_gpu;
  }
  r.Validation();
  return bits;
}

void CompareDepthPairs(int gpu_mode) {
  uint64_t gpu_moved = 0, gpu_on_gpu = 0, cpu_moved = 0, cpu_on_gpu = 0;
  std::vector<uint64_t> gpu = RunDepthPairs(gpu_mode, &gpu_moved, &gpu_on_gpu);
  std::vector<uint64_t> cpu = RunDepthPairs(0, &cpu_moved, &cpu_on_gpu);
  EXPECT_EQ(cpu_on_gpu, 0u);
  EXPECT_EQ(gpu_moved, cpu_moved);
  EXPECT_GE(gpu_moved, 7u * 4);  // 32F -> A, A -> B, B -> C, C -> A in each case
  EXPECT_EQ(gpu_on_gpu, gpu_moved);  // every one of them on the GPU
  ASSERT_EQ(gpu.size(), cpu.size());
  size_t differ = 0, nonzero = 0, first = gpu.size();
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (gpu[i] != cpu[i] && first == gpu.size()) first = i;
    differ += gpu[i] != cpu[i];
    nonzero += cpu[i] != 0;
  }
  EXPECT_EQ(differ, 0u) << "first at " << first << ": gpu " << std::hex
                        << (first < gpu.size() ? gpu[first] : 0) << " cpu "
                        << (first < cpu.size() ? cpu[first] : 0);
  EXPECT_GT(nonzero, gpu.size() / 2);  // the data is not trivially zero
}

TEST(GpuTransfers, DepthPairsMatchTheCpuReferenceWithStencilExport) { CompareDepthPairs(1); }

TEST(GpuTransfers, DepthPairsMatchTheCpuReferenceWithStencilBitPlanes) { CompareDepthPairs(2); }

// sRGB gamma mode (k_8_8_8_8_GAMMA in an R8G8B8A8_SRGB target): transfers convert sRGB <-> PWL on
// the GPU through tables built from the CPU conversion. Per-pixel-unique bits (every byte value
// shows up) go 32F -> GAMMA -> k_8_8_8_8 -> GAMMA (4x) -> k_2_10_10_10; every sample is compared
// with the CPU path.
std::vector<uint64_t> RunSrgb(bool gpu, uint64_t* moved, uint64_t* on_gpu) {
  gpu::RendererOptions options;
  options.gamma = gpu::GammaMode::kSrgb;
  MsaaRig r(options);
  r.renderer->edram().set_gpu_transfers(gpu);
  using C = ColorRenderTargetFormat;
  std::vector<uint64_t> bits;
  auto use = [&](uint32_t base, C f, uint32_t msaa) {
    r.msaa = msaa;
    uint32_t pitch = msaa ? 40 : 80, rows = msaa ? 8 : 16;
    r.Set(Reg::RB_COLOR_INFO, base | (uint32_t(f) << 16));
    r.Draw(pitch, pitch, rows, false, {0.0f, 0.0f, 0.0f, -1.0f});
    gpu::edram::Surface s = r.Surface(uint32_t(f), pitch);
    s.base_tiles = base;
    const gpu::edram::Edram& e = r.renderer->edram().Snapshot(s, rows);
    for (uint32_t y = 0; y < rows; ++y) {
      for (uint32_t x = 0; x < pitch; ++x) {
        for (uint32_t sample = 0; sample < s.sample_count(); ++sample) {
          bits.push_back(e.Load(s, x, y, sample));
        }
      }
    }
  };
  for (uint32_t base : {0u, 4u}) {
    r.msaa = 0;
    r.Set(Reg::RB_COLOR_INFO, base | (uint32_t(C::k_32_FLOAT) << 16));
    r.Draw(80, 80, 16, false);
    use(base, C::k_8_8_8_8_GAMMA, base ? 2 : 0);
    use(base, C::k_8_8_8_8, 0);
    use(base, C::k_8_8_8_8_GAMMA, 2);
    use(base, C::k_2_10_10_10, 0);
  }
  *moved = *on_gpu = 0;
  for (const gpu::EdramLogEntry& e : r.renderer->edram().log()) {
    *moved += e.data_moved;
    *on_gpu += e.on_gpu;
  }
  r.Validation();
  return bits;
}

TEST(GpuTransfers, SrgbGammaModeMatchesTheCpuReference) {
  uint64_t gpu_moved = 0, gpu_on_gpu = 0, cpu_moved = 0, cpu_on_gpu = 0;
  std::vector<uint64_t> gpu = RunSrgb(true, &gpu_moved, &gpu_on_gpu);
  std::vector<uint64_t> cpu = RunSrgb(false, &cpu_moved, &cpu_on_gpu);
  EXPECT_EQ(cpu_on_gpu, 0u);
  EXPECT_EQ(gpu_moved, 8u);  // 32F -> GAMMA -> 8888 -> GAMMA 4x -> 2_10_10_10, twice
  EXPECT_EQ(cpu_moved, gpu_moved);
  EXPECT_EQ(gpu_on_gpu, gpu_moved);
  ASSERT_EQ(gpu.size(), cpu.size());
  size_t differ = 0, first = gpu.size();
  std::vector<bool> seen(256);
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (gpu[i] != cpu[i] && first == gpu.size()) first = i;
    differ += gpu[i] != cpu[i];
    for (uint32_t b = 0; b < 32; b += 8) seen[(cpu[i] >> b) & 0xFF] = true;
  }
  EXPECT_EQ(differ, 0u) << "first at " << first << ": gpu " << std::hex
                        << (first < gpu.size() ? gpu[first] : 0) << " cpu "
                        << (first < cpu.size() ? cpu[first] : 0);
  EXPECT_GT(std::count(seen.begin(), seen.end(), true), 128);  // many codes exercised
}

}  // namespace
}  // namespace xnt::vk
