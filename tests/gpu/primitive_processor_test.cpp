// Primitive processor: every guest primitive type's conversion to a host list, index widths,
// swap modes, primitive reset and auto-indexing, checked index by index.
#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "xnt/base/error.h"
#include "xnt/gpu/primitive_processor.h"

namespace xnt::vk {
namespace {

using xenos::Endian;
using xenos::IndexFormat;
using xenos::PrimitiveType;
using V = std::vector<uint32_t>;

gpu::HostPrimitives Auto(PrimitiveType type, uint32_t count) {
  gpu::PrimitiveDraw d;
  d.type = type;
  d.vertex_count = count;
  return gpu::ProcessPrimitives(d);
}

// Big-endian 16-bit indices as the guest CPU writes them (the draw then uses swap 8in16).
std::vector<uint8_t> Be16(const V& v) {
  std::vector<uint8_t> b;
  for (uint32_t x : v) b.insert(b.end(), {uint8_t(x >> 8), uint8_t(x)});
  return b;
}
std::vector<uint8_t> Be32(const V& v) {
  std::vector<uint8_t> b;
  for (uint32_t x : v) b.insert(b.end(), {uint8_t(x >> 24), uint8_t(x >> 16), uint8_t(x >> 8), uint8_t(x)});
  return b;
}

// An indexed draw reading `bytes`, which must outlive it.
gpu::PrimitiveDraw Indexed(PrimitiveType type, uint32_t count, std::span<const uint8_t> bytes,
                           IndexFormat format = IndexFormat::kInt16,
                           Endian endian = Endian::kNone) {
  return {.type = type,
          .vertex_count = count,
          .indexed = true,
          .index_bytes = bytes,
          .index_format = format,
          .index_endian = endian};
}

TEST(PrimitiveProcessor, PointAndLineLists) {
  auto p = Auto(PrimitiveType::kPointList, 3);
  EXPECT_EQ(p.topology, gpu::HostTopology::kPointList);
  EXPECT_EQ(p.indices, (V{0, 1, 2}));
  auto l = Auto(PrimitiveType::kLineList, 5);  // the odd vertex is dropped
  EXPECT_EQ(l.topology, gpu::HostTopology::kLineList);
  EXPECT_EQ(l.indices, (V{0, 1, 2, 3}));
  EXPECT_EQ(l.guest_primitive_count, 2u);
}

TEST(PrimitiveProcessor, LineStripAndLoop) {
  EXPECT_EQ(Auto(PrimitiveType::kLineStrip, 4).indices, (V{0, 1, 1, 2, 2, 3}));
  auto loop = Auto(PrimitiveType::kLineLoop, 4);
  EXPECT_EQ(loop.topology, gpu::HostTopology::kLineList);
  EXPECT_EQ(loop.indices, (V{0, 1, 1, 2, 2, 3, 3, 0}));
  EXPECT_EQ(loop.guest_primitive_count, 4u);
}

TEST(PrimitiveProcessor, TriangleListStripFan) {
  EXPECT_EQ(Auto(PrimitiveType::kTriangleList, 7).indices, (V{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(Auto(PrimitiveType::kTriangleStrip, 5).indices, (V{0, 1, 2, 1, 3, 2, 2, 3, 4}));
  auto fan = Auto(PrimitiveType::kTriangleFan, 5);
  EXPECT_EQ(fan.topology, gpu::HostTopology::kTriangleList);
  EXPECT_EQ(fan.indices, (V{1, 2, 0, 2, 3, 0, 3, 4, 0}));
  EXPECT_EQ(fan.guest_primitive_count, 3u);
}

TEST(PrimitiveProcessor, QuadsAndRectangles) {
  EXPECT_EQ(Auto(PrimitiveType::kQuadList, 8).indices,
            (V{0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7}));
  EXPECT_EQ(Auto(PrimitiveType::kQuadStrip, 6).indices,
            (V{0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4}));
  auto rect = Auto(PrimitiveType::kRectangleList, 6);
  EXPECT_EQ(rect.topology, gpu::HostTopology::kRectangleList);
  EXPECT_EQ(rect.indices, (V{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(rect.guest_primitive_count, 2u);
}

TEST(PrimitiveProcessor, Index16With8in16Swap) {
  auto bytes = Be16({7, 0x1234, 3});
  gpu::PrimitiveDraw d =
      Indexed(PrimitiveType::kTriangleList, 3, bytes, IndexFormat::kInt16, Endian::k8in16);
  EXPECT_EQ(gpu::ProcessPrimitives(d).indices, (V{7, 0x1234, 3}));
  // Without the swap the same bytes read as little-endian halfwords.
  d.index_endian = Endian::kNone;
  EXPECT_EQ(gpu::ProcessPrimitives(d).indices, (V{0x0700, 0x3412, 0x0300}));
}

TEST(PrimitiveProcessor, Index16With8in32SwapExchangesHalves) {
  // Big-endian dword 0x00050009 holds indices (5, 9) for a 8in32 read: low half first.
  std::vector<uint8_t> bytes = {0x00, 0x05, 0x00, 0x09};
  EXPECT_EQ(gpu::ReadGuestIndex(bytes, IndexFormat::kInt16, Endian::k8in32, 0), 9u);
  EXPECT_EQ(gpu::ReadGuestIndex(bytes, IndexFormat::kInt16, Endian::k8in32, 1), 5u);
}

TEST(PrimitiveProcessor, Index32With8in32SwapAnd24BitMask) {
  auto bytes = Be32({0x00ABCDEF, 0xFF000001, 2});
  gpu::PrimitiveDraw d =
      Indexed(PrimitiveType::kTriangleList, 3, bytes, IndexFormat::kInt32, Endian::k8in32);
  EXPECT_EQ(gpu::ProcessPrimitives(d).indices, (V{0x00ABCDEF, 1, 2}));
  EXPECT_EQ(gpu::ReadGuestIndex(bytes, IndexFormat::kInt32, Endian::k16in32, 2), 0x00000200u);
}

TEST(PrimitiveProcessor, PrimitiveResetSplitsStripsAndFans) {
  auto bytes = Be16({0, 1, 2, 3, 0xFFFF, 4, 5, 6});
  gpu::PrimitiveDraw d =
      Indexed(PrimitiveType::kTriangleStrip, 8, bytes, IndexFormat::kInt16, Endian::k8in16);
  d.reset_enable = true;
  d.reset_index = 0xFFFF;
  EXPECT_EQ(gpu::ProcessPrimitives(d).indices, (V{0, 1, 2, 1, 3, 2, 4, 5, 6}));
  d.reset_enable = false;  // without the enable 0xFFFF is an ordinary vertex
  EXPECT_EQ(gpu::ProcessPrimitives(d).indices.size(), 6u * 3u);

  auto fan = Be16({9, 1, 2, 3, 0xBEEF, 8, 4, 5});
  d.type = PrimitiveType::kTriangleFan;
  d.index_bytes = fan;
  d.reset_enable = true;
  d.reset_index = 0xBEEF;
  EXPECT_EQ(gpu::ProcessPrimitives(d).indices, (V{1, 2, 9, 2, 3, 9, 4, 5, 8}));
}

TEST(PrimitiveProcessor, ResetDropsPartialListPrimitive) {
  auto bytes = Be32({0, 1, 0xFFFFFFFF, 2, 3, 4});
  gpu::PrimitiveDraw d =
      Indexed(PrimitiveType::kTriangleList, 6, bytes, IndexFormat::kInt32, Endian::k8in32);
  d.reset_enable = true;
  d.reset_index = 0xFFFFFFFF;
  EXPECT_EQ(gpu::ProcessPrimitives(d).indices, (V{2, 3, 4}));
}

TEST(PrimitiveProcessor, RejectsShortBuffersAndUnsupportedTypes) {
  auto bytes = Be16({0, 1});
  gpu::PrimitiveDraw d = Indexed(PrimitiveType::kTriangleList, 3, bytes);
  EXPECT_THROW(gpu::ProcessPrimitives(d), Error);
  gpu::PrimitiveDraw p;
  p.type = PrimitiveType::kPolygon;
  p.vertex_count = 3;
  EXPECT_THROW(gpu::ProcessPrimitives(p), Error);
  gpu::PrimitiveDraw huge;
  huge.vertex_count = 0x2000000;
  EXPECT_THROW(gpu::ProcessPrimitives(huge), Error);
  EXPECT_TRUE(Auto(PrimitiveType::kTriangleList, 0).indices.empty());
}

}  // namespace
}  // namespace xnt::vk
