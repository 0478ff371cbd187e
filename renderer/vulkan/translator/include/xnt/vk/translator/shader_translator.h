// Xenos shader microcode -> GLSL -> SPIR-V, for the Vulkan renderer and `--dump-shaders`.
//
// The translator turns a decoded shader (xnt::ucode::Shader + Analysis) into GLSL 450 that runs the
// guest program in a structured dispatch loop (`while (pc >= 0) switch (pc)`, one case per
// control-flow instruction, falling through in program order) with the Xenos ALU semantics from
// glsl_prelude.cpp, binds resources as shader_interface.h says, and compiles it with libshaderc.
// See docs/translator.md for what is and is not implemented.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "xnt/ucode/analysis.h"
#include "xnt/ucode/ucode.h"
#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

// Per-draw state that changes the generated code (part of the cache key).
struct TranslationOptions {
  // Pixel shaders: interpolators copied into r0..r(n-1) before the program runs (Xenos loads the
  // interpolators into the first pixel-shader registers). Clamped to 16 and to the registers the
  // shader has.
  uint32_t ps_interpolator_count = 16;
  // Pixel shaders: SQ_PROGRAM_CNTL param_gen (bit 18) with SQ_CONTEXT_MISC param_gen_pos
  // (bits 8-15): the register that receives the generated parameters (gpu::PsParamGen: the
  // pixel position in guest pixels, the back-face / point / line flags in the sign bits of x, y,
  // z, a point's sprite coordinate in zw), or -1 for none.
  int32_t ps_param_gen_register = -1;
  // Pixel shaders of a point list expanded to quads (point_quad.h): param gen's sprite
  // coordinate is read from `xe_point_coord` (kXePointCoordLocation), which the geometry shader
  // writes, since a quad has no gl_PointCoord.
  bool ps_point_coord_input = false;
  // Pixel shaders: bit i set: interpolator i is taken at the centroid of the pixel's covered
  // guest samples (gpu::InterpolatorCentroidMask, gpu::CentroidSample), evaluated with
  // interpolateAtOffset at that guest sample's position, so every host follows the one rule
  // rather than its own centroid choice. Needs sampleRateShading (the InterpolationFunction
  // capability); the caller leaves it 0 without.
  uint32_t ps_centroid_mask = 0;
  // With ps_centroid_mask or ps_alpha_to_mask: guest samples per pixel (1, 2 or 4); with
  // ps_centroid_mask, in bits 4s..4s+3 the host sample
  // whose gl_SampleMaskIn bit is guest sample s's coverage (the fbo path's render-target mapping;
  // with fsi_output_merger the output merger's own guest coverage is used instead).
  uint32_t ps_msaa_samples = 1;
  uint32_t ps_host_sample_of_guest = 0x3210;
  // Pixel shaders writing oC0 outside the fsi output merger, for draws with RB_COLORCONTROL
  // alpha_to_mask_enable: gl_SampleMask from oC0's alpha (before the exponent bias) by the
  // guest's thresholds per sample (cpu OutputMerger::AlphaToMask), over ps_msaa_samples guest
  // samples. Bits 0-7: alpha_to_mask_offset0..3; bit 8: on; bits 12-15: host samples per pixel;
  // bits 16 + 4h..19 + 4h: the guest sample whose coverage host sample h takes (the fbo path's
  // render-target mapping, render_targets.h GuestSampleOfHost).
  uint32_t ps_alpha_to_mask = 0;
  // Pixel shaders outside the fsi output merger: bit i set: the draw binds host colour attachment
  // i (gpu::DrawColorTargets). An oC# without one is still computed (the alpha test and alpha
  // to mask read oC0) but not declared as an output: Vulkan discards a write to a location
  // without an attachment, and validation layers warn about it.
  uint32_t ps_color_attachments = 0xF;
  // Bit s set: a 3D fetch of texture slot s carries the in-shader volume filter
  // (glsl_volume_filter.h), which decides at run time whether the slot's volume needs it. The
  // replay paths set only the slots whose fetch constant is a volume that may (its own z filter
  // differs from its x/y filter, or an instruction overrides a filter), so other draws' shaders
  // stay as small as before.
  uint32_t volume_filter_slots = 0xFFFFFFFFu;
  // Declares the SPIR-V SignedZeroInfNanPreserve execution mode for 32-bit floats
  // (SPV_KHR_float_controls). Without it a driver may assume no NaN, infinity or -0 and fold the
  // Xenos selects (max = a >= b ? a : b, the infinity flushes of rcpf/logc) into fmax/fmin and
  // sign-dropping forms — NVIDIA's compiler does, lavapipe's happens not to. Set it only where
  // VkPhysicalDeviceVulkan12Properties::shaderSignedZeroInfNanPreserveFloat32 is true.
  bool preserve_signed_zero_inf_nan = true;
  // Pixel shaders on the fsi path: instead of colour outputs, the output merger runs at the end
  // of the shader on the EDRAM storage buffer (glsl_output_merger.h, output_merger_interface.h).
  // 0: off (fbo); 1: inside a pixel-ordered fragment shader interlock critical section; 2: with
  // no interlock (the named test mode relying on the rasterizer's own ordering,
  // renderer/vulkan/fsi).
  uint32_t fsi_output_merger = 0;
  // Pixel shaders with fsi_output_merger: test (and write) depth/stencil before the shader body
  // and skip the body for 2x2 quads where no sample passed (glsl_output_merger.h). The caller
  // sets it only where alpha test and alpha to mask are off for the draw; the translator honours
  // it only for shaders without kill, oDepth and memexport (ShaderReflection::fsi_early_depth
  // says whether it did) and otherwise emits the late order.
  bool fsi_early_depth = false;
  // Pixel shaders (the fsi path sets it): a 2D or stacked texture fetch that resolves to bilinear
  // filtering at the texture's only level is filtered in the shader from texelFetch'd texels with
  // the cpu path's weights and lerps (glsl_exact_filter.h) instead of by the host sampler, whose
  // weights are the hardware's fixed-point ones. Other fetches keep the host sampler.
  bool exact_bilinear = false;
  // The fsi path, for triangle draws with depth test or polygon offset (docs/fsi.md "Polygon
  // offset"): the vertex shader also writes its exported position (before the PA_CL_VTE_CNTL
  // formats) to location kXeVertexPositionLocation; a geometry shader
  // (PolygonOffsetGeometryShaderGlsl) hands the pixel shader the triangle's three, flat, and the
  // pixel shader computes the cpu path's sample depths and polygon offset for the triangle in
  // double precision (shaderFloat64) instead of from gl_FragCoord.z and its derivatives. Set it on both stages of a draw, and only where the device
  // has geometry shaders and shaderFloat64. Without fsi_output_merger (the fbo path, draws into
  // a one-sample depth target) the pixel shader writes that depth, or its oDepth, rounded to
  // the guest depth format as gl_FragDepth (glsl_polygon_offset.h xe_exact_fragment_depth).
  bool fsi_exact_polygon_offset = false;
  // With fsi_exact_polygon_offset, vertex shaders: the interpolator slot the exported position
  // goes to, right after the interpolators the geometry shader passes on (it reads them and the
  // position at locations 0..vs_position_location, which must lie within
  // maxGeometryInputComponents beside gl_PerVertex: PolygonOffsetGeometryInterpolators).
  uint32_t vs_position_location = kXeVertexPositionLocation;
  // Vertex shaders: the draw's user clip planes and vertex kill (gpu/primitive_clip.h), as
  // gl_ClipDistance / gl_CullDistance (shaderClipDistance / shaderCullDistance; at most 7 of the
  // 8 combined distances every device has). vs_user_clip_planes: planes read from
  // XeSystemConstants::user_clip_planes, written as clip distances, or as cull distances with
  // vs_user_clip_cull_only. vs_vertex_kill (gpu::VertexKillRule): 1 (all) a cull distance of -1
  // at killed vertices, so a primitive whose vertices are all killed is culled; 2 (any) a clip
  // distance of -1e30 at killed vertices and 1 elsewhere, which leaves of a primitive with a
  // killed vertex only a sliver within 1e-30 of its edges, below the rasterizer's sub-pixel
  // precision, so nothing is drawn.
  uint32_t vs_user_clip_planes = 0;
  bool vs_user_clip_cull_only = false;
  uint32_t vs_vertex_kill = 0;
  // Vertex shaders: also write the oPts export as the program left it (x size, y edge flag, z
  // kill) to gl_ClipDistance[n..n+3], after the user clip planes. For translate --check, whose
  // capturing geometry shader compares it with the interpreter's (it draws nothing: the
  // distances clip nothing there). Not gl_PointSize: a geometry shader reads that only with
  // shaderTessellationAndGeometryPointSize, which would make every point-emitting geometry
  // shader of the renderer responsible for the size; not a location: 16 vec4 locations are all
  // a geometry shader may read, and o0-o15 take them.
  bool vs_point_export_clip_distances = false;

