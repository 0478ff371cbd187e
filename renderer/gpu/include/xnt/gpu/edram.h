// The EDRAM model (CPU reference, no Vulkan): 2048 tiles of 80x16 32-bit samples (10 MiB),
// render-target surfaces addressed by base tile, pitch, format and MSAA, and the guest bit
// encodings of every colour and depth render-target format.
//
// Layout facts (Xenia's article "Leaving No Pixel Behind"; Xenia xenos.h):
// - A tile holds 80x16 samples at 32bpp, row-major, 4 bytes each (5120 bytes); a 64bpp target
//   uses the same 5120 bytes for 40x16 samples, so its pitch in tiles doubles.
// - MSAA stores samples, not pixels: 2x is 1x2 samples per pixel (the tile covers 80x8 pixels),
//   4x is 2x2 (40x8 pixels). In this model sample s of a 2x pixel is sample row s; of a 4x pixel,
//   column s & 1 and row s >> 1.
// - Depth tiles have their two 40-sample halves swapped relative to colour (sample column x of a
//   depth tile sits where colour column x ^ 40 would, i.e. (x + 40) % 80).
// - Tile indices wrap around at 2048 (periodic EDRAM addressing).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "xnt/base/byte_order.h"
#include "xnt/base/zeroed_bytes.h"
#include "xnt/xenos/enums.h"

namespace xnt::gpu::edram {

constexpr uint32_t kTileBytes = xenos::kEdramTileWidthSamples * xenos::kEdramTileHeightSamples * 4;

// A render target as the EDRAM sees it.
struct Surface {
  uint32_t base_tiles = 0;   // 11 bits; wraps at 2048
  uint32_t pitch_pixels = 0; // RB_SURFACE_INFO surface_pitch
  xenos::MsaaSamples msaa = xenos::MsaaSamples::k1X;
  bool is_depth = false;
  uint32_t format = 0;  // ColorRenderTargetFormat or DepthRenderTargetFormat
  // Resolution scale (host pixels per guest pixel per axis, 1..3): a tile holds 80S x 16T
  // samples, as in Xenia's scaled EDRAM (Xenia's article "Leaving No Pixel Behind", "resolution scaling"). Guest addresses (tile
  // indices, pitch in tiles, base) do not change; only the samples per tile do.
  uint32_t scale_x = 1, scale_y = 1;

