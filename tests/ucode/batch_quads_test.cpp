// The batched interpreter's 2x2 quads: getGradients returns the quad's coarse derivatives (x from
// its top pair, y from its left pair) of the swizzled coordinates as (d/dx x, d/dy x, d/dx y,
// d/dy y), and texture fetches receive the
// same derivatives; helper lanes feed them without counting as results; a BatchTextureSource
// samples the whole batch in one call. Values worked by hand.
#include <gtest/gtest.h>

#include "xnt/ucode/assembler.h"
#include "xnt/ucode/batch_interpreter.h"

namespace xnt::ucode {
namespace {

TEST(BatchQuads, GetGradientsAndFetchDerivativesComeFromTheQuad) {
  const Shader shader = Decode(Assemble(R"(xps_3_0
    exec
    getGradients r1, r0.xy, tf0
    tfetch2D r2, r0.xy, tf0
    alloc colors
    exec
    mov oC0, r1
    exece
    mov oC1, r2
)", nullptr, ShaderType::kPixel), ShaderType::kPixel);
  BatchInterpreter batch(shader);
  ASSERT_TRUE(batch.unsupported().empty());
  BatchInterpreter::Inputs in;
  in.count = 8;
  in.interpolator_count = 1;
  in.quads = true;
  // Quad 0: u = 0.5 + 0.25 x + 2 y, v = 3 x - 1 y over pixels (0,0) (1,0) (0,1) (1,1); its lane 3
  // is a helper. Quad 1: u constant 7, v = x * x (a non-linear v: only the coarse pairs count).
  const float u0[4] = {0.5f, 0.75f, 2.5f, 2.75f}, v0[4] = {0.0f, 3.0f, -1.0f, 2.0f};
  const float u1[4] = {7.0f, 7.0f, 7.0f, 7.0f}, v1[4] = {0.0f, 1.0f, 0.0f, 1.0f};
  for (uint32_t l = 0; l < 4; ++l) {
    in.interpolators[0][0][l] = u0[l], in.interpolators[0][1][l] = v0[l];
    in.interpolators[0][0][4 + l] = u1[l], in.interpolators[0][1][4 + l] = v1[l];
  }
  in.helper[3] = 1;
  std::vector<std::array<Float4, 2>> seen;  // ddx, ddy per fetch
  InterpreterCallbacks cb;
  cb.texture_fetch = [](uint32_t, const Float4&, const FetchInstruction&) {
    ADD_FAILURE() << "a quad fetch went without derivatives";
    return Float4{};
  };
  cb.texture_fetch_gradients = [&](uint32_t, const Float4& c, const FetchInstruction&,
                                   const Float4& ddx, const Float4& ddy) {
    seen.push_back({ddx, ddy});
    return Float4{c[0], c[1], 0.0f, 1.0f};
  };
  BatchInterpreter::Result out;
  InterpreterConstants k;
  k.fetch_constants[3] = 0x688u << 1;  // tf0 swizzle XYZW
  ASSERT_TRUE(batch.Run(k, in, cb, out));
  // Quad 0: du/dx = 0.25, du/dy = 2, dv/dx = 3, dv/dy = -1 (laid out (du/dx, du/dy, dv/dx,
  // dv/dy)), the same in all four lanes.
  for (uint32_t l = 0; l < 4; ++l) {
    EXPECT_EQ(out.colors[l][0], (Float4{0.25f, 2.0f, 3.0f, -1.0f})) << l;
  }
  // Quad 1: du = 0, dv/dx = 1, dv/dy = 0.
  EXPECT_EQ(out.colors[6][0], (Float4{0.0f, 0.0f, 1.0f, 0.0f}));
  // Eight fetches (the helper too), each with its quad's derivatives of u and v.
  ASSERT_EQ(seen.size(), 8u);
  EXPECT_EQ(seen[2][0][0], 0.25f);
  EXPECT_EQ(seen[2][0][1], 3.0f);
  EXPECT_EQ(seen[2][1][0], 2.0f);
  EXPECT_EQ(seen[2][1][1], -1.0f);
  EXPECT_EQ(seen[5][0][0], 0.0f);
  EXPECT_EQ(seen[5][0][1], 1.0f);
  EXPECT_EQ(seen[5][1][1], 0.0f);
  EXPECT_EQ(out.colors[1][1], (Float4{0.75f, 3.0f, 0.0f, 1.0f}));
}

// A BatchTextureSource gets the whole batch in one call: the fetch's x, y, z per lane, the lanes
// to sample (here a predicated fetch runs only where p0 is set), the quads flag; its texels go
// through the fetch constant's swizzle and then the instruction's destination swizzle.
TEST(BatchQuads, BatchTextureSourceGetsTheBatchAndItsTexelsAreSwizzled) {
  const Shader shader = Decode(Assemble(R"(xps_3_0
    exec
    setp_gt r3.x, r0.x
    alloc colors
    exec
    (p0) tfetch2D r2.yx1_, r0.xyz, tf0
    exece
    mov oC0, r2
)", nullptr, ShaderType::kPixel), ShaderType::kPixel);
  BatchInterpreter batch(shader);
  ASSERT_TRUE(batch.unsupported().empty());
  struct Source : BatchTextureSource {
    uint32_t calls = 0, slot = 99, active_count = 0;
    bool quads = false;
    std::array<float, 4> z{};
    void FetchBatch(uint32_t s, const FetchInstruction&, const std::array<const float*, 3>& c,
                    const uint32_t* active, uint32_t lanes, bool q, Float4* texels) override {
      ++calls, slot = s, quads = q;
      for (uint32_t l = 0; l < lanes; ++l) {
        if (l < 4) z[l] = c[2][l];
        if (!active[l]) continue;
        ++active_count;
        // Texel (x + 10, y + 20, 0.5, 0.25).
        texels[l] = {c[0][l] + 10.0f, c[1][l] + 20.0f, 0.5f, 0.25f};
      }
    }
  } source;
  BatchInterpreter::Inputs in;
  in.count = 4;
  in.interpolator_count = 1;
  in.quads = true;
  in.textures = &source;
  // x = -1, 1, 2, -3: p0 (x > 0) on lanes 1 and 2 only; y = 4 l; z = 100 + l.
  const float x[4] = {-1.0f, 1.0f, 2.0f, -3.0f};
  for (uint32_t l = 0; l < 4; ++l) {
    in.interpolators[0][0][l] = x[l];
    in.interpolators[0][1][l] = 4.0f * float(l);
    in.interpolators[0][2][l] = 100.0f + float(l);
  }
  InterpreterCallbacks cb;
  cb.texture_fetch = [](uint32_t, const Float4&, const FetchInstruction&) {
    ADD_FAILURE() << "a per-lane fetch with a batch source set";
    return Float4{};
  };
  BatchInterpreter::Result out;
  InterpreterConstants k;
  // tf0's swizzle (dword 3 bits 1..12): x <- Z, y <- X, z <- one, w <- W (2, 0, 5, 3).
  k.fetch_constants[3] = (2u | (0u << 3) | (5u << 6) | (3u << 9)) << 1;
  ASSERT_TRUE(batch.Run(k, in, cb, out));
  EXPECT_EQ(source.calls, 1u);
  EXPECT_EQ(source.slot, 0u);
  EXPECT_TRUE(source.quads);
  EXPECT_EQ(source.active_count, 2u);
  EXPECT_EQ(source.z, (std::array<float, 4>{100.0f, 101.0f, 102.0f, 103.0f}));
  // Lane 1: texel (11, 24, 0.5, 0.25) -> fetch constant swizzle (0.5, 11, 1, 0.25) -> destination
  // .yx1_ (11, 0.5, 1, kept 0): r2 = (11, 0.5, 1, 0).
  EXPECT_EQ(out.colors[1][0], (Float4{11.0f, 0.5f, 1.0f, 0.0f}));
  // Lane 2: texel (12, 28, ...) -> (12, 0.5, 1, 0).
  EXPECT_EQ(out.colors[2][0], (Float4{12.0f, 0.5f, 1.0f, 0.0f}));
  // Lanes 0 and 3 did not fetch: r2 stays 0.
  EXPECT_EQ(out.colors[0][0], (Float4{0.0f, 0.0f, 0.0f, 0.0f}));
  EXPECT_EQ(out.colors[3][0], (Float4{0.0f, 0.0f, 0.0f, 0.0f}));
}

}  // namespace
}  // namespace xnt::ucode
