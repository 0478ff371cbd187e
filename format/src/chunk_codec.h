// Chunk payload coding: zstd compression on the write side (falling back to stored when that is
// not smaller) and the checked inverse on the read side. Private to format/src.
#pragma once

#include <zstd.h>

#include <cstdint>
#include <span>
#include <vector>

#include "layout.h"

namespace xnt::format {

// Appends header + payload of one chunk holding `raw` to `out` (cleared first).
void EncodeChunk(ChunkType type, std::span<const uint8_t> raw, int zstd_level, ZSTD_CCtx* cctx,
                 std::vector<uint8_t>* out);

// Returns the verified raw payload of a chunk whose header was accepted by CheckChunkHeader:
// a span of `payload` itself for stored chunks, else of `scratch` (resized to raw_size, which the
// header check bounded). Checks the zstd frame's declared size and the XXH3-64 before returning.
// Throws xnt::Error naming `chunk_offset`.
std::span<const uint8_t> DecodeChunk(const layout::ChunkHeader& header, const uint8_t* payload,
                                     uint64_t chunk_offset, ZSTD_DCtx* dctx,
                                     std::vector<uint8_t>* scratch);

// RAII holders for zstd contexts.
struct ZstdCCtxDeleter { void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); } };
struct ZstdDCtxDeleter { void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); } };

}  // namespace xnt::format
