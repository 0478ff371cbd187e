// Ordered chunk-compression pipeline for the Writer: chunks are compressed on worker threads and
// handed back strictly in submission order, with at most `max_in_flight` chunks held at once so
// that memory stays bounded however long the capture runs. Private to format/src.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "xnt/format/reader.h"

namespace xnt::format {

class CompressPool {
 public:
  // `sink` receives each chunk's encoded bytes (header + payload), in order, on the caller's
  // thread (inside Submit or Drain).
  using Sink = std::function<void(ChunkType type, uint32_t raw_size, std::vector<uint8_t>& encoded)>;
  CompressPool(unsigned threads, int zstd_level, Sink sink);
  ~CompressPool();  // joins the workers; chunks not yet drained are dropped

  void Submit(ChunkType type, std::vector<uint8_t> raw);
  // Waits for every submitted chunk and passes it to the sink.
  void Drain();

 private:
  struct Job {
    ChunkType type{};
    std::vector<uint8_t> raw, encoded;
    bool done = false;
    std::exception_ptr error;
  };
  void WorkerMain();
  void EmitFront(std::unique_lock<std::mutex>& lock);

  int level_;
  Sink sink_;
  size_t max_in_flight_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  std::deque<Job*> queue_;                     // not yet picked by a worker
  std::deque<std::unique_ptr<Job>> in_order_;  // every job not yet emitted, in order
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace xnt::format
