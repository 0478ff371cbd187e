// Chunk payload coding: zstd compression on the write side (falling back to stored when that is
// not smaller) and the checked inverse on the read side. Private to format/src.
#pragma once

#include <zstd.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "layout.h"

namespace xnt::format {

// A byte buffer that grows without zero-filling: decompression overwrites every byte anyway, and
// clearing hundreds of MiB first would cost the reader a measurable share of its speed.
class ByteBuffer {
 public:
  uint8_t* Resize(size_t n) {
    if (n > capacity_) {
      // Chunk-sized buffers are rounded up to 64 KiB, so that a recycled one fits the next chunk
      // of about the same size instead of being replaced by fresh memory.
      const size_t capacity = n >= (256u << 10) ? (n + 0xFFFF) & ~size_t(0xFFFF) : n;
      data_.reset(new uint8_t[capacity]);
      capacity_ = capacity;
    }
    size_ = n;
    return data_.get();
  }
  uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }

 private:
  std::unique_ptr<uint8_t[]> data_;
  size_t size_ = 0, capacity_ = 0;
};

// Appends header + payload of one chunk holding `raw` to `out` (cleared first). zstd_level 0
// stores the payload uncompressed.
void EncodeChunk(ChunkType type, std::span<const uint8_t> raw, int zstd_level, ZSTD_CCtx* cctx,
                 std::vector<uint8_t>* out);

// Returns the verified raw payload of a chunk whose header was accepted by CheckChunkHeader:
// a span of `payload` itself for stored chunks, else of `scratch` (resized to raw_size, which the
// header check bounded). Checks the zstd frame's declared size and the XXH3-64 before returning.
// Throws xnt::Error naming `chunk_offset`.
std::span<const uint8_t> DecodeChunk(const layout::ChunkHeader& header, const uint8_t* payload,
                                     uint64_t chunk_offset, ZSTD_DCtx* dctx,
                                     ByteBuffer* scratch);

// RAII holder for zstd compression contexts.
struct ZstdCCtxDeleter { void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); } };

// Decompression contexts come from a small process-wide pool and go back to it: creating one
// costs more than decoding a small trace (ZSTD_createDCtx probes the CPU with CPUID, which traps
// to the hypervisor on a virtual machine: 54 % of the single-threaded time reading the 37 sample
// traces went there, four contexts per trace). A context carries no state from one one-shot
// ZSTD_decompressDCtx to the next, and it is reset when it comes back.
struct ZstdDCtxReturner { void operator()(ZSTD_DCtx* c) const; };
using PooledDCtx = std::unique_ptr<ZSTD_DCtx, ZstdDCtxReturner>;
PooledDCtx AcquireDCtx();

}  // namespace xnt::format
