// Writing swapped frames (see frame_writer.h).
#include "xnt/present/frame_writer.h"

#include "xnt/diff/png.h"

namespace xnt::present {

void WritePng(const gpu::SwapImage& image, const std::string& path) {
  diff::SavePng(path, diff::Rgba8View(int(image.width), int(image.height), image.rgba.data()));
}

}  // namespace xnt::present
