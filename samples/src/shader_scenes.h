// A "shader scene": like flat_scene.h (resolve-clear, draws, resolve to a tiled front buffer,
// swap), but with any vertex/pixel shader pair, vertex data, and per-draw float/bool/loop
// constants. The expected image runs both shaders on the CPU with the microcode interpreter
// (xnt/ucode/interpreter.h): the vertex shader per vertex, the pixel shader per covered pixel with
// the interpolators evaluated at the pixel.
//
// Exactness rules, checked by ExpectedShaderScene (it throws naming the pixel when a scene breaks
// one): coverage must not depend on the pixel-centre convention (D3D9 integer centres vs. +0.5)
// nor sit within 1/64 pixel of an outer edge, as in flat_scene.h; the 8-bit colour of a pixel
// must be the same at both conventions and for every triangle of the draw that touches the
// pixel; and no channel may land within 0.02 of a rounding tie (x.5 / 255), so float differences
// of a few ulps between the GPU and the CPU cannot change a byte.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "xnt/format/writer.h"
#include "xnt/samples/samples.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/interpreter.h"
#include "xnt/xenos/enums.h"

namespace xnt::samples {

struct ShaderDraw {
  xenos::PrimitiveType primitive = xenos::PrimitiveType::kTriangleList;
  // The vertex buffer as host-order dwords; stored big-endian and fetched with k8in32.
  std::vector<uint32_t> vertex_words;
  uint32_t vertex_count = 0;      // auto-indexed draws
  std::vector<uint16_t> indices;  // non-empty: DMA 16-bit big-endian indices (k8in16)
  // Non-empty (and `indices` empty): DMA 32-bit big-endian indices (k8in32), e.g. the float32
  // edge factors of an adaptive tessellated draw.
  std::vector<uint32_t> indices32;
  // VGT_DRAW_INITIATOR major_mode explicit (a tessellated draw of a list type needs it; types
  // from 0x10 imply it). DMA-indexed draws only.
  bool explicit_major_mode = false;
  // Set before this draw (and kept for later draws, as register state is).
  std::vector<std::pair<uint32_t, ucode::Float4>> vs_constants;  // c# of the vertex shader
  std::vector<std::pair<uint32_t, ucode::Float4>> ps_constants;  // c# of the pixel shader
  std::optional<std::array<uint32_t, 8>> bool_constants;
  std::vector<std::pair<uint32_t, uint32_t>> loop_constants;     // i# -> value
  // Register writes (index, value) before this draw, kept for later draws. The generic expected
  // image ignores them: scenes that use them give a hand-worked image.
  std::vector<std::pair<uint32_t, uint32_t>> register_writes;
};

// A k_8_8_8_8 linear texture bound to texture fetch constant `slot` (32-texel pitch, clamp to
// the last texel, point filtering from the fetch constant). The expected image samples it the way
// Vulkan's nearest filter does: texel floor(u * width), clamped; scenes keep every pixel's
// coordinate well inside a texel (both pixel-centre conventions), so no filter rounding matters.
struct SceneTexture {
  uint32_t slot = 0;
  uint32_t width = 0, height = 0;  // at most 32 x 32
  std::vector<uint32_t> texels;    // row-major, R | G << 8 | B << 16 | A << 24
};

struct ShaderScene {
  uint32_t width = 320, height = 240;
  std::array<uint8_t, 4> clear_rgba{};
  std::vector<uint32_t> vs_microcode, ps_microcode;  // host order
  uint32_t vs_registers = 4, ps_registers = 4;
  uint32_t vs_exports = 1;         // interpolators the VS writes (PS inputs r0..)
  uint32_t vertex_fetch_slot = 95; // the fetch constant the VS's vfetch uses
  std::vector<ShaderDraw> draws;
  std::vector<SceneTexture> textures;  // bound before the first draw
};

void AuthorShaderScene(const ShaderScene& scene, format::Writer& writer);
Image ExpectedShaderScene(const ShaderScene& scene);

Sample ShaderSceneSample(std::string name, std::string description, std::string expected,
                         ShaderScene scene);

// Registry entries (shader_scenes_samples.cpp, corpus_scenes.cpp).
std::vector<Sample> ShaderSceneSamples();
// memexport_* (memexport_samples.cpp).
std::vector<Sample> MemExportSamples();
// tess_* (tess_samples.cpp): tessellated draws.
std::vector<Sample> TessellationSamples();
// The corpus_* samples when the shader corpus is present in `corpus_dir`; empty otherwise
// (CorpusStatus() says where it was looked for).
std::vector<Sample> CorpusSamples(const std::string& corpus_dir);
// "found at DIR" or "not found at DIR (and how to point at it)".
std::string CorpusStatus(const std::string& corpus_dir = DefaultCorpusDir());
bool CorpusPresent(const std::string& corpus_dir = DefaultCorpusDir());

// Helpers for scene authors.
uint32_t FloatBits(float f);
// Clip-space coordinate of screen pixel coordinate `x` / `y` in a width x height target.
float ClipX(float x, uint32_t width);
float ClipY(float y, uint32_t height);

}  // namespace xnt::samples
