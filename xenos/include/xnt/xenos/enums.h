// Xenos enumerations used by registers, fetch constants and the microcode, plus the fetch-constant
// and memexport stream-constant layouts with decoders.
//
// Values and bit positions are from Xenia src/xenia/gpu/xenos.h (enum classes PrimitiveType ..
// ModeControl, xe_gpu_vertex_fetch_t, xe_gpu_texture_fetch_t, xe_gpu_memexport_stream_t,
// LoopConstant, EDRAM constants)
// Decoders use shifts and masks, not C++ bit-fields, so the layout does not depend on the compiler.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace xnt::xenos {

// Extract `width` bits at `shift`.
constexpr uint32_t Bits(uint32_t value, uint32_t shift, uint32_t width) {
  return width >= 32 ? value >> shift : (value >> shift) & ((1u << width) - 1u);
}
// Extract a two's-complement field and sign-extend it.
constexpr int32_t SignedBits(uint32_t value, uint32_t shift, uint32_t width) {
  uint32_t v = Bits(value, shift, width);
  uint32_t sign = 1u << (width - 1);
  return int32_t(v ^ sign) - int32_t(sign);
}
// Place `value` (truncated to `width` bits) at `shift`.
constexpr uint32_t Field(uint32_t value, uint32_t shift, uint32_t width) {
  return (width >= 32 ? value : (value & ((1u << width) - 1u))) << shift;
}

// ---- Primitive assembly / VGT -------------------------------------------------------------------

enum class PrimitiveType : uint32_t {
  kNone = 0x00,
  kPointList = 0x01,
  kLineList = 0x02,
  kLineStrip = 0x03,
  kTriangleList = 0x04,
  kTriangleFan = 0x05,
  kTriangleStrip = 0x06,
  kTriangleWithWFlags = 0x07,
  kRectangleList = 0x08,
  kLineLoop = 0x0C,
  kQuadList = 0x0D,
  kQuadStrip = 0x0E,
  kPolygon = 0x0F,
  // From 0x10 the major mode is explicit; with VGT_OUTPUT_PATH_CNTL = tessellation these are
  // patches, otherwise the 2D copy/fill primitives.
  k2DCopyRectListV0 = 0x10,
  k2DCopyRectListV1 = 0x11,
  k2DCopyRectListV2 = 0x12,
  k2DCopyRectListV3 = 0x13,
  k2DFillRectList = 0x14,
  k2DLineStrip = 0x15,
  k2DTriStrip = 0x16,
  kLinePatch = 0x10,
  kTrianglePatch = 0x11,
  kQuadPatch = 0x12,
};

constexpr std::string_view PrimitiveTypeName(uint32_t value) {
  switch (value) {
    case 0x00: return "none";
    case 0x01: return "point_list";
    case 0x02: return "line_list";
    case 0x03: return "line_strip";
    case 0x04: return "triangle_list";
    case 0x05: return "triangle_fan";
    case 0x06: return "triangle_strip";
    case 0x07: return "triangle_with_w_flags";
    case 0x08: return "rectangle_list";
    case 0x0C: return "line_loop";
    case 0x0D: return "quad_list";
    case 0x0E: return "quad_strip";
    case 0x0F: return "polygon";
    case 0x10: return "2d_copy_rect_list_v0/line_patch";
    case 0x11: return "2d_copy_rect_list_v1/triangle_patch";
    case 0x12: return "2d_copy_rect_list_v2/quad_patch";
    case 0x13: return "2d_copy_rect_list_v3";
    case 0x14: return "2d_fill_rect_list";
    case 0x15: return "2d_line_strip";
    case 0x16: return "2d_tri_strip";
  }
  return "unknown";
}

// VGT_DRAW_INITIATOR source_select (DI_SRC_SEL_*).
enum class SourceSelect : uint32_t {
  kDma = 0,
  kImmediate = 1,
  kAutoIndex = 2,
};

enum class MajorMode : uint32_t {
  kImplicit = 0,
  kExplicit = 1,
};

enum class IndexFormat : uint32_t {
  kInt16 = 0,
  kInt32 = 1,
};

// Only the low 24 bits of a vertex index are used (xenos.h kVertexIndexBits).
constexpr uint32_t kVertexIndexMask = 0xFFFFFFu;

enum class VGTOutputPath : uint32_t {
  kVertexReuse = 0,
  kTessellationEnable = 1,
  kPassthru = 2,
};

