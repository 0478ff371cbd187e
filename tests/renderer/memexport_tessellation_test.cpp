// Tessellation factors exported and read back, as the shaders in Xenia's "Implement memexport" discussion do (Halo 3's edge-factor
// shader writes k_32_FLOAT with eA.x the address of the tessellated draw's index buffer): draw 0
// (a vertex shader over 3 points) exports the float32 factors 2, 3, 4 into an index buffer;
// draw 1 is an adaptive triangle_patch draw reading those 3 factors as its "indices", its domain
// shader exporting nothing. Every path must export the factors (the bytes worked by hand below)
// and draw the tessellated draw, naming nothing about it (not as a primitive type either).
#include <gtest/gtest.h>

#include <string>

#include "memexport_test_shaders.h"
#include "replay_helpers.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

constexpr uint32_t kFactors = 0x00030000;

// Vertex i exports r0.x + c5.x as element i of stream c0; the points sit at c7.
const char* const kFactorVs = R"(xvs_3_0
    alloc export
    exec
    add r1, r0.xxxx, c5.xxxx
    mad eA, r0.xxxx, c1, c0
    mov eM0, r1
    alloc position
    exec
    mov oPos, c7
    alloc interpolators
    exece
    mov o0, c7
)";

// The tessellated draw's domain shader: every generated vertex at c7.
const char* const kDomainVs = R"(xvs_3_0
    alloc position
    exec
    mov oPos, c7
    alloc interpolators
    exece
    mov o0, c7
)";

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

TEST(MemExportTessellation, FactorsAreExportedAndTheTessellatedDrawIsNamed) {
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

}  // namespace
}  // namespace xnt::vk
