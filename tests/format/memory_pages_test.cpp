// Memory events as page spans (memory_pages.h, Reader::ForEachRecordPaged): the same bytes as the
// copying stream, spans laid out as the stored pages are, and a view kept past its callback
// caught.
#include <gtest/gtest.h>

#include "fixtures.h"
#include "xnt/base/error.h"

namespace xnt::format::test {
namespace {

struct Span {
  uint32_t address;
  std::vector<uint8_t> bytes;
};

// Reads every memory event as its spans (in stream order).
std::vector<std::vector<Span>> ReadSpans(Reader& reader) {
  std::vector<std::vector<Span>> events;
  reader.ForEachRecordPaged([](const Record&) { return true; },
                            [&](const MemoryPages& m) {
                              auto& spans = events.emplace_back();
                              m.ForEachSpan([&](uint32_t address, std::span<const uint8_t> run) {
                                spans.push_back({address, {run.begin(), run.end()}});
                              });
                              return true;
                            });
  return events;
}

std::vector<uint8_t> Concat(std::initializer_list<const std::vector<uint8_t>*> parts) {
  std::vector<uint8_t> out;
  for (const auto* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

TEST(FormatMemoryPages, PagedStreamDeliversTheWrittenRecords) {
  for (unsigned threads : {1u, 0u}) {
    TempFile file("paged" + std::to_string(threads) + ".xnt");
    auto records = SampleRecords(5, false, 3 * kPageSize + 100);
    WriterOptions options;
    options.chunk_target_bytes = 4096;  // pages spread over many chunks
    WriteTrace(file.path, records, options);
    ReaderOptions ro;
    ro.threads = threads;
    auto reader = Reader::Open(file.path, ro);
    std::vector<std::string> got;
    reader->ForEachRecordPaged(
        [&](const Record& r) {
          got.push_back(Describe(r));
          return true;
        },
        [&](const MemoryPages& m) {
          MemoryEvent event = m.ToEvent();
          std::vector<uint8_t> copied(m.size());
          m.CopyTo(copied);
          EXPECT_EQ(copied, event.bytes);
          got.push_back(Describe(Record(std::move(event))));
          return true;
        });
    EXPECT_EQ(got, DescribeAll(records)) << "threads " << threads;

    // State before frame 3, paged and copied, agree record for record.
    std::vector<std::string> paged_state, copied_state;
    reader->ForEachStateRecordBeforePaged(
        [&](const Record& r) {
          paged_state.push_back(Describe(r));
          return true;
        },
        [&](const MemoryPages& m) {
          paged_state.push_back(Describe(Record(m.ToEvent())));
          return true;
        },
        3);
    reader->ForEachStateRecordBefore(
        [&](const Record& r) {
          copied_state.push_back(Describe(r));
          return true;
        },
        3);
    EXPECT_EQ(paged_state, copied_state);
    // The initial snapshot, registers and gamma (annotations are not state), then three memory
    // events in each of frames 0-2.
    EXPECT_EQ(paged_state.size(), 1u + 2 + 3 * 3);
  }
}

// The writer stores a Pages chunk's pages in the order events first name them, so fresh pages of
// one event lie back to back and come out as one span; a page stored earlier starts a new span.
TEST(FormatMemoryPages, SpansFollowTheStoredPages) {
  TempFile file("spans.xnt");
  const auto a = Bytes(3 * kPageSize, 11);  // three fresh pages
  const auto b = Bytes(2 * kPageSize, 12);  // at an odd offset: partial, whole, partial page
  const auto x = Bytes(kPageSize, 13), y = Bytes(kPageSize, 14);
  const std::vector<uint8_t> a1(a.begin() + kPageSize, a.begin() + 2 * kPageSize);
  const auto c = Concat({&x, &a1, &y});   // fresh, stored before, fresh
  const auto d = Concat({&x, &x});        // one page twice
  {
    auto w = Writer::Create(file.path, SampleInfo());
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x10000, a);
    w->WriteMemory(MemoryEventKind::kCpuWrite, 0x20800, b);
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x30000, c);
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x40000, d);
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x50000, {});
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x60FFF, std::vector<uint8_t>(2, 0x77));
    w->Finish();
  }
  auto reader = Reader::Open(file.path);
  const auto events = ReadSpans(*reader);
  ASSERT_EQ(events.size(), 6u);

  ASSERT_EQ(events[0].size(), 1u);
  EXPECT_EQ(events[0][0].address, 0x10000u);
  EXPECT_EQ(events[0][0].bytes, a);

  ASSERT_EQ(events[1].size(), 1u);  // 2048 + 4096 + 2048 bytes of three consecutive slots
  EXPECT_EQ(events[1][0].address, 0x20800u);
  EXPECT_EQ(events[1][0].bytes, b);

  ASSERT_EQ(events[2].size(), 3u);
  EXPECT_EQ(events[2][0].address, 0x30000u);
  EXPECT_EQ(events[2][0].bytes, x);
  EXPECT_EQ(events[2][1].address, 0x31000u);
  EXPECT_EQ(events[2][1].bytes, a1);
  EXPECT_EQ(events[2][2].address, 0x32000u);
  EXPECT_EQ(events[2][2].bytes, y);

  ASSERT_EQ(events[3].size(), 2u);  // the same stored page twice is not one run
  EXPECT_EQ(events[3][0].address, 0x40000u);
  EXPECT_EQ(events[3][1].address, 0x41000u);
  EXPECT_EQ(events[3][1].bytes, x);

  EXPECT_TRUE(events[4].empty());

  // One byte at the end of a page and one at the start of the next: two stored partial pages
  // (zero elsewhere) in consecutive slots; the first piece reaches its page's end, so the two
  // bytes are adjacent in the chunk and form one span.
  ASSERT_EQ(events[5].size(), 1u);
  EXPECT_EQ(events[5][0].address, 0x60FFFu);
  EXPECT_EQ(events[5][0].bytes, (std::vector<uint8_t>{0x77, 0x77}));
}

