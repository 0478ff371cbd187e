// Image: a non-owning view of a frame (PNG decoded in memory, or a renderer's read-back), and
// OwnedImage, which holds the pixels of one. Channels are R,G,B[,A] in that order; rows may be
// padded (row_stride in bytes) so a renderer can hand over a mapped buffer without a copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace xnt::diff {

enum class PixelType : uint8_t {
  kU8,   // unsigned normalized, 0..255
  kU16,  // unsigned normalized, 0..65535 (host byte order)
  kF32,  // float, 0..1 nominal (values outside are clamped when compared)
};

size_t BytesPerChannel(PixelType type);
const char* PixelTypeName(PixelType type);

struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;  // 3 (RGB) or 4 (RGBA)
  PixelType type = PixelType::kU8;
  size_t row_stride = 0;  // bytes from one row to the next
  const void* data = nullptr;

  const uint8_t* Row(int y) const { return static_cast<const uint8_t*>(data) + size_t(y) * row_stride; }
  size_t PixelBytes() const { return size_t(channels) * BytesPerChannel(type); }
  bool HasAlpha() const { return channels == 4; }
  // Throws Error when the view is not usable (bad channel count, null data, short stride...).
  void Validate(const char* what) const;
  // Converts row y into floats, `channels` values per pixel, each in 0..1.
  void RowToFloat(int y, float* out) const { RowToFloat(y, out, 0, width); }
  // Columns [x, x + count) of row y only.
  void RowToFloat(int y, float* out, int x, int count) const;
  // The sub-rectangle [x, x+w) x [y, y+h): a view on the same pixels.
  Image Crop(int x, int y, int w, int h) const;
};

// A view of `width` x `height` tightly packed 8-bit RGBA pixels (a swapped frame's layout).
inline Image Rgba8View(int width, int height, const void* data) {
  Image view;
  view.width = width;
  view.height = height;
  view.channels = 4;
  view.type = PixelType::kU8;
  view.row_stride = size_t(width) * 4;
  view.data = data;
  return view;
}

class OwnedImage {
 public:
  OwnedImage() = default;
  OwnedImage(int width, int height, int channels, PixelType type);
  // Moves keep the pixel buffer (and so view().data) in place; copies would not, so none exist.
  OwnedImage(OwnedImage&&) = default;
  OwnedImage& operator=(OwnedImage&&) = default;
  OwnedImage(const OwnedImage&) = delete;
  OwnedImage& operator=(const OwnedImage&) = delete;

  const Image& view() const { return view_; }
  uint8_t* MutableRow(int y) { return pixels_.data() + size_t(y) * view_.row_stride; }
  bool empty() const { return pixels_.empty(); }

 private:
  std::vector<uint8_t> pixels_;
  Image view_;
};

// Largest image accepted anywhere (one side, and total pixels): rejects absurd headers before any
// allocation is sized by them.
inline constexpr int kMaxDimension = 1 << 15;
inline constexpr uint64_t kMaxPixels = uint64_t(1) << 28;

}  // namespace xnt::diff
