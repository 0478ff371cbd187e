// Command processor: every packet type and every type-3 opcode, on hand-built PM4 streams.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstring>

#include "pm4_test_util.h"
#include "xnt/base/byte_order.h"
#include "xnt/xenos/registers.h"

namespace xnt::replay {
namespace {

using test::Pm4;
using test::Rig;
using xenos::Opcode;
using xenos::Reg;
using xenos::RegIndex;

constexpr uint32_t kDrawAuto3Tris =  // triangle list, auto index, 3 indices
    uint32_t(xenos::PrimitiveType::kTriangleList) | (2u << 6) | (3u << 16);

TEST(CommandProcessor, Type0WritesConsecutiveRegisters) {
  Rig rig;
  rig.Run(Pm4().Type0(Reg::RB_SURFACE_INFO, {0x20500, 0x00060010, 0x10000}));
  EXPECT_EQ(rig.registers.Get(Reg::RB_SURFACE_INFO), 0x20500u);
  EXPECT_EQ(rig.registers.Get(Reg::RB_COLOR_INFO), 0x00060010u);
  EXPECT_EQ(rig.registers.Get(Reg::RB_DEPTH_INFO), 0x10000u);
  EXPECT_EQ(rig.cp.packets_executed(), 1u);
  EXPECT_TRUE(rig.cp.diagnostics().empty());
}

struct WriteLog : PacketObserver {
  std::vector<std::pair<uint32_t, uint32_t>> writes;
  std::vector<PacketInfo> packets;
  void OnRegisterWrite(uint32_t i, uint32_t v) override { writes.emplace_back(i, v); }
  void OnPacket(const PacketInfo& p) override {
    packets.push_back(p);
    packets.back().payload = {};
  }
};

TEST(CommandProcessor, Type0OneRegisterWritesTheSameRegister) {
  Rig rig;
  WriteLog log;
  rig.cp.set_observer(&log);
  rig.Run(Pm4().Type0(RegIndex(Reg::DC_LUT_30_COLOR), {1, 2, 3}, true));
  ASSERT_EQ(log.writes.size(), 3u);
  for (auto& w : log.writes) EXPECT_EQ(w.first, RegIndex(Reg::DC_LUT_30_COLOR));
  EXPECT_EQ(rig.registers.Get(Reg::DC_LUT_30_COLOR), 3u);
  EXPECT_EQ(rig.registers.Get(Reg::DC_LUT_WRITE_EN_MASK), 0u);  // the next register is untouched
}

TEST(CommandProcessor, Type1WritesTwoRegisters) {
  Rig rig;
  rig.Run(Pm4().Type1(RegIndex(Reg::SCRATCH_REG2), 0xAA, RegIndex(Reg::WAIT_UNTIL), 0xBB));
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG2), 0xAAu);
  EXPECT_EQ(rig.registers.Get(Reg::WAIT_UNTIL), 0xBBu);
}

TEST(CommandProcessor, Type2AndZeroDwordsAreOneDwordNoOps) {
  Rig rig;
  WriteLog log;
  rig.cp.set_observer(&log);
  rig.Run(Pm4().Type2().Raw(0).Type0(Reg::RB_SURFACE_INFO, {7}));
  ASSERT_EQ(log.packets.size(), 3u);
  EXPECT_EQ(log.packets[0].type, xenos::PacketType::kType2);
  EXPECT_TRUE(log.packets[1].filler);
  EXPECT_EQ(log.packets[2].offset.dword, 2u);
  EXPECT_EQ(log.packets[2].guest_address, 0x100008u);
  EXPECT_EQ(rig.registers.Get(Reg::RB_SURFACE_INFO), 7u);
}

TEST(CommandProcessor, CountPastTheBufferIsAnErrorWithOffsetAndAddress) {
  Rig rig;
  Pm4 s;
  s.Type0(Reg::RB_SURFACE_INFO, {1});
  s.Raw(xenos::MakeType0(RegIndex(Reg::RB_COLOR_INFO), 10)).Raw(5);  // 10 promised, 1 present
  rig.Run(s, 0x200000);
  EXPECT_EQ(rig.registers.Get(Reg::RB_SURFACE_INFO), 1u);
  EXPECT_EQ(rig.registers.Get(Reg::RB_COLOR_INFO), 0u);
  ASSERT_EQ(rig.cp.diagnostics().size(), 1u);
  const auto& d = rig.cp.diagnostics()[0];
  EXPECT_EQ(d.severity, Severity::kError);
  EXPECT_EQ(d.offset.dword, 2u);
  EXPECT_EQ(d.guest_address, 0x200008u);
  EXPECT_NE(d.message.find("RB_COLOR_INFO"), std::string::npos);

  Rig rig3;
  rig3.Run(Pm4().Raw(xenos::MakeType3(Opcode::kMemWrite, 5)).Raw(0));
  ASSERT_EQ(rig3.Count(Severity::kError), 1u);
  EXPECT_TRUE(rig3.HasDiagnostic("MEM_WRITE"));
}

