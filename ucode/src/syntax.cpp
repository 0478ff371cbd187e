// Spellings used by the XDK listing syntax. Sources: the corpus disasm.txt files (oPos, oC0,
// position/texcoord/color, tfetch2D), Xenia src/xenia/gpu/shader_translator_disasm.cc (eA, eM#,
// oPts, oDepth, filter and DataFormat names), D3D9's D3DDECLUSAGE order for usages.
#include "syntax.h"

#include <array>
#include <charconv>
#include <cstdio>

namespace xnt::ucode::syntax {
namespace {

constexpr std::array<std::string_view, 4> kFilters = {"point", "linear", "basemap", "keep"};
constexpr std::array<std::string_view, 8> kAniso = {"disabled", "max1to1",  "max2to1", "max4to1",
                                                    "max8to1",  "max16to1", "",        "keep"};
constexpr std::array<std::string_view, 8> kArbitrary = {"2x4sym", "2x4asym", "4x2sym", "4x2asym",
                                                        "4x4sym", "4x4asym", "",       "keep"};
constexpr std::array<std::string_view, 14> kUsages = {
    "position", "blendweight", "blendindices", "normal", "psize",  "texcoord", "tangent",
    "binormal", "tessfactor",  "positiont",    "color",  "fog",    "depth",    "sample"};

struct FormatName {
  uint32_t value;
  std::string_view name;
};
// Xenia shader_translator_disasm.cc kVertexFetchDataFormats (xenos VertexFormat values).
constexpr std::array<FormatName, 15> kFormats = {{
    {6, "FMT_8_8_8_8"},
    {7, "FMT_2_10_10_10"},
    {16, "FMT_10_11_11"},
    {17, "FMT_11_11_10"},
    {25, "FMT_16_16"},
    {26, "FMT_16_16_16_16"},
    {31, "FMT_16_16_FLOAT"},
    {32, "FMT_16_16_16_16_FLOAT"},
    {33, "FMT_32"},
    {34, "FMT_32_32"},
    {35, "FMT_32_32_32_32"},
    {36, "FMT_32_FLOAT"},
    {37, "FMT_32_32_FLOAT"},
    {38, "FMT_32_32_32_32_FLOAT"},
    {57, "FMT_32_32_32_FLOAT"},
}};

template <size_t N>
std::optional<uint32_t> Find(const std::array<std::string_view, N>& table, std::string_view s) {
  for (size_t i = 0; i < N; ++i) {
    if (!table[i].empty() && table[i] == s) return uint32_t(i);
  }
  uint32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && p == s.data() + s.size() && v < N) return v;
  return std::nullopt;
}

}  // namespace

std::string_view ExportName(ShaderType type, uint32_t reg, bool* indexed) {
  *indexed = false;
  if (reg == kExportAddress) return "eA";
  if (reg >= kExportData0 && reg < kExportData0 + 5) {
    *indexed = true;
    return "eM";
  }
  if (type == ShaderType::kVertex) {
    if (reg < 16) {
      *indexed = true;
      return "o";
    }
    if (reg == kExportPosition) return "oPos";
    if (reg == kExportPointSize) return "oPts";
  } else {
    if (reg < 4) {
      *indexed = true;
      return "oC";
    }
    if (reg == kExportDepth) return "oDepth";
  }
  *indexed = true;
  return "export";  // no known meaning: printed by number
}

std::optional<uint32_t> ParseExportName(ShaderType type, std::string_view name,
                                        std::optional<uint32_t> index) {
  if (name == "eA" && !index) return kExportAddress;
  if (name == "eM" && index && *index < 5) return kExportData0 + *index;
  if (name == "export" && index && *index < 64) return *index;
  if (type == ShaderType::kVertex) {
    if (name == "o" && index && *index < 16) return *index;
    if (name == "oPos" && !index) return kExportPosition;
    if (name == "oPts" && !index) return kExportPointSize;
  } else {
    if (name == "oC" && index && *index < 4) return *index;
    if (name == "oDepth" && !index) return kExportDepth;
  }
  return std::nullopt;
}

std::string_view FilterName(uint32_t v) { return kFilters.at(v & 3); }
std::string_view AnisoName(uint32_t v) { return kAniso.at(v & 7); }
std::string_view ArbitraryName(uint32_t v) { return kArbitrary.at(v & 7); }
std::optional<uint32_t> ParseFilter(std::string_view s) { return Find(kFilters, s); }
std::optional<uint32_t> ParseAniso(std::string_view s) { return Find(kAniso, s); }
std::optional<uint32_t> ParseArbitrary(std::string_view s) { return Find(kArbitrary, s); }

std::string_view VertexFormatName(uint32_t v) {
  for (const auto& f : kFormats) {
    if (f.value == v) return f.name;
  }
  return {};
}
std::optional<uint32_t> ParseVertexFormat(std::string_view s) {
  for (const auto& f : kFormats) {
    if (f.name == s) return f.value;
  }
  uint32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && p == s.data() + s.size() && v < 64) return v;
  return std::nullopt;
}

