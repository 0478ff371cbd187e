// .xtr record parsing and serialisation. Record sizes and field offsets: Xenia
// src/xenia/gpu/trace_protocol.h (layout verified with sizeof/offsetof).
#include "xnt/capture/xtr_file.h"

#include <snappy.h>

#include <optional>

#include "hex.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/format/records.h"

namespace xnt::capture::xtr {

namespace {

// Fixed record sizes (type dword included).
constexpr size_t kBufferStartSize = 12;  // type, base_ptr, count
constexpr size_t kBareSize = 4;          // *End records
constexpr size_t kPacketStartSize = 12;  // type, base_ptr, count
constexpr size_t kMemorySize = 20;       // type, base_ptr, encoding, encoded_length, decoded_length
constexpr size_t kEdramSize = 12;        // type, encoding, encoded_length
constexpr size_t kEventSize = 8;         // type, event_type
constexpr size_t kRegistersSize = 24;    // type, first, count, bool+pad, encoding, encoded_length
constexpr size_t kGammaSize = 16;        // type, rw_component+pad, encoding, encoded_length

// A single packet can hold at most 1 + 2^14 dwords (14-bit count field); Xenia's
// writer records at most that. Anything larger is damage.
constexpr uint32_t kMaxPacketDwords = 1 + (1u << 14);

class Cursor {
 public:
  explicit Cursor(std::span<const uint8_t> data) : data_(data) {}
  size_t pos() const { return pos_; }
  size_t left() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  void Need(size_t n, uint64_t record_offset, const char* what) const {
    if (left() < n) {
      throw Error(std::string("truncated ") + what + " record: needs " + std::to_string(n) +
                      " bytes, " + std::to_string(left()) + " left in the file",
                  record_offset);
    }
  }
  uint32_t U32At(size_t offset) const { return LoadLE32(data_.data() + pos_ + offset); }
  uint8_t U8At(size_t offset) const { return data_[pos_ + offset]; }
  std::span<const uint8_t> Bytes(size_t offset, size_t n) const {
    return data_.subspan(pos_ + offset, n);
  }
  void Skip(size_t n) { pos_ += n; }

