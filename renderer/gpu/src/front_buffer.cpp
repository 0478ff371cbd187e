// Front buffer read-out and PNG writing (see swap.h).
#include "xnt/gpu/front_buffer.h"


#include <algorithm>
#include <exception>
#include <thread>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/base/parallel.h"
#include "xnt/gpu/texture_address.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

namespace {

xenos::TextureFetchConstant FetchConstant0(RegisterValues regs) {
  uint32_t d[6];
  for (uint32_t i = 0; i < 6; ++i) d[i] = RegisterValue(regs, xenos::FetchConstantIndex(0, i));
  return xenos::TextureFetchConstant::Decode(d);
}

// Converts rows of the front buffer's texels (already read into a band's buffer) to RGBA8.
class FrontBufferRows {
 public:
  FrontBufferRows(uint32_t swizzle, xenos::Endian endian, bool tiled, bool ten_bit,
                  uint32_t width, uint32_t pitch)
      : endian_(endian), tiled_(tiled), ten_bit_(ten_bit), width_(width), pitch_(pitch) {
    // Each output channel is a byte of the unpacked texel (c[0..3]), 0 or 255 (swizzle 4, 5; 6
    // and 7 read as 0); alpha is always 255.
    for (uint32_t i = 0; i < 3; ++i) {
      const uint32_t s = (swizzle >> (3 * i)) & 7;
      source_[i] = s < 6 ? s : 4;
    }
    // With 8-bit channels each output byte is one byte of the swapped texel or a constant, so
    // every texel of the image converts with the same shifts and masks (no per-texel choice).
    for (uint32_t i = 0; i < 3; ++i) {
      rgba8_.shift[i] = source_[i] < 4 ? 8 * source_[i] : 0;
      rgba8_.mask[i] = source_[i] < 4 ? 0xFFu : 0u;
      if (source_[i] == 5) rgba8_.fill |= 0xFFu << (8 * i);
    }
  }

  // Row y of the image from `bytes`, the guest bytes from `band_start` on.
  void Convert(const uint8_t* bytes, uint64_t band_start, uint32_t y, SwapImage& image) const {
    uint8_t* out = &image.rgba[size_t(y) * width_ * 4];
    if (tiled_ && !ten_bit_) {
      using E = xenos::Endian;
      switch (endian_) {
        case E::kNone: return TiledRow8<E::kNone>(bytes, band_start, y, out);
        case E::k8in16: return TiledRow8<E::k8in16>(bytes, band_start, y, out);
        case E::k8in32: return TiledRow8<E::k8in32>(bytes, band_start, y, out);
        case E::k16in32: return TiledRow8<E::k16in32>(bytes, band_start, y, out);
      }
    }
    for (uint32_t x = 0; x < width_; ++x, out += 4) {
      const uint32_t offset = tiled_ ? uint32_t(TiledOffset2D(int32_t(x), int32_t(y), pitch_, 2))
                                     : LinearOffset2D(x, y, pitch_, 2);
      const uint32_t texel = xenos::GpuSwap(LoadLE32(bytes + (offset - band_start)), endian_);
      if (!ten_bit_) {
        StoreLE32(out, Rgba8(texel));
        continue;
      }
      uint32_t c[6];
      for (int i = 0; i < 3; ++i) c[i] = (((texel >> (10 * i)) & 0x3FF) * 255 + 511) / 1023;
      c[3] = (texel >> 30) * 85;
      c[4] = 0;
      c[5] = 255;
      for (int i = 0; i < 3; ++i) out[i] = uint8_t(c[source_[i]]);
      out[3] = 255;
      // The same channels at 10 bits for the PWL ramp (the 2-bit alpha as 0, 341, 682, 1023;
      // swizzle 4 and 5 as 0 and 1023).
      const uint32_t t[6] = {texel & 0x3FFu, (texel >> 10) & 0x3FFu, (texel >> 20) & 0x3FFu,
                             (texel >> 30) * 341u, 0u, 1023u};
      uint16_t* ten = &image.rgb10[(size_t(y) * width_ + x) * 3];
      for (int i = 0; i < 3; ++i) ten[i] = uint16_t(t[source_[i]]);
    }
  }

