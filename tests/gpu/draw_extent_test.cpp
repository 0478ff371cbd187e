// gpu::EstimateDrawExtent: the vertex shader run on the CPU for a draw's vertices, through the viewport
// transform, bounds how far down the target the draw reaches; the cases it cannot bound say why.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <chrono>
#include <cstdio>
#include <memory>

#include "guest_indices.h"
#include "xnt/gpu/draw_extent.h"
#include "xnt/gpu/tessellated_draw.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/assembler.h"

namespace xnt::replay {
namespace {

using xenos::Reg;

constexpr uint32_t kVertexAddress = 0x10000;
constexpr uint32_t kIndexAddress = 0x20000;

// Position passthrough: float2 (or float4 with Stride=4) from fetch constant 95.
const char* const kPassthrough = R"(xvs_3_0
    exec
    vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4
    alloc position
    exece
    mov oPos, r1
)";

class DrawExtentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    memory_ = std::make_unique<GuestMemory>();
    // D3D-style state: VTE scale/offset on with W not reciprocal, viewport 0,0 320x240,
    // D3D pixel centres (PA_SU_VTX_CNTL bit 0 clear: +0.5).
    regs_.Set(Reg::PA_CL_VTE_CNTL, 0x43F);
    SetFloat(Reg::PA_CL_VPORT_XSCALE, 160.0f);
    SetFloat(Reg::PA_CL_VPORT_XOFFSET, 160.0f);
    SetFloat(Reg::PA_CL_VPORT_YSCALE, -120.0f);
    SetFloat(Reg::PA_CL_VPORT_YOFFSET, 120.0f);
    regs_.Set(Reg::PA_SU_VTX_CNTL, 4);
    Shader(kPassthrough);
    draw_.registers = &regs_;
    draw_.memory = memory_.get();
    draw_.vertex_shader = &vs_;
  }
  void SetFloat(Reg r, float f) { regs_.Set(r, std::bit_cast<uint32_t>(f)); }
  void Shader(const char* text) {
    vs_.type = xenos::ShaderType::kVertex;
    vs_.dwords = ucode::AssembleShader(text).microcode;
    vs_.analyzed = true;
  }
  // Vertices in screen pixels (converted to clip space for the 320x240 viewport), w = `w`.
  void Vertices(const std::vector<std::pair<float, float>>& screen, float w = 1.0f) {
    std::vector<uint32_t> words;
    for (auto [x, y] : screen) {
      for (float f : {(x / 160.0f - 1.0f) * w, (1.0f - y / 120.0f) * w, 0.0f, w}) {
        words.push_back(std::bit_cast<uint32_t>(f));
      }
    }
    for (size_t i = 0; i < words.size(); ++i) {
      memory_->StoreBE32(kVertexAddress + uint32_t(i) * 4, words[i]);
    }
    const xenos::VertexFetchConstant vf{xenos::FetchConstantType::kVertex, kVertexAddress >> 2,
                                        xenos::Endian::k8in32, uint32_t(words.size())};
    const auto d = vf.Encode();
    regs_.Set(xenos::VertexFetchConstantIndex(95), d[0]);
    regs_.Set(xenos::VertexFetchConstantIndex(95) + 1, d[1]);
  }
  // The estimate bounds the draw as set up, to `rows` rows.
  ::testing::AssertionResult EstimatesRows(uint32_t rows) {
    const gpu::DrawExtent e = gpu::EstimateDrawExtent(draw_);
    if (!e.estimated) return ::testing::AssertionFailure() << "not estimated: " << e.reason;
    if (e.rows != rows) return ::testing::AssertionFailure() << e.rows << " rows, not " << rows;
    return ::testing::AssertionSuccess();
  }
  void Auto(xenos::PrimitiveType type, uint32_t count) {
    draw_.initiator.prim_type = type;
    draw_.initiator.num_indices = count;
    draw_.indices = {};
  }
  // 16-bit big-endian indices read with k8in16.
  void Indexed(xenos::PrimitiveType type, const std::vector<uint16_t>& indices) {
    ::xnt::test::StoreDmaIndices(*memory_, draw_, kIndexAddress, type, indices);
  }

  RegisterFile regs_;
  std::unique_ptr<GuestMemory> memory_;
  replay::Shader vs_;
  DrawCall draw_;
};

