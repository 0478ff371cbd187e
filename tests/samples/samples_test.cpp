// The bundled samples: registry, byte-for-byte determinism, the PM4 structure of each trace, the
// expected images, and .xnt -> .xtr -> .xnt keeping every record.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "record_compare.h"
#include "xnt/capture/xtr_export.h"
#include "xnt/capture/xtr_import.h"
#include "xnt/format/reader.h"
#include "xnt/samples/samples.h"
#include "xnt/ucode/disasm.h"
#include "xnt/xenos/pm4.h"
#include "xnt/xenos/registers.h"

namespace xnt::samples {
namespace {

namespace fs = std::filesystem;

fs::path Temp(const std::string& name) {
  return fs::temp_directory_path() /
         ("xnt_samples_" + std::to_string(::getpid()) + "_" + name);
}

std::vector<uint8_t> ReadBytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

std::vector<format::Record> ReadRecords(const fs::path& p) {
  auto reader = format::Reader::Open(p.string());
  std::vector<format::Record> out;
  reader->ForEachRecord([&](const format::Record& r) {
    out.push_back(r);
    return true;
  });
  return out;
}

uint32_t PacketDwords(uint32_t h) {
  if (h == 0) return 1;
  switch (xenos::GetPacketType(h)) {
    case xenos::PacketType::kType0: return 1 + xenos::DecodeType0(h).count;
    case xenos::PacketType::kType1: return 3;
    case xenos::PacketType::kType2: return 1;
    case xenos::PacketType::kType3: return 1 + xenos::DecodeType3(h).count;
  }
  return 1;
}

TEST(Samples, RegistryNamesTheReadmeSample) {
  ASSERT_NE(Find("clear_draws_resolve_swap"), nullptr);
  EXPECT_EQ(Find("no_such_sample"), nullptr);
  EXPECT_GE(Registry().size(), 4u);
  for (const auto& s : Registry()) {
    EXPECT_FALSE(s.description.empty()) << s.name;
    EXPECT_FALSE(s.expected_frame.empty()) << s.name;
    EXPECT_TRUE(s.author) << s.name;
  }
}

TEST(Samples, WritingIsDeterministic) {
  for (const auto& s : Registry()) {
    const fs::path a = Temp(s.name + "_a.xnt"), b = Temp(s.name + "_b.xnt");
    WriteSample(s, a.string());
    WriteSample(s, b.string());
    const auto ba = ReadBytes(a);
    EXPECT_FALSE(ba.empty());
    EXPECT_EQ(ba, ReadBytes(b)) << s.name;
    auto reader = format::Reader::Open(a.string());
    EXPECT_EQ(reader->info().creation_time_unix, kSampleCreationTime);
    EXPECT_TRUE(reader->Validate().empty()) << s.name;
    fs::remove(a);
    fs::remove(b);
  }
}

// Walks the one submission of a sample and counts what it holds.
struct Census {
  std::map<std::string, int> opcodes;
  int resolves = 0;  // RB_MODECONTROL = copy
  std::vector<std::vector<uint32_t>> microcode;
};

Census Walk(const format::Submission& s) {
  Census c;
  size_t i = 0;
  while (i < s.dwords.size()) {
    const uint32_t h = s.dwords[i];
    const uint32_t n = PacketDwords(h);
    EXPECT_LE(i + n, s.dwords.size()) << "packet at dword " << i << " runs past the submission";
    if (i + n > s.dwords.size()) break;
    if (xenos::GetPacketType(h) == xenos::PacketType::kType3) {
      const auto t3 = xenos::DecodeType3(h);
      c.opcodes[std::string(xenos::OpcodeName(t3.opcode))]++;
      if (t3.opcode == uint32_t(xenos::Opcode::kImLoadImmediate)) {
        c.microcode.emplace_back(s.dwords.begin() + long(i) + 3, s.dwords.begin() + long(i + n));
      }
    } else if (xenos::GetPacketType(h) == xenos::PacketType::kType0) {
      const auto t0 = xenos::DecodeType0(h);
      if (t0.base_index == xenos::RegIndex(xenos::Reg::RB_MODECONTROL) &&
          s.dwords[i + 1] == uint32_t(xenos::ModeControl::kCopy)) {
        ++c.resolves;
      }
    }
    i += n;
  }
  EXPECT_EQ(i, s.dwords.size());
  return c;
}

TEST(Samples, EachTraceHasTheExpectedStructure) {
  const std::map<std::string, int> draws = {{"clear_draws_resolve_swap", 3},
                                            {"indexed_quad_list", 2},
                                            {"triangle_fan", 1},
                                            {"indexed_triangle_strip", 2}};
  for (const auto& s : Registry()) {
    // The flat-colour scenes; other samples (shader scenes, corpus, EDRAM) have their own tests.
    if (!draws.count(s.name)) continue;
    SCOPED_TRACE(s.name);
    const fs::path p = Temp(s.name + ".xnt");
    WriteSample(s, p.string());
    const auto rec = ReadRecords(p);
    fs::remove(p);
    ASSERT_GE(rec.size(), 3u);
    // Memory first, then the submission, then the frame marker.
    const auto& frame = std::get<format::FrameMarker>(rec.back());
    EXPECT_EQ(frame.front_buffer_address, 0x00200000u);
    EXPECT_EQ(frame.width, 320u);
    EXPECT_EQ(frame.height, 240u);
    EXPECT_EQ(frame.format, uint32_t(xenos::TextureFormat::k_8_8_8_8));
    const auto& sub = std::get<format::Submission>(rec[rec.size() - 2]);
    for (size_t i = 0; i + 2 < rec.size(); ++i) {
      EXPECT_EQ(std::get<format::MemoryEvent>(rec[i]).kind, format::MemoryEventKind::kGpuRead);
    }
    const Census c = Walk(sub);
    // Scene draws are DRAW_INDX_2 (auto) or DRAW_INDX (DMA indices); the two resolves (the clear
    // and the copy to the front buffer) are DRAW_INDX too.
    auto count = [&](const char* op) { return c.opcodes.count(op) ? c.opcodes.at(op) : 0; };
    EXPECT_EQ(count("DRAW_INDX_2") + count("DRAW_INDX") - 2, draws.at(s.name));
    EXPECT_EQ(c.resolves, 2);
    EXPECT_EQ(c.opcodes.at("XE_SWAP"), 1);
    EXPECT_EQ(c.opcodes.at("IM_LOAD_IMMEDIATE"), 2);
    // The shaders disassemble back to what the sample wrote.
    ASSERT_EQ(c.microcode.size(), 2u);
    const std::string vs =
        ucode::Disassemble(ucode::Decode(c.microcode[0], ucode::ShaderType::kVertex));
    const std::string ps =
        ucode::Disassemble(ucode::Decode(c.microcode[1], ucode::ShaderType::kPixel));
    EXPECT_NE(vs.find("mov oPos.xy01, r1.xy"), std::string::npos) << vs;
    EXPECT_NE(vs.find("FMT_32_32_FLOAT"), std::string::npos) << vs;
    EXPECT_NE(ps.find("mov oC0, c0"), std::string::npos) << ps;
  }
}

TEST(Samples, ExpectedImageOfTheReadmeSample) {
  const Sample* s = Find("clear_draws_resolve_swap");
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->expected_image);
  const Image img = s->expected_image();
  ASSERT_EQ(img.width, 320u);
  ASSERT_EQ(img.height, 240u);
  std::map<uint32_t, int> counts;
  auto px = [&](uint32_t x, uint32_t y) {
    const uint8_t* p = &img.rgba[(size_t(y) * 320 + x) * 4];
    return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
  };
  for (uint32_t y = 0; y < 240; ++y) {
    for (uint32_t x = 0; x < 320; ++x) counts[px(x, y)]++;
  }
  // Rectangle 120 x 60; each right triangle covers rows with 1..80 pixels: 80 * 81 / 2.
  EXPECT_EQ(counts[0x00C850FFu], 7200);
  EXPECT_EQ(counts[0xFF8000FFu], 3240);
  EXPECT_EQ(counts[0xC828A0FFu], 3240);
  EXPECT_EQ(counts[0x181828FFu], 320 * 240 - 7200 - 3240 - 3240);
  EXPECT_EQ(px(161, 41), 0x00C850FFu);
  EXPECT_EQ(px(160, 41), 0x181828FFu);
  EXPECT_EQ(px(280, 100), 0x00C850FFu);
  EXPECT_EQ(px(281, 100), 0x181828FFu);
  EXPECT_EQ(px(41, 110), 0xFF8000FFu);   // right-angle corner
  EXPECT_EQ(px(41, 111), 0x181828FFu);
  EXPECT_EQ(px(51, 41), 0xFF8000FFu);    // on the diagonal side: x - y = 10
  EXPECT_EQ(px(52, 41), 0x181828FFu);    // x - y = 11: outside
}

TEST(Samples, EveryExpectedImageIsConventionIndependent) {
  for (const auto& s : Registry()) {
    if (!s.expected_image) continue;
    EXPECT_NO_THROW(s.expected_image()) << s.name;
  }
}

TEST(Samples, XtrRoundTripKeepsEveryRecord) {
  for (const auto& s : Registry()) {
    SCOPED_TRACE(s.name);
    const fs::path a = Temp(s.name + "_rt.xnt"), b = Temp(s.name + "_rt2.xnt");
    WriteSample(s, a.string());
    const auto original = ReadRecords(a);
    std::vector<uint8_t> xtr;
    capture::XtrExporter ex(xtr, 0);
    for (const auto& r : original) ex.Add(r);
    {
      auto w = format::Writer::Create(b.string(), SampleTraceInfo());
      capture::ImportXtr(xtr, [&](format::Record&& r) { w->Write(r); });
      w->Finish();
    }
    EXPECT_EQ(test::DescribeAll(ReadRecords(b)), test::DescribeAll(original));
    auto ra = format::Reader::Open(a.string()), rb = format::Reader::Open(b.string());
    EXPECT_EQ(ra->totals().pages_distinct, rb->totals().pages_distinct);
    EXPECT_EQ(ra->totals().pm4_dwords, rb->totals().pm4_dwords);
    fs::remove(a);
    fs::remove(b);
  }
}

}  // namespace
}  // namespace xnt::samples
