// Writing swapped frames (see frame_writer.h).
#include "xnt/present/frame_writer.h"

#include "xnt/diff/png.h"

namespace xnt::present {

void WritePng(const gpu::SwapImage& image, const std::string& path) {
  diff::Image view;
  view.width = int(image.width);
  view.height = int(image.height);
  view.channels = 4;
  view.type = diff::PixelType::kU8;
  view.row_stride = size_t(image.width) * 4;
  view.data = image.rgba.data();
  diff::SavePng(path, view);
}

}  // namespace xnt::present