enum class TessellationMode : uint32_t {
  kDiscrete = 0,
  kContinuous = 1,
  kAdaptive = 2,
};

// ---- Byte order ---------------------------------------------------------------------------------

enum class Endian : uint32_t {
  kNone = 0,
  k8in16 = 1,
  k8in32 = 2,
  k16in32 = 3,
};

enum class Endian128 : uint32_t {
  kNone = 0,
  k8in16 = 1,
  k8in32 = 2,
  k16in32 = 3,
  k8in64 = 4,
  k8in128 = 5,
};

constexpr std::string_view EndianName(Endian e) {
  switch (e) {
    case Endian::kNone: return "none";
    case Endian::k8in16: return "8in16";
    case Endian::k8in32: return "8in32";
    case Endian::k16in32: return "16in32";
  }
  return "?";
}

// Xenia xenos.h GpuSwap: the GPU's view of a dword read with the given swap mode.
constexpr uint32_t GpuSwap(uint32_t value, Endian endian) {
  switch (endian) {
    case Endian::kNone: return value;
    case Endian::k8in16: return ((value << 8) & 0xFF00FF00u) | ((value >> 8) & 0x00FF00FFu);
    case Endian::k8in32:
      return (value >> 24) | ((value >> 8) & 0xFF00u) | ((value << 8) & 0xFF0000u) | (value << 24);
    case Endian::k16in32: return (value >> 16) | (value << 16);
  }
  return value;
}

// ---- Shader sequencer ---------------------------------------------------------------------------

// a2xx_sq_ps_vtx_mode (SQ_PROGRAM_CNTL vs_export_mode).
enum class VertexShaderExportMode : uint32_t {
  kPosition1Vector = 0,
  kPosition2VectorsSprite = 2,
  kPosition2VectorsEdge = 3,
  kPosition2VectorsKill = 4,
  kPosition2VectorsSpriteKill = 5,
  kPosition2VectorsEdgeKill = 6,
  kMultipass = 7,
};

enum class SampleControl : uint32_t {
  kCentroidsOnly = 0,
  kCentersOnly = 1,
  kCentroidsAndCenters = 2,
};

// ---- Render backend -----------------------------------------------------------------------------

// RB_MODECONTROL edram_mode.
enum class ModeControl : uint32_t {
  kIgnore = 0,
  kColorDepth = 4,
  kDepth = 5,
  kCopy = 6,  // the draw is a resolve (EDRAM -> memory)
};

enum class MsaaSamples : uint32_t {
  k1X = 0,
  k2X = 1,
  k4X = 2,
};

constexpr uint32_t MsaaSampleCount(MsaaSamples s) {
  return s == MsaaSamples::k4X ? 4 : s == MsaaSamples::k2X ? 2 : 1;
}

enum class ColorRenderTargetFormat : uint32_t {
  k_8_8_8_8 = 0,
  k_8_8_8_8_GAMMA = 1,
  k_2_10_10_10 = 2,
  k_2_10_10_10_FLOAT = 3,  // 7e3 RGB, unorm alpha
  k_16_16 = 4,             // fixed point -32..32
  k_16_16_16_16 = 5,       // fixed point -32..32
  k_16_16_FLOAT = 6,
  k_16_16_16_16_FLOAT = 7,
  k_2_10_10_10_AS_10_10_10_10 = 10,
  k_2_10_10_10_FLOAT_AS_16_16_16_16 = 12,
  k_32_FLOAT = 14,
  k_32_32_FLOAT = 15,
};

constexpr std::string_view ColorRenderTargetFormatName(uint32_t f) {
  switch (f) {
    case 0: return "k_8_8_8_8";
    case 1: return "k_8_8_8_8_GAMMA";
    case 2: return "k_2_10_10_10";
    case 3: return "k_2_10_10_10_FLOAT";
    case 4: return "k_16_16";
    case 5: return "k_16_16_16_16";
    case 6: return "k_16_16_FLOAT";
    case 7: return "k_16_16_16_16_FLOAT";
    case 10: return "k_2_10_10_10_AS_10_10_10_10";
    case 12: return "k_2_10_10_10_FLOAT_AS_16_16_16_16";
    case 14: return "k_32_FLOAT";
    case 15: return "k_32_32_FLOAT";
  }
  return "unknown";
}

