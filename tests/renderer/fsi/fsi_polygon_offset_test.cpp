// The fsi path's polygon offset equals the cpu path's bit for bit (TranslationOptions::
// fsi_exact_polygon_offset, docs/fsi.md "Polygon offset"): 128 triangles, each with its own
// random depth plane, vertex order and facing, and random PA_SU_POLY_OFFSET_* per face (SCALE in
// +-4096, i.e. slope factors up to 256, OFFSET in +-1/512), drawn with the depth test ALWAYS and
// depth writes on, each into its own scissored 8x8 cell that it covers wholly: the EDRAM depth of
// every pixel is that triangle's biased 24-bit depth. The test also runs the derivative slope
// (FsiOptions::derivative_slope), whose float offset must differ somewhere, so the scene keeps
// telling the exact offset from the old one (on lavapipe: 512 dwords at 1x1, 768 at 2x2).
#include <gtest/gtest.h>

#include <bit>
#include <cstdlib>
#include <vector>

#include "edram_scene_builder.h"
#include "fsi_depth_scene.h"
#include "xnt/base/byte_order.h"
#include "xnt/ucode/assembler.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::vk::fsi_polygon_offset_test {
namespace {

using namespace depth_scene;
using xenos::Reg;

// Powers of two: the clip-space coordinates of half-pixel corners are exact floats.
constexpr uint32_t kWidth = 128, kHeight = 64, kTriangles = 128;
// 128x64 k_8_8_8_8 at 1x takes tiles 0-7.
constexpr uint32_t kDepthBaseTiles = 8;

void Author(format::Writer& writer) {
  // Clip-space xyz with w = 1, colour from c0.
  const auto vs = ucode::AssembleShader(samples::edram_scene::kPositionZVertexShader);
  const auto ps = ucode::AssembleShader(samples::kConstantColorPixelShader);
  Rng rng{0x0FF5E7};
  capture::RenderTargetSetup rt;
  rt.surface_pitch = kWidth;
  rt.color_base_tiles = 0;
  rt.depth = true;
  rt.depth_base_tiles = kDepthBaseTiles;
  capture::Pm4Builder b;
  const capture::ResolveSetup clear =
      BeginScene(writer, b, rt, kWidth, kHeight, {vs.microcode, ps.microcode, 2, 1, 1});
  xenos::reg::RB_DEPTHCONTROL depth{};
  depth.z_enable = true;
  depth.z_write_enable = true;
  depth.zfunc = xenos::CompareFunction::kAlways;
  b.WriteRegister(Reg::RB_DEPTHCONTROL, depth.Encode());
  for (uint32_t i = 0; i < kTriangles; ++i) {
    // Cell i of 16 x 8 cells of 8 x 8 pixels, scissored, inside a right triangle whose legs
    // (32 or 64 pixels, random directions) start 0.5..4 pixels outside the cell's corner: every
    // pixel of the cell is covered whatever the edge rules, so the depths compared are all this
    // triangle's. The depth plane z0 + a x + b y has a, b multiples of 2^-14 below 2^-9 and z0 a
    // multiple of 2^-14, and the legs are powers of two: the host's plane setup (which divides
    // by the area) and interpolation are then exact, as the cpu path's are; with other
    // triangles lavapipe's interpolated depth differs from the cpu path's by an ulp, offset or
    // not. The vertex order is random (which corner comes first changes the cpu path's rounding).
    const uint32_t x0 = (i % 16) * 8, y0 = (i / 16) * 8;
    b.WriteRegisters(Reg::PA_SC_WINDOW_SCISSOR_TL,
                     {0x80000000u | (y0 << 16) | x0, ((y0 + 8) << 16) | (x0 + 8)});
    const bool right = rng.Next() & 1, down = rng.Next() & 1;
    const float dx = float(1 + rng.Next() % 8) * 0.5f, dy = float(1 + rng.Next() % 8) * 0.5f;
    const float lx = (rng.Next() & 1) ? 64.0f : 32.0f, ly = (rng.Next() & 1) ? 64.0f : 32.0f;
    // The right-angle corner beyond the cell's corner the legs point away from.
    const float ax = right ? float(x0) - dx : float(x0 + 8) + dx;
    const float ay = down ? float(y0) - dy : float(y0 + 8) + dy;
    const float corners[3][2] = {{ax, ay}, {ax + (right ? lx : -lx), ay}, {ax, ay + (down ? ly : -ly)}};
    const float a = float(int32_t(rng.Next() >> 27) - 16) / 16384.0f;
    const float c = float(int32_t(rng.Next() >> 27) - 16) / 16384.0f;
    const float z0 = float(4915 + (rng.Next() >> 20) % 6554) / 16384.0f;  // 0.3..0.7
    const uint32_t first = rng.Next() % 3, step = 1 + rng.Next() % 2;
    std::vector<float> clip;
    for (uint32_t v = 0; v < 3; ++v) {
      const float* p = corners[(first + v * step) % 3];
      clip.push_back(p[0] / (float(kWidth) / 2) - 1.0f);
      clip.push_back(1.0f - p[1] / (float(kHeight) / 2));
      clip.push_back(z0 + a * (p[0] - float(x0)) + c * (p[1] - float(y0)));
    }
    std::vector<uint8_t> bytes(clip.size() * 4);
    for (size_t k = 0; k < clip.size(); ++k) StoreBE32(&bytes[4 * k], std::bit_cast<uint32_t>(clip[k]));
    writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kVertexBase + i * 0x100,
                                     bytes});
    const float color[4] = {rng.Unit(), rng.Unit(), rng.Unit(), 1.0f};
    b.SetAluConstants(256, color);
    // provoking_vtx_last (D3dDeviceDefaults) plus front and back polygon offset on.
    b.WriteRegister(Reg::PA_SU_SC_MODE_CNTL, (1u << 19) | (1u << 11) | (1u << 12));
    const float front_scale = (rng.Unit() - 0.5f) * 8192.0f, back_scale = (rng.Unit() - 0.5f) * 8192.0f;
    const float front_offset = (rng.Unit() - 0.5f) / 256.0f, back_offset = (rng.Unit() - 0.5f) / 256.0f;
    b.WriteRegister(Reg::PA_SU_POLY_OFFSET_FRONT_SCALE, std::bit_cast<uint32_t>(front_scale));
    b.WriteRegister(Reg::PA_SU_POLY_OFFSET_FRONT_OFFSET, std::bit_cast<uint32_t>(front_offset));
    b.WriteRegister(Reg::PA_SU_POLY_OFFSET_BACK_SCALE, std::bit_cast<uint32_t>(back_scale));
    b.WriteRegister(Reg::PA_SU_POLY_OFFSET_BACK_OFFSET, std::bit_cast<uint32_t>(back_offset));
    capture::D3dSetVertexFetch(b, 95, kVertexBase + i * 0x100, 9);
    b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 3);
  }
  EndScene(writer, b, rt, clear, kWidth, kHeight);
}

