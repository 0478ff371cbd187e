// Shared between the disassembler and the assembler: spellings, and the default values of fields
// the XDK syntax does not show (the assembler fills them in; the disassembler prints an explicit
// `Name=value` option whenever the microcode differs from them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "xnt/ucode/container.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode::syntax {

// ALU source slot not read by either op: what the XDK compiler leaves there (all 8 corpus
// shaders: temp r0, identity swizzle, no negate).
inline bool IsDefaultSource(const AluSource& s) {
  return s.is_temp && s.reg == 0 && s.swizzle == 0 && !s.negate;
}
inline AluSource DefaultSource() { return AluSource{}; }

// Which constant-address flag (0: const_0_rel, 1: const_1_rel) source i uses when it is a
// constant (Xenia ucode.h AluInstruction::src_const_is_addressed).
inline uint32_t ConstSlot(const AluInstruction& a, uint32_t i) {
  if (i == 0) return 0;
  if (i == 1) return a.src[0].is_temp ? 0 : 1;
  return (a.src[0].is_temp && a.src[1].is_temp) ? 0 : 1;
}

// Vector half of an instruction that only runs a scalar op: `max` with default sources writing
// nothing of its own. Not in the corpus; the containers of builds 2.0.20675 and 2.0.21119 carry
// it beside a lone scalar export (printed before as `mov oC0._, r0` + `+ adds oC0.x, r2.xw`).
inline constexpr VectorOp kNopVectorOp = VectorOp::kMax;

// The register fxc leaves in a half that does nothing (not an export): the scalar destination of
// an instruction without a scalar op, and the destination and both sources of the `max` that
// stands for the vector half of a lone scalar op reading no temp (one that reads a temp gets r0
// there). In a pixel shader it is the first input declared centroid-sampled, else r0 (the
// default source above). All 1,327 instructions without a scalar op and the 4 lone scalar ops of
// the 245 public shaders of build 2.0.21119 (Scaleform's X360_ShaderBinary.cpp) have it, 233 of
// them not r0 (3 lone ops read a constant, 1 a temp); the corpus has none with such an input.
// Why the compiler leaves that register there is not known.
inline uint32_t UnusedRegister(ShaderType type, const std::vector<InterpolatorDecl>& inputs) {
  if (type != ShaderType::kPixel) return 0;
  for (const auto& i : inputs) {
    if (i.centroid) return i.reg;
  }
  return 0;
}
inline uint32_t NopVectorRegister(uint32_t unused, bool scalar_reads_temp) {
  return scalar_reads_temp ? 0 : unused;
}
inline AluSource UnusedSource(uint32_t reg) {
  AluSource s;
  s.reg = reg;
  return s;
}

// The fetch constant of a `vfetch` bound to a vertex element, a placeholder the D3D runtime
// patches when the vertex declaration is bound: 95 when the HLSL compiler wrote the container
// (one with a constant table, whose creator the listing's heading names: the 8 corpus shaders,
// the 98 vertex shaders of Scaleform's X360_ShaderBinary.cpp), 0 when the XDK assembler did (two
// public XDK sample headers without a table, g_xvs_main and g_CubicBezierPatchVS).
inline uint32_t BoundFetchPlaceholder(bool has_heading) { return has_heading ? 95 : 0; }

// Fetch defaults not observed in the corpus (texture-state ops have no destination).
inline constexpr uint32_t kNoDestSwizzle = 0xFFF;
inline constexpr TextureDimension kDefaultDimension = TextureDimension::k2D;

std::string_view ExportName(ShaderType type, uint32_t reg, bool* indexed);
std::optional<uint32_t> ParseExportName(ShaderType type, std::string_view name,
                                        std::optional<uint32_t> index);

std::string_view FilterName(uint32_t v);      // point, linear, basemap, keep
std::string_view AnisoName(uint32_t v);       // disabled, max1to1 .. max16to1, keep
std::string_view ArbitraryName(uint32_t v);   // 2x4sym .. 4x4asym, keep
std::string_view VertexFormatName(uint32_t v);  // FMT_32_32_FLOAT, ... ("" if unnamed)
std::optional<uint32_t> ParseFilter(std::string_view s);
std::optional<uint32_t> ParseAniso(std::string_view s);
std::optional<uint32_t> ParseArbitrary(std::string_view s);
std::optional<uint32_t> ParseVertexFormat(std::string_view s);

// D3DDECLUSAGE names as the XDK prints them in `dcl_` and `vfetch` (position, texcoord, color...).
std::string_view UsageName(uint32_t usage);
std::optional<uint32_t> ParseUsage(std::string_view s);
// "texcoord1" <-> {5, 1}
std::string SemanticName(const Semantic& s);
std::optional<Semantic> ParseSemantic(std::string_view s);

// Fetch mnemonics (Xenia shader_translator.cc ParseTextureFetchInstruction names).
std::string TextureMnemonic(const FetchInstruction& f);
bool TextureMnemonicHasDimension(FetchOp op);
uint32_t TextureSourceComponents(FetchOp op, TextureDimension dim);
// The fetch source swizzle has 3 components; a listing shows as many as the dimension uses
// (`r2.zw` for 2D). The ones not shown repeat the shown ones in order (the corpus tfetch2D
// `r0.xy` is stored x, y, x); FillSourceSwizzle applies that to the first `shown` components.
uint32_t FillSourceSwizzle(uint32_t swizzle, uint32_t shown);

std::string FormatFloat(float v);

// The XDK compiler build that wrote a listing or container: the third number of its creator
// string ("2.0.21256.0" -> 21256; 0 when there is none or it does not parse).
uint32_t CompilerBuild(std::string_view creator);
// Builds before 2.0.21256 differ from it in how they print constant tables (`defextern const`,
// one line per array element). Builds before 2.0.21119 also set an export's scalar_dest_rel
// (write 0 to unwritten components) when the scalar half is unused and the vector half writes
// all four components, where it changes nothing (not verified on a container of such a build);
// 2.0.21119 leaves it clear on all 288 such exports of its 245 public shaders (Scaleform's
// X360_ShaderBinary.cpp), as 2.0.21256 does. Every build sets it on an export with constant
// components, where the 1s alone (`oC0.xyz1`) leave nothing for it to do (2.0.21119: 4 of 4).
// Listings and containers without a creator follow 2.0.21256.
inline constexpr uint32_t kDefconstBuild = 21256;
inline constexpr uint32_t kExportWriteZeroClearBuild = 21119;
inline bool IsOlderBuild(uint32_t build) { return build != 0 && build < kDefconstBuild; }
// The scalar_dest_rel an export instruction gets when the listing shows no 0 component: set with
// constant 1s (`ones`: components both halves write), or by a build before 2.0.21119 when nothing
// of the scalar half is printed and all four components are written.
inline bool DefaultExportScalarDestRel(uint32_t build, bool scalar_unused, uint32_t written, uint32_t ones) {
  if (written != 0xF) return false;  // unwritten components show as 0 or _
  if (ones) return true;
  return build != 0 && build < kExportWriteZeroClearBuild && scalar_unused && written == 0xF;
}

}  // namespace xnt::ucode::syntax
