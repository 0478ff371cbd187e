#pragma once
// The one way Xenotrace spreads work over threads. RunShares splits deterministic work into n
// fixed shares (the cpu path's pixel bands, resolve bands and front-buffer read); ParallelFor
// hands independent items (compare's traces and combinations) to the shares as each finishes its
// last one. The calling thread takes share 0; the others go to threads kept between calls (a
// 720p frame on the cpu path makes about twenty such calls, and starting and joining a thread
// for each cost more than waking one that waits). A call made from a share gets threads of its
// own (an idle one or a new one), so nested calls never wait for each other. If the system
// refuses a thread (std::system_error from its constructor), the refused shares run on the
// calling thread, so the result never depends on how many threads actually started.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>

#include <pthread.h>
#include <thread>
#include <vector>

namespace xnt {

namespace detail {

// The threads RunShares keeps: each waits for a share, runs it, and waits again. Never destroyed
// (idle threads wait until the process exits), so no call can outlive it.
class SharePool {
 public:
  // One RunShares call: run(context, share) for the shares handed out; `remaining` counts the
  // shares not finished yet (under `mutex`).
  struct Job {
    void (*run)(void* context, uint32_t share) = nullptr;
    void* context = nullptr;
    uint32_t remaining = 0;
    std::mutex mutex;
    std::condition_variable done;
  };

  static SharePool& Get() {
    static SharePool* const pool = new SharePool;
    return *pool;
  }

  SharePool() {
    // A forked child has only the forking thread: the kept ones are forgotten there, so that a
    // RunShares in the child starts threads of its own instead of waiting on absent ones.
    pthread_atfork([] { Get().mutex_.lock(); }, [] { Get().mutex_.unlock(); },
                   [] { Get().ForgetThreadsInChild(); });
  }

  // Hands `share` of `job` to an idle thread or a new one; false when no thread could start.
  bool Start(Job& job, uint32_t share) {
    Thread* t = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        t = idle_.back();
        idle_.pop_back();
      }
    }
    if (!t) {
      auto owned = std::make_unique<Thread>();
      t = owned.get();
      try {
        t->thread = std::thread([this, t] { Loop(*t); });
      } catch (const std::system_error&) {
        return false;
      }
      std::lock_guard<std::mutex> lock(mutex_);
      threads_.push_back(std::move(owned));
    }
    {
      std::lock_guard<std::mutex> lock(t->mutex);
      t->job = &job;
      t->share = share;
    }
    t->wake.notify_one();
    return true;
  }

 private:
  struct Thread {
    std::thread thread;
    std::mutex mutex;
    std::condition_variable wake;
    Job* job = nullptr;
    uint32_t share = 0;
  };

  void ForgetThreadsInChild() {
    // Left allocated: a std::thread that was running must not be destroyed.
    for (std::unique_ptr<Thread>& t : threads_) static_cast<void>(t.release());
    threads_.clear();
    idle_.clear();
    mutex_.unlock();
  }

  void Loop(Thread& t) {
    for (;;) {
      Job* job = nullptr;
      uint32_t share = 0;
      {
        std::unique_lock<std::mutex> lock(t.mutex);
        t.wake.wait(lock, [&] { return t.job != nullptr; });
        job = t.job;
        share = t.share;
        t.job = nullptr;
      }
      job->run(job->context, share);
      // Idle again before the caller can return, so that its next call finds this thread.
      {
        std::lock_guard<std::mutex> lock(mutex_);
        idle_.push_back(&t);
      }
      // The last access to the job: the caller returns only after this lock is released.
      std::lock_guard<std::mutex> lock(job->mutex);
      if (--job->remaining == 0) job->done.notify_all();
    }
  }

  std::mutex mutex_;
  std::vector<Thread*> idle_;
  std::vector<std::unique_ptr<Thread>> threads_;
};

}  // namespace detail

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
  using Run = decltype(run);
  detail::SharePool::Job job;
  job.run = [](void* context, uint32_t share) { (*static_cast<Run*>(context))(share); };
  job.context = &run;
  job.remaining = n - 1;
  uint32_t started = 1;
  while (started < n && detail::SharePool::Get().Start(job, started)) ++started;
  // Shares from `started` on (no thread for them) run here, after share 0.
  run(0);
  for (uint32_t t = started; t < n; ++t) run(t);
  {
    std::unique_lock<std::mutex> lock(job.mutex);
    job.remaining -= n - started;
    job.done.wait(lock, [&] { return job.remaining == 0; });
  }
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
