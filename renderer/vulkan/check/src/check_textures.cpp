// Random textures for translate --check and the rule their fetches compare under (check_textures.h).
#include "check_textures.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <random>

#include "xnt/gpu/texture_descriptor.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk::check {
namespace {

using Rng = std::mt19937_64;
using xenos::DataDimension;
using xenos::TextureFormat;

constexpr TextureFormat kFormats[] = {
    TextureFormat::k_8_8_8_8, TextureFormat::k_5_6_5,   TextureFormat::k_16_16,
    TextureFormat::k_16_16_16_16_FLOAT, TextureFormat::k_32_FLOAT, TextureFormat::k_DXT1,
    TextureFormat::k_DXT2_3,  TextureFormat::k_DXT4_5};

uint32_t Between(Rng& g, uint32_t lo, uint32_t hi) { return lo + uint32_t(g() % (hi - lo + 1)); }

// The texture fetch constant's endian swaps of a 32-bit word (0 none, 1 8in16, 2 8in32, 3
// 16in32; each its own inverse), as the texture unit undoes them.
uint32_t Swap32(uint32_t v, uint32_t endian) {
  if (endian == 1 || endian == 2) v = ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu);
  if (endian == 2 || endian == 3) v = (v << 16) | (v >> 16);
  return v;
}

// Texel bytes of one texture: random; k_32_FLOAT words never denormal as the endian swap reads
// them (whether the device flushes one is the driver's choice) and one in eight a special value.
void FillTexels(Rng& g, TextureFormat format, uint32_t endian, uint8_t* bytes, size_t size) {
  for (size_t i = 0; i + 4 <= size; i += 4) {
    // k_16_16_16_16_FLOAT takes any bits: the Xenos half has no infinity or NaN, and every path
    // decodes exponent 31 as the finite binade 65536..131008 (texture_load.comp xenos_half).
    uint32_t w = uint32_t(g());
    if (format == TextureFormat::k_32_FLOAT) {
      static const uint32_t kSpecial[] = {0x00000000u, 0x80000000u, 0x3F800000u, 0x7F800000u,
                                          0xFF800000u, 0x7FC00000u, 0x7F7FFFFFu, 0x3F000000u};
      if (g() % 8 == 0) w = kSpecial[g() % std::size(kSpecial)];
      if ((w & 0x7F800000u) == 0) w &= 0x80000000u;
      w = Swap32(w, endian);
    }
    std::copy_n(reinterpret_cast<const uint8_t*>(&w), 4, bytes + i);
  }
}

std::string Hex(const uint32_t* d) {
  char buf[80];
  std::snprintf(buf, sizeof(buf), "%08x %08x %08x %08x %08x %08x", d[0], d[1], d[2], d[3], d[4], d[5]);
  return buf;
}

uint64_t RangesEnd(const gpu::TextureDescriptor& d) {
  uint64_t end = 0;
  for (const auto& [address, size] : d.ByteRanges()) end = std::max(end, uint64_t(address) + size);
  return end;
}

// The fetch constant dimension a fetch instruction reads a texture as (3D: a volume or a stack).
DataDimension DimensionFor(ucode::TextureDimension dim, Rng& g) {
  switch (dim) {
    case ucode::TextureDimension::k1D: return DataDimension::k1D;
    case ucode::TextureDimension::k3D: return g() % 2 ? DataDimension::k3D : DataDimension::k2DOrStacked;
    case ucode::TextureDimension::kCube: return DataDimension::kCube;
    default: return DataDimension::k2DOrStacked;
  }
}

}  // namespace

