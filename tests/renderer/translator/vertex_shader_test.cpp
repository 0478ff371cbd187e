// Translated vertex shaders: full and mini vertex fetches, position export through the VTE
// (1/W, XY/W, ndc scale/offset), point size export, interpolators to the pixel shader.
#include "translate_util.h"

namespace xnt::vk::test {
namespace {

class VertexShaderTest : public DrawFixture {};

constexpr const char* kVertexShader = R"(
xvs_3_0
    exec
    vfetch_full r1, r0.x, vf95, DataFormat=FMT_32_32_32_32_FLOAT, Stride=6
    vfetch_mini r2, r0.x, vf95, Offset=4, DataFormat=FMT_32_32_FLOAT
    alloc position
    exec
    mov oPos, r1
    mov oPts.x, c0.x
    alloc interpolators
    exece
    mov o0, r2
)";

TEST_F(VertexShaderTest, FetchesExportsAndViewportTransform) {
  auto vs = TranslateAssembly(kVertexShader);
  const ShaderReflection& r = vs.result.reflection;
  EXPECT_TRUE(r.writes_position);
  EXPECT_TRUE(r.writes_point_size);
  EXPECT_EQ(r.interpolators_written, 1u);
  EXPECT_EQ(r.vertex_fetch_slots[0], 1u);  // vf95 = vertex fetch constant 0

  // 4 points, one per pixel of a 4x1 target. Element: position xyzw (dwords 0-3), then 2 floats.
  auto write = [&](uint32_t v, float x, float y, float z, float w) {
    float element[6] = {x, y, z, w, 10.0f * float(v), 10.0f * float(v) + 1.0f};
    for (uint32_t i = 0; i < 6; ++i) {
      uint32_t d = Bits(element[i]);
      uint8_t* p = harness_->memory.data() + (v * 6 + i) * 4;
      p[0] = uint8_t(d >> 24);
      p[1] = uint8_t(d >> 16);
      p[2] = uint8_t(d >> 8);
      p[3] = uint8_t(d);
    }
  };
  harness_->constants.fetch_constants[0] = (0u << 2) | 3u;
  harness_->constants.fetch_constants[1] = 2u | (24u << 2);  // k8in32, 24 dwords
  SetVsConstant(0, 1.0f, 0.0f, 0.0f, 0.0f);  // point size 1
  auto ndc = [](uint32_t i) { return (2.0f * float(i) + 1.0f) / 4.0f - 1.0f; };
  for (uint32_t v = 0; v < 4; ++v) write(v, ndc(v), 0.0f, 0.0f, 1.0f);
  auto ps = PassThroughPixelShader();
  auto pixels = harness_->Draw(vs.result.spirv, ps, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 4, 4, 1);
  for (uint32_t v = 0; v < 4; ++v) {
    EXPECT_EQ(pixels[v * 4 + 0], 10.0f * float(v)) << "vertex " << v;
    EXPECT_EQ(pixels[v * 4 + 1], 10.0f * float(v) + 1.0f);
    EXPECT_EQ(pixels[v * 4 + 2], 0.0f);  // 32_32_FLOAT: z = 0, w = 1
    EXPECT_EQ(pixels[v * 4 + 3], 1.0f);
  }

  // Now the shader exports 1/W (W = 2) and XY already divided by W, and the VTE scales by 2 and
  // offsets by -0.5: final x = 2 * stored - 0.5 must land on the same pixel centres.
  harness_->system.flags = kXeSysFlagXyDividedByW;
  harness_->system.ndc_scale[0] = 2.0f;
  harness_->system.ndc_offset[0] = -0.5f;
  for (uint32_t v = 0; v < 4; ++v) write(v, (ndc(v) + 0.5f) / 2.0f, 0.0f, 0.0f, 0.5f);
  pixels = harness_->Draw(vs.result.spirv, ps, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 4, 4, 1);
  for (uint32_t v = 0; v < 4; ++v) {
    EXPECT_EQ(pixels[v * 4 + 0], 10.0f * float(v)) << "vertex " << v << " after VTE";
    EXPECT_EQ(pixels[v * 4 + 1], 10.0f * float(v) + 1.0f);
  }

  // vertex_base_index is added to gl_VertexIndex: 3 vertices starting at guest index 1 draw
  // vertices 1-3, leaving pixel 0 untouched.
  harness_->system.vertex_base_index = 1;
  pixels = harness_->Draw(vs.result.spirv, ps, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 3, 4, 1);
  EXPECT_EQ(pixels[0], harness_->clear_value);
  for (uint32_t v = 1; v < 4; ++v) EXPECT_EQ(pixels[v * 4 + 0], 10.0f * float(v));
}

TEST_F(VertexShaderTest, OutOfRangeFetchReadsZeros) {
  auto vs = TranslateAssembly(kVertexShader);
  // The buffer is 4 dwords: the position is inside, the mini fetch's two floats (dwords 4-5) are
  // past the end and read as zeros (then the format's defaults z = 0, w = 1).
  harness_->constants.fetch_constants[0] = (0u << 2) | 3u;
  harness_->constants.fetch_constants[1] = 2u | (4u << 2);
  SetVsConstant(0, 1.0f, 0.0f, 0.0f, 0.0f);
  float element[6] = {-0.75f, 0.0f, 0.0f, 1.0f, 5.0f, 6.0f};
  for (uint32_t i = 0; i < 6; ++i) {
    uint32_t d = Bits(element[i]);
    uint8_t* p = harness_->memory.data() + i * 4;
    p[0] = uint8_t(d >> 24);
    p[1] = uint8_t(d >> 16);
    p[2] = uint8_t(d >> 8);
    p[3] = uint8_t(d);
  }
  auto pixels = harness_->Draw(vs.result.spirv, PassThroughPixelShader(),
                               VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 1, 4, 1);
  EXPECT_EQ(pixels[0], 0.0f);
  EXPECT_EQ(pixels[1], 0.0f);
  EXPECT_EQ(pixels[2], 0.0f);
  EXPECT_EQ(pixels[3], 1.0f);
  for (uint32_t i = 1; i < 4; ++i) EXPECT_EQ(pixels[i * 4], harness_->clear_value);
}

TEST_F(VertexShaderTest, PixelShaderDepthExportAndMemexportAreReflected) {
  auto ps = TranslateAssembly(R"(
xps_3_0
    alloc colors
    exec
    mov oC0, c0
    alloc export
    exece
    mov oDepth.x, c1.x
    mov eA, c2
)");
  const ShaderReflection& r = ps.result.reflection;
  EXPECT_TRUE(r.writes_depth);
  EXPECT_TRUE(r.uses_memexport);
  EXPECT_NE(ps.result.glsl.find("gl_FragDepth = xe_o_depth.x"), std::string::npos);
  // Memexport is executed: the shared memory is writable and the end of the shader flushes.
  EXPECT_NE(ps.result.glsl.find("xe_memexport_flush(xe_eA, xe_eM, xe_eM_written)"),
            std::string::npos);
  EXPECT_EQ(ps.result.glsl.find("readonly buffer XeSharedMemory"), std::string::npos);
  EXPECT_EQ(ValidateSpirv(ps.result.spirv), "");
}

TEST(VertexShaderTranslationTest, FetchConstantPastTheEndWrapsWithANote) {
  // const_index 31 with const_index_sel 3 would be vertex fetch constant 96 (there are 96).
  auto vs = TranslateAssembly(R"(
xvs_3_0
    exec
    vfetch_full r1, r0.x, vf2, ConstIndexSel=3, DataFormat=FMT_32_FLOAT, Stride=1
    alloc position
    exece
    mov oPos, r1
)");
  EXPECT_EQ(vs.shader.AtSlot(vs.shader.cf_slots).fetch.VertexFetchConstant(), 96u);
  EXPECT_EQ(vs.result.reflection.vertex_fetch_slots[0], 1u);  // wrapped to 0
  ASSERT_FALSE(vs.result.reflection.notes.empty());
  EXPECT_NE(vs.result.reflection.notes[0].find("out of range"), std::string::npos);
  EXPECT_EQ(ValidateSpirv(vs.result.spirv), "");
}

}  // namespace
}  // namespace xnt::vk::test