TEST(CommandProcessor, NopSkipsItsPayload) {
  Rig rig;
  Pm4 s;
  s.Type3(Opcode::kNop, {xenos::MakeType0(RegIndex(Reg::RB_SURFACE_INFO), 1), 99});
  rig.Run(s);
  EXPECT_EQ(rig.registers.Get(Reg::RB_SURFACE_INFO), 0u);
  EXPECT_EQ(rig.cp.packets_executed(), 1u);
}

TEST(CommandProcessor, RegRmwImmediateAndRegisterForms) {
  Rig rig;
  rig.registers.Set(Reg::SCRATCH_REG0, 0xFF00FF00);
  rig.Run(Pm4().Type3(Opcode::kRegRmw, {RegIndex(Reg::SCRATCH_REG0), 0x0FF00FF0, 0x1}));
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG0), 0x0F000F01u);
  // Bit 31: AND with a register; bit 30: OR with a register.
  rig.registers.Set(Reg::SCRATCH_REG1, 0xF0);
  rig.registers.Set(Reg::SCRATCH_REG2, 0x3);
  rig.registers.Set(Reg::SCRATCH_REG3, 0xFF);
  rig.Run(Pm4().Type3(Opcode::kRegRmw, {0xC0000000u | RegIndex(Reg::SCRATCH_REG3),
                                        RegIndex(Reg::SCRATCH_REG1), RegIndex(Reg::SCRATCH_REG2)}));
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG3), 0xF3u);
}

TEST(CommandProcessor, DrawIndxAutoIssuesNumberedDraws) {
  Rig rig;
  rig.registers.Set(Reg::RB_MODECONTROL, 4);
  rig.registers.Set(Reg::RB_SURFACE_INFO, 1280);
  Pm4 s;
  s.Type3(Opcode::kDrawIndx, {0x0, kDrawAuto3Tris});
  s.Type3(Opcode::kDrawIndx, {0x0, kDrawAuto3Tris});
  rig.Run(s);
  ASSERT_EQ(rig.backend.draws.size(), 2u);
  const auto& d0 = rig.backend.draws[0].call;
  EXPECT_EQ(d0.draw_index, 0u);
  EXPECT_EQ(rig.backend.draws[1].call.draw_index, 1u);
  EXPECT_EQ(d0.initiator.prim_type, xenos::PrimitiveType::kTriangleList);
  EXPECT_EQ(d0.initiator.num_indices, 3u);
  EXPECT_EQ(d0.indices.source, xenos::SourceSelect::kAutoIndex);
  EXPECT_EQ(d0.edram_mode, xenos::ModeControl::kColorDepth);
  EXPECT_EQ(d0.offset.dword, 0u);
  EXPECT_EQ(rig.backend.draws[1].call.offset.dword, 3u);
  EXPECT_EQ(rig.backend.draws[0].surface_info, 1280u);
  EXPECT_EQ(rig.registers.Get(Reg::VGT_DRAW_INITIATOR), kDrawAuto3Tris);
  EXPECT_EQ(rig.cp.draw_in_frame(), 2u);
  rig.cp.EndFrame({});
  EXPECT_EQ(rig.cp.frame(), 1u);
  EXPECT_EQ(rig.cp.draw_in_frame(), 0u);
  ASSERT_EQ(rig.backend.frames.size(), 1u);
  EXPECT_EQ(rig.backend.frames[0].draws, 2u);
}

TEST(CommandProcessor, DrawIndxDmaPassesTheIndexBuffer) {
  Rig rig;
  rig.PutBE(0x300FF8, {0x00000001, 0x00020003});
  // 32-bit indices (bit 11), DMA, triangle strip, 4 indices.
  const uint32_t init = 6u | (0u << 6) | (1u << 11) | (4u << 16);
  rig.Run(Pm4().Type3(Opcode::kDrawIndx, {0x0, init, 0x300FFA, (2u << 30) | 4u}));
  ASSERT_EQ(rig.backend.draws.size(), 1u);
  const auto& ib = rig.backend.draws[0].call.indices;
  EXPECT_EQ(ib.source, xenos::SourceSelect::kDma);
  EXPECT_EQ(ib.guest_address, 0x300FF8u);  // aligned down to the index size
  EXPECT_EQ(ib.size_bytes, 16u);
  EXPECT_EQ(ib.format, xenos::IndexFormat::kInt32);
  EXPECT_EQ(ib.endian, xenos::Endian::k8in32);
  EXPECT_EQ(rig.registers.Get(Reg::VGT_DMA_BASE), 0x300FFAu);
  EXPECT_EQ(rig.registers.Get(Reg::VGT_DMA_SIZE), (2u << 30) | 4u);
  // Bytes 8..15 fall on the next page, which was never recorded.
  EXPECT_TRUE(rig.HasDiagnostic("was not recorded"));

  Rig bad;
  bad.Run(Pm4().Type3(Opcode::kDrawIndx, {0x0, init, 0x1FFFFFF0, 64}));
  EXPECT_TRUE(bad.backend.draws.empty());
  EXPECT_TRUE(bad.HasDiagnostic("leaves the 512 MiB"));
  EXPECT_EQ(bad.cp.diagnostics()[0].guest_address, 0x1FFFFFF0u);
}