constexpr bool IsColorRenderTargetFormat64bpp(ColorRenderTargetFormat f) {
  return f == ColorRenderTargetFormat::k_16_16_16_16 ||
         f == ColorRenderTargetFormat::k_16_16_16_16_FLOAT ||
         f == ColorRenderTargetFormat::k_32_32_FLOAT;
}

enum class DepthRenderTargetFormat : uint32_t {
  kD24S8 = 0,
  kD24FS8 = 1,  // 20e4 float depth
};

constexpr std::string_view DepthRenderTargetFormatName(uint32_t f) {
  return f == 0 ? "kD24S8" : f == 1 ? "kD24FS8" : "unknown";
}

enum class CompareFunction : uint32_t {
  kNever = 0,
  kLess = 1,
  kEqual = 2,
  kLessEqual = 3,
  kGreater = 4,
  kNotEqual = 5,
  kGreaterEqual = 6,
  kAlways = 7,
};

constexpr std::string_view CompareFunctionName(uint32_t f) {
  constexpr std::array<std::string_view, 8> kNames = {
      "never", "less", "equal", "less_equal", "greater", "not_equal", "greater_equal", "always"};
  return f < 8 ? kNames[f] : "unknown";
}

enum class StencilOp : uint32_t {
  kKeep = 0,
  kZero = 1,
  kReplace = 2,
  kIncrementClamp = 3,
  kDecrementClamp = 4,
  kInvert = 5,
  kIncrementWrap = 6,
  kDecrementWrap = 7,
};

// adreno_rb_blend_factor.
enum class BlendFactor : uint32_t {
  kZero = 0,
  kOne = 1,
  kSrcColor = 4,
  kOneMinusSrcColor = 5,
  kSrcAlpha = 6,
  kOneMinusSrcAlpha = 7,
  kDstColor = 8,
  kOneMinusDstColor = 9,
  kDstAlpha = 10,
  kOneMinusDstAlpha = 11,
  kConstantColor = 12,
  kOneMinusConstantColor = 13,
  kConstantAlpha = 14,
  kOneMinusConstantAlpha = 15,
  kSrcAlphaSaturate = 16,
};

constexpr std::string_view BlendFactorName(uint32_t f) {
  switch (f) {
    case 0: return "zero";
    case 1: return "one";
    case 4: return "src_color";
    case 5: return "one_minus_src_color";
    case 6: return "src_alpha";
    case 7: return "one_minus_src_alpha";
    case 8: return "dst_color";
    case 9: return "one_minus_dst_color";
    case 10: return "dst_alpha";
    case 11: return "one_minus_dst_alpha";
    case 12: return "constant_color";
    case 13: return "one_minus_constant_color";
    case 14: return "constant_alpha";
    case 15: return "one_minus_constant_alpha";
    case 16: return "src_alpha_saturate";
  }
  return "unknown";
}

enum class BlendOp : uint32_t {
  kAdd = 0,
  kSubtract = 1,
  kMin = 2,
  kMax = 3,
  kRevSubtract = 4,
};

constexpr std::string_view BlendOpName(uint32_t op) {
  constexpr std::array<std::string_view, 5> kNames = {"add", "subtract", "min", "max",
                                                      "rev_subtract"};
  return op < 5 ? kNames[op] : "unknown";
}

// Not a hardware field: PA_SU_SC_MODE_CNTL has separate cull_front / cull_back bits; this is the
// combination, for backends that think in one cull mode.
enum class CullMode : uint32_t {
  kNone = 0,
  kFront = 1,
  kBack = 2,
  kFrontAndBack = 3,
};

enum class PolygonModeEnable : uint32_t {
  kDisabled = 0,
  kDualMode = 1,
};

enum class PolygonType : uint32_t {
  kPoints = 0,
  kLines = 1,
  kTriangles = 2,
};

// RB_COPY_CONTROL copy_command.
enum class CopyCommand : uint32_t {
  kRaw = 0,
  kConvert = 1,
  kConstantOne = 2,
  kNull = 3,
};

// a2xx_rb_copy_sample_select.
enum class CopySampleSelect : uint32_t {
  k0 = 0,
  k1 = 1,
  k2 = 2,
  k3 = 3,
  k01 = 4,
  k23 = 5,
  k0123 = 6,
};

// SurfaceNumberX (yamato_enum.h via xenos.h).
enum class SurfaceNumberFormat : uint32_t {
  kUnsignedRepeatingFraction = 0,
  kSignedRepeatingFraction = 1,
  kUnsignedInteger = 2,
  kSignedInteger = 3,
  kFloat = 7,
};

