// What a texture fetch constant says about a texture's texels and where they lie in guest
// memory: format, endian, dimension, size, pitch, tiling, signs, mip chain with packed tails.
// Backend-free: the Vulkan texture cache loads from it, the cpu path samples with it. Facts from
// Xenia src/xenia/gpu/xenos.h xe_gpu_texture_fetch_t and texture_util.cc
// (GetGuestTextureLayout, GetPackedMipOffset)
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace xnt::gpu {

// What a fetch constant says about a texture's texels (decoded from its 6 dwords).
struct TextureDescriptor {
  uint32_t base_address = 0;  // bytes
  uint32_t format = 0;        // xenos::TextureFormat
  uint32_t endian = 0;        // xenos::Endian
  uint32_t dimension = 1;     // xenos::DataDimension
  bool tiled = false;
  uint32_t width = 1, height = 1, layers = 1;
  uint32_t pitch_texels = 0;  // row pitch (fetch constant pitch << 5)
  uint32_t signed_mask = 0;   // bit c: component c has TextureSign kSigned (applied by the loader)
  uint32_t mip_address = 0;   // bytes; levels 1.. (0: base level only)
  uint32_t levels = 1;        // 1 + the highest mip level loaded
  bool packed_mips = false;   // the small levels share one packed tail
  uint32_t depth = 1;         // 3D textures: slices (then layers is 1)
  std::string inexact;        // what will not be loaded exactly (not part of the key)

  // A volume: laid out, tiled (32x32x4 tiles) and sampled as 3D whatever its depth, one slice
  // included (Xenia texture_util.cc and its texture caches take is_3d from the dimension alone).
  bool volume() const { return dimension == 2; }

  // Where texture level `level` lies in guest memory.
  struct Level {
    uint32_t address = 0;       // start of the level's storage (its layer 0)
    uint32_t pitch_blocks = 0;  // row pitch of the storage in blocks
    uint32_t height_blocks = 0; // rows of one layer's storage (tile-aligned)
    uint32_t layer_stride = 0;  // bytes between layers, 4 KiB-aligned (3D: between slices)
    uint32_t width = 0, height = 0;  // texels of this level
    uint32_t depth = 1;              // 3D: slices of this level
    uint32_t offset_x_blocks = 0, offset_y_blocks = 0;  // inside a packed tail
    uint32_t offset_z = 0;           // 3D: first slice inside a packed tail
  };
  Level GetLevel(uint32_t level) const;
  // The first level stored in the packed tail (UINT32_MAX without packed mips): the smaller
  // side rounded up to a power of two is 16 texels there (Xenia texture_util GetPackedMipLevel).
  uint32_t PackedLevel() const;
  // The guest byte ranges read.
  // [address, address + size) of the base storage and, with mips, of the mip storage.
  std::vector<std::pair<uint32_t, uint64_t>> ByteRanges() const;
  uint64_t ByteSize() const;  // of the base storage
  // Bytes from a level's storage address to the next storage: every layer of a stack, a
  // volume's 4-aligned slice count, rounded to 4 KiB.
  uint64_t StorageBytes(const Level& l) const;

  // Throws xnt::Error for what the cache cannot load (naming the field).
  static TextureDescriptor FromFetchConstant(const uint32_t dwords[6]);
  bool operator<(const TextureDescriptor& o) const;
};

}  // namespace xnt::gpu
