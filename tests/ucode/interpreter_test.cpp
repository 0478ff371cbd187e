// The CPU microcode interpreter against hand-computed values, per opcode family. Several cases
// repeat the inputs of the translator's lavapipe tests (tests/renderer/translator/alu_ops_test.cpp,
// alu_semantics_test.cpp) and expect the same outputs, so the two implementations are checked
// against the same numbers.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

#include "random_microcode.h"
#include "xnt/base/error.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/interpreter.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::ucode::interpreter_test {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

struct Run {
  Shader shader;
  ShaderResult result;
};

ShaderResult RunShader(const std::string& text, ShaderType type, const InterpreterConstants& k,
                       const ShaderInputs& in = {}, const InterpreterCallbacks& cb = {}) {
  const Shader shader = Decode(Assemble(text, nullptr, type), type);
  return Interpreter(shader).Run(k, in, cb);
}

// Pixel shader body -> oC0.
Float4 Ps(const std::string& body, const InterpreterConstants& k, const ShaderInputs& in = {}) {
  ShaderResult r = RunShader("xps_3_0\n" + body, ShaderType::kPixel, k, in);
  EXPECT_FALSE(r.killed);
  EXPECT_TRUE(r.color_mask & 1);
  return r.colors[0];
}

class InterpreterTest : public ::testing::Test {
 protected:
  void C(uint32_t i, float x, float y, float z, float w) { k_.float_constants[i] = {x, y, z, w}; }
  InterpreterConstants k_;
};

TEST_F(InterpreterTest, TwoComponentScalarOpsMatchTheTranslatorTest) {
  C(0, 3.0f, 5.0f, -2.0f, 0.25f);
  Float4 p = Ps(R"(
    exec
    adds r0.x, c0.xy
    muls r0.y, c0.xz
    subs r0.z, c0.yx
    maxs r0.w, c0.zw
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p, (Float4{8.0f, -6.0f, 2.0f, 0.25f}));
}

TEST_F(InterpreterTest, RoundingOpsAndPreviousScalar) {
  C(0, -1.25f, 10.0f, 0.0f, 0.0f);
  Float4 p = Ps(R"(
    exec
    frcs r0.x, c0.x
    truncs r0.y, c0.x
    floors r0.z, c0.x
    adds_prev r0.w, c0.y
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p, (Float4{0.75f, -1.0f, -2.0f, 8.0f}));  // 10 + ps (-2 from floors)
}

TEST_F(InterpreterTest, PredicateInvertPopClearRestore) {
  C(0, 1.0f, 0.0f, 2.0f, 3.0f);
  Float4 p = Ps(R"(
    exec
    setp_inv r0.x, c0.x
    (p0) mov r0.y, c0.w
    setp_pop r0.z, c0.z
    (!p0) mov r0.w, c0.z
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p, (Float4{0.0f, 3.0f, 1.0f, 2.0f}));
  p = Ps(R"(
    exec
    setp_clr r0.x
    setp_rstr r0.y, c0.y
    (p0) mov r0.z, c0.x
    setp_ne r0.w, c0.x
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p, (Float4{FLT_MAX, 0.0f, 1.0f, 0.0f}));
}

TEST_F(InterpreterTest, SetIfOpsAndConditionalSelectWithNaNAndNegativeZero) {
  C(0, kNaN, 1.0f, 2.0f, -0.0f);
  C(1, kNaN, 1.0f, 3.0f, 0.0f);
  C(2, 2.0f, 2.0f, 2.0f, 2.0f);
  Float4 p = Ps(R"(
    exec
    sne r0, c0, c1
    seq r1, c0, c1
    alloc colors
    exece
    mad oC0, r1, c2, r0
)", k_);
  EXPECT_EQ(p, (Float4{1.0f, 2.0f, 1.0f, 2.0f}));
  C(0, -1.0f, 0.0f, -0.0f, kNaN);
  C(1, 10.0f, 10.0f, 10.0f, 10.0f);
  C(2, 20.0f, 20.0f, 20.0f, 20.0f);
  p = Ps("    alloc colors\n    exece\n    cndge oC0, c0, c1, c2\n", k_);
  EXPECT_EQ(p, (Float4{20.0f, 10.0f, 10.0f, 20.0f}));
  p = Ps("    alloc colors\n    exece\n    cndeq oC0, c0, c1, c2\n", k_);
  EXPECT_EQ(p, (Float4{20.0f, 10.0f, 10.0f, 20.0f}));
  p = Ps("    alloc colors\n    exece\n    cndgt oC0, c0, c1, c2\n", k_);
  EXPECT_EQ(p, (Float4{20.0f, 20.0f, 20.0f, 20.0f}));
}