// ---- Textures and vertex formats ----------------------------------------------------------------

// a2xx_sq_surfaceformat; 6 bits. Resolve destinations (ColorFormat in Xenia) are a subset.
enum class TextureFormat : uint32_t {
  k_1_REVERSE = 0,
  k_1 = 1,
  k_8 = 2,
  k_1_5_5_5 = 3,
  k_5_6_5 = 4,
  k_6_5_5 = 5,
  k_8_8_8_8 = 6,
  k_2_10_10_10 = 7,
  k_8_A = 8,
  k_8_B = 9,
  k_8_8 = 10,
  k_Cr_Y1_Cb_Y0_REP = 11,
  k_Y1_Cr_Y0_Cb_REP = 12,
  k_16_16_EDRAM = 13,
  k_8_8_8_8_A = 14,
  k_4_4_4_4 = 15,
  k_10_11_11 = 16,
  k_11_11_10 = 17,
  k_DXT1 = 18,
  k_DXT2_3 = 19,
  k_DXT4_5 = 20,
  k_16_16_16_16_EDRAM = 21,
  k_24_8 = 22,
  k_24_8_FLOAT = 23,
  k_16 = 24,
  k_16_16 = 25,
  k_16_16_16_16 = 26,
  k_16_EXPAND = 27,
  k_16_16_EXPAND = 28,
  k_16_16_16_16_EXPAND = 29,
  k_16_FLOAT = 30,
  k_16_16_FLOAT = 31,
  k_16_16_16_16_FLOAT = 32,
  k_32 = 33,
  k_32_32 = 34,
  k_32_32_32_32 = 35,
  k_32_FLOAT = 36,
  k_32_32_FLOAT = 37,
  k_32_32_32_32_FLOAT = 38,
  k_32_AS_8 = 39,
  k_32_AS_8_8 = 40,
  k_16_MPEG = 41,
  k_16_16_MPEG = 42,
  k_8_INTERLACED = 43,
  k_32_AS_8_INTERLACED = 44,
  k_32_AS_8_8_INTERLACED = 45,
  k_16_INTERLACED = 46,
  k_16_MPEG_INTERLACED = 47,
  k_16_16_MPEG_INTERLACED = 48,
  k_DXN = 49,
  k_8_8_8_8_AS_16_16_16_16 = 50,
  k_DXT1_AS_16_16_16_16 = 51,
  k_DXT2_3_AS_16_16_16_16 = 52,
  k_DXT4_5_AS_16_16_16_16 = 53,
  k_2_10_10_10_AS_16_16_16_16 = 54,
  k_10_11_11_AS_16_16_16_16 = 55,
  k_11_11_10_AS_16_16_16_16 = 56,
  k_32_32_32_FLOAT = 57,
  k_DXT3A = 58,
  k_DXT5A = 59,
  k_CTX1 = 60,
  k_DXT3A_AS_1_1_1_1 = 61,
  k_8_8_8_8_GAMMA_EDRAM = 62,
  k_2_10_10_10_FLOAT_EDRAM = 63,
};

// Bytes per pixel of the colour formats the GPU writes to memory (resolve destinations and
// memexport elements); 0 for formats it cannot write. Shared by the resolve engine and the
// memexport interpreter so the two agree.
constexpr uint32_t ColorFormatWriteBytes(TextureFormat f) {
  switch (f) {
    case TextureFormat::k_8:
    case TextureFormat::k_8_A:
    case TextureFormat::k_8_B:
      return 1;
    case TextureFormat::k_1_5_5_5:
    case TextureFormat::k_5_6_5:
    case TextureFormat::k_6_5_5:
    case TextureFormat::k_8_8:
    case TextureFormat::k_4_4_4_4:
    case TextureFormat::k_16:
    case TextureFormat::k_16_FLOAT:
      return 2;
    case TextureFormat::k_8_8_8_8:
    case TextureFormat::k_8_8_8_8_A:
    case TextureFormat::k_8_8_8_8_AS_16_16_16_16:
    case TextureFormat::k_2_10_10_10:
    case TextureFormat::k_2_10_10_10_AS_16_16_16_16:
    case TextureFormat::k_10_11_11:
    case TextureFormat::k_10_11_11_AS_16_16_16_16:
    case TextureFormat::k_11_11_10:
    case TextureFormat::k_11_11_10_AS_16_16_16_16:
    case TextureFormat::k_16_16:
    case TextureFormat::k_16_16_FLOAT:
    case TextureFormat::k_32_FLOAT:
      return 4;
    case TextureFormat::k_16_16_16_16:
    case TextureFormat::k_16_16_16_16_FLOAT:
    case TextureFormat::k_32_32_FLOAT:
      return 8;
    case TextureFormat::k_32_32_32_32_FLOAT:
      return 16;
    default:
      return 0;
  }
}

