// The pixel shader's inputs loaded into its registers before the program runs: the interpolators
// (at the pixel centre, or at the guest centroid for those TranslationOptions::ps_centroid_mask
// names) and PsParamGen, the same rules as gpu/pixel_inputs.h on the cpu path.
#pragma once

#include <cstdint>
#include <string>

#include "xnt/vk/translator/shader_translator.h"

namespace xnt::vk {

// Statements for main() that copy interpolators 0..count-1 into xe_r[] and write PsParamGen into
// xe_r[options.ps_param_gen_register] (when that register is below `register_count`). Reads
// xe_interpolators[], gl_FragCoord, gl_FrontFacing, gl_PointCoord, gl_SampleMaskIn (or, with the
// fsi output merger, xe_om_coverage_in()) and the prelude's xe_system / xe_resolution_scale().
std::string GlslPixelInputs(const TranslationOptions& options, uint32_t count,
                            uint32_t register_count);

}  // namespace xnt::vk
