// Decodes a run of chunks ahead of the consumer on worker threads, handing them back in order;
// at most `window` decoded chunks wait at once, so memory stays bounded. With one thread it
// decodes on the caller's thread. Private to format/src.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "chunk_codec.h"

namespace xnt::format {

struct DecodedChunk {
  uint32_t index = 0;
  ByteBuffer storage;             // owns the raw bytes unless they are the file's own
  std::span<const uint8_t> raw;   // verified payload (checksum + FlatBuffers verifier)
  std::exception_ptr error;       // set instead of raw when the chunk is damaged
};
using DecodedChunkPtr = std::shared_ptr<const DecodedChunk>;

class Prefetcher {
 public:
  // `decode(index, worker_id)` produces one chunk; it must not throw (errors go into `error`).
  using DecodeFn = std::function<std::shared_ptr<DecodedChunk>(uint32_t index, unsigned worker)>;
  Prefetcher(uint32_t begin, uint32_t end, unsigned threads, DecodeFn decode);
  ~Prefetcher();
  // Returns chunk `index`; indices must be asked for in order begin, begin+1, ...
  DecodedChunkPtr Get(uint32_t index);

 private:
  void WorkerMain(unsigned worker);

  uint32_t end_;
  uint32_t next_;      // next index a worker takes
  uint32_t consumed_;  // every index below is handed out
  size_t window_;
  DecodeFn decode_;
  std::mutex mutex_;
  std::condition_variable work_cv_, ready_cv_;
  std::map<uint32_t, std::shared_ptr<DecodedChunk>> ready_;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace xnt::format