  // Vertex shaders of a tessellated draw (gpu/tessellated_draw.h): the shader runs as the
  // domain shader, r0 and r1 loaded from the draw's domain inputs (set 1 binding
  // kDomainInputsBinding, two vec4 per generated vertex, indexed by gl_VertexIndex) instead of
  // r0.x from the vertex index.
  bool domain_inputs = false;

  bool operator==(const TranslationOptions&) const = default;
};

// What the translated shader reads and writes, for the pipeline and render-target code.
struct ShaderReflection {
  bool is_pixel_shader = false;
  uint32_t interpolators_written = 0;  // VS: o0-o15 written (bit i)
  uint32_t interpolators_read = 0;     // PS: interpolators copied into registers (bit i)
  uint32_t color_targets_written = 0;  // PS: oC0-oC3 (bit i); those have `xe_color` outputs
  bool writes_position = false;        // VS
  bool writes_point_size = false;      // VS (oPts.x)
  bool writes_depth = false;           // PS (oDepth -> gl_FragDepth)
  bool kills = false;                  // PS: kill / kills ops present
  // VS: gl_ClipDistance / gl_CullDistance entries written (a geometry shader passes as many on).
  uint32_t clip_distances = 0, cull_distances = 0;
  // VS: the last clip distance is vtx_kill_or 1's kill marker (vs_vertex_kill 2), not a plane's
  // distance: a geometry shader deriving a vertex must not interpolate it.
  bool kill_clip_distance = false;
  // VS with fsi_exact_polygon_offset: TranslationOptions::vs_position_location.
  uint32_t position_location = kXeVertexPositionLocation;
  uint32_t texture_slots = 0;          // texture fetch constants sampled (bit i = xe_textures[i])
  // Per texture slot, the tfetch instruction's filter overrides (the first fetch of the slot that
  // has any), packed as shader_interface.h kTextureFiltersKeep describes.
  std::array<uint32_t, 32> texture_filters = KeepTextureFilters();
  // Texture slots some fetch samples with the host sampler's own magnification / LOD choice
  // (bit i): 1D, cube and 3D fetches, register LOD or gradients, vertex shaders. The others pick
  // point magnification in the shader (glsl_texel_address.cpp xe_point_applies).
  uint32_t texture_host_lod_slots = 0;
  std::array<uint32_t, 3> vertex_fetch_slots{};  // vertex fetch constants 0-95 used
  bool uses_memexport = false;         // eA / eM# written (stores into the shared memory)
  bool fsi_early_depth = false;        // PS (fsi): depth/stencil tested before the body
  uint32_t register_count = 0;         // size of the temp register array
  // The guest constant rows the translated code may read (the core uploads only those).
  XeConstantReads constant_reads;
  // Run-time notes: features of this shader the translator does not implement exactly
  // (memexport, 3D/cube textures sampled as 2D...). Callers print them.
  std::vector<std::string> notes;
};

