// Microcode is decoded once per hash: the command processor's ShaderCache decodes a shader the
// first time IM_LOAD brings it and hands the same DecodedShader to every later load of the same
// microcode (another address, IM_LOAD_IMMEDIATE), through Shader::decoded.
#include <gtest/gtest.h>

#include "pm4_test_util.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/shader_cache.h"

namespace xnt::replay::test {
namespace {

using xenos::Opcode;

constexpr uint32_t kDrawAuto3Tris =  // triangle list, auto index, 3 indices
    uint32_t(xenos::PrimitiveType::kTriangleList) | (2u << 6) | (3u << 16);

const std::vector<uint32_t>& VertexShader() {
  static const std::vector<uint32_t> vs = ucode::Assemble(
      "xvs_3_0\n    alloc position\n    exece\n    mov oPos, r0\n");
  return vs;
}

TEST(ShaderCache, OneDecodePerMicrocodeWhateverTheAddressOrPacket) {
  Rig rig;
  const std::vector<uint32_t>& vs = VertexShader();
  rig.PutBE(0x400000, vs);
  rig.PutBE(0x480000, vs);  // the same microcode at a second address
  const uint32_t n = uint32_t(vs.size());
  Pm4 s;
  s.Type3(Opcode::kImLoad, {0x400000u, n});
  s.Type3(Opcode::kDrawIndx, {0x0, kDrawAuto3Tris});
  s.Type3(Opcode::kImLoad, {0x480000u, n});
  s.Type3(Opcode::kDrawIndx, {0x0, kDrawAuto3Tris});
  std::vector<uint32_t> immediate = {0u, n};
  immediate.insert(immediate.end(), vs.begin(), vs.end());
  s.Type3(Opcode::kImLoadImmediate, immediate);
  s.Type3(Opcode::kDrawIndx, {0x0, kDrawAuto3Tris});
  rig.Run(s);
  ASSERT_EQ(rig.backend.draws.size(), 3u);
  EXPECT_EQ(rig.cp.shader_cache().decodes(), 1u);
  EXPECT_EQ(rig.cp.shader_cache().size(), 1u);
  const Shader* shader = rig.cp.active_vertex_shader();
  ASSERT_NE(shader, nullptr);
  ASSERT_NE(shader->decoded, nullptr);
  EXPECT_TRUE(shader->decoded->ok()) << shader->decoded->error();
  EXPECT_TRUE(shader->analyzed);
  // The decode is the microcode's: one exec holding the position export.
  EXPECT_EQ(shader->decoded->shader.type, ucode::ShaderType::kVertex);
}

TEST(ShaderCache, TheSameDwordsAsAPixelShaderAreADifferentEntry) {
  ucode::ShaderCache cache;
  const std::vector<uint32_t>& vs = VertexShader();
  auto a = cache.Get(7, ucode::ShaderType::kVertex, vs);
  auto b = cache.Get(7, ucode::ShaderType::kVertex, vs);
  auto c = cache.Get(7, ucode::ShaderType::kPixel, vs);
  EXPECT_EQ(a.get(), b.get());
  EXPECT_NE(a.get(), c.get());
  EXPECT_EQ(cache.decodes(), 2u);
}

TEST(ShaderCache, MicrocodeThatDoesNotDecodeSaysWhyOnce) {
  ucode::ShaderCache cache;
  // An exec whose instructions start at slot 100 of a one-slot shader.
  const std::vector<uint32_t> bad = {100u | (1u << 12), 1u << 12, 0u};
  auto a = cache.Get(1, ucode::ShaderType::kVertex, bad);
  auto b = cache.Get(1, ucode::ShaderType::kVertex, bad);
  EXPECT_FALSE(a->ok());
  EXPECT_FALSE(a->error().empty());
  EXPECT_EQ(a.get(), b.get());
  EXPECT_EQ(cache.decodes(), 1u);
}

}  // namespace
}  // namespace xnt::replay::test