TEST_F(InterpreterTest, LegacyMultiplyByZero) {
  // +-0 times infinity or NaN is +0 in mul, mad, dp4 and muls; a denormal counts as zero.
  C(0, 0.0f, -0.0f, 1e-40f, 2.0f);
  C(1, kInf, kNaN, kInf, 3.0f);
  C(2, 1.0f, 1.0f, 1.0f, 1.0f);
  C(3, -0.0f, kNaN, 0.0f, 0.0f);
  Float4 p = Ps(R"(
    exec
    mul r0, c0, c1
    mad r1, c0, c1, c2
    dp4 r2.x, c0.xyzz, c1.xyzz
    muls r2.y, c3.yx
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(Bits(p[0]), 0u);
  EXPECT_EQ(Bits(p[1]), 0u);  // -0 * NaN = +0
  EXPECT_EQ(Bits(p[2]), 0u);
  EXPECT_EQ(p[3], 6.0f);
  p = Ps(R"(
    exec
    mad r1, c0, c1, c2
    dp4 r2.x, c0.xyzw, c1.xyzw
    muls r2.y, c3.yx
    mov r1.w, r2.x
    mov r1.z, r2.y
    alloc colors
    exece
    mov oC0, r1
)", k_);
  EXPECT_EQ(p[0], 1.0f);
  EXPECT_EQ(p[1], 1.0f);
  EXPECT_EQ(Bits(p[2]), 0u);  // muls NaN * 0
  EXPECT_EQ(p[3], 6.0f);      // dp4 = 0 + 0 + 0 + 6
}

TEST_F(InterpreterTest, MaxMinFollowSm3NaNRulesAndMovKeepsNaN) {
  C(0, kNaN, 1.0f, -0.0f, 0.0f);
  C(1, 1.0f, kNaN, 0.0f, -0.0f);
  Float4 mx = Ps("    alloc colors\n    exece\n    max oC0, c0, c1\n", k_);
  EXPECT_EQ(mx[0], 1.0f);          // NaN >= 1 is false: b
  EXPECT_TRUE(std::isnan(mx[1]));  // 1 >= NaN is false: b = NaN
  EXPECT_EQ(Bits(mx[2]), Bits(-0.0f));  // -0 >= +0: a
  EXPECT_EQ(Bits(mx[3]), 0u);
  Float4 mn = Ps("    alloc colors\n    exece\n    min oC0, c0, c1\n", k_);
  EXPECT_EQ(mn[0], 1.0f);
  EXPECT_TRUE(std::isnan(mn[1]));
  EXPECT_EQ(Bits(mn[2]), 0u);  // -0 < +0 is false: b
  EXPECT_EQ(Bits(mn[3]), Bits(-0.0f));
  Float4 mov = Ps("    alloc colors\n    exece\n    mov oC0, c0\n", k_);
  EXPECT_TRUE(std::isnan(mov[0]));
  EXPECT_EQ(Bits(mov[2]), Bits(-0.0f));
  // mins with the SM3 rule (Xenia's interpreter has >= here; see docs/interpreter.md).
  C(2, 5.0f, 2.0f, 0.0f, 0.0f);
  EXPECT_EQ(Ps("    exec\n    mins r0, c2.xy\n    alloc colors\n    exece\n    mov oC0, r0\n", k_)[0],
            2.0f);
}

TEST_F(InterpreterTest, DotProductsCubeMax4DstAndSaturate) {
  C(0, 1.0f, 2.0f, 3.0f, 4.0f);
  C(1, 5.0f, 6.0f, 7.0f, 8.0f);
  Float4 p = Ps(R"(
    exec
    dp4 r0.x, c0, c1
    dp3 r0.y, c0, c1
    dp2add r0.z, c0, c1, c1.w
    max4 r0.w, c1
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p, (Float4{70.0f, 38.0f, 25.0f, 8.0f}));
  C(0, 0.5f, -2.0f, 1.0f, 0.0f);
  p = Ps("    alloc colors\n    exece\n    cube oC0, c0.zzxy, c0.yxzz\n", k_);
  EXPECT_EQ(p, (Float4{-1.0f, 0.5f, -4.0f, 3.0f}));
  C(0, 9.0f, 2.0f, 3.0f, 9.0f);
  C(1, 9.0f, 4.0f, 9.0f, 5.0f);
  p = Ps("    alloc colors\n    exece\n    dst oC0, c0, c1\n", k_);
  EXPECT_EQ(p, (Float4{1.0f, 8.0f, 3.0f, 5.0f}));
  C(0, -1.0f, 0.5f, 2.0f, kNaN);
  p = Ps("    alloc colors\n    exece\n    mov_sat oC0, c0\n", k_);
  EXPECT_EQ(Bits(p[0]), 0u);
  EXPECT_EQ(p[1], 0.5f);
  EXPECT_EQ(p[2], 1.0f);
  EXPECT_EQ(Bits(p[3]), 0u);  // NaN saturates to 0
}

TEST_F(InterpreterTest, SpecialFunctionsAndConstantTempScalarOps) {
  C(0, 3.0f, 0.0f, 0.0f, 0.0f);
  C(1, 0.0f, 4.0f, 0.0f, 0.0f);
  Float4 p = Ps(R"(
    exec
    mov r1, c1
    mulsc r0.x, c0.x, r1.y
    addsc r0.y, c0.x, r1.y
    subsc r0.z, c0.x, r1.y
    sqrt r0.w, c1.y
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p, (Float4{12.0f, 7.0f, -1.0f, 2.0f}));
  p = Ps(R"(
    exec
    rsqc r0.x, c0.y
    rsqf r0.y, c0.y
    exp r0.z, c0.x
    sin r0.w, c0.y
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p[0], FLT_MAX);
  EXPECT_EQ(Bits(p[1]), 0u);
  EXPECT_EQ(p[2], 8.0f);
  EXPECT_EQ(p[3], 0.0f);
  C(0, 0.0f, -0.0f, 4.0f, 0.0f);
  p = Ps(R"(
    exec
    rcpc r0.x, c0.y
    rcpf r0.y, c0.x
    rcp r0.z, c0.z
    logc r0.w, c0.x
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p[0], -FLT_MAX);
  EXPECT_EQ(Bits(p[1]), 0u);
  EXPECT_EQ(p[2], 0.25f);
  EXPECT_EQ(p[3], -FLT_MAX);
}

TEST_F(InterpreterTest, CoIssuedVectorAndScalarWithWriteMasks) {
  C(0, 1.0f, 2.0f, 3.0f, 4.0f);
  C(1, 10.0f, 20.0f, 30.0f, 40.0f);
  Float4 p = Ps(R"(
    exec
    mov r0, c1
    add r0.xy, c0, c1
    + adds r0.w, c0.xy
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p, (Float4{11.0f, 22.0f, 30.0f, 3.0f}));
  // Sources are read before either result is written.
  p = Ps(R"(
    exec
    mov r0, c0
    add r0, r0, r0
    + adds r0.w, r0.wz
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p, (Float4{2.0f, 4.0f, 6.0f, 7.0f}));
}

TEST_F(InterpreterTest, ExportConstantOneAndZeroForms) {
  C(0, 5.0f, 6.0f, 7.0f, 8.0f);
  ShaderResult r = RunShader(R"(xvs_3_0
    alloc position
    exec
    mad oPos.xy01, c0.zw, c0.zw, c0.xy
    alloc interpolators
    exece
    mov o3.x_0_, c0.y
)", ShaderType::kVertex, k_);
  EXPECT_EQ(r.position, (Float4{54.0f, 70.0f, 0.0f, 1.0f}));
  EXPECT_EQ(r.position_mask, 0xFu);
  EXPECT_EQ(r.interpolator_mask, 1u << 3);
  EXPECT_EQ(r.interpolators[3][0], 6.0f);
  EXPECT_EQ(r.interpolators[3][2], 0.0f);
}

TEST_F(InterpreterTest, PixelKillStopsAndVertexKillIsReported) {
  C(0, 1.0f, 2.0f, 3.0f, 4.0f);
  C(1, 0.0f, 2.0f, 0.0f, 0.0f);
  ShaderResult r = RunShader(R"(xps_3_0
    exec
    kill_eq r0, c0, c1
    alloc colors
    exece
    mov oC0, c0
)", ShaderType::kPixel, k_);
  EXPECT_TRUE(r.killed);
  EXPECT_EQ(r.color_mask, 0u);
  r = RunShader(R"(xps_3_0
    exec
    kill_gt r0, c1, c0
    kills_eq r1.x, c1.x
    alloc colors
    exece
    mov oC0, c0
)", ShaderType::kPixel, k_);
  EXPECT_TRUE(r.killed);  // c1.x == 0
  r = RunShader(R"(xps_3_0
    exec
    kill_gt r0, c1, c0
    kills_ne r1.x, c1.x
    alloc colors
    exece
    mov oC0, r0
)", ShaderType::kPixel, k_);
  EXPECT_FALSE(r.killed);
  EXPECT_EQ(r.colors[0], (Float4{0.0f, 0.0f, 0.0f, 0.0f}));
  r = RunShader(R"(xvs_3_0
    exec
    kill_ge r0, c0, c1
    alloc position
    exece
    mov oPos, c0
)", ShaderType::kVertex, k_);
  EXPECT_TRUE(r.vertex_kill);
  EXPECT_EQ(r.position, (Float4{1.0f, 2.0f, 3.0f, 4.0f}));
}

TEST_F(InterpreterTest, SetpPushOps) {
  // p0 = a.w == 0 && b.w op 0; result x = (a.x == 0 && b.x op 0) ? 0 : a.x + 1.
  C(0, 0.0f, 0.0f, 0.0f, 0.0f);
  C(1, 1.0f, 0.0f, 0.0f, 1.0f);
  C(2, 7.0f, 0.0f, 0.0f, 0.0f);
  C(3, 10.0f, 20.0f, 30.0f, 40.0f);
  Float4 p = Ps(R"(
    exec
    setp_gt_push r0, c0, c1
    (p0) mov r0.y, c3.y
    setp_eq_push r1, c2, c1
    (!p0) mov r0.z, c3.z
    mov r0.w, r1.x
    alloc colors
    exece
    mov oC0, r0
)", k_);
  EXPECT_EQ(p, (Float4{0.0f, 20.0f, 30.0f, 8.0f}));
}

TEST_F(InterpreterTest, A0RelativeConstantsFromMaxaAndMaxas) {
  C(0, 0.0f, 0.0f, 0.0f, 2.4f);  // a0 = floor(2.4 + 0.5) = 2
  C(3, 7.0f, 8.0f, 9.0f, 10.0f);
  C(4, 11.0f, 12.0f, 13.0f, 14.0f);
  C(5, 0.0f, 2.6f, 0.0f, 0.0f);
  EXPECT_EQ(Ps(R"(
    exec
    maxa r0, c0, c0
    alloc colors
    exece
    mov oC0, c[1+a0]
)", k_), (Float4{7.0f, 8.0f, 9.0f, 10.0f}));
  // maxas rounds (2.6 -> 3), maxasf floors (2.6 -> 2).
  EXPECT_EQ(Ps(R"(
    exec
    maxas r0.x, c5.yy
    alloc colors
    exece
    mov oC0, c[1+a0]
)", k_), (Float4{11.0f, 12.0f, 13.0f, 14.0f}));
  EXPECT_EQ(Ps(R"(
    exec
    maxasf r0.x, c5.yy
    alloc colors
    exece
    mov oC0, c[1+a0]
)", k_), (Float4{7.0f, 8.0f, 9.0f, 10.0f}));
}

TEST_F(InterpreterTest, LoopAccumulatesWithALRelativeConstantsAndTemps) {
  // i1: count 4, start 2, step 1 -> aL = 2, 3, 4, 5.
  k_.loop_constants[1] = 4u | (2u << 8) | (1u << 16);
  for (uint32_t i = 0; i < 8; ++i) C(10 + i, float(1u << i), 0.0f, 0.0f, 0.0f);
  C(0, 1.0f, 1.0f, 1.0f, 1.0f);
  ShaderResult r = RunShader(R"(xps_3_0
    exec
    mov r0, c1
    loop i1, L3
L1:
    exec
    add r0.x, r0.x, c[10+aL].x
    add r0.y, r0.y, c0.y
    mov r[4+aL], c0
    endloop i1, L1
L3:
    alloc colors
    exece
    mov oC0, r0
)", ShaderType::kPixel, k_);
  EXPECT_EQ(r.colors[0][0], 4.0f + 8.0f + 16.0f + 32.0f);
  EXPECT_EQ(r.colors[0][1], 4.0f);
  // Count 0 skips the body; a negative step walks aL down.
  k_.loop_constants[1] = 0u | (2u << 8);
  r = RunShader(R"(xps_3_0
    loop i1, L2
L1:
    exec
    add r0.x, r0.x, c0.x
    endloop i1, L1
L2:
    alloc colors
    exece
    mov oC0, r0
)", ShaderType::kPixel, k_);
  EXPECT_EQ(r.colors[0][0], 0.0f);
  k_.loop_constants[2] = 3u | (7u << 8) | (0xFEu << 16);  // aL = 7, 5, 3
  r = RunShader(R"(xps_3_0
    loop i2, L2
L1:
    exec
    add r0.x, r0.x, c[10+aL].x
    endloop i2, L1
L2:
    alloc colors
    exece
    mov oC0, r0
)", ShaderType::kPixel, k_);
  EXPECT_EQ(r.colors[0][0], 128.0f + 32.0f + 8.0f);
}

TEST_F(InterpreterTest, PredicatedLoopBreak) {
  // Count 10, but the body sets p0 once r0.x reaches 3 and endloop breaks on p0.
  k_.loop_constants[0] = 10u;
  C(0, 1.0f, 3.0f, 0.0f, 0.0f);
  ShaderResult r = RunShader(R"(xps_3_0
    loop i0, L2
L1:
    exec
    add r0.x, r0.x, c0.x
    setp_ge r1.x, r0.x
    add r1.y, r0.x, -c0.y
    setp_ge r1.x, r1.y
    (p0) endloop i0, L1
L2:
    alloc colors
    exece
    mov oC0, r0
)", ShaderType::kPixel, k_);
  EXPECT_EQ(r.colors[0][0], 3.0f);
}

TEST_F(InterpreterTest, CallReturnJumpAndBoolConditions) {
  C(0, 1.0f, 0.0f, 0.0f, 0.0f);
  C(1, 0.0f, 100.0f, 0.0f, 0.0f);
  k_.bool_constants[0] = 1u << 5;  // b5 true, b6 false
  const std::string text = R"(xps_3_0
    exec
    mov r0, c1.x
    call L5
    call L5
    cjmp b5, L4
    exec
    add r0.y, r0.y, c1.y
L4:
    alloc colors
    exece
    mov oC0, r0
L5:
    exec
    add r0.x, r0.x, c0.x
    ret
)";
  ShaderResult r = RunShader(text, ShaderType::kPixel, k_);
  EXPECT_EQ(r.colors[0], (Float4{2.0f, 0.0f, 0.0f, 0.0f}));
  k_.bool_constants[0] = 0;  // the jump is not taken: +100 in y
  r = RunShader(text, ShaderType::kPixel, k_);
  EXPECT_EQ(r.colors[0], (Float4{2.0f, 100.0f, 0.0f, 0.0f}));
  // cexec on b6 / !b6 and (p0) exec.
  C(2, 0.0f, 0.0f, 0.0f, 0.0f);
  k_.bool_constants[0] = 0;
  r = RunShader(R"(xps_3_0
    cexec b6
    add r0.x, r0.x, c0.x
    cexec !b6
    add r0.y, r0.y, c0.x
    exec
    setp_eq r1.x, c2.x
    (p0) exec
    add r0.z, r0.z, c0.x
    (!p0) exec
    add r0.w, r0.w, c0.x
    alloc colors
    exece
    mov oC0, r0
)", ShaderType::kPixel, k_);
  EXPECT_EQ(r.colors[0], (Float4{0.0f, 1.0f, 1.0f, 0.0f}));
}

TEST_F(InterpreterTest, RunawayControlFlowIsCutOff) {
  ShaderResult r = RunShader(R"(xps_3_0
L0:
    exec
    add r0.x, r0.x, c0.x
    jmp L0
    alloc colors
    exece
    mov oC0, r0
)", ShaderType::kPixel, k_);
  EXPECT_TRUE(r.step_limit_hit);
  EXPECT_FALSE(r.notes.empty());
}

TEST_F(InterpreterTest, PixelInputsParamGenDepthAndSecondColor) {
  ShaderInputs in;
  in.interpolator_count = 2;
  in.interpolators[0] = {0.25f, 0.5f, 0.75f, 1.0f};
  in.interpolators[1] = {2.0f, 2.0f, 2.0f, 2.0f};
  in.param_gen_register = 2;
  in.param_gen = {10.5f, 20.5f, 0.0f, 0.0f};
  ShaderResult r = RunShader(R"(xps_3_0
    exec
    mul r3, r0, r1
    alloc colors
    exec
    mov oC1, r3
    exece
    mov oDepth.x, r2.y
)", ShaderType::kPixel, k_, in);
  EXPECT_EQ(r.color_mask, 2u);
  EXPECT_EQ(r.colors[1], (Float4{0.5f, 1.0f, 1.5f, 2.0f}));
  EXPECT_TRUE(r.depth_written);
  EXPECT_EQ(r.depth, 20.5f);
}

// ---- Vertex fetch ----------------------------------------------------------------------------

class VertexFetchTest : public InterpreterTest {
 protected:
  // Vertex fetch constant `slot`: `dwords` at guest dword address 64, with `endian`.
  void SetBuffer(uint32_t slot, const std::vector<uint32_t>& host_words, uint32_t endian) {
    memory_.assign(64 + host_words.size() + 16, 0);
    for (size_t i = 0; i < host_words.size(); ++i) {
      // Store as the guest would (big-endian for k8in32), i.e. the swap undoes it.
      memory_[64 + i] = EndianSwap32(host_words[i], endian);
    }
    k_.fetch_constants[slot * 2] = (64u << 2) | 3u;
    k_.fetch_constants[slot * 2 + 1] = endian | (uint32_t(host_words.size()) << 2);
    cb_.read_memory = [this](uint32_t address, uint32_t& word) {
      if (address % 4 != 0 || address / 4 >= memory_.size()) return false;
      word = memory_[address / 4];
      return true;
    };
  }
  Float4 Fetch(const std::string& vfetch, float index) {
    ShaderInputs in;
    in.vertex_index = index;
    ShaderResult r = RunShader("xvs_3_0\n    exec\n    " + vfetch +
                                   "\n    alloc position\n    exece\n    mov oPos, r1\n",
                               ShaderType::kVertex, k_, in, cb_);
    return r.position;
  }
  std::vector<uint32_t> memory_;
  InterpreterCallbacks cb_;
};

TEST_F(VertexFetchTest, FloatFormatsStrideOffsetAndBounds) {
  SetBuffer(95, {Bits(1.0f), Bits(2.0f), Bits(3.0f), Bits(4.0f), Bits(5.0f), Bits(6.0f)}, 2);
  EXPECT_EQ(Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=2", 1.0f),
            (Float4{3.0f, 4.0f, 0.0f, 1.0f}));
  EXPECT_EQ(Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_FLOAT, Stride=3", 1.0f),
            (Float4{4.0f, 5.0f, 6.0f, 1.0f}));
  EXPECT_EQ(Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_FLOAT, Stride=1, Offset=1", 0.7f),
            (Float4{2.0f, 0.0f, 0.0f, 1.0f}));  // floor(0.7) = 0
  EXPECT_EQ(Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_FLOAT, Stride=1, RoundIndex=true",
                  0.7f),
            (Float4{2.0f, 0.0f, 0.0f, 1.0f}));  // floor(0.7 + 0.5) = 1
  // Past the buffer's end: zeros.
  EXPECT_EQ(Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4", 1.0f),
            (Float4{5.0f, 6.0f, 0.0f, 0.0f}));
  // Destination swizzle with constants.
  EXPECT_EQ(Fetch("vfetch_full r1.yx01, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=2", 0.0f),
            (Float4{2.0f, 1.0f, 0.0f, 1.0f}));
}

TEST_F(VertexFetchTest, PackedFormatsSignedNormalizedAndExpAdjust) {
  SetBuffer(95, {0x80FF4001u, 0xC0000000u | (512u << 20) | (1023u << 10) | 1u}, 2);
  // 8_8_8_8 unsigned normalised: x = 0x01, y = 0x40, z = 0xFF, w = 0x80.
  Float4 v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_8_8_8_8, Stride=2", 0.0f);
  EXPECT_EQ(v, (Float4{1.0f / 255.0f, 64.0f / 255.0f, 1.0f, 128.0f / 255.0f}));
  // Signed normalised: 0xFF = -1 -> -1/127; 0x80 = -128 -> clamped to -1.
  v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_8_8_8_8, Stride=2, Signed=true", 0.0f);
  EXPECT_EQ(v, (Float4{1.0f / 127.0f, 64.0f / 127.0f, -1.0f / 127.0f, -1.0f}));
  // Integer, with exp adjust 2^-1.
  v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_8_8_8_8, Stride=2, NumFormat=integer, "
            "ExpAdjust=-1", 0.0f);
  EXPECT_EQ(v, (Float4{0.5f, 32.0f, 127.5f, 64.0f}));
  // 2_10_10_10 integer: x = 1, y = 1023, z = 512, w = 3.
  v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_2_10_10_10, Stride=2, Offset=1, "
            "NumFormat=integer", 0.0f);
  EXPECT_EQ(v, (Float4{1.0f, 1023.0f, 512.0f, 3.0f}));
  // Signed repeating-fraction "no zero" mode: (2x + 1) / (2^w - 1).
  v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_8_8_8_8, Stride=2, Signed=true, "
            "SignedRFMode=true", 0.0f);
  EXPECT_EQ(v[0], 3.0f / 255.0f);
  EXPECT_EQ(v[3], -255.0f / 255.0f);
}

