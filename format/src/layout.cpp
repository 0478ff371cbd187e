// Encoding and sanity checks of the fixed binary framing (layout.h).
#include "layout.h"

#include <xxhash.h>

#include "xnt/base/error.h"

namespace xnt::format {

const char* ChunkTypeName(ChunkType type) {
  switch (type) {
    case ChunkType::kInfo: return "info";
    case ChunkType::kCommands: return "commands";
    case ChunkType::kPages: return "pages";
    case ChunkType::kEdram: return "edram";
    case ChunkType::kFooter: return "footer";
  }
  return "unknown";
}

namespace layout {
namespace {

void Put16(uint8_t* p, uint16_t v) { std::memcpy(p, &v, 2); }
void Put32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }
void Put64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }
uint16_t Get16(const uint8_t* p) { uint16_t v; std::memcpy(&v, p, 2); return v; }
uint32_t Get32(const uint8_t* p) { uint32_t v; std::memcpy(&v, p, 4); return v; }
uint64_t Get64(const uint8_t* p) { uint64_t v; std::memcpy(&v, p, 8); return v; }

void PutText(uint8_t* p, size_t size, const std::string& s) {
  std::memset(p, 0, size);
  std::memcpy(p, s.data(), std::min(s.size(), size));
}
std::string GetText(const uint8_t* p, size_t size) {
  size_t n = 0;
  while (n < size && p[n] != 0) ++n;
  std::string s(reinterpret_cast<const char*>(p), n);
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) c = '?';
  }
  return s;
}

}  // namespace

void EncodeFileHeader(const FileHeader& header, uint8_t out[kFileHeaderSize]) {
  std::memcpy(out, kFileMagic, 4);
  Put16(out + 4, header.major);
  Put16(out + 6, header.minor);
  PutText(out + 8, kWriterNameSize, header.writer_name);
  PutText(out + 40, kWriterVersionSize, header.writer_version);
  Put64(out + 56, XXH3_64bits(out, 56));
}

FileHeader DecodeFileHeader(const uint8_t* bytes, size_t available) {
  if (available < kFileHeaderSize) {
    throw Error("file is " + std::to_string(available) + " bytes, shorter than the " +
                    std::to_string(kFileHeaderSize) + "-byte .xnt header",
                0);
  }
  if (std::memcmp(bytes, kFileMagic, 4) != 0) throw Error("not a .xnt file (magic is not XNT1)", 0);
  if (kCheckChecksums && Get64(bytes + 56) != XXH3_64bits(bytes, 56)) throw Error("file header checksum mismatch", 56);
  FileHeader h;
  h.major = Get16(bytes + 4);
  h.minor = Get16(bytes + 6);
  if (h.major != kFormatMajor) {
    throw Error("unsupported format version " + std::to_string(h.major) + "." +
                    std::to_string(h.minor) + " (this reader reads " +
                    std::to_string(kFormatMajor) + ".x)",
                4);
  }
  h.writer_name = GetText(bytes + 8, kWriterNameSize);
  h.writer_version = GetText(bytes + 40, kWriterVersionSize);
  return h;
}

void EncodeChunkHeader(const ChunkHeader& header, uint8_t out[kChunkHeaderSize]) {
  Put32(out, kChunkSync);
  out[4] = static_cast<uint8_t>(header.type);
  out[5] = header.codec;
  Put16(out + 6, 0);
  Put32(out + 8, header.stored_size);
  Put32(out + 12, header.raw_size);
  Put64(out + 16, header.raw_hash);
  Put64(out + 24, header.stored_hash);
  Put64(out + 32, XXH3_64bits(out, 32));
}

std::string CheckChunkHeader(const uint8_t* bytes, uint64_t bytes_after_header, ChunkHeader* out) {
  if (Get32(bytes) != kChunkSync) return "no chunk sync word";
  if (kCheckChecksums && Get64(bytes + 32) != XXH3_64bits(bytes, 32)) return "chunk header checksum mismatch";
  ChunkHeader h;
  uint8_t type = bytes[4];
  if (type < static_cast<uint8_t>(ChunkType::kInfo) || type > static_cast<uint8_t>(ChunkType::kFooter)) {
    return "unknown chunk type " + std::to_string(type);
  }
  h.type = static_cast<ChunkType>(type);
  h.codec = bytes[5];
  if (h.codec != kCodecStored && h.codec != kCodecZstd) return "unknown codec " + std::to_string(h.codec);
  if (Get16(bytes + 6) != 0) return "reserved header bits set";
  h.stored_size = Get32(bytes + 8);
  h.raw_size = Get32(bytes + 12);
  h.raw_hash = Get64(bytes + 16);
  h.stored_hash = Get64(bytes + 24);
  if (h.raw_size > kMaxChunkRawSize) {
    return "raw size " + std::to_string(h.raw_size) + " exceeds the " +
           std::to_string(kMaxChunkRawSize) + "-byte chunk limit";
  }
  // zstd's densest encoding is an RLE block: 4 bytes (3-byte block header + the byte) for a
  // 128 KiB block, so a frame can expand at most 32768-fold. A header claiming more is lying, and
  // the reader must not allocate for it.
  if (h.codec == kCodecZstd && uint64_t(h.raw_size) > uint64_t(h.stored_size) * 32768) {
    return "raw size " + std::to_string(h.raw_size) + " is impossible for " +
           std::to_string(h.stored_size) + " bytes of zstd";
  }
  if (h.codec == kCodecStored && h.stored_size != h.raw_size) {
    return "stored chunk with stored size " + std::to_string(h.stored_size) + " != raw size " +
           std::to_string(h.raw_size);
  }
  if (h.stored_size > bytes_after_header) {
    return "payload of " + std::to_string(h.stored_size) + " bytes runs past the end of the file (" +
           std::to_string(bytes_after_header) + " bytes left)";
  }
  *out = h;
  return {};
}

void EncodeTrailer(uint64_t footer_offset, uint8_t out[kTrailerSize]) {
  Put64(out, footer_offset);
  std::memcpy(out + 8, kTrailerMagic, 4);
  Put32(out + 12, static_cast<uint32_t>(XXH3_64bits(out, 12)));
}

std::optional<uint64_t> DecodeTrailer(const uint8_t bytes[kTrailerSize]) {
  if (std::memcmp(bytes + 8, kTrailerMagic, 4) != 0) return std::nullopt;
  if (kCheckChecksums && Get32(bytes + 12) != static_cast<uint32_t>(XXH3_64bits(bytes, 12))) {
    return std::nullopt;
  }
  return Get64(bytes);
}

}  // namespace layout
}  // namespace xnt::format
