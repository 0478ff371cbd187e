// Image views: validation, cropping and conversion of one row to normalized floats.
#include "xnt/diff/image.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "xnt/base/enum_names.h"
#include "xnt/base/error.h"

namespace xnt::diff {

size_t BytesPerChannel(PixelType type) {
  switch (type) {
    case PixelType::kU8: return 1;
    case PixelType::kU16: return 2;
    case PixelType::kF32: return 4;
  }
  return 1;
}

const char* PixelTypeName(PixelType type) {
  static constexpr const char* kNames[] = {"8-bit", "16-bit", "float"};
  return EnumName(type, kNames);
}

void Image::Validate(const char* what) const {
  std::string w = what;
  if (channels != 3 && channels != 4)
    throw Error(w + ": " + std::to_string(channels) + " channels; only RGB (3) and RGBA (4) are supported");
  if (width <= 0 || height <= 0) throw Error(w + ": empty image (" + std::to_string(width) + "x" +
                                             std::to_string(height) + ")");
  if (width > kMaxDimension || height > kMaxDimension || uint64_t(width) * uint64_t(height) > kMaxPixels)
    throw Error(w + ": image of " + std::to_string(width) + "x" + std::to_string(height) +
                " is larger than the supported maximum");
  if (data == nullptr) throw Error(w + ": no pixel data");
  if (row_stride < size_t(width) * PixelBytes())
    throw Error(w + ": row stride " + std::to_string(row_stride) + " is shorter than a row (" +
                std::to_string(size_t(width) * PixelBytes()) + " bytes)");
}

void Image::RowToFloat(int y, float* out, int x, int count) const {
  const uint8_t* row = Row(y) + size_t(x) * PixelBytes();
  const size_t n = size_t(count) * size_t(channels);
  switch (type) {
    case PixelType::kU8: {
      // Division, not a multiply by the reciprocal: v / 255 and (v * 257) / 65535 then round to the
      // same float, so an 8-bit image and its 16-bit widening compare as exact.
      for (size_t i = 0; i < n; ++i) out[i] = float(row[i]) / 255.0f;
      break;
    }
    case PixelType::kU16: {
      // Rows of a padded buffer need not be 2-byte aligned; memcpy keeps the loads legal.
      for (size_t i = 0; i < n; ++i) {
        uint16_t v;
        std::memcpy(&v, row + 2 * i, 2);
        out[i] = float(v) / 65535.0f;
      }
      break;
    }
    case PixelType::kF32: {
      for (size_t i = 0; i < n; ++i) {
        float v;
        std::memcpy(&v, row + 4 * i, 4);
        // NaN compares false both ways and lands on 0, so it cannot poison the sums.
        out[i] = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
      }
      break;
    }
  }
}

Image Image::Crop(int x, int y, int w, int h) const {
  if (x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > width || y + h > height)
    throw Error("crop " + std::to_string(w) + "x" + std::to_string(h) + "+" + std::to_string(x) + "+" +
                std::to_string(y) + " is outside the " + std::to_string(width) + "x" +
                std::to_string(height) + " image");
  Image out = *this;
  out.width = w;
  out.height = h;
  out.data = Row(y) + size_t(x) * PixelBytes();
  return out;
}

OwnedImage::OwnedImage(int width, int height, int channels, PixelType type) {
  view_.width = width;
  view_.height = height;
  view_.channels = channels;
  view_.type = type;
  view_.row_stride = size_t(width) * size_t(channels) * BytesPerChannel(type);
  if (width <= 0 || height <= 0 || (channels != 3 && channels != 4) || width > kMaxDimension ||
      height > kMaxDimension || uint64_t(width) * uint64_t(height) > kMaxPixels)
    throw Error("cannot create a " + std::to_string(width) + "x" + std::to_string(height) + "x" +
                std::to_string(channels) + " image");
  pixels_.assign(view_.row_stride * size_t(height), 0);
  view_.data = pixels_.data();
}

}  // namespace xnt::diff
