// Ordered chunk-compression pipeline (compress_pool.h).
#include "compress_pool.h"

#include <cstring>
#include <memory>

#include "chunk_codec.h"

namespace xnt::format {

CompressPool::CompressPool(unsigned threads, int zstd_level, Sink sink)
    : level_(zstd_level), sink_(std::move(sink)) {
  if (threads == 0) threads = 1;
  // Two chunks per worker keeps every worker busy while the caller writes the finished ones.
  max_in_flight_ = 2 * size_t(threads) + 2;
  for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { WorkerMain(); });
}

CompressPool::~CompressPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void CompressPool::WorkerMain() {
  std::unique_ptr<ZSTD_CCtx, ZstdCCtxDeleter> cctx(ZSTD_createCCtx());
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stop_ with nothing left to do
    Job* job = queue_.front();
    queue_.pop_front();
    lock.unlock();
    std::exception_ptr error;
    try {
      EncodeChunk(job->type, job->raw, level_, cctx.get(), &job->encoded);
    } catch (...) {
      error = std::current_exception();
    }
    std::vector<uint8_t>().swap(job->raw);
    lock.lock();
    job->error = error;
    job->done = true;
    done_cv_.notify_all();
  }
}

void CompressPool::EmitFront(std::unique_lock<std::mutex>& lock) {
  done_cv_.wait(lock, [this] { return in_order_.front()->done; });
  std::unique_ptr<Job> job = std::move(in_order_.front());
  in_order_.pop_front();
  lock.unlock();
  if (job->error) std::rethrow_exception(job->error);
  uint32_t raw_size = 0;
  if (job->encoded.size() >= 16) std::memcpy(&raw_size, job->encoded.data() + 12, 4);
  sink_(job->type, raw_size, job->encoded);
  lock.lock();
}

void CompressPool::Submit(ChunkType type, std::vector<uint8_t> raw) {
  auto job = std::make_unique<Job>();
  job->type = type;
  job->raw = std::move(raw);
  std::unique_lock<std::mutex> lock(mutex_);
  queue_.push_back(job.get());
  in_order_.push_back(std::move(job));
  work_cv_.notify_one();
  // Emit whatever is already finished at the front, and block while too much is in flight.
  while (!in_order_.empty() && (in_order_.front()->done || in_order_.size() > max_in_flight_)) {
    EmitFront(lock);
  }
}

void CompressPool::Drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!in_order_.empty()) EmitFront(lock);
}

}  // namespace xnt::format
