// capture's Pm4Builder -> replay's CommandProcessor: what the builder encodes is what the command
// processor decodes, opcode by opcode, and the D3D-style sequences produce the draws, resolves
// and swaps they describe.
#include <gtest/gtest.h>

#include <bit>

#include "pm4_test_util.h"
#include "xnt/capture/pm4_builder.h"

namespace xnt::replay {
namespace {

using capture::Pm4Builder;
using test::Rig;
using xenos::Reg;

void Execute(Rig& rig, const Pm4Builder& b, uint32_t address = 0x100000) {
  rig.cp.Execute(b.dwords(), address, 0);
}

TEST(BuilderRoundTrip, RegisterPacketsAllForms) {
  Rig rig;
  Pm4Builder b;
  b.WriteRegister(Reg::RB_SURFACE_INFO, 1280);
  b.WriteRegisters(Reg::RB_COLOR_INFO, {0x10, 0x10200});
  const uint32_t lut[3] = {1, 2, 3};
  b.WriteRegisterOne(xenos::RegIndex(Reg::DC_LUT_30_COLOR), lut);
  b.WriteRegisterPair(xenos::RegIndex(Reg::SCRATCH_REG0), 5, xenos::RegIndex(Reg::SCRATCH_REG1), 6);
  b.Filler(2);
  b.Nop(3);
  b.RegRmw(xenos::RegIndex(Reg::SCRATCH_REG0), 0xFFFFFFF0, 0x8);
  Execute(rig, b);
  EXPECT_TRUE(rig.cp.diagnostics().empty());
  EXPECT_EQ(rig.registers.Get(Reg::RB_SURFACE_INFO), 1280u);
  EXPECT_EQ(rig.registers.Get(Reg::RB_DEPTH_INFO), 0x10200u);
  EXPECT_EQ(rig.registers.Get(Reg::DC_LUT_30_COLOR), 3u);
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG0), 0x8u);  // (5 & ~0xF) | 8
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG1), 6u);
}

TEST(BuilderRoundTrip, DrawsOfEverySource) {
  Rig rig;
  rig.PutBE(0x200000, {0x00000001, 0x00020003});
  Pm4Builder b;
  b.WriteRegister(Reg::RB_MODECONTROL, 4);
  b.DrawIndxAuto(xenos::PrimitiveType::kTriangleList, 3);
  b.DrawIndxDma(xenos::PrimitiveType::kTriangleStrip, 4, 0x200000, xenos::IndexFormat::kInt16,
                xenos::Endian::k8in16);
  const uint16_t idx[3] = {7, 8, 9};
  b.DrawIndxImmediate(xenos::PrimitiveType::kTriangleList, idx);
  b.DrawIndx2Auto(xenos::PrimitiveType::kRectangleList, 3);
  b.DrawIndx2Immediate(xenos::PrimitiveType::kPointList, idx);
  Execute(rig, b);
  EXPECT_TRUE(rig.cp.diagnostics().empty()) << rig.cp.diagnostics()[0].ToString();
  ASSERT_EQ(rig.backend.draws.size(), 5u);
  EXPECT_EQ(rig.backend.draws[0].call.indices.source, xenos::SourceSelect::kAutoIndex);
  const auto& dma = rig.backend.draws[1].call;
  EXPECT_EQ(dma.initiator.prim_type, xenos::PrimitiveType::kTriangleStrip);
  EXPECT_EQ(dma.indices.guest_address, 0x200000u);
  EXPECT_EQ(dma.indices.endian, xenos::Endian::k8in16);
  EXPECT_EQ(dma.indices.size_bytes, 8u);
  EXPECT_EQ(rig.backend.draws[2].immediate, (std::vector<uint32_t>{7u | (8u << 16), 9u}));
  EXPECT_EQ(rig.backend.draws[3].call.opcode, uint32_t(xenos::Opcode::kDrawIndx2));
  EXPECT_EQ(rig.backend.draws[3].call.initiator.prim_type, xenos::PrimitiveType::kRectangleList);
  EXPECT_EQ(rig.backend.draws[4].immediate.size(), 2u);
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(rig.backend.draws[i].call.draw_index, i);
}