TEST_F(VertexFetchTest, HalfFloatsAndSixteenBitFormatsWithEndianSwaps) {
  // 16_16_FLOAT: 0x3C00 = 1.0, 0xC000 = -2.0; exponent 31 is an ordinary exponent on Xenos.
  SetBuffer(95, {0xC0003C00u, 0x00017C00u}, 1);  // k8in16
  EXPECT_EQ(Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_16_16_FLOAT, Stride=2", 0.0f),
            (Float4{1.0f, -2.0f, 0.0f, 1.0f}));
  Float4 v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_16_16_16_16_FLOAT, Stride=2", 0.0f);
  EXPECT_EQ(v[2], 65536.0f);
  EXPECT_EQ(v[3], std::ldexp(1.0f, -24));
  SetBuffer(95, {0x8000FFFFu, 0x00027FFFu}, 3);  // k16in32
  v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_16_16_16_16, Stride=2, NumFormat=integer",
            0.0f);
  EXPECT_EQ(v, (Float4{65535.0f, 32768.0f, 32767.0f, 2.0f}));
  v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_16_16, Stride=2, NumFormat=integer, "
            "Signed=true", 0.0f);
  EXPECT_EQ(v, (Float4{-1.0f, -32768.0f, 0.0f, 1.0f}));
  // 10_11_11 and 11_11_10 integer.
  const uint32_t packed = 5u | (6u << 11) | (7u << 22);
  SetBuffer(95, {packed}, 0);
  EXPECT_EQ(Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_10_11_11, Stride=1, "
                  "NumFormat=integer", 0.0f),
            (Float4{5.0f, 6.0f, 7.0f, 1.0f}));
  const uint32_t packed2 = 5u | (6u << 10) | (7u << 21);
  SetBuffer(95, {packed2}, 0);
  EXPECT_EQ(Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_11_11_10, Stride=1, "
                  "NumFormat=integer", 0.0f),
            (Float4{5.0f, 6.0f, 7.0f, 1.0f}));
}

