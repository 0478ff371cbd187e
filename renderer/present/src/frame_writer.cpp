// Writing swapped frames (see frame_writer.h).
#include "xnt/present/frame_writer.h"

#include <stb_image_write.h>

#include "xnt/base/error.h"

namespace xnt::present {

void WritePng(const gpu::SwapImage& image, const std::string& path) {
  if (!stbi_write_png(path.c_str(), int(image.width), int(image.height), 4, image.rgba.data(),
                      int(image.width * 4))) {
    throw Error("cannot write " + path);
  }
}

}  // namespace xnt::present
