// Xenia .xtr import/export: the hand-made fixture (written from the published layout), the 2015
// numbering, damaged input, Xenia's own oracle traces, and records -> .xtr -> records round trips.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "record_compare.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/capture/xtr_export.h"
#include "xnt/capture/xtr_file.h"
#include "xnt/capture/xtr_import.h"
#include "test_files.h"
#include "xtr_fixture.h"
#include "prerequisite.h"

namespace xnt::capture {
namespace {

using test::HandmadeXtrFacts;
namespace fs = std::filesystem;

using ::xnt::test::ReadFileBytes;

std::vector<format::Record> Import(std::span<const uint8_t> bytes, XtrImportReport* report = nullptr) {
  std::vector<format::Record> out;
  XtrImportReport r = ImportXtr(bytes, [&](format::Record&& rec) { out.push_back(std::move(rec)); });
  if (report) *report = r;
  return out;
}

std::vector<uint8_t> Export(const std::vector<format::Record>& records, uint32_t title_id,
                            XtrExportReport* report = nullptr) {
  std::vector<uint8_t> out;
  XtrExporter e(out, title_id);
  for (const auto& r : records) e.Add(r);
  if (report) *report = e.report();
  return out;
}

template <typename T>
const T& As(const format::Record& r) {
  EXPECT_TRUE(std::holds_alternative<T>(r)) << test::Describe(r);
  return std::get<T>(r);
}

const fs::path kFixtureDir = fs::path(XNT_SOURCE_DIR) / "tests/capture/fixtures";

TEST(XtrFixture, CommittedFilesMatchTheLayoutWriter) {
  // The committed fixtures are the helper's output; XNT_REGENERATE_FIXTURES=1 rewrites them.
  const std::pair<const char*, bool> files[] = {{"handmade_current.xtr", false},
                                                {"handmade_2015.xtr", true}};
  for (auto [name, legacy] : files) {
    const auto bytes = test::MakeHandmadeXtr(legacy);
    if (std::getenv("XNT_REGENERATE_FIXTURES")) {
      std::ofstream(kFixtureDir / name, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    EXPECT_EQ(ReadFileBytes(kFixtureDir / name), bytes) << name;
  }
}

TEST(XtrImport, HandmadeFixtureGivesTheExpectedRecords) {
  using F = HandmadeXtrFacts;
  XtrImportReport report;
  const auto file = ReadFileBytes(kFixtureDir / "handmade_current.xtr");
  ASSERT_FALSE(file.empty());
  const auto rec = Import(file, &report);
  EXPECT_EQ(report.title_id, F::kTitleId);
  EXPECT_EQ(report.build_commit, "0123456789abcdef0123456789abcdef01234567");
  EXPECT_FALSE(report.legacy_numbering);
  EXPECT_EQ(report.packets, 6u);
  EXPECT_EQ(report.indirect_buffers, 1u);
  EXPECT_EQ(report.frames, 1u);
  ASSERT_EQ(rec.size(), 9u);

  const auto& regs = As<format::RegisterSnapshot>(rec[0]);
  EXPECT_EQ(regs.first_register, 0x2000u);
  EXPECT_EQ(regs.values, (std::vector<uint32_t>{0x140, 0, 0x7FF}));

  const auto& gamma = As<format::GammaRamp>(rec[1]);
  EXPECT_EQ(gamma.rw_component, 1);
  ASSERT_EQ(gamma.table.size(), 256u);
  ASSERT_EQ(gamma.pwl.size(), 384u);
  EXPECT_EQ(gamma.table[3], 3 * 0x00100401u);
  EXPECT_EQ(gamma.pwl[0], 256 * 0x00100401u);

  const auto& s0 = As<format::Submission>(rec[2]);
  EXPECT_EQ(s0.kind, format::SubmissionKind::kRingBuffer);
  EXPECT_EQ(s0.guest_address, F::kRingAddress);
  EXPECT_EQ(s0.dwords, (std::vector<uint32_t>{0x00002000u, 320u}));

  const auto& m0 = As<format::MemoryEvent>(rec[3]);
  EXPECT_EQ(m0.kind, format::MemoryEventKind::kGpuRead);
  EXPECT_EQ(m0.guest_address, F::kReadAddress);
  EXPECT_EQ(m0.bytes.size(), 16u);
  EXPECT_EQ(m0.bytes[15], 16);

  // Memory the IB read (snappy-compressed in the file), then the IB's own bytes, before the
  // submission holding the INDIRECT_BUFFER packet.
  const auto& m1 = As<format::MemoryEvent>(rec[4]);
  EXPECT_EQ(m1.guest_address, F::kIbReadAddress);
  ASSERT_EQ(m1.bytes.size(), F::kIbReadBytes);
  EXPECT_EQ(m1.bytes[300], uint8_t(300 * 7 + 1));
  const auto& ib = As<format::MemoryEvent>(rec[5]);
  EXPECT_EQ(ib.kind, format::MemoryEventKind::kGpuRead);
  EXPECT_EQ(ib.guest_address, F::kIbAddress);
  ASSERT_EQ(ib.bytes.size(), 20u);
  EXPECT_EQ(LoadBE32(ib.bytes.data()), 0x00002001u);
  EXPECT_EQ(LoadBE32(ib.bytes.data() + 8), 0xC0013600u);

  const auto& s1 = As<format::Submission>(rec[6]);
  EXPECT_EQ(s1.guest_address, F::kRingAddress + 8);
  ASSERT_EQ(s1.dwords.size(), 3u + 7u + 5u);
  // The short INDIRECT_BUFFER packet got its length dword back: 5 dwords of IB.
  EXPECT_EQ(s1.dwords[0], 0xC0013F00u);
  EXPECT_EQ(s1.dwords[1], F::kIbAddress);
  EXPECT_EQ(s1.dwords[2], 5u);
  EXPECT_EQ(s1.dwords[3], 0x00054800u);
  EXPECT_EQ(s1.dwords[10], 0xC0036400u);

  const auto& frame = As<format::FrameMarker>(rec[7]);
  EXPECT_EQ(frame.front_buffer_address, F::kFrontBuffer);
  EXPECT_EQ(frame.width, 320u);
  EXPECT_EQ(frame.height, 240u);
  EXPECT_EQ(frame.format, 6u);  // k_8_8_8_8 from fetch constant 0

  const auto& w = As<format::MemoryEvent>(rec[8]);
  EXPECT_EQ(w.kind, format::MemoryEventKind::kGpuWrite);
  EXPECT_EQ(w.guest_address, F::kFrontBuffer);
  EXPECT_EQ(w.bytes, (std::vector<uint8_t>{0xAA, 0xBB, 0xCC, 0xDD, 1, 2, 3, 4}));
  bool noted_repair = false;
  for (const auto& n : report.notes) noted_repair |= n.find("length rebuilt as 5") != std::string::npos;
  EXPECT_TRUE(noted_repair);
}

TEST(XtrImport, EdramSnapshotDecodesTo10MiB) {
  const auto file = test::MakeHandmadeXtr(false, true);
  XtrImportReport report;
  const auto rec = Import(file, &report);
  ASSERT_EQ(rec.size(), 10u);
  const auto& e = As<format::EdramSnapshot>(rec[9]);
  ASSERT_EQ(e.bytes.size(), format::kEdramSizeBytes);
  EXPECT_EQ(e.bytes[HandmadeXtrFacts::kEdramMarkerOffset], 0x5A);
  EXPECT_EQ(e.bytes[HandmadeXtrFacts::kEdramMarkerOffset + 1], 0);
  EXPECT_EQ(report.edram_snapshots, 1u);
}

TEST(XtrImport, Pre2019NumberingIsDetected) {
  XtrImportReport report;
  const auto rec = Import(ReadFileBytes(kFixtureDir / "handmade_2015.xtr"), &report);
  EXPECT_TRUE(report.legacy_numbering);
  EXPECT_NE(report.numbering_note.find("pre-November-2019"), std::string::npos);
  ASSERT_EQ(rec.size(), 7u);
  const auto& frame = As<format::FrameMarker>(rec[5]);
  EXPECT_EQ(frame.front_buffer_address, HandmadeXtrFacts::kFrontBuffer);
  EXPECT_EQ(As<format::MemoryEvent>(rec[6]).kind, format::MemoryEventKind::kGpuWrite);
  // The same file read with today's numbering alone would fail: the swap event (8) is read as an
  // EDRAM snapshot whose length field is the next record's type.
  const auto current = Import(ReadFileBytes(kFixtureDir / "handmade_current.xtr"), &report);
  EXPECT_FALSE(report.legacy_numbering);
}

TEST(XtrImport, EveryTruncationIsAnErrorWithAnOffsetOrARecordBoundary) {
  const auto file = ReadFileBytes(kFixtureDir / "handmade_current.xtr");
  size_t errors = 0, ok = 0;
  for (size_t n = 0; n < file.size(); ++n) {
    std::span<const uint8_t> prefix(file.data(), n);
    try {
      Import(prefix);
      ++ok;  // cut exactly between two records: a valid, shorter trace
    } catch (const Error& e) {
      ++errors;
      ASSERT_NE(e.offset(), Error::kNoOffset) << n;
      ASSERT_LE(e.offset(), n) << e.what();
    }
  }
  EXPECT_GT(errors, file.size() * 9 / 10);
  EXPECT_GT(ok, 5u);
}

TEST(XtrImport, DamagedRecordsNameTheirOffset) {
  auto file = ReadFileBytes(kFixtureDir / "handmade_current.xtr");
  // The first PrimaryBufferStart follows the 48-byte header, the 36-byte register record and the
  // gamma record; find the first PacketStart instead by scanning for its known first bytes.
  size_t packet = 0;
  for (size_t i = 48; i + 12 < file.size(); ++i) {
    if (LoadLE32(&file[i]) == 4 && LoadLE32(&file[i + 4]) == HandmadeXtrFacts::kRingAddress) {
      packet = i;
      break;
    }
  }
  ASSERT_NE(packet, 0u);
  {
    auto bad = file;
    StoreLE32(&bad[packet + 8], 0x40000000);  // absurd dword count
    try {
      Import(bad);
      FAIL() << "absurd packet length accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.offset(), packet) << e.what();
    }
  }
  {
    auto bad = file;
    StoreLE32(&bad[packet + 4], 0x3FFFFFF0);  // a packet beyond 512 MiB of guest memory
    try {
      Import(bad);
      FAIL() << "packet outside guest memory accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.offset(), packet) << e.what();
      EXPECT_NE(std::string(e.what()).find("0x3FFFFFF0"), std::string::npos) << e.what();
    }
  }
  {
    auto bad = file;
    StoreLE32(&bad[packet], 77);  // unknown command type
    try {
      Import(bad);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.offset(), packet) << e.what();
      EXPECT_NE(std::string(e.what()).find("unknown command type 77"), std::string::npos);
    }
  }
  {
    // The gamma record is snappy-compressed: break its stream.
    auto bad = file;
    const size_t gamma = 48 + 36;
    ASSERT_EQ(LoadLE32(&bad[gamma]), 11u);
    for (size_t i = gamma + 18; i < gamma + 40; ++i) bad[i] = 0xFF;
    try {
      Import(bad);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.offset(), gamma) << e.what();
      EXPECT_NE(std::string(e.what()).find("snappy"), std::string::npos) << e.what();
    }
  }
  {
    auto bad = file;
    StoreLE32(&bad[0], 2);
    EXPECT_THROW(Import(bad), Error);
  }
}

// ---- Xenia's own traces ---------------------------------------------------------------------------

TEST(XtrImport, XeniaOracleTracesImport) {
  const fs::path dir = fs::path(XNT_SHARED_DIR) / "xenia-oracle";
  if (!fs::exists(dir)) XNT_MISSING_PREREQUISITE() << dir << " not present";
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".xtr") continue;
    ++files;
    SCOPED_TRACE(entry.path().filename().string());
    const auto bytes = ReadFileBytes(entry.path());
    XtrImportReport report;
    const auto rec = Import(bytes, &report);
    EXPECT_FALSE(report.legacy_numbering);
    EXPECT_EQ(report.frames, 1u);
    // Count PacketStart records independently of the importer and compare.
    uint64_t packet_dwords = 0;
    for (const auto& r : rec) {
      if (auto* s = std::get_if<format::Submission>(&r)) packet_dwords += s->dwords.size();
    }
    EXPECT_EQ(packet_dwords, report.packet_dwords);
    EXPECT_GT(report.packets, 50u);
    // The frame marker carries what the XE_SWAP packet before it says ("SWAP", address, w, h).
    const auto& frame = As<format::FrameMarker>(rec.back());
    const auto& last = As<format::Submission>(rec[rec.size() - 2]);
    ASSERT_GE(last.dwords.size(), 5u);
    const uint32_t* swap = &last.dwords[last.dwords.size() - 5];
    EXPECT_EQ(swap[0], 0xC0036400u);
    EXPECT_EQ(swap[1], 0x53574150u);
    EXPECT_EQ(frame.front_buffer_address, swap[2]);
    EXPECT_EQ(frame.width, swap[3]);
    EXPECT_EQ(frame.height, swap[4]);
    EXPECT_GE(frame.width, 128u);
    EXPECT_EQ(frame.format, 6u);
    // Gamma ramp first (Xenia's InitializeTrace), stored uncompressed in these files.
    EXPECT_TRUE(std::holds_alternative<format::GammaRamp>(rec.front()));