TEST(CommandProcessor, DrawIndx2ImmediateIndices) {
  Rig rig;
  const uint32_t init = 4u | (1u << 6) | (3u << 16);  // tri list, immediate, 16-bit, 3 indices
  rig.Run(Pm4().Type3(Opcode::kDrawIndx2, {init, 0x00010000, 0x00000002}));
  ASSERT_EQ(rig.backend.draws.size(), 1u);
  EXPECT_EQ(rig.backend.draws[0].call.opcode, uint32_t(Opcode::kDrawIndx2));
  EXPECT_EQ(rig.backend.draws[0].immediate, (std::vector<uint32_t>{0x00010000, 0x00000002}));
  EXPECT_TRUE(rig.cp.diagnostics().empty());
}

TEST(CommandProcessor, CopyModeDrawIsAResolve) {
  Rig rig;
  Pm4 s;
  s.Type0(Reg::RB_MODECONTROL, {6});
  s.Type0(Reg::RB_COPY_CONTROL, {(1u << 8) | (1u << 20)});  // colour clear, convert
  s.Type0(Reg::RB_COPY_DEST_BASE, {0x01000000, (720u << 16) | 1280u, (6u << 7) | 2u});
  s.Type0(Reg::RB_COLOR_CLEAR, {0xFF00FF00});
  s.Type3(Opcode::kDrawIndx, {0x0, 8u | (2u << 6) | (3u << 16)});
  rig.Run(s);
  EXPECT_TRUE(rig.backend.draws.empty());
  ASSERT_EQ(rig.backend.resolves.size(), 1u);
  const auto& r = rig.backend.resolves[0];
  EXPECT_EQ(r.draw.draw_index, 0u);
  EXPECT_TRUE(r.copy_control.color_clear_enable);
  EXPECT_EQ(r.copy_control.copy_command, xenos::CopyCommand::kConvert);
  EXPECT_EQ(r.dest_base, 0x01000000u);
  EXPECT_EQ(r.dest_pitch.copy_dest_pitch, 1280u);
  EXPECT_EQ(r.dest_pitch.copy_dest_height, 720u);
  EXPECT_EQ(r.dest_info.copy_dest_format, xenos::TextureFormat::k_8_8_8_8);
  EXPECT_EQ(r.dest_info.copy_dest_endian, xenos::Endian128::k8in32);
  EXPECT_EQ(r.color_clear, 0xFF00FF00u);
}

TEST(CommandProcessor, VizQueryMarksVisibleAndKillDropsDraws) {
  Rig rig;
  Pm4 s;
  s.Type3(Opcode::kVizQuery, {5});
  s.Type0(Reg::PA_SC_VIZ_QUERY, {1u | (5u << 1) | 0x80u});
  s.Type3(Opcode::kDrawIndx, {0x0, kDrawAuto3Tris});
  s.Type0(Reg::PA_SC_VIZ_QUERY, {0});
  s.Type3(Opcode::kVizQuery, {0x100u | 5});
  s.Type3(Opcode::kVizQuery, {0x100u | 33});
  rig.Run(s);
  EXPECT_TRUE(rig.backend.draws.empty());
  EXPECT_EQ(rig.registers.Get(Reg::PA_SC_VIZ_QUERY_STATUS_0), 1u << 5);
  EXPECT_EQ(rig.registers.Get(Reg::PA_SC_VIZ_QUERY_STATUS_1), 1u << 1);
  ASSERT_EQ(rig.backend.events.size(), 3u);
  EXPECT_EQ(rig.backend.events[0].kind, EventKind::kVizQueryBegin);
  EXPECT_EQ(rig.backend.events[1].kind, EventKind::kVizQueryEnd);
  EXPECT_EQ(rig.registers.Get(Reg::VGT_EVENT_INITIATOR), uint32_t(xenos::Event::kVizQueryEnd));
}

