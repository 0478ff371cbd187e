// The fsi path's own choices that a caller may set (renderer::SessionOptions::fsi carries them
// to the backend). No Vulkan here: the session's header includes it.
#pragma once

namespace xnt::vk::fsi {

struct FsiOptions {
  // Depth/stencil after the pixel shader for every draw, as before early depth (docs/fsi.md):
  // for measuring early depth's effect and for tests; the bits are the same either way. Off:
  // early depth/stencil where legal (TranslationOptions::fsi_early_depth: no kill, oDepth or
  // memexport in the pixel shader, alpha test and alpha to mask off).
  bool late_depth = false;
  // Polygon offset slopes from derivatives of depth and the host's depth plane, as before the
  // exact offset (docs/fsi.md "Polygon offset"): for tests showing the difference.
  bool derivative_slope = false;
};

}  // namespace xnt::vk::fsi
