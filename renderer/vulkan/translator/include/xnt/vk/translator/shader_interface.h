// The binding contract between the Vulkan renderer core and the translated guest shaders:
// descriptor sets, uniform-buffer layouts, system-constant flag bits, vertex inputs and fragment
// outputs. Both sides include this header; changes are additive and documented here.
//
// Owner: the shader translator (renderer/vulkan/translator/src/shader_translator*.cpp, glsl_*.cpp).
// The renderer core fills the buffers and binds the sets; the translator's GLSL declares exactly
// the same layout (glsl_prelude.cpp mirrors every struct below, and tests check it compiles).
//
//   set 0 binding 0  storage buffer[4]  XeSharedMemory   guest physical memory, raw big-endian bytes
//   set 1 binding 0  uniform buffer     XeFloatConstants the vertex shader's float constants c0-c255
//   set 1 binding 1  uniform buffer     XeSystemConstants  per-draw state the core derives
//   set 1 binding 3  uniform buffer     XeFloatConstants the pixel shader's float constants c0-c255
//   set 1 binding 4  uniform buffer     XeConstants      fetch/bool/loop constant registers
//   set 2 binding 0  sampler2DArray[32] xe_textures      1D / 2D / stacked textures, per fetch slot
//   set 2 binding 1  samplerCube[32]    xe_textures_cube cube maps, per fetch slot
//   set 2 binding 2  sampler3D[32]      xe_textures_3d   3D (volume) textures, per fetch slot
//
// Vertex stage: gl_VertexIndex is the guest vertex index after the primitive processor, already
// endian-swapped, offset and clamped by the core. The shader adds XeSystemConstants::
// vertex_base_index (0 from the paths, which put VGT_INDX_OFFSET in the indices themselves) and writes the sum as a float into r0.x, which is what the Xenos sequencer does
// for vertex shaders (the XDK listing shows it as `dcl_index r0.x`).
// Interpolators: `layout(location = 0) out vec4 xe_interpolators[16]` (locations 0..15).
// Position goes through the VTE transform below into gl_Position; point size (oPts.x) into
// gl_PointSize when the shader exports it (clamped to point_size_min_max.xy; for point quads in
// guest pixels, kXeSysFlagPointQuads).
// The point-quad geometry shader adds `layout(location = kXePointCoordLocation) out vec2
// xe_point_coord`, the sprite coordinate a pixel shader with
// TranslationOptions::ps_point_coord_input reads instead of gl_PointCoord.
//
// Fragment stage: `layout(location = 0) in vec4 xe_interpolators[16]`; they are copied into
// r0..r15 (as many as TranslationOptions::ps_interpolator_count says; Xenos loads interpolators into
// the first pixel-shader registers, the XDK listing shows it as `dcl_texcoord r0.xy`).
// `layout(location = N) out vec4 xe_color[N]` for N = 0..3 (only those the shader writes are
// declared); gl_FragDepth when oDepth is written; kill -> `discard`.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace xnt::vk {

// ---- Descriptor set 0: shared memory ------------------------------------------------------------
inline constexpr uint32_t kSharedMemorySet = 0;
inline constexpr uint32_t kSharedMemoryBinding = 0;
// lavapipe's maxStorageBufferRange is 128 MiB, so 512 MiB of guest memory is bound as 4 ranges.
inline constexpr uint32_t kSharedMemoryBindingCount = 4;
inline constexpr uint64_t kSharedMemoryBindingSize = uint64_t(128) << 20;
inline constexpr uint64_t kSharedMemorySize = kSharedMemoryBindingSize * kSharedMemoryBindingCount;

// ---- Descriptor set 1: constants ----------------------------------------------------------------
inline constexpr uint32_t kConstantsSet = 1;
// The guest constants are three uniform buffers, each bound at its own ring offset, so a draw that
// changed one pixel-shader constant or one vertex fetch constant uploads only that part (and of it
// only the rows its shaders read, XeConstantReads) while the others keep their ring copy. Xenia
// splits them the same way: d3d12_command_processor.cc (UpdateBindings) keeps vertex and pixel
// float constants and the fetch / bool-loop constants in separate buffers with their own dirty
// flags, written when a register of the range changed.
inline constexpr uint32_t kVertexFloatConstantsBinding = 0;
inline constexpr uint32_t kSystemConstantsBinding = 1;
inline constexpr uint32_t kPixelFloatConstantsBinding = 3;
inline constexpr uint32_t kFetchBoolLoopConstantsBinding = 4;
// A tessellated draw's r0 / r1 per generated vertex (TranslationOptions::domain_inputs), a
// storage buffer in the ring over that draw's vertices; at most kDomainInputsRange bytes (a
// larger draw is cut into parts).
inline constexpr uint32_t kDomainInputsBinding = 2;
inline constexpr uint64_t kDomainInputsRange = uint64_t(8) << 20;

