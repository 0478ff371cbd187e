// How fxc prints a co-issued ALU pair whose halves do not both do something, and two-operand
// scalar sources: each form assembled from a listing written by hand, its fields checked against
// what the form means, and disassembled back to the same text. Which fields a listing leaves
// unshown (an export's write-0 flag) also depends on the compiler build its heading names.
#include <gtest/gtest.h>

#include "xnt/ucode/assembler.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/disasm.h"

namespace xnt::ucode {
namespace {

Shader Reproduced(const std::string& listing, ShaderType type) {
  const Shader s = Decode(Assemble(listing), type);
  EXPECT_EQ(Disassemble(s), listing);
  return s;
}

// The relative-encoded swizzle of an ALU source as the component read at each position.
std::array<uint32_t, 4> Components(uint32_t swizzle) {
  std::array<uint32_t, 4> c{};
  for (uint32_t i = 0; i < 4; ++i) c[i] = ((swizzle >> (2 * i)) + i) & 3;
  return c;
}

// A lone scalar line exporting: the export register, the scalar op, the components it writes,
// nothing from the vector half but the constant 0 / 1 components.
void ExpectScalarExport(const AluInstruction& a, uint32_t reg, ScalarOp op, uint32_t scalar,
                        uint32_t zeros, uint32_t ones) {
  EXPECT_TRUE(a.export_data);
  EXPECT_EQ(a.vector_dest, reg);
  EXPECT_EQ(a.scalar_op, op);
  EXPECT_EQ(a.ScalarResultMask(), scalar);
  EXPECT_EQ(a.VectorResultMask(), 0u);
  EXPECT_EQ(a.Constant0Mask(), zeros);
  EXPECT_EQ(a.Constant1Mask(), ones);
}

constexpr char kPixelForms[] =
    "xps_3_0\n"
    "\n"
    "\n"
    "    exec\n"
    "    subs r14.x, r13.wx\n"
    "    movs r5.w, c253.x\n"
    "    mul r1, r2, c0\n"
    "    alloc colors\n"
    "    exece\n"
    "    adds oC0.x, r2.xw\n"
    "    exp oC1.x001, r0.x\n";

TEST(UcodeListingAluForms, PixelShaderForms) {
  const Shader s = Reproduced(kPixelForms, ShaderType::kPixel);
  const uint32_t first = s.cf[0].address;

  // subs r14.x, r13.wx: a = r13.w, b = r13.x, stored as r13.xxww (b in x/y, a in z/w).
  const AluInstruction& subs = s.AtSlot(first).alu;
  EXPECT_EQ(subs.scalar_op, ScalarOp::kSubs);
  EXPECT_EQ(subs.scalar_dest, 14u);
  EXPECT_EQ(subs.scalar_write_mask, 0x1u);
  EXPECT_EQ(subs.src[2].reg, 13u);
  EXPECT_EQ(Components(subs.src[2].swizzle), (std::array<uint32_t, 4>{0, 0, 3, 3}));
  const auto ops = subs.ScalarOperands();
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].swizzle[0], 3u);  // a = w
  EXPECT_EQ(ops[0].swizzle[1], 0u);  // b = x
  // The vector half that stands for nothing: max of r0 with itself, writing nothing.
  EXPECT_EQ(subs.vector_op, VectorOp::kMax);
  EXPECT_EQ(subs.vector_write_mask, 0u);
  EXPECT_EQ(subs.vector_dest, 0u);

  // movs r5.w, c253.x alone: maxs of c253.x with itself, nothing from the vector half.
  const AluInstruction& movs = s.AtSlot(first + 1).alu;
  EXPECT_EQ(movs.scalar_op, ScalarOp::kMaxs);
  EXPECT_FALSE(movs.src[2].is_temp);
  EXPECT_EQ(movs.src[2].reg, 253u);
  EXPECT_EQ(Components(movs.src[2].swizzle), (std::array<uint32_t, 4>{0, 0, 0, 0}));
  EXPECT_EQ(movs.scalar_dest, 5u);
  EXPECT_EQ(movs.scalar_write_mask, 0x8u);
  EXPECT_EQ(movs.vector_write_mask, 0u);

