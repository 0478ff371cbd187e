// gpu::EdramTargetsForDraw with the CPU extent estimate (gpu::EstimateDrawExtent behind the
// gpu::DrawRowsEstimate hook): a draw without a scissor whose vertices stay in rows 0..100 claims the
// tiles down to row 100, not the rest of the EDRAM; without an answer the extent stays guessed.
#include <gtest/gtest.h>

#include <bit>
#include <vector>

#include "replay_helpers.h"
#include "xnt/base/byte_order.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"
#include "xnt/vk/fbo/edram_cache.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

using xenos::Reg;

class DrawExtentEdramTest : public ::testing::Test {
 protected:
  void SetUp() override {
    regs_.assign(xenos::kRegisterCount, 0);
    Set(Reg::RB_SURFACE_INFO, xenos::reg::RB_SURFACE_INFO{320, xenos::MsaaSamples::k1X, 0}.Encode());
    Set(Reg::RB_COLOR_INFO, xenos::reg::RB_COLOR_INFO{0, 0, xenos::ColorRenderTargetFormat::k_8_8_8_8,
                                                     0}.Encode());
    Set(Reg::RB_DEPTH_INFO, 1024u);  // depth at tile 1024: 4096 rows to the EDRAM end
    Set(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
    Set(Reg::RB_COLOR_MASK, 0xF);
    // No scissor: window and screen scissors open to 8192 (D3D's device default).
    Set(Reg::PA_SC_WINDOW_SCISSOR_BR, (8192u << 16) | 8192u);
    Set(Reg::PA_SC_SCREEN_SCISSOR_BR, (8192u << 16) | 8192u);
  }
  void Set(Reg r, uint32_t v) { regs_[xenos::RegIndex(r)] = v; }

  std::vector<uint32_t> regs_;
  const bool color_[4] = {true, false, false, false};
};

TEST_F(DrawExtentEdramTest, EstimatedRowsReplaceTheGuess) {
  gpu::EdramEventTargets guessed = gpu::EdramTargetsForDraw(regs_, color_, false);
  ASSERT_EQ(guessed.used.size(), 1u);
  EXPECT_TRUE(guessed.used[0].rows_guessed);
  const uint32_t rest = guessed.used[0].rows;
  EXPECT_GT(rest, 1000u);  // 2048 tiles of 80x16 at pitch 320 (4 tiles a row): 8192 rows

  int calls = 0;
  gpu::EdramEventTargets t = gpu::EdramTargetsForDraw(regs_, color_, true, [&]() -> std::optional<uint32_t> {
    ++calls;
    return 101u;  // vertices in rows 0..100
  });
  EXPECT_EQ(calls, 1);  // asked once for colour and depth
  ASSERT_EQ(t.used.size(), 2u);
  for (const gpu::EdramUse& use : t.used) {
    EXPECT_EQ(use.rows, 101u);
    EXPECT_FALSE(use.rows_guessed);
    EXPECT_TRUE(use.rows_estimated);
  }
  // Rows 0..100 are 7 rows of tiles (16 rows each), 4 tiles wide at pitch 320.
  EXPECT_EQ(t.used[0].surface.TilesForRows(t.used[0].rows), 28u);
  EXPECT_LT(t.used[0].surface.TilesForRows(t.used[0].rows),
            guessed.used[0].surface.TilesForRows(rest));

  // No answer: still the guess.
  t = gpu::EdramTargetsForDraw(regs_, color_, false, [] { return std::optional<uint32_t>(); });
  EXPECT_TRUE(t.used[0].rows_guessed);
  EXPECT_FALSE(t.used[0].rows_estimated);
  EXPECT_EQ(t.used[0].rows, rest);
}

TEST_F(DrawExtentEdramTest, AScissorBoundsTheDrawWithoutAskingTheEstimate) {
  Set(Reg::PA_SC_WINDOW_SCISSOR_BR, (50u << 16) | 320u);
  int calls = 0;
  gpu::EdramEventTargets t = gpu::EdramTargetsForDraw(regs_, color_, false, [&]() -> std::optional<uint32_t> {
    ++calls;
    return 101u;
  });
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(t.used[0].rows, 50u);
  // Depth at the last tile with the depth test on: the scissor bounds it too, and its rows run
  // past tile 2047 into tile 0 as the hardware addresses them (not cut at the EDRAM end).
  Set(Reg::RB_DEPTH_INFO, 0x7FFu);
  t = gpu::EdramTargetsForDraw(regs_, color_, true, [&]() -> std::optional<uint32_t> {
    ++calls;
    return 101u;
  });
  EXPECT_EQ(calls, 0);
  ASSERT_EQ(t.used.size(), 2u);
  EXPECT_FALSE(t.used[1].rows_guessed);
  EXPECT_EQ(t.used[1].rows, 50u);
  EXPECT_GT(t.used[1].surface.TilesForRows(t.used[1].rows), 1u);  // 2047, then 0...
  EXPECT_FALSE(t.used[0].rows_guessed);
  EXPECT_FALSE(t.used[0].rows_estimated);
}

// End to end through TracePlayer + an fbo session on lavapipe: a draw with the window scissor open
// to 8192 rows and screen-space positions (VTE off) whose lowest vertex is at y = `bottom`.
// Returns the colour target's claim for the draw.
gpu::EdramClaim ReplayOpenScissorDraw(float bottom, uint32_t* validation_messages) {
  const auto vs = ucode::AssembleShader(R"(xvs_3_0
    exec
    vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4
    alloc position
    exec
    mov oPos, r1
    alloc interpolators
    exece
    mov o0, r1
)");
  const auto ps = ucode::AssembleShader("xps_3_0\n    alloc colors\n    exece\n    mov oC0, c0\n");
  constexpr uint32_t kVertices = 0x10000;
  const float v[12] = {10.0f, 0.0f, 0.0f, 1.0f, 200.0f, 0.0f, 0.0f, 1.0f, 10.0f, bottom, 0.0f, 1.0f};
  std::vector<uint8_t> bytes(sizeof(v));
  for (int i = 0; i < 12; ++i) StoreBE32(&bytes[size_t(i) * 4], std::bit_cast<uint32_t>(v[i]));
  capture::Pm4Builder b;
  capture::D3dDeviceDefaults(b);
  capture::RenderTargetSetup rt;
  rt.surface_pitch = 320;
  capture::D3dSetRenderTarget(b, rt);
  b.WriteRegister(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
  b.WriteRegisters(Reg::PA_SC_WINDOW_SCISSOR_TL, {0x80000000u, (8192u << 16) | 8192u});
  b.WriteRegister(Reg::PA_CL_VTE_CNTL, 0x700);  // no viewport transform: positions in pixels
  capture::ShaderPair shaders{vs.microcode, ps.microcode, 2, 1, 1};
  capture::D3dSetShaders(b, shaders);
  const float color[4] = {1.0f, 0.0f, 0.0f, 1.0f};
  b.SetAluConstants(256, color);
  capture::D3dSetVertexFetch(b, 95, kVertices, 12);
  b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 3);

  gpu::EdramClaim claim;
  auto session = test::MakeLavapipeSession({});
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Apply(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kVertices, bytes});
  player.Apply(format::Submission{format::SubmissionKind::kRingBuffer, 0x80000, b.Take()});
  session->Flush();
  for (const gpu::EdramClaim& c : session->edram()->claims()) {
    if (c.trigger == "draw" && !c.owner.is_depth) claim = c;
  }
  *validation_messages = session->validation_message_count();
  return claim;
}

TEST(DrawExtentEdramReplay, OpenScissorDrawClaimsTheRowsItsVerticesReach) {
  uint32_t messages = 0;
  gpu::EdramClaim c = ReplayOpenScissorDraw(100.0f, &messages);
  EXPECT_EQ(messages, 0u);
  EXPECT_EQ(c.trigger, "draw");
  EXPECT_FALSE(c.guessed);
  EXPECT_EQ(c.start_tile, 0u);
  EXPECT_EQ(c.tiles, 28u);  // rows 0..100 (+ the half-pixel offset): 7 tile rows x 4 tiles
  c = ReplayOpenScissorDraw(1000.0f, &messages);
  EXPECT_FALSE(c.guessed);
  EXPECT_EQ(c.tiles, 63u * 4u);  // rows 0..1000: 63 tile rows
}

}  // namespace
}  // namespace xnt::vk
