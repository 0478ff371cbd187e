// gpu/vertex_index.h through the primitive processor: VGT_INDX_OFFSET, the 24-bit wrap and the
// VGT_MIN/MAX_VTX_INDX clamp, against worked values and a formula written here in 64-bit signed
// arithmetic (the rule itself works in unsigned 32-bit).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "hand_registers.h"
#include "xnt/gpu/primitive_processor.h"
#include "xnt/gpu/vertex_index.h"

namespace xnt::gpu {
namespace {

using xenos::Endian;
using xenos::IndexFormat;
using xenos::PrimitiveType;
using xenos::Reg;
using V = std::vector<uint32_t>;

std::vector<uint8_t> Be16(const V& v) {
  std::vector<uint8_t> b;
  for (uint32_t x : v) b.insert(b.end(), {uint8_t(x >> 8), uint8_t(x)});
  return b;
}

// (index + offset) mod 2^24 with the offset read as signed, then clamped.
uint32_t Formula(uint32_t index, int32_t offset, uint32_t lo, uint32_t hi) {
  int64_t sum = (int64_t(index) + int64_t(offset)) % (int64_t(1) << 24);
  if (sum < 0) sum += int64_t(1) << 24;
  int64_t v = std::max<int64_t>(sum, lo);
  return uint32_t(std::min<int64_t>(v, hi));
}

TEST(VertexIndex, WorkedValues) {
  VertexIndexRule r{.offset = 10, .min_index = 12, .max_index = 14};
  EXPECT_EQ(r.Apply(0), 12u);   // 10 -> raised to the minimum
  EXPECT_EQ(r.Apply(3), 13u);   // 13 inside
  EXPECT_EQ(r.Apply(9), 14u);   // 19 -> lowered to the maximum
  VertexIndexRule back{.offset = uint32_t(-5)};
  EXPECT_EQ(back.Apply(7), 2u);
  EXPECT_EQ(back.Apply(2), 0xFFFFFDu);  // wraps within 24 bits, then the whole range keeps it
  VertexIndexRule swapped{.min_index = 9, .max_index = 4};  // min > max: the maximum wins
  EXPECT_EQ(swapped.Apply(6), 4u);
}

TEST(VertexIndex, RegistersAndTheUnprogrammedPair) {
  test::HandRegisters regs;
  regs.Set(Reg::VGT_INDX_OFFSET, 3);
  VertexIndexRule r = ReadVertexIndexRule(regs.span());  // 0 / 0: never programmed
  EXPECT_EQ(r.min_index, 0u);
  EXPECT_EQ(r.max_index, 0xFFFFFFu);
  EXPECT_EQ(r.Apply(5), 8u);
  regs.Set(Reg::VGT_MIN_VTX_INDX, 0xAB000002u);  // the fields are 24 bits
  regs.Set(Reg::VGT_MAX_VTX_INDX, 0xCD000006u);
  r = ReadVertexIndexRule(regs.span());
  EXPECT_EQ(r.min_index, 2u);
  EXPECT_EQ(r.max_index, 6u);
  EXPECT_EQ(r.Apply(5), 6u);
}

TEST(VertexIndex, ResetComparesTheIndexAsRead) {
  // With offset 1, index 0xFFFE becomes 0xFFFF: still a vertex, and the real reset 0xFFFF (as
  // read) still splits the strip.
  auto bytes = Be16({0, 1, 2, 0xFFFF, 3, 0xFFFE, 5});
  PrimitiveDraw d;
  d.type = PrimitiveType::kTriangleStrip;
  d.vertex_count = 7;
  d.indexed = true;
  d.index_bytes = bytes;
  d.index_endian = Endian::k8in16;
  d.reset_enable = true;
  d.reset_index = 0xFFFF;
  d.vertex_index = {.offset = 1};
  EXPECT_EQ(ProcessPrimitives(d).indices, (V{1, 2, 3, 4, 0xFFFF, 6}));
  V in_order;
  ASSERT_TRUE(ReadVertexIndices(d, in_order));
  EXPECT_EQ(in_order, (V{1, 2, 3, 4, 0xFFFF, 6}));
}

TEST(VertexIndex, AutoIndexedDrawsAreOffsetAndClamped) {
  PrimitiveDraw d;
  d.type = PrimitiveType::kTriangleList;
  d.vertex_count = 6;
  d.vertex_index = {.offset = 4, .min_index = 0, .max_index = 7};
  EXPECT_EQ(ProcessPrimitives(d).indices, (V{4, 5, 6, 7, 7, 7}));
}

TEST(VertexIndex, RandomRulesMatchTheFormula) {
  std::mt19937 rng(20261129);
  for (int round = 0; round < 200; ++round) {
    const int32_t offset = int32_t(rng() % 2000) - 1000 + ((rng() & 1) ? 0 : 0xFFFF00);
    uint32_t lo = rng() % 64, hi = rng() % 2 ? 0xFFFFFFu : lo + rng() % 64;
    std::vector<uint32_t> raw(3 * (1 + rng() % 8));
    for (uint32_t& x : raw) x = rng() % 3 ? rng() % 128 : rng() & 0xFFFF;
    std::vector<uint8_t> bytes;
    for (uint32_t x : raw) bytes.insert(bytes.end(), {uint8_t(x >> 8), uint8_t(x)});
    PrimitiveDraw d;
    d.type = PrimitiveType::kTriangleList;
    d.vertex_count = uint32_t(raw.size());
    d.indexed = true;
    d.index_bytes = bytes;
    d.index_endian = Endian::k8in16;
    d.index_format = IndexFormat::kInt16;
    d.vertex_index = {.offset = uint32_t(offset), .min_index = lo, .max_index = hi};
    const HostPrimitives out = ProcessPrimitives(d);
    ASSERT_EQ(out.indices.size(), raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
      ASSERT_EQ(out.indices[i], Formula(raw[i], offset, lo, hi))
          << "index " << raw[i] << " offset " << offset << " range " << lo << ".." << hi;
    }
  }
}

}  // namespace
}  // namespace xnt::gpu
