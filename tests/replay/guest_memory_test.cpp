#include <gtest/gtest.h>

#include <vector>

#include "xnt/base/error.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/replay/register_names.h"

namespace xnt::replay {
namespace {

TEST(GuestMemory, SparsePagesReadZeroAndTrackGenerations) {
  GuestMemory m;
  EXPECT_EQ(m.recorded_page_count(), 0u);
  EXPECT_FALSE(m.IsRecorded(0x1000, 4));
  EXPECT_EQ(m.LoadBE32(0x1000), 0u);
  // A write straddling a page boundary creates two pages.
  const uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  m.Write(0x1FFC, bytes);
  EXPECT_EQ(m.recorded_page_count(), 2u);
  EXPECT_TRUE(m.IsRecorded(0x1FFC, 8));
  EXPECT_FALSE(m.IsRecorded(0x1FFC, 0x1008));
  EXPECT_EQ(m.LoadBE32(0x1FFC), 0x01020304u);
  EXPECT_EQ(m.LoadBE32(0x2000), 0x05060708u);
  EXPECT_EQ(m.LoadLE32(0x2000), 0x08070605u);
  uint64_t g1 = m.PageGeneration(1), g2 = m.PageGeneration(2);
  EXPECT_GT(g1, 0u);
  EXPECT_GT(g2, 0u);
  m.StoreBE32(0x2004, 0xAABBCCDD);
  EXPECT_EQ(m.PageGeneration(1), g1);
  EXPECT_GT(m.PageGeneration(2), g2);
  uint32_t arr[2];
  m.LoadBE32Array(0x2000, arr);
  EXPECT_EQ(arr[0], 0x05060708u);
  EXPECT_EQ(arr[1], 0xAABBCCDDu);
  m.Clear();
  EXPECT_EQ(m.recorded_page_count(), 0u);
  EXPECT_EQ(m.LoadBE32(0x2004), 0u);
}

// A write that covers a whole fresh page allocates it without zero-filling; the pages it only
// partly covers must still read zero outside the written bytes. The heap is first filled with
// freed non-zero pages of another memory, so an uncleared page would show them.
TEST(GuestMemory, PartlyWrittenFreshPagesReadZeroAroundTheBytes) {
  {
    GuestMemory dirty;
    dirty.Write(0x100000, std::vector<uint8_t>(64 * GuestMemory::kPageSize, 0xEE));
  }
  GuestMemory m;
  std::vector<uint8_t> bytes(GuestMemory::kPageSize + 20);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 13 + 7);
  m.Write(0x3000 - 10, bytes);  // 10 bytes of page 2, all of page 3, 10 bytes of page 4
  EXPECT_EQ(m.recorded_page_count(), 3u);
  std::vector<uint8_t> out(3 * GuestMemory::kPageSize);
  m.Read(0x2000, out);
  for (size_t i = 0; i < out.size(); ++i) {
    const size_t at = 0x2000 + i;
    const bool written = at >= 0x3000 - 10 && at < 0x3000 - 10 + bytes.size();
    ASSERT_EQ(out[i], written ? bytes[at - (0x3000 - 10)] : 0) << "byte 0x" << std::hex << at;
  }
}

TEST(GuestMemory, AccessesOutsideThePhysicalRangeThrow) {
  GuestMemory m;
  const uint8_t b[8] = {};
  EXPECT_NO_THROW(m.Write(0x1FFFFFF8, b));
  EXPECT_THROW(m.Write(0x1FFFFFFC, b), Error);
  EXPECT_THROW(m.LoadBE32(0x20000000), Error);
  try {
    m.LoadBE32(0x3FFFFFFE);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("0x3FFFFFFE"), std::string::npos);
  }
  EXPECT_FALSE(GuestMemory::InRange(0xFFFFFFFF, 2));
  EXPECT_TRUE(GuestMemory::InRange(0x20000000, 0));
}

