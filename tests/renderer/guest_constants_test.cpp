// Guest constants into the ring (guest_constants.h): only the rows the shaders read are written,
// a part whose rows did not change in the submission is bound again, the rows land where the
// part's ring offset puts them, and every bound range stays inside the ring; the rows a
// shader reads (ConstantReadsOf) from its microcode analysis.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "xnt/vk/guest_constants.h"
#include "xnt/vk/translator/shader_translator.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

// A linear ring as CommandStream's: allocations at `alignment`; when one does not fit, the ring
// is "flushed" (a new submission starts at 0), as PathRenderer::RingAllocate does.
struct FakeRing {
  std::vector<uint8_t> bytes;
  uint64_t used = 0;
  uint64_t submission = 0;
  explicit FakeRing(uint64_t size) : bytes(size, 0xCD) {}
  CommandStream::Allocation Allocate(uint64_t size, uint64_t alignment) {
    uint64_t at = (used + alignment - 1) / alignment * alignment;
    if (at + size > bytes.size()) {
      ++submission;
      at = 0;
    }
    used = at + size;
    return {VK_NULL_HANDLE, at, bytes.data() + at};
  }
  GuestConstantUploads::Allocate allocator() {
    return [this](uint64_t size, uint64_t alignment) { return Allocate(size, alignment); };
  }
};

std::vector<uint32_t> Registers() {
  std::vector<uint32_t> regs(xenos::kRegisterCount);
  for (uint32_t i = 0; i < regs.size(); ++i) regs[i] = i * 0x10001u;
  return regs;
}

XeConstantReads Reads(uint32_t part, uint32_t first, uint32_t end) {
  XeConstantReads r = XeConstantReads::None();
  r.first[part] = uint16_t(first);
  r.end[part] = uint16_t(end);
  return r;
}

// The dword a shader reads at byte `at` of a part bound at `offset`.
uint32_t RingDword(const FakeRing& ring, uint32_t offset, uint32_t at) {
  uint32_t v;
  std::memcpy(&v, ring.bytes.data() + offset + at, 4);
  return v;
}

TEST(GuestConstantUploads, WritesOnlyTheRowsReadAndReusesThemUntilTheyChange) {
  FakeRing ring(1 << 20);
  ring.Allocate(8192, 16);  // other draws' data ahead of the constants
  GuestConstantUploads uploads(64);
  std::vector<uint32_t> regs = Registers();
  const XeConstantReads reads = Reads(kXePixelFloatConstants, 0, 1);  // the pixel shader's c0

  auto offsets = uploads.Place(regs, reads, ring.submission, ring.allocator());
  const uint32_t first = offsets.offsets[kXePixelFloatConstants];
  EXPECT_EQ(first % 64, 0u);
  EXPECT_EQ(offsets.ranges[kXePixelFloatConstants], 0u);  // a 16-byte range
  // c0 of the pixel shader is float constant 256: registers 0x4400..0x4403.
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(RingDword(ring, first, i * 4), regs[0x4400 + i]);
  EXPECT_EQ(uploads.bytes_written(), 16u);
  EXPECT_EQ(ring.used, 8192u + 16u);  // 16 bytes of ring, not the part's 4096

  // A constant the shader does not read changes: the copy is bound again.
  regs[0x4404] ^= 1;
  offsets = uploads.Place(regs, reads, ring.submission, ring.allocator());
  EXPECT_EQ(offsets.offsets[kXePixelFloatConstants], first);
  EXPECT_EQ(uploads.parts_reused(), 1u);
  EXPECT_EQ(uploads.bytes_written(), 16u);

  // The one it reads changes: a new copy, the old one left as it was for the earlier draw.
  regs[0x4402] = 0x3F800000u;
  offsets = uploads.Place(regs, reads, ring.submission, ring.allocator());
  const uint32_t second = offsets.offsets[kXePixelFloatConstants];
  EXPECT_NE(second, first);
  EXPECT_EQ(RingDword(ring, second, 8), 0x3F800000u);
  EXPECT_EQ(RingDword(ring, first, 8), 0x4402u * 0x10001u);
  EXPECT_EQ(uploads.bytes_written(), 32u);

  // Another submission: the ring was recycled, so the rows are written again.
  offsets = uploads.Place(regs, reads, ring.submission + 1, ring.allocator());
  EXPECT_EQ(uploads.bytes_written(), 48u);
}

TEST(GuestConstantUploads, RowsLandAtTheirPlaceBehindAnAlignedOffset) {
  FakeRing ring(1 << 20);
  GuestConstantUploads uploads(64);
  const std::vector<uint32_t> regs = Registers();
  const XeConstantReads reads = Reads(kXeVertexFloatConstants, 5, 7);  // c5, c6
  // Rows [0, 7) fit a range of 8 rows (128 bytes). At the ring's start the offset would fall
  // before it: 64 bytes tried at 0, then the whole range's 128 at the next 64-byte boundary.
  auto offsets = uploads.Place(regs, reads, 0, ring.allocator());
  EXPECT_EQ(offsets.ranges[kXeVertexFloatConstants], 3u);
  EXPECT_EQ(GuestConstantUploads::RangeBytes(kXeVertexFloatConstants, 3), 128u);
  EXPECT_EQ(offsets.offsets[kXeVertexFloatConstants], 64u);
  EXPECT_EQ(ring.used, 64u + 128u);
  EXPECT_EQ(RingDword(ring, 64, 80), regs[0x4000 + 5 * 4]);
  // Later: 5 x 16 = 80 bytes ahead of the rows, the offset 64-aligned (80 % 64 = 16 skew), the
  // room from the rows to the range's end (16 + 128 - 80 = 64 bytes at 192).
  std::vector<uint32_t> changed = regs;
  changed[0x4000 + 5 * 4] = 7;
  offsets = uploads.Place(changed, reads, 0, ring.allocator());
  const uint32_t offset = offsets.offsets[kXeVertexFloatConstants];
  EXPECT_EQ(offset, 192u + 16u - 80u);
  EXPECT_EQ(offset % 64, 0u);
  EXPECT_EQ(ring.used, 192u + 64u);
  EXPECT_EQ(RingDword(ring, offset, 80), 7u);
  for (uint32_t i = 1; i < 8; ++i) {
    EXPECT_EQ(RingDword(ring, offset, 80 + i * 4), regs[0x4000 + 5 * 4 + i]);
  }
}

