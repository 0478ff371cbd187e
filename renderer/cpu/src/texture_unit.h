// The cpu path's texture unit: tfetch from guest memory through gpu::TexelReader, with the fetch
// constant's address modes, border colour and filters (the instruction's filter overrides win),
// unnormalised coordinates and offsets, then the fetch constant's sign bias / PWL gamma and
// exponent adjust (the interpreter applies the swizzle). What the fbo path's translator does,
// in the same order, so the two paths can be compared.
//
// The level of detail comes from the coordinates' screen derivatives when the caller has them
// (the batched interpreter shades 2x2 quads: coarse derivatives per quad), with Vulkan's rules as
// the fbo path's host sampler applies them: rho = the longer of the two texel-space gradients,
// lambda = log2(rho) + the fetch constant's and the instruction's LOD biases, clamped to the
// fetch constant's mip range; magnification at lambda <= 0; the mip filter picks the nearest
// level or blends two. Anisotropic filtering (the aniso filter field, max 2:1 .. 16:1) walks the
// footprint: N = min(ceil(major / minor), max) probes along the major axis, lambda from
// major / N (texture_aniso.cpp). Without derivatives (a pixel shaded alone) the level is 0 with
// the magnification filter, and a texture with mips says so in a note. Cube fetches read the face the
// `cube` instruction selected, clamped to its edges, at level 0.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "xnt/gpu/renderer_options.h"
#include "xnt/gpu/scaled_resolve.h"
#include "xnt/gpu/texel_reader.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/batch_interpreter.h"
#include "xnt/ucode/interpreter.h"
#include "xnt/xenos/enums.h"

namespace xnt::cpu {

// lambda clamped to the sampler's LOD range; NaN (rho 0, NaN coordinates or a NaN register LOD)
// takes the finest allowed level.
inline float ClampLambda(float lambda, float min_lod, float max_lod) {
  return std::isnan(lambda) ? min_lod : std::clamp(lambda, min_lod, max_lod);
}

class TextureUnit {
 public:
  // `scaled`: copies left by resolves at a resolution scale; a texture that names one is read
  // from it at the scaled size (its coordinates stay normalised; unnormalised coordinates and
  // texel offsets stay in guest texels, so filters keep their footprint).
  TextureUnit(const replay::RegisterFile& regs, const replay::GuestMemory* memory,
              std::map<std::string, uint64_t>& notes,
              const gpu::ScaledResolveMemory* scaled = nullptr);

  // What the screen derivatives handed in (FetchGradients, FetchBatch's quads) measure at a
  // resolution scale (gpu::ScaledDerivatives): with kGuest they are multiplied by the scale per
  // screen axis and a scaled copy is measured in guest texels, so the level and footprint are
  // the 1x frame's; with kHost they stay per host pixel and a scaled copy counts its own texels.
  void SetScaledDerivatives(gpu::ScaledDerivatives mode, uint32_t scale_x, uint32_t scale_y);

  // The interpreter's texture_fetch callback (no derivatives: level 0).
  ucode::Float4 Fetch(uint32_t slot, const ucode::Float4& coords, const ucode::FetchInstruction& f);
  // With the coordinates' derivatives along screen x and y (texture_fetch_gradients).
  ucode::Float4 FetchGradients(uint32_t slot, const ucode::Float4& coords,
                               const ucode::FetchInstruction& f, const ucode::Float4& ddx,
                               const ucode::Float4& ddy);
  // A fetch whose LOD is explicit (ucode::FetchHasExplicitLod): the register LOD or gradients, or
  // level 0, plus the biases (texture_lod.cpp).
  ucode::Float4 FetchExplicit(uint32_t slot, const ucode::Float4& coords,
                              const ucode::FetchInstruction& f,
                              const ucode::TextureRegisters& registers);
  // FetchExplicit over a batch (ucode::BatchTextureSource::FetchBatchExplicit): the fetch
  // constant and filters once, each lane's registers on their own.
  void FetchBatchExplicit(uint32_t slot, const ucode::FetchInstruction& f,
                          const std::array<const float*, 3>& coords, const uint32_t* active,
                          uint32_t lanes, const ucode::BatchTextureSource::LaneRegisters& registers,
                          ucode::Float4* texels);
  // The size getWeights / getCompTexLOD see: guest texels, z the volume's depth or the stack's
  // layers.
  ucode::TextureQuerySize QuerySize(uint32_t slot, const ucode::FetchInstruction& f);
  // Sets the interpreter's texture_fetch, texture_fetch_explicit and texture_size to this unit.
  void Bind(ucode::InterpreterCallbacks& cb);
  // A whole batch of the batched interpreter (ucode::BatchTextureSource): the fetch constant,
  // filters and LOD range are worked out once per batch, the level of detail once per 2x2 quad
  // (its lanes share the coarse derivatives), then every active lane is sampled. Each lane's
  // texel is bit for bit what FetchGradients (quads) or Fetch gives for it.
  void FetchBatch(uint32_t slot, const ucode::FetchInstruction& f,
                  const std::array<const float*, 3>& coords, const uint32_t* active,
                  uint32_t lanes, bool quads, ucode::Float4* texels);

