// Texture sampling on the CPU (see texture_unit.h).
#include "texture_unit.h"

#include <algorithm>
#include <cmath>

#include "xnt/base/error.h"
#include "xnt/gpu/edram.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu {

namespace {

// The decoded-texel cache: blocks of 8x8 texels, at most 4 M texels (64 MiB) per texture per
// worker; larger textures are decoded per fetch.
constexpr uint32_t kBlock = 8;
constexpr uint64_t kMaxCachedTexels = uint64_t(1) << 22;

// Texel index `i` of a row of `n` under a clamp mode; -1: outside (the border colour).
int32_t Address(xenos::ClampMode mode, int32_t i, int32_t n) {
  using C = xenos::ClampMode;
  auto mirror = [n](int32_t v) {
    const int32_t period = 2 * n;
    int32_t m = ((v % period) + period) % period;
    return m < n ? m : period - 1 - m;
  };
  switch (mode) {
    case C::kRepeat: return ((i % n) + n) % n;
    case C::kMirroredRepeat: return mirror(i);
    case C::kClampToEdge:
    case C::kClampToHalfway:  // sampled as clamp to edge, as on the fbo path
      return std::clamp(i, 0, n - 1);
    case C::kClampToBorder: return i < 0 || i >= n ? -1 : i;
    case C::kMirrorClampToEdge:
    case C::kMirrorClampToHalfway:
    case C::kMirrorClampToBorder: {
      // Mirrored once around 0, then clamped (the fbo path samples these as mirror-once to edge).
      const int32_t m = i < 0 ? -1 - i : i;
      return std::min(m, n - 1);
    }
  }
  return std::clamp(i, 0, n - 1);
}

}  // namespace

TextureUnit::TextureUnit(const replay::RegisterFile& regs, const replay::GuestMemory* memory,
                         std::map<std::string, uint64_t>& notes)
    : regs_(regs), memory_(memory), notes_(notes) {}

TextureUnit::Slot& TextureUnit::Get(uint32_t slot) {
  std::unique_ptr<Slot>& s = slots_[slot & 31];
  if (s) return *s;
  s = std::make_unique<Slot>();
  uint32_t dwords[6];
  for (uint32_t i = 0; i < 6; ++i) dwords[i] = regs_[xenos::kFetchConstantBase + (slot & 31) * 6 + i];
  s->fetch = xenos::TextureFetchConstant::Decode(dwords);
  try {
    const gpu::TextureDescriptor d = gpu::TextureDescriptor::FromFetchConstant(dwords);
    {
      const replay::GuestMemory* memory = memory_;
      s->reader = std::make_unique<gpu::TexelReader>(
          d, [memory](uint32_t address, std::span<uint8_t> out) {
            if (!memory || !replay::GuestMemory::InRange(address, out.size())) return false;
            memory->Read(address, out);
            return true;
          });
      if (d.levels > 1) {
        Note("cpu path: no derivatives, textures with mips are sampled at the base level");
      }
      const uint32_t layers = std::max<uint32_t>({1, d.depth, d.layers});
      s->cacheable = uint64_t(d.width) * d.height * layers <= kMaxCachedTexels;
      s->blocks_x = (d.width + kBlock - 1) / kBlock;
      s->blocks_y = (d.height + kBlock - 1) / kBlock;
      s->texels.resize(s->cacheable ? layers : 0);
      s->block_ready.resize(s->cacheable ? layers : 0);
    }
  } catch (const Error& e) {
    s->error = e.what();
  }
  return *s;
}

const ucode::Float4* TextureUnit::Cached(Slot& s, uint32_t x, uint32_t y, uint32_t layer) {
  if (!s.cacheable || layer >= s.texels.size()) return nullptr;
  const gpu::TextureDescriptor& d = s.reader->texture();
  std::vector<ucode::Float4>& texels = s.texels[layer];
  std::vector<uint8_t>& ready = s.block_ready[layer];
  if (texels.empty()) {
    texels.resize(size_t(d.width) * d.height);
    ready.assign(size_t(s.blocks_x) * s.blocks_y, 0);
  }
  const uint32_t bx = x / kBlock, by = y / kBlock;
  if (!ready[size_t(by) * s.blocks_x + bx]) {
    for (uint32_t ty = by * kBlock; ty < std::min(d.height, (by + 1) * kBlock); ++ty) {
      for (uint32_t tx = bx * kBlock; tx < std::min(d.width, (bx + 1) * kBlock); ++tx) {
        const auto texel = s.reader->Texel(0, tx, ty, layer);
        if (!texel) {
          s.cacheable = false;  // the per-fetch path reports it
          return nullptr;
        }
        texels[size_t(ty) * d.width + tx] = *texel;
      }
    }
    ready[size_t(by) * s.blocks_x + bx] = 1;
  }
  return &texels[size_t(y) * d.width + x];
}