inline constexpr uint32_t kFloatConstantCount = 512;       // SHADER_CONSTANT_000_X = 0x4000
inline constexpr uint32_t kFetchConstantDwords = 32 * 6;   // SHADER_CONSTANT_FETCH_00_0 = 0x4800
inline constexpr uint32_t kBoolConstantDwords = 8;         // SHADER_CONSTANT_BOOL_000_031 = 0x4900
inline constexpr uint32_t kLoopConstantDwords = 32;        // SHADER_CONSTANT_LOOP_00 = 0x4908
// Pixel shaders address c# as float constant 256 + #; vertex shaders from 0. Xenia does the same
// split: src/xenia/gpu/d3d12/d3d12_command_processor.cc (WriteRegister) treats float constant
// indices >= 256 as the pixel shader's.
inline constexpr uint32_t kPixelShaderFloatConstantBase = 256;

// std140 image of the register ranges above (dwords in host order, as the register file holds
// them): the host side's one struct for all three buffers, which bind parts of it
// (kXeConstantParts): float_constants[0..255] at binding 0, [256..511] at binding 3, the rest at
// binding 4. The GLSL blocks are `XeFloatConstants { vec4 c[256]; }` (the stage's own, at binding
// 0 in vertex and 3 in pixel shaders) and `XeConstants { uvec4 fetch_constants[48]; uvec4
// bool_constants[2]; uvec4 loop_constants[8]; }`.
struct XeConstants {
  float float_constants[kFloatConstantCount][4];  // vec4  float_constants[512]
  uint32_t fetch_constants[kFetchConstantDwords];  // uvec4 fetch_constants[48]
  uint32_t bool_constants[kBoolConstantDwords];    // uvec4 bool_constants[2]
  uint32_t loop_constants[kLoopConstantDwords];    // uvec4 loop_constants[8]
};
static_assert(offsetof(XeConstants, float_constants) == 0);
static_assert(offsetof(XeConstants, fetch_constants) == 8192);
static_assert(offsetof(XeConstants, bool_constants) == 8192 + 768);
static_assert(offsetof(XeConstants, loop_constants) == 8192 + 768 + 32);
static_assert(sizeof(XeConstants) == 9120);

// The three parts of XeConstants, each bound on its own (see above), in 16-byte rows.
enum XeConstantPart : uint32_t {
  kXeVertexFloatConstants = 0,
  kXePixelFloatConstants = 1,
  kXeFetchBoolLoopConstants = 2,
  kXeConstantPartCount = 3,
};
struct XeConstantPartLayout {
  uint32_t binding;
  uint32_t offset;  // in XeConstants
  uint32_t rows;    // 16 bytes each
};
inline constexpr XeConstantPartLayout kXeConstantParts[kXeConstantPartCount] = {
    {kVertexFloatConstantsBinding, 0, 256},
    {kPixelFloatConstantsBinding, 4096, 256},
    {kFetchBoolLoopConstantsBinding, 8192, (9120 - 8192) / 16}};
// Rows of the fetch / bool / loop part: fetch constants' dwords from 0, then the bool and loop
// constants.
inline constexpr uint32_t kXeBoolConstantsRow = 48;
inline constexpr uint32_t kXeLoopConstantsRow = 50;