TEST(FormatMemoryPages, CopyToChecksTheSize) {
  TempFile file("copysize.xnt");
  {
    auto w = Writer::Create(file.path, SampleInfo());
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x10000, Bytes(100, 1));
    w->Finish();
  }
  auto reader = Reader::Open(file.path);
  int events = 0;
  reader->ForEachRecordPaged([](const Record&) { return true; },
                             [&](const MemoryPages& m) {
                               std::vector<uint8_t> small(99);
                               EXPECT_THROW(m.CopyTo(small), Error);
                               ++events;
                               return true;
                             });
  EXPECT_EQ(events, 1);
}

TEST(FormatMemoryPages, MemoryCallbackStopsTheStream) {
  TempFile file("stop.xnt");
  {
    auto w = Writer::Create(file.path, SampleInfo());
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x10000, Bytes(kPageSize, 3));
    w->Write(Submission{SubmissionKind::kRingBuffer, 0x1000, {0x80000000u}});
    w->Write(FrameMarker{0, 0x1C000000, 64, 64, 6});
    w->Finish();
  }
  auto reader = Reader::Open(file.path);
  int memory_calls = 0, other_calls = 0;
  reader->ForEachRecordPaged(
      [&](const Record&) {
        ++other_calls;
        return true;
      },
      [&](const MemoryPages&) {
        ++memory_calls;
        return false;
      });
  EXPECT_EQ(memory_calls, 1);
  EXPECT_EQ(other_calls, 0);
  EXPECT_THROW(reader->ForEachRecordPaged([](const Record&) { return true; }, {}), Error);
  EXPECT_THROW(reader->ForEachStateRecordBeforePaged({}, [](const MemoryPages&) { return true; }, 1), Error);
}

TEST(FormatMemoryPagesDeathTest, ViewKeptPastItsCallbackAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  TempFile file("dead.xnt");
  {
    auto w = Writer::Create(file.path, SampleInfo());
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x10000, Bytes(kPageSize, 4));
    w->Finish();
  }
  auto reader = Reader::Open(file.path);
  const MemoryPages* kept = nullptr;
  reader->ForEachRecordPaged([](const Record&) { return true; },
                             [&](const MemoryPages& m) {
                               EXPECT_EQ(m.size(), kPageSize);
                               kept = &m;
                               return true;
                             });
  ASSERT_NE(kept, nullptr);
  EXPECT_DEATH((void)kept->size(), "used after the reader callback");
  EXPECT_DEATH(kept->ForEachSpan([](uint32_t, std::span<const uint8_t>) {}), "used after the reader callback");
}

}  // namespace
}  // namespace xnt::format::test
