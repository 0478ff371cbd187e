// Private to the EDRAM transfer code: the GLSL of the GPU EDRAM copy (edram_gpu_copy.cpp), kept
// apart from the C++ that records it because it is most of the volume and changes for different
// reasons (the guest's EDRAM addressing and number formats, mirrored from gpu/edram.h and
// render_targets.h, which the shaders must match bit for bit).
//
// The shaders address one storage buffer of dwords: the guest EDRAM words (10 MiB, edram.h's
// tile layout), then the host depth (float bits) of each depth word 10 MiB after it (Xenia's
// host-depth buffer: a depth load prefers the exact host value while it still converts to the
// guest's 24 bits), then kSrgbTableBytes of sRGB <-> PWL tables for k_8_8_8_8_GAMMA in an sRGB
// host texel and of the float bits of k / 255 for k_8_8_8_8_GAMMA codes in an RGBA32F one. Compute shaders store a host image's samples into it; full-screen draws (one per
// host sample) load a host image's pixels from it.
#pragma once

#include <cstdint>
#include <string>

#include "edram_transfer_internal.h"

namespace xnt::vk::transfer_internal {

constexpr uint32_t kSrgbTableBytes = 768 * 4;

// Push constants of the EDRAM store / load shaders (the push block of their common GLSL).
struct EdramPush {
  uint32_t width;         // columns to move: min(image width, pitch)
  uint32_t y0;
  uint32_t rows;
  uint32_t base_tiles;
  uint32_t pitch_tiles;
  uint32_t flags;         // bit 0: 64bpp; bits 1-2: guest MSAA (0 1x, 1 2x, 2 4x)
  uint32_t start_tile;
  uint32_t end_tile;
  uint32_t host_samples;
  uint32_t kind;          // ViewKind of the host UINT view
  uint32_t convert;       // 0: host bits are the guest bits; 1: 7e3 in an RGBA16F host texel;
                          // 2: PWL gamma in an R8G8B8A8_SRGB texel (tables);
                          // 3: PWL gamma codes / 255 in an R32G32B32A32_SFLOAT texel
  uint32_t host_sample;   // load: the host sample this draw writes
  uint32_t bit;           // depth load, stencil bit planes: bit index | (bit value << 8)
  uint32_t host_width;    // D24 scratch: texels per copied row (the host image width)
};
static_assert(sizeof(EdramPush) <= kPushBytes);

// Compute, colour: the UINT view's texels (msaa: every guest sample from its host sample) of the
// transferred tiles -> guest bits at their EDRAM positions.
std::string EdramStoreSource(bool msaa);
// Fragment, colour: a host sample's pixels of the transferred tiles from the EDRAM words.
std::string EdramLoadSource();
// Compute, depth: the depth and stencil aspects -> guest (depth24 << 8) | stencil words and the
// host depth beside each.
std::string EdramStoreDepthSource(bool msaa);
// Fragment, depth: mode 0 stencil export, 1 depth only, 2 one stencil bit plane.
std::string EdramLoadDepthSource(uint32_t mode);
// Compute, D24S8 through copies of a 1-sample D24_UNORM_S8_UINT image's rows.
std::string EdramD24RawSource(bool load);

}  // namespace xnt::vk::transfer_internal
