// Assembler: the committed fixture shaders covering every instruction form, decoded field checks
// on assembled text, and error messages with line:column.
#include <gtest/gtest.h>

#include "error_text.h"
#include "test_util.h"
#include "xnt/base/error.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/disasm.h"

namespace xnt::ucode {
namespace {

std::string Fixture(const char* name) {
  return test::ReadText(std::filesystem::path(XNT_SOURCE_DIR) / "tests/ucode/shaders" / name);
}

// Assemble -> decode -> disassemble -> assemble gives the same bits, and the decoded shader has
// the expected instruction mix.
void CheckFixture(const char* name, ShaderType type, uint32_t alu, uint32_t fetch) {
  SCOPED_TRACE(name);
  const std::string text = Fixture(name);
  ASSERT_FALSE(text.empty());
  const AssembledShader a = AssembleShader(text);
  EXPECT_EQ(a.type, type);
  const Shader s = Decode(a.microcode, a.type);
  uint32_t n_alu = 0, n_fetch = 0;
  for (const auto& ins : s.slots) {
    n_alu += ins.kind == SlotKind::kAlu;
    n_fetch += ins.kind == SlotKind::kFetch;
  }
  EXPECT_EQ(n_alu, alu);
  EXPECT_EQ(n_fetch, fetch);
  const std::string again = Disassemble(s);
  EXPECT_EQ(Assemble(again), a.microcode) << again;
  EXPECT_NO_THROW(Analyze(s));
}

TEST(UcodeAssembler, VertexFixtureCoversEveryVectorOpAndExport) {
  CheckFixture("forms_vs.asm", ShaderType::kVertex, 47, 6);
  // Kills are pixel-shader ops: the two fixtures together cover every vector opcode.
  const Shader vs = Decode(Assemble(Fixture("forms_vs.asm")), ShaderType::kVertex);
  const Shader ps = Decode(Assemble(Fixture("forms_ps.asm")), ShaderType::kPixel);
  bool seen[kVectorOpCount] = {};
  for (const auto& ins : vs.slots) {
    if (ins.kind == SlotKind::kAlu && (ins.alu.vector_write_mask || ins.alu.export_data ||
                                       VectorOpChangesState(ins.alu.vector_op))) {
      seen[uint32_t(ins.alu.vector_op)] = true;
    }
  }
  for (const auto& ins : ps.slots) {
    if (ins.kind == SlotKind::kAlu && VectorOpChangesState(ins.alu.vector_op)) {
      seen[uint32_t(ins.alu.vector_op)] = true;
    }
  }
  for (uint32_t v = 0; v < kVectorOpCount; ++v) EXPECT_TRUE(seen[v]) << VectorOpName(VectorOp(v));
}

TEST(UcodeAssembler, PixelFixtureCoversEveryScalarOpAndFetch) {
  CheckFixture("forms_ps.asm", ShaderType::kPixel, 50, 12);
  const Shader s = Decode(Assemble(Fixture("forms_ps.asm")), ShaderType::kPixel);
  const Shader v = Decode(Assemble(Fixture("forms_vs.asm")), ShaderType::kVertex);
  bool seen[kScalarOpCount] = {};
  bool fetch_seen[32] = {};
  for (const Shader* sh : {&s, &v}) {
    for (const auto& ins : sh->slots) {
      if (ins.kind == SlotKind::kAlu) seen[uint32_t(ins.alu.scalar_op)] = true;
      if (ins.kind == SlotKind::kFetch) fetch_seen[uint32_t(ins.fetch.opcode)] = true;
    }
  }
  for (uint32_t op = 0; op < kScalarOpCount; ++op) {
    // mulsc/addsc/subsc pick the odd or even opcode from the temp register number.
    if (!IsValidScalarOp(op) || (op >= 42 && op <= 47)) continue;
    EXPECT_TRUE(seen[op]) << ScalarOpName(ScalarOp(op));
  }
  EXPECT_TRUE(seen[43] && seen[46] && seen[45]);  // mulsc r3 (odd), subsc r4 (even), addsc r5 (odd)
  for (uint32_t op : {0, 1, 16, 17, 18, 19, 24, 25, 26}) EXPECT_TRUE(fetch_seen[op]) << op;
}

const Instruction& FirstInstruction(const std::string& body, ShaderType type, Shader& keep) {
  keep = Decode(Assemble(body, nullptr, type), type);
  return keep.slots.at(0);
}

// Every register field of a source operand (the element count is the op's, not the text's).
void ExpectOperand(const Operand& o, const Operand& expected) {
  EXPECT_EQ(o.is_temp, expected.is_temp);
  EXPECT_EQ(o.index, expected.index);
  EXPECT_EQ(o.relative, expected.relative);
  EXPECT_EQ(o.absolute, expected.absolute);
  EXPECT_EQ(o.negate, expected.negate);
  EXPECT_EQ(o.swizzle, expected.swizzle);
}

TEST(UcodeAssembler, AluFieldsFromText) {
  Shader keep;
  const AluInstruction& a =
      FirstInstruction("exece\n(!p0) mad_sat r5.xz, -r[3+aL].yx, c_abs[7+a0].w, r_abs[9]\n",
                       ShaderType::kPixel, keep)
          .alu;
  EXPECT_EQ(a.vector_op, VectorOp::kMad);
  EXPECT_TRUE(a.vector_clamp);
  EXPECT_EQ(a.vector_dest, 5u);
  EXPECT_EQ(a.vector_write_mask, 0x5u);
  EXPECT_TRUE(a.is_predicated);
  EXPECT_FALSE(a.predicate_condition);
  ExpectOperand(a.VectorOperand(0), {.is_temp = true, .index = 3, .relative = RelativeMode::kAL,
                                     .absolute = false, .negate = true, .swizzle = {1, 0, 0, 0}});
  ExpectOperand(a.VectorOperand(1), {.is_temp = false, .index = 7, .relative = RelativeMode::kA0,
                                     .absolute = true, .negate = false, .swizzle = {3, 3, 3, 3}});
  ExpectOperand(a.VectorOperand(2), {.is_temp = true, .index = 9, .relative = RelativeMode::kNone,
                                     .absolute = true, .negate = false, .swizzle = {0, 1, 2, 3}});
  EXPECT_EQ(a.scalar_op, ScalarOp::kRetainPrev);
}

TEST(UcodeAssembler, ScalarConstTempOperands) {
  Shader keep;
  const AluInstruction& a =
      FirstInstruction("exece\nmulsc r2.y, -c9.z, -r7.w\n", ShaderType::kVertex, keep).alu;
  EXPECT_EQ(a.scalar_op, ScalarOp::kMulsc1);  // temp r7 is odd
  const auto ops = a.ScalarOperands();
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_FALSE(ops[0].is_temp);
  EXPECT_EQ(ops[0].index, 9u);
  EXPECT_EQ(ops[0].swizzle[0], 2u);
  EXPECT_TRUE(ops[0].negate);
  EXPECT_TRUE(ops[1].is_temp);
  EXPECT_EQ(ops[1].index, 7u);
  EXPECT_EQ(ops[1].swizzle[0], 3u);
  EXPECT_EQ(a.scalar_dest, 2u);
  EXPECT_EQ(a.scalar_write_mask, 0x2u);
}

TEST(UcodeAssembler, ExportMasksWithConstants) {
  Shader keep;
  const AluInstruction& a =
      FirstInstruction("exece\nmov oPos.x_01, r1\n+ rcp oPos.y, r2.x\n", ShaderType::kVertex, keep)
          .alu;
  EXPECT_TRUE(a.export_data);
  EXPECT_EQ(a.vector_dest, kExportPosition);
  EXPECT_EQ(a.VectorResultMask(), 0x1u);
  EXPECT_EQ(a.ScalarResultMask(), 0x2u);
  EXPECT_EQ(a.Constant1Mask(), 0x8u);
  EXPECT_EQ(a.Constant0Mask(), 0x4u);
}

TEST(UcodeAssembler, FetchFieldsFromText) {
  Shader keep;
  const FetchInstruction& f =
      FirstInstruction("exece\n(p0) vfetch_full r3.zy01, r0.x, vf2, Offset=-5, "
                       "DataFormat=FMT_32_32_FLOAT, Stride=6, Signed=true, ExpAdjust=-2\n",
                       ShaderType::kVertex, keep)
          .fetch;
  EXPECT_EQ(f.opcode, FetchOp::kVertexFetch);
  EXPECT_EQ(f.VertexFetchConstant(), 93u);
  EXPECT_EQ(f.offset, -5);
  EXPECT_EQ(f.format, 37u);
  EXPECT_EQ(f.stride, 6u);
  EXPECT_TRUE(f.is_signed);
  EXPECT_EQ(f.exp_adjust, -2);
  EXPECT_TRUE(f.is_predicated && f.predicate_condition);
  EXPECT_EQ(f.DestComponent(0), 2u);
  EXPECT_EQ(f.DestComponent(2), 4u);
  EXPECT_EQ(f.DestComponent(3), 5u);

  const FetchInstruction& t =
      FirstInstruction("exece\ntfetchCube r1, r2.zyx, tf9, LODBias=-0.25, OffsetZ=-2.5, "
                       "MinFilter=point\n",
                       ShaderType::kPixel, keep)
          .fetch;
  EXPECT_EQ(t.opcode, FetchOp::kTextureFetch);
  EXPECT_EQ(t.dimension, TextureDimension::kCube);
  EXPECT_EQ(t.const_index, 9u);
  EXPECT_EQ(t.src_reg, 2u);
  EXPECT_EQ(t.src_swizzle, 2u | (1u << 2) | (0u << 4));
  EXPECT_EQ(t.lod_bias, -4);
  EXPECT_EQ(t.offset_z, -5);
  EXPECT_EQ(t.min_filter, 0u);
  EXPECT_EQ(t.mag_filter, 3u);
}

std::string ErrorOf(const std::string& text) {
  return xnt::test::ErrorText([&] { (void)Assemble(text, nullptr, ShaderType::kPixel); },
                              "no error");
}

TEST(UcodeAssembler, ErrorsNameLineAndColumn) {
  EXPECT_EQ(ErrorOf("exec\n    add r0, r1\n"), "2:5: 'add' takes 2 source operands");
  EXPECT_EQ(ErrorOf("exec\n    add r0, r1, q5\n"), "2:17: expected a register r# or constant c#");
  EXPECT_EQ(ErrorOf("    add r0, r1, r2\n"), "1:5: instruction 'add' outside an exec clause");
  EXPECT_EQ(ErrorOf("exec\n  frob r0\n"), "2:3: unknown instruction 'frob'");
  EXPECT_EQ(ErrorOf("exec Bogus=1\n"), "1:6: unknown option 'Bogus' for 'exec'");
  EXPECT_EQ(ErrorOf("jmp Lnowhere\nexece\n"), "1:5: undefined label Lnowhere");
  EXPECT_EQ(ErrorOf("exec\n add r64, r1, r2\n"), "2:6: temp register out of range (r0-r63)");
  EXPECT_EQ(ErrorOf("exec\n add r0.yx, r1, r2\n"), "2:6: write mask must be components in xyzw order");
  EXPECT_EQ(ErrorOf("exec\n tfetch2D r0, r1.xy, tf32\n"),
            "2:22: expected a texture fetch constant tf0-tf31");
  EXPECT_EQ(ErrorOf("exece\n mov oPos, r0\n"), "2:6: unknown export register 'oPos' for this shader type");
  EXPECT_EQ(ErrorOf("loop i0, L3\nexece\n"), "1:1: target L3 is past the last control-flow instruction");
  EXPECT_EQ(ErrorOf("exece\n add r0, r1, r2\n add r0, r1, r2\n add r0, r1, r2\n add r0, r1, r2\n"
                    " add r0, r1, r2\n add r0, r1, r2\n add r0, r1, r2\n"),
            "1:1: an exec holds at most 6 instructions, this one has 7");
  EXPECT_EQ(ErrorOf(""), "1:1: no instructions");
  // No type line and no default type.
  EXPECT_THROW(Assemble("exece\n"), Error);
}

TEST(UcodeAssembler, LabelsAndLayout) {
  const std::string text =
      "xvs_3_0\n"
      "    loop i2, Ldone\n"
      "Ltop:\n"
      "    exec\n"
      "    add r0, r0, c0\n"
      "    endloop i2, Ltop\n"
      "Ldone:\n"
      "    exece\n"
      "    mov oPos, r0\n";
  const Shader s = Decode(Assemble(text), ShaderType::kVertex);
  ASSERT_EQ(s.cf.size(), 4u);
  EXPECT_EQ(s.cf[0].opcode, CfOpcode::kLoopStart);
  EXPECT_EQ(s.cf[0].address, 3u);
  EXPECT_EQ(s.cf[0].loop_id, 2u);
  EXPECT_EQ(s.cf[2].opcode, CfOpcode::kLoopEnd);
  EXPECT_EQ(s.cf[2].address, 1u);
  EXPECT_EQ(s.cf[1].address, 2u);  // first slot after the 2 CF slots
  EXPECT_EQ(s.cf[3].address, 3u);
  const Analysis an = Analyze(s);
  ASSERT_EQ(an.loops.size(), 1u);
  EXPECT_EQ(an.loops[0].body_cf, 1u);
  EXPECT_EQ(an.loops[0].skip_cf, 3u);
}

}  // namespace
}  // namespace xnt::ucode
