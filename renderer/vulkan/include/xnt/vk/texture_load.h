// The compute shader that loads a guest texture from shared memory into a host RGBA32F image:
// untiling (32x32 tiles), endian swap and decoding of every loadable format (texture_formats.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace xnt::vk {

// Push constants of the load shader (std430, 68 bytes). One dispatch per mip level.
struct TextureLoadConstants {
  uint32_t base_address;   // bytes
  uint32_t pitch_blocks;   // row pitch in blocks
  uint32_t width;          // texels
  uint32_t height;
  uint32_t layers;
  uint32_t format;         // xenos::TextureFormat
  uint32_t endian;         // xenos::Endian
  uint32_t tiled;
  uint32_t bpb_log2;
  uint32_t block_width;
  uint32_t block_height;
  uint32_t layer_stride;   // bytes between array layers / cube faces
  // Bit c: component c (X..W after decoding) is TextureSign::kSigned: its n-bit unsigned field
  // is reinterpreted as two's complement snorm, max(v / (2^(n-1) - 1), -1). Applied only to
  // formats with integer unorm components (texture_load.cpp SignedComponentBits).
  uint32_t signed_mask;
  // Block offset of this level inside its storage (packed mip tails: Xenia texture_util.cc
  // GetPackedMipOffset); 0 for levels stored on their own.
  uint32_t offset_x_blocks;
  uint32_t offset_y_blocks;
  // 3D: rows of one depth slice's storage (32-aligned), for the 32x32x4 tiling; `layers` is the
  // level's depth and `layer_stride` the linear slice stride.
  uint32_t height_blocks;
  // 3D: the level's first slice inside a packed mip tail (0 for levels stored on their own).
  uint32_t offset_z;
};
static_assert(sizeof(TextureLoadConstants) == 68);

// SPIR-V of the load compute shader, compiled at build time from
// renderer/vulkan/shaders/texture_load.comp (set 0 = shared memory as in shader_interface.h,
// set 1 binding 0 = rgba32f image2DArray destination, 8x8x1 work groups over width x height x
// layers).
// `volume`: the destination is an rgba32f image3D and the source 32x32x4-tiled (or linear with
// `layer_stride` between depth slices).
std::span<const uint32_t> TextureLoadSpirv(bool volume = false);

}  // namespace xnt::vk
