// XE_SWAP: what the console would scan out. The Direct3D runtime's VdSwap writes the front
// buffer's texture fetch constant into slot 0 just before the XE_SWAP packet (Xenia
// xboxkrnl_video.cc VdSwap; the traces Xenia itself records show it), so the front buffer is read like
// a texture: base, pitch, size, tiling, endianness and swizzle from fetch constant 0. The PNG is
// RGBA8 with alpha forced to 255 (scan-out ignores alpha; Xenia's trace dump does the same).
//
// Formats: k_8_8_8_8 (and _A) and k_2_10_10_10 (reduced to 8 bits per channel); others are
// reported. The display's gamma ramp is scan-out's, applied afterwards (ApplyDisplayGamma).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xnt/gpu/register_values.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/replay/display_gamma.h"

namespace xnt::gpu {

struct SwapImage {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4, top row first
  // A k_2_10_10_10 front buffer's red, green, blue (after the swizzle) at their 10 bits, width *
  // height * 3, for the display's PWL gamma ramp (ApplyDisplayGamma); empty for 8-bit formats.
  std::vector<uint16_t> rgb10;
};

// The guest address the swap scans out from: fetch constant 0's base when it holds a texture,
// else the XE_SWAP packet's address (ReadFrontBuffer's choice; pixel history traces a front
// buffer pixel back to the resolve that wrote this address).
uint32_t FrontBufferBase(RegisterValues regs, uint32_t frontbuffer_address);

// `frontbuffer_address`, `width`, `height`: from the XE_SWAP packet; used when fetch constant 0
// is not a texture (0 = take everything from the fetch constant). Throws xnt::Error for
// unsupported formats or out-of-range memory. `threads` host threads convert bands of 32 rows,
// each reading its rows through memory.read, which must then allow concurrent reads (nothing
// writes guest memory during the call); the image does not depend on the count. `storage`: a
// buffer the image's pixels may reuse (an earlier swap's): every byte is written, so one of
// the right size is neither zero-filled nor allocated again (a 720p frame's 3.7 MB of fresh
// pages per swap, faulted in and zeroed on the swapping thread).
SwapImage ReadFrontBuffer(RegisterValues regs, uint32_t frontbuffer_address, uint32_t width,
                          uint32_t height, const GuestMemoryAccess& memory, uint32_t threads = 1,
                          std::vector<uint8_t> storage = {});

// Scan-out's gamma ramp (replay/display_gamma.h) over a swapped image: an 8:8:8:8 front buffer
// through the 256-entry table (10 bits, rounded to 8), a 2:10:10:10 one through the PWL ramp from
// its 10-bit channels (rgb10, cleared afterwards); alpha stays 255. The start-up linear table
// leaves 8-bit images as they are (nothing is done then).
void ApplyDisplayGamma(SwapImage& image, const replay::DisplayGamma& gamma);

}  // namespace xnt::gpu