  // mul r1, r2, c0 alone: the scalar half keeps nothing (retain_prev, no mask).
  const AluInstruction& mul = s.AtSlot(first + 2).alu;
  EXPECT_EQ(mul.scalar_op, ScalarOp::kRetainPrev);
  EXPECT_EQ(mul.scalar_write_mask, 0u);

  // adds oC0.x, r2.xw: an export of the scalar result only (x = r2.x + r2.w), y-w unwritten.
  const AluInstruction& adds = s.AtSlot(s.cf[2].address).alu;
  ExpectScalarExport(adds, 0 /* oC0 */, ScalarOp::kAdds, 0x1, 0, 0);
  EXPECT_EQ(adds.ScalarOperands()[0].swizzle[0], 0u);  // a = x
  EXPECT_EQ(adds.ScalarOperands()[0].swizzle[1], 3u);  // b = w

  // exp oC1.x001, r0.x: x from the scalar op, y z = 0, w = 1; the vector half writes nothing of
  // its own (its w bit overlapping the scalar's is the constant 1).
  const AluInstruction& exp = s.AtSlot(s.cf[2].address + 1).alu;
  ExpectScalarExport(exp, 1 /* oC1 */, ScalarOp::kExp, 0x1, 0x6, 0x8);
  EXPECT_EQ(exp.vector_write_mask, 0x8u);
  EXPECT_EQ(exp.scalar_write_mask, 0x9u);
  EXPECT_TRUE(exp.scalar_dest_rel);
}

constexpr char kVertexForms[] =
    "xvs_3_0\n"
    "\n"
    "\n"
    "    alloc position\n"
    "    exec\n"
    "    mov oPos, r1\n"
    "    alloc interpolators\n"
    "    exece\n"
    "    rcp o1.x000, c5.x\n";

TEST(UcodeListingAluForms, VertexExportFoldsConstantComponents) {
  const Shader s = Reproduced(kVertexForms, ShaderType::kVertex);
  const AluInstruction& rcp = s.AtSlot(s.cf[3].address).alu;
  ExpectScalarExport(rcp, 1 /* o1 */, ScalarOp::kRcp, 0x1, 0xE, 0);
  EXPECT_EQ(rcp.vector_write_mask, 0u);
  // Without a compiler heading (or with 2.0.21256's) a full vector export leaves the write-0
  // flag clear.
  const AluInstruction& pos = s.AtSlot(s.cf[1].address).alu;
  EXPECT_FALSE(pos.scalar_dest_rel);
}

// A scalar half that keeps nothing but names a register, or a vector half with a destination
// register, cannot be left out without losing the register: it becomes an option on the line.
TEST(UcodeListingAluForms, UnusedHalvesKeepTheirRegistersAsOptions) {
  Shader s = Decode(Assemble("xps_3_0\n    exec\n    mul r1, r2, c0\n    movs r5.w, c253.x\n"
                             "    alloc colors\n    exece\n    mov oC0, r1\n"),
                    ShaderType::kPixel);
  // What another compiler build leaves in the unused halves' destination fields.
  std::vector<uint32_t> dwords = s.dwords;
  AluInstruction mul = s.AtSlot(s.cf[0].address).alu;
  mul.scalar_dest = 2;
  AluInstruction movs = s.AtSlot(s.cf[0].address + 1).alu;
  movs.vector_dest = 7;
  const auto put = [&](uint32_t slot, const AluInstruction& a) {
    const auto raw = EncodeAlu(a);
    for (uint32_t i = 0; i < 3; ++i) dwords[slot * 3 + i] = raw[i];
  };
  put(s.cf[0].address, mul);
  put(s.cf[0].address + 1, movs);
  const std::string text = Disassemble(Decode(dwords, ShaderType::kPixel));
  EXPECT_NE(text.find("    mul r1, r2, c0, ScalarDest=2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    movs r5.w, c253.x, VectorDest=7\n"), std::string::npos) << text;
  EXPECT_EQ(text.find('+'), std::string::npos) << text;
  EXPECT_EQ(Assemble(text), dwords);
}

