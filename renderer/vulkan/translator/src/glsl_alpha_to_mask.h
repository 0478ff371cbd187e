// Alpha to mask for pixel shaders that write host render targets (the fbo path): the guest's
// per-sample coverage from oC0's alpha, written as gl_SampleMask in host sample order. The fsi
// path applies the same rule inside its output merger (glsl_output_merger.cpp).
#pragma once

#include <string>

#include "xnt/vk/translator/shader_translator.h"

namespace xnt::vk {

// Statements for the end of main(), after the alpha test, for TranslationOptions::
// ps_alpha_to_mask (empty when it is off): reads xe_o_color[0].a, gl_FragCoord and the prelude's
// xe_resolution_scale(); writes gl_SampleMask[0].
std::string GlslAlphaToMask(const TranslationOptions& options);

}  // namespace xnt::vk
