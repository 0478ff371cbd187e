// The listing rules of the XDK shader compiler, each checked on a shader
// authored with the assembler against a listing written by hand in fxc's syntax (spellings taken
// from public fxc listings: `  + movs`, `r0_abs`, `label L8`, `exec    // PredicateClean=false`,
// `serialize`, `(p0) exec` at column 0, `tfetch2D r3, r1.yx`, `alloc export=2`), plus the decoded
// fields that show each spelling means what fxc means by it.
#include <gtest/gtest.h>

#include "test_util.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/disasm.h"

namespace xnt::ucode {
namespace {

// The listing assembles, and the shader it decodes to disassembles to the same text.
Shader Reproduced(const char* listing, ShaderType type) {
  const Shader s = Decode(Assemble(listing), type);
  EXPECT_EQ(Disassemble(s), listing);
  return s;
}

// Both vertex listings export r1 the same way (address c4 + the index in r0.x), then move a0.
#define MEMEXPORT_R1_TO_C4          \
  "    alloc export=2\n"            \
  "    exec\n"                      \
  "    mad eA, r0.x, c255.xyx, c4\n"\
  "    mov eM0, r1\n"               \
  "    movas r0._, c2.y\n"

constexpr char kPixelListing[] =
    "xps_3_0\n"
    "\n"
    "\n"
    "    exec\n"
    "    tfetch2D r2, r2.zw, tf0\n"
    "    mul r1.xyz, r2.xyz, c5.x\n"
    "  + movs r1.w, c231.z\n"
    "    mul r3, r5_abs, c107_abs.x\n"
    "    cjmp !b129, L4\n"
    "    exec\n"
    "    serialize\n"
    "    nop\n"
    "    loop i17, L7\n"
    "label L4\n"
    "    exec    // PredicateClean=false\n"
    "    setp_gt r0._, r1.x\n"
    "    (p0) add r15.xyz, r21.xyz, c11.xyz\n"
    "  + (p0) movs r1.y, r3.w\n"
    "(p0) exec\n"
    "    (p0) mov r16.yz, r15.wwz\n"
    "  + (p0) maxs r19.y, r1.yz\n"
    "    endloop i17, L4\n"
    "label L7\n"
    "    alloc colors\n"
    "    exece\n"
    "    mov oC0, r1\n";

TEST(UcodeListingRules, PixelShaderListingIsReproduced) {
  const Shader s = Reproduced(kPixelListing, ShaderType::kPixel);

  ASSERT_EQ(s.cf.size(), 10u);  // 9 + the pad nop of the last pair
  // tfetch2D r2.zw: coordinates z, w; the unused third repeats the first (z).
  const Instruction& tex = s.AtSlot(s.cf[0].address);
  ASSERT_EQ(tex.kind, SlotKind::kFetch);
  EXPECT_EQ(tex.fetch.src_swizzle, 2u | 3u << 2 | 2u << 4);
  // movs r1.w, c231.z is maxs reading c231.z twice.
  const AluInstruction& mul = s.AtSlot(s.cf[0].address + 1).alu;
  EXPECT_EQ(mul.scalar_op, ScalarOp::kMaxs);
  EXPECT_EQ(mul.src[2].reg, 231u);
  const auto ops = mul.ScalarOperands();
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].swizzle[0], 2u);  // a = z
  EXPECT_EQ(ops[0].swizzle[1], 2u);  // b = z
  // r5_abs: temp 5 with the absolute bit (0x80); c107_abs: the instruction's abs-constants bit.
  const AluInstruction& absmul = s.AtSlot(s.cf[0].address + 2).alu;
  EXPECT_EQ(absmul.src[0].reg, 5u | 0x80u);
  EXPECT_TRUE(absmul.abs_constants);
  // Control flow: cjmp to CF 4, serialize bit of instruction 0 of CF 2, loop skip to CF 7,
  // exec 4 keeps the predicate, exec 5 runs on p0, endloop back to CF 4.
  EXPECT_EQ(s.cf[1].opcode, CfOpcode::kCondJmp);
  EXPECT_EQ(s.cf[1].address, 4u);
  EXPECT_FALSE(s.cf[1].condition);
  EXPECT_EQ(s.cf[1].bool_address, 129u);
  EXPECT_TRUE(s.cf[2].IsSerialized(0));
  EXPECT_EQ(s.cf[3].opcode, CfOpcode::kLoopStart);
  EXPECT_EQ(s.cf[3].address, 7u);
  EXPECT_EQ(s.cf[3].loop_id, 17u);
  EXPECT_FALSE(s.cf[4].CleansPredicate());
  EXPECT_FALSE(s.cf[4].IsSerialized(0));
  EXPECT_EQ(s.cf[5].opcode, CfOpcode::kCondExecPred);
  EXPECT_TRUE(s.cf[5].condition);
  EXPECT_EQ(s.cf[6].opcode, CfOpcode::kLoopEnd);
  EXPECT_EQ(s.cf[6].address, 4u);
  // (p0) mov r16.yz, r15.wwz is a predicated max of r15.wwzz with itself.
  const AluInstruction& mov = s.AtSlot(s.cf[5].address).alu;
  EXPECT_EQ(mov.vector_op, VectorOp::kMax);
  EXPECT_TRUE(mov.is_predicated);
  EXPECT_EQ(mov.src[0].reg, 15u);
  EXPECT_EQ(mov.src[1].reg, 15u);
  EXPECT_EQ(mov.scalar_op, ScalarOp::kMaxs);  // maxs r19.y, r1.yz stays maxs
}