 private:
  struct Slot {
    std::string error;  // non-empty: not sampleable (why)
    xenos::TextureFetchConstant fetch{};
    std::unique_ptr<gpu::TexelReader> reader;
    uint32_t layers = 1;
    uint32_t scale_x = 1, scale_y = 1;  // > 1: read from a scaled resolve copy
    std::vector<std::array<uint32_t, 3>> level_size;  // width, height, slices of each level (>= 1)
    // Decoded texels per (level, layer), filled 8x8 texels at a time on first touch (a texture
    // cache: untiling and decoding once per texel instead of once per fetch; the values are the
    // reader's). Not used for a texture too large to keep or one with a texel that does not
    // decode.
    struct Image {
      uint32_t width = 0, height = 0, blocks_x = 0;
      std::vector<ucode::Float4> texels;  // width * height
      std::vector<uint8_t> block_ready;
    };
    bool cacheable = false;
    std::vector<Image> images;  // level * layers + layer
  };
  Slot& Get(uint32_t slot);
  // The slot when it can be sampled; else nullptr and a note naming why.
  Slot* Sampleable(uint32_t slot);
  // What a fetch instruction on a slot decides before any coordinate is known: the filters, the
  // sampler's LOD range and the texture's size (Prepare), shared by every lane of a batch.
  struct Setup {
    Slot* s = nullptr;
    bool one_d = false, cube = false;
    float w = 1.0f, h = 1.0f;      // guest texels
    // Normalised derivatives -> level-0 texels; rho_z is 0 but for a volume's 3D fetch.
    float rho_x = 1.0f, rho_y = 1.0f, rho_z = 0.0f;
    uint32_t mag = 0, min = 0, mip = 0, top_level = 0, stack = 1;
    float min_lod = 0.0f, max_lod = 0.0f;
    float offset_u = 0.0f, offset_v = 0.0f;  // the instruction's offsets, normalised
    uint32_t max_aniso = 1;  // the aniso filter's maximum ratio (1: isotropic)
  };
  Setup Prepare(Slot& s, const ucode::FetchInstruction& f);
  // What the coarse derivatives decide: lambda before the clamp to the LOD range and, with
  // anisotropic filtering, the probes along the footprint's major axis (texture_aniso.cpp).
  struct Footprint {
    float lambda = 0.0f;
    uint32_t probes = 1;              // N (1: one isotropic sample)
    float axis[3] = {0.0f, 0.0f, 0.0f};  // the major axis's coordinate derivative (per pixel)
    // A stack's layers minified: z moves more than a layer a pixel along x or y (the layer
    // filter is then vol_min's, else vol_mag's).
    bool layers_minified = false;
  };
  // An explicit LOD's footprint: the register gradients' walk, or lambda from the register LOD
  // (or 0) plus both biases (texture_lod.cpp).
  Footprint ExplicitFootprint(const Setup& setup, const ucode::FetchInstruction& f,
                              const ucode::TextureRegisters& registers) const;
  Footprint Walk(const Setup& setup, const ucode::FetchInstruction& f, const ucode::Float4& ddx,
                 const ucode::Float4& ddy) const;
  // The sample of one lane at a clamped lambda (0 without derivatives): SampleAt filters one
  // position, SampleFootprint averages the footprint's probes (one position when isotropic).
  ucode::Float4 SampleAt(const Setup& setup, const ucode::FetchInstruction& f,
                         const ucode::Float4& coords, float lambda, bool layers_minified = false);
  ucode::Float4 SampleFootprint(const Setup& setup, const ucode::FetchInstruction& f,
                                const ucode::Float4& coords, const Footprint& footprint,
                                float lambda);
  // SampleAt's two halves: the filtered texel, then sign bias / gamma / exp_adjust.
  ucode::Float4 FilterAt(const Setup& setup, const ucode::FetchInstruction& f,
                         const ucode::Float4& coords, float lambda, bool layers_minified = false);
  static void Finish(const Slot& s, ucode::Float4& texel);
  // True when Finish leaves every texel of the slot as it is.
  static bool FinishIsIdentity(const Slot& s);
  // The normalised (u, v) a lane samples on a 2D level or cube face: a cube face's coordinates
  // moved from [1, 2] to [0, 1], unnormalised ones divided by the size, the offsets added.
  static void PlaneCoordinates(const Setup& p, const ucode::FetchInstruction& f, float x, float y,
                               float& u, float& v) {
    const bool one_d = p.one_d;
    u = x, v = one_d ? 0.5f : y;
    if (p.cube) {
      // tfetchCube after the compiler's `cube` + `mad ..., 1.5`: x = s and y = t on the face in
      // [1, 2], z = the face index (0 +X, 1 -X, 2 +Y, 3 -Y, 4 +Z, 5 -Z), which is the layer
      // the face is stored as.
      u = x - 1.0f;
      v = y - 1.0f;
    } else if (f.tx_coord_denorm) {
      u /= p.w;
      if (!one_d) v /= p.h;
    }
    u += p.offset_u;
    if (!one_d) v += p.offset_v;
  }
  // The level(s) a clamped lambda samples and with which filter: magnification at lambda <= 0,
  // else the min filter on the nearest level or a blend of two (the mip filter).
  struct LevelPick {
    uint32_t lo = 0, hi = 0;
    float t = 0.0f;      // the weight of `hi` when blending
    bool linear = false;  // bilinear within a level
    bool blend = false;
  };
  static LevelPick PickLevels(const Setup& p, float lambda);
  static ucode::Float4 Blend(const ucode::Float4& a, const ucode::Float4& b, float t) {
    ucode::Float4 out;
    for (uint32_t c = 0; c < 4; ++c) out[c] = a[c] + (b[c] - a[c]) * t;
    return out;
  }
  // FetchBatch when every lane samples one 2D layer at one lambda (no derivatives needed and no
  // anisotropic walk): the level choice once, then per lane what SampleAt does.
  void FilterLanes(const Setup& p, const ucode::FetchInstruction& f,
                   const std::array<const float*, 3>& coords, const uint32_t* active,
                   uint32_t lanes, float lambda, ucode::Float4* texels);
  ucode::Float4 Sample(uint32_t slot, const ucode::Float4& coords, const ucode::FetchInstruction& f,
                       const ucode::Float4* ddx, const ucode::Float4* ddy);
  // Bilinear or point sample of one level at normalised (u, v).
  ucode::Float4 Filter(Slot& s, uint32_t level, float u, float v, bool one_d, bool linear,
                       uint32_t layer);
  // A volume's level at normalised (u, v, w), filtered between the level's slices when `linear`.
  ucode::Float4 FilterVolume(Slot& s, uint32_t level, float u, float v, float w, bool linear,
                             bool z_linear);
  ucode::Float4 TexelAt(Slot& s, uint32_t level, int32_t x, int32_t y, uint32_t layer);
  // Layer 0 of a 2D level as FilterLanes' loop reads it: the decoded image's texels and block
  // flags, and each axis's size and address mode (a power-of-two repeat as a mask).
  struct Axis {
    xenos::ClampMode mode = xenos::ClampMode::kRepeat;
    int32_t n = 1;
    int32_t mask = -1;  // >= 0: repeat over a power-of-two size
  };
  struct LevelView {
    uint32_t level = 0;
    const ucode::Float4* texels = nullptr;
    const uint8_t* ready = nullptr;
    uint32_t blocks_x = 0;
    int32_t w = 1, h = 1;
    float fw = 1.0f, fh = 1.0f;
    Axis x, y;
  };
  // False when the slot keeps no decoded image of the level.
  static bool MakeView(Slot& s, uint32_t level, LevelView& view);
  ucode::Float4 ViewTexel(Slot& s, const LevelView& v, int32_t x, int32_t y);
  template <bool kLinear>
  ucode::Float4 ViewFilter(Slot& s, const LevelView& lv, float u, float v);
  static void Allocate(Slot::Image& image);
  const ucode::Float4* Cached(Slot& s, uint32_t level, uint32_t x, uint32_t y, uint32_t layer);
  void Note(const std::string& what, uint64_t count = 1) { notes_[what] += count; }

  // The fetch being prepared is getBCF (Prepare sets it for every fetch): every texel reads 1
  // where the border colour would be read and 0 inside the texture, no sign, gamma or exponent
  // is applied, and the footprint is isotropic, so the filtered value is the border colour's
  // share of what tfetch would return.
  bool border_fraction_ = false;
  // SetScaledDerivatives: the factors per screen axis, and whether a scaled copy's level-0 size
  // counts in guest texels.
  float derivative_x_ = 1.0f, derivative_y_ = 1.0f;
  bool guest_texels_ = true;
  const replay::RegisterFile& regs_;
  const replay::GuestMemory* memory_;
  std::map<std::string, uint64_t>& notes_;
  const gpu::ScaledResolveMemory* scaled_;
  std::array<std::unique_ptr<Slot>, 32> slots_;
};

}  // namespace xnt::cpu
