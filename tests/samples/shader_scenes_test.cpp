// The shader-scene samples (rectangle_list, predicated_shader, looping_shader, corpus_*): their
// CPU-interpreted expected images hold the colours worked out by hand from the shaders at chosen
// pixels (renderer_samples_test then compares every pixel with lavapipe's replay), and the
// exactness checks reject scenes that would depend on rounding or the rasterisation convention.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "../../samples/src/shader_scenes.h"
#include "xnt/base/error.h"
#include "xnt/samples/samples.h"
#include "xnt/ucode/assembler.h"
#include "prerequisite.h"

namespace xnt::samples {
namespace {

using Rgba = std::array<int, 4>;

Rgba Pixel(const Image& img, uint32_t x, uint32_t y) {
  const size_t i = (size_t(y) * img.width + x) * 4;
  return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]};
}

Image Expected(const std::string& name) {
  const Sample* s = Find(name);
  if (!s) throw Error("no sample " + name);
  return s->expected_image();
}

TEST(ShaderScenes, RectangleListHasTheDerivedFourthCorners) {
  const Image img = Expected("rectangle_list");
  EXPECT_EQ(Pixel(img, 10, 10), (Rgba{0x20, 0x20, 0x20, 255}));
  EXPECT_EQ(Pixel(img, 21, 21), (Rgba{220, 40, 40, 255}));
  EXPECT_EQ(Pixel(img, 140, 21), (Rgba{220, 40, 40, 255}));   // corner derived: v1 + v2 - v0
  EXPECT_EQ(Pixel(img, 141, 21), (Rgba{0x20, 0x20, 0x20, 255}));
  EXPECT_EQ(Pixel(img, 161, 80), (Rgba{40, 200, 80, 255}));   // derived: v0 + v2 - v1
  EXPECT_EQ(Pixel(img, 160, 80), (Rgba{0x20, 0x20, 0x20, 255}));
  EXPECT_EQ(Pixel(img, 21, 121), (Rgba{50, 90, 230, 255}));   // derived: v0 + v1 - v2
  EXPECT_EQ(Pixel(img, 130, 200), (Rgba{50, 90, 230, 255}));
  EXPECT_EQ(Pixel(img, 130, 90), (Rgba{240, 210, 30, 255}));  // yellow over red
  EXPECT_EQ(Pixel(img, 220, 180), (Rgba{240, 210, 30, 255}));
  EXPECT_EQ(Pixel(img, 221, 180), (Rgba{0x20, 0x20, 0x20, 255}));
}

TEST(ShaderScenes, PredicatedShaderPicksColoursByPredicateBoolAndKill) {
  const Image img = Expected("predicated_shader");
  EXPECT_EQ(Pixel(img, 60, 60), (Rgba{100, 30, 20, 255}));    // p0: c1 * (0.5, 0.5, 1)
  EXPECT_EQ(Pixel(img, 160, 60), (Rgba{30, 90, 210, 255}));   // !p0: c2
  EXPECT_EQ(Pixel(img, 260, 60), (Rgba{120, 80, 40, 255}));   // p0 + b1: (c1 + c3) * c4
  EXPECT_EQ(Pixel(img, 60, 170), (Rgba{0x10, 0x30, 0x30, 255}));  // killed
  EXPECT_EQ(Pixel(img, 160, 170), (Rgba{70, 190, 230, 255}));  // !p0 + b1: c2 + c3
  EXPECT_EQ(Pixel(img, 260, 170), (Rgba{100, 30, 20, 255}));
}

TEST(ShaderScenes, LoopingShaderDisplacesAndAccumulates) {
  const Image img = Expected("looping_shader");
  const Rgba colors[5] = {{60, 40, 20, 255}, {170, 140, 40, 255}, {110, 100, 20, 255},
                          {200, 170, 140, 255}, {140, 130, 120, 255}};
  for (uint32_t n = 0; n < 5; ++n) {
    SCOPED_TRACE(n);
    EXPECT_EQ(Pixel(img, 11 + 60 * n, 11 + 30 * n), colors[n]);
    EXPECT_EQ(Pixel(img, 60 + 60 * n, 50 + 30 * n), colors[n]);
    EXPECT_EQ(Pixel(img, 61 + 60 * n, 50 + 30 * n), (Rgba{0, 0, 0, 255}));
  }
}

