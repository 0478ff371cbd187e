#pragma once
// The one way Xenotrace spreads work over threads. RunShares splits deterministic work into n
// fixed shares (the cpu path's resolve bands and front-buffer read); ParallelFor hands
// independent items (compare's traces and combinations) to the shares as each finishes its last
// one. The calling thread takes share 0. If the system refuses a thread (std::system_error from
// its constructor), the threads already started are still joined - a joinable std::thread
// destroyed during unwinding would call std::terminate - and the refused shares run on the
// calling thread, so the result never depends on how many threads actually started.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace xnt {

// Runs work(t, n) for every share t in [0, n) and rethrows the first failing share's exception,
// in share order, once all have finished.
template <typename Work>
void RunShares(uint32_t n, Work&& work) {
  if (n <= 1) {
    work(uint32_t(0), uint32_t(1));
    return;
  }
  std::vector<std::exception_ptr> errors(n);
  auto run = [&](uint32_t t) {
    try {
      work(t, n);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(n - 1);
  uint32_t started = 1;
  try {
    for (; started < n; ++started) pool.emplace_back(run, started);
  } catch (const std::system_error&) {
    // No more threads: the shares from `started` on run below, on this thread.
  }
  run(0);
  for (uint32_t t = started; t < n; ++t) run(t);
  for (std::thread& th : pool) th.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

// Runs fn(i) for every i in [0, n) on up to `jobs` threads (the calling thread one of them); items
// of uneven cost balance because each share takes the next unclaimed item. Exceptions as
// RunShares: the first failing share's is rethrown once every share has stopped.
template <typename Fn>
void ParallelFor(size_t n, unsigned jobs, Fn&& fn) {
  const uint32_t shares = uint32_t(std::clamp<size_t>(jobs, 1, std::max<size_t>(n, 1)));
  std::atomic<size_t> next{0};
  RunShares(shares, [&](uint32_t, uint32_t) {
    for (size_t i = next++; i < n; i = next++) fn(i);
  });
}

}  // namespace xnt
