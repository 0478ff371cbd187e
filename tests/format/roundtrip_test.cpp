// Round trips through Writer and Reader: every record kind, page dedup, random access to frame N.
#include <gtest/gtest.h>

#include "fixtures.h"
#include "xnt/base/error.h"

namespace xnt::format::test {
namespace {

TEST(FormatRoundTrip, EveryRecordKindComesBackEqual) {
  TempFile file("roundtrip.xnt");
  auto records = SampleRecords(4, /*with_edram=*/true);
  WriterOptions options;
  options.writer_name = "roundtrip-writer";
  options.writer_version = "9.8.7";
  WriteTrace(file.path, records, options);

  auto reader = Reader::Open(file.path);
  EXPECT_FALSE(reader->recovered());
  const TraceInfo& info = reader->info();
  EXPECT_EQ(info.title_id, 0x4D5307E6u);
  EXPECT_EQ(info.capture_source, "xnt-format-test");
  EXPECT_EQ(info.creation_time_unix, 1700000000u);
  EXPECT_EQ(info.guest_memory_size, kGuestPhysicalSize);
  EXPECT_EQ(info.writer_name, "roundtrip-writer");
  EXPECT_EQ(info.writer_version, "9.8.7");
  EXPECT_EQ(info.format_major, 1);
  EXPECT_EQ(info.format_minor, 0);
  EXPECT_EQ(reader->frame_count(), 4u);
  EXPECT_EQ(ReadAll(*reader), DescribeAll(records));

  const TraceTotals& t = reader->totals();
  EXPECT_EQ(t.frames, 4u);
  EXPECT_EQ(t.submissions, 4u * 2 + 1);
  EXPECT_EQ(t.pm4_dwords, 4u * (4 + 6) + 1);
  EXPECT_EQ(t.memory_events, 1u + 4 * 3);
  EXPECT_TRUE(reader->Validate().empty());
  ASSERT_FALSE(reader->chunks().empty());
  EXPECT_EQ(reader->chunks()[0].type, ChunkType::kInfo);
  uint64_t raw = 0;
  for (const auto& c : reader->chunks()) raw += c.raw_size;
  EXPECT_EQ(raw, t.bytes_raw);
}

TEST(FormatRoundTrip, SingleThreadedReaderAgrees) {
  TempFile file("roundtrip1.xnt");
  auto records = SampleRecords(6, false);
  WriterOptions options;
  options.threads = 1;
  options.chunk_target_bytes = 4096;
  WriteTrace(file.path, records, options);
  ReaderOptions ro;
  ro.threads = 1;
  auto reader = Reader::Open(file.path, ro);
  EXPECT_EQ(ReadAll(*reader), DescribeAll(records));
  EXPECT_TRUE(reader->Validate().empty());
}

TEST(FormatDedup, PageWrittenTwiceIsStoredOnce) {
  TempFile file("dedup.xnt");
  auto page_a = Bytes(kPageSize, 7);
  auto page_b = Bytes(kPageSize, 8);
  std::vector<uint8_t> two(page_a);
  two.insert(two.end(), page_b.begin(), page_b.end());
  {
    auto w = Writer::Create(file.path, SampleInfo());
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x10000, two);
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x80000, two);     // same content, elsewhere
    w->WriteMemory(MemoryEventKind::kGpuRead, 0x10000, page_b);  // a page already stored
    EXPECT_EQ(w->totals().pages_distinct, 2u);
    EXPECT_EQ(w->totals().pages_referenced, 5u);
    w->Finish();
  }
  auto reader = Reader::Open(file.path);
  EXPECT_EQ(reader->totals().pages_distinct, 2u);
  EXPECT_EQ(reader->totals().pages_referenced, 5u);
  uint64_t page_chunk_raw = 0;
  for (const auto& c : reader->chunks()) {
    if (c.type == ChunkType::kPages) page_chunk_raw += c.raw_size;
  }
  // Two pages of data plus FlatBuffer framing and hashes: far less than five pages.
  EXPECT_GE(page_chunk_raw, 2u * kPageSize);
  EXPECT_LT(page_chunk_raw, 3u * kPageSize);
  std::vector<MemoryEvent> events;
  reader->ForEachRecord([&](const Record& r) {
    events.push_back(std::get<MemoryEvent>(r));
    return true;
  });
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].bytes, two);
  EXPECT_EQ(events[1].guest_address, 0x80000u);
  EXPECT_EQ(events[1].bytes, two);
  EXPECT_EQ(events[2].bytes, page_b);
  EXPECT_TRUE(reader->Validate().empty());
}