TEST_F(VertexFetchTest, ThirtyTwoBitIntegerFormatsAndMiniFetch) {
  SetBuffer(95, {0xFFFFFFFFu, 7u, 0x80000000u, 9u}, 2);
  Float4 v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32, Stride=4, "
                   "NumFormat=integer, Signed=true", 0.0f);
  EXPECT_EQ(v, (Float4{-1.0f, 7.0f, -2147483648.0f, 9.0f}));
  v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32, Stride=4, NumFormat=integer", 0.0f);
  EXPECT_EQ(v, (Float4{4294967295.0f, 7.0f, 0.0f, 1.0f}));
  v = Fetch("vfetch_full r1, r0.x, vf0, DataFormat=FMT_32, Stride=4", 0.0f);
  EXPECT_EQ(v[0], 1.0f);  // unsigned normalised 0xFFFFFFFF
  // A mini fetch reuses the full fetch's address: offset 3 of vertex 0.
  ShaderInputs in;
  ShaderResult r = RunShader(R"(xvs_3_0
    exec
    vfetch_full r2, r0.x, vf0, DataFormat=FMT_32, Stride=4, NumFormat=integer
    vfetch_mini r1.x___, r0.x, vf0, Offset=3, DataFormat=FMT_32, NumFormat=integer
    alloc position
    exece
    mov oPos, r1
)", ShaderType::kVertex, k_, in, cb_);
  EXPECT_EQ(r.position[0], 9.0f);
}