constexpr std::string_view TextureFormatName(uint32_t f) {
  constexpr std::array<std::string_view, 64> kNames = {
      "k_1_REVERSE",
      "k_1",
      "k_8",
      "k_1_5_5_5",
      "k_5_6_5",
      "k_6_5_5",
      "k_8_8_8_8",
      "k_2_10_10_10",
      "k_8_A",
      "k_8_B",
      "k_8_8",
      "k_Cr_Y1_Cb_Y0_REP",
      "k_Y1_Cr_Y0_Cb_REP",
      "k_16_16_EDRAM",
      "k_8_8_8_8_A",
      "k_4_4_4_4",
      "k_10_11_11",
      "k_11_11_10",
      "k_DXT1",
      "k_DXT2_3",
      "k_DXT4_5",
      "k_16_16_16_16_EDRAM",
      "k_24_8",
      "k_24_8_FLOAT",
      "k_16",
      "k_16_16",
      "k_16_16_16_16",
      "k_16_EXPAND",
      "k_16_16_EXPAND",
      "k_16_16_16_16_EXPAND",
      "k_16_FLOAT",
      "k_16_16_FLOAT",
      "k_16_16_16_16_FLOAT",
      "k_32",
      "k_32_32",
      "k_32_32_32_32",
      "k_32_FLOAT",
      "k_32_32_FLOAT",
      "k_32_32_32_32_FLOAT",
      "k_32_AS_8",
      "k_32_AS_8_8",
      "k_16_MPEG",
      "k_16_16_MPEG",
      "k_8_INTERLACED",
      "k_32_AS_8_INTERLACED",
      "k_32_AS_8_8_INTERLACED",
      "k_16_INTERLACED",
      "k_16_MPEG_INTERLACED",
      "k_16_16_MPEG_INTERLACED",
      "k_DXN",
      "k_8_8_8_8_AS_16_16_16_16",
      "k_DXT1_AS_16_16_16_16",
      "k_DXT2_3_AS_16_16_16_16",
      "k_DXT4_5_AS_16_16_16_16",
      "k_2_10_10_10_AS_16_16_16_16",
      "k_10_11_11_AS_16_16_16_16",
      "k_11_11_10_AS_16_16_16_16",
      "k_32_32_32_FLOAT",
      "k_DXT3A",
      "k_DXT5A",
      "k_CTX1",
      "k_DXT3A_AS_1_1_1_1",
      "k_8_8_8_8_GAMMA_EDRAM",
      "k_2_10_10_10_FLOAT_EDRAM",
  };
  return f < 64 ? kNames[f] : "unknown";
}

// Vertex fetch formats (a subset of the surface formats, same numbering).
enum class VertexFormat : uint32_t {
  kUndefined = 0,
  k_8_8_8_8 = 6,
  k_2_10_10_10 = 7,
  k_10_11_11 = 16,
  k_11_11_10 = 17,
  k_16_16 = 25,
  k_16_16_16_16 = 26,
  k_16_16_FLOAT = 31,
  k_16_16_16_16_FLOAT = 32,
  k_32 = 33,
  k_32_32 = 34,
  k_32_32_32_32 = 35,
  k_32_FLOAT = 36,
  k_32_32_FLOAT = 37,
  k_32_32_32_32_FLOAT = 38,
  k_32_32_32_FLOAT = 57,
};

// TEX_FORMAT_COMP ("GPUSIGN").
enum class TextureSign : uint32_t {
  kUnsigned = 0,
  kSigned = 1,
  kUnsignedBiased = 2,
  kGamma = 3,
};

enum class ClampMode : uint32_t {
  kRepeat = 0,
  kMirroredRepeat = 1,
  kClampToEdge = 2,
  kMirrorClampToEdge = 3,
  kClampToHalfway = 4,
  kMirrorClampToHalfway = 5,
  kClampToBorder = 6,
  kMirrorClampToBorder = 7,
};