 private:
  // Each output channel a byte of the swapped texel or a constant: shifts, masks and the
  // constant bits, in a value a loop can copy into locals.
  struct Rgba8Swizzle {
    uint32_t shift[3], mask[3], fill;
    uint32_t operator()(uint32_t texel) const {
      return fill | ((texel >> shift[0]) & mask[0]) | (((texel >> shift[1]) & mask[1]) << 8) |
             (((texel >> shift[2]) & mask[2]) << 16);
    }
  };
  uint32_t Rgba8(uint32_t texel) const { return rgba8_(texel); }

  // A tiled 8-bit row: the 4 texels of an aligned run of x are 16 consecutive bytes
  // (TiledOffset2D passes x bits 1:0 through as byte offset bits 3:2); the swap mode is a
  // template argument so that the loop has no switch in it.
  // The swizzle is copied to a local first: the output is bytes, which may alias the members as
  // far as the compiler knows, so it would reload them for every texel.
  template <xenos::Endian kEndian>
  void TiledRow8(const uint8_t* bytes, uint64_t band_start, uint32_t y, uint8_t* out) const {
    const Rgba8Swizzle rgba8 = rgba8_;
    const uint32_t width = width_, pitch = pitch_;
    for (uint32_t x = 0; x < width; x += 4) {
      const uint8_t* run =
          bytes + (uint32_t(TiledOffset2D(int32_t(x), int32_t(y), pitch, 2)) - band_start);
      const uint32_t n = std::min(4u, width - x);
      for (uint32_t i = 0; i < n; ++i, out += 4) {
        StoreLE32(out, rgba8(xenos::GpuSwap(LoadLE32(run + i * 4), kEndian)));
      }
    }
  }

  xenos::Endian endian_;
  bool tiled_, ten_bit_;
  uint32_t width_, pitch_;
  uint32_t source_[3];
  Rgba8Swizzle rgba8_{{0, 0, 0}, {0, 0, 0}, 0xFF000000u};
};

}  // namespace

uint32_t FrontBufferBase(RegisterValues regs, uint32_t frontbuffer_address) {
  const auto fetch = FetchConstant0(regs);
  return fetch.type == xenos::FetchConstantType::kTexture ? fetch.base_address_bytes()
                                                          : frontbuffer_address;
}