// The rows [first, end) of each part a draw's shaders may read (first == end: none), from the
// microcode's constant reads (shader_translator.cpp ConstantReadsOf). Rows outside are never read
// by the translated code, so the core uploads only these and binds the part's buffer where those
// rows land on the bytes it wrote.
struct XeConstantReads {
  std::array<uint16_t, kXeConstantPartCount> first{0, 0, 0};
  std::array<uint16_t, kXeConstantPartCount> end{256, 256, kXeConstantParts[2].rows};
  // Both stages' reads together (each part's rows as one range).
  void Merge(const XeConstantReads& other) {
    for (uint32_t p = 0; p < kXeConstantPartCount; ++p) {
      if (other.first[p] == other.end[p]) continue;
      if (first[p] == end[p]) {
        first[p] = other.first[p];
        end[p] = other.end[p];
      } else {
        first[p] = std::min(first[p], other.first[p]);
        end[p] = std::max(end[p], other.end[p]);
      }
    }
  }
  static constexpr XeConstantReads None() {
    XeConstantReads r;
    r.end = r.first;
    return r;
  }
};

// XeSystemConstants::flags bits.
enum XeSystemFlag : uint32_t {
  // PA_CL_VTE_CNTL vtx_xy_fmt = 1: the shader's oPos.xy is already divided by W, so the shader
  // multiplies it back by W before the host divides (Xenia: kSysFlag_XYDividedByW).
  kXeSysFlagXyDividedByW = 1u << 0,
  // PA_CL_VTE_CNTL vtx_z_fmt = 1: likewise for Z.
  kXeSysFlagZDividedByW = 1u << 1,
  // PA_CL_VTE_CNTL vtx_w0_fmt = 1: oPos.w is W itself; when this bit is clear the shader exported
  // 1/W and the translated shader takes the reciprocal (Xenia's command processors set
  // kSysFlag_WNotReciprocal from vtx_w0_fmt the same way).
  kXeSysFlagWNotReciprocal = 1u << 2,
  // The draw's primitive is a point list: gl_PointSize is always written (default
  // point_size_min_max.z when the shader does not export oPts).
  kXeSysFlagPrimitivePoint = 1u << 3,
  // Alpha test enabled (RB_COLORCONTROL alpha_func != ALWAYS): colour target 0's alpha is
  // compared with alpha_test_reference using alpha_test_func, failures are discarded.
  kXeSysFlagAlphaTest = 1u << 4,
  // Set by the core when the viewport transform is not done by the host viewport (the shader's
  // output after ndc_scale/offset is in host NDC either way; this bit is informational).
  kXeSysFlagViewportInShader = 1u << 5,
  // The draw's primitive is a line list (PsParamGen reports it in the sign of z).
  kXeSysFlagPrimitiveLine = 1u << 6,
  // A point list expanded to quads by the point-quad geometry shader (point_quad.h): the vertex
  // shader writes gl_PointSize as the point's diameter in guest pixels (oPts.x clamped to
  // point_size_min_max.xy), or -1 when it exports none (the geometry shader then takes the
  // constant width and height, point_size_min_max.zw), instead of a host point size.
  kXeSysFlagPointQuads = 1u << 7,
};

// XeSystemConstants::depth_flags[0] bits (the fsi output merger's kXeOmDepth20e4 and
// kXeOmDepthClamp, so the shared GLSL tests one set of bits).
inline constexpr uint32_t kXeSysDepth20e4 = 1u << 5;
inline constexpr uint32_t kXeSysDepthClamp = 1u << 6;

// std140 layout of `XeSystemConstants` (set 1, binding 1).
// ndc_scale/ndc_offset: gl_Position.xyz = pos.xyz * ndc_scale.xyz + ndc_offset.xyz * pos.w, applied
// after the W/XY/Z format fix-ups above. The core folds PA_CL_VPORT_*, the render-target size and
// the Direct3D half-pixel offset into these two vectors (so no separate half-pixel flag exists).
// point_size_min_max: x = min, y = max diameter of a size the vertex shader exports
// (PA_SU_POINT_MINMAX), z = width, w = height of the constant point (PA_SU_POINT_SIZE), all in
// guest pixels.
// color_exp_bias[i]: RB_COLOR*_INFO color_exp_bias (6-bit signed, sign-extended): the fragment
// shader multiplies colour output i by 2^bias. Declared in GLSL as `ivec4 color_exp_bias`.
// alpha_test_func: RB_COLORCONTROL alpha_func (0 never, 1 less, 2 equal, 3 lequal, 4 greater,
// 5 notequal, 6 gequal, 7 always).
inline constexpr uint32_t kXeResolutionScaleHostDerivatives = 1u << 16;

