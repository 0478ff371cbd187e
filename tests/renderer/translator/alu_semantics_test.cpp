// Xenos ALU and control-flow semantics of translated pixel shaders, run on lavapipe: each test
// assembles a tiny shader, translates it, draws one pixel and compares oC0 bit for bit.
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>

#include "translate_util.h"

namespace xnt::vk::test {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

class AluSemanticsTest : public DrawFixture {};

TEST_F(AluSemanticsTest, LegacyMultiplyByZeroIgnoresInfinityAndNaN) {
  auto ps = TranslateAssembly(R"(
xps_3_0
    alloc colors
    exece
    mul oC0, c0, c1
)");
  SetPsConstant(0, 0.0f, -0.0f, kInf, 2.0f);
  SetPsConstant(1, kInf, kNaN, 0.0f, 3.0f);
  auto p = RunPixelShader(ps);
  // +-0 * anything (inf, NaN) = +0 on Xenos, where IEEE gives NaN.
  EXPECT_EQ(Bits(p[0]), 0u);
  EXPECT_EQ(Bits(p[1]), 0u);
  EXPECT_EQ(Bits(p[2]), 0u);
  EXPECT_EQ(p[3], 6.0f);
}

TEST_F(AluSemanticsTest, DotProductsAndMadUseLegacyMultiply) {
  auto ps = TranslateAssembly(R"(
xps_3_0
    exec
    dp4 r0.x, c0, c1
    dp3 r0.y, c0, c2
    mad r0.z, c0.xxxx, c1.xxxx, c3
    dp2add r0.w, c0.yzzz, c1.yzzz, c3.zzzz
    alloc colors
    exece
    mov oC0, r0
)");
  SetPsConstant(0, 0.0f, 1.0f, 2.0f, 0.0f);
  SetPsConstant(1, kInf, 1.0f, 1.0f, kNaN);
  SetPsConstant(2, kNaN, 5.0f, 0.5f, 7.0f);
  SetPsConstant(3, 9.0f, 9.0f, 5.0f, 9.0f);
  auto p = RunPixelShader(ps);
  EXPECT_EQ(p[0], 3.0f);  // 0*inf + 1 + 2 + 0*NaN
  EXPECT_EQ(p[1], 6.0f);  // 0*NaN + 5 + 1
  EXPECT_EQ(p[2], 5.0f);  // 0*inf + 5
  EXPECT_EQ(p[3], 8.0f);  // 1*1 + 2*1 + 5
}

TEST_F(AluSemanticsTest, MaxAndMinFollowShaderModel3NaNAndSignedZeroRules) {
  const char* kMax = R"(
xps_3_0
    alloc colors
    exece
    max oC0, c0, c1
)";
  const char* kMin = R"(
xps_3_0
    alloc colors
    exece
    min oC0, c0, c1
)";
  SetPsConstant(0, kNaN, 1.0f, -0.0f, 0.0f);
  SetPsConstant(1, 1.0f, kNaN, 0.0f, -0.0f);
  auto p = RunPixelShader(TranslateAssembly(kMax));
  // max = a >= b ? a : b.
  EXPECT_EQ(p[0], 1.0f);
  EXPECT_TRUE(std::isnan(p[1]));
  EXPECT_EQ(Bits(p[2]), 0x80000000u);  // -0 >= +0, so -0
  EXPECT_EQ(Bits(p[3]), 0u);
  p = RunPixelShader(TranslateAssembly(kMin));
  // min = a < b ? a : b.
  EXPECT_EQ(p[0], 1.0f);
  EXPECT_TRUE(std::isnan(p[1]));
  EXPECT_EQ(Bits(p[2]), 0u);           // -0 < +0 is false, so +0
  EXPECT_EQ(Bits(p[3]), 0x80000000u);
}

TEST_F(AluSemanticsTest, ClampedAndFlushedReciprocalsAndLog) {
  auto ps = TranslateAssembly(R"(
xps_3_0
    exec
    rcpc r0.x, c0.x
    rcpf r0.y, c0.x
    rcp r0.z, c0.x
    logc r0.w, c0.x
    alloc colors
    exece
    mov oC0, r0
)");
  SetPsConstant(0, 0.0f, 0.0f, 0.0f, 0.0f);
  auto p = RunPixelShader(ps);
  EXPECT_EQ(p[0], FLT_MAX);
  EXPECT_EQ(Bits(p[1]), 0u);
  EXPECT_EQ(p[2], kInf);
  EXPECT_EQ(p[3], -FLT_MAX);
}

