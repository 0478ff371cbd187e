// The read-ahead (prefetcher.h) when its consumer stops early: a walk that ends at its first
// record, or at a damaged chunk, while the workers have filled the window must return promptly,
// decode no more than the window ahead of what was consumed, and leave the reader usable. A
// worker blocked forever on a full window behind a consumer that left is the hang this guards.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "fixtures.h"
#include "prefetcher.h"

namespace xnt::format::test {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A decode that takes a millisecond and counts itself; index `bad` comes back damaged.
Prefetcher::DecodeFn CountingDecode(std::atomic<uint32_t>& decoded, uint32_t bad = UINT32_MAX) {
  return [&decoded, bad](uint32_t index, unsigned) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    auto chunk = std::make_shared<DecodedChunk>();
    chunk->index = index;
    if (index == bad) chunk->error = std::make_exception_ptr(std::runtime_error("damaged"));
    ++decoded;
    return chunk;
  };
}

TEST(FormatReadAhead, ConsumerLeavingAFullWindowReturnsPromptly) {
  constexpr unsigned kThreads = 4;
  constexpr uint32_t kWindow = 2 * kThreads + 2;  // prefetcher.cpp
  std::atomic<uint32_t> decoded{0};
  const auto start = Clock::now();
  {
    Prefetcher prefetch(0, 10000, kThreads, CountingDecode(decoded));
    for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(prefetch.Get(i)->index, i);
    // Let the workers fill the window and block on it.
    while (decoded < 3 + kWindow && SecondsSince(start) < 20) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(decoded.load(), 3 + kWindow) << "the window bounds the decodes ahead";
  }  // the consumer leaves here with the window full
  EXPECT_LT(SecondsSince(start), 20.0);
  EXPECT_EQ(decoded.load(), 3 + kWindow);
}

TEST(FormatReadAhead, DamagedChunkStopsTheConsumerAndTheWorkers) {
  std::atomic<uint32_t> decoded{0};
  const auto start = Clock::now();
  {
    Prefetcher prefetch(0, 10000, 3, CountingDecode(decoded, 5));
    for (uint32_t i = 0; i < 5; ++i) EXPECT_FALSE(prefetch.Get(i)->error);
    EXPECT_TRUE(prefetch.Get(5)->error);
  }
  EXPECT_LT(SecondsSince(start), 20.0);
  EXPECT_LE(decoded.load(), 6u + 2 * 3 + 2);
}

// Through the reader: a walk whose callback stops at the first record, on a trace of many
// chunks decoded by four workers, returns; the next walk over the same reader sees everything.
TEST(FormatReadAhead, ReaderWalkStoppedEarlyLeavesTheReaderUsable) {
  TempFile file("readahead.xnt");
  const auto records = SampleRecords(40, false, 3 * kPageSize + 100);
  WriterOptions options;
  options.chunk_target_bytes = 4096;  // many chunks: the window fills
  WriteTrace(file.path, records, options);
  ReaderOptions ro;
  ro.threads = 4;
  auto reader = Reader::Open(file.path, ro);
  ASSERT_GT(reader->chunks().size(), 20u);
  const auto start = Clock::now();
  for (int round = 0; round < 20; ++round) {
    size_t seen = 0;
    reader->ForEachRecord([&](const Record&) { return ++seen < 1; });
    EXPECT_EQ(seen, 1u);
  }
  EXPECT_LT(SecondsSince(start), 60.0);
  std::vector<std::string> all;
  reader->ForEachRecord([&](const Record& r) {
    all.push_back(Describe(r));
    return true;
  });
  EXPECT_EQ(all, DescribeAll(records));
}

}  // namespace
}  // namespace xnt::format::test
