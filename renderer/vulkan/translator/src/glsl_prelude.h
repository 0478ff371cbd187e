// The fixed GLSL text every translated shader starts with: the resource declarations of
// shader_interface.h and the Xenos semantics the emitted code calls (legacy multiply, SM3 min/max,
// clamped reciprocals, endian swaps, vertex-format decoding, constant-register access).
#pragma once

#include <string>

namespace xnt::vk {

enum class GlslShaderKind { kVertex, kPixel };

// `#version` line, extensions, descriptor declarations and helper functions. The translator
// appends the stage's inputs/outputs and `main`.
// preserve_signed_zero_inf_nan: see TranslationOptions::preserve_signed_zero_inf_nan.
// memexport: the shared memory is declared writable and the memexport functions
// (glsl_memexport.h) are appended (only shaders that write eA/eM#: read-only bindings need no
// vertexPipelineStoresAndAtomics / fragmentStoresAndAtomics).
std::string GlslPrelude(GlslShaderKind kind, bool preserve_signed_zero_inf_nan = true,
                        bool memexport = false);

// The system constants block (set 1, binding 1) and its kXeSysFlag* bits alone (part of
// GlslPrelude), for host shaders over the same pipeline layout that read them.
std::string GlslSystemConstants();

}  // namespace xnt::vk
