// Decoder/encoder on known encodings (words taken from the corpus container dumps) and the
// errors for invalid microcode.
#include <gtest/gtest.h>

#include "error_text.h"
#include "xnt/base/error.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/disasm.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode {
namespace {

// pscclr4360's microcode: `alloc colors`, `exece`, `mov oC0, c0`.
const std::vector<uint32_t> kColorPs = {0x00000000, 0x1001C400, 0x22000000,
                                        0xC80F8000, 0x00000000, 0x22000000};

TEST(UcodeCodec, DecodesControlFlowPair) {
  const Shader s = Decode(kColorPs, ShaderType::kPixel);
  ASSERT_EQ(s.cf.size(), 2u);
  EXPECT_EQ(s.cf_slots, 1u);
  EXPECT_EQ(s.cf[0].opcode, CfOpcode::kAlloc);
  EXPECT_EQ(s.cf[0].alloc_type, AllocType::kInterpolators);
  EXPECT_EQ(s.cf[1].opcode, CfOpcode::kExecEnd);
  EXPECT_EQ(s.cf[1].address, 1u);
  EXPECT_EQ(s.cf[1].count, 1u);
  EXPECT_TRUE(s.cf[1].predicate_clean);
  EXPECT_EQ(s.cf[1].sequence, 0u);
  EXPECT_EQ(PackCf(s.cf), std::vector<uint32_t>(kColorPs.begin(), kColorPs.begin() + 3));
}

TEST(UcodeCodec, DecodesExportAlu) {
  const Shader s = Decode(kColorPs, ShaderType::kPixel);
  ASSERT_EQ(s.slots.size(), 1u);
  const AluInstruction& a = s.slots[0].alu;
  EXPECT_EQ(s.slots[0].kind, SlotKind::kAlu);
  EXPECT_TRUE(a.export_data);
  EXPECT_EQ(a.vector_dest, kExportColor0);
  EXPECT_EQ(a.vector_write_mask, 0xFu);
  EXPECT_EQ(a.vector_op, VectorOp::kMax);
  EXPECT_EQ(a.scalar_op, ScalarOp::kRetainPrev);
  EXPECT_FALSE(a.src[0].is_temp);
  EXPECT_FALSE(a.src[1].is_temp);
  EXPECT_EQ(a.src[0].reg, 0u);
  EXPECT_EQ(EncodeAlu(a), (std::array<uint32_t, 3>{0xC80F8000, 0, 0x22000000}));
}

TEST(UcodeCodec, DecodesPositionExportWithConstants) {
  // vs20pos22d360 slot 6: mad oPos.xy01, r0.zw, c0.zw, r0.xy
  const AluInstruction a = DecodeAlu({0xC88BC03E, 0x001A1AB0, 0xAB000000});
  EXPECT_EQ(a.vector_op, VectorOp::kMad);
  EXPECT_EQ(a.vector_dest, kExportPosition);
  EXPECT_EQ(a.VectorResultMask(), 0x3u);
  EXPECT_EQ(a.Constant1Mask(), 0x8u);
  EXPECT_EQ(a.Constant0Mask(), 0x4u);
  const Operand s1 = a.VectorOperand(0);
  EXPECT_EQ(s1.swizzle, (std::array<uint8_t, 4>{2, 3, 3, 3}));
  const Operand s3 = a.VectorOperand(2);
  EXPECT_EQ(s3.swizzle, (std::array<uint8_t, 4>{0, 1, 1, 1}));
  EXPECT_TRUE(s3.is_temp);
  EXPECT_FALSE(a.VectorOperand(1).is_temp);
}

TEST(UcodeCodec, DecodesVertexAndTextureFetch) {
  // vs20pos2tex2clr42d360: vfetch r2.xy__, r0.x, position
  const FetchInstruction v = DecodeFetch({0x05F82000, 0x00000FC8, 0x00000000});
  EXPECT_EQ(v.opcode, FetchOp::kVertexFetch);
  EXPECT_EQ(v.dst_reg, 2u);
  EXPECT_EQ(v.VertexFetchConstant(), 95u);
  EXPECT_EQ(v.DestWriteMask(), 0x3u);
  EXPECT_TRUE(v.must_be_one);
  EXPECT_EQ(v.format, 0u);
  // pstexture360: tfetch2D r0, r0.xy, tf0
  const FetchInstruction t = DecodeFetch({0x10080001, 0x1F1FF688, 0x00004000});
  EXPECT_EQ(t.opcode, FetchOp::kTextureFetch);
  EXPECT_EQ(t.dimension, TextureDimension::k2D);
  EXPECT_TRUE(t.fetch_valid_only);
  EXPECT_TRUE(t.use_comp_lod);
  EXPECT_EQ(t.mag_filter, 3u);
  EXPECT_EQ(t.aniso_filter, 7u);
  EXPECT_EQ(t.src_swizzle, 0x4u);
  EXPECT_EQ(EncodeFetch(t), (std::array<uint32_t, 3>{0x10080001, 0x1F1FF688, 0x00004000}));
}

TEST(UcodeCodec, VertexFetchMarksInExec) {
  // vs20pos2tex2clr42d360 CF0: exec addr 3, count 3, three vertex fetches -> vc bits 0-2.
  const CfInstruction cf = DecodeCf(0x70153003ull | (uint64_t(0x1200) << 32));
  EXPECT_EQ(cf.opcode, CfOpcode::kExec);
  EXPECT_EQ(cf.address, 3u);
  EXPECT_EQ(cf.count, 3u);
  EXPECT_EQ(cf.sequence, 0x15u);
  EXPECT_EQ(cf.vc, 0x7u);
  EXPECT_TRUE(cf.IsFetch(2));
  EXPECT_FALSE(cf.IsSerialized(2));
  EXPECT_EQ(cf.pad, 0u);
}

std::string DecodeError(const std::vector<uint32_t>& words) {
  return xnt::test::ErrorText([&] { (void)Decode(words, ShaderType::kPixel); }, "no error");
}

TEST(UcodeCodec, InvalidMicrocodeNamesTheDword) {
  // Vector opcode 30 in the ALU at slot 1.
  EXPECT_EQ(DecodeError({0x00000000, 0x1001C400, 0x22000000, 0xC80F8000, 0, 0x3E000000}),
            "at byte offset 12: microcode dword 3: slot 1: invalid ALU vector opcode 30");
  // Scalar opcode 41.
  EXPECT_EQ(DecodeError({0x00000000, 0x1001C400, 0x22000000, 0xA40F8000, 0, 0x22000000}),
            "at byte offset 12: microcode dword 3: slot 1: invalid ALU scalar opcode 41");
  // Fetch opcode 5 (sequence bit marks slot 1 as a fetch).
  EXPECT_EQ(DecodeError({0x00000000, 0x1001C400, 0x22000001, 0x00000005, 0, 0}),
            "at byte offset 12: microcode dword 3: slot 1: invalid fetch opcode 5");
  // exec count 3 at slot 1 in a 2-slot shader.
  EXPECT_EQ(DecodeError({0x00000000, 0x3001C400, 0x22000000, 0, 0, 0}),
            "at byte offset 4: microcode dword 1: exec at CF 1 runs slots 1-3 past the end (2 slots)");
  // jmp to L9 with only 2 CF instructions.
  EXPECT_EQ(DecodeError({0x00000009 | (1u << 13), 0x1001B000, 0x22000000, 0xC80F8000, 0,
                         0x22000000}),
            "at byte offset 0: microcode dword 0: CF 0 targets L9, outside the 2 control-flow "
            "instructions");
  EXPECT_EQ(DecodeError({1, 2}), "at byte offset 8: microcode dword 2: microcode is 2 dwords, not a whole number of 3-dword instructions");
  EXPECT_EQ(DecodeError({}), "at byte offset 0: empty microcode");
  EXPECT_THROW(LoadMicrocodeBE(std::vector<uint8_t>{1, 2, 3}), Error);
}

TEST(UcodeCodec, BigEndianLoadStore) {
  const std::vector<uint8_t> bytes = {0x10, 0x2A, 0x11, 0x00, 0xC8, 0x0F, 0x80, 0x00};
  const auto words = LoadMicrocodeBE(bytes);
  EXPECT_EQ(words, (std::vector<uint32_t>{0x102A1100, 0xC80F8000}));
  EXPECT_EQ(StoreMicrocodeBE(words), bytes);
}

}  // namespace
}  // namespace xnt::ucode

