// The fsi path's depth of every sample equals the cpu path's bit for bit on triangles at
// arbitrary positions (docs/fsi.md "Polygon offset": the pixel shader computes the depth plane
// from the triangle's snapped vertices in double as rasterizer.cpp does, not from the host's
// gl_FragCoord.z): 128 triangles with random non-dyadic vertex positions, w (perspective) and
// depths, random vertex order, each wholly covering its own scissored 8x8 cell, drawn with the
// depth test ALWAYS and depth writes on, without and with random polygon offset, at 1x and 4x
// MSAA and resolution scales 1x1 and 2x2. The host's plane (FsiOptions::derivative_slope, the old
// way) must differ somewhere in each case, so the scene keeps telling the two apart.
// The cells are drawn right to left, bottom to top: on lavapipe at 4x MSAA a triangle also covers
// the right / lower samples of the pixels just left of and above its scissor rectangle (host
// coverage, docs/fsi.md), which the cell drawn next there then overwrites.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <vector>

#include "flat_scene.h"
#include "fsi_depth_scene.h"
#include "xnt/base/byte_order.h"
#include "xnt/ucode/assembler.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::vk::fsi_exact_depth_test {
namespace {

using namespace depth_scene;
using xenos::Reg;

constexpr uint32_t kWidth = 128, kHeight = 64, kTriangles = 128;
// The depth surface starts past the colour surface at 4x MSAA (32 tiles) at any scale.
constexpr uint32_t kDepthBaseTiles = 64;

// Clip-space xyzw from a float4 vertex.
const char* const kVertexShader = R"(xvs_3_0
config AutoSerialize=false
config AutoResource=false
config VsResource=1

dcl_index r0.x

    exec
    vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4
    alloc position
    exec
    mov oPos, r1
    alloc interpolators
    exece
)";

// The vertex shader with all 16 interpolators exported (more than the polygon-offset geometry
// shader passes on any device: 13 on lavapipe, 15 where the limit is 128).
std::string SixteenExportVertexShader() {
  std::string text = kVertexShader;
  // An exec clause holds at most 6 instructions: 6 + 6 + 4 moves, the last clause ending it.
  std::string outputs;
  for (int i = 0; i < 16; ++i) {
    if (i % 6 == 0) outputs += i < 12 ? "    exec\n" : "    exece\n";
    outputs += "    mov o" + std::to_string(i) + ", r1\n";
  }
  const std::string tail = "    alloc interpolators\n    exece\n";
  text.replace(text.find(tail), tail.size(), "    alloc interpolators\n" + outputs);
  return text;
}

