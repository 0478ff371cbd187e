// Resolves (RB_MODECONTROL edram_mode = copy): which render-target rectangle goes where in guest
// memory, and the CPU packing of the host pixels into the console's 32x32-tiled layout.
//
// The rectangle follows Xenia's draw_util.cc GetResolveInfo: Direct3D 9 always puts the three
// corners of the resolve rectangle in vertex fetch constant 0 as x,y float pairs (guest memory,
// swapped per the fetch constant's endian field); the half-pixel offset Direct3D subtracted is
// added back when PA_SU_VTX_CNTL pix_center is 0; corners are rounded with the top-left rule
// (16.8 fixed point, (v + 127) >> 8); the window offset applies when PA_SU_SC_MODE_CNTL
// vtx_window_offset_enable is set; the window scissor clips; the result is aligned outwards to
// 8 pixels (kResolveAlignmentPixels) and clamped to the surface pitch.
//
// Pixel (x, y) of the source lands at RB_COPY_DEST_BASE + TiledOffset2D(x, y, pitch) — Xenia
// offsets the base by the tile holding (x0, y0) and writes relative to it, which is the same
// address because macro tiles are laid out linearly.
//
// Implemented: colour k_8_8_8_8 sources to k_8_8_8_8 (and k_8_8_8_8_A) destinations, red/blue
// swap, every Endian128 mode, exponent bias, colour and depth clears. MSAA targets are rendered
// at one sample, so their resolves copy that sample (edges differ from a real 2x/4x average; the
// renderer notes it). Not yet: depth copies, other formats, 3D/array destinations — reported.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "xnt/vk/draw_state.h"
#include "xnt/vk/guest_access.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk {

struct ResolveInfo {
  // Rectangle in render-target pixels, [x0, x1) x [y0, y1); may be empty.
  int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  uint32_t source_select = 0;  // 0-3 colour target, 4 depth
  bool copy = false;           // copy_command raw/convert (not null / constant one)
  bool color_clear = false;
  bool depth_clear = false;
  uint32_t color_clear_value = 0;  // RB_COLOR_CLEAR (k_8_8_8_8: R in bits 7:0)
  uint32_t depth_clear_value = 0;  // RB_DEPTH_CLEAR (depth 31:8, stencil 7:0)
  uint32_t surface_pitch = 0;
  uint32_t msaa_samples = 0;  // RB_SURFACE_INFO msaa_samples (0 = 1x)
  uint32_t color_base = 0;
  uint32_t color_format = 0;
  uint32_t depth_base = 0;
  uint32_t depth_format = 0;
  // Destination.
  uint32_t dest_base = 0;
  uint32_t dest_pitch = 0;
  uint32_t dest_height = 0;
  xenos::Endian128 dest_endian = xenos::Endian128::kNone;
  bool dest_array = false;
  xenos::TextureFormat dest_format = xenos::TextureFormat::k_8_8_8_8;
  int32_t dest_exp_bias = 0;
  bool dest_swap = false;
  // Non-empty when the copy part cannot be done (clears still can).
  std::string unsupported;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

ResolveInfo ComputeResolveInfo(RegisterValues regs, const GuestMemoryAccess& memory);

// Writes `rgba` (the rectangle's host R8G8B8A8 pixels, rows of width x1 - x0, top to bottom)
// to guest memory in the tiled k_8_8_8_8 layout. Returns bytes written.
uint64_t WriteResolvedColor(const ResolveInfo& info, std::span<const uint8_t> rgba,
                            const GuestMemoryAccess& memory);

// The guest dword for one host pixel after red/blue swap and exponent bias (before endian swap).
uint32_t PackResolveColor(uint32_t host_rgba, bool swap_red_blue, int32_t exp_bias);

}  // namespace xnt::vk