enum class TextureFilter : uint32_t {
  kPoint = 0,
  kLinear = 1,
  kBaseMap = 2,
  kUseFetchConst = 3,
};

enum class AnisoFilter : uint32_t {
  kDisabled = 0,
  kMax_1_1 = 1,
  kMax_2_1 = 2,
  kMax_4_1 = 3,
  kMax_8_1 = 4,
  kMax_16_1 = 5,
  kUseFetchConst = 7,
};

enum class ArbitraryFilter : uint32_t {
  k2x4Sym = 0,
  k2x4Asym = 1,
  k4x2Sym = 2,
  k4x2Asym = 3,
  k4x4Sym = 4,
  k4x4Asym = 5,
  kUseFetchConst = 7,
};

enum class BorderColor : uint32_t {
  k_ABGR_Black = 0,
  k_ABGR_White = 1,
  k_ACBYCR_Black = 2,
  k_ACBCRY_Black = 3,
};

// Fetch-constant dimension (stacked textures are stored as 2D).
enum class DataDimension : uint32_t {
  k1D = 0,
  k2DOrStacked = 1,
  k3D = 2,
  kCube = 3,
};

enum class SignedRepeatingFractionMode : uint32_t {
  kZeroClampMinusOne = 0,
  kNoZero = 1,
};

// ---- Fetch constants ----------------------------------------------------------------------------

// SQ_TEX_VTX_INVALID/VALID_TEXTURE/BUFFER: bits 1:0 of the first dword of every fetch slot.
enum class FetchConstantType : uint32_t {
  kInvalidTexture = 0,
  kInvalidVertex = 1,
  kTexture = 2,
  kVertex = 3,
};

constexpr uint32_t kTextureFetchConstantCount = 32;  // 6 dwords each at 0x4800
constexpr uint32_t kVertexFetchConstantCount = 96;   // 2 dwords each, 3 per texture slot

// Vertex fetch constant n occupies dwords 2n, 2n+1 of the fetch area.
struct VertexFetchConstant {
  FetchConstantType type;
  uint32_t address_dwords;  // 30 bits; byte address = address_dwords * 4
  Endian endian;
  uint32_t size_dwords;  // 24 bits

  uint32_t address_bytes() const { return address_dwords << 2; }

  static constexpr VertexFetchConstant Decode(uint32_t d0, uint32_t d1) {
    return VertexFetchConstant{FetchConstantType(Bits(d0, 0, 2)), Bits(d0, 2, 30),
                               Endian(Bits(d1, 0, 2)), Bits(d1, 2, 24)};
  }
  constexpr std::array<uint32_t, 2> Encode() const {
    return {Field(uint32_t(type), 0, 2) | Field(address_dwords, 2, 30),
            Field(uint32_t(endian), 0, 2) | Field(size_dwords, 2, 24)};
  }
};

struct TextureFetchConstant {
  // dword 0
  FetchConstantType type;
  TextureSign sign_x, sign_y, sign_z, sign_w;
  ClampMode clamp_x, clamp_y, clamp_z;
  SignedRepeatingFractionMode signed_rf_mode_all;
  uint32_t dim_tbd;
  uint32_t pitch;  // row pitch in pixels >> 5
  bool tiled;
  // dword 1
  TextureFormat format;
  Endian endianness;
  uint32_t request_size;
  bool stacked;
  bool nearest_clamp_policy;
  uint32_t base_address;  // >> 12
  // dword 2, raw; size fields are stored minus one and their split depends on `dimension`.
  uint32_t size_raw;
  // dword 3
  uint32_t num_format;  // 0 fraction, 1 integer
  uint32_t swizzle;     // 12 bits, 3 per component
  int32_t exp_adjust;
  TextureFilter mag_filter, min_filter, mip_filter;
  AnisoFilter aniso_filter;
  ArbitraryFilter arbitrary_filter;
  bool border_size;
  // dword 4
  bool vol_mag_filter, vol_min_filter;
  uint32_t mip_min_level, mip_max_level;
  bool mag_aniso_walk, min_aniso_walk;
  int32_t lod_bias;  // 10 bits signed, 5 fractional
  int32_t grad_exp_adjust_h, grad_exp_adjust_v;
  // dword 5
  BorderColor border_color;
  bool force_bc_w_to_max;
  uint32_t tri_clamp;
  int32_t aniso_bias;
  DataDimension dimension;
  bool packed_mips;
  uint32_t mip_address;  // >> 12

