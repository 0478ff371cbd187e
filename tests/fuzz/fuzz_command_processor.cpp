// libFuzzer target for the PM4 command processor (and the dump printer riding on it).
// Input layout: [u32 memory address][u32 memory length L][L bytes of guest memory][PM4 dwords,
// host order]. The memory blob lets indirect buffers, IM_LOAD, LOAD_ALU_CONSTANT, WAIT_REG_MEM and
// DMA indices find data. Work is bounded: 2,048 packets, 8 levels of indirect buffers, 16 K dwords
// fetched from memory per input (smaller than a replay's limits so that the limits themselves are
// hit often, and so that an indirect buffer over zeroed memory - 2 dwords per type-0 packet, each one
// printed - does not cost milliseconds: with 20 k packets / 1 M dwords the long runs managed only
// ~700 inputs/s per core, most of it printing such packets). Must never crash, hang or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "xnt/format/records.h"
#include "xnt/replay/dump.h"
#include "xnt/replay/trace_player.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xnt::replay;
  if (size < 8) return 0;
  uint32_t address, length;
  std::memcpy(&address, data, 4);
  std::memcpy(&length, data + 4, 4);
  data += 8;
  size -= 8;
  length = uint32_t(length % (size + 1));
  address &= 0x1FFFFFFFu;

  CommandProcessorOptions options;
  options.max_packets = 2048;
  options.max_indirect_depth = 8;
  options.max_fetch_dwords = 1u << 14;
  options.max_stored_diagnostics = 256;
  DumpOptions dump_options;
  dump_options.json = (address & 1u) != 0;
  uint64_t bytes = 0;
  DumpPrinter printer(dump_options, [&](std::string_view s) { bytes += s.size(); });
  TracePlayer player(printer, options);
  printer.Attach(player);

  xnt::format::MemoryEvent memory;
  memory.kind = xnt::format::MemoryEventKind::kInitialSnapshot;
  memory.guest_address = address;
  memory.bytes.assign(data, data + length);
  player.Apply(memory);  // out-of-range blobs become a diagnostic, not an exception

  xnt::format::Submission submission;
  submission.guest_address = address;
  const size_t dwords = (size - length) / 4;
  submission.dwords.resize(dwords);
  if (dwords) std::memcpy(submission.dwords.data(), data + length, dwords * 4);
  player.Apply(submission);
  player.Apply(xnt::format::FrameMarker{});
  printer.Flush();
  return 0;
}
