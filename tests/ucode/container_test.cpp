// Container loader on synthetic blobs built in the corpus layout: every field comes back, the
// disassembly carries the declarations, and damaged blobs are rejected with an offset.
#include <gtest/gtest.h>

#include "container_builder.h"
#include "xnt/base/error.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/disasm.h"

namespace xnt::ucode {
namespace {

test::ContainerSpec VertexSpec() {
  test::ContainerSpec s;
  s.type = ShaderType::kVertex;
  ConstantDecl m;
  m.name = "WorldViewProj";
  m.register_set = 2;
  m.register_index = 4;
  m.register_count = 4;
  m.param_class = 3;
  m.param_type = 3;
  m.rows = m.columns = 4;
  m.elements = 1;
  ConstantDecl b;
  b.name = "UseFog";
  b.register_set = 0;
  b.register_index = 2;
  b.register_count = 1;
  b.param_class = 0;
  b.param_type = 1;
  b.rows = b.columns = b.elements = 1;
  s.constants = {m, b};
  s.literals = {{200, {0.5f, -2.0f, 0.0f, 1.0f}}, {201, {3.0f, 0.25f, -1.0f, 8.0f}}};
  s.fetches = {{{0, 0}, 3, 0}, {{5, 1}, 4, 0}};
  InterpolatorDecl t;
  t.semantic = {5, 1};
  t.reg = 0;
  t.mask = 0x3;
  s.interpolators = {t};
  s.microcode = Assemble(
      "xvs_3_0\n"
      "    exec\n"
      "    vfetch r1, r0.x, position\n"
      "    vfetch r2.xy__, r0.x, texcoord1\n"
      "    alloc position\n"
      "    exec\n"
      "    dp4 oPos.x, c4, r1\n"
      "    dp4 oPos.y, c5, r1\n"
      "    dp4 oPos.z, c6, r1\n"
      "    dp4 oPos.w, c7, r1\n"
      "    alloc interpolators\n"
      "    exece\n"
      "    mul o0.xy, r2.xy, c200.xy\n");
  return s;
}

TEST(UcodeContainer, SyntheticVertexContainer) {
  const auto bytes = test::BuildContainer(VertexSpec());
  ASSERT_TRUE(IsContainer(bytes));
  const ContainerFile c = LoadContainer(bytes);
  EXPECT_EQ(c.type, ShaderType::kVertex);
  EXPECT_EQ(c.target, "vs_3_0");
  EXPECT_EQ(c.creator, "xenotrace-test");
  ASSERT_EQ(c.constants.size(), 2u);
  EXPECT_EQ(c.constants[0].name, "WorldViewProj");
  EXPECT_EQ(c.constants[0].register_index, 4u);
  EXPECT_EQ(c.constants[0].register_count, 4u);
  EXPECT_EQ(c.constants[1].register_set, 0u);
  ASSERT_EQ(c.literals.size(), 2u);
  EXPECT_EQ(c.literals[1].register_index, 201u);
  EXPECT_EQ(c.literals[1].value[1], 0.25f);
  ASSERT_EQ(c.vertex_fetches.size(), 2u);
  EXPECT_EQ(c.vertex_fetches[1].semantic.usage_index, 1u);
  EXPECT_EQ(c.vertex_fetches[1].slot, 4u);
  ASSERT_EQ(c.interpolators.size(), 1u);
  EXPECT_EQ(c.interpolators[0].mask, 0x3u);
  EXPECT_EQ(c.vs_resource(), 1u);
  EXPECT_EQ(c.microcode, VertexSpec().microcode);

  const std::string text = Disassemble(c);
  EXPECT_NE(text.find("defconst WorldViewProj, float, matrix_columns, [4, 4], c4-7\n"), std::string::npos) << text;
  EXPECT_NE(text.find("defconst UseFog, bool, scalar, [1, 1], b2\n"), std::string::npos);
  EXPECT_NE(text.find("config VsMaxReg=2\nconfig VsResource=1\n"), std::string::npos);
  EXPECT_NE(text.find("dcl_index r0.x\ndcl_texcoord1 o0.xy\n"), std::string::npos);
  EXPECT_NE(text.find("def c200, 0.5, -2, 0, 1\ndef c201, 3, 0.25, -1, 8\n"), std::string::npos);
  EXPECT_NE(text.find("    vfetch r2.xy__, r0.x, texcoord1\n"), std::string::npos);
  const AssembledShader a = AssembleShader(text);
  EXPECT_EQ(a.microcode, c.microcode);
  ASSERT_EQ(a.literals.size(), 2u);
  EXPECT_EQ(a.literals[0].value[1], -2.0f);
}

TEST(UcodeContainer, DamagedContainersAreRejected) {
  const auto good = test::BuildContainer(VertexSpec());
  for (size_t n = 0; n < good.size(); ++n) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + n);
    EXPECT_THROW(LoadContainer(cut), Error) << "cut at " << n;
  }
  // Every header/info word replaced by a huge value: rejected or loaded, never out of bounds
  // (ASan checks the latter).
  for (size_t w = 1; w < 80 && 4 * w + 4 <= good.size(); ++w) {
    std::vector<uint8_t> bad = good;
    StoreBE32(bad.data() + 4 * w, 0x7FFFFFF0u);
    try {
      (void)LoadContainer(bad);
    } catch (const Error&) {
    }
  }
  std::vector<uint8_t> magic = good;
  magic[3] ^= 0x40;
  EXPECT_FALSE(IsContainer(magic));
  EXPECT_THROW(LoadContainer(magic), Error);
}

TEST(UcodeContainer, PixelInterpolators) {
  test::ContainerSpec s;
  s.type = ShaderType::kPixel;
  InterpolatorDecl t;
  t.semantic = {5, 0};
  t.reg = 0;
  t.mask = 0x3;
  InterpolatorDecl col;
  col.semantic = {10, 0};
  col.reg = 1;
  col.mask = 0xF;
  s.interpolators = {t, col};
  s.microcode = Assemble("xps_3_0\n    alloc colors\n    exece\n    mul oC0, r0.xyxy, r1\n");
  const ContainerFile c = LoadContainer(test::BuildContainer(s));
  ASSERT_EQ(c.interpolators.size(), 2u);
  EXPECT_EQ(c.interpolators[1].semantic.usage, 10u);
  EXPECT_EQ(c.interpolators[1].reg, 1u);
  EXPECT_FALSE(c.interpolators[1].centroid);  // info word 2 bit 8 clear
  const std::string text = Disassemble(c);
  EXPECT_NE(text.find("// PsExportColorCount=1\n// PsSampleControl=centers\n\ndcl_texcoord r0.xy\ndcl_color r1\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace xnt::ucode
