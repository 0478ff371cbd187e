// Bilinear filtering from texelFetch'd texels, operation for operation as the cpu path's texture
// unit does it (renderer/cpu/src/texture_unit.cpp: Address, TexelAt, Filter), so the filtered
// value is the same float on any driver. A host sampler weighs and blends its own way: Vulkan
// requires only subTexelPrecisionBits (at least 4) of the weights, texture units use fixed
// point, and an infinity beside a finite texel may stay infinite where the cpu path's
// t0 + (t1 - t0) w gives NaN (lavapipe does; tests/renderer/fsi/fsi_bilinear_test.cpp).
#include "glsl_exact_filter.h"

// xe_exact_texel and xe_exact_footprint: glsl_texel_address.cpp (every pixel shader has them).

namespace xnt::vk {

std::string GlslExactBilinearHelpers() {
  return R"GLSL(
// ---- Exact bilinear (TranslationOptions::exact_bilinear; renderer/cpu texture_unit.cpp) ----

// Whether a fetch with these instruction filters (3 = the fetch constant's) on `slot` is what the
// cpu path filters bilinearly at level 0 whatever the LOD: a 2D/stacked texture of one level
// whose magnification and minification filters are both linear, not anisotropic (instruction
// aniso 7 = the fetch constant's, 2..5 = 2:1..16:1). Fetch constant dword 3: mag bits 19..20, min
// 21..22, aniso 25..27 (Xenia xenos.h xe_gpu_texture_fetch_t).
bool xe_exact_bilinear_applies(uint slot, uint mag, uint minf, uint aniso, int levels) {
  uint d3 = xe_fetch_dword(slot * 6u + 3u);
  if (mag == 3u) mag = (d3 >> 19u) & 3u;
  if (minf == 3u) minf = (d3 >> 21u) & 3u;
  if (aniso == 7u) aniso = (d3 >> 25u) & 7u;
  return xe_texture_dimension(slot) == 1u && levels == 1 && mag == 1u && minf == 1u &&
         (aniso < 2u || aniso > 5u);
}

// TextureUnit::Filter with linear = true: the footprint from u * width - 0.5, weights the
// fractions, two lerps across and one down, each `precise` (no fused multiply-add).
vec4 xe_exact_bilinear(sampler2DArray t, uint slot, vec2 uv, int layer) {
  ivec2 size = textureSize(t, 0).xy;
  precise float tx = uv.x * float(size.x);
  precise float ty = uv.y * float(size.y);
  ivec2 i;
  vec2 a;
  xe_exact_footprint(vec2(tx, ty), i, a);
  vec4 t00 = xe_exact_texel(t, slot, i.x, i.y, layer, size);
  vec4 t10 = xe_exact_texel(t, slot, i.x + 1, i.y, layer, size);
  vec4 t01 = xe_exact_texel(t, slot, i.x, i.y + 1, layer, size);
  vec4 t11 = xe_exact_texel(t, slot, i.x + 1, i.y + 1, layer, size);
  precise vec4 top = t00 + (t10 - t00) * a.x;
  precise vec4 bottom = t01 + (t11 - t01) * a.x;
  precise vec4 r = top + (bottom - top) * a.y;
  return r;
}
)GLSL";
}

}  // namespace xnt::vk