  uint32_t base_address_bytes() const { return base_address << 12; }
  uint32_t mip_address_bytes() const { return mip_address << 12; }
  // Sizes with the minus-one removed, according to `dimension`.
  uint32_t width() const {
    switch (dimension) {
      case DataDimension::k1D: return Bits(size_raw, 0, 24) + 1;
      case DataDimension::k3D: return Bits(size_raw, 0, 11) + 1;
      default: return Bits(size_raw, 0, 13) + 1;
    }
  }
  uint32_t height() const {
    switch (dimension) {
      case DataDimension::k1D: return 1;
      case DataDimension::k3D: return Bits(size_raw, 11, 11) + 1;
      default: return Bits(size_raw, 13, 13) + 1;
    }
  }
  // Depth of a 3D texture, or the stack depth of a stacked / cube texture.
  uint32_t depth() const {
    switch (dimension) {
      case DataDimension::k1D: return 1;
      case DataDimension::k3D: return Bits(size_raw, 22, 10) + 1;
      default: return Bits(size_raw, 26, 6) + 1;
    }
  }

  static constexpr TextureFetchConstant Decode(const uint32_t* d) {
    TextureFetchConstant t{};
    t.type = FetchConstantType(Bits(d[0], 0, 2));
    t.sign_x = TextureSign(Bits(d[0], 2, 2));
    t.sign_y = TextureSign(Bits(d[0], 4, 2));
    t.sign_z = TextureSign(Bits(d[0], 6, 2));
    t.sign_w = TextureSign(Bits(d[0], 8, 2));
    t.clamp_x = ClampMode(Bits(d[0], 10, 3));
    t.clamp_y = ClampMode(Bits(d[0], 13, 3));
    t.clamp_z = ClampMode(Bits(d[0], 16, 3));
    t.signed_rf_mode_all = SignedRepeatingFractionMode(Bits(d[0], 19, 1));
    t.dim_tbd = Bits(d[0], 20, 2);
    t.pitch = Bits(d[0], 22, 9);
    t.tiled = Bits(d[0], 31, 1) != 0;
    t.format = TextureFormat(Bits(d[1], 0, 6));
    t.endianness = Endian(Bits(d[1], 6, 2));
    t.request_size = Bits(d[1], 8, 2);
    t.stacked = Bits(d[1], 10, 1) != 0;
    t.nearest_clamp_policy = Bits(d[1], 11, 1) != 0;
    t.base_address = Bits(d[1], 12, 20);
    t.size_raw = d[2];
    t.num_format = Bits(d[3], 0, 1);
    t.swizzle = Bits(d[3], 1, 12);
    t.exp_adjust = SignedBits(d[3], 13, 6);
    t.mag_filter = TextureFilter(Bits(d[3], 19, 2));
    t.min_filter = TextureFilter(Bits(d[3], 21, 2));
    t.mip_filter = TextureFilter(Bits(d[3], 23, 2));
    t.aniso_filter = AnisoFilter(Bits(d[3], 25, 3));
    t.arbitrary_filter = ArbitraryFilter(Bits(d[3], 28, 3));
    t.border_size = Bits(d[3], 31, 1) != 0;
    t.vol_mag_filter = Bits(d[4], 0, 1) != 0;
    t.vol_min_filter = Bits(d[4], 1, 1) != 0;
    t.mip_min_level = Bits(d[4], 2, 4);
    t.mip_max_level = Bits(d[4], 6, 4);
    t.mag_aniso_walk = Bits(d[4], 10, 1) != 0;
    t.min_aniso_walk = Bits(d[4], 11, 1) != 0;
    t.lod_bias = SignedBits(d[4], 12, 10);
    t.grad_exp_adjust_h = SignedBits(d[4], 22, 5);
    t.grad_exp_adjust_v = SignedBits(d[4], 27, 5);
    t.border_color = BorderColor(Bits(d[5], 0, 2));
    t.force_bc_w_to_max = Bits(d[5], 2, 1) != 0;
    t.tri_clamp = Bits(d[5], 3, 2);
    t.aniso_bias = SignedBits(d[5], 5, 4);
    t.dimension = DataDimension(Bits(d[5], 9, 2));
    t.packed_mips = Bits(d[5], 11, 1) != 0;
    t.mip_address = Bits(d[5], 12, 20);
    return t;
  }
};