constexpr char kVertexListing[] =
    "xvs_3_0\n"
    "\n"
    "\n"
    "    exec\n"
    "    vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4\n"
    MEMEXPORT_R1_TO_C4
    "    alloc position\n"
    "    exece\n"
    "    mov oPos, r1\n";

TEST(UcodeListingRules, VertexShaderListingIsReproduced) {
  const Shader s = Reproduced(kVertexListing, ShaderType::kVertex);
  EXPECT_EQ(s.cf[1].opcode, CfOpcode::kAlloc);
  EXPECT_EQ(s.cf[1].alloc_type, AllocType::kMemory);
  EXPECT_EQ(s.cf[1].alloc_size, 2u);
  const AluInstruction& movas = s.AtSlot(s.cf[2].address + 2).alu;
  EXPECT_EQ(movas.scalar_op, ScalarOp::kMaxAs);
}

// A full listing (constant table with a matrix array, configs, index declarations, memexport,
// literals) -> container -> listing again, and the container fields the lines stand for.
constexpr char kFullVertexListing[] =
    "xvs_3_0\n"
    "defconst XYWidthHeight, float, vector, [1, 4], c0\n"
    "defconst World, float, matrix_columns, [4, 4], c4-7\n"
    "config AutoSerialize=false\n"
    "config AutoResource=false\n"
    "config VsMaxReg=3\n"
    "config VsResource=1\n"
    "config VsExportMode=multipass\n"
    "// VsExportCount=1\n"
    "\n"
    "dcl_index r0.xyz\n"
    "dcl_index1 r1.x\n"
    "dcl_texcoord o0.xy\n"
    "dcl_color o1\n"
    "\n"
    "def c252, 0, 0, 0, 0\n"
    "def c255, -2, 2, -1, 1\n"
    "\n"
    "\n"
    "    exec\n"
    "    vfetch r2.xy__, r0.x, position\n"
    "    vfetch r1.xy__, r0.x, texcoord\n"
    "    vfetch r0, r0.x, color\n"
    MEMEXPORT_R1_TO_C4
    "    alloc position\n"
    "    exec\n"
    "    mad r1.z, c0.x, c255.y, c255.z\n"
    "    mad oPos.xy01, r2.xy, c0.zw, r1.zw\n"
    "    alloc interpolators\n"
    "    exece\n"
    "    mov o0.xy, r1.xy\n"
    "    mov o1, r0\n";

TEST(UcodeListingRules, FullListingMakesAContainer) {
  const std::vector<uint8_t> blob = AssembleContainer(kFullVertexListing);
  const ContainerFile c = LoadContainer(blob);
  EXPECT_EQ(Disassemble(c), std::string(kFullVertexListing) + test::kZeroPdbHint);
  EXPECT_EQ(WriteContainer(c), blob);
  EXPECT_EQ(c.magic, kContainerMagicVertex | 0x10);  // it writes memory (eA)
  ASSERT_EQ(c.constants.size(), 2u);
  EXPECT_EQ(c.constants[1].register_count, 4u);
  EXPECT_EQ(c.program_cntl(), 0x07110003u);  // VsMaxReg 3, VsResource, count 1, multipass
  ASSERT_EQ(c.index_decls.size(), 2u);
  EXPECT_EQ(c.index_decls[0].raw, 0xE90u);   // the public CubicBezierPatchVS words
  EXPECT_EQ(c.index_decls[1].raw, 0x391u);
  ASSERT_EQ(c.vertex_fetches.size(), 3u);
  EXPECT_EQ(c.vertex_fetches[0].raw >> 20, 1u);  // first of several
  EXPECT_EQ(c.vertex_fetches[2].raw >> 20, 3u);  // last, overwrites its index register r0
  ASSERT_EQ(c.interpolators.size(), 2u);
  EXPECT_EQ(c.info[5], 2u | 2u << 5 | 6u << 10);  // 2 interpolators, 2 + 4 components
  EXPECT_EQ(c.export_slots.size(), 2u);
  ASSERT_EQ(c.literals.size(), 2u);
  EXPECT_EQ(c.literals[1].register_index, 255u);
}

// Older spellings still assemble to the same bits.
TEST(UcodeListingRules, OlderSpellingsAreAccepted) {
  const std::string fxc =
      "xps_3_0\n    exec\n    mul r3, r5_abs, c1\n    cjmp b1, L2\n    exece\n    nop\n"
      "label L2\n    exece\n    nop\n";
  const std::string old =
      "xps_3_0\n    exec\n    mul r3, r_abs[5], c1\n    cjmp b1, L2\n    exece\n    nop\n"
      "L2:\n    exece\n    nop\n";
  EXPECT_EQ(Assemble(fxc), Assemble(old));
}

}  // namespace
}  // namespace xnt::ucode