size_t DepthBegin(uint32_t scale) { return size_t(kDepthBaseTiles) * 80 * 16 * 4 * scale * scale; }

class FsiExactPolygonOffset : public ::testing::TestWithParam<uint32_t> {};

TEST_P(FsiExactPolygonOffset, random_triangles_polygon_offset_depth_equals_cpu) {
  const uint32_t scale = GetParam();
  const auto file = WriteTrace("polygon_offset", [](format::Writer& w) { Author(w); });
  const test::TraceRun cpu = Play(file, renderer::Path::kCpu, scale);
  const test::TraceRun fsi = Play(file, renderer::Path::kFsi, scale);
  vk::fsi::FsiOptions derivative_slope;
  derivative_slope.derivative_slope = true;
  const test::TraceRun derivative = Play(file, renderer::Path::kFsi, scale, derivative_slope);
  std::filesystem::remove(file);
  EXPECT_EQ(fsi.validation_messages, 0u) << Report(fsi);
  EXPECT_EQ(derivative.validation_messages, 0u) << Report(derivative);
  ASSERT_EQ(cpu.stats.draws, kTriangles);
  ASSERT_EQ(fsi.stats.draws, kTriangles);
  ASSERT_EQ(fsi.edram.size(), cpu.edram.size());
  // The triangles drew depth: not every depth dword still holds the clear (1.0).
  EXPECT_EQ(WrittenDepthDwords(cpu, DepthBegin(scale)), size_t(kWidth) * kHeight * scale * scale);
  std::string first;
  EXPECT_EQ(DifferingDepthDwords(cpu, fsi, DepthBegin(scale), first), 0u)
      << "first (cpu vs fsi): " << first << "\n" << Report(fsi);
  first.clear();
  const size_t old_way = DifferingDepthDwords(cpu, derivative, DepthBegin(scale), first);
  std::printf("derivative slope differs from cpu in %zu depth dwords (scale %u)\n", old_way, scale);
  EXPECT_GT(old_way, 0u) << "the derivative slope matched the cpu path everywhere: this scene no "
                            "longer tells the exact slope from the old one";
}

INSTANTIATE_TEST_SUITE_P(Scales, FsiExactPolygonOffset, ::testing::Values(1u, 2u));

}  // namespace
}  // namespace xnt::vk::fsi_polygon_offset_test