TEST(RegisterNames, NamedAndGenerated) {
  EXPECT_EQ(RegisterName(0x2000), "RB_SURFACE_INFO");
  EXPECT_EQ(RegisterName(0x21FB), "VGT_DMA_SIZE");
  EXPECT_EQ(RegisterName(0x4031), "SHADER_CONSTANT_012_Y");
  EXPECT_EQ(RegisterName(0x47FF), "SHADER_CONSTANT_511_W");
  EXPECT_EQ(RegisterName(0x4800 + 6 * 5 + 3), "SHADER_CONSTANT_FETCH_05_3");
  EXPECT_EQ(RegisterName(0x4901), "SHADER_CONSTANT_BOOL_032_063");
  EXPECT_EQ(RegisterName(0x490F), "SHADER_CONSTANT_LOOP_07");
  EXPECT_EQ(RegisterName(0x5002), "SHADER_CONSTANT_FLUSH_FETCH_2");
  EXPECT_EQ(RegisterName(0x0001), "UNKNOWN_0001");
  EXPECT_EQ(RegisterName(0x5003), "OUT_OF_RANGE");
  EXPECT_EQ(FindRegister("RB_COPY_DEST_INFO"), 0x231Bu);
  EXPECT_EQ(FindRegister("SHADER_CONSTANT_000_X"), 0x4000u);
  EXPECT_FALSE(FindRegister("NOT_A_REGISTER").has_value());
  EXPECT_TRUE(IsNamedRegister(0x2208));
  EXPECT_FALSE(IsNamedRegister(0x4000));
  EXPECT_TRUE(IsFloatRegister(0x210F));
  EXPECT_TRUE(IsFloatRegister(0x4000));
  EXPECT_FALSE(IsFloatRegister(0x2000));
  // Every index has a distinct name.
  for (uint32_t i = 0; i < xenos::kRegisterCount; ++i) {
    ASSERT_EQ(FindRegister(RegisterName(i)), i) << i;
  }
}

TEST(RegisterNames, DecodedFields) {
  DecodedRegister d;
  ASSERT_TRUE(DecodeRegisterFields(0x2001, 0x00070010u, d));
  ASSERT_EQ(d.count, 3u);
  EXPECT_EQ(d.fields[0].name, "color_base");
  EXPECT_EQ(d.fields[0].value, 0x10);
  EXPECT_EQ(d.fields[1].name, "color_format");
  EXPECT_EQ(d.fields[1].text, "k_16_16_16_16_FLOAT");
  ASSERT_TRUE(DecodeRegisterFields(0x2000, 1280u | (1u << 16), d));
  EXPECT_EQ(d.fields[1].text, "2X");
  ASSERT_TRUE(DecodeRegisterFields(0x4908, 0x00FF0810u, d));
  EXPECT_EQ(d.fields[2].name, "step");
  EXPECT_EQ(d.fields[2].value, -1);
  EXPECT_FALSE(DecodeRegisterFields(0x4000, 0, d));
}

TEST(RegisterFile, AccessorsAndBounds) {
  RegisterFile r;
  EXPECT_FALSE(r.Set(0x5003, 1));
  EXPECT_EQ(r[0x5003], 0u);
  r.Set(xenos::Reg::RB_COLOR2_INFO, 0x00050020);
  EXPECT_EQ(r.ColorInfo(2).color_base, 0x20u);
  EXPECT_EQ(r.ColorInfo(2).color_format, xenos::ColorRenderTargetFormat::k_16_16_16_16);
  r.Set(0x4800 + 2, 3u | (0x1000u << 2));  // vertex fetch 1
  r.Set(0x4800 + 3, 2u | (9u << 2));
  EXPECT_EQ(r.VertexFetch(1).address_bytes(), 0x4000u);
  EXPECT_EQ(r.VertexFetch(1).size_dwords, 9u);
}

}  // namespace
}  // namespace xnt::replay
