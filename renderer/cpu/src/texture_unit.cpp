// Texture sampling on the CPU (see texture_unit.h).
#include "texture_unit.h"

#include <algorithm>
#include <cmath>

#include "xnt/base/error.h"
#include "xnt/gpu/edram.h"
#include "xnt/gpu/texel_coordinate.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu {

namespace {

// The decoded-texel cache: blocks of 8x8 texels, at most 4 M texels (64 MiB) per texture per
// worker; larger textures are decoded per fetch.
constexpr uint32_t kBlock = 8;
constexpr uint64_t kMaxCachedTexels = uint64_t(1) << 22;

// floor(f) as a texel index, defined for every float: NaN is 0 and the magnitude is held to 2^30,
// so that i + 1, 2 n and -1 - i stay in range (a float beyond 2^24 has no fraction left anyway).
// What the hardware does with such coordinates is not known; the fsi path's exact bilinear
// filter (glsl_exact_filter.cpp xe_exact_floor) takes the same rule, so both paths agree.
[[gnu::always_inline]] inline int32_t FloorIndex(float f) {
  if (std::isnan(f)) return 0;
  return int32_t(std::clamp(std::floor(f), -1073741824.0f, 1073741824.0f));
}
// A layer or face from a float: NaN is the first, otherwise floor(f) clamped to [0, last].
[[gnu::always_inline]] inline uint32_t LayerIndex(float f, uint32_t last) {
  if (std::isnan(f)) return 0;
  return uint32_t(std::clamp(std::floor(f), 0.0f, float(last)));
}

// Texel index `i` of a row of `n` under a clamp mode; -1: outside (the border colour).
[[gnu::always_inline]] inline int32_t Address(xenos::ClampMode mode, int32_t i, int32_t n) {
  using C = xenos::ClampMode;
  auto mirror = [n](int32_t v) {
    const int32_t period = 2 * n;
    int32_t m = v % period;
    if (m < 0) m += period;
    return m < n ? m : period - 1 - m;
  };
  switch (mode) {
    case C::kRepeat: {
      const int32_t m = i % n;  // in (-n, n): one division, then into [0, n)
      return m < 0 ? m + n : m;
    }
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

// The fetch constant's border colour (YCbCr black taken as opaque black, as on the fbo path).
ucode::Float4 BorderColor(xenos::BorderColor border) {
  switch (border) {
    case xenos::BorderColor::k_ABGR_Black: return {0.0f, 0.0f, 0.0f, 0.0f};
    case xenos::BorderColor::k_ABGR_White: return {1.0f, 1.0f, 1.0f, 1.0f};
    default: return {0.0f, 0.0f, 0.0f, 1.0f};
  }
}

// The point or bilinear sample at texel coordinates (tx, ty) of a level, each texel from
// `texel(x, y)` (which addresses and reads it). A point sample takes the hardware's fixed-point
// coordinate, not floor(tx) (gpu/texel_coordinate.h); a 1D texture filters along x only.
template <class TexelFn>
[[gnu::always_inline]] inline ucode::Float4 FilterTexels(float tx, float ty, bool one_d,
                                                         bool linear, const TexelFn& texel) {
  if (!linear) return texel(gpu::PointTexelIndex(tx), gpu::PointTexelIndex(ty));
  const float fx = tx - 0.5f, fy = one_d ? 0.0f : ty - 0.5f;
  const int32_t x0 = FloorIndex(fx), y0 = FloorIndex(fy);
  const float ax = gpu::BilinearWeight(fx), ay = one_d ? 0.0f : gpu::BilinearWeight(fy);
  const ucode::Float4 t00 = texel(x0, y0), t10 = texel(x0 + 1, y0);
  const ucode::Float4 t01 = texel(x0, y0 + 1), t11 = texel(x0 + 1, y0 + 1);
  ucode::Float4 out;
  for (uint32_t c = 0; c < 4; ++c) {
    const float top = t00[c] + (t10[c] - t00[c]) * ax;
    const float bottom = t01[c] + (t11[c] - t01[c]) * ax;
    out[c] = top + (bottom - top) * ay;
  }
  return out;
}

}  // namespace

TextureUnit::TextureUnit(const replay::RegisterFile& regs, const replay::GuestMemory* memory,
                         std::map<std::string, uint64_t>& notes,
                         const gpu::ScaledResolveMemory* scaled)
    : regs_(regs), memory_(memory), notes_(notes), scaled_(scaled) {}

TextureUnit::Slot& TextureUnit::Get(uint32_t slot) {
  std::unique_ptr<Slot>& s = slots_[slot & 31];
  if (s) return *s;
  s = std::make_unique<Slot>();
  uint32_t dwords[6];
  for (uint32_t i = 0; i < 6; ++i) dwords[i] = regs_[xenos::kFetchConstantBase + (slot & 31) * 6 + i];
  s->fetch = xenos::TextureFetchConstant::Decode(dwords);
  try {
    const gpu::ScaledCopy* copy = scaled_ ? scaled_->Find(dwords) : nullptr;
    std::array<uint32_t, 6> scaled_dwords{};
    if (copy) {
      scaled_dwords = gpu::ScaledResolveMemory::ScaledFetch(dwords, *copy);
      s->scale_x = copy->scale_x, s->scale_y = copy->scale_y;
    }
    const gpu::TextureDescriptor d =
        gpu::TextureDescriptor::FromFetchConstant(copy ? scaled_dwords.data() : dwords);
    if (copy) {
      s->reader = std::make_unique<gpu::TexelReader>(
          d, [copy](uint32_t address, std::span<uint8_t> out) {
            gpu::ScaledResolveMemory::Read(*copy, address, out);
            return true;
          });
    } else {
      const replay::GuestMemory* memory = memory_;
      s->reader = std::make_unique<gpu::TexelReader>(
          d, [memory](uint32_t address, std::span<uint8_t> out) {
            if (!memory || !replay::GuestMemory::InRange(address, out.size())) return false;
            memory->Read(address, out);
            return true;
          });
    }
    {
      s->layers = std::max<uint32_t>({1, d.depth, d.layers});
      uint64_t texels = 0;
      for (uint32_t level = 0; level < d.levels; ++level) {
        const gpu::TextureDescriptor::Level l = d.GetLevel(level);
        texels += uint64_t(l.width) * l.height * s->layers;
        s->level_size.push_back({std::max(1u, l.width), std::max(1u, l.height), l.depth});
      }
      s->cacheable = texels <= kMaxCachedTexels;
      if (s->cacheable) {
        s->images.resize(size_t(d.levels) * s->layers);
        for (uint32_t level = 0; level < d.levels; ++level) {
          const gpu::TextureDescriptor::Level l = d.GetLevel(level);
          for (uint32_t layer = 0; layer < s->layers; ++layer) {
            Slot::Image& image = s->images[size_t(level) * s->layers + layer];
            image.width = l.width, image.height = l.height;
            image.blocks_x = (l.width + kBlock - 1) / kBlock;
          }
        }
      }
    }
  } catch (const Error& e) {
    s->error = e.what();
  }
  return *s;
}

// The image's texels and block flags, made on its first use (every block not decoded yet).
void TextureUnit::Allocate(Slot::Image& image) {
  if (!image.texels.empty()) return;
  image.texels.resize(size_t(image.width) * image.height);
  image.block_ready.assign(size_t(image.blocks_x) * ((image.height + kBlock - 1) / kBlock), 0);
}

[[gnu::always_inline]] inline const ucode::Float4* TextureUnit::Cached(
    Slot& s, uint32_t level, uint32_t x, uint32_t y, uint32_t layer) {
  const size_t index = size_t(level) * s.layers + layer;
  if (!s.cacheable || index >= s.images.size()) return nullptr;
  Slot::Image& image = s.images[index];
  if (x >= image.width || y >= image.height) return nullptr;
  Allocate(image);
  const uint32_t bx = x / kBlock, by = y / kBlock;
  uint8_t& ready = image.block_ready[size_t(by) * image.blocks_x + bx];
  if (!ready) {
    for (uint32_t ty = by * kBlock; ty < std::min(image.height, (by + 1) * kBlock); ++ty) {
      for (uint32_t tx = bx * kBlock; tx < std::min(image.width, (bx + 1) * kBlock); ++tx) {
        const auto texel = s.reader->Texel(level, tx, ty, layer);
        if (!texel) {
          s.cacheable = false;  // the per-fetch path reports it
          return nullptr;
        }
        image.texels[size_t(ty) * image.width + tx] = *texel;
      }
    }
    ready = 1;
  }
  return &image.texels[size_t(y) * image.width + x];
}

[[gnu::always_inline]] inline ucode::Float4 TextureUnit::TexelAt(Slot& s, uint32_t level, int32_t x,
                                                                 int32_t y, uint32_t layer) {
  const gpu::TextureDescriptor& d = s.reader->texture();
  const int32_t w = int32_t(s.level_size[level][0]), h = int32_t(s.level_size[level][1]);
  // Cube faces clamp to their edges (the host samples cubes seamlessly; no border).
  const bool cube = d.dimension == uint32_t(xenos::DataDimension::kCube);
  const int32_t ax = cube ? std::clamp(x, 0, w - 1) : Address(s.fetch.clamp_x, x, w);
  const int32_t ay = d.dimension == uint32_t(xenos::DataDimension::k1D) ? 0
                     : cube ? std::clamp(y, 0, h - 1)
                            : Address(s.fetch.clamp_y, y, h);
  if (border_fraction_) {
    const float border = ax < 0 || ay < 0 ? 1.0f : 0.0f;
    return {border, border, border, border};
  }
  if (ax < 0 || ay < 0) return BorderColor(s.fetch.border_color);
  if (const ucode::Float4* cached = Cached(s, level, uint32_t(ax), uint32_t(ay), layer)) {
    return *cached;
  }
  const auto texel = s.reader->Texel(level, uint32_t(ax), uint32_t(ay), layer);
  if (!texel) {
    Note("cpu path: texture format " + std::string(xenos::TextureFormatName(d.format)) +
         " not decoded (zeros)");
    return {0.0f, 0.0f, 0.0f, 0.0f};
  }
  return *texel;
}

ucode::Float4 TextureUnit::Fetch(uint32_t slot, const ucode::Float4& coords,
                                 const ucode::FetchInstruction& f) {
  return Sample(slot, coords, f, nullptr, nullptr);
}

void TextureUnit::SetScaledDerivatives(gpu::ScaledDerivatives mode, uint32_t scale_x,
                                       uint32_t scale_y) {
  const bool guest = mode == gpu::ScaledDerivatives::kGuest;
  derivative_x_ = guest ? float(scale_x) : 1.0f;
  derivative_y_ = guest ? float(scale_y) : 1.0f;
  guest_texels_ = guest;
}

ucode::Float4 TextureUnit::FetchGradients(uint32_t slot, const ucode::Float4& coords,
                                          const ucode::FetchInstruction& f,
                                          const ucode::Float4& ddx, const ucode::Float4& ddy) {
  ucode::Float4 dx = ddx, dy = ddy;
  for (uint32_t c = 0; c < 3; ++c) dx[c] *= derivative_x_, dy[c] *= derivative_y_;
  return Sample(slot, coords, f, &dx, &dy);
}

// Inline: FilterLanes calls it per lane with `linear` fixed for its whole loop.
[[gnu::always_inline]] inline ucode::Float4 TextureUnit::Filter(Slot& s, uint32_t level, float u,
                                                                float v, bool one_d, bool linear,
                                                                uint32_t layer) {
  const float tx = u * float(s.level_size[level][0]), ty = v * float(s.level_size[level][1]);
  auto texel = [&](int32_t x, int32_t y) __attribute__((always_inline)) {
    return TexelAt(s, level, x, y, layer);
  };
  return FilterTexels(tx, ty, one_d, linear, texel);
}

ucode::Float4 TextureUnit::FilterVolume(Slot& s, uint32_t level, float u, float v, float w,
                                        bool linear, bool z_linear) {
  // Across the slices the volume filters with its own z filter, the fetch's vol_mag / vol_min
  // filter (Direct3D's MAGFILTERZ / MINFILTERZ sampler states, documented as the filters "for
  // volume/array slice" magnification and minification), while x and y take mag / min: the
  // nearest slice (the fixed-point coordinate, as x and y pick their texel) or the two slices
  // around the sample's slice coordinate weighted by its distance from their centres, each
  // addressed with clamp_z over the level's slices.
  const int32_t depth = int32_t(s.level_size[level][2]);
  const float slice = w * float(depth);
  auto at = [&](int32_t z) {
    const int32_t a = Address(s.fetch.clamp_z, z, depth);
    if (a >= 0) return Filter(s, level, u, v, false, linear, uint32_t(a));
    return border_fraction_ ? ucode::Float4{1.0f, 1.0f, 1.0f, 1.0f} : BorderColor(s.fetch.border_color);
  };
  if (!z_linear) return at(gpu::PointTexelIndex(slice));
  const float fz = slice - 0.5f;
  const int32_t z0 = FloorIndex(fz);
  const float az = gpu::BilinearWeight(fz);
  const ucode::Float4 front = at(z0), back = at(z0 + 1);
  ucode::Float4 out;
  for (uint32_t c = 0; c < 4; ++c) out[c] = front[c] + (back[c] - front[c]) * az;
  return out;
}

TextureUnit::Setup TextureUnit::Prepare(Slot& s, const ucode::FetchInstruction& f) {
  Setup p;
  p.s = &s;
  const gpu::TextureDescriptor& d = s.reader->texture();
  p.one_d = d.dimension == uint32_t(xenos::DataDimension::k1D);
  p.cube = d.dimension == uint32_t(xenos::DataDimension::kCube);
  // w, h: guest texels (unnormalised coordinates and offsets are in these); a scaled copy has
  // S x T as many.
  p.w = float(d.width / s.scale_x), p.h = float(d.height / s.scale_y);
  // rho in texels of level 0 (unnormalised coordinates are texels already): guest texels when
  // derivatives are per guest pixel, else the copy's own.
  const float copy_x = guest_texels_ ? 1.0f : float(s.scale_x);
  const float copy_y = guest_texels_ ? 1.0f : float(s.scale_y);
  p.rho_x = copy_x * (f.tx_coord_denorm ? 1.0f : p.w);
  p.rho_y = copy_y * (f.tx_coord_denorm ? 1.0f : p.h);
  p.stack = d.volume() ? d.depth : d.layers;
  // A volume's z is a filtered axis: its derivative counts in the level of detail as x and y do
  // (a stack's layer is not).
  if (d.volume() && f.dimension == ucode::TextureDimension::k3D) {
    p.rho_z = f.tx_coord_denorm ? 1.0f : float(p.stack);
  }
  // Offsets are in half texels.
  p.offset_u = float(f.offset_x) * 0.5f / p.w;
  p.offset_v = float(f.offset_y) * 0.5f / p.h;
  // Filters: the instruction's overrides (0 point, 1 linear, 2 base map, 3 keep) win.
  using TF = xenos::TextureFilter;
  p.mag = f.mag_filter != 3 ? f.mag_filter : uint32_t(s.fetch.mag_filter);
  p.min = f.min_filter != 3 ? f.min_filter : uint32_t(s.fetch.min_filter);
  p.mip = f.mip_filter != 3 ? f.mip_filter : uint32_t(s.fetch.mip_filter);
  // The sampler's LOD range, as the fbo path's sampler_cache sets it: the fetch constant's
  // mip_min_level..mip_max_level when there are mips and the mip filter is not "base map".
  if (s.fetch.mip_filter != TF::kBaseMap && s.fetch.mip_address != 0) {
    p.min_lod = float(s.fetch.mip_min_level);
    p.max_lod = float(std::max(s.fetch.mip_max_level, s.fetch.mip_min_level));
  }
  if (p.mip == uint32_t(TF::kBaseMap)) p.max_lod = p.min_lod;
  p.top_level = d.levels - 1;
  // aniso_filter 2..5 = max 2:1 .. 16:1 (Xenia xenos.h AnisoFilter); the instruction's value
  // wins unless it is 7 "use fetch constant" (as the fbo path's sampler state takes it).
  const uint32_t aniso = f.aniso_filter != 7 ? f.aniso_filter : uint32_t(s.fetch.aniso_filter);
  border_fraction_ = f.opcode == ucode::FetchOp::kGetTextureBorderColorFrac;
  if (aniso >= 2 && aniso <= 5 && !border_fraction_) p.max_aniso = 1u << (aniso - 1);
  return p;
}

ucode::Float4 TextureUnit::SampleAt(const Setup& p, const ucode::FetchInstruction& f,
                                    const ucode::Float4& coords, float lambda, bool layers_minified) {
  ucode::Float4 out = FilterAt(p, f, coords, lambda, layers_minified);
  if (!border_fraction_) Finish(*p.s, out);
  return out;
}

ucode::Float4 TextureUnit::FilterAt(const Setup& p, const ucode::FetchInstruction& f,
                                    const ucode::Float4& coords, float lambda, bool layers_minified) {
  Slot& s = *p.s;
  const gpu::TextureDescriptor& d = s.reader->texture();
  const bool one_d = p.one_d;
  float u, v;
  PlaneCoordinates(p, f, coords[0], coords[1], u, v);
  // The layer of a stacked texture (z normalised over the stack) or the face of a cube.
  uint32_t layer = 0, next_layer = 0;
  float layer_t = 0.0f;
  bool layers_linear = false;
  const uint32_t stack = p.stack;
  if (p.cube) {
    layer = LayerIndex(coords[2] + 0.5f, 5);
  } else if (f.dimension == ucode::TextureDimension::k3D && stack > 1 && !d.volume()) {
    // z in layers plus the instruction's z offset (half layers, as Xenia's translators apply it
    // to stacks). The volume filter (the instruction's unless "keep": vol_min's where the layers
    // are minified, else vol_mag's) filters between layers as between a volume's slices: the
    // two layers around z - 1/2, each clamped to the stack, weighed by its fraction (Xenia's
    // translators filter stacks so); point takes floor(z).
    const float z = (f.tx_coord_denorm ? coords[2] : coords[2] * float(stack)) + float(f.offset_z) * 0.5f;
    const uint32_t z_override = layers_minified ? f.vol_min_filter : f.vol_mag_filter;
    layers_linear = z_override < 2 ? z_override == 1
                    : layers_minified ? s.fetch.vol_min_filter
                                      : s.fetch.vol_mag_filter;
    if (layers_linear) {
      const float zf = z - 0.5f;
      const int32_t first = FloorIndex(zf);
      layer = uint32_t(std::clamp(first, 0, int32_t(stack) - 1));
      next_layer = uint32_t(std::clamp(first + 1, 0, int32_t(stack) - 1));
      layer_t = gpu::BilinearWeight(zf);
    } else {
      layer = LayerIndex(z, stack - 1);
    }
  }
  // A volume filters between its slices with its own z filter (FilterVolume).
  const bool volume = f.dimension == ucode::TextureDimension::k3D && d.volume();
  // Normalised like u and v (the offset in half texels of level 0), scaled by each level's
  // slices in FilterVolume.
  const float depth = float(stack);  // a volume's slices
  const float w = volume ? (f.tx_coord_denorm ? coords[2] / depth : coords[2]) +
                               float(f.offset_z) * 0.5f / depth
                         : 0.0f;
  auto filter = [&](uint32_t level, bool linear) {
    if (!volume) {
      const ucode::Float4 a = Filter(s, level, u, v, one_d, linear, layer);
      return layers_linear ? Blend(a, Filter(s, level, u, v, one_d, linear, next_layer), layer_t) : a;
    }
    // The z filter: the instruction's vol_mag / vol_min unless "keep", else the fetch
    // constant's dword 4 bit 0 / 1, chosen by magnification as x and y choose mag / min.
    const bool magnified = lambda <= 0.0f;
    const uint32_t z_override = magnified ? f.vol_mag_filter : f.vol_min_filter;
    const bool z_linear = z_override < 2 ? z_override == 1
                          : magnified    ? s.fetch.vol_mag_filter
                                         : s.fetch.vol_min_filter;
    return FilterVolume(s, level, u, v, w, linear, z_linear);
  };
  const LevelPick pick = PickLevels(p, lambda);
  const ucode::Float4 a = filter(pick.lo, pick.linear);
  return pick.blend ? Blend(a, pick.hi == pick.lo ? a : filter(pick.hi, pick.linear), pick.t) : a;
}

TextureUnit::LevelPick TextureUnit::PickLevels(const Setup& p, float lambda) {
  using TF = xenos::TextureFilter;
  LevelPick pick;
  if (lambda <= 0.0f) {
    pick.linear = p.mag == uint32_t(TF::kLinear);
    return pick;
  }
  pick.linear = p.min == uint32_t(TF::kLinear);
  if (p.mip == uint32_t(TF::kLinear)) {
    pick.lo = std::min(uint32_t(std::floor(lambda)), p.top_level);
    pick.hi = std::min(pick.lo + 1, p.top_level);
    pick.t = lambda - std::floor(lambda);
    pick.blend = true;
  } else {
    // Nearest level: ceil(lambda + 0.5) - 1 (Vulkan's rounding, halves go down).
    pick.lo = std::min(uint32_t(std::ceil(lambda + 0.5f) - 1.0f), p.top_level);
  }
  return pick;
}

bool TextureUnit::MakeView(Slot& s, uint32_t level, LevelView& view) {
  if (!s.cacheable || level >= s.images.size() / s.layers) return false;
  Slot::Image& image = s.images[size_t(level) * s.layers];
  const int32_t w = int32_t(s.level_size[level][0]), h = int32_t(s.level_size[level][1]);
  if (int32_t(image.width) != w || int32_t(image.height) != h) return false;
  Allocate(image);
  view.level = level;
  view.texels = image.texels.data();
  view.ready = image.block_ready.data();
  view.blocks_x = image.blocks_x;
  view.w = w, view.h = h;
  view.fw = float(w), view.fh = float(h);
  auto axis = [](xenos::ClampMode mode, int32_t n) {
    Axis a;
    a.mode = mode, a.n = n;
    // Repeat over a power-of-two size is a mask (two's complement wraps negatives alike).
    if (mode == xenos::ClampMode::kRepeat && (n & (n - 1)) == 0) a.mask = n - 1;
    return a;
  };
  view.x = axis(s.fetch.clamp_x, w);
  view.y = axis(s.fetch.clamp_y, h);
  return true;
}

// TexelAt of a 2D level through its view: the decoded texel when its block is ready, else
// TexelAt itself (which decodes the block, or reads the texel alone when the slot keeps none).
[[gnu::always_inline]] inline ucode::Float4 TextureUnit::ViewTexel(Slot& s, const LevelView& v,
                                                                   int32_t x, int32_t y) {
  const int32_t ax = v.x.mask >= 0 ? x & v.x.mask : Address(v.x.mode, x, v.x.n);
  const int32_t ay = v.y.mask >= 0 ? y & v.y.mask : Address(v.y.mode, y, v.y.n);
  if ((ax | ay) < 0) return BorderColor(s.fetch.border_color);
  if (v.ready[(uint32_t(ay) / kBlock) * v.blocks_x + uint32_t(ax) / kBlock]) {
    return v.texels[size_t(ay) * size_t(v.w) + size_t(ax)];
  }
  return TexelAt(s, v.level, x, y, 0);
}

// Filter of layer 0 of a 2D level through its view: the same arithmetic in the same order.
template <bool kLinear>
[[gnu::always_inline]] inline ucode::Float4 TextureUnit::ViewFilter(Slot& s, const LevelView& lv,
                                                                    float u, float v) {
  auto texel = [&](int32_t x, int32_t y) __attribute__((always_inline)) {
    return ViewTexel(s, lv, x, y);
  };
  return FilterTexels(u * lv.fw, v * lv.fh, false, kLinear, texel);
}

void TextureUnit::FilterLanes(const Setup& p, const ucode::FetchInstruction& f,
                              const std::array<const float*, 3>& coords, const uint32_t* active,
                              uint32_t lanes, float lambda, ucode::Float4* texels) {
  Slot& s = *p.s;
  const LevelPick pick = PickLevels(p, lambda);
  const bool finish = !FinishIsIdentity(s);
  // A 2D texture whose decoded images the slot keeps is read through views of its levels
  // (address wrap and texel lookup without the general path's per-texel checks).
  LevelView lo, hi;
  const bool views =
      !p.one_d && MakeView(s, pick.lo, lo) && (!pick.blend || MakeView(s, pick.hi, hi));
  // The filter and the blend are constants of the loop (one copy of it for each).
  auto run = [&]<bool kLinear, bool kBlend, bool kViews>() {
    for (uint32_t l = 0; l < lanes; ++l) {
      if (!active[l]) continue;
      float u, v;
      PlaneCoordinates(p, f, coords[0][l], coords[1][l], u, v);
      ucode::Float4 out = kViews ? ViewFilter<kLinear>(s, lo, u, v)
                                 : Filter(s, pick.lo, u, v, p.one_d, kLinear, 0);
      if (kBlend) {
        const ucode::Float4 upper = pick.hi == pick.lo ? out
                                    : kViews           ? ViewFilter<kLinear>(s, hi, u, v)
                                                       : Filter(s, pick.hi, u, v, p.one_d, kLinear, 0);
        out = Blend(out, upper, pick.t);
      }
      if (finish) Finish(s, out);
      texels[l] = out;
    }
  };
  auto by_views = [&]<bool kLinear, bool kBlend>() {
    views ? run.template operator()<kLinear, kBlend, true>()
          : run.template operator()<kLinear, kBlend, false>();
  };
  if (pick.linear) {
    pick.blend ? by_views.template operator()<true, true>()
               : by_views.template operator()<true, false>();
  } else {
    pick.blend ? by_views.template operator()<false, true>()
               : by_views.template operator()<false, false>();
  }
}

bool TextureUnit::FinishIsIdentity(const Slot& s) {
  // Finish changes a component only for these two signs, and scales only for an exponent.
  using Sign = xenos::TextureSign;
  for (const Sign sign : {s.fetch.sign_x, s.fetch.sign_y, s.fetch.sign_z, s.fetch.sign_w}) {
    if (sign == Sign::kUnsignedBiased || sign == Sign::kGamma) return false;
  }
  return s.fetch.exp_adjust == 0;
}

void TextureUnit::Finish(const Slot& s, ucode::Float4& out) {
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
}

namespace {

constexpr const char* kNoQuadNote =
    "cpu path: a pixel shaded without its 2x2 quad (no derivatives) samples level 0";

}  // namespace

ucode::Float4 TextureUnit::Sample(uint32_t slot, const ucode::Float4& coords,
                                  const ucode::FetchInstruction& f, const ucode::Float4* ddx,
                                  const ucode::Float4* ddy) {
  Slot& s = Get(slot);
  if (!s.reader) {
    Note("cpu path: texture fetch constant " + std::to_string(slot & 31) + ": " + s.error);
    return {0.0f, 0.0f, 0.0f, 0.0f};
  }
  const Setup p = Prepare(s, f);
  Footprint footprint;
  if (ddx && ddy && !p.cube) {
    footprint = Walk(p, f, *ddx, *ddy);
  } else if (p.top_level > 0) {
    Note(kNoQuadNote);
  }
  return SampleFootprint(p, f, coords, footprint,
                         ClampLambda(footprint.lambda, p.min_lod, p.max_lod));
}

void TextureUnit::FetchBatch(uint32_t slot, const ucode::FetchInstruction& f,
                             const std::array<const float*, 3>& coords, const uint32_t* active,
                             uint32_t lanes, bool quads, ucode::Float4* texels) {
  uint32_t count = 0;
  for (uint32_t l = 0; l < lanes; ++l) count += active[l] != 0;
  if (!count) return;
  Slot& s = Get(slot);
  if (!s.reader) {
    Note("cpu path: texture fetch constant " + std::to_string(slot & 31) + ": " + s.error, count);
    for (uint32_t l = 0; l < lanes; ++l) {
      if (active[l]) texels[l] = {0.0f, 0.0f, 0.0f, 0.0f};
    }
    return;
  }
  const Setup p = Prepare(s, f);
  const bool derivatives = quads && !p.cube;
  if (!derivatives && p.top_level > 0) Note(kNoQuadNote, count);
  // A range of one level (no mips, or base map only) clamps every lambda to it: no derivatives
  // needed, unless anisotropic filtering walks the footprint within that level or a 3D fetch
  // reads a stack (whose layer filter follows z's derivatives).
  const bool stack_layers = f.dimension == ucode::TextureDimension::k3D && p.stack > 1 &&
                            !s.reader->texture().volume();
  const bool fixed = (p.min_lod == p.max_lod && p.max_aniso == 1 && !stack_layers) || !derivatives;
  Footprint footprint;
  float lambda = ClampLambda(0.0f, p.min_lod, p.max_lod);
  if (fixed && !p.cube && f.dimension != ucode::TextureDimension::k3D && !border_fraction_) {
    // One level choice for the whole batch and a single 2D layer: only the coordinates differ.
    FilterLanes(p, f, coords, active, lanes, lambda, texels);
    return;
  }
  for (uint32_t l = 0; l < lanes; ++l) {
    if (!fixed && (l & 3) == 0) {
      // Coarse derivatives of the quad: its top pair for x, its left pair for y (w is 0 in the
      // fetch's coordinates, so its derivative is too).
      ucode::Float4 ddx{}, ddy{};
      for (uint32_t c = 0; c < 3; ++c) {
        ddx[c] = (coords[c][l + 1] - coords[c][l]) * derivative_x_;
        ddy[c] = (coords[c][l + 2] - coords[c][l]) * derivative_y_;
      }
      footprint = Walk(p, f, ddx, ddy);
      lambda = ClampLambda(footprint.lambda, p.min_lod, p.max_lod);
    }
    if (!active[l]) continue;
    texels[l] = SampleFootprint(p, f, {coords[0][l], coords[1][l], coords[2][l], 0.0f},
                                footprint, lambda);
  }
}

}  // namespace xnt::cpu
