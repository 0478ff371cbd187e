// A volume texture's own z filter in the translated shader. The texture unit filters across a
// volume's slices with the fetch's vol_mag / vol_min filter and across x and y with mag / min
// (Direct3D's MAGFILTERZ / MINFILTERZ sampler states, "for volume/array slice" magnification and
// minification); a host 3D sampler has one filter for all three axes. Where the two differ the
// shader filters the volume itself, from texelFetch'd texels, as the cpu path's texture unit does
// (renderer/cpu/src/texture_unit.cpp FilterAt / FilterVolume / PickLevels, texture_aniso.cpp
// Walk), level of detail, anisotropic probes and addressing included.
#pragma once

#include <string>

namespace xnt::vk {

// GLSL for a shader with a 3D texture fetch, after GlslTexelIndexHelpers: xe_volume_sample.
// Needs the prelude's xe_fetch_dword.
std::string GlslVolumeFilterHelpers();

}  // namespace xnt::vk
