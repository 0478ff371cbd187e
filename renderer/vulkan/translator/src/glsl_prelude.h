// The fixed GLSL text every translated shader starts with: the resource declarations of
// shader_interface.h and the Xenos semantics the emitted code calls (legacy multiply, SM3 min/max,
// clamped reciprocals, endian swaps, vertex-format decoding, constant-register access).
#pragma once

#include <cstdint>
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
// The vertex fetch of one xenos::VertexFormat as a GLSL function named GlslVertexFetchName(format):
// (fetch_slot, address_dwords, is_signed, normalized, signed_rf_no_zero, exp_adjust) -> vec4.
// A shader gets one per format it fetches, after the prelude (whose helpers it calls).
std::string GlslVertexFetch(uint32_t format);
std::string GlslVertexFetchName(uint32_t format);

// For host geometry shaders: `void XeDistances(int v)`, which gives the vertex being emitted the
// first `clip` gl_ClipDistance and `cull` gl_CullDistance entries of input vertex v (the vertex
// shader's counts, ShaderReflection: a geometry shader between it and the rasterizer must pass
// them on, or user clip planes and vertex kill stop applying). Constant indices size the
// built-in arrays as the vertex shader's.
std::string GlslGeometryDistances(uint32_t clip, uint32_t cull);

// The start of a geometry shader that draws `input` primitives ("points", "lines", "triangles") as
// triangle strips of at most `max_vertices` vertices in all (one 4-vertex strip by default): the version, its layouts, XE_PASSED (the first `passed`
// interpolators, clamped to 1..16, read as `xe_in[][XE_PASSED]`), the 16 interpolator outputs,
// the system constants and XeDistances (GlslGeometryDistances).
std::string GlslQuadGeometryShaderHead(const char* input, uint32_t passed, uint32_t clip,
                                       uint32_t cull, uint32_t max_vertices = 4);

}  // namespace xnt::vk