namespace xnt::ucode {
namespace {

TEST(UcodeCodec, PredicateCleanCexecUsesBoolLayout) {
  // Opcode 13 with bool constant 7, condition true, address 5, count 1.
  const uint64_t bits = (uint64_t(13) << 44) | (uint64_t(7) << 34) | (uint64_t(1) << 42) | 5 |
                        (1u << 12);
  const CfInstruction cf = DecodeCf(bits);
  EXPECT_TRUE(IsCondExecBool(cf.opcode));
  EXPECT_FALSE(IsCondExecPred(cf.opcode));
  EXPECT_EQ(cf.CondBoolAddress(), 7u);
  EXPECT_TRUE(cf.condition);
  EXPECT_TRUE(cf.CleansPredicate());
  EXPECT_EQ(EncodeCf(cf), bits);
  // Index 0x85 spans pad bits 34-40 and bit 41.
  const uint64_t high = (uint64_t(14) << 44) | (uint64_t(0x85) << 34);
  EXPECT_EQ(DecodeCf(high).CondBoolAddress(), 0x85u);
  // The plain spelling assembles to the cleaning form, PredicateClean=false to opcode 3.
  const Shader s = Decode(Assemble("cexec b7\n mov r0, c0\ncexece !b2, PredicateClean=false\n",
                                   nullptr, ShaderType::kPixel),
                          ShaderType::kPixel);
  EXPECT_EQ(s.cf[0].opcode, CfOpcode::kCondExecPredClean);
  EXPECT_EQ(s.cf[0].CondBoolAddress(), 7u);
  EXPECT_EQ(s.cf[1].opcode, CfOpcode::kCondExecEnd);
  EXPECT_FALSE(s.cf[1].condition);
  EXPECT_FALSE(s.cf[1].CleansPredicate());
}

}  // namespace
}  // namespace xnt::ucode
