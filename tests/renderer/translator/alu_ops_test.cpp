// The rest of the ALU: scalar ops and the previous-scalar register, predicate set/pop/restore,
// set-if/conditional-select ops with NaN and -0, dst/cube, a0-relative constants, saturation,
// colour exponent bias, constant+temp scalar ops, texture fetch with unnormalised coordinates and
// the fetch-constant swizzle. Each case draws one pixel on lavapipe and checks oC0 exactly.
#include <cfloat>
#include <cmath>
#include <limits>

#include "translate_util.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::vk::test::alu_ops_test {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();

class AluOpsTest : public DrawFixture {
 protected:
  std::vector<float> Run(const std::string& body) {
    return RunPixelShader(TranslateAssembly("xps_3_0\n" + body));
  }
};

TEST_F(AluOpsTest, TwoComponentScalarOps) {
  SetPsConstant(0, 3.0f, 5.0f, -2.0f, 0.25f);
  auto p = Run(R"(
    exec
    adds r0.x, c0.xy
    muls r0.y, c0.xz
    subs r0.z, c0.yx
    maxs r0.w, c0.zw
    alloc colors
    exece
    mov oC0, r0
)");
  EXPECT_EQ(p[0], 8.0f);
  EXPECT_EQ(p[1], -6.0f);
  EXPECT_EQ(p[2], 2.0f);
  EXPECT_EQ(p[3], 0.25f);
}

TEST_F(AluOpsTest, RoundingOpsAndPreviousScalar) {
  SetPsConstant(0, -1.25f, 10.0f, 0.0f, 0.0f);
  auto p = Run(R"(
    exec
    frcs r0.x, c0.x
    truncs r0.y, c0.x
    floors r0.z, c0.x
    adds_prev r0.w, c0.y
    alloc colors
    exece
    mov oC0, r0
)");
  EXPECT_EQ(p[0], 0.75f);
  EXPECT_EQ(p[1], -1.0f);
  EXPECT_EQ(p[2], -2.0f);
  EXPECT_EQ(p[3], 8.0f);  // 10 + ps (-2 from floors)
}

TEST_F(AluOpsTest, PredicateInvertPopClearRestore) {
  SetPsConstant(0, 1.0f, 0.0f, 2.0f, 3.0f);
  auto p = Run(R"(
    exec
    setp_inv r0.x, c0.x
    (p0) mov r0.y, c0.w
    setp_pop r0.z, c0.z
    (!p0) mov r0.w, c0.z
    alloc colors
    exece
    mov oC0, r0
)");
  EXPECT_EQ(p[0], 0.0f);  // src == 1: p0 = true, ps = 0
  EXPECT_EQ(p[1], 3.0f);
  EXPECT_EQ(p[2], 1.0f);  // 2 - 1 = 1 > 0: p0 = false, ps = 1
  EXPECT_EQ(p[3], 2.0f);
  p = Run(R"(
    exec
    setp_clr r0.x
    setp_rstr r0.y, c0.y
    (p0) mov r0.z, c0.x
    setp_ne r0.w, c0.x
    alloc colors
    exece
    mov oC0, r0
)");
  EXPECT_EQ(p[0], FLT_MAX);
  EXPECT_EQ(p[1], 0.0f);  // src == 0: p0 = true, ps = 0
  EXPECT_EQ(p[2], 1.0f);
  EXPECT_EQ(p[3], 0.0f);  // 1 != 0: p0 = true, ps = 0
}

TEST_F(AluOpsTest, SetIfOpsTreatNaNAsUnorderedOnlyForSne) {
  SetPsConstant(0, kNaN, 1.0f, 2.0f, -0.0f);
  SetPsConstant(1, kNaN, 1.0f, 3.0f, 0.0f);
  SetPsConstant(2, 2.0f, 2.0f, 2.0f, 2.0f);
  auto p = Run(R"(
    exec
    sne r0, c0, c1
    seq r1, c0, c1
    alloc colors
    exece
    mad oC0, r1, c2, r0
)");
  EXPECT_EQ(p[0], 1.0f);  // NaN != NaN; NaN == NaN is false
  EXPECT_EQ(p[1], 2.0f);
  EXPECT_EQ(p[2], 1.0f);
  EXPECT_EQ(p[3], 2.0f);  // -0 == +0
}

TEST_F(AluOpsTest, ConditionalSelectAndDst) {
  SetPsConstant(0, -1.0f, 0.0f, -0.0f, kNaN);
  SetPsConstant(1, 10.0f, 10.0f, 10.0f, 10.0f);
  SetPsConstant(2, 20.0f, 20.0f, 20.0f, 20.0f);
  auto p = Run(R"(
    alloc colors
    exece
    cndge oC0, c0, c1, c2
)");
  EXPECT_EQ(p[0], 20.0f);
  EXPECT_EQ(p[1], 10.0f);
  EXPECT_EQ(p[2], 10.0f);  // -0 >= 0
  EXPECT_EQ(p[3], 20.0f);  // NaN >= 0 is false
  SetPsConstant(0, 9.0f, 2.0f, 3.0f, 9.0f);
  SetPsConstant(1, 9.0f, 4.0f, 9.0f, 5.0f);
  p = Run(R"(
    alloc colors
    exece
    dst oC0, c0, c1
)");
  EXPECT_EQ(p[0], 1.0f);
  EXPECT_EQ(p[1], 8.0f);
  EXPECT_EQ(p[2], 3.0f);
  EXPECT_EQ(p[3], 5.0f);
}

