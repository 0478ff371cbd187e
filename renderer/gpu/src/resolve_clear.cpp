// The clears of a resolve (see resolve.h): which surfaces and values, and writing them into the
// EDRAM model's guest bits.
#include <algorithm>

#include "xnt/base/byte_order.h"
#include "xnt/base/parallel.h"
#include "xnt/gpu/resolve.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

void ForEachResolveClear(const ResolveInfo& info, RegisterValues regs, uint32_t scale_x,
                         uint32_t scale_y,
                         const std::function<void(const edram::Surface&, uint64_t)>& clear) {
  using xenos::Reg;
  // 64bpp: RB_COLOR_CLEAR_LO is the low dword, RB_COLOR_CLEAR the high one, as on the fbo path.
  gpu::edram::Surface base;
  base.pitch_pixels = info.surface_pitch;
  base.msaa = xenos::MsaaSamples(std::min(info.msaa_samples, 2u));
  base.scale_x = scale_x;
  base.scale_y = scale_y;
  if (info.color_clear && info.source_select < 4) {
    gpu::edram::Surface s = base;
    s.base_tiles = info.color_base;
    s.format = info.color_format;
    uint64_t bits = info.color_clear_value;
    if (s.is_64bpp()) {
      bits = (uint64_t(RegisterValue(regs, Reg::RB_COLOR_CLEAR)) << 32) | RegisterValue(regs, Reg::RB_COLOR_CLEAR_LO);
    }
    clear(s, bits);
  }
  if (info.depth_clear) {
    gpu::edram::Surface s = base;
    s.base_tiles = info.depth_base;
    s.is_depth = true;
    s.format = info.depth_format;
    clear(s, info.depth_clear_value);
  }
}

void ApplyResolveClears(const ResolveInfo& info, RegisterValues regs, uint32_t scale_x,
                        uint32_t scale_y, edram::Edram& edram, uint32_t threads) {
  // Clears write the clear value's guest bits into every sample of the rectangle.
  // At a resolution scale the rectangle covers S x T host pixels per guest pixel.
  // Along a row of samples the EDRAM bytes are consecutive within a tile (and, for depth, within
  // each half of a tile, whose halves are stored swapped), so the row is filled run by run from
  // the offset of each run's first sample: the bytes Edram::Store would write sample by sample.
  auto clear = [&](const gpu::edram::Surface& s, uint64_t bits) {
    const uint32_t x0 = uint32_t(info.x0) * s.scale_x;
    const uint32_t x1 = std::min<uint32_t>(uint32_t(info.x1), info.surface_pitch) * s.scale_x;
    if (x1 <= x0 || info.y1 <= info.y0) return;
    const uint32_t sx_count = s.samples_x(), bytes = s.bytes_per_sample();
    const uint32_t row = xenos::kEdramTileWidthSamples * s.scale_x;
    const uint32_t run = s.is_depth ? row / 2 : s.is_64bpp() ? row / 2 : row;
    uint8_t* const bytes_out = edram.bytes().data();
    const uint32_t lo = uint32_t(bits), hi = uint32_t(bits >> 32);
    auto fill_rows = [&](uint32_t y_begin, uint32_t y_end) {
      for (uint32_t y = y_begin; y < y_end; ++y) {
        for (uint32_t r = 0; r < s.samples_y(); ++r) {
          // Sample columns sx of pixel sx / samples_x, sample (sx % samples_x) + r * samples_x.
          for (uint32_t sx = x0 * sx_count; sx < x1 * sx_count;) {
            const uint32_t end = std::min(x1 * sx_count, (sx / run + 1) * run);
            uint8_t* const out =
                bytes_out + s.SampleOffset(sx / sx_count, y, sx % sx_count + r * sx_count);
            const uint32_t n = end - sx;
            // One loop per sample size, with nothing else in it, so the compiler makes it a
            // vector fill.
            if (bytes == 8) {
              for (uint32_t i = 0; i < n; ++i) {
                StoreLE32(out + 8 * size_t(i), lo);
                StoreLE32(out + 8 * size_t(i) + 4, hi);
              }
            } else {
              for (uint32_t i = 0; i < n; ++i) StoreLE32(out + 4 * size_t(i), lo);
            }
            sx = end;
          }
        }
      }
    };
    const uint32_t y_begin = uint32_t(info.y0) * s.scale_y, y_end = uint32_t(info.y1) * s.scale_y;
    // Rows of a surface that does not wrap past tile 2047 onto itself are distinct bytes, so
    // bands of rows fill on the threads in any order; a wrapping one (corrupt registers) fills
    // on this thread, row after row, as the hardware's later rows overwrite earlier ones.
    const uint32_t bands = (y_end - y_begin + 31) / 32;
    const uint32_t workers = std::clamp<uint32_t>(threads, 1, bands);
    if (workers == 1 || s.TilesForRows(uint32_t(info.y1)) >= xenos::kEdramTileCount) {
      fill_rows(y_begin, y_end);
      return;
    }
    RunShares(workers, [&](uint32_t t, uint32_t n) {
      for (uint32_t band = t; band < bands; band += n) {
        fill_rows(y_begin + band * 32, std::min(y_end, y_begin + band * 32 + 32));
      }
    });
  };
  // Colour first, then depth: where the two surfaces share tiles the depth value is the one left.
  ForEachResolveClear(info, regs, scale_x, scale_y, clear);
}

}  // namespace xnt::gpu
