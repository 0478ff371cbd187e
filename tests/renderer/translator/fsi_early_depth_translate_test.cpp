// The fsi output merger's early depth/stencil variant (TranslationOptions::fsi_early_depth,
// glsl_output_merger.h): emitted only for pixel shaders whose body cannot change coverage or
// depth or write memory, with the critical section opened before the body and closed after the
// colour writes; everywhere else the late order. The draws themselves are checked against the
// cpu path in tests/renderer/fsi/fsi_early_depth_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "translate_util.h"

namespace xnt::vk::test {
namespace {

TranslationOptions FsiOptions(uint32_t merger, bool early) {
  TranslationOptions o;
  o.fsi_output_merger = merger;
  o.fsi_early_depth = early;
  return o;
}

const char* const kColorShader = R"(
xps_3_0
    alloc colors
    exece
    mov oC0, c0
)";

size_t Find(const std::string& text, const std::string& what) {
  const size_t at = text.find(what);
  EXPECT_NE(at, std::string::npos) << "no '" << what << "' in the GLSL";
  return at;
}

TEST(FsiEarlyDepthTranslation, ColourShaderTestsDepthBeforeTheBodyInsideTheCriticalSection) {
  const Translated t = TranslateAssembly(kColorShader, FsiOptions(1, true));
  EXPECT_TRUE(t.result.reflection.fsi_early_depth);
  const std::string& g = t.result.glsl;
  const size_t begin = Find(g, "beginInvocationInterlockARB();");
  const size_t test = Find(g, "xe_om_depth_stencil_pixel(xe_om_coverage, xe_om_z)");
  const size_t quad = Find(g, "if (xe_om_quad_any(");
  const size_t body = Find(g, "int xe_pc = 0;");
  const size_t colors = Find(g, "xe_om_write_colors(uvec2(gl_FragCoord.xy), xe_om_pass");
  const size_t end = Find(g, "endInvocationInterlockARB();");
  EXPECT_LT(begin, test);
  EXPECT_LT(test, quad);
  EXPECT_LT(quad, body);
  EXPECT_LT(body, colors);
  EXPECT_LT(colors, end);
  // No late merge after the body.
  EXPECT_EQ(g.find("xe_om_merge(xe_om_coverage"), std::string::npos);
  EXPECT_EQ(ValidateSpirv(t.result.spirv), "");
}

TEST(FsiEarlyDepthTranslation, WithoutTheOptionTheMergerComesAfterTheBody) {
  const Translated t = TranslateAssembly(kColorShader, FsiOptions(1, false));
  EXPECT_FALSE(t.result.reflection.fsi_early_depth);
  const std::string& g = t.result.glsl;
  EXPECT_LT(Find(g, "int xe_pc = 0;"), Find(g, "beginInvocationInterlockARB();"));
  EXPECT_NE(g.find("xe_om_merge(xe_om_coverage, xe_om_z, xe_o_color);"), std::string::npos);
  EXPECT_EQ(g.find("xe_om_quad_any(xe_om_pass"), std::string::npos);
}

TEST(FsiEarlyDepthTranslation, UnorderedModeHasNoInterlockCalls) {
  const Translated t = TranslateAssembly(kColorShader, FsiOptions(2, true));
  EXPECT_TRUE(t.result.reflection.fsi_early_depth);
  EXPECT_EQ(t.result.glsl.find("InvocationInterlockARB"), std::string::npos);
  EXPECT_NE(t.result.glsl.find("if (xe_om_quad_any("), std::string::npos);
  EXPECT_EQ(ValidateSpirv(t.result.spirv), "");
}

TEST(FsiEarlyDepthTranslation, KillDepthExportAndMemexportKeepTheLateOrder) {
  const char* const kill = R"(
xps_3_0
    exec
    kill_gt r1, c0, c1
    alloc colors
    exece
    mov oC0, c2
)";
  const char* const depth = R"(
xps_3_0
    alloc colors
    exece
    mov oC0, c0
    mov oDepth.x, c1.x
)";
  const char* const memexport = R"(
xps_3_0
    alloc colors
    exec
    mov oC0, c0
    alloc export
    exece
    mov eA, c2
)";
  const Translated k = TranslateAssembly(kill, FsiOptions(1, true));
  EXPECT_TRUE(k.result.reflection.kills);
  const Translated d = TranslateAssembly(depth, FsiOptions(1, true));
  EXPECT_TRUE(d.result.reflection.writes_depth);
  const Translated m = TranslateAssembly(memexport, FsiOptions(1, true));
  EXPECT_TRUE(m.result.reflection.uses_memexport);
  for (const Translated* t : {&k, &d, &m}) {
    const std::string& text = t->result.glsl;
    EXPECT_FALSE(t->result.reflection.fsi_early_depth) << text;
    EXPECT_EQ(text.find("xe_om_quad_any(xe_om_pass"), std::string::npos) << text;
    EXPECT_NE(text.find("xe_om_merge(xe_om_coverage, xe_om_z, xe_o_color);"), std::string::npos)
        << text;
  }
}

// A texture fetch takes implicit derivatives, which the early variant's quad-uniform condition
// would leave undefined (GLSL: derivatives need control flow uniform across the primitive).
TEST(FsiEarlyDepthTranslation, ATextureFetchKeepsTheLateOrder) {
  const char* const fetch = R"(
xps_3_0
    exec
    tfetch2D r1, r0.xy, tf0
    alloc colors
    exece
    mov oC0, r1
)";
  const Translated t = TranslateAssembly(fetch, FsiOptions(1, true));
  EXPECT_FALSE(t.result.reflection.fsi_early_depth) << t.result.glsl;
  EXPECT_EQ(t.result.glsl.find("xe_om_quad_any(xe_om_pass"), std::string::npos);
  EXPECT_NE(t.result.glsl.find("xe_om_merge(xe_om_coverage, xe_om_z, xe_o_color);"),
            std::string::npos);
}

TEST(FsiEarlyDepthTranslation, TheFboPathIgnoresTheOption) {
  const Translated t = TranslateAssembly(kColorShader, FsiOptions(0, true));
  EXPECT_FALSE(t.result.reflection.fsi_early_depth);
  EXPECT_EQ(t.result.glsl.find("xe_om_"), std::string::npos);
}

}  // namespace
}  // namespace xnt::vk::test