TEST_F(AluSemanticsTest, PredicatedInstructionsAndPredicatedExecs) {
  auto ps = TranslateAssembly(R"(
xps_3_0
    exec
    mov r0, c0
    setp_gt r1.x, c1.x
    (p0) mov r0.x, c2.x
    (!p0) mov r0.y, c2.y
    (p0) exec
    mov r0.z, c2.z
    (!p0) exec
    mov r0.w, c2.w
    exec
    setp_eq r1.x, c1.x
    (!p0) add r0.w, r0.w, c1.x
    alloc colors
    exece
    mov oC0, r0
)");
  SetPsConstant(0, 1.0f, 2.0f, 3.0f, 4.0f);
  SetPsConstant(1, 1.0f, 0.0f, 0.0f, 0.0f);
  SetPsConstant(2, 10.0f, 20.0f, 30.0f, 40.0f);
  auto p = RunPixelShader(ps);
  EXPECT_EQ(p[0], 10.0f);  // predicated true
  EXPECT_EQ(p[1], 2.0f);   // (!p0) skipped
  EXPECT_EQ(p[2], 30.0f);  // (p0) exec ran
  EXPECT_EQ(p[3], 5.0f);   // (!p0) exec skipped; then p0 = (1 == 0) = false, (!p0) add ran
}

TEST_F(AluSemanticsTest, LoopsRunLoopConstantCountAndStepAL) {
  auto ps = TranslateAssembly(R"(
xps_3_0
    exec
    mov r0, c0
    loop i0, L4
L2:
    exec
    add r0.x, r0.x, c1.x
    add r0.y, r0.y, c[0+aL].z
    endloop i0, L2
L4:
    loop i1, L7
L5:
    exec
    add r0.z, r0.z, c1.x
    endloop i1, L5
L7:
    alloc colors
    exece
    mov oC0, r0
)");
  for (uint32_t k = 0; k < 32; ++k) SetPsConstant(k, 0.0f, 0.0f, float(k), 0.0f);
  SetPsConstant(1, 1.0f, 0.0f, 1.0f, 0.0f);
  // i0: count 5, start 2, step 3 -> aL = 2, 5, 8, 11, 14. i1: count 0 -> body skipped.
  harness_->constants.loop_constants[0] = 5u | (2u << 8) | (3u << 16);
  harness_->constants.loop_constants[1] = 0u | (7u << 8) | (1u << 16);
  auto p = RunPixelShader(ps);
  EXPECT_EQ(p[0], 5.0f);
  EXPECT_EQ(p[1], 2.0f + 5.0f + 8.0f + 11.0f + 14.0f);
  EXPECT_EQ(p[2], 0.0f);
  // Negative step: count 3 from 20 by -4 -> aL = 20, 16, 12.
  harness_->constants.loop_constants[0] = 3u | (20u << 8) | (uint32_t(uint8_t(-4)) << 16);
  p = RunPixelShader(ps);
  EXPECT_EQ(p[0], 3.0f);
  EXPECT_EQ(p[1], 20.0f + 16.0f + 12.0f);
}

TEST_F(AluSemanticsTest, CallsReturnsAndConditionalJumps) {
  auto ps = TranslateAssembly(R"(
xps_3_0
    exec
    mov r0, c0
    call L6
    cjmp b0, L4
    exec
    add r0.y, r0.y, c1.x
L4:
    ccall !b0, L6
    jmp L8
L6:
    exec
    add r0.x, r0.x, c1.x
    ret
L8:
    cjmp b1, L10
    exec
    add r0.z, r0.z, c1.x
L10:
    alloc colors
    exece
    mov oC0, r0
)");
  SetPsConstant(0, 0.0f, 0.0f, 0.0f, 7.0f);
  SetPsConstant(1, 1.0f, 0.0f, 0.0f, 0.0f);
  harness_->constants.bool_constants[0] = 1u;  // b0 = true, b1 = false
  auto p = RunPixelShader(ps);
  EXPECT_EQ(p[0], 1.0f);  // one call taken, the ccall !b0 not
  EXPECT_EQ(p[1], 0.0f);  // skipped by cjmp b0
  EXPECT_EQ(p[2], 1.0f);  // cjmp b1 not taken
  EXPECT_EQ(p[3], 7.0f);
  harness_->constants.bool_constants[0] = 2u;  // b0 = false, b1 = true
  p = RunPixelShader(ps);
  EXPECT_EQ(p[0], 2.0f);  // call + ccall !b0
  EXPECT_EQ(p[1], 1.0f);
  EXPECT_EQ(p[2], 0.0f);
}