std::string_view UsageName(uint32_t usage) {
  return usage < kUsages.size() ? kUsages[usage] : std::string_view();
}
std::optional<uint32_t> ParseUsage(std::string_view s) {
  for (size_t i = 0; i < kUsages.size(); ++i) {
    if (kUsages[i] == s) return uint32_t(i);
  }
  return std::nullopt;
}

std::string SemanticName(const Semantic& s) {
  std::string name(UsageName(s.usage));
  if (name.empty()) name = "usage" + std::to_string(s.usage) + "_";
  if (s.usage_index) name += std::to_string(s.usage_index);
  return name;
}

std::optional<Semantic> ParseSemantic(std::string_view s) {
  size_t digits = s.size();
  while (digits > 0 && s[digits - 1] >= '0' && s[digits - 1] <= '9') --digits;
  Semantic sem;
  std::string_view base = s.substr(0, digits);
  if (digits < s.size()) {
    std::from_chars(s.data() + digits, s.data() + s.size(), sem.usage_index);
    if (sem.usage_index > 15) return std::nullopt;
  }
  if (auto u = ParseUsage(base)) {
    sem.usage = *u;
    return sem;
  }
  // "usage<N>_<index>" for usages without a name.
  if (base.size() > 6 && base.substr(0, 5) == "usage" && base.back() == '_') {
    uint32_t u = 0;
    auto [p, ec] = std::from_chars(base.data() + 5, base.data() + base.size() - 1, u);
    if (ec == std::errc() && p == base.data() + base.size() - 1 && u < 16) {
      sem.usage = u;
      return sem;
    }
  }
  return std::nullopt;
}

bool TextureMnemonicHasDimension(FetchOp op) {
  return op == FetchOp::kTextureFetch || op == FetchOp::kGetTextureBorderColorFrac ||
         op == FetchOp::kGetTextureComputedLod || op == FetchOp::kGetTextureWeights;
}

std::string TextureMnemonic(const FetchInstruction& f) {
  static constexpr std::array<std::string_view, 4> kDims = {"1D", "2D", "3D", "Cube"};
  std::string base;
  switch (f.opcode) {
    case FetchOp::kTextureFetch: base = "tfetch"; break;
    case FetchOp::kGetTextureBorderColorFrac: base = "getBCF"; break;
    case FetchOp::kGetTextureComputedLod: base = "getCompTexLOD"; break;
    case FetchOp::kGetTextureWeights: base = "getWeights"; break;
    case FetchOp::kGetTextureGradients: return "getGradients";
    case FetchOp::kSetTextureLod: return "setTexLOD";
    case FetchOp::kSetTextureGradientsHorz: return "setGradientH";
    case FetchOp::kSetTextureGradientsVert: return "setGradientV";
    case FetchOp::kVertexFetch: return "vfetch";
  }
  return base + std::string(kDims[uint32_t(f.dimension) & 3]);
}

uint32_t FillSourceSwizzle(uint32_t swizzle, uint32_t shown) {
  if (shown == 0 || shown >= 3) return swizzle & 0x3F;
  uint32_t out = swizzle & ((1u << (2 * shown)) - 1);
  for (uint32_t i = shown; i < 3; ++i) out |= ((swizzle >> (2 * (i % shown))) & 3) << (2 * i);
  return out;
}

uint32_t TextureSourceComponents(FetchOp op, TextureDimension dim) {
  switch (op) {
    case FetchOp::kGetTextureGradients: return 2;
    case FetchOp::kSetTextureLod: return 1;
    case FetchOp::kSetTextureGradientsHorz:
    case FetchOp::kSetTextureGradientsVert: return 3;
    default: break;
  }
  switch (dim) {
    case TextureDimension::k1D: return 1;
    case TextureDimension::k2D: return 2;
    default: return 3;
  }
}

std::string FormatFloat(float v) {
  // Nine significant digits (C's %.9g), as fxc prints literals and defaults (build 2.0.21119's
  // `def c254, -0.996078432, 0.00392156886, 1, -0.25` in Scaleform's X360_ShaderBinary.cpp; the
  // corpus build's values are short either way): enough to read every float back exactly.
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.9g", double(v));
  return buf;
}

uint32_t CompilerBuild(std::string_view creator) {
  // "major.minor.build.revision"
  size_t dot = creator.find('.');
  if (dot == std::string_view::npos) return 0;
  dot = creator.find('.', dot + 1);
  if (dot == std::string_view::npos) return 0;
  std::string_view rest = creator.substr(dot + 1);
  rest = rest.substr(0, rest.find('.'));
  uint32_t build = 0;
  auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), build);
  return ec == std::errc() && p == rest.data() + rest.size() ? build : 0;
}

}  // namespace xnt::ucode::syntax
