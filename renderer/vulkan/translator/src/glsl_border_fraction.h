// getBCF in the translated shader: the share of a fetch's filtered result that the border colour
// would take, worked out from texel indices as the cpu path's texture unit works it out
// (TextureUnit with its border-fraction mode: every texel 1 on the border, 0 inside, the same
// footprint, levels and weights as tfetch, isotropic), so both paths give the same float.
#pragma once

#include <string>

namespace xnt::vk {

// GLSL for a shader with getBCF, after GlslTexelIndexHelpers: xe_bcf_plane (one 1D/2D level),
// xe_bcf_volume (one volume level) and xe_bcf_levels (TextureUnit::PickLevels).
std::string GlslBorderFractionHelpers();

}  // namespace xnt::vk