TEST_F(AluOpsTest, CubeSelectsTheMajorAxis) {
  // v = (0.5, -2, 1): Y major, negative -> face 3; tc = -z, sc = x, 2 * ma = 2y.
  SetPsConstant(0, 0.5f, -2.0f, 1.0f, 0.0f);
  auto p = Run(R"(
    alloc colors
    exece
    cube oC0, c0.zzxy, c0.yxzz
)");
  EXPECT_EQ(p[0], -1.0f);
  EXPECT_EQ(p[1], 0.5f);
  EXPECT_EQ(p[2], -4.0f);
  EXPECT_EQ(p[3], 3.0f);
}

TEST_F(AluOpsTest, MaxaSetsA0ForRelativeConstants) {
  SetPsConstant(0, 0.0f, 0.0f, 0.0f, 2.4f);  // a0 = floor(2.4 + 0.5) = 2
  SetPsConstant(3, 7.0f, 8.0f, 9.0f, 10.0f);
  auto p = Run(R"(
    exec
    maxa r0, c0, c0
    alloc colors
    exece
    mov oC0, c[1+a0]
)");
  EXPECT_EQ(p[0], 7.0f);
  EXPECT_EQ(p[3], 10.0f);
}

TEST_F(AluOpsTest, SaturateAndColorExponentBias) {
  SetPsConstant(0, -1.0f, 0.5f, 2.0f, kNaN);
  auto p = Run(R"(
    alloc colors
    exece
    mov_sat oC0, c0
)");
  EXPECT_EQ(Bits(p[0]), 0u);
  EXPECT_EQ(p[1], 0.5f);
  EXPECT_EQ(p[2], 1.0f);
  EXPECT_EQ(Bits(p[3]), 0u);  // NaN saturates to 0
  harness_->system.color_exp_bias[0] = 2;
  p = Run(R"(
    alloc colors
    exece
    mov_sat oC0, c0
)");
  EXPECT_EQ(p[1], 2.0f);
  EXPECT_EQ(p[2], 4.0f);
}

TEST_F(AluOpsTest, ConstantTempScalarOpsAndSpecialFunctions) {
  SetPsConstant(0, 3.0f, 0.0f, 0.0f, 0.0f);
  SetPsConstant(1, 0.0f, 4.0f, 0.0f, 0.0f);
  auto p = Run(R"(
    exec
    mov r1, c1
    mulsc r0.x, c0.x, r1.y
    addsc r0.y, c0.x, r1.y
    subsc r0.z, c0.x, r1.y
    sqrt r0.w, c1.y
    alloc colors
    exece
    mov oC0, r0
)");
  EXPECT_EQ(p[0], 12.0f);
  EXPECT_EQ(p[1], 7.0f);
  EXPECT_EQ(p[2], -1.0f);
  EXPECT_EQ(p[3], 2.0f);
  p = Run(R"(
    exec
    rsqc r0.x, c0.y
    rsqf r0.y, c0.y
    exp r0.z, c0.x
    sin r0.w, c0.y
    alloc colors
    exece
    mov oC0, r0
)");
  EXPECT_EQ(p[0], FLT_MAX);
  EXPECT_EQ(Bits(p[1]), 0u);
  EXPECT_EQ(p[2], 8.0f);
  EXPECT_EQ(p[3], 0.0f);
}

TEST_F(AluOpsTest, TextureFetchUnnormalizedCoordinatesAndConstantSwizzle) {
  SetPsConstant(0, 1.5f, 0.5f, 0.0f, 0.0f);
  // Fetch constant 0 swizzle = w, z, y, x.
  harness_->constants.fetch_constants[3] = (3u | (2u << 3) | (1u << 6) | (0u << 9)) << 1;
  auto ps = TranslateAssembly(R"(xps_3_0
    exec
    mov r1, c0
    tfetch2D r0, r1.xy, tf0, UnnormalizedTextureCoords=true
    alloc colors
    exece
    mov oC0, r0
)");
  EXPECT_EQ(ps.result.reflection.texture_slots, 1u);
  auto p = RunPixelShader(ps);
  // Texel (1, 0) is green (0, 1, 0, 1); swizzled wzyx -> (1, 0, 1, 0).
  EXPECT_EQ(p[0], 1.0f);
  EXPECT_EQ(p[1], 0.0f);
  EXPECT_EQ(p[2], 1.0f);
  EXPECT_EQ(p[3], 0.0f);
}

}  // namespace
}  // namespace xnt::vk::test::alu_ops_test