RandomTextures MakeRandomTextures(const ucode::Shader& shader, uint64_t seed,
                                  uint32_t* fetch_constants) {
  Rng g(seed ^ 0x7465787475726500ull);
  RandomTextures r;
  uint32_t cursor = kTextureAddress;
  for (const ucode::Instruction& ins : shader.slots) {
    if (ins.kind != ucode::SlotKind::kFetch || ins.fetch.IsVertex()) continue;
    const uint32_t slot = ins.fetch.const_index & 31;
    if (r.slots & (1u << slot)) continue;
    r.slots |= 1u << slot;
    uint32_t* d = fetch_constants + slot * 6;
    const DataDimension dim = DimensionFor(ins.fetch.dimension, g);
    const TextureFormat format = kFormats[g() % std::size(kFormats)];
    const uint32_t endian = uint32_t(g() % 4);
    uint32_t width = Between(g, 1, 64), height = Between(g, 1, 64), depth = 1;
    uint32_t size_raw = 0;
    switch (dim) {
      case DataDimension::k1D: size_raw = width - 1; height = 1; break;
      case DataDimension::k3D:
        width = Between(g, 1, 32), height = Between(g, 1, 32), depth = Between(g, 1, 8);
        size_raw = (width - 1) | ((height - 1) << 11) | ((depth - 1) << 22);
        break;
      case DataDimension::kCube:
        height = width;
        size_raw = (width - 1) | ((height - 1) << 13) | (5u << 26);
        break;
      default:
        depth = ins.fetch.dimension == ucode::TextureDimension::k3D || g() % 4 == 0 ? Between(g, 1, 6) : 1;
        size_raw = (width - 1) | ((height - 1) << 13) | ((depth - 1) << 26);
    }
    const bool tiled = dim != DataDimension::k1D && g() % 2;
    // Point filters three times in four, so that many fetches are compared bit for bit.
    const uint32_t mag = g() % 4 == 0, min = g() % 4 == 0, mip = uint32_t(g() % 3);
    const uint32_t aniso = g() % 4 ? 0u : Between(g, 1, 5);
    const uint32_t clamp = uint32_t(g()) & 0x1FFu;
    // dword 0: type 2, per-component sign conversions one time in four (unsigned, signed,
    // biased, gamma), clamp x/y/z, pitch (texels >> 5), tiling.
    uint32_t signs = g() % 4 ? 0u : uint32_t(g()) & 0xFFu;
    if (format == TextureFormat::k_DXT1 || format == TextureFormat::k_DXT2_3 || format == TextureFormat::k_DXT4_5) {
      // No kSigned (1) component on a compressed format: the cpu path's texel reader makes it
      // signed, the fbo/fsi loader leaves it unsigned; which the hardware does is not known (the
      // check found it; docs/shaders.md). Biased and gamma stay.
      for (uint32_t c = 0; c < 4; ++c) {
        if (((signs >> (2 * c)) & 3u) == 1u) signs &= ~(3u << (2 * c));
      }
    }
    d[0] = 2u | (signs << 2) | (clamp << 10) | (((width + 31) / 32) << 22) | (tiled ? 1u << 31 : 0u);
    d[1] = uint32_t(format) | (endian << 6) | ((cursor >> 12) << 12);
    d[2] = size_raw;
    // dword 3: a swizzle (bits 1..12, 3 per component) that mostly reads texel components (4 and
    // 5 are the constants 0 and 1); fraction format, no exp_adjust.
    uint32_t swizzle = 0;
    for (uint32_t c = 0; c < 4; ++c) swizzle |= (g() % 8 ? uint32_t(g() % 4) : 4u + uint32_t(g() % 2)) << (3 * c);
    // exp_adjust (bits 13..18, signed) -4..4 one time in four.
    const uint32_t exp_adjust = g() % 4 ? 0u : uint32_t(int32_t(g() % 9) - 4) & 0x3Fu;
    d[3] = (swizzle << 1) | (exp_adjust << 13) | (mag << 19) | (min << 21) | (mip << 23) | (aniso << 25);
    const uint32_t max_level = Between(g, 0, 6), min_level = g() % 4 ? 0u : std::min(1u, max_level);
    const int32_t lod_bias = int32_t(g() % 1024) - 512;
    d[4] = uint32_t(g() % 4) | (min_level << 2) | (max_level << 6) | (uint32_t(g() % 4) << 10) |
           ((uint32_t(lod_bias) & 0x3FFu) << 12);
    d[5] = uint32_t(g() % 4) | (uint32_t(dim) << 9) | (g() % 2 ? 1u << 11 : 0u);
    uint64_t end = RangesEnd(gpu::TextureDescriptor::FromFetchConstant(d));
    if (dim != DataDimension::k3D && max_level > 0 && g() % 4) {
      const uint32_t mips = uint32_t((end + 4095) & ~uint64_t(4095));
      d[5] |= (mips >> 12) << 12;
      end = std::max(end, RangesEnd(gpu::TextureDescriptor::FromFetchConstant(d)));
    }
    const uint32_t next = uint32_t((end + 4095) & ~uint64_t(4095));
    r.bytes.resize(next - kTextureAddress);
    FillTexels(g, format, endian, r.bytes.data() + (cursor - kTextureAddress), next - cursor);
    const gpu::TextureDescriptor desc = gpu::TextureDescriptor::FromFetchConstant(d);
    r.described.push_back("tf" + std::to_string(slot) + ": " + std::string(xenos::TextureFormatName(uint32_t(format))) +
                          " " + std::to_string(width) + "x" + std::to_string(height) + "x" +
                          std::to_string(std::max(depth, desc.layers)) + " dimension " +
                          std::to_string(uint32_t(dim)) + (tiled ? " tiled" : " linear") + " endian " +
                          std::to_string(endian) + ", " + std::to_string(desc.levels) +
                          " level(s), fetch constant " + Hex(d));
    cursor = next;
  }
  return r;
}

