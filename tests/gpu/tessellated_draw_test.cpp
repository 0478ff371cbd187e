// gpu::TessellateDraw: which draws tessellate and which are refused (named), the factors taken
// from VGT_HOS_* and from an adaptive draw's float32 index buffer (its swap mode applied), and
// the r0 / r1 each generated vertex hands the domain shader, worked by hand per patch kind.
#include <gtest/gtest.h>

#include <bit>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "xnt/base/error.h"
#include "error_text.h"
#include "guest_indices.h"
#include "xnt/gpu/index_buffer.h"
#include "xnt/gpu/tessellated_draw.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"

namespace xnt::gpu {
namespace {

using xenos::PrimitiveType;
using xenos::Reg;
using xenos::TessellationMode;

constexpr uint32_t kIndexAddress = 0x20000;

class TessellatedDrawTest : public ::testing::Test {
 protected:
  void SetUp() override {
    memory_ = std::make_unique<replay::GuestMemory>();
    regs_.Set(Reg::VGT_OUTPUT_PATH_CNTL, uint32_t(xenos::VGTOutputPath::kTessellationEnable));
    regs_.Set(Reg::VGT_MAX_VTX_INDX, 0xFFFFFF);
    draw_.registers = &regs_;
    draw_.memory = memory_.get();
    draw_.initiator.major_mode = xenos::MajorMode::kExplicit;
  }
  void Mode(TessellationMode m, float max_level, float min_level = 0.0f) {
    regs_.Set(Reg::VGT_HOS_CNTL, uint32_t(m));
    regs_.Set(Reg::VGT_HOS_MAX_TESS_LEVEL, std::bit_cast<uint32_t>(max_level));
    regs_.Set(Reg::VGT_HOS_MIN_TESS_LEVEL, std::bit_cast<uint32_t>(min_level));
  }
  void Auto(PrimitiveType type, uint32_t count) {
    draw_.initiator.prim_type = type;
    draw_.initiator.num_indices = count;
    draw_.indices = {};
    draw_.indices.source = xenos::SourceSelect::kAutoIndex;
  }
  // 32-bit words stored big-endian, read with 8in32.
  void Dma32(PrimitiveType type, const std::vector<uint32_t>& words) {
    ::xnt::test::StoreDmaIndices(*memory_, draw_, kIndexAddress, type, words);
  }
  // 16-bit indices stored big-endian, read with 8in16.
  void Dma16(PrimitiveType type, const std::vector<uint16_t>& indices) {
    ::xnt::test::StoreDmaIndices(*memory_, draw_, kIndexAddress, type, indices);
  }
  std::string Refusal() {
    return ::xnt::test::ErrorText([&] { TessellateDraw(draw_); }, "");
  }