TEST(BuilderRoundTrip, ShadersConstantsAndIndirectBuffers) {
  Rig rig;
  const std::vector<uint32_t> vs = {0xA, 0xB, 0xC};
  rig.PutBE(0x300000, vs);
  rig.PutBE(0x310000, {0x3F800000, 0x40000000, 0x40400000, 0x40800000});
  Pm4Builder ib;
  ib.WriteRegister(Reg::SCRATCH_REG3, 0x33);
  rig.PutBE(0x320000, ib.dwords());
  Pm4Builder b;
  b.ImLoad(xenos::ShaderType::kVertex, 0x300000, 3);
  const uint32_t ps[2] = {0x1234, 0x5678};
  b.ImLoadImmediate(xenos::ShaderType::kPixel, ps);
  const float c[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  b.SetAluConstants(10, c);
  const uint32_t fetch[2] = {3u | (0x1000u << 2), 2u | (12u << 2)};
  b.SetFetchConstant(2, fetch);
  const uint32_t bools[1] = {0x80000000u};
  b.SetConstant(xenos::ConstantType::kBool, 0, bools);
  const uint32_t loop[1] = {0x00010A04};
  b.SetConstant(xenos::ConstantType::kLoop, 3, loop);
  const uint32_t vport[2] = {0x44200000, 0x44200000};
  b.SetConstant2(xenos::RegIndex(Reg::PA_CL_VPORT_XSCALE), vport);
  const uint32_t sc[1] = {0x3F000000};
  b.SetShaderConstants(0x4000, sc);
  b.LoadAluConstant(0x310000, xenos::ConstantType::kAlu, 20 * 4, 4);
  b.IndirectBuffer(0x320000, uint32_t(ib.size()));
  b.IndirectBuffer(0x320000, uint32_t(ib.size()), true);
  Execute(rig, b);
  EXPECT_TRUE(rig.cp.diagnostics().empty()) << rig.cp.diagnostics()[0].ToString();
  ASSERT_NE(rig.cp.active_vertex_shader(), nullptr);
  EXPECT_EQ(rig.cp.active_vertex_shader()->dwords, vs);
  ASSERT_NE(rig.cp.active_pixel_shader(), nullptr);
  EXPECT_EQ(rig.cp.active_pixel_shader()->dwords, (std::vector<uint32_t>{0x1234, 0x5678}));
  EXPECT_FLOAT_EQ(rig.registers.AluConstant(10, 3), 3.5f);
  EXPECT_EQ(rig.registers.VertexFetch(1).size_dwords, 12u);
  EXPECT_EQ(rig.registers.VertexFetch(1).address_bytes(), 0x4000u);
  EXPECT_TRUE(rig.registers.BoolConstant(31));
  EXPECT_EQ(rig.registers.Loop(3).count, 4u);
  EXPECT_EQ(rig.registers.Loop(3).start, 10u);
  EXPECT_FLOAT_EQ(rig.registers.GetFloat(xenos::RegIndex(Reg::PA_CL_VPORT_XOFFSET)), 640.0f);
  EXPECT_FLOAT_EQ(rig.registers.AluConstant(0, 0), 0.5f);
  EXPECT_FLOAT_EQ(rig.registers.AluConstant(20, 2), 3.0f);
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG3), 0x33u);
}

TEST(BuilderRoundTrip, MemoryEventsAndSynchronisation) {
  Rig rig;
  rig.memory.StoreBE32(0x400000, 9);
  Pm4Builder b;
  const uint32_t words[2] = {0xAABBCCDD, 0x11223344};
  b.MemWrite(0x400010, words, xenos::Endian::k8in32);
  b.WriteRegister(Reg::SCRATCH_REG2, 0x77);
  b.RegToMem(xenos::RegIndex(Reg::SCRATCH_REG2), 0x400020, xenos::Endian::k8in32);
  b.WaitRegMem(true, xenos::WaitFunction::kEqual, 0x400000 | 2, 9, 0xFFFFFFFF, 0x100);
  b.CondWrite(true, xenos::WaitFunction::kGreaterEqual, 0x400000 | 2, 9, 0xFFFFFFFF, true,
              0x400030 | 2, 0x55);
  b.EventWrite(xenos::Event::kCacheFlush);
  b.EventWriteShd(xenos::Event::kPsDoneTs, 0x400040 | 2, 0x66);
  b.EventWriteExt(xenos::Event::kScreenExtRpt, 0x400050 | 1);
  b.EventWriteZpd(xenos::Event::kZpassDone);
  b.VizQuery(3, false);
  b.VizQuery(3, true);
  b.WaitForIdle();
  b.ContextUpdate();
  b.InvalidateState(0x7FFF);
  b.Interrupt(1);
  const uint32_t me[2] = {1, 2};
  b.MeInit(me);
  b.SetBinMask(0x0000000100000000ull);
  b.SetBinSelect(0x0000000100000000ull);
  b.SetPredicate(true);
  b.WriteRegister(Reg::SCRATCH_REG6, 0x66);  // type 0 packets ignore predication
  b.SetConstant2(xenos::RegIndex(Reg::SCRATCH_REG7), std::span<const uint32_t>(me, 1));
  b.SetPredicate(false);
  b.SetBinMaskLo(0);
  b.SetBinMaskHi(0);
  b.SetBinSelectLo(0);
  b.SetBinSelectHi(0);
  b.XeSwap(0x01000000, 1280, 720, 59);
  Execute(rig, b);
  EXPECT_TRUE(rig.cp.diagnostics().empty()) << rig.cp.diagnostics()[0].ToString();
  EXPECT_EQ(rig.memory.LoadBE32(0x400010), 0xAABBCCDDu);
  EXPECT_EQ(rig.memory.LoadBE32(0x400014), 0x11223344u);
  EXPECT_EQ(rig.memory.LoadBE32(0x400020), 0x77u);
  EXPECT_EQ(rig.memory.LoadBE32(0x400030), 0x55u);
  EXPECT_EQ(rig.memory.LoadBE32(0x400040), 0x66u);
  EXPECT_EQ(rig.memory.LoadBE32(0x400050), 0x00000400u);  // min x 0, max x 8192 >> 3
  EXPECT_EQ(rig.registers.Get(Reg::PA_SC_VIZ_QUERY_STATUS_0), 1u << 3);
  EXPECT_EQ(rig.cp.me_init_data(), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG6), 0x66u);
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG7), 1u);  // mask & select share bit 32
  EXPECT_EQ(rig.cp.bin_mask(), 0u);
  ASSERT_EQ(rig.backend.swaps.size(), 1u);
  EXPECT_EQ(rig.backend.swaps[0].width, 1280u);
  // EVENT_WRITE, SHD, EXT, ZPD, viz begin/end, idle, context, invalidate, interrupt, ME_INIT.
  EXPECT_EQ(rig.backend.events.size(), 11u);
}