Value TextureFetchRule(const ucode::FetchInstruction& f, const uint32_t* fetch_constants, bool pixel,
                       bool fsi, bool quads) {
  const bool border_fraction = f.opcode == ucode::FetchOp::kGetTextureBorderColorFrac;
  if (f.opcode != ucode::FetchOp::kTextureFetch && !border_fraction) return {};
  const uint32_t* d = fetch_constants + (f.const_index & 31) * 6;
  const xenos::TextureFetchConstant t = xenos::TextureFetchConstant::Decode(d);
  // The texture cache's view goes to the binding of the fetch constant's dimension; the
  // translated fetch reads the binding of the instruction's (a 3D fetch of a stack the 2D array).
  const bool matches =
      f.dimension == ucode::TextureDimension::k3D
          ? t.dimension == DataDimension::k3D || t.dimension == DataDimension::k2DOrStacked
          : uint32_t(t.dimension) == uint32_t(f.dimension);
  if (!matches) {
    return Value{0, true, "a fetch whose dimension is not its fetch constant's (the host reads zeros)"};
  }
  // getBCF reads no texel and no sampler: only the sizes of the binding its dimension names.
  if (border_fraction) return {};
  auto pick = [](uint32_t instruction, uint32_t keep, uint32_t constant) {
    return instruction == keep ? constant : instruction;
  };
  const uint32_t mag = pick(f.mag_filter, 3, uint32_t(t.mag_filter));
  const uint32_t min = pick(f.min_filter, 3, uint32_t(t.min_filter));
  const uint32_t mip = pick(f.mip_filter, 3, uint32_t(t.mip_filter));
  const uint32_t aniso = pick(f.aniso_filter, 7, uint32_t(t.aniso_filter));
  const bool volume = t.dimension == DataDimension::k3D;
  const uint32_t vol_mag = pick(f.vol_mag_filter, 3, t.vol_mag_filter);
  const uint32_t vol_min = pick(f.vol_min_filter, 3, t.vol_min_filter);
  const bool anisotropic = aniso >= 2 && aniso <= 5;
  // A stack's layer filter is vol_min's where z moves more than a layer a pixel: with the quad's
  // derivatives that is each side's own coarse difference (which pixel pair is the host's).
  const bool stack = f.dimension == ucode::TextureDimension::k3D && t.dimension == DataDimension::k2DOrStacked;
  if (stack && quads && pixel && f.use_comp_lod && !f.use_reg_lod && !f.use_reg_gradients && vol_mag != vol_min) {
    return Value{0, true, "a stack's layer filter chosen from the quad's derivatives (vol_mag or vol_min)"};
  }
  // The check's lanes are lone points: their derivatives are 0, so an implicit LOD is -infinity
  // on the device and the texture unit, without derivatives, takes lambda 0: both magnify at the
  // LOD range's lowest level when that is level 0, and the minification filters do not matter.
  const bool implicit_lod = f.use_comp_lod && !f.use_reg_lod && !f.use_reg_gradients;
  // The fetch constant's LOD range (xe_lod_range, TextureUnit::Prepare).
  const bool has_mips = t.mip_filter != xenos::TextureFilter(2) && (d[5] >> 12) != 0;
  const uint32_t min_lod = has_mips ? t.mip_min_level : 0;
  const uint32_t max_lod = has_mips && mip != 2 ? std::max<uint32_t>(t.mip_max_level, min_lod) : min_lod;
  bool magnified = implicit_lod && t.mip_min_level == 0;
  bool per_lane = false;
  if (quads && pixel && implicit_lod) {
    // Quads: lambda is the derivatives'. It is clamped to the fetch constant's LOD range
    // (xe_texel_magnified, TextureUnit ClampLambda): with a range of level 0 alone every lambda
    // magnifies; from a lowest level above 0 none does; otherwise each side decides
    // magnification from its own log2 of the derivatives, so the lanes whose lambda is clearly
    // below 0 magnify on both (compared), the others are the host sampler's (its level and float
    // texel) or too close to 0 to tell (LodLanes leaves them out).
    magnified = max_lod == 0;
    per_lane = !magnified && min_lod == 0;
    magnified |= per_lane;
  }
  // What the translated pixel shader samples itself, from texelFetch'd texels addressed as the
  // texture unit addresses them (glsl_fetch.cpp EmitExactTexel): 1D, 2D and stacked textures,
  // the point texel of a magnified fetch or, whatever the LOD, of a one-level texture point
  // filtered both ways, and with the fsi path's options the bilinear filter of a one-level 2D
  // texture whose coordinates need no division.
  const bool in_shader = pixel && (f.dimension == ucode::TextureDimension::k1D ||
                                   f.dimension == ucode::TextureDimension::k2D ||
                                   (f.dimension == ucode::TextureDimension::k3D && !volume));
  const bool one_level = gpu::TextureDescriptor::FromFetchConstant(d).levels == 1;
  // PWL gamma components are compared like the others: the translated conversion takes the
  // texture unit model's exactly rounded steps in its order (glsl_prelude.cpp
  // xe_pwl_gamma_to_linear), so a texel both sides pick converts to the same bits.
  if (in_shader && magnified && mag == 0 && !anisotropic) return Value{0, false, {}, per_lane};
  if (in_shader && !implicit_lod && one_level && mag == 0 && min == 0 && !anisotropic) return {};
  // Not exact even where it magnifies: the host filters its minified lanes as well.
  if (per_lane) magnified = false;
  if (in_shader && fsi && f.dimension != ucode::TextureDimension::k1D && mag == 1 && min == 1 &&
      !anisotropic && !f.tx_coord_denorm && !f.offset_x && !f.offset_y && !f.offset_z && one_level) {
    return {};
  }
  // A volume whose z filter differs from its x/y filter at the texture unit's level is filtered
  // in the translated shader from texelFetch'd texels as the texture unit filters it
  // (glsl_volume_filter.cpp): compared exactly where that level is known to both sides (a LOD
  // range of one level: lambda is it whatever the LOD; magnified at level 0) and no coordinate
  // goes through a division the driver may round its own way (unnormalised coordinates,
  // offsets).
  if (volume && !anisotropic && !f.tx_coord_denorm && !f.offset_x && !f.offset_y && !f.offset_z) {
    if (min_lod == max_lod) {
      const bool at_base = min_lod == 0;
      const uint32_t z = at_base ? f.vol_mag_filter : f.vol_min_filter;
      const bool z_linear = z < 2 ? z == 1 : at_base ? t.vol_mag_filter : t.vol_min_filter;
      if (((at_base ? mag : min) == 1) != z_linear) return {};
    }
  }
  // Whatever level, layer and texels the host's sampler takes within its LOD range, the result
  // lies in the interval check_bounds.h derives from the footprint on those levels (compared
  // there; a cube's only where the footprint stays inside the face, since the host's seamless
  // filter reads the next face at its edge). An anisotropic cube fetch is the host's own walk
  // across faces: not compared.
  const bool bounded = f.dimension != ucode::TextureDimension::kCube || !anisotropic;
  auto host = [bounded](const char* why) { return bounded ? Value{0, false, why, false, true} : Value{0, true, why}; };
  if (anisotropic) {
    // The driver's own walk, within the footprint's parallelogram (check_bounds.h).
    Value v = host("host sampler: an anisotropic footprint (the driver's own walk)");
    v.derivative_footprint = true;
    return v;
  }
  if (mag != 0 || (!magnified && (min != 0 || mip == 1)) || (volume && (vol_mag != 0 || vol_min != 0))) {
    return host("host sampler: linear filter weights (precision the driver's, Vulkan subTexelPrecisionBits)");
  }
  if (f.dimension == ucode::TextureDimension::kCube) {
    return host("host sampler: a cube fetch (off its face the host's seamless cube reads the next face, the "
                "texture unit clamps to the face's edge)");
  }
  return host("host sampler: the nearest texel of a float coordinate (1D, volume, vertex shader, register LOD or a "
              "minified level; the texture unit takes the hardware's fixed-point coordinate, gpu/texel_coordinate.h)");
}

}  // namespace xnt::vk::check
