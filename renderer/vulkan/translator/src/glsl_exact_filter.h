// Bilinear filtering in the translated shader with the cpu path's arithmetic
// (TranslationOptions::exact_bilinear): the helpers the texture fetch calls when the fetch
// resolves to a bilinear filter at a texture's only level.
#pragma once

#include <string>

namespace xnt::vk {

// GLSL: xe_exact_bilinear_applies(slot, mag, min, aniso) and xe_exact_bilinear(texture, slot,
// uv, layer). Needs the prelude's xe_fetch_dword and xe_texture_dimension.
std::string GlslExactBilinearHelpers();

}  // namespace xnt::vk
