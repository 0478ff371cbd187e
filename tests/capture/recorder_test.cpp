// Recorder ordering rules and the C ABI (driven from C in capture_c_api.c), read back through
// format::Reader.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "record_compare.h"
#include "xnt/capture/recorder.h"
#include "xnt/format/reader.h"

extern "C" int xnt_test_capture_c_api(const char* path, char* message, size_t message_size);

namespace xnt::capture {
namespace {

namespace fs = std::filesystem;

// A format::Writer that keeps records in memory.
class MemoryWriter : public format::Writer {
 public:
  explicit MemoryWriter(std::vector<format::Record>& out) : out_(out) {}
  void Write(const format::Record& r) override { out_.push_back(r); }
  void WriteMemory(format::MemoryEventKind kind, uint32_t address,
                   std::span<const uint8_t> bytes) override {
    out_.push_back(format::MemoryEvent{kind, address, {bytes.begin(), bytes.end()}});
  }
  void Finish() override { finished = true; }
  const format::TraceTotals& totals() const override { return totals_; }
  bool finished = false;

 private:
  std::vector<format::Record>& out_;
  format::TraceTotals totals_;
};

std::vector<format::Record> ReadAll(const std::string& path) {
  auto reader = format::Reader::Open(path);
  std::vector<format::Record> out;
  reader->ForEachRecord([&](const format::Record& r) {
    out.push_back(r);
    return true;
  });
  return out;
}

fs::path TempPath(const char* name) {
  return fs::temp_directory_path() / (std::string("xnt_capture_") + name + "_" +
                                      std::to_string(::getpid()) + ".xnt");
}

TEST(Recorder, GpuReadsGoAheadOfThePendingSubmission) {
  std::vector<format::Record> out;
  auto w = std::make_unique<MemoryWriter>(out);
  MemoryWriter* writer = w.get();
  Recorder rec(std::move(w));
  const uint32_t ring[2] = {0x00002000, 320};
  const uint8_t bytes[4] = {1, 2, 3, 4};
  rec.Submit(0x80000, ring);
  rec.MemoryRead(0x60000, bytes);           // read while executing: before the submission
  rec.SubmitIndirect(0x90000, bytes);       // IB contents: memory, also before
  rec.CpuWrite(0x100000, bytes);            // after the GPU is done: after it
  rec.Submit(0x80008, ring);
  rec.GpuWrite(0x200000, bytes);
  rec.Swap(0x200000, 320, 240, 6);
  rec.Finish();
  EXPECT_TRUE(writer->finished);
  const std::vector<std::string> expected = {
      "Memory kind=1 addr=00060000 bytes=4 " + test::HashBytes(bytes, 4),
      "Memory kind=1 addr=00090000 bytes=4 " + test::HashBytes(bytes, 4),
      "Submission kind=0 addr=00080000 dwords=2 " + test::HashBytes(ring, 8),
      "Memory kind=2 addr=00100000 bytes=4 " + test::HashBytes(bytes, 4),
      "Submission kind=0 addr=00080008 dwords=2 " + test::HashBytes(ring, 8),
      "Memory kind=3 addr=00200000 bytes=4 " + test::HashBytes(bytes, 4),
      "Frame index=0 fb=00200000 320x240 format=6",
  };
  EXPECT_EQ(test::DescribeAll(out), expected);
  EXPECT_EQ(rec.submissions(), 2u);
  EXPECT_THROW(rec.Swap(0, 1, 1, 6), std::logic_error);
}

TEST(Recorder, RejectsBadArguments) {
  std::vector<format::Record> out;
  Recorder rec(std::make_unique<MemoryWriter>(out));
  const uint8_t three[3] = {1, 2, 3};
  EXPECT_THROW(rec.SubmitBigEndian(0, three), std::invalid_argument);
  EXPECT_THROW(rec.MemoryRead(0x1FFFFFFF, three), std::invalid_argument);
  EXPECT_THROW(rec.Registers(0xFFFF, std::vector<uint32_t>(2)), std::invalid_argument);
  EXPECT_THROW(rec.Edram(std::vector<uint8_t>(10)), std::invalid_argument);
  EXPECT_TRUE(out.empty());
}

TEST(CaptureCApi, RecordsATraceFromC) {
  const fs::path path = TempPath("c_api");
  char message[512] = {0};
  ASSERT_EQ(xnt_test_capture_c_api(path.c_str(), message, sizeof message), 0) << message;
  auto reader = format::Reader::Open(path.string());
  EXPECT_EQ(reader->info().title_id, 0x41560817u);
  EXPECT_EQ(reader->info().capture_source, "c-api-test");
  EXPECT_FALSE(reader->recovered());
  EXPECT_EQ(reader->frame_count(), 1u);
  const auto records = ReadAll(path.string());
  const uint32_t ring[4] = {0x00002000, 0x140, 0xC0003600, 0x00030084};
  const uint8_t vertices[8] = {0x3F, 0x80, 0, 0, 0x40, 0, 0, 0};
  const uint8_t data[4] = {1, 2, 3, 4};
  const uint32_t regs[3] = {320, 0, 0x7FF};
  const std::vector<std::string> expected = {
      "Registers first=2000 count=3 " + test::HashBytes(regs, 12),
      "Memory kind=1 addr=00060000 bytes=8 " + test::HashBytes(vertices, 8),
      "Submission kind=0 addr=00080000 dwords=4 " + test::HashBytes(ring, 16),
      "Memory kind=2 addr=00100000 bytes=4 " + test::HashBytes(data, 4),
      "Annotation marker: frame 0",
      "Frame index=0 fb=00200000 320x240 format=6",
  };
  EXPECT_EQ(test::DescribeAll(records), expected);
  fs::remove(path);
}

}  // namespace
}  // namespace xnt::capture