SwapImage ReadFrontBuffer(RegisterValues regs, uint32_t frontbuffer_address, uint32_t width,
                          uint32_t height, const GuestMemoryAccess& memory, uint32_t threads,
                          std::vector<uint8_t> storage) {
  const auto fetch = FetchConstant0(regs);
  const uint32_t base = FrontBufferBase(regs, frontbuffer_address);
  uint32_t pitch = width;
  bool tiled = true;
  xenos::TextureFormat format = xenos::TextureFormat::k_8_8_8_8;
  xenos::Endian endian = xenos::Endian::k8in32;
  // X, Y, Z, W from components 0..3 (3 bits each from bit 0 of `swizzle`; 4 = 0, 5 = 1).
  uint32_t swizzle = 0 | (1 << 3) | (2 << 6) | (3 << 9);
  if (fetch.type == xenos::FetchConstantType::kTexture) {
    if (!width) width = fetch.width();
    if (!height) height = fetch.height();
    width = std::min(width, fetch.width());
    height = std::min(height, fetch.height());
    pitch = fetch.pitch << 5;
    tiled = fetch.tiled;
    format = fetch.format;
    endian = fetch.endianness;
    swizzle = fetch.swizzle;
  }
  if (width == 0 || height == 0 || width > 8192 || height > 8192) {
    throw Error("swap: front buffer size " + std::to_string(width) + "x" +
                std::to_string(height) + " is outside 1..8192");
  }
  pitch = std::max(pitch, width);
  bool ten_bit = format == xenos::TextureFormat::k_2_10_10_10;
  if (format != xenos::TextureFormat::k_8_8_8_8 && format != xenos::TextureFormat::k_8_8_8_8_A &&
      !ten_bit) {
    throw Error("swap: front buffer format " +
                std::string(xenos::TextureFormatName(uint32_t(format))) +
                " is not implemented (k_8_8_8_8, k_2_10_10_10)");
  }
  // The span the image covers must lie in guest physical memory.
  uint64_t span;
  if (tiled) {
    uint32_t pitch_aligned = (pitch + 31) & ~31u;
    uint32_t rows_aligned = (height + 31) & ~31u;
    span = uint64_t(pitch_aligned) * rows_aligned * 4;
  } else {
    span = uint64_t(LinearOffset2D(0, height, pitch, 2));
  }
  if (uint64_t(base) + span > (512ull << 20)) {
    throw Error("swap: front buffer at 0x" + std::to_string(base) + " (" + std::to_string(span) +
                " bytes) leaves guest physical memory");
  }
  // Read band by band (32 rows: one row of 32x32 macro tiles, or 32 linear rows), each thread
  // into one reused buffer: a 720p frame's whole span would be 3.7 MB of fresh pages per swap.
  const uint32_t tiled_band_bytes = ((pitch + 31) >> 5) * 4096;
  const uint32_t linear_row_bytes = LinearOffset2D(0, 1, pitch, 2);

  SwapImage image;
  image.width = width;
  image.height = height;
  image.rgba = std::move(storage);
  image.rgba.resize(size_t(width) * height * 4);  // every byte is written below
  if (ten_bit) image.rgb10.resize(size_t(width) * height * 3);
  const FrontBufferRows rows(swizzle, endian, tiled, ten_bit, width, pitch);
  // Bands of 32 rows dealt round-robin over the threads; each has its own buffer.
  const uint32_t bands = (height + 31) / 32;
  auto convert = [&](uint32_t first_band, uint32_t step) {
    std::vector<uint8_t> bytes;
    for (uint32_t band = first_band; band < bands; band += step) {
      const uint32_t y0 = band * 32, y1 = std::min(height, y0 + 32);
      const uint64_t band_start =
          tiled ? uint64_t(band) * tiled_band_bytes : uint64_t(y0) * linear_row_bytes;
      const uint64_t end = tiled ? band_start + tiled_band_bytes : uint64_t(y1) * linear_row_bytes;
      bytes.resize(size_t(end - band_start));
      memory.read(base + uint32_t(band_start), bytes);
      for (uint32_t y = y0; y < y1; ++y) rows.Convert(bytes.data(), band_start, y, image);
    }
  };
  const uint32_t workers = std::clamp<uint32_t>(threads, 1, std::max(1u, bands));
  RunShares(workers, convert);
  return image;
}

void ApplyDisplayGamma(SwapImage& image, const replay::DisplayGamma& gamma) {
  const size_t pixels = size_t(image.width) * image.height;
  if (!image.rgb10.empty()) {
    for (size_t p = 0; p < pixels; ++p) {
      for (uint32_t c = 0; c < 3; ++c) {
        image.rgba[p * 4 + c] = uint8_t(gamma.Pwl(c, image.rgb10[p * 3 + c]) * 255.0f + 0.5f);
      }
    }
    image.rgb10.clear();
    image.rgb10.shrink_to_fit();
    return;
  }
  if (gamma.table_is_identity()) return;
  // Per channel, the 256 results rounded from 10 to 8 bits once.
  uint8_t lut[3][256];
  for (uint32_t c = 0; c < 3; ++c) {
    for (uint32_t v = 0; v < 256; ++v) lut[c][v] = uint8_t((gamma.Table(c, v) * 255u + 511u) / 1023u);
  }
  for (size_t p = 0; p < pixels; ++p) {
    for (uint32_t c = 0; c < 3; ++c) image.rgba[p * 4 + c] = lut[c][image.rgba[p * 4 + c]];
  }
}

}  // namespace xnt::gpu