TEST_F(DrawExtentTest, VerticesInRowsZeroToHundredBoundTheDraw) {
  Vertices({{0.0f, 0.0f}, {300.0f, 0.0f}, {0.0f, 100.0f}, {300.0f, 100.0f}});
  Auto(xenos::PrimitiveType::kTriangleStrip, 4);
  const gpu::DrawExtent e = gpu::EstimateDrawExtent(draw_);
  ASSERT_TRUE(e.estimated) << e.reason;
  EXPECT_EQ(e.vertices, 4u);
  EXPECT_NEAR(e.max_y, 100.5f, 1e-3);  // + the D3D half-pixel offset
  EXPECT_NEAR(e.min_y, 0.5f, 1e-3);
  EXPECT_EQ(e.rows, 101u);
  // OpenGL pixel centres: no offset.
  regs_.Set(Reg::PA_SU_VTX_CNTL, 5);
  EXPECT_EQ(gpu::EstimateDrawExtent(draw_).rows, 101u);  // floor(100 +- ulp) + 1
}

TEST_F(DrawExtentTest, OnlyTheIndexedVerticesCountAndTheWindowOffsetMoves) {
  // Vertex 3 is far down but no index names it.
  Vertices({{10.0f, 10.0f}, {200.0f, 10.0f}, {10.0f, 50.0f}, {10.0f, 230.0f}});
  Indexed(xenos::PrimitiveType::kTriangleList, {0, 1, 2});
  ASSERT_TRUE(EstimatesRows(51u));
  Indexed(xenos::PrimitiveType::kTriangleList, {0, 3, 2});
  EXPECT_EQ(gpu::EstimateDrawExtent(draw_).rows, 231u);
  // VGT_INDX_OFFSET shifts every index: 0,1,2 -> 1,2,3.
  Indexed(xenos::PrimitiveType::kTriangleList, {0, 1, 2});
  regs_.Set(Reg::VGT_INDX_OFFSET, 1);
  EXPECT_EQ(gpu::EstimateDrawExtent(draw_).rows, 231u);
  regs_.Set(Reg::VGT_INDX_OFFSET, 0);
  // Window offset (PA_SU_SC_MODE_CNTL vtx_window_offset_enable) moves it down 16 rows.
  regs_.Set(Reg::PA_SU_SC_MODE_CNTL, 1u << 16);
  regs_.Set(Reg::PA_SC_WINDOW_OFFSET, 16u << 16);
  EXPECT_EQ(gpu::EstimateDrawExtent(draw_).rows, 67u);
}

TEST_F(DrawExtentTest, ScreenSpacePositionsWithoutViewportAndDividedByW) {
  // VTE off: positions are already in pixels (w = 1 because w0_fmt is set and no division).
  regs_.Set(Reg::PA_CL_VTE_CNTL, 0x700);  // xy and z already divided, W not reciprocal
  std::vector<uint32_t> words;
  for (float f : {5.0f, 7.0f, 0.0f, 1.0f, 40.0f, 300.0f, 0.0f, 1.0f, 5.0f, 120.0f, 0.0f, 1.0f}) {
    words.push_back(std::bit_cast<uint32_t>(f));
  }
  for (size_t i = 0; i < words.size(); ++i) {
    memory_->StoreBE32(kVertexAddress + uint32_t(i) * 4, words[i]);
  }
  const auto d = xenos::VertexFetchConstant{xenos::FetchConstantType::kVertex,
                                            kVertexAddress >> 2, xenos::Endian::k8in32, 12}
                     .Encode();
  regs_.Set(xenos::VertexFetchConstantIndex(95), d[0]);
  regs_.Set(xenos::VertexFetchConstantIndex(95) + 1, d[1]);
  Auto(xenos::PrimitiveType::kTriangleList, 3);
  ASSERT_TRUE(EstimatesRows(301u));  // 300 + 0.5
  // Perspective: w = 2 halves clip-space y before the viewport.
  regs_.Set(Reg::PA_CL_VTE_CNTL, 0x43F);
  Vertices({{0.0f, 0.0f}, {0.0f, 200.0f}, {100.0f, 200.0f}}, 2.0f);
  ASSERT_TRUE(EstimatesRows(201u));
}

TEST_F(DrawExtentTest, RectangleListIncludesTheDerivedCorner) {
  // A diamond's three corners: top, right, left; the derived fourth (bottom) is at y = 160.
  Vertices({{100.0f, 40.0f}, {160.0f, 100.0f}, {40.0f, 100.0f}});
  Auto(xenos::PrimitiveType::kRectangleList, 3);
  ASSERT_TRUE(EstimatesRows(161u));
}

