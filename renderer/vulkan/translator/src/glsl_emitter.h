// Emits the GLSL `main` (and stage interface) for one decoded Xenos shader: a structured dispatch
// loop over the control-flow program, the ALU/fetch instructions of each exec, and the stage
// epilogue (VTE transform, point size, colour exponent bias, alpha test, depth).
#pragma once

#include <string>

#include "xnt/ucode/analysis.h"
#include "xnt/ucode/ucode.h"
#include "xnt/vk/translator/shader_translator.h"

namespace xnt::vk {

// Upper bound on control-flow transfers (jumps, calls, loop iterations) per invocation, so a
// malformed program cannot hang the GPU. Hardware loops run at most 255 times per loop constant;
// 65536 covers two fully nested maximal loops.
inline constexpr uint32_t kMaxControlFlowTransfers = 65536;

// Returns the GLSL body that follows GlslPrelude() and fills `reflection`.
std::string EmitGlslMain(const ucode::Shader& shader, const ucode::Analysis& analysis,
                         const TranslationOptions& options, ShaderReflection& reflection);

}  // namespace xnt::vk