struct TranslatedShader {
  std::string glsl;
  std::vector<uint32_t> spirv;  // DisassembleSpirv (shader_compiler.h) gives its text
  ShaderReflection reflection;
  uint64_t ucode_hash = 0;  // 64-bit FNV-1a of the microcode dwords
};

// Only the GLSL (no compilation): for inspection and tests.
// The rows of each guest constant part (shader_interface.h) a shader's translation reads.
XeConstantReads ConstantReadsOf(const ucode::Shader& shader, const ucode::Analysis& analysis);

std::string TranslateToGlsl(const ucode::Shader& shader, const ucode::Analysis& analysis,
                            const TranslationOptions& options, ShaderReflection* reflection);

// GLSL + SPIR-V + disassembly + reflection. Throws xnt::Error if the generated GLSL does not
// compile (a translator bug; the message carries the compiler log).
TranslatedShader Translate(const ucode::Shader& shader, const ucode::Analysis& analysis,
                           const TranslationOptions& options);

uint64_t HashMicrocode(const std::vector<uint32_t>& dwords);

// Translation cache keyed by (shader type, microcode, options). Thread-safe.
class ShaderTranslator {
 public:
  std::shared_ptr<const TranslatedShader> Get(const ucode::Shader& shader,
                                              const ucode::Analysis& analysis,
                                              const TranslationOptions& options);
  size_t size() const;
  uint64_t hits() const;
  uint64_t misses() const;

 private:
  struct Entry {
    ucode::ShaderType type;
    std::vector<uint32_t> dwords;
    TranslationOptions options;
    std::shared_ptr<const TranslatedShader> shader;
  };
  mutable std::mutex mutex_;
  std::unordered_multimap<uint64_t, Entry> entries_;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace xnt::vk
