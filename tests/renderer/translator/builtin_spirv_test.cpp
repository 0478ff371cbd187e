// The host shaders compiled at build time (baked_host_spirv.h, spirv_cache.h SetBuiltinSpirv):
// the table is sorted and holds SPIR-V; with it installed, host shaders the paths generate (a post
// pass, the line-quad, rectangle-list and polygon-offset geometry shaders, the fsi depth-only shader, the EDRAM
// transfers) are answered from it without a compile and with the words a compile gives; text the
// baker never saw (a translated shader) still compiles; without the table everything compiles.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "xnt/present/post.h"
#include "xnt/vk/baked_host_spirv.h"
#include "xnt/vk/host_shaders.h"
#include "xnt/vk/present/post_vk.h"
#include "xnt/vk/translator/output_merger_interface.h"
#include "xnt/vk/translator/polygon_mode.h"
#include "xnt/vk/translator/shader_compiler.h"
#include "xnt/vk/translator/spirv_cache.h"

namespace xnt::vk {
namespace {

// Every baked host shader's path, compiled with the table installed or not.
std::vector<std::vector<uint32_t>> CompileSome() {
  return {
      CompileHostGlsl(PostPassGlsl(present::PassKind::kFxaa), VK_SHADER_STAGE_COMPUTE_BIT, "p"),
      QuadGeometryShader(PrimitiveQuads::kLines, GeometryShaderInterpolators(64u, 0, 0), 0, 0),
      QuadGeometryShader(PrimitiveQuads::kPoints, GeometryShaderInterpolators(128u, 0, 0), 0, 0),
      RectangleListGeometryShader(GeometryShaderInterpolators(64u, 0, 0), 0, 0, false),
      CompileHostGlsl(PolygonOffsetGeometryShaderGlsl(PolygonOffsetGeometryInterpolators(128, 2, 1), 2, 1),
                      VK_SHADER_STAGE_GEOMETRY_BIT, "gs"),
      CompileHostGlsl(OutputMergerDepthOnlyShaderGlsl(false, true), VK_SHADER_STAGE_FRAGMENT_BIT,
                      "ps"),
  };
}

TEST(BuiltinSpirv, TableIsSortedSpirv) {
  const std::span<const BuiltinSpirv> table = BakedHostSpirv();
  // Transfers (17) + post passes (6) + depth-only (4) + line quads and polygon offset GS.
  ASSERT_GT(table.size(), 60u);
  for (size_t i = 0; i < table.size(); ++i) {
    ASSERT_GT(table[i].count, 5u) << i;
    EXPECT_EQ(table[i].words[0], 0x07230203u) << i;
    if (i) {
      EXPECT_LT(std::memcmp(table[i - 1].key, table[i].key, 16), 0) << i;
    }
  }
}

TEST(BuiltinSpirv, HostShadersComeFromTheTableWithTheCompiledWords) {
  SetSpirvCacheDirectory("");
  SetBuiltinSpirv({});
  const SpirvCacheStats s0 = GetSpirvCacheStats();
  const auto compiled = CompileSome();
  const SpirvCacheStats s1 = GetSpirvCacheStats();
  EXPECT_EQ(s1.misses - s0.misses, compiled.size());
  EXPECT_EQ(s1.builtin, s0.builtin);

  SetBuiltinSpirv(BakedHostSpirv());
  const auto built = CompileSome();
  const SpirvCacheStats s2 = GetSpirvCacheStats();
  EXPECT_EQ(s2.builtin - s1.builtin, built.size());
  EXPECT_EQ(s2.misses, s1.misses) << "nothing compiled";
  EXPECT_EQ(built, compiled);

  // Text the baker never compiled misses the table and compiles.
  CompileGlsl("#version 450\nlayout(local_size_x = 4) in;\nvoid main() {}\n", GlslStage::kCompute,
              "t");
  const SpirvCacheStats s3 = GetSpirvCacheStats();
  EXPECT_EQ(s3.misses - s2.misses, 1u);
  EXPECT_EQ(s3.builtin, s2.builtin);
  SetBuiltinSpirv({});
}

}  // namespace
}  // namespace xnt::vk

