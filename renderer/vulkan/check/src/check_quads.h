// translate --check over 2x2 pixel quads (TranslateCheckOptions::quads): each quad's interpolants
// are planes (value = a + b * dx + c * dy over the quad's pixels), drawn on the device as
// triangles the rasterizer interpolates, so the translated shader's coarse derivatives, the host
// sampler's implicit LOD and helper pixels are those of a real draw; the interpreter shades the
// same quads the way the cpu path's pixel stage does (BatchInterpreter with quads, coarse
// derivatives from the quad's top and left pairs).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "xnt/ucode/batch_interpreter.h"
#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/ucode.h"

namespace xnt::vk::check {

// At most 1,024 lanes (256 quads, 16 rows of the 64-wide grid): a plane's value at any pixel
// of that grid needs at most about 20 significant bits (below), so any rasterizer's evaluation
// of it is exact and both sides see the same interpolants.
inline constexpr uint32_t kMaxQuadLanes = 1024;
inline constexpr uint32_t kQuadsPerRow = 32;

// Lane l is pixel (l % 4 & 1, l % 4 >> 1) of quad l / 4; quad q's top-left pixel is
// (2 (q % 32), 2 (q / 32)). The grid pixel index (x + 64 y) of a lane:
inline uint32_t QuadLanePixel(uint32_t lane) {
  const uint32_t q = lane / 4, i = lane % 4;
  return 2 * (q % kQuadsPerRow) + (i & 1) + 64 * (2 * (q / kQuadsPerRow) + (i >> 1));
}

struct QuadInputs {
  std::vector<ucode::ShaderInputs> lanes;  // every lane, helpers included
  std::vector<uint8_t> helper;             // 1: the primitive does not cover the pixel
  std::vector<uint32_t> vertices;          // triangle list, 17 x 4 words per vertex (quads.vert)
  uint32_t rows = 0;                       // grid rows the quads use
};

// Random planes per quad and interpolator component, from `seed`: a = k/64 (|k| <= 1000); b and
// c (the per-pixel steps along x and y) zero, tiny (m 2^-9..2^-7), moderate (m 2^-6..2^-3),
// large (m 2^-2..2^2), m in +-1..7, with either one large and the other tiny or zero (an
// anisotropic footprint) one quad in eight. Coverage: all four pixels five times in eight, three
// (one helper) two times in eight, one (three helpers) once; each covered pixel is its own
// square of two triangles, whose corners carry the plane (so every pixel, helper or not, has the
// plane's value). `lanes` is a multiple of 4, at most kMaxQuadLanes.
QuadInputs MakeQuadInputs(uint64_t seed, uint32_t lanes, uint32_t interpolator_count);

// Whether the shader's results depend on its quad's derivatives: getGradients, getCompTexLOD or
// a pixel-shader texture fetch with an implicit LOD.
bool UsesDerivatives(const ucode::Shader& shader);

// The batch interpreter's texture source over quads: samples through the callbacks as the
// interpreter would (texture_fetch_gradients with the quad's coarse derivatives), and for each
// fetch `per_lane` names (TextureFetchRule's Value::per_lane: the translated shader picks the
// texel itself only where its own log2 of the derivatives says the fetch magnifies) marks the
// lanes whose magnification the two sides may decide differently: lambda = log2 of the longer
// texel-space derivative + the fetch constant's and the instruction's LOD biases within 1/16 of
// 0 (host sqrt/log2, and a coordinate's rounding before the host differentiates it), NaN (GLSL's
// max of a NaN is undefined), or above it (minified: the host sampler's level and float texel);
// also lanes whose coordinates exceed 2^12 texels (their rounding moves the derivatives).
class LodLanes final : public ucode::BatchTextureSource {
 public:
  LodLanes(const ucode::InterpreterCallbacks& callbacks, const uint32_t* fetch_constants,
           std::function<bool(const ucode::FetchInstruction&)> per_lane, uint32_t lanes)
      : cb_(callbacks), fetch_constants_(fetch_constants), per_lane_(std::move(per_lane)),
        uncertain_(lanes, 0) {}
  void SetFirstLane(uint32_t first) { first_ = first; }
  void FetchBatch(uint32_t slot, const ucode::FetchInstruction& f, const std::array<const float*, 3>& coords,
                  const uint32_t* active, uint32_t lanes, bool quads, ucode::Float4* texels) override;
  // 1: some per-lane fetch of the lane may not magnify alike on both sides.
  const std::vector<uint8_t>& uncertain() const { return uncertain_; }

 private:
  const ucode::InterpreterCallbacks& cb_;
  const uint32_t* fetch_constants_;
  std::function<bool(const ucode::FetchInstruction&)> per_lane_;
  std::vector<uint8_t> uncertain_;
  uint32_t first_ = 0;
};

// The interpreter over the quads as the cpu path's pixel stage shades them: batches of 32 lanes
// with quads; a batch whose control flow diverges again quad by quad; a quad that diverges
// itself (or a shader the batch interpreter does not run: memexport, vertex fetches) pixel by
// pixel through `scalar` (no derivatives: getGradients / getCompTexLOD give zeros, implicit LOD
// level 0). Helper lanes' results stay default. `per_pixel[l]` is set for lanes shaded alone.
std::vector<ucode::ShaderResult> RunQuads(
    const ucode::Shader& shader, const ucode::InterpreterConstants& constants,
    const QuadInputs& inputs, const ucode::InterpreterCallbacks& callbacks, LodLanes& textures,
    const std::function<ucode::ShaderResult(uint32_t lane)>& scalar, std::vector<uint8_t>& per_pixel);

}  // namespace xnt::vk::check