TEST(BuilderRoundTrip, D3dSequencesGiveDrawResolveAndSwap) {
  Rig rig;
  Pm4Builder b;
  capture::D3dDeviceDefaults(b);
  capture::RenderTargetSetup rt;
  rt.surface_pitch = 1280;
  rt.msaa = xenos::MsaaSamples::k2X;
  rt.color_base_tiles = 0;
  rt.color_format = xenos::ColorRenderTargetFormat::k_2_10_10_10_FLOAT;
  rt.depth = true;
  rt.depth_base_tiles = 900;
  rt.depth_format = xenos::DepthRenderTargetFormat::kD24FS8;
  capture::D3dSetRenderTarget(b, rt);
  capture::D3dSetViewport(b, 0, 0, 1280, 720);
  const uint32_t vs[3] = {1, 2, 3}, ps[3] = {4, 5, 6};
  capture::ShaderPair shaders;
  shaders.vertex_microcode = vs;
  shaders.pixel_microcode = ps;
  capture::D3dSetShaders(b, shaders);
  // The builder's render-target setup leaves RB_MODECONTROL alone; D3D has it at colour+depth.
  b.WriteRegister(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
  b.DrawIndxAuto(xenos::PrimitiveType::kTriangleList, 3);
  capture::D3dResolve(b, rt, {.width = 1280, .height = 720, .dest_address = 0x01000000, .dest_pitch = 1280,
                              .dest_height = 720, .clear_color = true, .clear_color_value = 0x12345678,
                              .vertex_address = 0x00500000});
  capture::D3dSwap(b, 0x01000000, 1280, 720);
  const auto verts = capture::ResolveRectangleVertices(1280, 720);
  rig.memory.Write(0x00500000, verts);
  Execute(rig, b);
  EXPECT_EQ(rig.Count(Severity::kError), 0u);
  ASSERT_EQ(rig.backend.draws.size(), 1u);
  const auto& draw = rig.backend.draws[0];
  EXPECT_EQ(draw.call.edram_mode, xenos::ModeControl::kColorDepth);
  const auto si = xenos::reg::RB_SURFACE_INFO::Decode(draw.surface_info);
  EXPECT_EQ(si.surface_pitch, 1280u);
  EXPECT_EQ(si.msaa_samples, xenos::MsaaSamples::k2X);
  EXPECT_NE(draw.vs_hash, 0u);
  EXPECT_NE(draw.ps_hash, 0u);
  ASSERT_EQ(rig.backend.resolves.size(), 1u);
  const auto& r = rig.backend.resolves[0];
  EXPECT_EQ(r.draw.draw_index, 1u);
  EXPECT_EQ(r.dest_base & ~0xFFFu, 0x01000000u & ~0xFFFu);
  EXPECT_EQ(r.dest_pitch.copy_dest_pitch, 1280u);
  EXPECT_TRUE(r.copy_control.color_clear_enable);
  EXPECT_EQ(r.color_clear, 0x12345678u);
  EXPECT_EQ(r.draw.initiator.prim_type, xenos::PrimitiveType::kRectangleList);
  // After the resolve the mode goes back to colour+depth.
  EXPECT_EQ(rig.registers.Decode<xenos::reg::RB_MODECONTROL>().edram_mode,
            xenos::ModeControl::kColorDepth);
  ASSERT_EQ(rig.backend.swaps.size(), 1u);
  EXPECT_EQ(rig.backend.swaps[0].front_buffer_address, 0x01000000u);
  EXPECT_EQ(rig.registers.TextureFetch(0).base_address_bytes(), 0x01000000u);
}

}  // namespace
}  // namespace xnt::replay