namespace xnt::vk {
namespace {

// The interpolators a host geometry shader passes: its inputs are gl_Position (4 components),
// gl_PointSize (1), the clip and the cull distance arrays (each at least 1: glslang declares an
// unused one with one element) and 4 per interpolator, within the device's
// maxGeometryInputComponents (lavapipe 64, NVIDIA 128); the polygon-offset one also takes the
// exported position (4) and passes at most 15. Worked by hand: (64 - 5 - clip' - cull') / 4.
TEST(GeometryShaderInputs, InterpolatorsFitBesideTheDistances) {
  EXPECT_EQ(GeometryPerVertexComponents(0, 0), 7u);
  EXPECT_EQ(GeometryPerVertexComponents(3, 0), 9u);
  EXPECT_EQ(GeometryPerVertexComponents(3, 2), 10u);
  EXPECT_EQ(GeometryShaderInterpolators(64u, 0, 0), 14u);   // 57 / 4
  EXPECT_EQ(GeometryShaderInterpolators(64u, 2, 1), 14u);   // 56 / 4
  EXPECT_EQ(GeometryShaderInterpolators(64u, 3, 0), 13u);   // 55 / 4
  EXPECT_EQ(GeometryShaderInterpolators(64u, 6, 1), 13u);   // 52 / 4
  EXPECT_EQ(GeometryShaderInterpolators(64u, 7, 1), 12u);   // 51 / 4
  EXPECT_EQ(GeometryShaderInterpolators(128u, 7, 1), 16u);  // all of them
  EXPECT_EQ(GeometryShaderInterpolators(4u, 0, 0), 1u);     // never an empty array
  EXPECT_EQ(PolygonOffsetGeometryInterpolators(64u, 0, 0), 13u);  // (64 - 11) / 4
  EXPECT_EQ(PolygonOffsetGeometryInterpolators(64u, 2, 1), 13u);  // 52 / 4
  // Three clip distances, no cull: 52 + 4 + 9 was one over lavapipe's 64 when 13 were passed.
  EXPECT_EQ(PolygonOffsetGeometryInterpolators(64u, 3, 0), 12u);  // 51 / 4
  EXPECT_EQ(PolygonOffsetGeometryInterpolators(64u, 7, 0), 11u);  // 47 / 4
  EXPECT_EQ(PolygonOffsetGeometryInterpolators(128u, 8, 0), 15u);
  // Every split stays within the limit it was given.
  for (uint32_t limit : {64u, 128u}) {
    for (uint32_t clip = 0; clip <= 8; ++clip) {
      for (uint32_t cull = 0; clip + cull <= 8; ++cull) {
        const uint32_t pv = GeometryPerVertexComponents(clip, cull);
        EXPECT_LE(pv + 4 * GeometryShaderInterpolators(limit, clip, cull), limit);
        EXPECT_LE(pv + 4 + 4 * PolygonOffsetGeometryInterpolators(limit, clip, cull), limit);
      }
    }
  }
}

// The polygon-mode geometry shader (not baked: made per draw's modes) is valid GLSL for every
// pair of fills, with and without distances and vertex kill, in double and in float, and stays
// within the 12 vertices it declares.
TEST(PolygonModeGeometryShader, CompilesForEveryPairOfFills) {
  struct Distances {
    uint32_t clip, cull;
    bool kill;
  };
  const Distances variants[] = {{0, 0, false}, {3, 2, true}};
  for (uint32_t cw = 0; cw < 4; ++cw) {
    for (uint32_t ccw = 0; ccw < 4; ++ccw) {
      for (const Distances& d : variants) {
        PolygonModeShader s;
        s.clockwise = PolygonModeFill(cw);
        s.counter_clockwise = PolygonModeFill(ccw);
        s.passed_interpolators = GeometryShaderInterpolators(64u, d.clip, d.cull);
        s.clip_distances = d.clip;
        s.cull_distances = d.cull;
        s.kill_clip_distance = d.kill;
        s.float64 = cw != ccw;
        const std::string glsl = PolygonModeGeometryShaderGlsl(s);
        EXPECT_NE(glsl.find("max_vertices = 12"), std::string::npos);
        EXPECT_FALSE(CompileHostGlsl(glsl, VK_SHADER_STAGE_GEOMETRY_BIT, "gs").empty())
            << cw << " " << ccw;
      }
    }
  }
}

}  // namespace
}  // namespace xnt::vk
