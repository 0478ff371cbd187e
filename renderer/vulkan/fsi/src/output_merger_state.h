// The fsi path's per-draw output-merger constants from the registers, decoded as the cpu path's
// OutputMerger constructor decodes them (renderer/cpu/src/output_merger.cpp).
#pragma once

#include <cstdint>

#include "xnt/gpu/register_values.h"
#include "xnt/gpu/renderer_options.h"
#include "xnt/vk/translator/output_merger_interface.h"

namespace xnt::vk::fsi {

struct OutputMergerInput {
  bool color_used[4] = {};      // the pixel shader writes oC<i> and RB_COLOR_MASK lets some through
  bool has_pixel_shader = false;
  bool polygonal = true;        // triangles / quads / rectangles (not lines or points)
  uint32_t scale_x = 1, scale_y = 1;
  gpu::ScaledDerivatives derivatives = gpu::ScaledDerivatives::kGuest;
  // Host samples per pixel the pipeline rasterizes with (guest 2x may run on 4).
  uint32_t host_samples = 1;
};

// Whether a draw with a pixel shader may and should test depth/stencil before the shader body
// (TranslationOptions::fsi_early_depth): its coverage does not depend on the shader's oC0 alpha
// (no alpha test with a function other than always, no alpha to mask: kXeOmAlphaTest /
// kXeOmAlphaToMask), and the test can reject something (z test other than always, or stencil);
// otherwise the late order keeps the body outside the critical section. The shader's own
// conditions (no kill, oDepth, memexport) are the translator's.
bool EarlyDepthStencilWanted(gpu::RegisterValues regs);

XeOutputMergerConstants ComputeOutputMergerConstants(gpu::RegisterValues regs,
                                                     const OutputMergerInput& input);

}  // namespace xnt::vk::fsi
