// Pixel-shader exports of draws that write no render target: in colour/depth mode the hardware
// runs an exporting pixel shader on every covered pixel even with RB_COLOR_MASK 0 and no depth
// test, or when the shader writes no colour at all (Xenia draw_util.cc
// IsPixelShaderNeededWithRasterization). The cpu path rasterizes such draws for their exports
// (the bytes below are worked by hand); fbo rasterizes them with no attachment and fsi with
// nothing merged into its EDRAM, and must leave the same bytes.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "memexport_test_shaders.h"
#include "replay_helpers.h"
#include "xnt/base/byte_order.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::vk::memexport_targetless_test {
namespace {

constexpr uint32_t kVertices = 0x00010000;
constexpr uint32_t kStreamA = 0x00020000, kStreamB = 0x00020100;

// Exports eM0 = c2, eM1 = c3 as elements c6.x, c6.x + 1 of stream c0, and writes a colour.
const char* const kExportAndColourPs = R"(xps_3_0
    alloc export
    exec
    mad eA, c6.xxxx, c1, c0
    mov eM0, c2
    mov eM1, c3
    alloc colors
    exece
    mov oC0, c2
)";
// The same exports and no colour at all (a memexport-only pixel shader).
const char* const kExportOnlyPs = R"(xps_3_0
    alloc export
    exece
    mad eA, c6.xxxx, c1, c0
    mov eM0, c2
    mov eM1, c3
)";

// Draw 0: RB_COLOR_MASK 0, no depth test, exporting into stream A (k_32_32_32_32_FLOAT, 8in32,
// 4 elements). Draw 1: RB_COLOR_MASK 0xF, a pixel shader that writes no colour, stream B.
// Both cover the 16 pixels [8, 12)^2; every pixel writes the same two elements.
// `msaa`: RB_SURFACE_INFO msaa_samples (the rasterizer's coverage samples; nothing is written).
test::PathReplay ReplayTargetless(renderer::Path path,
                                  xenos::MsaaSamples msaa = xenos::MsaaSamples::k1X) {
  std::vector<uint8_t> rect;
  const float l = 7.75f, r = 11.75f;
  const float corners[6][2] = {{l, l}, {r, l}, {l, r}, {r, l}, {r, r}, {l, r}};
  for (const auto& p : corners) {
    const float v[4] = {p[0] / 32.0f - 1.0f, 1.0f - p[1] / 32.0f, 0.0f, 0.0f};
    for (float f : v) {
      rect.resize(rect.size() + 4);
      StoreBE32(&rect[rect.size() - 4], std::bit_cast<uint32_t>(f));
    }
  }
  capture::Pm4Builder b;
  test::SetUpColourTarget(b, 64);
  b.WriteRegister(xenos::Reg::RB_SURFACE_INFO, 64u | (uint32_t(msaa) << 16));
  const auto vs = ucode::AssembleShader(test::kPositionVs).microcode;
  const auto ps0 = ucode::AssembleShader(kExportAndColourPs).microcode;
  const auto ps1 = ucode::AssembleShader(kExportOnlyPs).microcode;
  const float c1[4] = {0.0f, 1.0f, 0.0f, 0.0f};
  const float c2[4] = {1.0f, 2.0f, -0.5f, 256.0f};
  const float c3[4] = {0.25f, -3.0f, 1024.0f, 0.125f};
  const float c6[4] = {1.0f, 0.0f, 0.0f, 0.0f};  // first element 1
  for (int d = 0; d < 2; ++d) {
    capture::ShaderPair pair{vs, d == 0 ? ps0 : ps1, 2, 1, 1};
    capture::D3dSetShaders(b, pair);
    b.WriteRegister(xenos::Reg::RB_COLOR_MASK, d == 0 ? 0u : 0xFu);
    const uint32_t base = d == 0 ? kStreamA : kStreamB;
    // k_32_32_32_32_FLOAT (38), 8in32 (2), 4 elements.
    b.SetAluConstants(256 + 0, test::StreamConstant(base, 38, 4, 2));
    b.SetAluConstants(256 + 1, c1);
    b.SetAluConstants(256 + 2, c2);
    b.SetAluConstants(256 + 3, c3);
    b.SetAluConstants(256 + 6, c6);
    capture::D3dSetVertexFetch(b, 95, kVertices, 24);
    b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 6);
  }
  return test::PlayOnPath(
      path, b.Take(), {format::MemoryEvent{format::MemoryEventKind::kGpuRead, kVertices, rect}});
}

