// Chunk payload compression and its checked inverse (chunk_codec.h).
#include "chunk_codec.h"


#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "xnt/base/error.h"
#include "xxh3_wide.h"

namespace xnt::format {
namespace {

// Idle contexts kept (about 100 KiB each); more are freed when returned.
constexpr size_t kIdleDCtxLimit = 16;

struct DCtxPool {
  std::mutex mutex;
  std::vector<ZSTD_DCtx*> idle;
};

// Never destroyed, so that a context returned during static destruction still has a pool.
DCtxPool& Pool() {
  static DCtxPool* pool = new DCtxPool;
  return *pool;
}

}  // namespace

PooledDCtx AcquireDCtx() {
  {
    DCtxPool& pool = Pool();
    std::lock_guard<std::mutex> lock(pool.mutex);
    if (!pool.idle.empty()) {
      ZSTD_DCtx* c = pool.idle.back();
      pool.idle.pop_back();
      return PooledDCtx(c);
    }
  }
  ZSTD_DCtx* c = ZSTD_createDCtx();
  if (!c) throw std::bad_alloc();
  return PooledDCtx(c);
}

void ZstdDCtxReturner::operator()(ZSTD_DCtx* c) const {
  if (!c) return;
  ZSTD_DCtx_reset(c, ZSTD_reset_session_and_parameters);
  DCtxPool& pool = Pool();
  {
    std::lock_guard<std::mutex> lock(pool.mutex);
    if (pool.idle.size() < kIdleDCtxLimit) {
      pool.idle.push_back(c);
      return;
    }
  }
  ZSTD_freeDCtx(c);
}

void EncodeChunk(ChunkType type, std::span<const uint8_t> raw, int zstd_level, ZSTD_CCtx* cctx,
                 std::vector<uint8_t>* out) {
  const bool compress = zstd_level > 0;
  if (raw.size() > layout::kMaxChunkRawSize) {
    throw Error("chunk of " + std::to_string(raw.size()) + " bytes exceeds the chunk size limit");
  }
  layout::ChunkHeader h;
  h.type = type;
  h.raw_size = static_cast<uint32_t>(raw.size());
  h.raw_hash = Xxh3Wide64(raw.data(), raw.size());
  size_t n = 0;
  if (compress) {
    size_t bound = ZSTD_compressBound(raw.size());
    out->resize(layout::kChunkHeaderSize + bound);
    n = ZSTD_compressCCtx(cctx, out->data() + layout::kChunkHeaderSize, bound, raw.data(), raw.size(),
                          zstd_level);
  } else {
    out->resize(layout::kChunkHeaderSize + raw.size());
  }
  if (compress && !ZSTD_isError(n) && n < raw.size()) {
    h.codec = layout::kCodecZstd;
    h.stored_size = static_cast<uint32_t>(n);
  } else {
    h.codec = layout::kCodecStored;
    h.stored_size = h.raw_size;
    if (!raw.empty()) std::memcpy(out->data() + layout::kChunkHeaderSize, raw.data(), raw.size());
  }
  out->resize(layout::kChunkHeaderSize + h.stored_size);
  h.stored_hash = Xxh3Wide64(out->data() + layout::kChunkHeaderSize, h.stored_size);
  layout::EncodeChunkHeader(h, out->data());
}

std::span<const uint8_t> DecodeChunk(const layout::ChunkHeader& h, const uint8_t* payload,
                                     uint64_t chunk_offset, ZSTD_DCtx* dctx,
                                     ByteBuffer* scratch) {
  const uint64_t payload_offset = chunk_offset + layout::kChunkHeaderSize;
  std::span<const uint8_t> raw;
  if (layout::kCheckChecksums && Xxh3Wide64(payload, h.stored_size) != h.stored_hash) {
    throw Error(std::string(ChunkTypeName(h.type)) + " chunk: XXH3-64 of the stored payload does not match the header",
                chunk_offset + 24);
  }
  if (h.codec == layout::kCodecStored) {
    raw = {payload, h.raw_size};
  } else {
    unsigned long long declared = ZSTD_getFrameContentSize(payload, h.stored_size);
    if (declared == ZSTD_CONTENTSIZE_ERROR || declared == ZSTD_CONTENTSIZE_UNKNOWN) {
      throw Error(std::string(ChunkTypeName(h.type)) + " chunk: payload is not a zstd frame with a declared size",
                  payload_offset);
    }
    if (declared != h.raw_size) {
      throw Error(std::string(ChunkTypeName(h.type)) + " chunk: zstd frame declares " +
                      std::to_string(declared) + " bytes but the header says " +
                      std::to_string(h.raw_size),
                  payload_offset);
    }
    size_t frame = ZSTD_findFrameCompressedSize(payload, h.stored_size);
    if (ZSTD_isError(frame) || frame != h.stored_size) {
      throw Error(std::string(ChunkTypeName(h.type)) + " chunk: zstd frame does not fill the stored size",
                  payload_offset);
    }
    // raw_size is bounded by CheckChunkHeader (chunk limit, zstd's maximum expansion).
    uint8_t* out = scratch->Resize(h.raw_size);
    size_t n = ZSTD_decompressDCtx(dctx, out, h.raw_size, payload, h.stored_size);
    if (ZSTD_isError(n) || n != h.raw_size) {
      throw Error(std::string(ChunkTypeName(h.type)) + " chunk: zstd decompression failed (" +
                      (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short output") + ")",
                  payload_offset);
    }
    raw = {scratch->data(), h.raw_size};
  }
  if (layout::kCheckChecksums && Xxh3Wide64(raw.data(), raw.size()) != h.raw_hash) {
    throw Error(std::string(ChunkTypeName(h.type)) + " chunk: XXH3-64 of the raw payload does not match the header",
                chunk_offset + 16);
  }
  return raw;
}

}  // namespace xnt::format
