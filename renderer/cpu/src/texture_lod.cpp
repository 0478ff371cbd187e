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

ucode::Float4 TextureUnit::FetchExplicit(uint32_t slot, const ucode::Float4& coords,
                                         const ucode::FetchInstruction& f,
                                         const ucode::TextureRegisters& registers) {
  Slot* ready = Sampleable(slot);
  if (!ready) return {0.0f, 0.0f, 0.0f, 0.0f};
  Slot& s = *ready;
  const Setup p = Prepare(s, f);
  Footprint footprint;
  if (!f.use_reg_lod && f.use_comp_lod && f.use_reg_gradients) {
    // Cube faces keep level 0 (as their implicit fetches do).
    if (!p.cube) footprint = Walk(p, f, registers.grad_h, registers.grad_v);
  } else {
    footprint.lambda = (f.use_reg_lod ? registers.lod : 0.0f) +
                       float(s.fetch.lod_bias) / 32.0f + float(f.lod_bias) / 16.0f;
  }
  // NaN (a NaN register or rho) takes the finest allowed level.
  const float lambda = std::isnan(footprint.lambda)
                           ? p.min_lod
                           : std::clamp(footprint.lambda, p.min_lod, p.max_lod);
  return SampleFootprint(p, f, coords, footprint, lambda);
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