    // .xtr -> records -> .xtr -> records keeps every record.
    const auto again = Import(Export(rec, report.title_id));
    EXPECT_EQ(test::DescribeAll(again), test::DescribeAll(rec));
  }
  EXPECT_EQ(files, 4);
}

// ---- Round trip from authored records ----------------------------------------------------------------

std::vector<format::Record> AuthoredTrace() {
  std::vector<format::Record> r;
  format::RegisterSnapshot regs;
  regs.first_register = 0;
  regs.values.resize(0x5003);
  for (size_t i = 0; i < regs.values.size(); ++i) regs.values[i] = uint32_t(i * 2654435761u);
  r.push_back(regs);
  format::GammaRamp g;
  g.table.assign(256, 0x3FF003FFu);
  g.pwl.assign(384, 0x12345678u);
  g.rw_component = 2;
  r.push_back(g);
  format::EdramSnapshot e;
  e.bytes.assign(format::kEdramSizeBytes, 0x11);
  r.push_back(e);

  // An indirect buffer in memory, called from the ring.
  Pm4Builder ib;
  ib.WriteRegister(xenos::Reg::RB_COLOR_INFO, 0).DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 3);
  std::vector<uint8_t> ib_bytes(ib.size() * 4);
  for (size_t i = 0; i < ib.size(); ++i) StoreBE32(&ib_bytes[4 * i], ib.dwords()[i]);
  r.push_back(format::MemoryEvent{format::MemoryEventKind::kGpuRead, 0x00400000, ib_bytes});
  std::vector<uint8_t> big(5000);
  for (size_t i = 0; i < big.size(); ++i) big[i] = uint8_t(i ^ (i >> 3));
  r.push_back(format::MemoryEvent{format::MemoryEventKind::kGpuRead, 0x00500000, big});

  Pm4Builder ring;
  D3dDeviceDefaults(ring);
  ring.IndirectBuffer(0x00400000, uint32_t(ib.size()));
  ring.WriteRegister(xenos::Reg::RB_SURFACE_INFO, 320);
  r.push_back(format::Submission{format::SubmissionKind::kRingBuffer, 0x00080000, ring.Take()});
  r.push_back(format::MemoryEvent{format::MemoryEventKind::kGpuWrite, 0x00200000,
                                  std::vector<uint8_t>(64, 0xEE)});
  Pm4Builder swap;
  D3dSwap(swap, 0x00200000, 320, 240);
  r.push_back(format::Submission{format::SubmissionKind::kRingBuffer, 0x00081000, swap.Take()});
  r.push_back(format::FrameMarker{0, 0x00200000, 320, 240, 6});
  r.push_back(format::MemoryEvent{format::MemoryEventKind::kCpuWrite, 0x00600000,
                                  std::vector<uint8_t>(1024, 0x42)});
  r.push_back(format::Annotation{"note", "dropped by .xtr"});
  // A stand-alone indirect buffer submission.
  Pm4Builder lone;
  lone.Nop(2);
  r.push_back(format::Submission{format::SubmissionKind::kIndirectBuffer, 0x00700000, lone.Take()});
  return r;
}