  replay::RegisterFile regs_;
  std::unique_ptr<replay::GuestMemory> memory_;
  replay::DrawCall draw_;
};

TEST_F(TessellatedDrawTest, QuadPatchesAtADiscreteFactor) {
  // VGT_HOS_MAX_TESS_LEVEL 1.0: factor 2 on every edge, integer: a 3 x 3 grid per patch.
  Mode(TessellationMode::kDiscrete, 1.0f);
  regs_.Set(Reg::VGT_INDX_OFFSET, 10);
  Auto(PrimitiveType::kQuadPatch, 2);
  const TessellatedDraw d = TessellateDraw(draw_);
  EXPECT_EQ(d.kind, PatchKind::kQuadPatch);
  EXPECT_EQ(d.patches, 2u);
  ASSERT_EQ(d.vertices.size(), 18u);
  EXPECT_EQ(d.indices.size(), 2u * 8 * 3);
  // r0 = (patch index + VGT_INDX_OFFSET, u, v), r1 = 0; the outer ring from (0,1), each side
  // a corner then its midpoint: (0,1) (0,1/2) (0,0) (1/2,0) (1,0) (1,1/2) (1,1) (1/2,1), then
  // the centre.
  EXPECT_EQ(d.vertices[0].r0, (std::array<float, 4>{10, 0, 1, 0}));
  EXPECT_EQ(d.vertices[1].r0, (std::array<float, 4>{10, 0, 0.5f, 0}));
  EXPECT_EQ(d.vertices[2].r0, (std::array<float, 4>{10, 0, 0, 0}));
  EXPECT_EQ(d.vertices[6].r0, (std::array<float, 4>{10, 1, 1, 0}));
  EXPECT_EQ(d.vertices[8].r0, (std::array<float, 4>{10, 0.5f, 0.5f, 0}));
  EXPECT_EQ(d.vertices[9].r0, (std::array<float, 4>{11, 0, 1, 0}));
  EXPECT_EQ(d.vertices[9].r1, (std::array<float, 4>{0, 0, 0, 0}));
  bool centre = false;
  for (const DomainVertex& v : d.vertices) centre |= v.r0 == std::array<float, 4>{11, 0.5f, 0.5f, 0};
  EXPECT_TRUE(centre);
  for (uint32_t i : d.indices) EXPECT_LT(i, d.vertices.size());
}

TEST_F(TessellatedDrawTest, TriangleListControlPointsContinuous) {
  // Continuous, max level 0.0: factor 1, fractional_even raises it to 2. Two patches of three
  // control points each; r0 = (w, v, u), r1 = the control-point indices (clamped to
  // VGT_MAX_VTX_INDX 6).
  Mode(TessellationMode::kContinuous, 0.0f);
  regs_.Set(Reg::VGT_MAX_VTX_INDX, 6);
  Dma32(PrimitiveType::kTriangleList, {4, 5, 6, 7, 8, 9});
  const TessellatedDraw d = TessellateDraw(draw_);
  EXPECT_EQ(d.kind, PatchKind::kTriangleControlPoints);
  EXPECT_EQ(d.patches, 2u);
  ASSERT_EQ(d.vertices.size(), 14u);  // 3 corners, 3 midpoints, the centre, per patch
  // The outer ring from corner v, each corner followed by the midpoint towards the next:
  // v, v-w, w, w-u, u, u-v.
  EXPECT_EQ(d.vertices[0].r0, (std::array<float, 4>{0, 1, 0, 0}));  // corner v
  EXPECT_EQ(d.vertices[1].r0, (std::array<float, 4>{0.5f, 0.5f, 0, 0}));
  EXPECT_EQ(d.vertices[2].r0, (std::array<float, 4>{1, 0, 0, 0}));  // corner w
  EXPECT_EQ(d.vertices[3].r0, (std::array<float, 4>{0.5f, 0, 0.5f, 0}));
  EXPECT_EQ(d.vertices[4].r0, (std::array<float, 4>{0, 0, 1, 0}));  // corner u
  EXPECT_EQ(d.vertices[0].r1, (std::array<float, 4>{4, 5, 6, 0}));
  EXPECT_EQ(d.vertices[7].r1, (std::array<float, 4>{6, 6, 6, 0}));
  EXPECT_EQ(d.indices.size(), 2u * 6 * 3);
}

// Parts of whole patches, each under the bound, indices counted from the part's first vertex:
// laid end to end they are the draw again. Four quad patches at factor 2 (9 vertices, 8
// triangles each) under a bound of 20 vertices: parts of 2, 2 patches.
TEST_F(TessellatedDrawTest, SplitIntoPartsOfWholePatches) {
  Mode(TessellationMode::kDiscrete, 1.0f);
  Auto(PrimitiveType::kQuadPatch, 4);
  const TessellatedDraw d = TessellateDraw(draw_);
  ASSERT_EQ(d.vertices.size(), 36u);
  EXPECT_EQ(d.patch_first_vertex, (std::vector<uint32_t>{0, 9, 18, 27}));
  EXPECT_EQ(d.patch_first_index, (std::vector<uint32_t>{0, 24, 48, 72}));
  const std::vector<TessellatedDraw> parts = SplitTessellatedDraw(d, 20);
  ASSERT_EQ(parts.size(), 2u);
  size_t vertex_base = 0, index_base = 0;
  for (const TessellatedDraw& part : parts) {
    EXPECT_EQ(part.patches, 2u);
    ASSERT_EQ(part.vertices.size(), 18u);
    ASSERT_EQ(part.indices.size(), 48u);
    for (size_t v = 0; v < part.vertices.size(); ++v) {
      EXPECT_EQ(part.vertices[v].r0, d.vertices[vertex_base + v].r0);
    }
    for (size_t i = 0; i < part.indices.size(); ++i) {
      EXPECT_EQ(part.indices[i] + vertex_base, d.indices[index_base + i]);
      EXPECT_LT(part.indices[i], part.vertices.size());
    }
    vertex_base += part.vertices.size();
    index_base += part.indices.size();
  }
  EXPECT_EQ(SplitTessellatedDraw(d, 36).size(), 1u);
  EXPECT_EQ(SplitTessellatedDraw(d, 17).size(), 4u);
  // One patch past the bound cannot be split.
  const std::string error = ::xnt::test::ErrorText([&] { SplitTessellatedDraw(d, 8); }, "");
  EXPECT_NE(error.find("patch 0 makes 9"), std::string::npos) << error;
}

TEST_F(TessellatedDrawTest, AdaptiveFactorsFromTheIndexBuffer) {
  // Edge factors 0.0 and 2.0 (+1: 1 and 3); the v0->v1 edge is Direct3D's w = 0 edge. 1 is
  // raised to 2 by fractional_even, so the edges have 2, 4, 2 segments and the inside, the
  // smallest edge, 2: 3 corners + 1 + 3 + 1 edge points + the centre, and 8 triangles (one per
  // segment of each edge, all joined to the centre).
  Mode(TessellationMode::kAdaptive, 14.0f);
  Dma32(PrimitiveType::kTrianglePatch,
        {std::bit_cast<uint32_t>(2.0f), 0u, 0u, std::bit_cast<uint32_t>(-5.0f), 0u, 0u});
  const TessellatedDraw d = TessellateDraw(draw_);
  EXPECT_EQ(d.kind, PatchKind::kTrianglePatch);
  EXPECT_EQ(d.partitioning, TessellationPartitioning::kFractionalEven);
  EXPECT_EQ(d.patches, 2u);
  ASSERT_EQ(d.vertices.size(), 9u + 7u);
  EXPECT_EQ(d.indices.size(), (8u + 6u) * 3);
  // The patch index is the patch's number in the draw; r1.y = 0 (identity coordinate order).
  EXPECT_EQ(d.vertices[0].r1, (std::array<float, 4>{0, 0, 0, 0}));
  EXPECT_EQ(d.vertices[9].r1, (std::array<float, 4>{1, 0, 0, 0}));
  // The v0->v1 edge's points: u + v = 1, v at 3/8, 1/2, 5/8 (factor 3).
  int on_edge = 0;
  for (size_t i = 0; i < 9; ++i) {
    const auto& r0 = d.vertices[i].r0;
    if (r0[0] == 0 && r0[1] > 0 && r0[2] > 0) {
      ++on_edge;
      EXPECT_TRUE(r0[1] == 0.375f || r0[1] == 0.5f || r0[1] == 0.625f) << r0[1];
    }
  }
  EXPECT_EQ(on_edge, 3);
}

// The control points of each patch of a strip or fan, as r1 (triangles) or r0.z + r1 (quads)
// hand them over, the same for every vertex of the patch.
std::vector<std::vector<float>> PatchControlPoints(const TessellatedDraw& d) {
  std::vector<std::vector<float>> out;
  for (uint32_t first : d.patch_first_vertex) {
    const DomainVertex& v = d.vertices[first];
    if (d.kind == PatchKind::kQuadControlPoints) {
      out.push_back({v.r0[2], v.r1[0], v.r1[1], v.r1[2]});
    } else {
      out.push_back({v.r1[0], v.r1[1], v.r1[2]});
    }
  }
  return out;
}

TEST_F(TessellatedDrawTest, StripsAndFansAreControlPointPatchesInDirect3DOrder) {
  // Factor 1 (level 0): one triangle or two per patch; only the control points matter here.
  Mode(TessellationMode::kContinuous, 0.0f);
  using CP = std::vector<std::vector<float>>;
  Auto(PrimitiveType::kTriangleStrip, 5);
  TessellatedDraw d = TessellateDraw(draw_);
  EXPECT_EQ(d.kind, PatchKind::kTriangleControlPoints);
  EXPECT_EQ(d.patches, 3u);
  // Odd triangles swap their last two vertices, so all three wind alike.
  EXPECT_EQ(PatchControlPoints(d), (CP{{0, 1, 2}, {1, 3, 2}, {2, 3, 4}}));
  Auto(PrimitiveType::kTriangleFan, 5);
  EXPECT_EQ(PatchControlPoints(TessellateDraw(draw_)), (CP{{0, 1, 2}, {0, 2, 3}, {0, 3, 4}}));
  // Quad k of a strip: (2k, 2k+1, 2k+3, 2k+2) around its perimeter.
  Auto(PrimitiveType::kQuadStrip, 6);
  d = TessellateDraw(draw_);
  EXPECT_EQ(d.kind, PatchKind::kQuadControlPoints);
  EXPECT_EQ(PatchControlPoints(d), (CP{{0, 1, 3, 2}, {2, 3, 5, 4}}));
  // A primitive reset ends a strip's run; VGT_INDX_OFFSET applies to every index.
  regs_.Set(Reg::PA_SU_SC_MODE_CNTL, 1u << 21);  // multi_prim_ib_ena
  regs_.Set(Reg::VGT_MULTI_PRIM_IB_RESET_INDX, 0xFFFFFFFFu);
  regs_.Set(Reg::VGT_INDX_OFFSET, 100);
  Dma32(PrimitiveType::kTriangleStrip, {7, 8, 9, 0xFFFFFFFFu, 4, 5, 6, 3});
  EXPECT_EQ(PatchControlPoints(TessellateDraw(draw_)),
            (CP{{107, 108, 109}, {104, 105, 106}, {105, 103, 106}}));
  // Lists keep their consecutive runs.
  Dma32(PrimitiveType::kTriangleList, {7, 8, 9, 4, 5, 6, 3});
  EXPECT_EQ(PatchControlPoints(TessellateDraw(draw_)), (CP{{107, 108, 109}, {104, 105, 106}}));
  // An index buffer shorter than the strip is refused, named, not read past.
  Dma32(PrimitiveType::kTriangleStrip, {1, 2, 3, 4});
  draw_.indices.size_bytes = 8;
  EXPECT_NE(Refusal().find("index buffer holds 2 indices but the draw uses 4"), std::string::npos)
      << Refusal();
}

// Random strips and fans of 16-bit indices with primitive resets against a scalar reading of
// Direct3D's rules: each reset-free run of n vertices is n - 2 triangles (strips: (i, i+1, i+2),
// odd i (i, i+2, i+1); fans: (0, i+1, i+2)) or floor((n - 2) / 2) quads (2k, 2k+1, 2k+3, 2k+2);
// every generated vertex of a patch carries its control points; VGT_INDX_OFFSET added.
TEST_F(TessellatedDrawTest, RandomStripsAndFansWithResetsMatchAScalarReading) {
  std::mt19937 rng(20261202);
  Mode(TessellationMode::kContinuous, 1.0f);  // factor 2: several vertices per patch
  regs_.Set(Reg::PA_SU_SC_MODE_CNTL, 1u << 21);
  regs_.Set(Reg::VGT_MULTI_PRIM_IB_RESET_INDX, 0xFFFFu);
  const PrimitiveType types[] = {PrimitiveType::kTriangleStrip, PrimitiveType::kTriangleFan,
                                 PrimitiveType::kQuadStrip};
  for (int round = 0; round < 300; ++round) {
    const PrimitiveType type = types[round % 3];
    const uint32_t offset = rng() % 50;
    regs_.Set(Reg::VGT_INDX_OFFSET, offset);
    std::vector<uint16_t> indices(1 + rng() % 24);
    for (uint16_t& i : indices) i = rng() % 6 == 0 ? 0xFFFF : uint16_t(rng() % 1000);
    Dma16(type, indices);

    std::vector<std::vector<float>> expected;
    std::vector<float> run;
    auto flush = [&] {
      const size_t n = run.size();
      if (type == PrimitiveType::kQuadStrip) {
        for (size_t k = 0; n >= 4 && 2 * k + 3 < n; ++k) {
          expected.push_back({run[2 * k], run[2 * k + 1], run[2 * k + 3], run[2 * k + 2]});
        }
      } else {
        for (size_t i = 0; i + 2 < n; ++i) {
          if (type == PrimitiveType::kTriangleFan) {
            expected.push_back({run[0], run[i + 1], run[i + 2]});
          } else if (i & 1) {
            expected.push_back({run[i], run[i + 2], run[i + 1]});
          } else {
            expected.push_back({run[i], run[i + 1], run[i + 2]});
          }
        }
      }
      run.clear();
    };
    for (uint16_t i : indices) {
      if (i == 0xFFFF) {
        flush();
      } else {
        run.push_back(float(i + offset));
      }
    }
    flush();
    const TessellatedDraw d = TessellateDraw(draw_);
    ASSERT_EQ(d.patches, expected.size()) << "round " << round;
    ASSERT_EQ(PatchControlPoints(d), expected) << "round " << round;
    // Every vertex of a patch hands over the same control points.
    for (size_t p = 0; p < d.patch_first_vertex.size(); ++p) {
      const size_t end =
          p + 1 < d.patch_first_vertex.size() ? d.patch_first_vertex[p + 1] : d.vertices.size();
      for (size_t v = d.patch_first_vertex[p]; v < end; ++v) {
        ASSERT_EQ(d.vertices[v].r1, d.vertices[d.patch_first_vertex[p]].r1) << "round " << round;
      }
    }
  }
}

// A reader of primitive streams handed a tessellated draw names what it holds.
TEST_F(TessellatedDrawTest, APrimitiveStreamReaderNamesTheTessellatedDraw) {
  auto note = [&] {
    std::vector<uint8_t> scratch;
    return ::xnt::test::ErrorText([&] { ReadPrimitiveDraw(draw_, scratch); }, "");
  };
  Mode(TessellationMode::kContinuous, 1.0f);
  Auto(PrimitiveType::kTriangleStrip, 5);
  EXPECT_NE(note().find("tess_mode continuous, triangle_strip of control points, 5 control points)"),
            std::string::npos)
      << note();
  Auto(PrimitiveType::kQuadPatch, 2);
  EXPECT_NE(note().find("quad_patch, 2 patches)"), std::string::npos) << note();
  Mode(TessellationMode::kAdaptive, 1.0f);
  Auto(PrimitiveType::kTrianglePatch, 6);
  EXPECT_NE(note().find("triangle_patch, 6 float32 edge factors in the index buffer)"),
            std::string::npos)
      << note();
  Auto(PrimitiveType::kPointList, 3);
  EXPECT_NE(note().find("point_list (not a patch type)"), std::string::npos) << note();
}

TEST_F(TessellatedDrawTest, RefusalsNameTheRegisters) {
  Mode(TessellationMode(3), 1.0f);
  Auto(PrimitiveType::kTrianglePatch, 1);
  EXPECT_NE(Refusal().find("tess_mode 3 is not a tessellation mode"), std::string::npos);
  Mode(TessellationMode::kDiscrete, 1.0f);
  Auto(PrimitiveType::kLinePatch, 1);
  EXPECT_NE(Refusal().find("line patches"), std::string::npos);
  Auto(PrimitiveType::kLineStrip, 3);
  EXPECT_NE(Refusal().find("tessellated lines"), std::string::npos);
  Auto(PrimitiveType::kPointList, 3);
  EXPECT_NE(Refusal().find("not a patch type"), std::string::npos);
  Mode(TessellationMode::kAdaptive, 1.0f);
  Auto(PrimitiveType::kQuadList, 4);
  EXPECT_NE(Refusal().find("adaptive factors for a list"), std::string::npos);
  // A factor of 64 on a million patches is refused before it is allocated.
  Mode(TessellationMode::kDiscrete, 63.0f);
  Auto(PrimitiveType::kQuadPatch, 1u << 20);
  EXPECT_NE(Refusal().find("more than"), std::string::npos);
}

}  // namespace
}  // namespace xnt::gpu
