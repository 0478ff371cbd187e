// The texture unit's explicit levels of detail and its size queries (see texture_unit.h): fetches
// whose LOD is the setTexLOD register, setGradientH/V's derivatives or level 0, and the size
// getWeights / getCompTexLOD read (ucode/texture_queries.h).
//
// Which LOD a fetch takes, as the translator's glsl_fetch.cpp decides it (the instruction's
// UseRegisterLOD, UseComputedLOD and UseRegisterGradients bits; Xenia's translators read the same
// bits, spirv_shader_translator_fetch.cc): the register LOD when UseRegisterLOD is set (what the
// compiler emits for tex2Dlod, with UseComputedLOD=false); else the register gradients when the
// LOD is computed and UseRegisterGradients is set (tex2Dgrad), in the fetch's coordinate units
// (texels for unnormalised coordinates); else level 0 (UseComputedLOD=false, and vertex shaders,
// which have no screen derivatives). The fetch constant's LOD bias (5.5 fixed point) and the
// instruction's (units of 1/16) add to all of them, then the fetch constant's mip range clamps.
#include <algorithm>
#include <cmath>

#include "texture_unit.h"

namespace xnt::cpu {

TextureUnit::Slot* TextureUnit::Sampleable(uint32_t slot) {
  Slot& s = Get(slot);
  if (s.reader) return &s;
  Note("cpu path: texture fetch constant " + std::to_string(slot & 31) + ": " + s.error);
  return nullptr;
}

TextureUnit::Footprint TextureUnit::ExplicitFootprint(const Setup& p,
                                                      const ucode::FetchInstruction& f,
                                                      const ucode::TextureRegisters& registers) const {
  Footprint footprint;
  if (!f.use_reg_lod && f.use_comp_lod && f.use_reg_gradients) {
    // Cube faces keep level 0 (as their implicit fetches do).
    if (!p.cube) footprint = Walk(p, f, registers.grad_h, registers.grad_v);
  } else {
    footprint.lambda = (f.use_reg_lod ? registers.lod : 0.0f) +
                       float(p.s->fetch.lod_bias) / 32.0f + float(f.lod_bias) / 16.0f;
  }
  return footprint;
}

ucode::Float4 TextureUnit::FetchExplicit(uint32_t slot, const ucode::Float4& coords,
                                         const ucode::FetchInstruction& f,
                                         const ucode::TextureRegisters& registers) {
  Slot* s = Sampleable(slot);
  if (!s) return {0.0f, 0.0f, 0.0f, 0.0f};
  const Setup p = Prepare(*s, f);
  const Footprint footprint = ExplicitFootprint(p, f, registers);
  return SampleFootprint(p, f, coords, footprint, ClampLambda(footprint.lambda, p.min_lod, p.max_lod));
}

void TextureUnit::FetchBatchExplicit(uint32_t slot, const ucode::FetchInstruction& f,
                                     const std::array<const float*, 3>& coords,
                                     const uint32_t* active, uint32_t lanes,
                                     const ucode::BatchTextureSource::LaneRegisters& registers,
                                     ucode::Float4* texels) {
  Slot* s = Sampleable(slot);
  if (!s) {
    for (uint32_t l = 0; l < lanes; ++l) {
      if (active[l]) texels[l] = {0.0f, 0.0f, 0.0f, 0.0f};
    }
    return;
  }
  // The fetch constant and filters once; each lane its own registers (FetchExplicit's result).
  const Setup p = Prepare(*s, f);
  for (uint32_t l = 0; l < lanes; ++l) {
    if (!active[l]) continue;
    const ucode::TextureRegisters r{
        registers.lod[l],
        {registers.grad_h[0][l], registers.grad_h[1][l], registers.grad_h[2][l], 0.0f},
        {registers.grad_v[0][l], registers.grad_v[1][l], registers.grad_v[2][l], 0.0f}};
    const Footprint footprint = ExplicitFootprint(p, f, r);
    texels[l] = SampleFootprint(p, f, {coords[0][l], coords[1][l], coords[2][l], 0.0f}, footprint,
                                ClampLambda(footprint.lambda, p.min_lod, p.max_lod));
  }
}

ucode::TextureQuerySize TextureUnit::QuerySize(uint32_t slot, const ucode::FetchInstruction& f) {
  Slot* ready = Sampleable(slot);
  if (!ready) return {};
  const Setup p = Prepare(*ready, f);
  const gpu::TextureDescriptor& d = ready->reader->texture();
  ucode::TextureQuerySize size;
  size.width = p.w;
  size.height = p.h;
  size.depth = float(std::max(p.stack, 1u));
  size.volume = d.dimension == uint32_t(xenos::DataDimension::k3D);
  return size;
}

void TextureUnit::Bind(ucode::InterpreterCallbacks& cb) {
  cb.texture_fetch = [this](uint32_t slot, const ucode::Float4& coords,
                            const ucode::FetchInstruction& f) { return Fetch(slot, coords, f); };
  cb.texture_fetch_explicit = [this](uint32_t slot, const ucode::Float4& coords,
                                     const ucode::FetchInstruction& f,
                                     const ucode::TextureRegisters& registers) {
    return FetchExplicit(slot, coords, f, registers);
  };
  cb.texture_size = [this](uint32_t slot, const ucode::FetchInstruction& f) {
    return QuerySize(slot, f);
  };
}

}  // namespace xnt::cpu
