// Byte layout of a .xnt file (docs/format.md is the prose version): a fixed 64-byte file header,
// then chunks (32-byte chunk header + payload), then on a finished file a 16-byte trailer that
// points at the footer chunk. All integers are little-endian. Private to format/src.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "xnt/format/reader.h"

namespace xnt::format::layout {

// Fuzzing builds (-DXNT_FUZZ=ON) accept bad checksums so that the fuzzer, which cannot forge an
// XXH3, reaches the zstd, FlatBuffers and record checks behind them. Never set otherwise.
#ifdef XNT_FUZZING_SKIP_CHECKSUMS
inline constexpr bool kCheckChecksums = false;
#else
inline constexpr bool kCheckChecksums = true;
#endif

inline constexpr uint16_t kFormatMajor = 1;
inline constexpr uint16_t kFormatMinor = 0;

// --- File header (64 bytes)
//   0  char[4]  magic "XNT1"
//   4  u16      format major   (a reader rejects a different major)
//   6  u16      format minor   (additive changes; a reader accepts any minor)
//   8  char[32] writer name, NUL-padded
//  40  char[16] writer version, NUL-padded
//  56  u64      XXH3-64 of bytes [0, 56)
inline constexpr char kFileMagic[4] = {'X', 'N', 'T', '1'};
inline constexpr size_t kFileHeaderSize = 64;
inline constexpr size_t kWriterNameSize = 32;
inline constexpr size_t kWriterVersionSize = 16;

struct FileHeader {
  uint16_t major = kFormatMajor, minor = kFormatMinor;
  std::string writer_name, writer_version;
};
void EncodeFileHeader(const FileHeader& header, uint8_t out[kFileHeaderSize]);
// Throws xnt::Error (offset 0..63) on a bad magic, checksum or major version.
FileHeader DecodeFileHeader(const uint8_t* bytes, size_t available);

// --- Chunk header (40 bytes)
//   0  u32  sync word "XNTC" — lets a scanner recognise a chunk start
//   4  u8   type (ChunkType)
//   5  u8   codec (0 stored, 1 zstd)
//   6  u16  reserved, 0
//   8  u32  stored size: payload bytes that follow the header
//  12  u32  raw size: payload bytes after decompression
//  16  u64  XXH3-64 of the raw (decompressed) payload
//  24  u64  XXH3-64 of the stored payload (a flipped bit zstd would ignore, e.g. in the window
//           descriptor, is still caught; checked before the decompressor sees the bytes)
//  32  u64  XXH3-64 of header bytes [0, 32)
inline constexpr uint32_t kChunkSync = 0x43544E58;  // "XNTC" read as little-endian u32
inline constexpr size_t kChunkHeaderSize = 40;
inline constexpr uint8_t kCodecStored = 0;
inline constexpr uint8_t kCodecZstd = 1;
// No chunk's raw payload may exceed this; the largest legitimate one is an EDRAM snapshot
// (10 MiB) or a footer of a very long capture. Bounds every allocation the reader makes.
inline constexpr uint32_t kMaxChunkRawSize = 256u << 20;

struct ChunkHeader {
  ChunkType type{};
  uint8_t codec = 0;
  uint32_t stored_size = 0;
  uint32_t raw_size = 0;
  uint64_t raw_hash = 0;
  uint64_t stored_hash = 0;
};
void EncodeChunkHeader(const ChunkHeader& header, uint8_t out[kChunkHeaderSize]);
// Returns the problem ("" when sane): sync word, header checksum, type, codec, size bounds.
// `bytes_after_header` is how many file bytes follow the header (stored size must fit).
std::string CheckChunkHeader(const uint8_t* bytes, uint64_t bytes_after_header, ChunkHeader* out);

// --- Trailer (16 bytes, the last bytes of a finished file)
//   0  u64  file offset of the footer chunk header
//   8  char[4] "XNTE"
//  12  u32  low 32 bits of XXH3-64 of bytes [0, 12)
inline constexpr size_t kTrailerSize = 16;
inline constexpr char kTrailerMagic[4] = {'X', 'N', 'T', 'E'};
void EncodeTrailer(uint64_t footer_offset, uint8_t out[kTrailerSize]);
std::optional<uint64_t> DecodeTrailer(const uint8_t bytes[kTrailerSize]);

// FlatBuffers verifier limits: our tables nest at most 3 deep; a chunk's table count is bounded by
// its size (every table is at least 4 bytes), so cap at raw size / 4 + a margin.
inline constexpr uint32_t kVerifierMaxDepth = 16;

}  // namespace xnt::format::layout