TEST_F(AluSemanticsTest, ConditionalExecsTestBoolConstants) {
  // `cexec b5` is opcode 13 (the predicate-cleaning form), `cexec !b6, PredicateClean=false`
  // opcode 3; both test a bool constant.
  auto ps = TranslateAssembly(R"(
xps_3_0
    exec
    mov r0, c0
    cexec b5
    mov r0.xy, c1
    cexec !b6, PredicateClean=false
    mov r0.zw, c1
    alloc colors
    exece
    mov oC0, r0
)");
  EXPECT_EQ(ps.shader.cf[1].opcode, ucode::CfOpcode::kCondExecPredClean);
  EXPECT_EQ(ps.shader.cf[2].opcode, ucode::CfOpcode::kCondExec);
  SetPsConstant(0, 1.0f, 1.0f, 1.0f, 1.0f);
  SetPsConstant(1, 2.0f, 2.0f, 2.0f, 2.0f);
  harness_->constants.bool_constants[0] = 1u << 5;  // b5 true, b6 false
  auto p = RunPixelShader(ps);
  EXPECT_EQ(p[0], 2.0f);
  EXPECT_EQ(p[2], 2.0f);
  harness_->constants.bool_constants[0] = 1u << 6;  // b5 false, b6 true
  p = RunPixelShader(ps);
  EXPECT_EQ(p[0], 1.0f);
  EXPECT_EQ(p[2], 1.0f);
}

TEST_F(AluSemanticsTest, KillDiscardsThePixel) {
  auto ps = TranslateAssembly(R"(
xps_3_0
    exec
    kill_gt r1, c0, c1
    alloc colors
    exece
    mov oC0, c2
)");
  EXPECT_TRUE(ps.result.reflection.kills);
  SetPsConstant(0, 0.0f, 0.0f, 2.0f, 0.0f);
  SetPsConstant(1, 1.0f, 1.0f, 1.0f, 1.0f);
  SetPsConstant(2, 0.25f, 0.5f, 0.75f, 1.0f);
  auto p = RunPixelShader(ps);
  EXPECT_EQ(p[0], harness_->clear_value);  // 2 > 1 in z: killed
  SetPsConstant(0, 0.0f, 0.0f, 1.0f, 0.0f);
  p = RunPixelShader(ps);
  EXPECT_EQ(p[0], 0.25f);
  EXPECT_EQ(p[3], 1.0f);
}

TEST_F(AluSemanticsTest, InterpolatorsLoadIntoFirstRegisters) {
  auto ps = TranslateAssembly(R"(
xps_3_0
    alloc colors
    exece
    add oC0, r0, r3
)");
  EXPECT_EQ(ps.result.reflection.color_targets_written, 1u);
  auto p = RunPixelShader(ps);
  // Interpolator i = (i, i + 0.5, -i, 1) from the test vertex shader.
  EXPECT_EQ(p[0], 3.0f);
  EXPECT_EQ(p[1], 4.0f);
  EXPECT_EQ(p[2], -3.0f);
  EXPECT_EQ(p[3], 2.0f);
}

TEST_F(AluSemanticsTest, AlphaTestDiscardsFailingPixels) {
  auto ps = TranslateAssembly(R"(
xps_3_0
    alloc colors
    exece
    mov oC0, c0
)");
  harness_->system.flags |= kXeSysFlagAlphaTest;
  harness_->system.alpha_test_func = 1;  // pass if alpha < reference
  harness_->system.alpha_test_reference = 0.5f;
  SetPsConstant(0, 1.0f, 2.0f, 3.0f, 0.75f);
  EXPECT_EQ(RunPixelShader(ps)[0], harness_->clear_value);
  SetPsConstant(0, 1.0f, 2.0f, 3.0f, 0.25f);
  EXPECT_EQ(RunPixelShader(ps)[0], 1.0f);
  harness_->system.alpha_test_func = 6;  // greater or equal
  EXPECT_EQ(RunPixelShader(ps)[0], harness_->clear_value);
}

TEST_F(AluSemanticsTest, ParamGenRegisterGetsThePixelPosition) {
  TranslationOptions options;
  options.ps_interpolator_count = 1;
  options.ps_param_gen_register = 2;
  auto ps = TranslateAssembly(R"(
xps_3_0
    alloc colors
    exece
    mov oC0, r2
)", options);
  EXPECT_EQ(ps.result.reflection.interpolators_read, 0u);  // r0 is loaded but never read
  auto p = RunPixelShader(ps);
  // Pixel (0, 0) of a triangle: the integer position (no half pixel, gpu::PsParamGen); the sign
  // of x carries the facing; y is +0 (not a point), z is +0 (not a line), w 0.
  EXPECT_EQ(std::fabs(p[0]), 0.0f);
  EXPECT_EQ(std::bit_cast<uint32_t>(p[1]), 0u);
  EXPECT_EQ(std::bit_cast<uint32_t>(p[2]), 0u);
  EXPECT_EQ(p[3], 0.0f);
}

}  // namespace
}  // namespace xnt::vk::test