// Builds before 2.0.21119 set the write-0 flag of an export whose scalar half is unused and
// whose vector half writes all four components; 2.0.21119 and 2.0.21256 leave it clear. The
// listing shows nothing either way, and the build in the heading (or the container's creator)
// says which value that means.
TEST(UcodeListingAluForms, ExportWriteZeroFlagFollowsTheCompilerBuild) {
  const std::string body =
      "xps_3_0\n\n\n    alloc colors\n    exece\n    mov oC0, r1\n";
  const auto slot_of_mov = [](const std::vector<uint32_t>& code) {
    const Shader s = Decode(code, ShaderType::kPixel);
    return AluInstruction(s.AtSlot(s.cf[1].address).alu);
  };
  const std::vector<uint32_t> newer = Assemble("// Generated by 2.0.21256.0\n" + body);
  const std::vector<uint32_t> older = Assemble("// Generated by 2.0.20675.0\n" + body);
  EXPECT_FALSE(slot_of_mov(newer).scalar_dest_rel);
  EXPECT_TRUE(slot_of_mov(older).scalar_dest_rel);
  EXPECT_EQ(Assemble("// Generated by 2.0.21119.0\n" + body), newer);
  EXPECT_EQ(Assemble(body), newer);
  // Only a line that is the heading comment alone names the build, as the container assembler
  // reads it: a trailing comment that says the same is an ordinary comment.
  EXPECT_EQ(Assemble("xps_3_0 // Generated by 2.0.20675.0\n\n\n    alloc colors\n    exece\n"
                     "    mov oC0, r1\n"),
            newer);
  EXPECT_EQ(Assemble("   // Generated by 2.0.20675.0\n" + body), older);
  // A partial export keeps its unwritten components: the flag stays clear in every build.
  const std::string partial = "xps_3_0\n    alloc colors\n    exece\n    mov oC0.xy, r1\n";
  EXPECT_FALSE(slot_of_mov(Assemble("// Generated by 2.0.20675.0\n" + partial)).scalar_dest_rel);

  // Disassembly prints the flag only where it differs from the container's build.
  ContainerFile c;
  c.type = ShaderType::kPixel;
  DisassembleOptions o;
  o.container = &c;
  o.header = false;
  c.creator = "2.0.20675.0";
  EXPECT_EQ(Disassemble(Decode(older, ShaderType::kPixel), o).find("ScalarDestRel"),
            std::string::npos);
  EXPECT_NE(Disassemble(Decode(newer, ShaderType::kPixel), o).find("mov oC0, r1, ScalarDestRel=false"),
            std::string::npos);
  c.creator = "2.0.21256.0";
  EXPECT_NE(Disassemble(Decode(older, ShaderType::kPixel), o).find("mov oC0, r1, ScalarDestRel=true"),
            std::string::npos);
  EXPECT_EQ(Disassemble(Decode(newer, ShaderType::kPixel), o).find("ScalarDestRel"),
            std::string::npos);
  // Options and heading together give the same bits back.
  EXPECT_EQ(Assemble("// Generated by 2.0.21256.0\n" +
                         Disassemble(Decode(older, ShaderType::kPixel), o),
                     nullptr, ShaderType::kPixel),
            older);
}

// The older two-component layout (a only in w) is not fxc's: it keeps all four components.
TEST(UcodeListingAluForms, OtherScalarLayoutsKeepFourComponents) {
  const std::vector<uint32_t> code =
      Assemble("xps_3_0\n    exece\n    muls r1.x, r2.xxxw\n", nullptr);
  const Shader s = Decode(code, ShaderType::kPixel);
  const AluInstruction& muls = s.AtSlot(s.cf[0].address).alu;
  EXPECT_EQ(muls.ScalarOperands()[0].swizzle[0], 3u);  // a = w
  EXPECT_EQ(muls.ScalarOperands()[0].swizzle[1], 0u);  // b = x
  EXPECT_NE(Disassemble(s).find("    muls r1.x, r2.xxxw\n"), std::string::npos);
  // The two-component spelling of the same operands is fxc's layout: other bits, same values.
  const std::vector<uint32_t> fxc = Assemble("xps_3_0\n    exece\n    muls r1.x, r2.wx\n");
  EXPECT_NE(fxc, code);
  const Shader fs = Decode(fxc, ShaderType::kPixel);
  const AluInstruction& f = fs.AtSlot(fs.cf[0].address).alu;
  EXPECT_EQ(f.ScalarOperands()[0].swizzle[0], 3u);
  EXPECT_EQ(f.ScalarOperands()[0].swizzle[1], 0u);
}

}  // namespace
}  // namespace xnt::ucode
