// The texture load compute shader's SPIR-V (texture_load.h). The GLSL is
// renderer/vulkan/shaders/texture_load.comp, compiled by glslc at build time: no GLSL is parsed at
// run time for it.
#include "xnt/vk/texture_load.h"

namespace xnt::vk {

namespace {
// glslc -mfmt=c output: a braced list of the module's words.
const uint32_t kTextureLoad2d[] =
#include "texture_load_2d.spv.inc"
    ;
const uint32_t kTextureLoad3d[] =
#include "texture_load_3d.spv.inc"
    ;
}  // namespace

std::span<const uint32_t> TextureLoadSpirv(bool volume) {
  if (volume) return {kTextureLoad3d, std::size(kTextureLoad3d)};
  return {kTextureLoad2d, std::size(kTextureLoad2d)};
}

}  // namespace xnt::vk
