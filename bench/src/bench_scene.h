// What `bench render` and `bench replay` draw with: samples' position + texture-coordinate vertex
// shader, rectangles of that vertex layout, and one hashed-colour texture, so the two benchmarks
// measure the same geometry and sampling work.
#pragma once

#include <cstdint>
#include <vector>

#include "sample_shaders.h"
#include "shader_scenes.h"

namespace xnt::bench {

// One vertex of samples::kPositionTexcoordVertexShader's layout: pixel (x, y) of a width x height
// target as clip-space x, y, then the texture coordinate (u, v).
inline void AddVertex(std::vector<uint32_t>& words, float x, float y, float u, float v,
                      uint32_t width, uint32_t height) {
  words.push_back(samples::FloatBits(samples::ClipX(x, width)));
  words.push_back(samples::FloatBits(samples::ClipY(y, height)));
  words.push_back(samples::FloatBits(u));
  words.push_back(samples::FloatBits(v));
}

// The rectangle (x0, y0)-(x1, y1) as two triangles, the texture coordinate 0..1 across it.
inline void AddTexturedRect(std::vector<uint32_t>& words, float x0, float y0, float x1, float y1,
                            uint32_t width, uint32_t height) {
  const float px[4] = {x0, x1, x0, x1}, py[4] = {y0, y0, y1, y1};
  const float u[4] = {0.0f, 1.0f, 0.0f, 1.0f}, v[4] = {0.0f, 0.0f, 1.0f, 1.0f};
  for (int k : {0, 1, 2, 2, 1, 3}) AddVertex(words, px[k], py[k], u[k], v[k], width, height);
}

// A 32x32 opaque texture in fetch slot 0 whose texels are a multiplicative hash of their index,
// so neighbouring texels differ and filtering cannot be skipped.
inline samples::SceneTexture HashedTexture() {
  samples::SceneTexture t;
  t.slot = 0;
  t.width = t.height = 32;
  for (uint32_t i = 0; i < 32 * 32; ++i) t.texels.push_back(0xFF000000u | (i * 2654435761u >> 8));
  return t;
}

}  // namespace xnt::bench