// SHADER_CONSTANT_LOOP_nn.
struct LoopConstant {
  uint32_t count;  // 8 bits
  uint32_t start;  // 8 bits, initial aL
  int32_t step;    // 8 bits signed

  static constexpr LoopConstant Decode(uint32_t v) {
    return LoopConstant{Bits(v, 0, 8), Bits(v, 8, 8), SignedBits(v, 16, 8)};
  }
  constexpr uint32_t Encode() const {
    return Field(count, 0, 8) | Field(start, 8, 8) | Field(uint32_t(step), 16, 8);
  }
};

// Memexport stream constant: one float4 ALU constant whose four dwords are bit fields packed so
// they stay normalised floats (xenos.h xe_gpu_memexport_stream_t; Xenia's "Implement memexport" discussion for Z).
struct MemExportStreamConstant {
  uint32_t base_address_dwords;  // X bits 29:0; X bits 31:30 are 0b01
  uint32_t x_const;              // X bits 31:30, expected 1
  uint32_t y_const;              // Y, expected 0x4B000000 (2^23)
  Endian128 endianness;          // Z bits 2:0
  TextureFormat format;          // Z bits 13:8 (a ColorFormat)
  SurfaceNumberFormat num_format;  // Z bits 18:16
  bool red_blue_swap;            // Z bit 19
  uint32_t z_const;              // Z bits 31:20, expected 0x4B0
  uint32_t index_count;          // W bits 22:0
  uint32_t w_const;              // W bits 31:23, expected 0x96

  uint32_t base_address_bytes() const { return base_address_dwords << 2; }
  bool LooksValid() const {
    return x_const == 1 && y_const == 0x4B000000u && z_const == 0x4B0 && w_const == 0x96;
  }

  static constexpr MemExportStreamConstant Decode(const uint32_t* d) {
    return MemExportStreamConstant{Bits(d[0], 0, 30),
                                   Bits(d[0], 30, 2),
                                   d[1],
                                   Endian128(Bits(d[2], 0, 3)),
                                   TextureFormat(Bits(d[2], 8, 6)),
                                   SurfaceNumberFormat(Bits(d[2], 16, 3)),
                                   Bits(d[2], 19, 1) != 0,
                                   Bits(d[2], 20, 12),
                                   Bits(d[3], 0, 23),
                                   Bits(d[3], 23, 9)};
  }
  constexpr std::array<uint32_t, 4> Encode() const {
    return {Field(base_address_dwords, 0, 30) | Field(x_const, 30, 2), y_const,
            Field(uint32_t(endianness), 0, 3) | Field(uint32_t(format), 8, 6) |
                Field(uint32_t(num_format), 16, 3) | Field(red_blue_swap ? 1u : 0u, 19, 1) |
                Field(z_const, 20, 12),
            Field(index_count, 0, 23) | Field(w_const, 23, 9)};
  }
};

// ---- EDRAM --------------------------------------------------------------------------------------

constexpr uint32_t kEdramTileWidthSamples = 80;
constexpr uint32_t kEdramTileHeightSamples = 16;
constexpr uint32_t kEdramTileCount = 2048;
constexpr uint32_t kEdramSizeBytes = kEdramTileCount * kEdramTileWidthSamples *
                                     kEdramTileHeightSamples * 4;  // 10 MiB
constexpr uint32_t kEdramBaseTilesBits = 11;
constexpr uint32_t kEdramPitchTilesBits = 10;
constexpr uint32_t kMaxColorRenderTargets = 4;
constexpr uint32_t kTextureTileWidthHeight = 32;
constexpr uint32_t kResolveAlignmentPixels = 8;
constexpr uint32_t kMaxResolveSize = 16376;

// Pitch of a render target in EDRAM tiles (xenos.h GetSurfacePitchTiles): 4x MSAA doubles the
// width in samples, 64bpp doubles the tiles.
constexpr uint32_t SurfacePitchTiles(uint32_t pitch_pixels, MsaaSamples msaa, bool is_64bpp) {
  uint32_t samples = pitch_pixels << (msaa == MsaaSamples::k4X ? 1 : 0);
  uint32_t tiles = (samples + kEdramTileWidthSamples - 1) / kEdramTileWidthSamples;
  return is_64bpp ? tiles << 1 : tiles;
}

// Guest physical memory size.
constexpr uint32_t kPhysicalMemorySize = 512u * 1024u * 1024u;

}  // namespace xnt::xenos