TEST(XtrRoundTrip, RecordsToXtrAndBackKeepEveryPacketAndPage) {
  const auto original = AuthoredTrace();
  XtrExportReport ex;
  const auto file = Export(original, 0x12345678, &ex);
  EXPECT_EQ(ex.indirect_buffers_nested, 1u);
  EXPECT_EQ(ex.annotations_dropped, 1u);
  EXPECT_EQ(ex.memory_kind_changed, 1u);
  EXPECT_EQ(ex.bytes_written, file.size());
  XtrImportReport im;
  const auto back = Import(file, &im);
  EXPECT_EQ(im.title_id, 0x12345678u);
  EXPECT_TRUE(im.notes.empty()) << im.notes.front();

  // Expected: the same stream minus the annotation, with memory kinds reduced to read/write.
  std::vector<format::Record> expected;
  for (const auto& r : original) {
    if (!std::holds_alternative<format::Annotation>(r)) expected.push_back(r);
  }
  test::DescribeOptions o;
  o.memory_kind = false;
  EXPECT_EQ(test::DescribeAll(back, o), test::DescribeAll(expected, o));
}

TEST(XtrExport, FollowsXeniaCompressionRules) {
  std::vector<format::Record> r;
  r.push_back(format::MemoryEvent{format::MemoryEventKind::kGpuRead, 0x1000,
                                  std::vector<uint8_t>(1024, 1)});
  r.push_back(format::MemoryEvent{format::MemoryEventKind::kGpuRead, 0x2000,
                                  std::vector<uint8_t>(1025, 1)});
  const auto file = Export(r, 0);
  ASSERT_EQ(LoadLE32(&file[0]), 1u);  // version
  // First record: MemoryRead, kNone, encoded == decoded == 1024.
  size_t o = 48;
  EXPECT_EQ(LoadLE32(&file[o]), 6u);
  EXPECT_EQ(LoadLE32(&file[o + 8]), 0u);
  EXPECT_EQ(LoadLE32(&file[o + 12]), 1024u);
  EXPECT_EQ(LoadLE32(&file[o + 16]), 1024u);
  o += 20 + 1024;
  // Second: above the 1024-byte threshold, snappy.
  EXPECT_EQ(LoadLE32(&file[o]), 6u);
  EXPECT_EQ(LoadLE32(&file[o + 8]), 1u);
  EXPECT_LT(LoadLE32(&file[o + 12]), 1025u);
  EXPECT_EQ(LoadLE32(&file[o + 16]), 1025u);
  EXPECT_EQ(o + 20 + LoadLE32(&file[o + 12]), file.size());
}

TEST(XtrExport, RejectsRecordsXeniaCannotHold) {
  std::vector<uint8_t> out;
  XtrExporter e(out, 0);
  EXPECT_THROW(e.Add(format::EdramSnapshot{std::vector<uint8_t>(100)}), Error);
  format::GammaRamp g;
  g.table.resize(3);
  EXPECT_THROW(e.Add(g), Error);
}

}  // namespace
}  // namespace xnt::capture
