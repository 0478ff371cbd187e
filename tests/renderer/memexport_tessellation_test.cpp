// Tessellation factors exported and read back, as the shaders in Xenia's "Implement memexport" discussion do (Halo 3's edge-factor
// shader writes k_32_FLOAT with eA.x the address of the tessellated draw's index buffer): draw 0
// (a vertex shader over 3 points) exports the float32 factors 2, 3, 4 into an index buffer;
// draw 1 is an adaptive triangle_patch draw reading those 3 factors as its "indices", its domain
// shader exporting nothing. Every path must export the factors (the bytes worked by hand below)
// and draw the tessellated draw, naming nothing about it (not as a primitive type either).
#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "memexport_test_shaders.h"
#include "replay_helpers.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

constexpr uint32_t kFactors = 0x00030000;

// The end of every vertex shader here: the vertex at c7, interpolator 0 = c7.
#define XNT_TEST_AT_C7 \
  "    alloc position\n    exec\n    mov oPos, c7\n    alloc interpolators\n    exece\n" \
  "    mov o0, c7\n"

// Vertex i exports r0.x + c5.x as element i of stream c0; the points sit at c7.
const char* const kFactorVs = R"(xvs_3_0
    alloc export
    exec
    add r1, r0.xxxx, c5.xxxx
    mad eA, r0.xxxx, c1, c0
    mov eM0, r1
)" XNT_TEST_AT_C7;

// The tessellated draw's domain shader: every generated vertex at c7.
const char* const kDomainVs = "xvs_3_0\n" XNT_TEST_AT_C7;

test::PathReplay ReplayFactors(renderer::Path path) {
  capture::Pm4Builder b;
  test::SetUpColourTarget(b, 64);
  const auto vs = ucode::AssembleShader(kFactorVs).microcode;
  const auto ps = ucode::AssembleShader(test::kColourPs).microcode;
  capture::ShaderPair pair{vs, ps, 2, 1, 1};
  capture::D3dSetShaders(b, pair);
  const float c1[4] = {0.0f, 1.0f, 0.0f, 0.0f};
  const float c5[4] = {2.0f, 0.0f, 0.0f, 0.0f};
  const float c7[4] = {0.0f, 0.0f, 0.0f, 1.0f};
  b.SetAluConstants(0, test::StreamConstant(kFactors, 36, 3, 2));  // k_32_FLOAT, 8in32, 3 elements
  b.SetAluConstants(1, c1);
  b.SetAluConstants(5, c5);
  b.SetAluConstants(7, c7);
  b.DrawIndx2Auto(xenos::PrimitiveType::kPointList, 3);
  const auto domain_vs = ucode::AssembleShader(kDomainVs).microcode;
  capture::ShaderPair domain{domain_vs, ps, 2, 1, 1};
  capture::D3dSetShaders(b, domain);
  b.WriteRegister(xenos::Reg::VGT_OUTPUT_PATH_CNTL,
                  uint32_t(xenos::VGTOutputPath::kTessellationEnable));
  b.WriteRegister(xenos::Reg::VGT_HOS_CNTL, uint32_t(xenos::TessellationMode::kAdaptive));
  b.DrawIndxDma(xenos::PrimitiveType::kTrianglePatch, 3, kFactors, xenos::IndexFormat::kInt32,
                xenos::Endian::k8in32);
  return test::PlayOnPath(path, b.Take());
}

TEST(MemExportTessellation, FactorsAreExportedAndTheTessellatedDrawIsDrawn) {
  for (renderer::Path path : {renderer::Path::kCpu, renderer::Path::kFbo, renderer::Path::kFsi}) {
    SCOPED_TRACE(renderer::PathName(path));
    test::PathReplay run = ReplayFactors(path);
    EXPECT_EQ(run.session->validation_message_count(), 0u) << test::ValidationReport(*run.session);
    // 8in32 stores each float big-endian: 2.0, 3.0, 4.0.
    const replay::GuestMemory& m = run.player->memory();
    EXPECT_EQ(m.LoadBE32(kFactors + 0), 0x40000000u);
    EXPECT_EQ(m.LoadBE32(kFactors + 4), 0x40400000u);
    EXPECT_EQ(m.LoadBE32(kFactors + 8), 0x40800000u);
    for (const auto& [what, count] : run.session->notes()) {
      EXPECT_EQ(what.find("tessellat"), std::string::npos) << what;
      EXPECT_EQ(what.find("2d_copy_rect_list"), std::string::npos) << what;
    }
    EXPECT_EQ(run.session->stats().draws, 2u);
    EXPECT_EQ(run.session->stats().draws_skipped, 0u);
  }
}

// A domain shader that exports: two quad patches at factor 1 (VGT_HOS_MAX_TESS_LEVEL 0.0, four
// generated vertices each), every vertex writing 100 p + 10 u + v (r0 = (p, u, v)) to element
// u + 2 v + 4 p of a k_32_FLOAT stream, so each element has one writer.
const char* const kExportingDomainVs = R"(xvs_3_0
    exec
    mad r1.x, r0.z, c2.y, r0.y
    mad r1.x, r0.x, c2.z, r1.x
    mul r2.x, r0.x, c2.w
    mad r2.x, r0.y, c2.x, r2.x
    add r2.x, r2.x, r0.z
    alloc export
    exec
    mad eA, r1.xxxx, c1, c0
    mov eM0, r2.xxxx
)" XNT_TEST_AT_C7;