// The writer records, per pages chunk, the last commands chunk naming one of its pages, and the
// reader drops a decoded pages chunk after it. A page named again many chunks later (its chunk's
// last use is then that later chunk) must still come back, and Validate recomputes the list
// from the memory events and compares it with the footer's.
TEST(FormatDedup, PageNamedAgainManyChunksLaterComesBack) {
  TempFile file("last_use.xnt");
  const auto page_a = Bytes(kPageSize, 21);
  std::vector<Record> records;
  records.push_back(MemoryEvent{MemoryEventKind::kGpuRead, 0x10000, page_a});
  for (uint32_t f = 0; f < 12; ++f) {
    records.push_back(MemoryEvent{MemoryEventKind::kCpuWrite, 0x200000 + f * kPageSize, Bytes(kPageSize, 100 + f)});
    records.push_back(Submission{SubmissionKind::kRingBuffer, 0x1F000000, std::vector<uint32_t>(1200, f)});
    records.push_back(FrameMarker{f, 0x1C000000, 64, 64, 6});
  }
  records.push_back(MemoryEvent{MemoryEventKind::kGpuRead, 0x90000, page_a});  // stored in chunk 1
  WriterOptions options;
  options.threads = 1;
  options.chunk_target_bytes = 4096;  // a pages chunk per page, a commands chunk per submission
  WriteTrace(file.path, records, options);
  for (unsigned threads : {1u, 2u}) {
    ReaderOptions ro;
    ro.threads = threads;
    auto reader = Reader::Open(file.path, ro);
    EXPECT_GT(reader->chunks().size(), 30u);
    EXPECT_EQ(reader->totals().pages_distinct, 13u);
    EXPECT_EQ(ReadAll(*reader), DescribeAll(records));
    EXPECT_EQ(ReadAll(*reader, 11), DescribeAll({records.end() - 4, records.end()}));
    EXPECT_TRUE(reader->Validate().empty());
  }
}

TEST(FormatDedup, UnalignedEventsKeepTheirBytes) {
  TempFile file("unaligned.xnt");
  std::vector<Record> records;
  records.push_back(MemoryEvent{MemoryEventKind::kCpuWrite, 0xFFF, Bytes(1, 1)});
  records.push_back(MemoryEvent{MemoryEventKind::kCpuWrite, 0x1FFE, Bytes(3 * kPageSize + 5, 2)});
  records.push_back(MemoryEvent{MemoryEventKind::kCpuWrite, 0xFFFFF000u, Bytes(kPageSize, 3)});
  records.push_back(MemoryEvent{MemoryEventKind::kCpuWrite, 0x5000, {}});
  WriteTrace(file.path, records);
  auto reader = Reader::Open(file.path);
  EXPECT_EQ(ReadAll(*reader), DescribeAll(records));
  EXPECT_EQ(reader->totals().pages_referenced, 1u + 5 + 1 + 0);
}

TEST(FormatRandomAccess, FrameNAlone) {
  TempFile file("random.xnt");
  auto records = SampleRecords(10, false);
  WriterOptions options;
  options.chunk_target_bytes = 4096;
  WriteTrace(file.path, records, options);
  auto reader = Reader::Open(file.path);
  ASSERT_EQ(reader->frame_count(), 10u);

  // The expected records of frame 5: after the 5th FrameMarker, through the 6th.
  auto all = DescribeAll(records);
  std::vector<std::string> frame5, from7;
  int markers = 0;
  for (const auto& d : all) {
    if (markers == 5) frame5.push_back(d);
    if (markers >= 7) from7.push_back(d);
    if (d.rfind("frame ", 0) == 0) ++markers;
  }
  ASSERT_FALSE(frame5.empty());
  EXPECT_EQ(frame5.back().rfind("frame 5 ", 0), 0u);
  EXPECT_EQ(ReadAll(*reader, 5, 5), frame5);
  EXPECT_EQ(ReadAll(*reader, 7), from7);
  // The texture pages of frame 5 were stored in frame 0; random access still resolves them.
  bool saw_texture = false;
  reader->ForEachRecord([&](const Record& r) {
    if (auto* m = std::get_if<MemoryEvent>(&r); m && m->guest_address == 0x01000000) {
      saw_texture = (m->bytes == Bytes(8192, 99));
    }
    return true;
  }, 5, 5);
  EXPECT_TRUE(saw_texture);
  // State before frame 3: memory, registers, gamma of frames 0..2, no submissions or markers.
  size_t state = 0;
  reader->ForEachStateRecordBefore([&](const Record& r) {
    EXPECT_FALSE(std::holds_alternative<Submission>(r));
    EXPECT_FALSE(std::holds_alternative<FrameMarker>(r));
    ++state;
    return true;
  }, 3);
  EXPECT_EQ(state, 3u /*initial, regs, gamma*/ + 3 * 3);
  EXPECT_THROW(ReadAll(*reader, 11), Error);
  EXPECT_THROW(ReadAll(*reader, 4, 3), Error);
  // Stopping early from the callback.
  size_t n = 0;
  reader->ForEachRecord([&](const Record&) { return ++n < 3; });
  EXPECT_EQ(n, 3u);
}

}  // namespace
}  // namespace xnt::format::test