TEST(CommandProcessor, ControlOpcodesRaiseEvents) {
  Rig rig;
  Pm4 s;
  s.Type3(Opcode::kMeInit, {1, 2, 3});
  s.Type3(Opcode::kWaitForIdle, {0});
  s.Type3(Opcode::kContextUpdate, {0});
  s.Type3(Opcode::kInvalidateState, {0x7FFF});
  s.Type3(Opcode::kInterrupt, {0x41});
  rig.Run(s);
  EXPECT_EQ(rig.cp.me_init_data(), (std::vector<uint32_t>{1, 2, 3}));
  ASSERT_EQ(rig.backend.events.size(), 5u);
  EXPECT_EQ(rig.backend.events[0].kind, EventKind::kMeInit);
  EXPECT_EQ(rig.backend.events[1].kind, EventKind::kWaitForIdle);
  EXPECT_EQ(rig.backend.events[2].kind, EventKind::kContextUpdate);
  EXPECT_EQ(rig.backend.events[3].kind, EventKind::kInvalidateState);
  EXPECT_EQ(rig.backend.events[3].value, 0x7FFFu);
  EXPECT_EQ(rig.backend.events[4].kind, EventKind::kInterrupt);
  EXPECT_EQ(rig.backend.events[4].value, 0x01u);  // 6-bit CPU mask
}

uint64_t BigEndianHash(const std::vector<uint32_t>& host) {
  std::vector<uint32_t> be(host);
  for (auto& v : be) v = ByteSwap32(v);
  return XXH3_64bits(be.data(), be.size() * 4);
}

TEST(CommandProcessor, ImLoadReadsMicrocodeFromGuestMemory) {
  Rig rig;
  const std::vector<uint32_t> vs = {0x11111111, 0x22222222, 0x33333333, 0x44444444};
  rig.PutBE(0x400000, vs);
  Pm4 s;
  s.Type3(Opcode::kImLoad, {0x400000u | 0u, 4u});  // vertex shader, start 0, 4 dwords
  s.Type3(Opcode::kDrawIndx, {0x0, kDrawAuto3Tris});
  rig.Run(s);
  const Shader* shader = rig.cp.active_vertex_shader();
  ASSERT_NE(shader, nullptr);
  EXPECT_EQ(shader->dwords, vs);
  EXPECT_EQ(shader->guest_address, 0x400000u);
  EXPECT_FALSE(shader->immediate);
  EXPECT_EQ(shader->hash, BigEndianHash(vs));
  ASSERT_EQ(rig.backend.draws.size(), 1u);
  EXPECT_EQ(rig.backend.draws[0].vs_hash, shader->hash);
  EXPECT_EQ(rig.backend.draws[0].ps_hash, 0u);
  EXPECT_TRUE(rig.cp.diagnostics().empty());
}

TEST(CommandProcessor, ImLoadImmediateTakesMicrocodeFromThePacket) {
  Rig rig;
  const std::vector<uint32_t> ps = {0xDEADBEEF, 0x01234567, 0x89ABCDEF};
  Pm4 s;
  s.Type2();
  s.Type3(Opcode::kImLoadImmediate, {1, 3, ps[0], ps[1], ps[2]});
  rig.Run(s, 0x500000);
  const Shader* shader = rig.cp.active_pixel_shader();
  ASSERT_NE(shader, nullptr);
  EXPECT_EQ(shader->dwords, ps);
  EXPECT_TRUE(shader->immediate);
  EXPECT_EQ(shader->guest_address, 0x500000u + 4 + 12);  // header at +4, microcode 3 dwords on
  EXPECT_EQ(shader->hash, BigEndianHash(ps));

  Rig bad;
  bad.Run(Pm4().Type3(Opcode::kImLoadImmediate, {0, 9, 1}));
  EXPECT_EQ(bad.cp.active_vertex_shader(), nullptr);
  EXPECT_TRUE(bad.HasDiagnostic("declares 9 microcode dwords"));
}

