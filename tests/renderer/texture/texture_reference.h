// CPU side of the texture tests: a fake guest memory, random raw texels encoded at their guest
// addresses (tiled or linear, with the declared endian swap applied in reverse), and an
// independent CPU decoder giving each texel's expected components. Shared by the loader tests
// (texture_load_test.cpp) and the replayed-draw tests (draw_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "xnt/vk/shared_memory.h"
#include "xnt/gpu/texture_address.h"
#include "xnt/gpu/texture_decode.h"
#include "xnt/vk/texture_cache.h"
#include "xnt/gpu/texture_formats.h"

namespace xnt::vk::texref {

struct FakeGuest {
  std::map<uint32_t, std::vector<uint8_t>> pages;
  std::map<uint32_t, uint64_t> generations;
  uint64_t generation = 1;
  void WriteByte(uint32_t address, uint8_t value) {
    auto& p = pages[address >> 12];
    if (p.empty()) p.resize(4096);
    p[address & 4095] = value;
    generations[address >> 12] = generation;
  }
  void EndWrite() { ++generation; }
  gpu::GuestPageSource Source() {
    gpu::GuestPageSource s;
    s.generation = [this] { return generation; };
    s.page_generation = [this](uint32_t p) {
      auto it = generations.find(p);
      return it == generations.end() ? uint64_t(0) : it->second;
    };
    s.page_data = [this](uint32_t p) -> const uint8_t* {
      auto it = pages.find(p);
      return it == pages.end() ? nullptr : it->second.data();
    };
    return s;
  }
};

inline uint32_t Swap(uint32_t v, uint32_t endian) {
  if (endian == 1 || endian == 2) v = ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu);
  if (endian == 2 || endian == 3) v = (v << 16) | (v >> 16);
  return v;
}

using gpu::Component;
using gpu::Texel;

// The gpu/ decoder, failing the test for a format it does not know.
inline Texel Decode(uint32_t format, const uint32_t* w, uint32_t t, uint32_t ti) {
  std::optional<Texel> texel = gpu::DecodeTexel(format, w, t, ti);
  if (!texel) {
    ADD_FAILURE() << "no reference decoder for format " << format;
    return {};
  }
  return *texel;
}

inline bool IsHalfFormat(uint32_t f) { return (f >= 27 && f <= 29) || (f >= 30 && f <= 32); }
inline bool IsFloatFormat(uint32_t f) { return IsHalfFormat(f) || f == 36 || f == 37 || f == 38; }

// Random block dwords (finite values for float formats).
inline uint32_t RandomWord(std::mt19937& rng, uint32_t format, float float_range = 1000.0f) {
  uint32_t v = rng();
  if (IsHalfFormat(format)) {
    // Any bits: the Xenos half has no infinity or NaN (exponent 31 is finite), so every word is
    // a finite texel.
  } else if (IsFloatFormat(format)) {
    std::uniform_real_distribution<float> d(-float_range, float_range);
    float f = d(rng);
    std::memcpy(&v, &f, 4);
  }
  return v;
}

struct Layout {
  uint32_t width, height, pitch, layers = 1;
  bool tiled;
  uint32_t dimension = 1;  // 0 = 1D, 1 = 2D/stacked, 2 = 3D (layers = depth), 3 = cube
  uint32_t signs = 0;      // fetch constant dword 0 bits 2..9 (TextureSign per component)
  uint32_t max_level = 0;  // mip levels 1..max_level at mip_address (dword 4 bits 6..9)
  uint32_t mip_address = 0;
  bool packed_mips = false;
};


inline std::array<uint32_t, 6> Fetch(uint32_t base, uint32_t format, uint32_t endian,
                                     const Layout& l) {
  std::array<uint32_t, 6> d{};
  d[0] = 2u | (l.signs << 2) | ((l.pitch >> 5) << 22) | (l.tiled ? 1u << 31 : 0u);
  d[1] = format | (endian << 6) | ((base >> 12) << 12);
  if (l.dimension == 2) {  // 3D: 11-bit width and height, 10-bit depth
    d[2] = (l.width - 1) | ((l.height - 1) << 11) | ((l.layers - 1) << 22);
  } else if (l.dimension == 0) {  // 1D: 24-bit width
    d[2] = l.width - 1;
  } else {
    d[2] = (l.width - 1) | ((l.height - 1) << 13) | ((l.layers - 1) << 26);
  }
  d[4] = l.max_level << 6;
  d[5] = (l.dimension << 9) | (l.packed_mips ? 1u << 11 : 0u) | ((l.mip_address >> 12) << 12);
  return d;
}

