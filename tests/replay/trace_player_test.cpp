// Trace player: records written with format::Writer, read back with format::Reader, applied to
// guest memory / registers and executed; frame and draw numbering.
#include <gtest/gtest.h>

#include <filesystem>

#include "pm4_test_util.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"
#include "xnt/replay/null_backend.h"
#include "xnt/replay/trace_player.h"

namespace xnt::replay {
namespace {

using test::Pm4;
using xenos::Opcode;
using xenos::Reg;

using test::TempPath;

constexpr uint32_t kDraw = 4u | (2u << 6) | (3u << 16);

format::Submission Ring(const Pm4& s, uint32_t address) {
  format::Submission sub;
  sub.kind = format::SubmissionKind::kRingBuffer;
  sub.guest_address = address;
  sub.dwords = s.d;
  return sub;
}

// Frame 0: initial memory + register snapshot, an IB in memory, two draws, swap.
// Frame 1: a CPU write, one draw, a resolve, swap.
std::string WriteTwoFrameTrace() {
  std::string path = TempPath("two_frames");
  auto w = test::CreateTraceWriter(path, "replay-test");
  // Initial memory: vertex shader microcode at 0x10000 (big-endian) and an IB at 0x20000.
  std::vector<uint8_t> vs = {0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02};
  w->WriteMemory(format::MemoryEventKind::kInitialSnapshot, 0x10000, vs);
  Pm4 ib;
  ib.Type3(Opcode::kDrawIndx, {0, kDraw});
  std::vector<uint8_t> ib_bytes;
  for (uint32_t v : ib.d) {
    for (int s = 24; s >= 0; s -= 8) ib_bytes.push_back(uint8_t(v >> s));
  }
  w->WriteMemory(format::MemoryEventKind::kInitialSnapshot, 0x20000, ib_bytes);
  w->Write(format::RegisterSnapshot{0x2000, {1280, 0x10}});
  Pm4 f0;
  f0.Type3(Opcode::kImLoad, {0x10000, 2});
  f0.Type0(Reg::RB_MODECONTROL, {4});
  f0.Type3(Opcode::kDrawIndx, {0, kDraw});
  f0.Type3(Opcode::kIndirectBuffer, {0x20000, uint32_t(ib.d.size())});
  f0.Type3(Opcode::kXeSwap, {xenos::kSwapSignature, 0x1000000, 1280, 720});
  w->Write(Ring(f0, 0x8000));
  w->Write(format::FrameMarker{0, 0x1000000, 1280, 720, 6});
  // Frame 1.
  std::vector<uint8_t> newer = {0x00, 0x00, 0x00, 0x07};
  w->WriteMemory(format::MemoryEventKind::kCpuWrite, 0x10000, newer);
  w->WriteMemory(format::MemoryEventKind::kGpuWrite, 0x30000, newer);  // informational only
  Pm4 f1;
  f1.Type3(Opcode::kImLoad, {0x10000, 2});
  f1.Type3(Opcode::kDrawIndx, {0, kDraw});
  f1.Type0(Reg::RB_MODECONTROL, {6});
  f1.Type3(Opcode::kDrawIndx, {0, 8u | (2u << 6) | (3u << 16)});
  f1.Type3(Opcode::kXeSwap, {xenos::kSwapSignature, 0x1000000, 1280, 720});
  w->Write(Ring(f1, 0x8100));
  w->Write(format::FrameMarker{1, 0x1000000, 1280, 720, 6});
  w->Finish();
  return path;
}

TEST(TracePlayer, PlaysFramesWithMemoryRegistersAndNumbering) {
  const std::string path = WriteTwoFrameTrace();
  auto reader = format::Reader::Open(path);
  test::RecordingBackend backend;
  TracePlayer player(backend);
  std::vector<size_t> record_kinds;
  player.Play(*reader, std::nullopt, [&](uint64_t index, const format::Record& r) {
    EXPECT_EQ(index, record_kinds.size());
    record_kinds.push_back(r.index());
    return true;
  });
  EXPECT_EQ(player.records_applied(), record_kinds.size());
  EXPECT_TRUE(player.command_processor().diagnostics().empty())
      << player.command_processor().diagnostics()[0].ToString();
  ASSERT_EQ(backend.draws.size(), 3u);
  EXPECT_EQ(backend.draws[0].call.frame, 0u);
  EXPECT_EQ(backend.draws[0].call.draw_index, 0u);
  EXPECT_EQ(backend.draws[1].call.draw_index, 1u);
  EXPECT_EQ(backend.draws[1].call.offset.ib_depth, 1u);  // the one in the indirect buffer
  EXPECT_EQ(backend.draws[2].call.frame, 1u);
  EXPECT_EQ(backend.draws[2].call.draw_index, 0u);
  EXPECT_EQ(backend.draws[0].surface_info, 1280u);  // from the register snapshot
  // The CPU write changed the microcode between the frames, so the hashes differ.
  EXPECT_NE(backend.draws[0].vs_hash, backend.draws[2].vs_hash);
  EXPECT_NE(backend.draws[0].vs_hash, 0u);
  ASSERT_EQ(backend.resolves.size(), 1u);
  EXPECT_EQ(backend.resolves[0].draw.draw_index, 1u);
  ASSERT_EQ(backend.swaps.size(), 2u);
  EXPECT_EQ(backend.swaps[1].frame, 1u);
  ASSERT_EQ(backend.frames.size(), 2u);
  EXPECT_EQ(backend.frames[0].draws, 2u);
  EXPECT_EQ(backend.frames[1].draws, 2u);
  EXPECT_EQ(player.memory().LoadBE32(0x10000), 7u);
  EXPECT_FALSE(player.memory().IsRecorded(0x30000, 4));  // kGpuWrite is not applied
  std::filesystem::remove(path);
}

TEST(TracePlayer, StopsAtTheRequestedFrame) {
  const std::string path = WriteTwoFrameTrace();
  auto reader = format::Reader::Open(path);
  NullBackend backend;
  TracePlayer player(backend);
  player.Play(*reader, 0);
  EXPECT_EQ(backend.counts().draws, 2u);
  EXPECT_EQ(backend.counts().frames, 1u);
  EXPECT_EQ(backend.counts().swaps, 1u);
  EXPECT_EQ(player.command_processor().frame(), 1u);
  std::filesystem::remove(path);
}

TEST(TracePlayer, BadRecordsBecomeDiagnostics) {
  test::RecordingBackend backend;
  TracePlayer player(backend);
  format::MemoryEvent far;
  far.guest_address = 0x1FFFFFFE;
  far.bytes = {1, 2, 3, 4};
  player.Apply(far);
  player.Apply(format::RegisterSnapshot{0x5000, {1, 2, 3, 4}});
  player.Apply(format::EdramSnapshot{std::vector<uint8_t>(16)});
  const auto& d = player.command_processor().diagnostics();
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].offset.record, 0u);
  EXPECT_EQ(d[0].guest_address, 0x1FFFFFFEu);
  EXPECT_EQ(d[1].offset.record, 1u);
  EXPECT_EQ(player.registers()[0x5002], 3u);
  EXPECT_EQ(backend.edram_snapshots, 1u);
}

}  // namespace
}  // namespace xnt::replay