struct XeSystemConstants {
  uint32_t flags;
  uint32_t vertex_index_endian;  // informational: the core swaps indices before the draw
  int32_t vertex_base_index;
  // Resolution scale (host pixels per guest pixel): x in bits 0-7, y in bits 8-15 (0 reads as
  // 1). Param gen divides the host pixel position by it (guest pixels, as at 1x); point sizes
  // are multiplied by it. Bit 16 (kXeResolutionScaleHostDerivatives): screen derivatives are per
  // host pixel (gpu::ScaledDerivatives::kHost); when it is clear, texture LOD, getGradients,
  // getCompTexLOD and the polygon offset's slope multiply them by the scale (per guest pixel).
  uint32_t resolution_scale;
  float ndc_scale[4];
  float ndc_offset[4];
  float point_size_min_max[4];
  int32_t color_exp_bias[4];
  float alpha_test_reference;
  uint32_t alpha_test_func;
  // Colour output conversion per target, 4 bits each (target i in bits 4i..4i+3), applied by the
  // pixel shader after color_exp_bias: render_targets.h ColorOutputMode (0 as is, 1 clamp
  // -32..32 then / 32 for an SNORM host target, 2 linear -> Xenos PWL gamma on RGB, 3 clamp RGB
  // to the 7e3 range 0..31.875 and alpha to 0..1, 4 clamp -32..32). Bits 16 + 2i..17 + 2i: the
  // shader rounds target i's outputs to its host precision itself (0 no, 1 8:8:8:8 UNORM, 2
  // 10:10:10:2 UNORM, 3 16-bit SNORM after mode 1; set for targets that do not blend;
  // glsl_output_merger.cpp). Owner: render targets.
  uint32_t color_output_modes;
  // Bit i: texture fetch constant i is bound to a scaled resolve copy (resolution_scale times
  // the guest size); its unnormalised coordinates, offsets and weights stay in guest texels
  // (gpu/resolution_scale.h), so filters written for 1x keep their footprint.
  uint32_t scaled_texture_slots;
  // The draw's enabled user clip planes in guest clip space, compacted (gpu/primitive_clip.h);
  // the vertex shader reads the first TranslationOptions::vs_user_clip_planes of them.
  float user_clip_planes[6][4];
  // Line and point lists drawn as quads by a geometry shader (line_quad.h, point_quad.h): x, y =
  // host NDC units per guest pixel (gpu::Viewport::ndc_per_pixel); for lines z =
  // PA_SU_LINE_CNTL's width in guest pixels (gpu/line_width.h); w = 0 always: the translated
  // shaders' zero the host compiler cannot fold (xe_zero, glsl_prelude.cpp).
  float line_quad[4];
  // A triangle's depth as the cpu path computes it, in the pixel shader (TranslationOptions::
  // fsi_exact_polygon_offset, glsl_polygon_offset.h): the cpu path's screen transform
  // (gpu::Viewport screen_scale / screen_offset xyz, w unused), the polygon offset (x / y slope
  // factors SCALE / 16 front / back, z / w constant terms front / back as
  // gpu::ShaderPolygonOffsetConstant gives them) and depth_flags.x: kXeSysDepth20e4 (the guest
  // depth is k_24_8_FLOAT), kXeSysDepthClamp (PA_CL_CLIP_CNTL clip_disable: each depth clamped
  // to 0..1, nothing clipped against depth); y, z, w unused.
  float depth_screen_scale[4];
  float depth_screen_offset[4];
  float depth_offsets[4];
  uint32_t depth_flags[4];
};
static_assert(offsetof(XeSystemConstants, flags) == 0);
static_assert(offsetof(XeSystemConstants, vertex_index_endian) == 4);
static_assert(offsetof(XeSystemConstants, vertex_base_index) == 8);
static_assert(offsetof(XeSystemConstants, resolution_scale) == 12);
static_assert(offsetof(XeSystemConstants, ndc_scale) == 16);
static_assert(offsetof(XeSystemConstants, ndc_offset) == 32);
static_assert(offsetof(XeSystemConstants, point_size_min_max) == 48);
static_assert(offsetof(XeSystemConstants, color_exp_bias) == 64);
static_assert(offsetof(XeSystemConstants, alpha_test_reference) == 80);
static_assert(offsetof(XeSystemConstants, alpha_test_func) == 84);
static_assert(offsetof(XeSystemConstants, color_output_modes) == 88);
static_assert(offsetof(XeSystemConstants, scaled_texture_slots) == 92);
static_assert(offsetof(XeSystemConstants, user_clip_planes) == 96);
static_assert(offsetof(XeSystemConstants, line_quad) == 192);
static_assert(offsetof(XeSystemConstants, depth_screen_scale) == 208);
static_assert(offsetof(XeSystemConstants, depth_flags) == 256);
static_assert(sizeof(XeSystemConstants) == 272);

