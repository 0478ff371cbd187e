// How a pixel shader's outputs leave it. The fsi path's output-merger epilogue in GLSL: depth/stencil, alpha test, alpha to mask,
// blending and format packing on the guest bits of the EDRAM storage buffer (descriptor set 3,
// output_merger_interface.h), rule by rule as the cpu path does it
// (renderer/cpu/src/output_merger.cpp) with the encodings of renderer/gpu/src/edram.cpp.
#pragma once

#include <cstdint>
#include <string>

namespace xnt::vk {

// The declarations and functions (placed before `main`). `interlock`: the shader declares
// pixel_interlock_ordered (GL_ARB_fragment_shader_interlock, whose #extension line
// GlslOutputMergerExtension() gives and which must follow #version).
// `exact_polygon_offset` (TranslationOptions::fsi_exact_polygon_offset): the per-sample depths
// take the cpu path's polygon offset of the triangle (glsl_polygon_offset.h) instead of one from
// derivatives of gl_FragCoord.z; the pipeline then needs the geometry shader of
// PolygonOffsetGeometryShaderGlsl and shaderFloat64.
std::string GlslOutputMerger(bool interlock, bool exact_polygon_offset = false);
std::string GlslOutputMergerExtension();

// The statements at the top of `main` (derivatives of depth, taken while every invocation of
// the quad is still running).
std::string GlslOutputMergerPrologue();
// The statements ending `main`: coverage, alpha test and alpha to mask outside the critical
// section, then depth/stencil and colour writes inside it. `colors_written`: bit i = oC<i> is
// written; `depth_written`: oDepth replaces the interpolated depth; `colors`/`depth`: the GLSL
// expressions holding them.
std::string GlslOutputMergerEpilogue(bool interlock, uint32_t colors_written, bool depth_written,
                                     const std::string& colors, const std::string& depth);

// Early depth/stencil (TranslationOptions::fsi_early_depth), legal only where the shader has no
// kill, oDepth or memexport and alpha test and alpha to mask are off: the head (after the
// prologue) opens the critical section, tests and writes depth/stencil for the covered samples
// and opens `if` around the shader body, which then runs only for 2x2 quads with a sample that
// passed; the tail closes it and writes the colours of the passing samples. The EDRAM bits are
// those of the late order: the same functions in the same order within the critical section.
std::string GlslOutputMergerEarlyHead(bool interlock);
std::string GlslOutputMergerEarlyTail(bool interlock, const std::string& colors);

// The fbo path's conversion of colour exports for its host render targets (xe_color_output,
// placed before `main` when the shader writes colours): the other way a pixel shader's outputs
// leave it.
std::string GlslHostColorOutput();

// A whole fragment shader for draws without a pixel shader (depth/stencil only).
std::string GlslDepthOnlyFragmentShader(bool interlock, bool exact_polygon_offset);

}  // namespace xnt::vk