 private:
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
};

// Maps a raw type dword to a CommandType under a numbering; nullopt = not a valid type there.
std::optional<CommandType> MapType(uint32_t raw, Numbering numbering) {
  if (numbering == Numbering::kLegacy2015) {
    if (raw <= 7) return CommandType(raw);
    if (raw == 8) return CommandType::kEvent;
    return std::nullopt;
  }
  if (raw <= uint32_t(CommandType::kGammaRamp)) return CommandType(raw);
  return std::nullopt;
}

// Xenia records guest physical addresses: everything must lie inside 512 MiB.
void CheckGuestRange(uint32_t address, uint64_t size, uint64_t offset, const char* what) {
  if (uint64_t(address) + size > format::kGuestPhysicalSize) {
    throw Error(std::string(what) + " at " + Hex(address) + " (" + std::to_string(size) +
                    " bytes) lies outside 512 MiB of guest memory",
                offset);
  }
}

void CheckEncoding(uint32_t encoding, uint64_t offset) {
  if (encoding != uint32_t(Encoding::kNone) && encoding != uint32_t(Encoding::kSnappy)) {
    throw Error("unknown payload encoding " + std::to_string(encoding) + " (0 none, 1 snappy)",
                offset);
  }
}

// Validates and (when `out` is set) decodes one payload. `expected` is the decoded size the record
// implies.
void DecodePayload(Encoding encoding, std::span<const uint8_t> stored, uint64_t expected,
                   uint64_t offset, std::vector<uint8_t>* out) {
  if (encoding == Encoding::kNone) {
    if (stored.size() != expected) {
      throw Error("stored payload is " + std::to_string(stored.size()) + " bytes but " +
                      std::to_string(expected) + " were expected",
                  offset);
    }
    if (out) out->assign(stored.begin(), stored.end());
    return;
  }
  const char* src = reinterpret_cast<const char*>(stored.data());
  size_t length = 0;
  if (!snappy::GetUncompressedLength(src, stored.size(), &length)) {
    throw Error("snappy payload header is corrupt", offset);
  }
  if (length != expected) {
    throw Error("snappy payload decodes to " + std::to_string(length) + " bytes but " +
                    std::to_string(expected) + " were expected",
                offset);
  }
  // Validating first means the buffer below is sized only after the stream proved it really
  // expands to `length` bytes.
  if (!snappy::IsValidCompressedBuffer(src, stored.size())) {
    throw Error("snappy payload is corrupt", offset);
  }
  if (out) {
    out->resize(length);
    if (!snappy::RawUncompress(src, stored.size(), reinterpret_cast<char*>(out->data()))) {
      throw Error("snappy payload failed to decompress", offset);
    }
  }
}

// Walks every record. With `on_command` null it only checks structure (no decompression beyond
// snappy's validation, no callbacks). Returns the number of records.
uint64_t Walk(std::span<const uint8_t> file, Numbering numbering, bool decode,
              const CommandCallback* on_command) {
  Cursor cur(file);
  cur.Skip(kHeaderSize);
  uint64_t count = 0;
  Command cmd;
  while (!cur.at_end()) {
    const uint64_t offset = cur.pos();
    cur.Need(4, offset, "command");
    const uint32_t raw = cur.U32At(0);
    std::optional<CommandType> type = MapType(raw, numbering);
    if (!type) {
      throw Error("unknown command type " + std::to_string(raw), offset);
    }
    cmd = Command{};
    cmd.type = *type;
    cmd.file_offset = offset;
    const char* name = CommandTypeName(*type);
    switch (*type) {
      case CommandType::kPrimaryBufferStart:
      case CommandType::kIndirectBufferStart: {
        cur.Need(kBufferStartSize, offset, name);
        cmd.base_ptr = cur.U32At(4);
        cmd.count = cur.U32At(8);
        CheckGuestRange(cmd.base_ptr, 4, offset, "buffer");
        // Xenia's reader skips count*4 bytes after the record; its writer stores 0 or a byte
        // count of the buffer without the bytes, so only a count of 0 can be honoured blindly.
        // A non-zero count is kept as information and nothing is skipped .
        cur.Skip(kBufferStartSize);
        break;
      }
      case CommandType::kPrimaryBufferEnd:
      case CommandType::kIndirectBufferEnd:
      case CommandType::kPacketEnd:
        cur.Skip(kBareSize);
        break;
      case CommandType::kPacketStart: {
        cur.Need(kPacketStartSize, offset, name);
        cmd.base_ptr = cur.U32At(4);
        cmd.count = cur.U32At(8);
        if (cmd.count == 0 || cmd.count > kMaxPacketDwords) {
          throw Error("packet of " + std::to_string(cmd.count) + " dwords (1.." +
                          std::to_string(kMaxPacketDwords) + " possible)",
                      offset);
        }
        const size_t bytes = size_t(cmd.count) * 4;
        CheckGuestRange(cmd.base_ptr, bytes, offset, "packet");
        cur.Need(kPacketStartSize + bytes, offset, name);
        if (decode) {
          auto b = cur.Bytes(kPacketStartSize, bytes);
          cmd.data.assign(b.begin(), b.end());
        }
        cur.Skip(kPacketStartSize + bytes);
        break;
      }
      case CommandType::kMemoryRead:
      case CommandType::kMemoryWrite: {
        cur.Need(kMemorySize, offset, name);
        cmd.base_ptr = cur.U32At(4);
        const uint32_t enc = cur.U32At(8);
        const uint32_t encoded = cur.U32At(12);
        const uint32_t decoded = cur.U32At(16);
        CheckEncoding(enc, offset);
        cmd.encoding = Encoding(enc);
        if (uint64_t(cmd.base_ptr) + decoded > format::kGuestPhysicalSize) {
          throw Error("memory range " + Hex(cmd.base_ptr) + "+" +
                          std::to_string(decoded) + " lies outside 512 MiB of guest memory",
                      offset);
        }
        cur.Need(kMemorySize + size_t(encoded), offset, name);
        DecodePayload(cmd.encoding, cur.Bytes(kMemorySize, encoded), decoded, offset,
                      decode ? &cmd.data : nullptr);
        cur.Skip(kMemorySize + size_t(encoded));
        break;
      }
      case CommandType::kEdramSnapshot: {
        cur.Need(kEdramSize, offset, name);
        const uint32_t enc = cur.U32At(4);
        const uint32_t encoded = cur.U32At(8);
        CheckEncoding(enc, offset);
        cmd.encoding = Encoding(enc);
        cur.Need(kEdramSize + size_t(encoded), offset, name);
        DecodePayload(cmd.encoding, cur.Bytes(kEdramSize, encoded), format::kEdramSizeBytes,
                      offset, decode ? &cmd.data : nullptr);
        cur.Skip(kEdramSize + size_t(encoded));
        break;
      }
      case CommandType::kEvent: {
        cur.Need(kEventSize, offset, name);
        cmd.event_type = cur.U32At(4);
        if (cmd.event_type != kEventSwap) {
          throw Error("unknown event type " + std::to_string(cmd.event_type) + " (0 = swap)",
                      offset);
        }
        cur.Skip(kEventSize);
        break;
      }
      case CommandType::kRegisters: {
        cur.Need(kRegistersSize, offset, name);
        cmd.first_register = cur.U32At(4);
        const uint32_t reg_count = cur.U32At(8);
        cmd.execute_callbacks = cur.U8At(12) != 0;
        const uint32_t enc = cur.U32At(16);
        const uint32_t encoded = cur.U32At(20);
        CheckEncoding(enc, offset);
        cmd.encoding = Encoding(enc);
        // Register indices are 16 bits wide (SET_CONSTANT2 carries them in bits 15:0).
        if (uint64_t(cmd.first_register) + reg_count > 0x10000) {
          throw Error("register block " + std::to_string(cmd.first_register) + "+" +
                          std::to_string(reg_count) + " exceeds the 64 Ki register space",
                      offset);
        }
        cur.Need(kRegistersSize + size_t(encoded), offset, name);
        DecodePayload(cmd.encoding, cur.Bytes(kRegistersSize, encoded), uint64_t(reg_count) * 4,
                      offset, decode ? &cmd.data : nullptr);
        cmd.count = reg_count;
        cur.Skip(kRegistersSize + size_t(encoded));
        break;
      }
      case CommandType::kGammaRamp: {
        cur.Need(kGammaSize, offset, name);
        cmd.rw_component = cur.U8At(4);
        const uint32_t enc = cur.U32At(8);
        const uint32_t encoded = cur.U32At(12);
        CheckEncoding(enc, offset);
        cmd.encoding = Encoding(enc);
        cur.Need(kGammaSize + size_t(encoded), offset, name);
        DecodePayload(cmd.encoding, cur.Bytes(kGammaSize, encoded), kGammaRampBytes, offset,
                      decode ? &cmd.data : nullptr);
        cur.Skip(kGammaSize + size_t(encoded));
        break;
      }
    }
    ++count;
    if (on_command) (*on_command)(cmd);
  }
  return count;
}

}  // namespace

const char* CommandTypeName(CommandType type) {
  switch (type) {
    case CommandType::kPrimaryBufferStart: return "PrimaryBufferStart";
    case CommandType::kPrimaryBufferEnd: return "PrimaryBufferEnd";
    case CommandType::kIndirectBufferStart: return "IndirectBufferStart";
    case CommandType::kIndirectBufferEnd: return "IndirectBufferEnd";
    case CommandType::kPacketStart: return "PacketStart";
    case CommandType::kPacketEnd: return "PacketEnd";
    case CommandType::kMemoryRead: return "MemoryRead";
    case CommandType::kMemoryWrite: return "MemoryWrite";
    case CommandType::kEdramSnapshot: return "EdramSnapshot";
    case CommandType::kEvent: return "Event";
    case CommandType::kRegisters: return "Registers";
    case CommandType::kGammaRamp: return "GammaRamp";
  }
  return "?";
}

ParseInfo Parse(std::span<const uint8_t> file, const CommandCallback& on_command) {
  ParseInfo info;
  if (file.size() < kHeaderSize) {
    throw Error("file is " + std::to_string(file.size()) + " bytes, shorter than the " +
                    std::to_string(kHeaderSize) + "-byte .xtr header",
                0);
  }
  info.header.version = LoadLE32(file.data());
  if (info.header.version != kFormatVersion) {
    throw Error("trace format version " + std::to_string(info.header.version) +
                    " (Xenia writes and reads only version 1)",
                0);
  }
  info.header.build_commit.assign(reinterpret_cast<const char*>(file.data() + 4),
                                  kBuildCommitSize);
  info.header.title_id = LoadLE32(file.data() + 44);

  // Version 1 is ambiguous ("compatibility trap"): try today's numbering, then the
  // 2015 one. A file valid under both (no record numbered 8 or above) means the same either way.
  try {
    Walk(file, Numbering::kCurrent, false, nullptr);
    info.numbering = Numbering::kCurrent;
    info.numbering_note = "current command numbering (swap event = 9)";
  } catch (const Error& current_error) {
    try {
      Walk(file, Numbering::kLegacy2015, false, nullptr);
    } catch (const Error&) {
      throw current_error;
    }
    info.numbering = Numbering::kLegacy2015;
    info.numbering_note =
        "pre-November-2019 command numbering detected (swap event = 8, no EDRAM snapshot "
        "records): the file does not parse under today's numbering (" +
        std::string(current_error.what()) + ") but parses completely under the old one";
  }
  info.command_count = Walk(file, info.numbering, true, &on_command);
  return info;
}

Encoding Serializer::XeniaEncoding(CommandType type, size_t decoded_size) {
  switch (type) {
    case CommandType::kMemoryRead:
    case CommandType::kMemoryWrite:
      return decoded_size > kCompressionThreshold ? Encoding::kSnappy : Encoding::kNone;
    case CommandType::kEdramSnapshot:
    case CommandType::kRegisters:
    case CommandType::kGammaRamp:
      return Encoding::kSnappy;
    default:
      return Encoding::kNone;
  }
}

void Serializer::Put32(uint32_t v) {
  uint8_t b[4];
  StoreLE32(b, v);
  out_.insert(out_.end(), b, b + 4);
}

void Serializer::WriteHeader(const Header& header) {
  Put32(header.version);
  std::string sha = header.build_commit;
  sha.resize(kBuildCommitSize, '0');
  out_.insert(out_.end(), sha.begin(), sha.end());
  Put32(header.title_id);
}

void Serializer::PutPayload(Encoding encoding, std::span<const uint8_t> decoded,
                            bool with_decoded_length) {
  Put32(uint32_t(encoding));
  if (encoding == Encoding::kNone) {
    Put32(uint32_t(decoded.size()));
    if (with_decoded_length) Put32(uint32_t(decoded.size()));
    out_.insert(out_.end(), decoded.begin(), decoded.end());
    return;
  }
  std::string compressed;
  snappy::Compress(reinterpret_cast<const char*>(decoded.data()), decoded.size(), &compressed);
  Put32(uint32_t(compressed.size()));
  if (with_decoded_length) Put32(uint32_t(decoded.size()));
  out_.insert(out_.end(), compressed.begin(), compressed.end());
}

void Serializer::Write(const Command& cmd) {
  Put32(uint32_t(cmd.type));
  switch (cmd.type) {
    case CommandType::kPrimaryBufferStart:
    case CommandType::kIndirectBufferStart:
      Put32(cmd.base_ptr);
      Put32(0);  // Xenia's writer stores no buffer bytes here (trace_writer.cc)
      break;
    case CommandType::kPrimaryBufferEnd:
    case CommandType::kIndirectBufferEnd:
    case CommandType::kPacketEnd:
      break;
    case CommandType::kPacketStart:
      if (cmd.data.empty() || cmd.data.size() % 4 != 0) {
        throw Error("packet at " + Hex(cmd.base_ptr) + " has " +
                    std::to_string(cmd.data.size()) + " bytes, not a whole number of dwords");
      }
      Put32(cmd.base_ptr);
      Put32(uint32_t(cmd.data.size() / 4));
      out_.insert(out_.end(), cmd.data.begin(), cmd.data.end());
      break;
    case CommandType::kMemoryRead:
    case CommandType::kMemoryWrite: {
      // Field order on disk: base_ptr, encoding, encoded_length, decoded_length.
      Put32(cmd.base_ptr);
      PutPayload(cmd.encoding, cmd.data, true);
      break;
    }
    case CommandType::kEdramSnapshot:
      if (cmd.data.size() != format::kEdramSizeBytes) {
        throw Error("EDRAM snapshot of " + std::to_string(cmd.data.size()) + " bytes (needs " +
                    std::to_string(format::kEdramSizeBytes) + ")");
      }
      PutPayload(cmd.encoding, cmd.data, false);
      break;
    case CommandType::kEvent:
      Put32(cmd.event_type);
      break;
    case CommandType::kRegisters: {
      Put32(cmd.first_register);
      Put32(uint32_t(cmd.data.size() / 4));
      const uint8_t flag[4] = {uint8_t(cmd.execute_callbacks ? 1 : 0), 0, 0, 0};
      out_.insert(out_.end(), flag, flag + 4);
      PutPayload(cmd.encoding, cmd.data, false);
      break;
    }
    case CommandType::kGammaRamp: {
      if (cmd.data.size() != kGammaRampBytes) {
        throw Error("gamma ramp of " + std::to_string(cmd.data.size()) + " bytes (needs " +
                    std::to_string(kGammaRampBytes) + ")");
      }
      const uint8_t rw[4] = {cmd.rw_component, 0, 0, 0};
      out_.insert(out_.end(), rw, rw + 4);
      PutPayload(cmd.encoding, cmd.data, false);
      break;
    }
  }
}

}  // namespace xnt::capture::xtr
