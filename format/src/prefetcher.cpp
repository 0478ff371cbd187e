// Ordered read-ahead chunk decoding (prefetcher.h).
#include "prefetcher.h"

namespace xnt::format {

Prefetcher::Prefetcher(uint32_t begin, uint32_t end, unsigned threads, DecodeFn decode)
    : end_(end), next_(begin), consumed_(begin), decode_(std::move(decode)) {
  window_ = 2 * size_t(threads) + 2;
  if (threads > 1) {
    for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this, i] { WorkerMain(i + 1); });
  }
}

Prefetcher::~Prefetcher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void Prefetcher::WorkerMain(unsigned worker) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [this] { return stop_ || next_ >= end_ || next_ < consumed_ + window_; });
    if (stop_ || next_ >= end_) return;
    uint32_t index = next_++;
    lock.unlock();
    auto chunk = decode_(index, worker);
    lock.lock();
    ready_[index] = std::move(chunk);
    ready_cv_.notify_all();
  }
}

DecodedChunkPtr Prefetcher::Get(uint32_t index) {
  if (workers_.empty()) {
    consumed_ = index + 1;
    return decode_(index, 0);
  }
  std::unique_lock<std::mutex> lock(mutex_);
  ready_cv_.wait(lock, [&] { return ready_.count(index) != 0; });
  auto node = ready_.extract(index);
  consumed_ = index + 1;
  work_cv_.notify_all();
  return std::move(node.mapped());
}

}  // namespace xnt::format