TEST_F(DrawExtentTest, PointsAndLinesReachHalfTheirSizeBelowTheLowestVertex) {
  // The lowest vertex's centre is at y = 100.5 (the D3D half-pixel offset).
  Vertices({{10.0f, 50.0f}, {20.0f, 100.0f}});
  Auto(xenos::PrimitiveType::kPointList, 2);
  // PA_SU_POINT_SIZE: half-sizes in 12.4, 64 = a 4-pixel half height: 8 x 8 points.
  regs_.Set(Reg::PA_SU_POINT_SIZE, (64u << 16) | 64u);
  ASSERT_TRUE(EstimatesRows(105u));  // floor(100.5 + 4) + 1
  // An exported size is clamped to PA_SU_POINT_MINMAX: a maximum diameter of 16 may reach 8.
  regs_.Set(Reg::PA_SU_POINT_MINMAX, 128u << 16);
  ASSERT_TRUE(EstimatesRows(109u));
  EXPECT_NEAR(gpu::EstimateDrawExtent(draw_).min_y, 50.5f - 8.0f, 1e-3);
  // PA_SU_LINE_CNTL: half the width in 12.4, 48 = a 6-pixel line reaching 3 rows further.
  Auto(xenos::PrimitiveType::kLineList, 2);
  regs_.Set(Reg::PA_SU_LINE_CNTL, 48u);
  ASSERT_TRUE(EstimatesRows(104u));
  // Never written: a 1-pixel line, half a row.
  regs_.Set(Reg::PA_SU_LINE_CNTL, 0u);
  ASSERT_TRUE(EstimatesRows(102u));  // floor(100.5 + 0.5) + 1
  // A triangle's vertices alone.
  Vertices({{10.0f, 50.0f}, {20.0f, 100.0f}, {0.0f, 60.0f}});
  Auto(xenos::PrimitiveType::kTriangleList, 3);
  ASSERT_TRUE(EstimatesRows(101u));
}

TEST_F(DrawExtentTest, ATessellatedDrawRunsItsDomainShaderPerGeneratedVertex) {
  // One quad patch at discrete factor 2 (VGT_HOS_MAX_TESS_LEVEL 1.0): the 3 x 3 grid of
  // (u, v) in {0, 1/2, 1}, r0 = (patch index, u, v). Clip position (c1.x + u c0.x, c1.y +
  // v c0.y): c0.y = -0.5 puts v = 1 at clip y 0.5, screen y 120 - 60 + 0.5 = 60.5.
  Shader(R"(xvs_3_0
    exec
    mad r1, r0.yzxx, c0, c1
    alloc position
    exece
    mov oPos, r1
)");
  regs_.Set(Reg::VGT_OUTPUT_PATH_CNTL, uint32_t(xenos::VGTOutputPath::kTessellationEnable));
  regs_.Set(Reg::VGT_HOS_CNTL, uint32_t(xenos::TessellationMode::kDiscrete));
  SetFloat(Reg::VGT_HOS_MAX_TESS_LEVEL, 1.0f);
  regs_.Set(Reg::VGT_MAX_VTX_INDX, 0xFFFFFF);
  auto constant = [&](uint32_t c, std::array<float, 4> v) {
    for (uint32_t k = 0; k < 4; ++k) {
      regs_.Set(xenos::AluConstantIndex(c, k), std::bit_cast<uint32_t>(v[k]));
    }
  };
  constant(0, {1.0f, -0.5f, 0.0f, 0.0f});
  constant(1, {-1.0f, 1.0f, 0.0f, 1.0f});
  Auto(xenos::PrimitiveType::kQuadPatch, 1);
  draw_.initiator.major_mode = xenos::MajorMode::kExplicit;
  const gpu::TessellatedDraw tess = gpu::TessellateDraw(draw_);
  ASSERT_EQ(tess.vertices.size(), 9u);
  gpu::DrawExtent e = gpu::EstimateDrawExtent(draw_, tess);
  ASSERT_TRUE(e.estimated) << e.reason;
  EXPECT_EQ(e.vertices, 9u);
  EXPECT_EQ(e.rows, 61u);
  EXPECT_NEAR(e.min_y, 0.5f, 1e-4);  // v = 0: clip y 1
  // c0.y = -1.25: v = 1 at clip y -0.25, screen y 150.5.
  constant(0, {1.0f, -1.25f, 0.0f, 0.0f});
  EXPECT_EQ(gpu::EstimateDrawExtent(draw_, tess).rows, 151u);
  // The work cap counts generated vertices.
  gpu::DrawExtentOptions small;
  small.max_vertices = 8;
  e = gpu::EstimateDrawExtent(draw_, tess, small);
  EXPECT_FALSE(e.estimated);
  EXPECT_NE(e.reason.find("generates 9 vertices"), std::string::npos) << e.reason;
}

