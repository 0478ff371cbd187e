// Resolution scaling rules every path shares (Xenia's article "Presenting the Presentation Update", "Non-square
// rendering resolution scaling"): host pixels are multiplied, guest addresses are not. At S x T a guest
// pixel is S x T host pixels; an EDRAM tile holds 80S x 16T samples (edram.h); scissors,
// clears and resolve rectangles are multiplied; the viewport transform is computed in guest
// pixels and the host maps it onto the S x T times larger target (so the Direct3D half-pixel
// offset of PA_SU_VTX_CNTL pix_center = 0, viewport.h, moves geometry by S/2 x T/2 host pixels:
// half a guest pixel, as on the console); param gen (the pixel position a shader reads) is the
// host pixel centre divided by the scale, i.e. in guest pixels; a texture read from a scaled
// resolve copy keeps its unnormalised coordinates, half-texel offsets and getWeights in guest
// texels, so filters written for 1x keep their footprint (scale-aware sampling).
#pragma once

#include <cstdint>

#include "xnt/base/resolution_scale.h"
#include "xnt/gpu/viewport.h"

namespace xnt::gpu {

// The type and its parser live in base/ (every command parses a scale); the rules are here.
using ResolutionScale = xnt::ResolutionScale;

// A guest scissor (viewport.h) in host pixels.
inline ScissorRect HostScissor(const ScissorRect& guest, ResolutionScale s) {
  ScissorRect r;
  r.offset.x = guest.offset.x * int32_t(s.x);
  r.offset.y = guest.offset.y * int32_t(s.y);
  r.extent.width = guest.extent.width * s.x;
  r.extent.height = guest.extent.height * s.y;
  return r;
}

// A guest rectangle [x0, x1) x [y0, y1) (a resolve's, a clear's) in host pixels.
inline ScissorRect HostRect(int32_t x0, int32_t y0, int32_t x1, int32_t y1, ResolutionScale s) {
  ScissorRect r;
  r.offset.x = x0 * int32_t(s.x);
  r.offset.y = y0 * int32_t(s.y);
  r.extent.width = x1 > x0 ? uint32_t(x1 - x0) * s.x : 0u;
  r.extent.height = y1 > y0 ? uint32_t(y1 - y0) * s.y : 0u;
  return r;
}

// Where a shader's position (after the VTE formats, x/w) lands in host pixels on a target at
// scale `s`: the guest screen position (viewport.h, half-pixel offset folded in) times the scale.
// The fbo host viewport and the cpu rasterizer both compute exactly this, so a Direct3D
// full-screen quad at -0.5 .. W - 0.5 covers host pixels 0 .. S x W with no gap at the left.
inline float HostScreenX(const Viewport& vp, float x, ResolutionScale s) {
  return (x * vp.screen_scale[0] + vp.screen_offset[0]) * float(s.x);
}
inline float HostScreenY(const Viewport& vp, float y, ResolutionScale s) {
  return (y * vp.screen_scale[1] + vp.screen_offset[1]) * float(s.y);
}

// Texels of a texture `host_texels` wide in guest units: a scaled resolve copy is `scale` times
// the guest texture (1 for any other texture).
inline float GuestTexels(uint32_t host_texels, uint32_t scale) {
  return float(host_texels / scale);
}

}  // namespace xnt::gpu
