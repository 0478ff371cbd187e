// Xenos texture formats: block geometry and whether the compute loader decodes them.
// Facts from Xenia src/xenia/gpu/texture_info_formats.inc / xenos.h (cited, not copied).
#pragma once

#include <cstdint>
#include <string_view>

namespace xnt::gpu {

struct TextureFormatInfo {
  uint32_t block_width = 1;   // texels per block (4 for DXT/DXN/CTX1)
  uint32_t block_height = 1;
  uint32_t bpb_log2 = 2;      // log2 of bytes per block
  bool loadable = false;      // the compute loader decodes it (texture_load.cpp)
};

// Info for a 6-bit xenos::TextureFormat value.
TextureFormatInfo GetTextureFormatInfo(uint32_t format);

}  // namespace xnt::gpu