ucode::Float4 TextureUnit::TexelAt(Slot& s, int32_t x, int32_t y, uint32_t layer) {
  const gpu::TextureDescriptor& d = s.reader->texture();
  const int32_t w = int32_t(d.width), h = int32_t(d.height);
  // Cube faces clamp to their edges (the host samples cubes seamlessly; no border).
  const bool cube = d.dimension == uint32_t(xenos::DataDimension::kCube);
  const int32_t ax = cube ? std::clamp(x, 0, w - 1) : Address(s.fetch.clamp_x, x, w);
  const int32_t ay = d.dimension == uint32_t(xenos::DataDimension::k1D) ? 0
                     : cube ? std::clamp(y, 0, h - 1)
                            : Address(s.fetch.clamp_y, y, h);
  if (ax < 0 || ay < 0) {
    switch (s.fetch.border_color) {
      case xenos::BorderColor::k_ABGR_Black: return {0.0f, 0.0f, 0.0f, 0.0f};
      case xenos::BorderColor::k_ABGR_White: return {1.0f, 1.0f, 1.0f, 1.0f};
      default: return {0.0f, 0.0f, 0.0f, 1.0f};
    }
  }
  if (const ucode::Float4* cached = Cached(s, uint32_t(ax), uint32_t(ay), layer)) return *cached;
  const auto texel = s.reader->Texel(0, uint32_t(ax), uint32_t(ay), layer);
  if (!texel) {
    Note("cpu path: texture format " + std::string(xenos::TextureFormatName(d.format)) +
         " not decoded (zeros)");
    return {0.0f, 0.0f, 0.0f, 0.0f};
  }
  return *texel;
}

ucode::Float4 TextureUnit::Fetch(uint32_t slot, const ucode::Float4& coords,
                                 const ucode::FetchInstruction& f) {
  Slot& s = Get(slot);
  if (!s.reader) {
    Note("cpu path: texture fetch constant " + std::to_string(slot & 31) + ": " + s.error);
    return {0.0f, 0.0f, 0.0f, 0.0f};
  }
  const gpu::TextureDescriptor& d = s.reader->texture();
  const bool one_d = d.dimension == uint32_t(xenos::DataDimension::k1D);
  const float w = float(d.width), h = float(d.height);
  float u = coords[0], v = one_d ? 0.5f : coords[1];
  const bool cube = d.dimension == uint32_t(xenos::DataDimension::kCube);
  if (cube) {
    // tfetchCube after the compiler's `cube` + `mad ..., 1.5`: x = s and y = t on the face in
    // [1, 2], z = the face index (0 +X, 1 -X, 2 +Y, 3 -Y, 4 +Z, 5 -Z), which is the layer the
    // face is stored as.
    u = coords[0] - 1.0f;
    v = coords[1] - 1.0f;
  } else if (f.tx_coord_denorm) {
    u /= w;
    if (!one_d) v /= h;
  }
  // Offsets are in half texels.
  u += float(f.offset_x) * 0.5f / w;
  if (!one_d) v += float(f.offset_y) * 0.5f / h;
  // The layer of a stacked texture (z normalised over the stack), or the slice of a volume.
  uint32_t layer = 0;
  const uint32_t stack = d.depth > 1 ? d.depth : d.layers;
  if (cube) {
    layer = uint32_t(std::clamp(std::floor(coords[2] + 0.5f), 0.0f, 5.0f));
  } else if (f.dimension == ucode::TextureDimension::k3D && stack > 1) {
    const float z = f.tx_coord_denorm ? coords[2] : coords[2] * float(stack);
    layer = uint32_t(std::clamp(std::floor(z), 0.0f, float(stack - 1)));
    if (d.depth > 1) Note("cpu path: volume textures sampled at the nearest slice");
  }
  // LOD 0: the magnification filter (instruction override first).
  const uint32_t filter = f.mag_filter != 3 ? f.mag_filter : uint32_t(s.fetch.mag_filter);
  ucode::Float4 out{};
  const float tx = u * w, ty = v * h;
  if (filter == uint32_t(xenos::TextureFilter::kLinear)) {
    const float fx = tx - 0.5f, fy = one_d ? 0.0f : ty - 0.5f;
    const int32_t x0 = int32_t(std::floor(fx)), y0 = int32_t(std::floor(fy));
    const float ax = fx - std::floor(fx), ay = one_d ? 0.0f : fy - std::floor(fy);
    const ucode::Float4 t00 = TexelAt(s, x0, y0, layer), t10 = TexelAt(s, x0 + 1, y0, layer);
    const ucode::Float4 t01 = TexelAt(s, x0, y0 + 1, layer), t11 = TexelAt(s, x0 + 1, y0 + 1, layer);
    for (uint32_t c = 0; c < 4; ++c) {
      const float top = t00[c] + (t10[c] - t00[c]) * ax;
      const float bottom = t01[c] + (t11[c] - t01[c]) * ax;
      out[c] = top + (bottom - top) * ay;
    }
  } else {
    out = TexelAt(s, int32_t(std::floor(tx)), int32_t(std::floor(ty)), layer);
  }
  // Sign bias and gamma per component, then exponent adjust (the translator's order).
  const xenos::TextureSign signs[4] = {s.fetch.sign_x, s.fetch.sign_y, s.fetch.sign_z,
                                       s.fetch.sign_w};
  for (uint32_t c = 0; c < 4; ++c) {
    if (signs[c] == xenos::TextureSign::kUnsignedBiased) out[c] = out[c] * 2.0f - 1.0f;
    if (signs[c] == xenos::TextureSign::kGamma) out[c] = gpu::edram::PwlGammaToLinear(out[c]);
  }
  if (s.fetch.exp_adjust != 0) {
    const float scale = std::ldexp(1.0f, s.fetch.exp_adjust);
    for (float& c : out) c *= scale;
  }
  return out;
}

}  // namespace xnt::cpu
