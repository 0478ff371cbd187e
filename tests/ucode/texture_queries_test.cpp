// The texture unit's get/set instructions in the interpreters (ucode/texture_queries.h):
// getWeights' fractions, getCompTexLOD's lambda from a 2x2 quad, getGradients' layout, and the
// setTexLOD / setGradientH / setGradientV registers reaching fetches that use them. Every value
// worked by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "xnt/ucode/assembler.h"
#include "xnt/ucode/batch_interpreter.h"
#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/texture_queries.h"

namespace xnt::ucode {
namespace {

Shader PixelShader(const std::string& body, const std::string& exports = "    mov oC0, r1\n") {
  return Decode(Assemble("xps_3_0\n    exec\n" + body + "    alloc colors\n    exece\n" + exports,
                         nullptr, ShaderType::kPixel),
                ShaderType::kPixel);
}

ShaderResult RunPixel(const Shader& shader, const InterpreterCallbacks& cb, const Float4& r0,
                      const Float4& r1 = {}, const Float4& r2 = {}) {
  ShaderInputs in;
  in.interpolator_count = 3;
  in.interpolators[0] = r0;
  in.interpolators[1] = r1;
  in.interpolators[2] = r2;
  InterpreterConstants k;
  k.fetch_constants[3] = 0x688u << 1;  // tf0 swizzle XYZW
  k.fetch_constants[9] = 0x688u << 1;  // tf1
  return Interpreter(shader).Run(k, in, cb);
}

InterpreterCallbacks Sized(TextureQuerySize size) {
  InterpreterCallbacks cb;
  cb.texture_size = [size](uint32_t, const FetchInstruction&) { return size; };
  return cb;
}

// fract(texel coordinate + offset - 1/2) per fetched axis, w = 0.
TEST(TextureQueries, GetWeightsAreTheFractionsBetweenTexelCentres) {
  const InterpreterCallbacks cb = Sized({32.0f, 32.0f, 4.0f, true});
  const Float4 at{5.375f / 32.0f, 2.625f / 32.0f, 0.3f, 0.0f};
  // 5.375 - 0.5 = 4.875, 2.625 - 0.5 = 2.125.
  EXPECT_EQ(RunPixel(PixelShader("    getWeights2D r1, r0.xy, tf0\n"), cb, at).colors[0],
            (Float4{0.875f, 0.125f, 0.0f, 0.0f}));
  // Half-texel offsets move the fractions by one half: 5.375 and 1.625.
  EXPECT_EQ(RunPixel(PixelShader("    getWeights2D r1, r0.xy, tf0, OffsetX=0.5, OffsetY=-0.5\n"),
                     cb, at).colors[0],
            (Float4{0.375f, 0.625f, 0.0f, 0.0f}));
  // 1D: x only.
  EXPECT_EQ(RunPixel(PixelShader("    getWeights1D r1, r0.x, tf0\n"), cb, at).colors[0],
            (Float4{0.875f, 0.0f, 0.0f, 0.0f}));
  // 3D: z over the 4 slices, 0.3 * 4 - 0.5 = 0.7 (within the float rounding of 0.3 * 4).
  const Float4 w3 = RunPixel(PixelShader("    getWeights3D r1, r0.xyz, tf0\n"), cb, at).colors[0];
  EXPECT_EQ(w3[0], 0.875f);
  EXPECT_NEAR(w3[2], 0.7f, 1e-6f);
  // Unnormalised coordinates are texels already.
  const Float4 texels{5.375f, 2.625f, 0.0f, 0.0f};
  EXPECT_EQ(RunPixel(PixelShader("    getWeights2D r1, r0.xy, tf0, UnnormalizedTextureCoords=true\n"),
                     cb, texels).colors[0],
            (Float4{0.875f, 0.125f, 0.0f, 0.0f}));
  // Without a size the answer is zeros and a note.
  const ShaderResult none = RunPixel(PixelShader("    getWeights2D r1, r0.xy, tf0\n"), {}, at);
  EXPECT_EQ(none.colors[0], (Float4{0.0f, 0.0f, 0.0f, 0.0f}));
  EXPECT_EQ(none.notes.size(), 1u);
}

// One 2x2 quad through the batched interpreter: lanes (0,0) (1,0) (0,1) (1,1).
BatchInterpreter::Result RunQuad(const Shader& shader, const InterpreterCallbacks& cb,
                                 const std::array<Float4, 4>& r0) {
  BatchInterpreter batch(shader);
  EXPECT_TRUE(batch.unsupported().empty());
  BatchInterpreter::Inputs in;
  in.count = 4;
  in.interpolator_count = 1;
  in.quads = true;
  for (uint32_t l = 0; l < 4; ++l) {
    for (uint32_t c = 0; c < 4; ++c) in.interpolators[0][c][l] = r0[l][c];
  }
  InterpreterConstants k;
  k.fetch_constants[3] = 0x688u << 1;
  BatchInterpreter::Result out;
  EXPECT_TRUE(batch.Run(k, in, cb, out));
  return out;
}

TEST(TextureQueries, GetCompTexLodIsLog2OfTheLongerTexelGradient) {
  // u grows 1/8 per pixel along x, v 1/16 per pixel along y: on a 32x32 texture 4 and 2 texels,
  // lambda = log2(4) = 2, in every lane of the quad.
  const std::array<Float4, 4> uv = {Float4{0.0f, 0.0f, 0.0f, 0.0f}, {0.125f, 0.0f, 0.0f, 0.0f},
                                    {0.0f, 0.0625f, 0.0f, 0.0f}, {0.125f, 0.0625f, 0.0f, 0.0f}};
  const auto out = RunQuad(PixelShader("    getCompTexLOD2D r1, r0.xy, tf0\n"),
                           Sized({32.0f, 32.0f, 1.0f, false}), uv);
  for (uint32_t l = 0; l < 4; ++l) EXPECT_EQ(out.colors[l][0], (Float4{2.0f, 0.0f, 0.0f, 0.0f})) << l;
  // z alone grows 1/8 per pixel along x: 8 slices of a 64-deep volume, lambda 3; a stacked
  // texture's layer is not a filtered axis, so nothing moves (log2 0 = -inf).
  const std::array<Float4, 4> z = {Float4{0.5f, 0.5f, 0.0f, 0.0f}, {0.5f, 0.5f, 0.125f, 0.0f},
                                   {0.5f, 0.5f, 0.0f, 0.0f}, {0.5f, 0.5f, 0.125f, 0.0f}};
  const Shader lod3d = PixelShader("    getCompTexLOD3D r1, r0.xyz, tf0\n");
  EXPECT_EQ(RunQuad(lod3d, Sized({8.0f, 8.0f, 64.0f, true}), z).colors[0][0][0], 3.0f);
  EXPECT_EQ(RunQuad(lod3d, Sized({8.0f, 8.0f, 64.0f, false}), z).colors[0][0][0], -INFINITY);
  // The scalar interpreter has no quad: zeros and a note.
  const ShaderResult alone = RunPixel(PixelShader("    getCompTexLOD2D r1, r0.xy, tf0\n"),
                                      Sized({32.0f, 32.0f, 1.0f, false}), uv[1]);
  EXPECT_EQ(alone.colors[0], (Float4{0.0f, 0.0f, 0.0f, 0.0f}));
  EXPECT_EQ(alone.notes.size(), 1u);
}

TEST(TextureQueries, GetGradientsPutEachCoordinatesPairTogether) {
  // x = u + v and y = v with u = 1/64 per pixel in x and v = 1/64 per pixel in y:
  // (dx/dx, dx/dy, dy/dx, dy/dy) = (1/64, 1/64, 0, 1/64).
  const float s = 1.0f / 64.0f;
  const std::array<Float4, 4> r0 = {Float4{0.0f, 0.0f, 0.0f, 0.0f}, {s, 0.0f, 0.0f, 0.0f},
                                    {s, s, 0.0f, 0.0f}, {2 * s, s, 0.0f, 0.0f}};
  const auto out = RunQuad(PixelShader("    getGradients r1, r0.xy, tf0\n"), {}, r0);
  EXPECT_EQ(out.colors[3][0], (Float4{s, s, 0.0f, s}));
  EXPECT_EQ(TextureGradients({1, 2, 3, 4}, {5, 6, 7, 8}), (Float4{1, 5, 2, 6}));
}

// setTexLOD / setGradientH / setGradientV are per-pixel registers that UseRegisterLOD /
// UseRegisterGradients fetches (and fetches without computed LOD) take through
// texture_fetch_explicit; a plain pixel fetch keeps the implicit path.
TEST(TextureQueries, RegisterLodAndGradientsReachTheFetches) {
  const Shader shader = PixelShader(
      "    setTexLOD r0.z, tf0\n    setGradientH r1.xyz, tf0\n    setGradientV r2.xyz, tf0\n"
      "    tfetch2D r3, r0.xy, tf0, UseComputedLOD=false, UseRegisterLOD=true\n"
      "    tfetch2D r4, r0.xy, tf0, UseRegisterGradients=true\n"
      "    exec\n"
      "    tfetch2D r5, r0.xy, tf0, UseComputedLOD=false\n"
      "    tfetch2D r6, r0.xy, tf0\n",
      "    mov oC0, r3\n    mov oC1, r4\n    mov oC2, r5\n    mov oC3, r6\n");
  std::vector<TextureRegisters> seen;
  std::vector<bool> explicit_lod;
  InterpreterCallbacks cb;
  cb.texture_fetch = [&](uint32_t, const Float4&, const FetchInstruction&) {
    explicit_lod.push_back(false);
    return Float4{1.0f, 0.0f, 0.0f, 0.0f};
  };
  cb.texture_fetch_explicit = [&](uint32_t, const Float4&, const FetchInstruction& f,
                                  const TextureRegisters& r) {
    explicit_lod.push_back(true);
    seen.push_back(r);
    return Float4{2.0f, f.use_reg_lod ? 1.0f : 0.0f, f.use_reg_gradients ? 1.0f : 0.0f, 0.0f};
  };
  const ShaderResult r = RunPixel(shader, cb, {0.25f, 0.5f, 1.75f, 0.0f}, {0.5f, -1.0f, 2.0f, 9.0f},
                                  {3.0f, 4.0f, -5.0f, 9.0f});
  ASSERT_EQ(explicit_lod, (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(seen[0].lod, 1.75f);
  EXPECT_EQ(seen[1].grad_h, (Float4{0.5f, -1.0f, 2.0f, 0.0f}));
  EXPECT_EQ(seen[1].grad_v, (Float4{3.0f, 4.0f, -5.0f, 0.0f}));
  EXPECT_EQ(r.colors[0], (Float4{2.0f, 1.0f, 0.0f, 0.0f}));
  EXPECT_EQ(r.colors[1], (Float4{2.0f, 0.0f, 1.0f, 0.0f}));
  EXPECT_EQ(r.colors[3], (Float4{1.0f, 0.0f, 0.0f, 0.0f}));
  EXPECT_TRUE(FetchHasExplicitLod(FetchInstruction{}, false));  // vertex shaders: level 0
  EXPECT_FALSE(FetchHasExplicitLod(FetchInstruction{}, true));
}

// The batched interpreter keeps the registers per lane.
TEST(TextureQueries, BatchedRegisterLodIsPerLane) {
  const Shader shader = PixelShader(
      "    setTexLOD r0.z, tf0\n"
      "    tfetch2D r1, r0.xy, tf0, UseComputedLOD=false, UseRegisterLOD=true\n");
  InterpreterCallbacks cb;
  cb.texture_fetch_explicit = [](uint32_t, const Float4&, const FetchInstruction&,
                                 const TextureRegisters& r) { return Float4{r.lod, 0, 0, 0}; };
  const std::array<Float4, 4> r0 = {Float4{0, 0, 0.5f, 0}, {0, 0, 1.5f, 0}, {0, 0, 2.5f, 0},
                                    {0, 0, 3.5f, 0}};
  const auto out = RunQuad(shader, cb, r0);
  for (uint32_t l = 0; l < 4; ++l) EXPECT_EQ(out.colors[l][0][0], 0.5f + float(l)) << l;
}

}  // namespace
}  // namespace xnt::ucode
