// A resolve destination's rows as runs of consecutive guest bytes, and the 32bpp copy into them
// (the resolve engine's, resolve.cpp; one translation unit includes this).
#pragma once

#include <algorithm>
#include <cstdint>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/gpu/resolve.h"
#include "xnt/gpu/texture_address.h"

namespace xnt::gpu::resolve_dest {

// The destination of one row as runs of pixels at consecutive addresses: calls
// run(x_begin, x_end, offset of x_begin before the base). In the 32x32-tiled 2D layout the low
// bits of an offset are low bits of x shifted by the bytes per pixel (TiledOffset2D passes them
// straight through) up to bit 3 - at 8bpp offset bit 3 is already y bit 1 - so an aligned group
// of 8 pixels at 8 and 16bpp, 4 at 32bpp and 2 at 64bpp (at most 16 bytes) is a run and
// TiledOffset2D runs once per group; a linear row is one run. A pixel whose offset throws (a
// negative coordinate in a linear destination) and the 3D layout go pixel by pixel.
class DestRow {
 public:
  DestRow(const ResolveInfo& info, uint32_t bpp_log2) : info_(info), bpp_log2_(bpp_log2) {
    run_mask_ = bpp_log2 >= 4 ? 0 : (1u << std::min(3u, 4u - bpp_log2)) - 1;
  }
  // Whether the row's runs are longer than a pixel (else Offset per pixel keeps the order in
  // which the per-pixel errors are raised).
  bool Runs(int32_t x0, int32_t y) const {
    if (info_.dest_array) return false;
    if (info_.dest_linear) return x0 >= 0 && y >= 0;
    return true;
  }
  template <typename Run>
  void ForEachRun(int32_t x0, int32_t x1, int32_t y, Run&& run) const {
    if (info_.dest_linear) {
      run(x0, x1, int64_t(LinearOffset2D(uint32_t(x0), uint32_t(y), info_.dest_pitch, bpp_log2_)));
      return;
    }
    if (bpp_log2_ >= 2 && x0 >= 0 && x1 <= 8192 && y >= 0 && y < 8192 &&
        info_.dest_pitch <= 16384) {
      // At 4 bytes a block or more, a run's offset is its macro tile's first run's plus a whole
      // macro tile (32x32 blocks) per 32 blocks along the row: only the first macro tile's runs
      // go through TiledOffset2D (resolve_bands_test checks every pixel's offset over this
      // range against it).
      const uint32_t per_run = run_mask_ + 1;
      int64_t first[32];
      for (uint32_t i = 0; i < 32 / per_run; ++i) {
        first[i] = TiledOffset2D(int32_t(i * per_run), y, info_.dest_pitch, bpp_log2_);
      }
      const int64_t tile_bytes = int64_t(1024) << bpp_log2_;
      for (int32_t x = x0; x < x1;) {
        const uint32_t group = uint32_t(x) & ~run_mask_;
        const int32_t end = std::min<int64_t>(x1, int64_t(group) + per_run);
        run(x, end,
            first[(group & 31) / per_run] + int64_t(group >> 5) * tile_bytes +
                int64_t((uint32_t(x) & run_mask_) << bpp_log2_));
        x = end;
      }
      return;
    }
    for (int32_t x = x0; x < x1;) {
      const int32_t group = int32_t(uint32_t(x) & ~run_mask_);
      const int32_t end = std::min<int64_t>(x1, int64_t(group) + int64_t(run_mask_) + 1);
      run(x, end,
          int64_t(TiledOffset2D(group, y, info_.dest_pitch, bpp_log2_)) +
              int64_t((uint32_t(x) & run_mask_) << bpp_log2_));
      x = end;
    }
  }
  int64_t Offset(int32_t x, int32_t y) const {
    if (info_.dest_linear) {
      if (x < 0 || y < 0) throw Error("resolve: negative coordinate in a linear destination");
      return int64_t(LinearOffset2D(uint32_t(x), uint32_t(y), info_.dest_pitch, bpp_log2_));
    }
    if (info_.dest_array) {
      return TiledOffset3D(x, y, int32_t(info_.dest_slice), info_.dest_pitch, info_.dest_height,
                           bpp_log2_);
    }
    return TiledOffset2D(x, y, info_.dest_pitch, bpp_log2_);
  }

 private:
  const ResolveInfo& info_;
  uint32_t bpp_log2_ = 0, run_mask_ = 0;
};

// A 32bpp pixel's bytes as Endian128 mode `endian_xor` (< 4) places them in its aligned dword.
inline uint32_t SwapInDword(uint32_t v, uint32_t endian_xor) {
  switch (endian_xor) {
    case 1: return ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu);
    case 2: return (v << 16) | (v >> 16);
    case 3: return __builtin_bswap32(v);
    default: return v;
  }
}

// Row y of a band of 32bpp pixels whose Endian128 swap stays inside each aligned dword (mode
// kEndianXor < 4, a dword-aligned base) at its offsets in `data` (guest bytes [lo, ...)); returns
// the next row's pixels. The mode is a template argument so the copy has no switch per pixel.
template <uint32_t kEndianXor>
inline const uint8_t* LayOutRow32(const ResolveInfo& info, const DestRow& dest, int32_t y,
                                  int64_t lo, const uint8_t* px, uint8_t* data) {
  // Offsets from the row's first pixel: the copy's stores cannot change what is read next.
  const int32_t x0 = info.x0;
  const int64_t base = int64_t(info.dest_base) - lo;
  auto run = [base, data, px, x0](int32_t xb, int32_t xe, int64_t run_offset) {
    uint8_t* d = data + (base + run_offset);
    const uint8_t* s = px + (size_t(xb - x0) << 2);
    for (int32_t x = xb; x < xe; ++x, d += 4, s += 4) {
      StoreLE32(d, SwapInDword(LoadLE32(s), kEndianXor));
    }
  };
  dest.ForEachRun(x0, info.x1, y, run);
  return px + (size_t(info.x1 - x0) << 2);
}

}  // namespace xnt::gpu::resolve_dest