// prepass: each triangle is drawn twice, first in RB_MODECONTROL kDepth (depth LESS with
// writes, no pixel shader runs), then with its colour under EQUAL without writes, by a vertex
// shader exporting 16 interpolators: both draws must take the same depth plane.
void Author(format::Writer& writer, xenos::MsaaSamples msaa, bool offset, bool prepass = false) {
  const auto vs = ucode::AssembleShader(prepass ? SixteenExportVertexShader() : kVertexShader);
  const auto ps = ucode::AssembleShader(samples::kConstantColorPixelShader);
  Rng rng{0xDE97B5};
  capture::RenderTargetSetup rt;
  rt.surface_pitch = kWidth;
  rt.msaa = msaa;
  rt.color_base_tiles = 0;
  rt.depth = true;
  rt.depth_base_tiles = kDepthBaseTiles;
  capture::Pm4Builder b;
  const capture::ResolveSetup clear = BeginScene(
      writer, b, rt, kWidth, kHeight, {vs.microcode, ps.microcode, 2, 1, prepass ? 16u : 1u});
  xenos::reg::RB_DEPTHCONTROL depth{};
  depth.z_enable = true;
  depth.z_write_enable = true;
  depth.zfunc = prepass ? xenos::CompareFunction::kLess : xenos::CompareFunction::kAlways;
  xenos::reg::RB_DEPTHCONTROL equal = depth;
  equal.z_write_enable = false;
  equal.zfunc = xenos::CompareFunction::kEqual;
  b.WriteRegister(Reg::RB_DEPTHCONTROL, depth.Encode());
  // provoking_vtx_last (D3dDeviceDefaults), with front and back polygon offset or not.
  b.WriteRegister(Reg::PA_SU_SC_MODE_CNTL, (1u << 19) | (offset ? (1u << 11) | (1u << 12) : 0u));
  const double kPi = 3.14159265358979323846;
  for (uint32_t i = 0; i < kTriangles; ++i) {
    // Cell i of 16 x 8 cells of 8 x 8 pixels, scissored, inside a triangle whose corners lie
    // 24..48 pixels from the cell's centre at angles 120 degrees apart, each turned by up to +-15
    // degrees: every edge then passes at least 48 cos(75 deg) / 2 > 6 pixels from the centre,
    // outside the cell (half diagonal 5.7), so every sample of the cell is this triangle's
    // whatever the edge rules. Positions, w and depths are random and not dyadic: the host's
    // plane setup and interpolation round, the cpu path's double arithmetic rounds otherwise.
    const uint32_t x0 = (15 - i % 16) * 8, y0 = (7 - i / 16) * 8;
    b.WriteRegisters(Reg::PA_SC_WINDOW_SCISSOR_TL,
                     {0x80000000u | (y0 << 16) | x0, ((y0 + 8) << 16) | (x0 + 8)});
    const double cx = x0 + 4.0, cy = y0 + 4.0;
    const double turn = rng.Unit() * 2.0 * kPi;
    const bool reverse = rng.Next() & 1;  // either winding: both faces and the cpu path's swap
    std::vector<uint8_t> bytes(3 * 16);
    for (uint32_t v = 0; v < 3; ++v) {
      const double angle = turn + (reverse ? -1.0 : 1.0) * v * 2.0 * kPi / 3.0 +
                           (rng.Unit() - 0.5) * kPi / 6.0;
      const double radius = 24.0 + 24.0 * rng.Unit();
      const double px = cx + radius * std::cos(angle), py = cy + radius * std::sin(angle);
      const double w = 0.5 + 1.5 * rng.Unit();
      const double z = 0.05 + 0.9 * rng.Unit();  // z / w, inside the depth range
      const float clip[4] = {float((px / (kWidth / 2.0) - 1.0) * w),
                             float((1.0 - py / (kHeight / 2.0)) * w), float(z * w), float(w)};
      for (int k = 0; k < 4; ++k) StoreBE32(&bytes[16 * v + 4 * k], std::bit_cast<uint32_t>(clip[k]));
    }
    writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kVertexBase + i * 0x100,
                                     bytes});
    const float color[4] = {float(rng.Unit()), float(rng.Unit()), float(rng.Unit()), 1.0f};
    b.SetAluConstants(256, color);
    if (offset) {
      // SCALE in +-32 (slope factors up to 2: these planes rise up to 1/64 a pixel), OFFSET in
      // +-1/512: no biased depth reaches 0 or 1.
      const float front_scale = float(rng.Unit() - 0.5) * 64.0f;
      const float back_scale = float(rng.Unit() - 0.5) * 64.0f;
      const float front_offset = float(rng.Unit() - 0.5) / 256.0f;
      const float back_offset = float(rng.Unit() - 0.5) / 256.0f;
      b.WriteRegister(Reg::PA_SU_POLY_OFFSET_FRONT_SCALE, std::bit_cast<uint32_t>(front_scale));
      b.WriteRegister(Reg::PA_SU_POLY_OFFSET_FRONT_OFFSET, std::bit_cast<uint32_t>(front_offset));
      b.WriteRegister(Reg::PA_SU_POLY_OFFSET_BACK_SCALE, std::bit_cast<uint32_t>(back_scale));
      b.WriteRegister(Reg::PA_SU_POLY_OFFSET_BACK_OFFSET, std::bit_cast<uint32_t>(back_offset));
    }
    capture::D3dSetVertexFetch(b, 95, kVertexBase + i * 0x100, 12);
    if (prepass) {
      b.WriteRegister(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kDepth));
      b.WriteRegister(Reg::RB_DEPTHCONTROL, depth.Encode());
      b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 3);
      b.WriteRegister(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
      b.WriteRegister(Reg::RB_DEPTHCONTROL, equal.Encode());
    }
    b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 3);
  }
  EndScene(writer, b, rt, clear, kWidth, kHeight);
}

size_t DepthBegin(uint32_t scale) { return size_t(kDepthBaseTiles) * 80 * 16 * 4 * scale * scale; }

// scale, MSAA samples (1 or 4), polygon offset.
class FsiExactDepth : public ::testing::TestWithParam<std::tuple<uint32_t, uint32_t, bool>> {};