TEST(CommandProcessor, SetConstantTypesMapToTheirAreas) {
  Rig rig;
  Pm4 s;
  s.Type3(Opcode::kSetConstant, {(0u << 16) | 5, 0x3F800000, 0x40000000});  // ALU c1.y, c1.z
  s.Type3(Opcode::kSetConstant, {(1u << 16) | 6, 0x12345603});               // FETCH group 1
  s.Type3(Opcode::kSetConstant, {(2u << 16) | 1, 0x80000001});               // BOOL 32..63
  s.Type3(Opcode::kSetConstant, {(3u << 16) | 2, 0x00010203});               // LOOP 2
  s.Type3(Opcode::kSetConstant, {(4u << 16) | 0x181, 0x55});                 // REGISTERS
  s.Type3(Opcode::kSetConstant, {(9u << 16), 1});                            // unknown type
  rig.Run(s);
  EXPECT_EQ(rig.registers[0x4005], 0x3F800000u);
  EXPECT_FLOAT_EQ(rig.registers.AluConstant(1, 2), 2.0f);
  EXPECT_EQ(rig.registers[0x4806], 0x12345603u);
  EXPECT_TRUE(rig.registers.BoolConstant(32));
  EXPECT_TRUE(rig.registers.BoolConstant(63));
  EXPECT_FALSE(rig.registers.BoolConstant(33));
  auto loop = rig.registers.Loop(2);
  EXPECT_EQ(loop.count, 3u);
  EXPECT_EQ(loop.start, 2u);
  EXPECT_EQ(loop.step, 1);
  EXPECT_EQ(rig.registers.Get(Reg::SQ_CONTEXT_MISC), 0x55u);
  EXPECT_TRUE(rig.HasDiagnostic("unknown constant type 9"));
}

TEST(CommandProcessor, SetConstant2AndSetShaderConstantsUseAbsoluteIndices) {
  Rig rig;
  Pm4 s;
  s.Type3(Opcode::kSetConstant2, {RegIndex(Reg::PA_CL_VPORT_XSCALE), 0x44200000, 0x44200000});
  s.Type3(Opcode::kSetShaderConstants, {0x4100, 7});
  rig.Run(s);
  EXPECT_FLOAT_EQ(rig.registers.GetFloat(RegIndex(Reg::PA_CL_VPORT_XSCALE)), 640.0f);
  EXPECT_EQ(rig.registers.Get(Reg::PA_CL_VPORT_XOFFSET), 0x44200000u);
  EXPECT_EQ(rig.registers[0x4100], 7u);
}

TEST(CommandProcessor, LoadAluConstantReadsBigEndianMemory) {
  Rig rig;
  rig.PutBE(0x600000, {0x3F800000, 0x40000000, 0x40400000, 0x40800000});
  rig.Run(Pm4().Type3(Opcode::kLoadAluConstant, {0x600000, (0u << 16) | 8, 4}));
  EXPECT_FLOAT_EQ(rig.registers.AluConstant(2, 0), 1.0f);
  EXPECT_FLOAT_EQ(rig.registers.AluConstant(2, 3), 4.0f);
  EXPECT_TRUE(rig.cp.diagnostics().empty());
}

TEST(CommandProcessor, IndirectBuffersExecuteFromMemoryWithNestingLimits) {
  Rig rig;
  // IB2 at 0x710000 writes SCRATCH_REG1; IB1 at 0x700000 writes SCRATCH_REG0 and calls IB2.
  Pm4 ib2;
  ib2.Type0(Reg::SCRATCH_REG1, {0x22});
  Pm4 ib1;
  ib1.Type0(Reg::SCRATCH_REG0, {0x11});
  ib1.Type3(Opcode::kIndirectBufferPfd, {0x710000, uint32_t(ib2.d.size())});
  rig.PutBE(0x710000, ib2.d);
  rig.PutBE(0x700000, ib1.d);
  // The ring refers to IB1 through a CPU (virtual) address; the CP keeps the low 29 bits.
  rig.Run(Pm4().Type3(Opcode::kIndirectBuffer, {0xA0700000u, uint32_t(ib1.d.size())}));
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG0), 0x11u);
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG1), 0x22u);
  EXPECT_TRUE(rig.cp.diagnostics().empty());

  // Recursion: an IB that calls itself.
  Rig rec;
  Pm4 self;
  self.Type3(Opcode::kIndirectBuffer, {0x720000, 3});
  rec.PutBE(0x720000, self.d);
  rec.Run(Pm4().Type3(Opcode::kIndirectBuffer, {0x720000, 3}));
  ASSERT_EQ(rec.Count(Severity::kError), 1u);
  EXPECT_TRUE(rec.HasDiagnostic("recursion"));
  EXPECT_EQ(rec.cp.diagnostics()[0].offset.ib_depth, 1u);
  EXPECT_EQ(rec.cp.diagnostics()[0].guest_address, 0x720000u);

  // Depth: a chain of distinct IBs deeper than the limit.
  CommandProcessorOptions deep_options;
  deep_options.max_indirect_depth = 3;
  Rig deep(deep_options);
  for (uint32_t i = 0; i < 5; ++i) {
    Pm4 link;
    link.Type3(Opcode::kIndirectBuffer, {0x800000 + (i + 1) * 0x100, 3});
    deep.PutBE(0x800000 + i * 0x100, link.d);
  }
  deep.Run(Pm4().Type3(Opcode::kIndirectBuffer, {0x800000, 3}));
  EXPECT_TRUE(deep.HasDiagnostic("nested deeper than 3"));

  // Out of range.
  Rig far;
  far.Run(Pm4().Type3(Opcode::kIndirectBuffer, {0x1FFFFFF0, 0x100}));
  EXPECT_TRUE(far.HasDiagnostic("leaves the 512 MiB"));
  EXPECT_EQ(far.cp.diagnostics()[0].guest_address, 0x1FFFFFF0u);
}