// ---- Descriptor set 2: textures -----------------------------------------------------------------
inline constexpr uint32_t kTexturesSet = 2;
// One combined image sampler per texture fetch constant slot in each of three arrays, one per
// host view type; the translated tfetch picks the array from the instruction's dimension (1D/2D
// -> 2D array, 3D -> 3D or, for a stacked fetch constant, the 2D array, Cube -> cube). The core
// binds the texture cache's view to the array matching the fetch constant's dimension and a
// dummy (zero) texture to every other element, so a fetch whose instruction dimension does not
// match its fetch constant reads zeros.
inline constexpr uint32_t kTexturesBinding = 0;      // sampler2DArray xe_textures[32]
inline constexpr uint32_t kTexturesCubeBinding = 1;  // samplerCube xe_textures_cube[32]
inline constexpr uint32_t kTextures3DBinding = 2;    // sampler3D xe_textures_3d[32]
inline constexpr uint32_t kTextureBindingArrays = 3;
inline constexpr uint32_t kTextureBindingCount = 32;  // elements per array
// tfetch instructions may override the fetch constant's filters; the translator reports them per
// slot packed as: bits 0-1 mag, 2-3 min, 4-5 mip (0 point, 1 linear, 2 base map, 3 keep), 6-8
// aniso (7 keep), and the core applies them to the slot's sampler.
inline constexpr uint32_t kTextureFiltersKeep = 3u | (3u << 2) | (3u << 4) | (7u << 6);
constexpr std::array<uint32_t, kTextureBindingCount> KeepTextureFilters() {
  std::array<uint32_t, kTextureBindingCount> a{};
  for (auto& v : a) v = kTextureFiltersKeep;
  return a;
}
// After sampling, the translated shader applies, from the fetch constant in XeConstants (no extra
// per-draw data): per-component sign (dword 0 bits 2..9: biased 2x-1, gamma = Xenos
// piecewise-linear gamma to linear; `signed` is already applied by the texture loader, which
// knows each component's bit width), exp_adjust (dword 3 bits 13..18, x 2^exp), then the swizzle
// (dword 3 bits 1..12).

// ---- Stage interface ----------------------------------------------------------------------------
inline constexpr uint32_t kInterpolatorCount = 16;  // VS o0..o15 / PS interpolators, locations 0..15
inline constexpr uint32_t kColorTargetCount = 4;    // PS oC0..oC3, locations 0..3
// fsi, TranslationOptions::fsi_exact_polygon_offset: the vertex shader's exported position
// replaces an interpolator the geometry shader does not pass on (by default 15; on a device
// with fewer geometry shader input components the first one past those passed on,
// TranslationOptions::vs_position_location), and the geometry shader hands the pixel shader the
// triangle's three as `flat in vec4 xe_vs_position[3]` at locations 16..18.
inline constexpr uint32_t kXeVertexPositionLocation = 15;
inline constexpr uint32_t kXeTrianglePositionsLocation = 16;
// The point-quad geometry shader's sprite coordinate, after the triangle positions' locations
// (the two are never in one pipeline, but never share a location either).
inline constexpr uint32_t kXePointCoordLocation = 19;

// Specialization constant of a translated pixel shader with colour outputs (not the fsi path's):
// XeSystemConstants::color_output_modes as the pipeline fixes it. The modes follow from the
// render targets' formats and blending, which a pipeline fixes anyway, so the fbo path
// specializes each pipeline on them and the host compiler drops every conversion and rounding
// the targets do not use (on lavapipe a third of a textured pipeline's creation). Left at its
// default, kXeColorOutputModesUnspecialized, the shader reads the system constants' field.
inline constexpr uint32_t kXeSpecColorOutputModes = 0;
inline constexpr uint32_t kXeColorOutputModesUnspecialized = 0xFFFFFFFFu;  // never valid modes

}  // namespace xnt::vk
