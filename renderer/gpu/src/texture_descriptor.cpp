// Texture fetch constants decoded into texture layouts (see texture_descriptor.h).
#include "xnt/gpu/texture_descriptor.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "xnt/base/error.h"
#include "xnt/gpu/texture_formats.h"
#include "xnt/xenos/enums.h"

namespace xnt::gpu {

namespace {
// Textures are decoded to RGBA32F (16 bytes a texel) by every path; refuse absurd sizes instead
// of allocating them.
constexpr uint64_t kMaxHostImageBytes = uint64_t(256) << 20;
// maxImageDimension2D every Vulkan 1.3 device has (a 1D texture is one row of a 2D image).
constexpr uint32_t kMaxHostTextureSide = 8192;
uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
uint32_t Log2Ceil(uint32_t v) {
  uint32_t l = 0;
  while ((1u << l) < v) ++l;
  return l;
}
uint32_t Log2Floor(uint32_t v) {
  uint32_t l = 0;
  while (v >> (l + 1)) ++l;
  return l;
}
uint32_t NextPow2(uint32_t v) { return 1u << Log2Ceil(v); }

// Texel offset of packed mip `level` inside the tail (Xenia texture_util.cc GetPackedMipOffset;
// the layout was reverse-engineered there from DDS dumps): levels 16 texels and smaller sit in
// one 32x32 tile, the first three along the longer axis' perpendicular at 16 >> n, the smaller
// ones along the longer axis at (side >> (n - 2)). A volume's levels past the point where that
// offset falls under 4 texels (only a volume deeper than it is wide and tall gets there) move
// along z instead: to slice (log2(depth) - n) * 4, at least 4.
void PackedMipOffset(uint32_t width, uint32_t height, uint32_t depth, uint32_t level, uint32_t& x,
                     uint32_t& y, uint32_t& z) {
  uint32_t log2_w = Log2Ceil(width), log2_h = Log2Ceil(height);
  uint32_t log2_size = std::min(log2_w, log2_h);
  uint32_t base = log2_size > 4 ? log2_size - 4 : 0;
  uint32_t packed = level - base;
  x = y = z = 0;
  if (packed < 3) {
    (log2_w > log2_h ? y : x) = 16u >> packed;
    return;
  }
  uint32_t offset = 0;
  if (log2_w > log2_h) {
    offset = x = (1u << (log2_w - base)) >> (packed - 2);
  } else {
    offset = y = (1u << (log2_h - base)) >> (packed - 2);
  }
  if (depth > 1 && offset < 4) {
    uint32_t log2_d = Log2Ceil(depth);
    z = log2_d > packed + 1 ? (log2_d - packed) * 4 : 4;
  }
}
}  // namespace

TextureDescriptor TextureDescriptor::FromFetchConstant(const uint32_t dwords[6]) {
  auto f = xenos::TextureFetchConstant::Decode(dwords);
  if (f.type != xenos::FetchConstantType::kTexture) {
    throw Error("texture fetch constant: dword 0 type is " + std::to_string(uint32_t(f.type)) +
                ", not a texture (2)");
  }
  TextureDescriptor d;
  d.base_address = f.base_address_bytes();
  d.format = uint32_t(f.format);
  d.endian = uint32_t(f.endianness);
  d.dimension = uint32_t(f.dimension);
  d.tiled = f.tiled;
  d.width = f.width();
  d.height = f.height();
  d.pitch_texels = f.pitch << 5;
  const xenos::TextureSign signs[4] = {f.sign_x, f.sign_y, f.sign_z, f.sign_w};
  for (uint32_t c = 0; c < 4; ++c) {
    if (signs[c] == xenos::TextureSign::kSigned) d.signed_mask |= 1u << c;
  }
  const std::string fmt_name(xenos::TextureFormatName(d.format));
  if (!GetTextureFormatInfo(d.format).loadable) {
    throw Error("texture: format " + fmt_name + " (dword 1 bits 0..5 = " +
                std::to_string(d.format) + ") is not implemented");
  }
  switch (f.dimension) {
    case xenos::DataDimension::k2DOrStacked: d.layers = f.depth(); break;
    case xenos::DataDimension::kCube: d.layers = 6; break;
    case xenos::DataDimension::k1D:
      // A row of texels (Xenia: never tiled or packed); stored as a 2D array of height 1.
      if (d.width > kMaxHostTextureSide) {
        throw Error("texture: 1D texture width " + std::to_string(d.width) +
                    " (dword 2) exceeds the host image limit of " +
                    std::to_string(kMaxHostTextureSide));
      }
      break;
    case xenos::DataDimension::k3D: d.depth = f.depth(); break;
  }
  if (d.pitch_texels == 0) d.pitch_texels = AlignUp(d.width, 32);
  if (d.pitch_texels < d.width && !d.tiled) {
    throw Error("texture fetch constant: pitch " + std::to_string(d.pitch_texels) +
                " (dword 0 bits 22..30 << 5) is less than the width " + std::to_string(d.width));
  }
  // Mip levels (Xenia texture_util.cc GetSubresourcesFromFetchConstant): none without a mip
  // address; otherwise up to mip_max_level (dword 4 bits 6..9), clamped to the size's chain,
  // whose length a volume's depth counts in too.
  uint32_t size_max_level =
      Log2Floor(std::max({d.width, d.height, d.volume() ? d.depth : 1u}));
  if (f.mip_address != 0) {
    uint32_t min_level = std::min(f.mip_min_level, size_max_level);
    uint32_t max_level = std::max(std::min(f.mip_max_level, size_max_level), min_level);
    d.levels = max_level + 1;
    if (d.levels > 1) {
      // A base address of 0, or the mip address, is how titles stream a texture whose base is
      // not loaded yet, with mip_min_level 1 so that level 0 is never sampled (Xenia
      // gpu/texture_cache.cc BindingInfoFromFetchConstant, after a GPU hang message found in
      // game executables). The hardware has no "absent" level: it would read level 0 where the
      // address points, and so does this model; the LOD clamp keeps it from being sampled.
      d.mip_address = f.mip_address_bytes();
      d.packed_mips = f.packed_mips;
    }
  }
  uint64_t texels = 0;
  for (uint32_t l = 0; l < d.levels; ++l) {
    texels += uint64_t(std::max(d.width >> l, 1u)) * std::max(d.height >> l, 1u) *
              std::max(d.depth >> l, 1u);
  }
  if (texels * d.layers * 16 > kMaxHostImageBytes) {
    throw Error("texture: " + std::to_string(d.width) + "x" + std::to_string(d.height) +
                "x" + std::to_string(d.layers) + " texture exceeds the 256 MiB host image limit");
  }
  for (const auto& [address, size] : d.ByteRanges()) {
    if (uint64_t(address) + size > (uint64_t(512) << 20)) {
      throw Error("texture fetch constant: texture data at " + std::to_string(address) +
                  " extends past the 512 MiB of guest memory");
    }
  }
  return d;
}

uint32_t TextureDescriptor::PackedLevel() const {
  if (!packed_mips) return UINT32_MAX;
  uint32_t log2_size = std::min(Log2Ceil(width), Log2Ceil(height));
  return log2_size > 4 ? log2_size - 4 : 0;
}

TextureDescriptor::Level TextureDescriptor::GetLevel(uint32_t level) const {
  // Xenia texture_util.cc GetGuestTextureLayout: the base takes its row pitch from the fetch
  // constant; mips have strides of a power-of-two-sized texture's mip; every storage is aligned
  // to 32x32 blocks and each layer to 4 KiB; mip storages follow each other from the mip
  // address, all of a level's layers together; levels from the packed level on share the
  // packed level's storage at offsets inside it. A volume's slices are not aligned one by one:
  // every level's storage, the mips' included, spans the base's depth rounded up to the 4-slice
  // tile depth (the mips' depth is not rounded to a power of two there, unlike width and height),
  // 4 KiB-aligned as a whole.
  TextureFormatInfo info = GetTextureFormatInfo(format);
  const uint32_t packed_level = PackedLevel();
  auto storage = [&](uint32_t s, bool is_base, Level& out) {
    uint32_t pitch_texels_s = is_base ? pitch_texels : std::max(NextPow2(width) >> s, 1u);
    uint32_t rows_texels = is_base ? height : std::max(NextPow2(height) >> s, 1u);
    uint32_t pitch_blocks = AlignUp((pitch_texels_s + info.block_width - 1) / info.block_width, 32);
    uint32_t rows = AlignUp((rows_texels + info.block_height - 1) / info.block_height, 32);
    if (dimension == uint32_t(xenos::DataDimension::k1D)) rows = 1;
    if (!tiled && is_base) {
      // Linear base: the fetch constant's pitch as it is, rows 256-byte-aligned below (Xenia's
      // texture_util.cc instead tile-aligns the pitch and trusts D3D to have made the rows 256-byte
      // multiples, which gives the same stride for the pitches D3D sets).
      pitch_blocks = (pitch_texels_s + info.block_width - 1) / info.block_width;
    }
    uint32_t row_bytes = pitch_blocks << info.bpb_log2;
    if (!tiled) row_bytes = AlignUp(row_bytes, 256);
    out.pitch_blocks = pitch_blocks;
    out.height_blocks = rows;
    // 3D: layer_stride is the (unaligned) depth-slice stride (StorageBytes aligns the whole).
    out.layer_stride = volume() ? row_bytes * rows : AlignUp(row_bytes * rows, 4096);
  };
  Level l;
  l.width = std::max(width >> level, 1u);
  l.height = std::max(height >> level, 1u);
  l.depth = volume() ? std::max(depth >> level, 1u) : 1u;
  if (level == 0) {
    storage(0, true, l);
    l.address = base_address;
  } else {
    uint32_t last = std::min(level, packed_level);
    uint64_t offset = 0;
    // Mip storages from level 1 (or the packed level 0 tail) up to this one.
    for (uint32_t s = packed_level == 0 ? 0 : 1; s < last; ++s) {
      Level prev;
      storage(s, false, prev);
      offset += StorageBytes(prev);
    }
    storage(last, false, l);
    l.address = uint32_t(mip_address + offset);
  }
  if (level >= packed_level) {
    uint32_t x = 0, y = 0, z = 0;
    PackedMipOffset(width, height, volume() ? depth : 1u, level, x, y, z);
    l.offset_x_blocks = x / info.block_width;
    l.offset_y_blocks = y / info.block_height;
    l.offset_z = z;
  }
  return l;
}

uint64_t TextureDescriptor::StorageBytes(const Level& l) const {
  if (volume()) return (uint64_t(l.layer_stride) * AlignUp(depth, 4) + 4095) & ~uint64_t(4095);
  return uint64_t(l.layer_stride) * layers;
}

uint64_t TextureDescriptor::ByteSize() const { return StorageBytes(GetLevel(0)); }

std::vector<std::pair<uint32_t, uint64_t>> TextureDescriptor::ByteRanges() const {
  std::vector<std::pair<uint32_t, uint64_t>> ranges{{base_address, ByteSize()}};
  if (levels > 1) {
    // The last mip storage: the packed tail's level, or level 1's when the tail holds the base.
    uint32_t last = std::max(std::min(levels - 1, PackedLevel()), 1u);
    Level l = GetLevel(last);
    ranges.push_back({mip_address, uint64_t(l.address - mip_address) + StorageBytes(l)});
  }
  return ranges;
}

bool TextureDescriptor::operator<(const TextureDescriptor& o) const {
  return std::tie(base_address, format, endian, dimension, tiled, width, height, layers,
                  pitch_texels, signed_mask, mip_address, levels, packed_mips, depth) <
         std::tie(o.base_address, o.format, o.endian, o.dimension, o.tiled, o.width, o.height,
                  o.layers, o.pitch_texels, o.signed_mask, o.mip_address, o.levels,
                  o.packed_mips, o.depth);
}

}  // namespace xnt::gpu