TEST(ShaderScenes, CorpusSamplesAreRegisteredWhenTheCorpusIsPresent) {
  const std::string status = CorpusStatus();
  if (!CorpusPresent()) {
    EXPECT_EQ(Find("corpus_vs20pos22d360"), nullptr);
    XNT_MISSING_PREREQUISITE() << status;
  }
  EXPECT_NE(status.find("found at"), std::string::npos);
  Image img = Expected("corpus_vs20pos22d360");
  EXPECT_EQ(Pixel(img, 80, 60), (Rgba{230, 120, 30, 255}));
  EXPECT_EQ(Pixel(img, 235, 115), (Rgba{40, 170, 90, 255}));
  EXPECT_EQ(Pixel(img, 100, 200), (Rgba{120, 60, 200, 255}));
  EXPECT_EQ(Pixel(img, 10, 10), (Rgba{0x18, 0x18, 0x28, 255}));
  for (const char* name : {"corpus_vs20sprite2d360", "corpus_vs20pos2tex2clr42d360"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(Expected(name).rgba, img.rgba);  // same placements, other vertex layouts
  }
  // Textured pairs: texel (0, 0) = (32, 32, 224) at the strip's first pixel, texel (3, 3) =
  // (224, 224, 32) at its last; times Color (1, 0.5, 0.25, 1) or the vertex colour (1, 0.6, 0.2).
  img = Expected("corpus_vs20sprite2d360_pstexture360");
  EXPECT_EQ(Pixel(img, 21, 21), (Rgba{32, 32, 224, 255}));
  EXPECT_EQ(Pixel(img, 140, 100), (Rgba{224, 224, 32, 255}));
  EXPECT_EQ(Pixel(img, 51, 21), (Rgba{96, 32, 192, 255}));  // texel (1, 0): 30 px per texel
  img = Expected("corpus_vs20sprite2d360_pstexturecolor360");
  EXPECT_EQ(Pixel(img, 21, 21), (Rgba{32, 16, 56, 255}));
  img = Expected("corpus_vs20pos2tex2clr42d360_pstex2clr4360");
  EXPECT_EQ(Pixel(img, 21, 21), (Rgba{32, 19, 45, 255}));  // 32 * 0.6 = 19.2, 224 * 0.2 = 44.8
  img = Expected("corpus_vsstaticposition360");
  EXPECT_EQ(Pixel(img, 50, 100), (Rgba{250, 200, 40, 255}));
  EXPECT_EQ(Pixel(img, 100, 50), (Rgba{0x30, 0x30, 0x30, 255}));
  EXPECT_EQ(Pixel(img, 200, 100), (Rgba{60, 120, 240, 255}));
  EXPECT_EQ(Pixel(img, 290, 200), (Rgba{60, 120, 240, 255}));
}

ShaderScene OneQuad(float x0, float y0, float x1, float y1, float red) {
  ShaderScene s;
  s.vs_microcode = ucode::AssembleShader(R"(xvs_3_0
    exec
    vfetch_full r1.xy__, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=2
    alloc position
    exec
    mov oPos.xy01, r1.xy
    alloc interpolators
    exece
    mov o0, c0
)").microcode;
  s.ps_microcode = ucode::AssembleShader("xps_3_0\n    alloc colors\n    exece\n    mov oC0, c0\n")
                       .microcode;
  ShaderDraw d;
  d.primitive = xenos::PrimitiveType::kQuadList;
  for (auto [x, y] : {std::pair{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}) {
    d.vertex_words.push_back(FloatBits(ClipX(x, s.width)));
    d.vertex_words.push_back(FloatBits(ClipY(y, s.height)));
  }
  d.vertex_count = 4;
  d.ps_constants = {{0, {red, 0.0f, 0.0f, 1.0f}}};
  s.draws.push_back(d);
  return s;
}

TEST(ShaderScenes, ExactnessChecksRejectFragileScenes) {
  EXPECT_NO_THROW(ExpectedShaderScene(OneQuad(10.75f, 10.75f, 50.75f, 50.75f, 100.0f / 255)));
  // 0.5 * 255 = 127.5: a rounding tie.
  EXPECT_THROW(ExpectedShaderScene(OneQuad(10.75f, 10.75f, 50.75f, 50.75f, 0.5f)), Error);
  // An edge at x = 10.5 puts pixel centres (D3D9 convention) on it.
  EXPECT_THROW(ExpectedShaderScene(OneQuad(10.5f, 10.75f, 50.75f, 50.75f, 100.0f / 255)), Error);
}

}  // namespace
}  // namespace xnt::samples