bool Noted(const renderer::Session& s, const std::string& needle) {
  for (const auto& [what, count] : s.notes()) {
    if (what.find(needle) != std::string::npos) return true;
  }
  return false;
}

// Element 1 (bytes 16..31) = c2, element 2 = c3; with 8in32 each float is stored big-endian, so
// LoadBE32 reads its IEEE bits. Elements 0 and 3 are not written.
void ExpectExportedBytes(const replay::GuestMemory& m) {
  for (uint32_t base : {kStreamA, kStreamB}) {
    SCOPED_TRACE(base);
    EXPECT_EQ(m.LoadBE32(base + 0x00), 0u);
    EXPECT_EQ(m.LoadBE32(base + 0x10), 0x3F800000u);  // 1.0
    EXPECT_EQ(m.LoadBE32(base + 0x14), 0x40000000u);  // 2.0
    EXPECT_EQ(m.LoadBE32(base + 0x18), 0xBF000000u);  // -0.5
    EXPECT_EQ(m.LoadBE32(base + 0x1C), 0x43800000u);  // 256.0
    EXPECT_EQ(m.LoadBE32(base + 0x20), 0x3E800000u);  // 0.25
    EXPECT_EQ(m.LoadBE32(base + 0x24), 0xC0400000u);  // -3.0
    EXPECT_EQ(m.LoadBE32(base + 0x28), 0x44800000u);  // 1024.0
    EXPECT_EQ(m.LoadBE32(base + 0x2C), 0x3E000000u);  // 0.125
    EXPECT_EQ(m.LoadBE32(base + 0x30), 0u);
  }
}

TEST(MemExportTargetless, CpuRunsThePixelShaderForItsExports) {
  test::PathReplay cpu = ReplayTargetless(renderer::Path::kCpu);
  ExpectExportedBytes(cpu.player->memory());
  EXPECT_EQ(cpu.session->stats().draws, 2u);
  EXPECT_EQ(cpu.session->stats().draws_skipped, 0u);
  EXPECT_FALSE(Noted(*cpu.session, "exports nothing"));
}

// fbo draws with no attachment (zero colour attachments, no depth: the render area and the
// rasterization sample count alone), fsi with every colour write and the depth/stencil test off
// in its output merger; both read the stream ranges back as for any exporting draw.
TEST(MemExportTargetless, GpuPathsRunThePixelShaderForItsExports) {
  for (renderer::Path path : {renderer::Path::kFbo, renderer::Path::kFsi}) {
    SCOPED_TRACE(renderer::PathName(path));
    test::PathReplay run = ReplayTargetless(path);
    EXPECT_EQ(run.session->validation_message_count(), 0u) << test::ValidationReport(*run.session);
    std::string notes;
    for (const auto& [what, count] : run.session->notes()) notes += "\n  " + what;
    EXPECT_EQ(run.session->stats().draws, 2u) << notes;
    EXPECT_EQ(run.session->stats().draws_skipped, 0u) << notes;
    ExpectExportedBytes(run.player->memory());
    EXPECT_FALSE(Noted(*run.session, "exports nothing"));
    EXPECT_FALSE(Noted(*run.session, "no colour target written"));
  }
}

// With 2x and 4x MSAA the draws rasterize at the surface's sample count (fbo: a rasterization
// sample count without attachments, framebufferNoAttachmentsSampleCounts; fsi: its own coverage
// samples); every covered pixel still exports the same elements, and validation stays silent.
TEST(MemExportTargetless, GpuPathsExportAtMsaaSampleCounts) {
  for (xenos::MsaaSamples msaa : {xenos::MsaaSamples::k2X, xenos::MsaaSamples::k4X}) {
    for (renderer::Path path : {renderer::Path::kCpu, renderer::Path::kFbo, renderer::Path::kFsi}) {
      SCOPED_TRACE(std::string(renderer::PathName(path)) + " msaa " +
                   std::to_string(uint32_t(msaa)));
      test::PathReplay run = ReplayTargetless(path, msaa);
      EXPECT_EQ(run.session->validation_message_count(), 0u)
          << test::ValidationReport(*run.session);
      EXPECT_EQ(run.session->stats().draws_skipped, 0u);
      ExpectExportedBytes(run.player->memory());
    }
  }
}

}  // namespace
}  // namespace xnt::vk::memexport_targetless_test
