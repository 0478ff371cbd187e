// The texture unit's footprint: the level of detail from a quad's coarse derivatives and, with
// anisotropic filtering, the walk along the footprint's major axis (see texture_unit.h).
//
// Anisotropic filtering: with the texel-space derivative vectors Px = |d(u,v)/dx| and
// Py = |d(u,v)/dy|, the level comes from the footprint's major axis over the anisotropy it
// allows, eta = min(Pmax / Pmin, maxAniso), unrounded: lambda = log2(Pmax / eta) + biases, which
// is the minor axis's level while the ratio is within the limit (Vulkan's "Level-of-Detail
// Operation"; Direct3D's lod instruction documents the level of the footprint's smaller axis;
// an NVIDIA H200 reads these levels at ratios such as 4:3). The probes follow the reference walk
// of the Vulkan specification's "Texel Anisotropic Filtering" (from EXT_texture_filter_anisotropic):
//   N = min(ceil(Pmax / Pmin), maxAniso) probes,
//   texel = 1/N * sum over i = 1..N of the min-filtered sample at
//           coords + (i / (N + 1) - 1/2) * (the major axis's coordinate derivative),
// each probe filtered (bilinear, mip nearest or linear) at that lambda. The Xenos takes its
// maximum ratio from the fetch constant's (or the instruction's) aniso filter field, max 2:1 ..
// 16:1 (Xenia xenos.h AnisoFilter; D3D's MAXANISOTROPY). Which probes a real GPU takes is not
// specified (Vulkan leaves it to the implementation), so this is the reference walk, not a
// model of the Xenos texture pipe's sample pattern: the fbo path's host (lavapipe, any driver)
// filters differently, and docs/cpu.md lists anisotropic fetches among the fbo/cpu differences.
// The walk only runs when the footprint minifies (Pmax > 1 texel per pixel): a magnified
// texture is filtered once, as hardware anisotropic filters do. The fetch constant's
// mag/min_aniso_walk and aniso_bias fields are not read (Xenia does not read them either).
#include <algorithm>
#include <cmath>

#include "texture_unit.h"

namespace xnt::cpu {

TextureUnit::Footprint TextureUnit::Walk(const Setup& p, const ucode::FetchInstruction& f,
                                         const ucode::Float4& ddx, const ucode::Float4& ddy) const {
  // The biases are added one after the other, as always (the isotropic lambda is unchanged).
  auto biased = [&](float l) {
    return l + float(p.s->fetch.lod_bias) / 32.0f + float(f.lod_bias) / 16.0f;
  };
  const float dudx = ddx[0] * p.rho_x, dvdx = p.one_d ? 0.0f : ddx[1] * p.rho_y;
  const float dudy = ddy[0] * p.rho_x, dvdy = p.one_d ? 0.0f : ddy[1] * p.rho_y;
  float sx = dudx * dudx + dvdx * dvdx, sy = dudy * dudy + dvdy * dvdy;
  if (p.rho_z != 0.0f) {  // a volume's z derivative
    const float dwdx = ddx[2] * p.rho_z, dwdy = ddy[2] * p.rho_z;
    sx += dwdx * dwdx;
    sy += dwdy * dwdy;
  }
  const float px = std::sqrt(sx), py = std::sqrt(sy);
  const float rho = std::max(px, py);
  Footprint out;
  out.lambda = biased(std::log2(rho));
  // Layers per pixel of a stack's z (compared one axis at a time: a NaN derivative magnifies).
  const float layers = f.tx_coord_denorm ? 1.0f : float(p.stack);
  out.layers_minified = std::abs(ddx[2]) * layers > 1.0f || std::abs(ddy[2]) * layers > 1.0f;
  if (p.max_aniso <= 1 || !(rho > 1.0f)) return out;
  const float minor = std::min(px, py);
  // A zero minor axis (a footprint that is a line) takes the most probes allowed.
  float ratio = minor > 0.0f ? std::ceil(rho / minor) : float(p.max_aniso);
  if (!(ratio >= 1.0f)) ratio = float(p.max_aniso);  // inf / inf: NaN, no defined conversion
  const uint32_t n = uint32_t(std::clamp(ratio, 1.0f, float(p.max_aniso)));
  if (n <= 1) return out;
  out.probes = n;
  // eta: the ratio itself, not the probe count it rounds up to (a zero minor axis allows the most).
  const float eta = minor > 0.0f ? std::min(rho / minor, float(p.max_aniso)) : float(p.max_aniso);
  out.lambda = biased(std::log2(rho / std::max(eta, 1.0f)));
  const ucode::Float4& major = px >= py ? ddx : ddy;
  for (uint32_t c = 0; c < 3; ++c) out.axis[c] = major[c];
  if (p.one_d) out.axis[1] = 0.0f;
  return out;
}

ucode::Float4 TextureUnit::SampleFootprint(const Setup& p, const ucode::FetchInstruction& f,
                                           const ucode::Float4& coords, const Footprint& footprint,
                                           float lambda) {
  if (footprint.probes <= 1) return SampleAt(p, f, coords, lambda, footprint.layers_minified);
  const uint32_t n = footprint.probes;
  ucode::Float4 sum{};
  for (uint32_t i = 1; i <= n; ++i) {
    const float t = float(i) / float(n + 1) - 0.5f;
    // The probes move along u and v (a stacked texture's layer stays the lane's).
    const ucode::Float4 probe{coords[0] + t * footprint.axis[0], coords[1] + t * footprint.axis[1],
                              coords[2], coords[3]};
    const ucode::Float4 texel = FilterAt(p, f, probe, lambda, footprint.layers_minified);
    for (uint32_t c = 0; c < 4; ++c) sum[c] += texel[c];
  }
  for (float& c : sum) c /= float(n);
  Finish(*p.s, sum);
  return sum;
}

}  // namespace xnt::cpu