TEST_F(InterpreterTest, TextureFetchGoesThroughTheCallbackAndTheConstantSwizzle) {
  C(0, 1.5f, 0.5f, 0.0f, 0.0f);
  // Fetch constant 2's swizzle = w, z, y, x.
  k_.fetch_constants[2 * 6 + 3] = (3u | (2u << 3) | (1u << 6) | (0u << 9)) << 1;
  InterpreterCallbacks cb;
  uint32_t seen_slot = 99;
  Float4 seen_coords{};
  cb.texture_fetch = [&](uint32_t slot, const Float4& coords, const FetchInstruction& f) {
    seen_slot = slot;
    seen_coords = coords;
    EXPECT_TRUE(f.tx_coord_denorm);
    return Float4{0.0f, 1.0f, 0.25f, 1.0f};
  };
  ShaderResult r = RunShader(R"(xps_3_0
    exec
    mov r1, c0
    tfetch2D r0, r1.yx, tf2, UnnormalizedTextureCoords=true
    alloc colors
    exece
    mov oC0, r0
)", ShaderType::kPixel, k_, {}, cb);
  EXPECT_EQ(seen_slot, 2u);
  EXPECT_EQ(seen_coords[0], 0.5f);
  EXPECT_EQ(seen_coords[1], 1.5f);
  EXPECT_EQ(r.colors[0], (Float4{1.0f, 0.25f, 1.0f, 0.0f}));
  // Without a callback: zeros and a note.
  r = RunShader(R"(xps_3_0
    exec
    tfetch2D r0, r0.xy, tf0
    alloc colors
    exece
    mov oC0, r0
)", ShaderType::kPixel, k_);
  EXPECT_EQ(r.colors[0], (Float4{0.0f, 0.0f, 0.0f, 0.0f}));
  ASSERT_FALSE(r.notes.empty());
}