TEST_P(FsiExactDepth, random_triangles_sample_depths_equal_cpu) {
  const auto [scale, samples, offset] = GetParam();
  const xenos::MsaaSamples msaa = samples == 4 ? xenos::MsaaSamples::k4X : xenos::MsaaSamples::k1X;
  const auto file = WriteTrace(
      "exact_depth", [msaa, offset = offset](format::Writer& w) { Author(w, msaa, offset); });
  const test::TraceRun cpu = Play(file, renderer::Path::kCpu, scale);
  const test::TraceRun fsi = Play(file, renderer::Path::kFsi, scale);
  vk::fsi::FsiOptions derivative_slope;
  derivative_slope.derivative_slope = true;
  const test::TraceRun host_plane = Play(file, renderer::Path::kFsi, scale, derivative_slope);
  std::filesystem::remove(file);
  EXPECT_EQ(fsi.validation_messages, 0u) << Report(fsi);
  EXPECT_EQ(host_plane.validation_messages, 0u) << Report(host_plane);
  ASSERT_EQ(cpu.stats.draws, kTriangles);
  ASSERT_EQ(fsi.stats.draws, kTriangles);
  ASSERT_EQ(fsi.edram.size(), cpu.edram.size());
  // Every sample of the 128 x 64 pixels holds a triangle's depth, not the clear (1.0); the
  // depth dwords are the samples' (D24S8: one dword each).
  const size_t written = WrittenDepthDwords(cpu, DepthBegin(scale));
  EXPECT_EQ(written, size_t(kWidth) * kHeight * samples * scale * scale);
  std::string first;
  EXPECT_EQ(DifferingDepthDwords(cpu, fsi, DepthBegin(scale), first), 0u)
      << "first (cpu vs fsi): " << first << "\n" << Report(fsi);
  first.clear();
  const size_t old_way = DifferingDepthDwords(cpu, host_plane, DepthBegin(scale), first);
  std::printf("host plane differs from cpu in %zu of %zu depth dwords (scale %u, %ux MSAA, %s)\n",
              old_way, written, scale, samples, offset ? "offset" : "no offset");
  EXPECT_GT(old_way, 0u) << "the host's plane matched the cpu path everywhere: this scene no "
                            "longer tells the exact depths from the old way";
}

// A kDepth pre-pass and its EQUAL colour pass with a vertex shader of 16 exports (too many for the
// geometry shader, so both keep the host's plane): every pixel of every cell is coloured on fsi
// as on cpu. A pre-pass on the exact plane under a colour pass on the host's left most of them
// dark (1023 of 1024 pixels in edram_depth_prepass_kdepth on lavapipe).
TEST(FsiExactDepthPrepass, PrepassAndEqualPassTakeTheSamePlaneWithSixteenExports) {
  const auto file = WriteTrace("exact_depth_prepass16", [](format::Writer& w) {
    Author(w, xenos::MsaaSamples::k1X, false, /*prepass=*/true);
  });
  const test::TraceRun cpu = Play(file, renderer::Path::kCpu, 1);
  const test::TraceRun fsi = Play(file, renderer::Path::kFsi, 1);
  std::filesystem::remove(file);
  EXPECT_EQ(fsi.validation_messages, 0u) << Report(fsi);
  ASSERT_EQ(cpu.stats.draws, 2 * kTriangles);
  ASSERT_EQ(fsi.stats.draws, 2 * kTriangles);
  ASSERT_FALSE(cpu.frames.empty());
  ASSERT_FALSE(fsi.frames.empty());
  const gpu::SwapImage& a = cpu.frames.back();
  const gpu::SwapImage& b = fsi.frames.back();
  ASSERT_EQ(a.rgba.size(), size_t(kWidth) * kHeight * 4);
  ASSERT_EQ(b.rgba.size(), a.rgba.size());
  // The clear is black: on cpu every pixel was coloured by its cell's EQUAL pass.
  size_t cpu_dark = 0, differ = 0;
  for (size_t i = 0; i < a.rgba.size(); i += 4) {
    cpu_dark += a.rgba[i] == 0 && a.rgba[i + 1] == 0 && a.rgba[i + 2] == 0;
    differ += std::memcmp(&a.rgba[i], &b.rgba[i], 4) != 0;
  }
  EXPECT_EQ(cpu_dark, 0u);
  EXPECT_EQ(differ, 0u) << Report(fsi);
}

INSTANTIATE_TEST_SUITE_P(Cases, FsiExactDepth,
                         ::testing::Combine(::testing::Values(1u, 2u), ::testing::Values(1u, 4u),
                                            ::testing::Bool()));

}  // namespace
}  // namespace xnt::vk::fsi_exact_depth_test