// Encodes random blocks of every level at their guest addresses (TextureDescriptor::GetLevel:
// packed mip tails included); returns the expected texels level after level, each level
// width_l x height_l x layers (a volume's: its level's slices), row-major, layer-major.
inline std::vector<Texel> Encode(FakeGuest& guest, uint32_t base, uint32_t format, uint32_t endian,
                                 const Layout& l, uint32_t seed, float float_range = 1000.0f) {
  gpu::TextureFormatInfo info = gpu::GetTextureFormatInfo(format);
  EXPECT_TRUE(info.loadable);
  std::mt19937 rng(seed);
  TextureDescriptor desc = TextureDescriptor::FromFetchConstant(Fetch(base, format, endian, l).data());
  uint32_t block_bytes = 1u << info.bpb_log2;
  std::vector<Texel> expected;
  for (uint32_t level = 0; level < desc.levels; ++level) {
    TextureLoadConstants c = LoadConstantsOf(desc, level);
    const uint32_t lw = c.width, lh = c.height;
    // A volume's level has slices of its own (c.layers); a stack keeps its layers.
    const uint32_t slices = l.dimension == 2 ? c.layers : l.layers;
    const size_t level_start = expected.size();
    expected.resize(level_start + size_t(lw) * lh * slices);
    uint32_t bw = (lw + info.block_width - 1) / info.block_width;
    uint32_t bh = (lh + info.block_height - 1) / info.block_height;
    for (uint32_t z = 0; z < slices; ++z) {
      for (uint32_t by = 0; by < bh; ++by) {
        for (uint32_t bx = 0; bx < bw; ++bx) {
          uint32_t sx = bx + c.offset_x_blocks, sy = by + c.offset_y_blocks;
          uint32_t offset = l.tiled ? uint32_t(gpu::TiledOffset2D(int32_t(sx), int32_t(sy), c.pitch_blocks, info.bpb_log2))
                                    : gpu::LinearOffset2D(sx, sy, c.pitch_blocks, info.bpb_log2);
          uint32_t address = c.base_address + z * c.layer_stride + offset;
          if (l.dimension == 2) {  // a volume's level: from its first slice in a packed tail
            const uint32_t sz = z + c.offset_z;
            address = l.tiled ? c.base_address + gpu::TiledOffset3D(sx, sy, sz, c.pitch_blocks, c.height_blocks, info.bpb_log2)
                              : c.base_address + sz * c.layer_stride + offset;
          }
          // The block's dwords as the loader sees them after the swap; for sub-dword blocks,
          // the containing dword keeps whatever bytes other blocks put there.
          uint32_t words[4] = {};
          if (block_bytes >= 4) {
            for (uint32_t i = 0; i < block_bytes / 4; ++i) {
              words[i] = RandomWord(rng, format, float_range);
              uint32_t stored = Swap(words[i], endian);
              for (uint32_t b = 0; b < 4; ++b) guest.WriteByte(address + 4 * i + b, uint8_t(stored >> (8 * b)));
            }
          } else {
            uint32_t t = RandomWord(rng, format, float_range) & (block_bytes == 1 ? 0xFFu : 0xFFFFu);
            uint32_t shift = 8 * (address & 3);
            // Position of these bytes in guest memory: apply the swap to a dword holding only them.
            uint32_t stored = Swap(t << shift, endian);
            uint32_t mask = Swap((block_bytes == 1 ? 0xFFu : 0xFFFFu) << shift, endian);
            for (uint32_t b = 0; b < 4; ++b) {
              if ((mask >> (8 * b)) & 0xFF) guest.WriteByte((address & ~3u) + b, uint8_t(stored >> (8 * b)));
            }
            words[0] = t;
          }
          for (uint32_t ty = 0; ty < info.block_height; ++ty) {
            for (uint32_t tx = 0; tx < info.block_width; ++tx) {
              uint32_t x = bx * info.block_width + tx, y = by * info.block_height + ty;
              if (x >= lw || y >= lh) continue;
              expected[level_start + (size_t(z) * lh + y) * lw + x] =
                  Decode(format, words, words[0], ty * 4 + tx);
            }
          }
        }
      }
    }
  }
  guest.EndWrite();
  return expected;
}

}  // namespace xnt::vk::texref