TEST(CommandProcessor, WaitRegMemEvaluatesOnceAndWarnsWhenUnmet) {
  Rig rig;
  rig.memory.StoreBE32(0x900000, 5);  // a big-endian fence value
  Pm4 s;
  // Memory poll (bit 4), function == (3), address | 2 (8in32), ref 5, mask ~0.
  s.Type3(Opcode::kWaitRegMem, {0x13, 0x900002, 5, 0xFFFFFFFF, 0x100});
  rig.Run(s);
  EXPECT_TRUE(rig.cp.diagnostics().empty());
  Pm4 unmet;
  unmet.Type3(Opcode::kWaitRegMem, {0x16, 0x900002, 5, 0xFFFFFFFF, 0x100});  // > 5
  rig.Run(unmet);
  ASSERT_EQ(rig.Count(Severity::kWarning), 1u);
  EXPECT_TRUE(rig.HasDiagnostic("never satisfied"));
  // Register poll of COHER_STATUS_HOST: the write sets the busy bit, the wait clears it.
  Rig coher;
  Pm4 c;
  c.Type0(Reg::COHER_STATUS_HOST, {0x03000000});
  c.Type3(Opcode::kWaitRegMem, {0x3, RegIndex(Reg::COHER_STATUS_HOST), 0, 0x80000000, 0x100});
  coher.Run(c);
  EXPECT_EQ(coher.registers.Get(Reg::COHER_STATUS_HOST), 0x03000000u);
  EXPECT_TRUE(coher.cp.diagnostics().empty());
}

TEST(CommandProcessor, MemWriteSwapsByTheAddressEndianBits) {
  Rig rig;
  Pm4 s;
  s.Type3(Opcode::kMemWrite, {0xA00000u | 2u, 0x11223344, 0x55667788});  // 8in32
  s.Type3(Opcode::kMemWrite, {0xA00010u | 0u, 0x11223344});              // no swap
  rig.Run(s);
  EXPECT_EQ(rig.memory.LoadBE32(0xA00000), 0x11223344u);
  EXPECT_EQ(rig.memory.LoadBE32(0xA00004), 0x55667788u);
  EXPECT_EQ(rig.memory.LoadLE32(0xA00010), 0x11223344u);
  ASSERT_EQ(rig.backend.memory_writes.size(), 2u);
  EXPECT_EQ(rig.backend.memory_writes[0], (std::pair<uint32_t, uint32_t>(0xA00000, 8)));

  Rig high;
  high.Run(Pm4().Type3(Opcode::kMemWrite, {0xE0A00002u, 0x01020304}));
  EXPECT_EQ(high.memory.LoadBE32(0x00A00000), 0x01020304u);
  EXPECT_TRUE(high.HasDiagnostic("beyond the 512 MiB"));
  EXPECT_EQ(high.cp.diagnostics()[0].guest_address, 0xE0A00000u);

  Rig end;
  end.Run(Pm4().Type3(Opcode::kMemWrite, {0x1FFFFFFC, 1, 2}));
  EXPECT_EQ(end.Count(Severity::kError), 1u);
}

TEST(CommandProcessor, RegToMemAndCondWrite) {
  Rig rig;
  rig.registers.Set(Reg::SCRATCH_REG6, 0xCAFEF00D);
  rig.memory.StoreBE32(0xB00000, 7);
  Pm4 s;
  s.Type3(Opcode::kRegToMem, {RegIndex(Reg::SCRATCH_REG6), 0xB00010 | 2});
  // COND_WRITE: memory poll == 7 -> write 0x99 to memory (bit 8).
  s.Type3(Opcode::kCondWrite, {0x113, 0xB00000 | 2, 7, 0xFFFFFFFF, 0xB00020 | 2, 0x99});
  // Not matched (!= 7): nothing written.
  s.Type3(Opcode::kCondWrite, {0x114, 0xB00000 | 2, 7, 0xFFFFFFFF, 0xB00030 | 2, 0x98});
  // Matched, register target.
  s.Type3(Opcode::kCondWrite, {0x013, 0xB00000 | 2, 7, 0xFFFFFFFF, RegIndex(Reg::SCRATCH_REG7), 3});
  rig.Run(s);
  EXPECT_EQ(rig.memory.LoadBE32(0xB00010), 0xCAFEF00Du);
  EXPECT_EQ(rig.memory.LoadBE32(0xB00020), 0x99u);
  EXPECT_FALSE(rig.memory.IsRecorded(0xB00030, 4) && rig.memory.LoadBE32(0xB00030) == 0x98u);
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG7), 3u);
}

