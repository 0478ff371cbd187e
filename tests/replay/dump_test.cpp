// `dump` output: golden text for a small hand-built trace, JSON-lines shape, --frame/--draw
// filtering, and decoding speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "pm4_test_util.h"
#include "test_files.h"
#include "xnt/format/reader.h"
#include "xnt/format/writer.h"
#include "xnt/replay/dump.h"
#include "xnt/replay/null_backend.h"
#include "xnt/replay/trace_player.h"

#if defined(__SANITIZE_ADDRESS__)
#define XNT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define XNT_TEST_ASAN 1
#endif
#endif

namespace xnt::replay {
namespace {

// Sanitised builds run the speed tests on a smaller stream (they only check correctness there).
#if defined(XNT_TEST_ASAN)
constexpr size_t kSpeedPackets = 140000;
#else
constexpr size_t kSpeedPackets = 700000;
#endif

using test::Pm4;
using xenos::Opcode;
using xenos::Reg;

using test::TempPath;

struct Timing {
  double cpu = 0.0, wall = 0.0;  // seconds
};
template <typename Work>
Timing Time(Work&& work) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  work();
  return {double(std::clock() - c0) / CLOCKS_PER_SEC,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

// Prints one speed line and returns packets per CPU second: the test is single-threaded, so that
// is the speed on one core even when the machine is busy with other work.
double ReportSpeed(const char* what, uint64_t packets, std::optional<uint64_t> bytes, Timing time) {
  const double rate = double(packets) / std::max(time.cpu, 1e-6);
  const std::string text_bytes = bytes ? std::to_string(*bytes) + " bytes, " : "";
  std::printf("[ speed    ] %s: %llu packets, %s%.3f s CPU (%.3f s wall) = %.2f M packets/s\n", what,
              static_cast<unsigned long long>(packets), text_bytes.c_str(), time.cpu, time.wall,
              rate / 1e6);
  return rate;
}

void PutBE(std::vector<uint8_t>& out, const std::vector<uint32_t>& dwords) {
  for (uint32_t v : dwords) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(uint8_t(v >> s));
  }
}

// Two frames exercising registers with decoded fields, shaders, an indirect buffer, DMA indices,
// a resolve with clear, fences, a swap and one bad packet.
std::string WriteDumpTrace() {
  std::string path = TempPath("dump");
  auto w = test::CreateTraceWriter(path, "dump-test");
  std::vector<uint8_t> vs;
  PutBE(vs, {0x10000000, 0x20000000, 0x30000000});
  w->WriteMemory(format::MemoryEventKind::kInitialSnapshot, 0x00010000, vs);
  std::vector<uint8_t> indices;
  PutBE(indices, {0x00000001, 0x00020003});
  w->WriteMemory(format::MemoryEventKind::kGpuRead, 0x00020000, indices);
  Pm4 ib;
  ib.Type0(Reg::RB_COLOR_MASK, {0xF});
  ib.Type3(Opcode::kDrawIndx, {0, 4u | (0u << 6) | (4u << 16), 0x00020000, (1u << 30) | 4u});
  std::vector<uint8_t> ib_bytes;
  PutBE(ib_bytes, ib.d);
  w->WriteMemory(format::MemoryEventKind::kGpuRead, 0x00030000, ib_bytes);

  Pm4 f0;
  f0.Type0(Reg::RB_SURFACE_INFO, {1280u | (2u << 16), 0x10u, 0x00010000u | 0x200u});
  f0.Type0(Reg::RB_MODECONTROL, {4});
  f0.Type0(Reg::RB_DEPTHCONTROL, {0x00000036});
  f0.Type3(Opcode::kSetConstant2, {0x210F, 0x44200000});
  f0.Type3(Opcode::kImLoad, {0x00010000, 3});
  f0.Type3(Opcode::kImLoadImmediate, {1, 2, 0xAAAA0000, 0xBBBB0000});
  f0.Type3(Opcode::kDrawIndx, {0, 4u | (2u << 6) | (3u << 16)});
  f0.Type0(Reg::VGT_DMA_BASE, {0});
  f0.Type3(Opcode::kIndirectBuffer, {0x00030000, uint32_t(ib.d.size())});
  f0.Type3(Opcode::kEventWriteShd, {3, 0x00040000 | 2, 0x77});
  f0.Type3(Opcode::kXeSwap, {xenos::kSwapSignature, 0x01000000, 1280, 720});
  format::Submission s0;
  s0.guest_address = 0x00008000;
  s0.dwords = f0.d;
  w->Write(s0);
  w->Write(format::FrameMarker{0, 0x01000000, 1280, 720, 6});

  Pm4 f1;
  f1.Type0(Reg::RB_MODECONTROL, {6});
  f1.Type0(Reg::RB_COPY_CONTROL, {(1u << 8) | (1u << 9)});
  f1.Type0(Reg::RB_COPY_DEST_BASE, {0x02000000, (720u << 16) | 1280u, (6u << 7) | 2u});
  f1.Type3(Opcode::kDrawIndx, {0, 8u | (2u << 6) | (3u << 16)});
  f1.Raw(xenos::MakeType3(Opcode(0x70), 1)).Raw(0);
  f1.Type3(Opcode::kXeSwap, {xenos::kSwapSignature, 0x01000000, 1280, 720});
  f1.Raw(xenos::MakeType3(Opcode::kMemWrite, 4)).Raw(0x00040000);  // truncated: 4 promised, 1 left
  format::Submission s1;
  s1.guest_address = 0x00009000;
  s1.dwords = f1.d;
  w->Write(s1);
  w->Write(format::FrameMarker{1, 0x01000000, 1280, 720, 6});
  w->Finish();
  return path;
}

std::string Dump(const std::string& path, const DumpOptions& options) {
  auto reader = format::Reader::Open(path);
  std::string out;
  DumpPrinter printer(options, [&](std::string_view s) { out.append(s); });
  TracePlayer player(printer);
  printer.Attach(player);
  printer.Run(player, *reader);
  return out;
}

using ::xnt::test::ReadFileText;

const std::string kGoldenDir = std::string(XNT_SOURCE_DIR) + "/tests/replay/golden/";

// Set XNT_UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate format change.
void CheckGolden(const std::string& actual, const std::string& name) {
  const std::string path = kGoldenDir + name;
  if (std::getenv("XNT_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << actual;
  }
  EXPECT_EQ(actual, ReadFileText(path)) << "golden " << path;
}

TEST(Dump, GoldenText) {
  const std::string path = WriteDumpTrace();
  CheckGolden(Dump(path, {}), "dump_two_frames.txt");
  std::filesystem::remove(path);
}

TEST(Dump, GoldenJsonLines) {
  const std::string path = WriteDumpTrace();
  DumpOptions o;
  o.json = true;
  const std::string out = Dump(path, o);
  CheckGolden(out, "dump_two_frames.jsonl");
  // Every line is one object.
  std::istringstream lines(out);
  std::string line;
  size_t n = 0;
  while (std::getline(lines, line)) {
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.front(), '{');
    EXPECT_EQ(line.back(), '}');
    ++n;
  }
  EXPECT_GT(n, 30u);
  std::filesystem::remove(path);
}

TEST(Dump, FrameAndDrawFilters) {
  const std::string path = WriteDumpTrace();
  DumpOptions f1;
  f1.frame = 1;
  const std::string frame1 = Dump(path, f1);
  for (const char* line : {"=> resolve 1.0", "unknown type-3 opcode 0x70", "end of frame 1"}) {
    EXPECT_NE(frame1.find(line), std::string::npos) << line;
  }
  EXPECT_EQ(frame1.find("IM_LOAD"), std::string::npos);

  DumpOptions d1;
  d1.frame = 0;
  d1.draw = 1;
  const std::string draw1 = Dump(path, d1);
  // Only the packets after draw 0 up to draw 1 (which sits in the indirect buffer).
  for (const char* line : {"VGT_DMA_BASE", "/ib1+", "=> draw 0.1"}) {
    EXPECT_NE(draw1.find(line), std::string::npos) << line;
  }
  for (const char* line : {"IM_LOAD", "=> draw 0.0", "=> swap"}) {
    EXPECT_EQ(draw1.find(line), std::string::npos) << line;
  }
  std::filesystem::remove(path);
}

// A long synthetic stream: register writes, constant uploads and draws in the mix a game emits.
std::vector<uint32_t> SyntheticStream(size_t packets) {
  Pm4 s;
  size_t n = 0;
  while (n < packets) {
    s.Type0(Reg::RB_SURFACE_INFO, {1280, 0x10, 0x10200});
    s.Type0(Reg::RB_DEPTHCONTROL, {0x36, 0x07060706});
    s.Type3(Opcode::kSetConstant, {0, 0x3F800000, 0, 0, 0x3F800000});
    s.Type3(Opcode::kSetConstant, {(1u << 16), 3u | (0x1000u << 2), 2u | (16u << 2)});
    s.Type0(Reg::PA_CL_VPORT_XSCALE, {0x44200000, 0x44200000, 0xC3B40000, 0x43B40000});
    s.Type3(Opcode::kDrawIndx, {0, 4u | (2u << 6) | (3u << 16)});
    s.Type2();
    n += 7;
  }
  return s.d;
}

// The decode rates are printed, not asserted: the goal (1 M packets/s on one core) is a
// benchmark figure, and a timed assertion fails on a loaded machine.
TEST(Dump, DecodingSpeed) {
  const std::vector<uint32_t> stream = SyntheticStream(kSpeedPackets);
  // Command processor alone (what replay pays).
  {
    NullBackend backend;
    GuestMemory memory;
    RegisterFile registers;
    CommandProcessor cp(memory, registers, backend);
    const Timing time = Time([&] { cp.Execute(stream, 0x100000, 0); });
    ReportSpeed("command processor", cp.packets_executed(), std::nullopt, time);
    EXPECT_EQ(backend.counts().draws, kSpeedPackets / 7);
  }
  // Full dump text formatting, output discarded.
  {
    uint64_t bytes = 0;
    DumpPrinter printer({}, [&](std::string_view t) { bytes += t.size(); });
    TracePlayer player(printer);
    printer.Attach(player);
    format::Submission sub;
    sub.guest_address = 0x100000;
    sub.dwords = stream;
    const Timing time = Time([&] {
      player.Apply(sub);
      printer.Flush();
    });
    ReportSpeed("dump text", printer.packets(), bytes, time);
    EXPECT_EQ(printer.packets(), kSpeedPackets);
  }
}

// The whole `xenotrace dump` path: .xnt file -> Reader (zstd, verification) -> player -> text.
TEST(Dump, DecodingSpeedFromFile) {
  const std::vector<uint32_t> stream = SyntheticStream(kSpeedPackets);
  const std::string path = TempPath("speed");
  {
    auto w = test::CreateTraceWriter(path, "");
    const size_t per = 26 * 2520;  // ~256 KiB submissions, split on packet-group boundaries
    for (size_t i = 0; i < stream.size(); i += per) {
      format::Submission sub;
      sub.guest_address = 0x100000;
      // The synthetic stream repeats one 26-dword group of 7 packets.
      size_t end = std::min(stream.size(), i + per);
      sub.dwords.assign(stream.begin() + long(i), stream.begin() + long(end));
      w->Write(sub);
    }
    w->Write(format::FrameMarker{});
    w->Finish();
  }
  auto reader = format::Reader::Open(path);
  uint64_t bytes = 0;
  DumpPrinter printer({}, [&](std::string_view t) { bytes += t.size(); });
  TracePlayer player(printer);
  printer.Attach(player);
  const Timing time = Time([&] { printer.Run(player, *reader); });
  ReportSpeed("dump from file", printer.packets(), bytes, time);
  EXPECT_EQ(printer.packets(), kSpeedPackets);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace xnt::replay