  bool is_64bpp() const {
    return !is_depth && xenos::IsColorRenderTargetFormat64bpp(xenos::ColorRenderTargetFormat(format));
  }
  uint32_t bytes_per_sample() const { return is_64bpp() ? 8 : 4; }
  uint32_t samples_x() const { return msaa == xenos::MsaaSamples::k4X ? 2 : 1; }
  uint32_t samples_y() const { return msaa == xenos::MsaaSamples::k1X ? 1 : 2; }
  uint32_t sample_count() const { return samples_x() * samples_y(); }
  uint32_t pitch_tiles() const { return xenos::SurfacePitchTiles(pitch_pixels, msaa, is_64bpp()); }
  // Pixel rows one row of tiles covers (16 at 1x, 8 with 2x/4x MSAA).
  uint32_t rows_per_tile_row() const { return xenos::kEdramTileHeightSamples / samples_y(); }
  // Tiles covering pixel rows [0, rows): whole rows of tiles, at most the whole EDRAM.
  uint32_t TilesForRows(uint32_t rows) const;
  // Byte offset in the EDRAM (10 MiB x scale) of sample `sample` of host pixel (x, y) (guest
  // pixel (x / scale_x, y / scale_y)). Throws xnt::Error for a sample index >= sample_count()
  // or x outside the pitch. Inline: the cpu path calls it for every sample it tests or writes.
  [[gnu::always_inline]] inline uint32_t SampleOffset(uint32_t x, uint32_t y, uint32_t sample) const;
  // Pixel rows the EDRAM holds after the base (no wraparound), at most `max_rows`.
  uint32_t RowsToEdramEnd(uint32_t max_rows) const;
  // Pixel rows of the whole EDRAM at this pitch, counted from the base and wrapping past tile
  // 2047 to tile 0 as the hardware addresses it, at most `max_rows`.
  uint32_t RowsInEdram(uint32_t max_rows) const;
  std::string Describe() const;  // "k_8_8_8_8 base 0 pitch 1280 (16 tiles) 1x"
  // The inverse of SampleOffset: the host pixel and sample whose bits start at byte `offset` of
  // the EDRAM, on this surface's layout; nullopt when `offset` is not the start of a sample or
  // its column is right of the pitch. Where the surface wraps past tile 2047 onto
  // itself, the first row (the one nearest the base) is given.
  struct SamplePosition {
    uint32_t x = 0, y = 0, sample = 0;
  };
  std::optional<SamplePosition> SampleAt(uint32_t offset) const;
};

[[noreturn]] void ThrowBadSample(const Surface& s, uint32_t x, uint32_t sample);

inline uint32_t Surface::SampleOffset(uint32_t x, uint32_t y, uint32_t sample) const {
  if (sample >= sample_count() || x >= pitch_pixels * scale_x) [[unlikely]] {
    ThrowBadSample(*this, x, sample);
  }
  uint32_t sx = x * samples_x(), sy = y * samples_y();
  if (msaa == xenos::MsaaSamples::k2X) {
    sy += sample;
  } else if (msaa == xenos::MsaaSamples::k4X) {
    sx += sample & 1;
    sy += sample >> 1;
  }
  // Tiles are 80x16 samples of 32 bits (40x16 of 64 bits), times the scale; depth tiles store
  // their two halves swapped; tile indices wrap at 2048.
  const uint32_t row = xenos::kEdramTileWidthSamples * scale_x;
  const uint32_t tile_width = is_64bpp() ? row / 2 : row;
  const uint32_t tile_height = xenos::kEdramTileHeightSamples * scale_y;
  uint32_t in_x = sx % tile_width;
  const uint32_t in_y = sy % tile_height;
  if (is_depth) in_x = (in_x + row / 2) % row;
  const uint64_t tile = (uint64_t(base_tiles) + uint64_t(sy / tile_height) * pitch_tiles() +
                         sx / tile_width) %
                        xenos::kEdramTileCount;
  return uint32_t(tile) * kTileBytes * scale_x * scale_y +
         (in_y * tile_width + in_x) * bytes_per_sample();
}

// ---- Format encodings (guest bits) -------------------------------------------------------------

// 10-bit unsigned float, 3-bit exponent (bias 3), 7-bit mantissa: [0, 31.875]; negative and NaN
// clamp to 0; round to nearest even (Xenia xenos.h Float32To7e3 / Float7e3To32).
uint32_t Float32To7e3(float f);
float Float7e3To32(uint32_t f10);
// 24-bit unsigned depth float, 4-bit exponent (bias 15), 20-bit mantissa: [0, 2).
uint32_t Float32To20e4(float f);
float Float20e4To32(uint32_t f24);
// IEEE half <-> float (round to nearest even, denormals, inf/NaN kept). For host formats; the
// guest's render targets use the Xenos half below.
uint16_t FloatToHalf(float f);
float HalfToFloat(uint16_t h);
// Xenos float16 of the k_16_16_FLOAT / k_16_16_16_16_FLOAT render targets: no infinity and no
// NaN, exponent 31 is an ordinary exponent, so the range is +-131008 (the Xbox 360's
// "extended-range" half; Xenia canary 3ff230d23 "Float32ToF16ExtendedRange" /
// "Float16ExtendedRangeTo32", Xenia's article "Leaving No Pixel Behind" on 10.10.10.2 / 16.16.16.16 HDR targets). Round to nearest
// even; beyond +-131008 clamps to it and NaN stores 0 (Xenia's choice; the hardware's is not
// documented).
uint16_t FloatToXenosHalf(float f);
float XenosHalfToFloat(uint16_t h);
// Xenos piecewise-linear gamma (4 segments; 8-bit gamma <-> 10-bit linear).
float PwlGammaToLinear(float gamma);
float LinearToPwlGamma(float linear);

// Encodes a shader output (RGBA floats) into a colour format's guest bits: 32bpp formats use the
// low 32 bits, 64bpp formats R/G in the low dword (R in bits 15:0) and B/A in the high one.
uint64_t PackColor(xenos::ColorRenderTargetFormat format, const std::array<float, 4>& rgba);
// The inverse (what a shader reading the guest bits back would see).
std::array<float, 4> UnpackColor(xenos::ColorRenderTargetFormat format, uint64_t bits);
// The bits component c (0..3 = R, G, B, A) occupies in PackColor's encoding; 0 where the format
// lacks it. A write mask keeps these bits of the stored value.
uint64_t ColorComponentBits(xenos::ColorRenderTargetFormat format, uint32_t c);
// Whether the format's components are unsigned fixed point (the blender clamps its inputs and
// the blend constant to 0..1 for these targets).
bool ColorFormatIsUnorm(xenos::ColorRenderTargetFormat format);

// Depth: the guest dword is (depth24 << 8) | stencil.
uint32_t PackDepth(xenos::DepthRenderTargetFormat format, float depth, uint32_t stencil);
float UnpackDepth(xenos::DepthRenderTargetFormat format, uint32_t dword);
// The host keeps a 32-bit float depth beside the 24-bit guest value; it is trusted only while
// it still converts to the stored 24 bits.
bool HostDepthStillMatches(xenos::DepthRenderTargetFormat format, float host_depth,
                           uint32_t guest_dword);

// ---- The 10 MiB EDRAM --------------------------------------------------------------------------

class Edram {
 public:
  // 10 MiB of guest bits, times the resolution scale, zero at first. A session makes one before
  // its first packet and most frames touch a few of its tiles: ZeroedBytes leaves the pages
  // untouched until then (under ASan, clearing a fresh 10-90 MiB block was a tenth of a short
  // sanitized replay's CPU).
  explicit Edram(uint32_t scale_x = 1, uint32_t scale_y = 1)
      : bytes_(size_t(xenos::kEdramSizeBytes) * scale_x * scale_y),
        scale_x_(scale_x),
        scale_y_(scale_y) {}
  uint32_t scale_x() const { return scale_x_; }
  uint32_t scale_y() const { return scale_y_; }
  // One sample's guest bits (32bpp: low dword; 64bpp: both).
  uint64_t Load(const Surface& s, uint32_t x, uint32_t y, uint32_t sample) const {
    const uint32_t offset = s.SampleOffset(x, y, sample);
    uint64_t v = LoadLE32(bytes_.data() + offset);
    if (s.is_64bpp()) v |= uint64_t(LoadLE32(bytes_.data() + offset + 4)) << 32;
    return v;
  }
  void Store(const Surface& s, uint32_t x, uint32_t y, uint32_t sample, uint64_t bits) {
    const uint32_t offset = s.SampleOffset(x, y, sample);
    StoreLE32(bytes_.data() + offset, uint32_t(bits));
    if (s.is_64bpp()) StoreLE32(bytes_.data() + offset + 4, uint32_t(bits >> 32));
  }
  std::span<const uint8_t> bytes() const { return bytes_.span(); }
  std::span<uint8_t> bytes() { return bytes_.span(); }

 private:
  ZeroedBytes bytes_;
  uint32_t scale_x_ = 1, scale_y_ = 1;
};

}  // namespace xnt::gpu::edram