TEST_F(DrawExtentTest, CasesItCannotBoundSayWhy) {
  Vertices({{0.0f, 0.0f}, {10.0f, 0.0f}, {0.0f, 10.0f}});
  Auto(xenos::PrimitiveType::kTriangleList, 3);
  gpu::DrawExtentOptions small;
  small.max_vertices = 2;
  gpu::DrawExtent e = gpu::EstimateDrawExtent(draw_, small);
  EXPECT_FALSE(e.estimated);
  EXPECT_NE(e.reason.find("3 vertices"), std::string::npos) << e.reason;
  EXPECT_EQ(e.vertices, 0u);  // the cap is checked before any work
  Auto(xenos::PrimitiveType::kTriangleList, 3);
  // Behind the eye.
  Vertices({{0.0f, 0.0f}, {10.0f, 0.0f}, {0.0f, 10.0f}}, -1.0f);
  e = gpu::EstimateDrawExtent(draw_);
  EXPECT_FALSE(e.estimated);
  EXPECT_NE(e.reason.find("w <= 0"), std::string::npos) << e.reason;
  // Index buffer shorter than the draw.
  Indexed(xenos::PrimitiveType::kTriangleList, {0, 1, 2});
  draw_.indices.size_bytes = 4;
  e = gpu::EstimateDrawExtent(draw_);
  EXPECT_FALSE(e.estimated);
  EXPECT_NE(e.reason.find("index buffer"), std::string::npos) << e.reason;
  // Memexport shaders and missing shaders.
  vs_.uses_memexport = true;
  EXPECT_FALSE(gpu::EstimateDrawExtent(draw_).estimated);
  draw_.vertex_shader = nullptr;
  EXPECT_FALSE(gpu::EstimateDrawExtent(draw_).estimated);
  // Invalid microcode (an exec of slot 100 in a 3-dword shader): a clear reason, no throw.
  vs_.uses_memexport = false;
  Auto(xenos::PrimitiveType::kTriangleList, 3);
  vs_.dwords = {100u | (1u << 12), 1u << 12, 0u};
  draw_.vertex_shader = &vs_;
  e = gpu::EstimateDrawExtent(draw_);
  EXPECT_FALSE(e.estimated);
  EXPECT_NE(e.reason.find("does not decode"), std::string::npos) << e.reason;
  // A runaway loop.
  Shader(R"(xvs_3_0
L0:
    exec
    add r0.x, r0.x, c0.x
    jmp L0
    alloc position
    exece
    mov oPos, r1
)");
  Auto(xenos::PrimitiveType::kTriangleList, 3);
  e = gpu::EstimateDrawExtent(draw_);
  EXPECT_FALSE(e.estimated);
  EXPECT_NE(e.reason.find("ran away"), std::string::npos) << e.reason;
}

TEST_F(DrawExtentTest, ClampsToTheRenderTargetLimit) {
  Vertices({{0.0f, 0.0f}, {10.0f, 0.0f}, {0.0f, 100000.0f}});
  Auto(xenos::PrimitiveType::kTriangleList, 3);
  ASSERT_TRUE(EstimatesRows(8192u));
}

TEST_F(DrawExtentTest, AFullCapOfVerticesIsEstimated) {
  // 65535 auto-indexed vertices (just under the cap) with a stride-0 fetch, so every index reads
  // the one vertex in the buffer; times the interpreter at the size the cap allows.
  Shader(R"(xvs_3_0
    exec
    vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32_FLOAT, Stride=0
    mul r1.y, r1.y, c0.x
    alloc position
    exece
    mov oPos, r1
)");
  Vertices({{0.0f, 100.0f}});
  regs_.Set(xenos::AluConstantIndex(0, 0), std::bit_cast<uint32_t>(1.0f));
  Auto(xenos::PrimitiveType::kTriangleList, 65535);
  const auto start = std::chrono::steady_clock::now();
  const gpu::DrawExtent e = gpu::EstimateDrawExtent(draw_);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(e.estimated) << e.reason;
  EXPECT_EQ(e.vertices, 65535u);
  EXPECT_EQ(e.rows, 101u);
  std::printf("draw extent: %u vertices in %.1f ms (%.2f M vertices/s)\n", e.vertices, ms,
              e.vertices / ms / 1000.0);
}

}  // namespace
}  // namespace xnt::replay
