// The texture unit's answers that need no texel: getWeights, getCompTexLOD and getGradients, and
// the state setTexLOD / setGradientH / setGradientV leave for later fetches. One definition for
// the scalar and the batched interpreter; the translator emits the same arithmetic in GLSL
// (renderer/vulkan/translator/src/glsl_fetch.cpp), so cpu, fbo and fsi agree.
//
// Facts from Xenia's shader translators (spirv_shader_translator_fetch.cc and
// dxbc_shader_translator_fetch.cc, ProcessTextureFetchInstruction), re-derived here:
// - getWeights: the fraction between texel centres along each fetched axis at level 0, i.e.
//   fract(texel coordinate + instruction offset - 1/2) with the coordinate in texels (normalised
//   coordinates times the size); x for 1D, xy for 2D and cube, xyz for 3D (a stacked texture's
//   z counts layers). w, the fraction between two mips, is 0: Xenia leaves it out as well, and
//   the filter modes are not consulted (a point-filtered texture still gets its fractions).
// - getCompTexLOD: x = log2 of the longer texel-space derivative of the coordinates along screen
//   x and y, unbiased and unclamped (Xenia queries the host's unclamped lambda with samplers that
//   carry no bias); the derivatives are the 2x2 quad's coarse ones. y, z, w are 0.
// - getGradients: (d/dx of x, d/dy of x, d/dx of y, d/dy of y) of the source, coarse (Xenia's
//   result component i takes d/dy when bit 0 of i is set and the source's y when bit 1 is).
#pragma once

#include <cstdint>

#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode {

// TextureQuerySize (interpreter.h): the size in texels a fetch of that dimension sees (z: the
// depth of a volume or the layers of a stacked texture), and whether a 3D fetch reads a volume
// (z is filtered and counts in the LOD) or a stack of 2D layers.

Float4 TextureWeights(const FetchInstruction& f, const Float4& coords, const TextureQuerySize& size);
float TextureComputedLod(const FetchInstruction& f, const Float4& ddx, const Float4& ddy,
                         const TextureQuerySize& size);
inline Float4 TextureGradients(const Float4& ddx, const Float4& ddy) {
  return {ddx[0], ddy[0], ddx[1], ddy[1]};
}

}  // namespace xnt::ucode
