// Control-flow analysis: blocks and edges, loops with break/continue, flush points, masks, and
// the errors for runaway control flow.
#include <gtest/gtest.h>

#include "error_text.h"
#include "xnt/base/error.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/assembler.h"

namespace xnt::ucode {
namespace {

Analysis AnalyzeText(const std::string& text, ShaderType type = ShaderType::kPixel) {
  return Analyze(Decode(Assemble(text, nullptr, type), type));
}

std::string AnalysisError(const std::string& text) {
  return xnt::test::ErrorText([&] { (void)AnalyzeText(text); }, "no error");
}

TEST(UcodeAnalysis, LoopWithBreakAndContinue) {
  const Analysis a = AnalyzeText(
      "    exec\n"                  // CF 0
      "    mov r0, c0\n"
      "    loop i3, Lout\n"         // CF 1
      "Lbody:\n"
      "    cexec b1\n"              // CF 2
      "    add r0, r0, c1\n"
      "    cjmp b2, Lcont\n"        // CF 3: continue
      "    (p0) jmp Lout\n"         // CF 4: break
      "Lcont:\n"
      "    endloop i3, Lbody\n"     // CF 5
      "Lout:\n"
      "    alloc colors\n"          // CF 6
      "    exece\n"                 // CF 7
      "    mov oC0, r0\n");
  ASSERT_EQ(a.loops.size(), 1u);
  const Loop& l = a.loops[0];
  EXPECT_EQ(l.start_cf, 1u);
  EXPECT_EQ(l.end_cf, 5u);
  EXPECT_EQ(l.body_cf, 2u);
  EXPECT_EQ(l.skip_cf, 6u);
  EXPECT_EQ(l.loop_constant, 3u);
  EXPECT_EQ(l.continue_cfs, std::vector<uint32_t>{3});
  EXPECT_EQ(l.break_cfs, std::vector<uint32_t>{4});
  EXPECT_EQ(a.loop_constants, 1u << 3);
  EXPECT_EQ(a.bool_constants_mask[0], (1u << 1) | (1u << 2));
  EXPECT_TRUE(a.uses_predicate);
  // Blocks: [0-1] [2-3] [4] [5] [6-7]
  ASSERT_EQ(a.blocks.size(), 5u);
  EXPECT_EQ(a.blocks[0].successors, (std::vector<uint32_t>{4, 1}));  // skip, body
  EXPECT_EQ(a.blocks[1].successors, (std::vector<uint32_t>{3, 2}));  // continue, fallthrough
  EXPECT_EQ(a.blocks[2].successors, (std::vector<uint32_t>{4, 3}));  // break, fallthrough
  EXPECT_EQ(a.blocks[3].successors, (std::vector<uint32_t>{1, 4}));  // back edge, exit
  EXPECT_TRUE(a.blocks[4].is_exit);
  EXPECT_EQ(a.blocks[4].predecessors, (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_EQ(a.cf_block[5], 3u);
}

TEST(UcodeAnalysis, FlushPointsAndMemexport) {
  const Analysis a = AnalyzeText(
      "xvs_3_0\n"
      "    alloc export, Size=1\n"
      "    exec Serialize=0x2\n"
      "    mov eA, r1\n"
      "    mov eM0, r2\n"
      "    alloc position\n"
      "    exece\n"
      "    mov oPos, r1\n",
      ShaderType::kVertex);
  ASSERT_EQ(a.flush_points.size(), 4u);
  EXPECT_EQ(a.flush_points[0].kind, FlushKind::kAlloc);
  EXPECT_EQ(a.flush_points[1].kind, FlushKind::kSerialize);
  EXPECT_EQ(a.flush_points[1].slot, 3u);
  EXPECT_EQ(a.flush_points[2].kind, FlushKind::kAlloc);
  EXPECT_EQ(a.flush_points[3].kind, FlushKind::kEnd);
  EXPECT_TRUE(a.uses_memexport);
  EXPECT_EQ(a.memexport_data_mask, 1u);
  EXPECT_EQ(a.position_mask, 0xFu);
  EXPECT_EQ(a.temps_read, 0x6u);
}

TEST(UcodeAnalysis, KillsAndInputs) {
  const Analysis a = AnalyzeText(
      "    exec\n"
      "    kill_gt r5, r0, c0\n"
      "    mul r2, r1, r3\n"
      "    alloc colors\n"
      "    exece\n"
      "    mov oC1, r2\n");
  EXPECT_TRUE(a.kills_pixels);
  EXPECT_EQ(a.ps_input_mask, (1u << 0) | (1u << 1) | (1u << 3));  // r2 is written first
  EXPECT_EQ(a.color_mask, 0x2u);
  EXPECT_EQ(a.flush_points[0].kind, FlushKind::kKill);
  EXPECT_EQ(a.max_temp, 5u);
}

TEST(UcodeAnalysis, CallAndReturn) {
  const Analysis a = AnalyzeText(
      "    call Lsub\n"      // CF 0
      "    exece\n"          // CF 1
      "    mov oC0, r0\n"
      "Lsub:\n"
      "    exec\n"           // CF 2
      "    mov r0, c0\n"
      "    ret\n");          // CF 3
  ASSERT_EQ(a.blocks.size(), 3u);
  EXPECT_EQ(a.blocks[0].successors, (std::vector<uint32_t>{2, 1}));
  EXPECT_TRUE(a.blocks[2].is_return);
}

TEST(UcodeAnalysis, RunawayControlFlowIsAnError) {
  EXPECT_EQ(AnalysisError("L0:\n    jmp L0\n    exece\n"),
            "at byte offset 0: microcode dword 0 (CF 0): runaway control flow: no exece is "
            "reachable from the entry");
  EXPECT_EQ(AnalysisError("    exec\n    mov r0, c0\n"),
            "at byte offset 0: microcode dword 0 (CF 0): control flow runs past the last CF "
            "instruction without an exece");
  EXPECT_EQ(AnalysisError("    loop i0, L2\n    exec\n    exece\n"),
            "at byte offset 0: microcode dword 0 (CF 0): loop_start without a matching endloop");
  EXPECT_EQ(AnalysisError("    exec\n    endloop i0, L0\n    exece\n"),
            "at byte offset 4: microcode dword 1 (CF 1): endloop without a matching loop_start");
  EXPECT_EQ(AnalysisError("    loop i0, L3\n    exec\n    endloop i1, L1\n    exece\n"),
            "at byte offset 12: microcode dword 3 (CF 2): endloop uses i1 but its loop_start uses "
            "i0");
  EXPECT_EQ(AnalysisError("    loop i0, L0\n    endloop i0, L1\n    exece\n"),
            "at byte offset 0: microcode dword 0 (CF 0): loop_start skip target L0 is not after it");
}

}  // namespace
}  // namespace xnt::ucode