TEST(CommandProcessor, EventWritesAndFences) {
  Rig rig;
  Pm4 s;
  s.Type3(Opcode::kEventWrite, {0x40u | uint32_t(xenos::Event::kCacheFlush)});
  s.Type3(Opcode::kEventWriteShd, {uint32_t(xenos::Event::kPsDoneTs), 0xC00000 | 2, 0x1234});
  s.Type3(Opcode::kXeSwap, {xenos::kSwapSignature, 0x1F000000, 1280, 720});
  s.Type3(Opcode::kEventWriteShd, {0x80000000u | 3u, 0xC00004 | 2, 0x1234});  // swap counter
  s.Type3(Opcode::kEventWriteExt, {uint32_t(xenos::Event::kScreenExtRpt), 0xC00010 | 1});
  s.Type0(Reg::RB_SAMPLE_COUNT_ADDR, {0xC00100});
  s.Type3(Opcode::kEventWriteZpd, {uint32_t(xenos::Event::kZpassDone)});
  rig.Run(s);
  EXPECT_EQ(rig.memory.LoadBE32(0xC00000), 0x1234u);
  EXPECT_EQ(rig.memory.LoadBE32(0xC00004), 1u);
  const uint8_t expected_ext[12] = {0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 0, 1};
  uint8_t ext[12];
  rig.memory.Read(0xC00010, ext);
  EXPECT_EQ(0, std::memcmp(ext, expected_ext, 12));
  EXPECT_EQ(rig.memory.LoadBE32(0xC00100), 0u);  // ZPD counts are not faked
  ASSERT_EQ(rig.backend.events.size(), 5u);
  EXPECT_EQ(rig.backend.events[0].kind, EventKind::kEventWrite);
  EXPECT_EQ(rig.backend.events[1].kind, EventKind::kEventWriteShd);
  EXPECT_EQ(rig.backend.events[1].value, 0x1234u);
  EXPECT_EQ(rig.backend.events[4].kind, EventKind::kEventWriteZpd);
  EXPECT_EQ(rig.backend.events[4].address, 0xC00100u);
  EXPECT_EQ(rig.registers.Get(Reg::VGT_EVENT_INITIATOR), uint32_t(xenos::Event::kZpassDone));
}

TEST(CommandProcessor, BinMaskSelectPredication) {
  Rig rig;
  Pm4 s;
  s.Type3(Opcode::kSetBinMask, {0x00000001, 0x00000000});    // mask = 1 << 32
  s.Type3(Opcode::kSetBinSelect, {0x00000000, 0x00000001});  // select = 1
  s.Type3(Opcode::kSetConstant2, {RegIndex(Reg::SCRATCH_REG0), 1}, true);  // skipped
  s.Type3(Opcode::kSetBinSelectHi, {0x00000001});                          // select |= 1 << 32
  s.Type3(Opcode::kSetConstant2, {RegIndex(Reg::SCRATCH_REG1), 2}, true);  // runs
  s.Type3(Opcode::kXeSwap, {xenos::kSwapSignature, 0, 1, 1}, true);        // never runs
  s.Type3(Opcode::kSetBinMaskLo, {0xF0});
  s.Type3(Opcode::kSetBinMaskHi, {0});
  s.Type3(Opcode::kSetBinSelectLo, {0x0F});
  s.Type3(Opcode::kSetBinSelectHi, {0});
  s.Type3(Opcode::kSetConstant2, {RegIndex(Reg::SCRATCH_REG2), 3}, true);  // skipped
  rig.Run(s);
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG0), 0u);
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG1), 2u);
  EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG2), 0u);
  EXPECT_TRUE(rig.backend.swaps.empty());
  EXPECT_EQ(rig.cp.bin_mask(), 0xF0u);
  EXPECT_EQ(rig.cp.bin_select(), 0x0Fu);
}