TEST(GuestConstantUploads, BoundRangesEndInsideTheDrawsOwnRoom) {
  // Whatever the rows, a part's bound range ends within what has been allocated when the draw
  // is placed: no range reaches ring space a later command may write.
  FakeRing ring(1 << 20);
  GuestConstantUploads uploads(64);
  std::vector<uint32_t> regs = Registers();
  const uint32_t rows[][2] = {{0, 1}, {3, 5}, {17, 18}, {0, 256}, {255, 256}, {100, 130}};
  for (uint32_t part : {kXeVertexFloatConstants, kXePixelFloatConstants}) {
    for (const auto& r : rows) {
      regs[0x4000 + (part == kXePixelFloatConstants ? 1024 : 0) + r[0] * 4] += 1;
      const auto placed = uploads.Place(regs, Reads(part, r[0], r[1]), 0, ring.allocator());
      const uint64_t range = GuestConstantUploads::RangeBytes(part, placed.ranges[part]);
      EXPECT_GE(range, uint64_t(r[1]) * 16);
      EXPECT_LE(placed.offsets[part] + range, ring.used) << part << " " << r[0] << "-" << r[1];
      EXPECT_EQ(placed.offsets[part] % 64, 0u);
    }
  }
  // The fetch / bool / loop part's largest range is its 58 rows, not 64.
  EXPECT_EQ(GuestConstantUploads::RangeBytes(kXeFetchBoolLoopConstants, 6), 58u * 16);
}

TEST(GuestConstantUploads, FetchBoolAndLoopRowsComeFromTheirRegisters) {
  const std::vector<uint32_t> regs = Registers();
  std::vector<uint32_t> rows(58 * 4);
  GuestConstantUploads::ReadRows(regs, kXeFetchBoolLoopConstants, 0, 58, rows.data());
  EXPECT_EQ(rows[0], regs[0x4800]);
  EXPECT_EQ(rows[47 * 4 + 3], regs[0x4800 + 191]);  // the last fetch dword
  EXPECT_EQ(rows[48 * 4], regs[0x4900]);            // bool constants b0-b31
  EXPECT_EQ(rows[49 * 4 + 3], regs[0x4907]);
  EXPECT_EQ(rows[50 * 4], regs[0x4908]);            // loop constant i0
  EXPECT_EQ(rows[57 * 4 + 3], regs[0x4908 + 31]);
  // A register file shorter than the constants reads zeros.
  const std::vector<uint32_t> short_regs(0x4802, 5);
  GuestConstantUploads::ReadRows(short_regs, kXeFetchBoolLoopConstants, 0, 1, rows.data());
  EXPECT_EQ(rows[1], 5u);
  EXPECT_EQ(rows[2], 0u);
}

TEST(ConstantReadsOf, RowsFromTheMicrocodesReads) {
  ucode::Shader shader;
  shader.type = ucode::ShaderType::kVertex;
  ucode::Analysis a;
  a.float_constants[0] = (1ull << 3) | (1ull << 10);  // c3, c10
  a.vertex_fetch_constants[0] = 1u << 1;              // slot 1: dwords 2, 3 (row 0)
  a.vertex_fetch_constants[2] = 1u << 31;             // slot 95: dwords 190, 191 (row 47)
  a.texture_fetch_constants = 1u << 2;                // tf2: dwords 12-17 (rows 3, 4)
  XeConstantReads r = ConstantReadsOf(shader, a);
  EXPECT_EQ(r.first[kXeVertexFloatConstants], 3u);
  EXPECT_EQ(r.end[kXeVertexFloatConstants], 11u);
  EXPECT_EQ(r.first[kXePixelFloatConstants], r.end[kXePixelFloatConstants]);
  EXPECT_EQ(r.first[kXeFetchBoolLoopConstants], 0u);
  EXPECT_EQ(r.end[kXeFetchBoolLoopConstants], 48u);

  // A pixel shader with a relative constant read and a loop: all 256, and the loop rows.
  shader.type = ucode::ShaderType::kPixel;
  ucode::Analysis p;
  p.uses_relative_constants = true;
  p.loop_constants = 1u << 4;
  r = ConstantReadsOf(shader, p);
  EXPECT_EQ(r.first[kXePixelFloatConstants], 0u);
  EXPECT_EQ(r.end[kXePixelFloatConstants], 256u);
  EXPECT_EQ(r.first[kXeVertexFloatConstants], r.end[kXeVertexFloatConstants]);
  EXPECT_EQ(r.first[kXeFetchBoolLoopConstants], 50u);
  EXPECT_EQ(r.end[kXeFetchBoolLoopConstants], 58u);

  // Both stages together: each part's rows as one range.
  r.Merge(ConstantReadsOf(ucode::Shader{.type = ucode::ShaderType::kVertex}, a));
  EXPECT_EQ(r.first[kXeFetchBoolLoopConstants], 0u);
  EXPECT_EQ(r.end[kXeFetchBoolLoopConstants], 58u);
  EXPECT_EQ(r.end[kXeVertexFloatConstants], 11u);
}

}  // namespace
}  // namespace xnt::vk
