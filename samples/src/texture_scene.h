// A "textured scene": quads that each point-sample one guest texture 1:1 onto the screen, then a
// resolve into a 32x32-tiled front buffer and a swap (the programming model of flat_scene.h).
// Used by the textures_many_formats sample and by tests/renderer/texture/draw_test.cpp, which
// compute the expected pixels from their own CPU decoders.
//
// Each quad covers [x, x + width) x [y, y + height) with its edges at k + 0.75 (so both pixel
// centre conventions land inside), and its texture coordinates put pixel (x + i, y + j) inside
// texel (i, j) at either convention: point sampling reads exactly that texel. A scene may put
// them at k + 0.625 instead (`edge_inset`), which also keeps texel boundaries off host pixel
// centres at a resolution scale.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "xnt/format/writer.h"
#include "xnt/samples/samples.h"

namespace xnt::samples {

// k2DLod: setTexLOD from the third coordinate, then tfetch2D with UseRegisterLOD (textureLod).
enum class TexturedQuadFetch { k1D, k2D, k3D, kCube, k2DLod };
inline constexpr uint32_t kTexturedQuadFetchKinds = 5;

struct TexturedQuad {
  uint32_t x = 0, y = 0, width = 0, height = 0;  // pixels; width/height = texels sampled
  std::array<uint32_t, 6> fetch{};               // texture fetch constant (slot 0)
  TexturedQuadFetch op = TexturedQuadFetch::k2D;
  // Third coordinate of every vertex: the stack layer's normalised z ((layer + 0.5) / depth) for
  // a 3D fetch of a stacked texture, the face index for a cube fetch, the LOD for k2DLod.
  float z = 0.0f;
  // Texture size the coordinates are normalised by (0: width/height above).
  uint32_t texture_width = 0, texture_height = 0;
  // Coordinates in texels instead of 0..1 (for UnnormalizedTextureCoords fetches).
  bool unnormalized = false;
  // Every vertex gets this coordinate instead (queries at a known position).
  bool fixed_coord = false;
  std::array<float, 3> coord{};
  // A pixel shader (XDK listing) replacing TexturedPixelShader(op); it receives the coordinate
  // in r0.xyz and must write oC0.
  std::string pixel_shader;
  // A vertex shader replacing kTexturedVertexShader (same vertex layout: float2 position, float3
  // coordinate, stride 5; at most 3 registers); it must export o0 for the pixel shader.
  std::string vertex_shader;
  // Pixel-shader constants c0.. (float constants 256.. with D3D's 256/256 split), set before
  // this quad's draw.
  std::vector<float> ps_constants;
};

struct TexturedScene {
  uint32_t width = 320, height = 240;
  // How far before its first pixel a quad's edges (and so its texel boundaries) lie. 0.25 puts
  // them at k + 0.75; the Direct3D half-pixel offset the scene sets (PA_SU_VTX_CNTL pix_center
  // = 0 adds 0.5, gpu/viewport.h) moves them to k + 0.25, which at a 2x resolution scale is
  // 2k + 0.5 host pixels: exactly on host pixel centres, where point sampling may pick either
  // texel (implementation-defined within 2^-8 texel; docs/compare.md). 0.375 puts them at
  // k + 0.625, moved to k + 0.125: S k + S/8 host pixels, 3/8, 1/4 and 1/8 of a host pixel
  // (0.375, 0.125 and 0.042 texel of a 1:1 texture, all above 2^-8) from the nearest host pixel
  // centre at S = 1, 2, 3 per axis; the quad's first pixel is still the same at either centre
  // convention.
  float edge_inset = 0.25f;
  std::array<uint8_t, 4> clear_rgba{};
  // Guest memory the textures live in (written as GPU-read memory before the submission).
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> memory;
  std::vector<TexturedQuad> quads;
};

void AuthorTexturedScene(const TexturedScene& scene, format::Writer& writer);

// The texture samples for the registry (texture_many_formats.cpp): textures_many_formats.
std::vector<Sample> TextureSamples();
// The texture get/set instruction samples (texfetch_samples.cpp).
std::vector<Sample> TexFetchSamples();
// texfetch_aniso_scene.cpp: texfetch_aniso_lod.
std::vector<Sample> TexFetchAnisoSamples();

// The shaders (XDK listing syntax): position + xyz texture coordinate passthrough, and one pixel
// shader per fetch dimension that writes the fetched texel to oC0.
extern const char* const kTexturedVertexShader;
std::string TexturedPixelShader(TexturedQuadFetch op);

// Where the scene's own data lives (textures must stay clear of these).
inline constexpr uint32_t kTexturedRingAddress = 0x00080000;
inline constexpr uint32_t kTexturedVertexAddress = 0x00100000;  // 4 KiB per quad
inline constexpr uint32_t kTexturedResolveVertexAddress = 0x00070000;
inline constexpr uint32_t kTexturedScratchAddress = 0x00300000;
inline constexpr uint32_t kTexturedFrontBufferAddress = 0x00200000;
inline constexpr uint32_t kTexturedFirstTextureAddress = 0x01000000;

}  // namespace xnt::samples