TEST(CommandProcessor, XeSwap) {
  Rig rig;
  std::vector<uint32_t> payload(63, 0);
  payload[0] = xenos::kSwapSignature;
  payload[1] = 0x1F000000;
  payload[2] = 1280;
  payload[3] = 720;
  rig.Run(Pm4().Type3(Opcode::kXeSwap, payload));
  ASSERT_EQ(rig.backend.swaps.size(), 1u);
  EXPECT_EQ(rig.backend.swaps[0].front_buffer_address, 0x1F000000u);
  EXPECT_EQ(rig.backend.swaps[0].width, 1280u);
  EXPECT_EQ(rig.backend.swaps[0].height, 720u);
  EXPECT_EQ(rig.cp.swap_counter(), 1u);
  EXPECT_TRUE(rig.cp.diagnostics().empty());

  Rig bad;
  bad.Run(Pm4().Type3(Opcode::kXeSwap, {0x12345678, 0, 1, 1}).Type3(Opcode::kXeSwap, {0}));
  EXPECT_TRUE(bad.HasDiagnostic("signature"));
  EXPECT_TRUE(bad.HasDiagnostic("needs at least 4"));
  EXPECT_EQ(bad.backend.swaps.size(), 1u);
}

TEST(CommandProcessor, UnknownAndUnmodelledOpcodesAreSkippedWithWarnings) {
  Rig rig;
  Pm4 s;
  s.Raw(xenos::MakeType3(Opcode(0x7F), 2)).Raw(xenos::MakeType0(0x2000, 1)).Raw(1);
  s.Type3(Opcode::kCondExec, {1, 2, 3});
  s.Type0(Reg::RB_SURFACE_INFO, {42});
  rig.Run(s);
  EXPECT_EQ(rig.registers.Get(Reg::RB_SURFACE_INFO), 42u);  // decoding continued; payload skipped
  ASSERT_EQ(rig.Count(Severity::kWarning), 2u);
  EXPECT_TRUE(rig.HasDiagnostic("unknown type-3 opcode 0x7F"));
  EXPECT_TRUE(rig.HasDiagnostic("COND_EXEC (0x44) is not modelled"));
  EXPECT_EQ(rig.cp.diagnostics()[1].offset.dword, 3u);
}

TEST(CommandProcessor, EveryOpcodeValueSurvivesShortAndLongPayloads) {
  for (uint32_t op = 0; op < 128; ++op) {
    for (uint32_t n : {1u, 7u}) {
      Rig rig;
      Pm4 s;
      std::vector<uint32_t> payload(n, 0x1FFFFFFFu);
      s.Type3(Opcode(op), payload);
      s.Type0(Reg::SCRATCH_REG7, {op});
      rig.Run(s);
      EXPECT_EQ(rig.registers.Get(Reg::SCRATCH_REG7), op) << "opcode " << op << " n " << n;
    }
  }
}

TEST(CommandProcessor, ScratchRegisterWriteback) {
  Rig rig;
  Pm4 s;
  s.Type0(Reg::SCRATCH_UMSK, {0x4});  // only scratch 2
  s.Type0(Reg::SCRATCH_ADDR, {0xD00000});
  s.Type0(Reg::SCRATCH_REG1, {0x11});
  s.Type0(Reg::SCRATCH_REG2, {0x22});
  rig.Run(s);
  EXPECT_EQ(rig.memory.LoadBE32(0xD00008), 0x22u);
  EXPECT_FALSE(rig.memory.IsRecorded(0xD00004, 4) && rig.memory.LoadBE32(0xD00004) != 0);
}

TEST(CommandProcessor, PacketLimitStopsProcessing) {
  CommandProcessorOptions options;
  options.max_packets = 3;
  Rig rig(options);
  Pm4 s;
  for (int i = 0; i < 10; ++i) s.Type2();
  rig.Run(s);
  rig.Run(s);
  EXPECT_EQ(rig.cp.packets_executed(), 3u);
  EXPECT_TRUE(rig.cp.stopped());
  EXPECT_EQ(rig.Count(Severity::kError), 1u);
}

TEST(CommandProcessor, RegisterWritesPastTheFileAreDropped) {
  Rig rig;
  rig.Run(Pm4().Type0(0x5002, {1, 2, 3}));
  EXPECT_EQ(rig.registers[0x5002], 1u);
  EXPECT_TRUE(rig.HasDiagnostic("runs past the register file"));
}

}  // namespace
}  // namespace xnt::replay

namespace xnt::replay {
namespace {

TEST(CommandProcessor, FetchBudgetStopsHostileStreams) {
  CommandProcessorOptions options;
  options.max_fetch_dwords = 1000;
  test::Rig rig(options);
  test::Pm4 s;
  for (int i = 0; i < 5; ++i) s.Type3(xenos::Opcode::kImLoad, {0x10000, 400});
  s.Type0(xenos::Reg::SCRATCH_REG0, {1});
  rig.Run(s);
  EXPECT_TRUE(rig.cp.stopped());
  EXPECT_EQ(rig.registers.Get(xenos::Reg::SCRATCH_REG0), 0u);
  EXPECT_TRUE(rig.HasDiagnostic("memory fetch limit (1000 dwords)"));
}

}  // namespace
}  // namespace xnt::replay