// Plays `patches` quad patches, discrete at VGT_HOS_MAX_TESS_LEVEL `max_level`, whose domain
// shader `vs` (`vs_registers` registers) exports to a k_32_FLOAT stream of `elements` at `out`
// (c0), with c1 = (0, 1, 0, 0), `constant` at c`constant_index` and every vertex at c7.
test::PathReplay PlayExportingQuadPatches(renderer::Path path, const char* vs, uint32_t vs_registers,
                                          uint32_t out, uint32_t elements, uint32_t constant_index,
                                          const float (&constant)[4], float max_level,
                                          uint32_t patches) {
  capture::Pm4Builder b;
  test::SetUpColourTarget(b, 64);
  const auto vs_code = ucode::AssembleShader(vs).microcode;
  const auto ps = ucode::AssembleShader(test::kColourPs).microcode;
  capture::D3dSetShaders(b, capture::ShaderPair{vs_code, ps, vs_registers, 1, 1});
  const float c1[4] = {0.0f, 1.0f, 0.0f, 0.0f};
  const float c7[4] = {0.0f, 0.0f, 0.0f, 1.0f};
  b.SetAluConstants(0, test::StreamConstant(out, 36, elements, 2));  // k_32_FLOAT, 8in32
  b.SetAluConstants(1, c1);
  b.SetAluConstants(constant_index, constant);
  b.SetAluConstants(7, c7);
  b.WriteRegister(xenos::Reg::VGT_OUTPUT_PATH_CNTL,
                  uint32_t(xenos::VGTOutputPath::kTessellationEnable));
  b.WriteRegister(xenos::Reg::VGT_HOS_CNTL, uint32_t(xenos::TessellationMode::kDiscrete));
  b.WriteRegister(xenos::Reg::VGT_HOS_MAX_TESS_LEVEL, std::bit_cast<uint32_t>(max_level));
  b.DrawIndx2Auto(xenos::PrimitiveType::kQuadPatch, patches);
  return test::PlayOnPath(path, b.Take());
}

TEST(MemExportTessellation, DomainShaderExportsOncePerGeneratedVertex) {
  constexpr uint32_t kOut = 0x00034000;
  for (renderer::Path path : {renderer::Path::kCpu, renderer::Path::kFbo, renderer::Path::kFsi}) {
    SCOPED_TRACE(renderer::PathName(path));
    const float c2[4] = {10.0f, 2.0f, 4.0f, 100.0f};
    // VGT_HOS_MAX_TESS_LEVEL 0.0 + 1: factor 1.
    test::PathReplay run =
        PlayExportingQuadPatches(path, kExportingDomainVs, 3, kOut, 8, 2, c2, 0.0f, 2);
    EXPECT_EQ(run.session->validation_message_count(), 0u) << test::ValidationReport(*run.session);
    const replay::GuestMemory& m = run.player->memory();
    const float want[8] = {0, 10, 1, 11, 100, 110, 101, 111};
    for (uint32_t i = 0; i < 8; ++i) {
      EXPECT_EQ(std::bit_cast<float>(m.LoadBE32(kOut + 4 * i)), want[i]) << "element " << i;
    }
    EXPECT_EQ(run.session->stats().draws, 1u);
  }
}

// A tessellated draw past what the Vulkan paths bind at once (kDomainInputsRange: 262,144
// generated vertices): 64 quad patches at factor 64 (VGT_HOS_MAX_TESS_LEVEL 63.0) make
// 64 x 65 x 65 = 270,400 vertices, drawn by fbo and fsi in two parts. Every vertex of patch p
// (r0.x = p) exports p + 2 to element p, so each element holds its patch's value only when
// that patch's part was drawn; the guest draw counts once.
TEST(MemExportTessellation, DrawPastTheDomainBindingIsDrawnInParts) {
  constexpr uint32_t kOut = 0x00034000, kPatches = 64;
  for (renderer::Path path : {renderer::Path::kCpu, renderer::Path::kFbo, renderer::Path::kFsi}) {
    SCOPED_TRACE(renderer::PathName(path));
    const float c5[4] = {2.0f, 0.0f, 0.0f, 0.0f};
    test::PathReplay run =
        PlayExportingQuadPatches(path, kFactorVs, 2, kOut, kPatches, 5, c5, 63.0f, kPatches);
    EXPECT_EQ(run.session->validation_message_count(), 0u) << test::ValidationReport(*run.session);
    const replay::GuestMemory& m = run.player->memory();
    for (uint32_t p = 0; p < kPatches; ++p) {
      EXPECT_EQ(std::bit_cast<float>(m.LoadBE32(kOut + 4 * p)), float(p + 2)) << "patch " << p;
    }
    for (const auto& [what, count] : run.session->notes()) {
      EXPECT_EQ(what.find("tessellat"), std::string::npos) << what;
    }
    EXPECT_EQ(run.session->stats().draws, 1u);
    EXPECT_EQ(run.session->stats().draws_skipped, 0u);
  }
}

}  // namespace
}  // namespace xnt::vk
