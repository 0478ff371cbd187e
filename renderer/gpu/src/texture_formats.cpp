// Block geometry of every Xenos texture format (texture_formats.h). Bytes per block and block
// sizes follow Xenia src/xenia/gpu/texture_info_formats.inc.
#include "xnt/gpu/texture_formats.h"

namespace xnt::gpu {

TextureFormatInfo GetTextureFormatInfo(uint32_t format) {
  // {block w, block h, log2 bytes per block, loadable}
  switch (format) {
    case 2: case 8: case 9:                       // k_8, k_8_A, k_8_B
      return {1, 1, 0, true};
    case 3: case 4: case 5: case 10: case 15:     // 1_5_5_5, 5_6_5, 6_5_5, 8_8, 4_4_4_4
    case 24: case 30: case 27:                    // k_16, k_16_FLOAT, k_16_EXPAND
      return {1, 1, 1, true};
    case 6: case 7: case 14: case 16: case 17:    // 8888, 2_10_10_10, 8888_A, 10_11_11, 11_11_10
    case 22: case 23: case 25: case 31: case 36:  // 24_8(_FLOAT), 16_16(_FLOAT), 32_FLOAT
    case 28:                                      // 16_16_EXPAND
    case 50: case 54: case 55: case 56:           // the _AS_16_16_16_16 forms
      return {1, 1, 2, true};
    case 11: case 12:                             // YUV 4:2:2 pairs (2x1 blocks)
      return {2, 1, 2, true};
    case 26: case 32: case 37:                    // 16_16_16_16(_FLOAT), 32_32_FLOAT
    case 29:                                      // 16_16_16_16_EXPAND
      return {1, 1, 3, true};
    case 38:                                      // 32_32_32_32_FLOAT
      return {1, 1, 4, true};
    case 18: case 51: case 58: case 59: case 60:  // DXT1(_AS_16), DXT3A, DXT5A, CTX1
    case 61:                                      // DXT3A_AS_1_1_1_1
      return {4, 4, 3, true};
    case 19: case 20: case 49: case 52: case 53:  // DXT2_3, DXT4_5, DXN (+ _AS_16)
      return {4, 4, 4, true};
    // Known geometry, not decoded yet (the loader reports them as unsupported):
    case 0: case 1: return {8, 1, 0, false};      // k_1_REVERSE, k_1 (1 bpp)
    case 33: case 39: case 40: return {1, 1, 2, false};
    case 34: return {1, 1, 3, false};
    case 35: return {1, 1, 4, false};
    default: return {1, 1, 2, false};
  }
}

}  // namespace xnt::gpu
