// Xenia GPU trace (`.xtr`) files at the byte level: parsing and serialising the 48-byte header and
// the typed command records, with their snappy payloads. What the records mean in .xnt terms is
// xtr_import.h / xtr_export.h.
//
// Layout facts (field offsets, enum values, compression rules) are from Xenia
// src/xenia/gpu/trace_protocol.h and trace_writer.cc, as
// §1.2: every record field is host-endian (little-endian), packet and memory payloads are raw guest
// bytes (big-endian), compressed payloads are raw (unframed) snappy.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace xnt::capture::xtr {

// trace_protocol.h: kTraceFormatVersion. It never changed when the command enum was renumbered.
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr size_t kHeaderSize = 48;
inline constexpr size_t kBuildCommitSize = 40;
// trace_writer.h: memory reads/writes longer than this are snappy-compressed, shorter are stored.
inline constexpr uint32_t kCompressionThreshold = 1024;
// register_file.h: RegisterFile::kRegisterCount, the size of the register block Xenia snapshots.
inline constexpr uint32_t kXeniaRegisterCount = 0x5003;
// trace_protocol.h GammaRampCommand: 256 DC_LUT_30_COLOR entries + 3 x 128 DC_LUT_PWL_DATA entries.
inline constexpr uint32_t kGammaTableEntries = 256;
inline constexpr uint32_t kGammaPwlEntries = 3 * 128;
inline constexpr uint32_t kGammaRampBytes = (kGammaTableEntries + kGammaPwlEntries) * 4;

// Today's numbering (since Xenia c49922945, 2019-11-04, which inserted kEdramSnapshot before kEvent).
enum class CommandType : uint32_t {
  kPrimaryBufferStart = 0,
  kPrimaryBufferEnd = 1,
  kIndirectBufferStart = 2,
  kIndirectBufferEnd = 3,
  kPacketStart = 4,
  kPacketEnd = 5,
  kMemoryRead = 6,
  kMemoryWrite = 7,
  kEdramSnapshot = 8,
  kEvent = 9,
  kRegisters = 10,
  kGammaRamp = 11,
};
const char* CommandTypeName(CommandType type);

// Files written before that change use 8 for kEvent and have no types above it.
enum class Numbering : uint8_t { kCurrent, kLegacy2015 };

enum class Encoding : uint32_t { kNone = 0, kSnappy = 1 };
// trace_protocol.h EventCommand::Type: kSwap is the only event.
inline constexpr uint32_t kEventSwap = 0;

struct Header {
  uint32_t version = kFormatVersion;
  std::string build_commit;  // 40 ASCII characters, not NUL-terminated on disk
  uint32_t title_id = 0;
};

struct Command {
  CommandType type = CommandType::kPacketEnd;
  uint64_t file_offset = 0;  // where the record starts (set by the parser)
  // kPrimaryBufferStart/kIndirectBufferStart/kPacketStart/kMemoryRead/kMemoryWrite: guest address.
  uint32_t base_ptr = 0;
  // Buffer starts: the count field as written (Xenia writes 0 or a byte count; it is informational).
  // kPacketStart: number of packet dwords in `data`.
  uint32_t count = 0;
  Encoding encoding = Encoding::kNone;  // how the payload was (or is to be) stored
  uint32_t first_register = 0;          // kRegisters
  bool execute_callbacks = false;       // kRegisters
  uint8_t rw_component = 0;             // kGammaRamp
  uint32_t event_type = kEventSwap;     // kEvent
  // Decoded payload: packet bytes (big-endian dwords), memory bytes, 10 MiB of EDRAM, register
  // values (little-endian u32), or the gamma ramp (little-endian u32 table then PWL).
  std::vector<uint8_t> data;
};

struct ParseInfo {
  Header header;
  Numbering numbering = Numbering::kCurrent;
  std::string numbering_note;  // why the numbering was chosen, for the import report
  uint64_t command_count = 0;
};

// Parses a whole file held in memory. Checks structure first (every record whole, lengths sane,
// types known) under today's numbering and, if that fails, under the 2015 numbering; the one that
// fits is used. Then calls `on_command` for each record in order, payloads decoded. Throws
// xnt::Error naming the byte offset of the bad record on truncation, absurd lengths, unknown
// types or snappy failures. Allocations are bounded by the input size (snappy's own length is
// validated before any buffer is sized from it).
using CommandCallback = std::function<void(const Command&)>;
ParseInfo Parse(std::span<const uint8_t> file, const CommandCallback& on_command);

// Appends records in Xenia's current numbering. Payloads are stored as `command.encoding` says;
// XeniaEncoding() gives the choice Xenia's TraceWriter makes (memory above kCompressionThreshold
// and every EDRAM/register/gamma payload snappy-compressed).
class Serializer {
 public:
  explicit Serializer(std::vector<uint8_t>& out) : out_(out) {}
  void WriteHeader(const Header& header);
  void Write(const Command& command);
  // Encoding for a payload when none is forced: Xenia's rules.
  static Encoding XeniaEncoding(CommandType type, size_t decoded_size);

 private:
  void Put32(uint32_t v);
  void PutPayload(Encoding encoding, std::span<const uint8_t> decoded, bool with_decoded_length);
  std::vector<uint8_t>& out_;
};

}  // namespace xnt::capture::xtr
