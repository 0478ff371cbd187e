// gpu::RunVertexShaderExports: the vertex shader of a draw that rasterizes nothing runs once per
// index of the draw (reset indices skipped, VGT_INDX_OFFSET added) and its exports land in guest
// memory; exports past the end of guest memory are dropped, never written. Expected bytes worked
// by hand from the packing rules (ucode/memexport.h).
#include <gtest/gtest.h>

#include <bit>
#include <memory>

#include "xnt/gpu/vertex_exports.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {
namespace {

// Exports r0.x (the vertex index) to element r0.x of stream c0 (eA = r0.x * (0, 1, 0, 0) + c0).
const char* const kExportIndexVs = R"(xvs_3_0
    alloc export
    exec
    mad eA, r0.xxxx, c1, c0
    mov eM0, r0.xxxx
    alloc position
    exece
    mov oPos, c1
)";

float F(uint32_t bits) { return std::bit_cast<float>(bits); }

class VertexExportsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    memory_ = std::make_unique<replay::GuestMemory>();
    vs_.type = xenos::ShaderType::kVertex;
    vs_.dwords = ucode::AssembleShader(kExportIndexVs).microcode;
    vs_.uses_memexport = true;
    draw_.registers = &regs_;
    draw_.memory = memory_.get();
    draw_.vertex_shader = &vs_;
    Constant(1, {0.0f, 1.0f, 0.0f, 0.0f});
  }
  void Constant(uint32_t c, std::array<float, 4> v) {
    for (uint32_t k = 0; k < 4; ++k) {
      regs_.Set(xenos::AluConstantIndex(c, k), std::bit_cast<uint32_t>(v[k]));
    }
  }
  // Stream constant: k_8_8_8_8 UINTEGER, no endian swap, `count` elements at `base`.
  void Stream(uint32_t base, uint32_t count) {
    Constant(0, {F(0x40000000u | (base >> 2)), F(0x4B000000u),
                 F(0x4B000000u | (6u << 8) | (2u << 16)), F(0x4B000000u | count)});
  }

  std::unique_ptr<replay::GuestMemory> memory_;
  replay::RegisterFile regs_;
  replay::Shader vs_;
  replay::DrawCall draw_;
};

TEST_F(VertexExportsTest, EveryIndexOfTheDrawRunsWithTheBaseIndexAndResetsSkipped) {
  const uint32_t base = 0x8000;
  for (uint32_t i = 0; i < 8; ++i) memory_->StoreLE32(base + 4 * i, 0xAAAAAAAAu);
  Stream(base, 8);
  regs_.Set(xenos::Reg::VGT_INDX_OFFSET, 1);
  // 16-bit indices 2, reset, 5 (little-endian bytes, no swap).
  const uint8_t indices[6] = {2, 0, 0xFF, 0xFF, 5, 0};
  PrimitiveDraw prim;
  prim.type = xenos::PrimitiveType::kTriangleList;
  prim.vertex_count = 3;
  prim.indexed = true;
  prim.index_bytes = indices;
  prim.reset_enable = true;
  prim.reset_index = 0xFFFF;
  prim.vertex_index = ReadVertexIndexRule(regs_.values());  // as ReadPrimitiveDraw fills it
  const VertexExportRun run = RunVertexShaderExports(draw_, prim, *memory_);
  EXPECT_TRUE(run.note.empty()) << run.note;
  EXPECT_EQ(run.vertices, 2u);
  EXPECT_EQ(run.elements, 2u);
  // Vertex indices 3 and 6 (index + VGT_INDX_OFFSET): element i holds i in every byte.
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t expected = i == 3 ? 0x03030303u : i == 6 ? 0x06060606u : 0xAAAAAAAAu;
    EXPECT_EQ(memory_->LoadLE32(base + 4 * i), expected) << "element " << i;
  }
  EXPECT_EQ(run.lo, base + 12);
  EXPECT_EQ(run.hi, base + 28);
}

TEST_F(VertexExportsTest, ExportsPastTheEndOfGuestMemoryAreDroppedNotWritten) {
  // Elements 0 and 1 are the last two dwords of guest memory; 2 and 3 lie past it.
  const uint32_t base = uint32_t(replay::GuestMemory::kSize - 8);
  Stream(base, 4);
  PrimitiveDraw prim;
  prim.type = xenos::PrimitiveType::kTriangleList;
  prim.vertex_count = 4;  // auto-indexed: vertices 0..3
  const VertexExportRun run = RunVertexShaderExports(draw_, prim, *memory_);
  EXPECT_EQ(run.vertices, 4u);
  EXPECT_EQ(run.elements, 4u);  // flushed; two of them dropped
  EXPECT_EQ(run.dropped_outside_memory, 2u);
  EXPECT_EQ(memory_->LoadLE32(base), 0u);
  EXPECT_EQ(memory_->LoadLE32(base + 4), 0x01010101u);
  EXPECT_EQ(run.hi, uint32_t(replay::GuestMemory::kSize));
}

TEST_F(VertexExportsTest, AStreamPastFourGiBContinuesAtZero) {
  // 8 k_8_8_8_8 elements from 0xFFFFFFF0: 16 bytes below 4 GiB, then (32-bit element addresses,
  // in the interpreter and the GLSL alike) 16 bytes from 0. A GPU path mirrors and reads back
  // both parts.
  Stream(0xFFFFFFF0u, 8);
  vs_.float_constants_read[0] = 0x3;  // c0, c1
  bool past = false;
  const std::vector<MemExportRange> ranges = MemExportRanges(draw_, past);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].address, 0xFFFFFFF0u);
  EXPECT_EQ(ranges[0].size, 16u);
  EXPECT_EQ(ranges[1].address, 0u);
  EXPECT_EQ(ranges[1].size, 16u);
  EXPECT_TRUE(past);
  // Vertices 4..7 write their index (UINTEGER, every byte) at 0, 4, 8, 12.
  PrimitiveDraw prim;
  prim.vertex_count = 8;
  const VertexExportRun run = RunVertexShaderExports(draw_, prim, *memory_);
  EXPECT_EQ(run.dropped_outside_memory, 4u);
  EXPECT_EQ(memory_->LoadLE32(0), 0x04040404u);
  EXPECT_EQ(memory_->LoadLE32(12), 0x07070707u);
}

TEST_F(VertexExportsTest, AShaderThatDoesNotExportOrAShortIndexBufferRunsNothing) {
  PrimitiveDraw prim;
  prim.vertex_count = 3;
  prim.indexed = true;
  const uint8_t two[4] = {0, 0, 1, 0};
  prim.index_bytes = two;  // 2 indices for a 3-vertex draw
  Stream(0x8000, 8);
  EXPECT_EQ(RunVertexShaderExports(draw_, prim, *memory_).note,
            "index buffer shorter than the draw");
  vs_.uses_memexport = false;
  EXPECT_EQ(RunVertexShaderExports(draw_, prim, *memory_).vertices, 0u);
}

}  // namespace
}  // namespace xnt::gpu