TEST_F(InterpreterTest, MemexportIsReportedNotExecuted) {
  ShaderResult r = RunShader(R"(xvs_3_0
    alloc export, Size=2
    exec
    mov eA, c0
    mov eM0, c1
    alloc position
    exece
    mov oPos, c0
)", ShaderType::kVertex, k_);
  EXPECT_TRUE(r.memexport);
  EXPECT_FALSE(r.notes.empty());
}

// Random but decodable microcode (every CF opcode with in-range targets, random ALU and fetch
// slots) runs to completion or to the step limit on any constants and memory: no crash, no hang,
// no undefined behaviour (the suite runs under ASan/UBSan in CI).
TEST(InterpreterRobustness, RandomDecodableMicrocodeTerminates) {
  std::mt19937 g(20261122);
  auto below = [&](uint32_t n) { return uint32_t(g() % n); };
  int decoded = 0, ran = 0, cut_off = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    std::vector<uint32_t> dwords = test::RandomMicrocode(g, true);
    const ShaderType type = below(2) ? ShaderType::kVertex : ShaderType::kPixel;
    Shader shader;
    try {
      shader = Decode(dwords, type);
    } catch (const Error&) {
      continue;
    }
    ++decoded;
    InterpreterConstants k;
    for (auto& c : k.float_constants) {
      for (float& f : c) f = std::bit_cast<float>(uint32_t(g()));
    }
    for (uint32_t& b : k.bool_constants) b = uint32_t(g());
    for (uint32_t& l : k.loop_constants) l = uint32_t(g());
    for (uint32_t& f : k.fetch_constants) f = uint32_t(g());
    InterpreterCallbacks cb;
    cb.read_memory = [&](uint32_t, uint32_t& word) {
      word = uint32_t(g());
      return true;
    };
    cb.texture_fetch = [](uint32_t, const Float4& c, const FetchInstruction&) { return c; };
    ShaderInputs in;
    in.vertex_index = float(below(1000));
    in.interpolator_count = 16;
    const ShaderResult r = Interpreter(shader).Run(k, in, cb);
    ++ran;
    cut_off += r.step_limit_hit;
  }
  EXPECT_GT(decoded, 700);
  EXPECT_EQ(ran, decoded);
  std::printf("random microcode: %d decoded and ran, %d cut off at the step limit\n", ran, cut_off);
}

}  // namespace
}  // namespace xnt::ucode::interpreter_test
