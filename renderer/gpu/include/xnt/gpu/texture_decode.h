// The CPU texture decoder: the components of one texel of a guest texture block, decoded from its
// bits the way the texture unit defines them (unorm fields over 2^n - 1, IEEE half and float,
// 20e4 depth floats, DXT1/2_3/4_5 colour and alpha interpolation, DXN, DXT3A/5A, CTX1, the
// Cr/Y/Cb packed formats). It is the reference the Vulkan compute loader is tested against and
// what a CPU render path samples with. Facts: Xenia src/xenia/gpu/texture_info_formats.inc and
// texture_conversion.cc (DXT / CTX1 palettes)
// Formats 27-29 (*_EXPAND) decode as half floats, as the loader does.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace xnt::gpu {

// One decoded component: an exact float, or an unorm integer v over `max` (value = v / max; the
// host may round v / max differently, so a reference comparison allows for that).
struct Component {
  float value = 0;
  uint32_t max = 0;  // 0: exact float bits
};
using Texel = std::array<Component, 4>;


// Texel `ti` (index in a 4x4 block; the column within a 2x1 block for the Cr/Y/Cb formats; else 0)
// of a block whose dwords are `w` (after the endian swap), with `t` the texel's own bits for
// sub-dword texels. nullopt for a format the decoder does not know.
std::optional<Texel> DecodeTexel(uint32_t format, const uint32_t* w, uint32_t t, uint32_t ti);

}  // namespace xnt::gpu
