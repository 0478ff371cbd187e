// The render backend on EDRAM guest bits (see output_merger.h).
#include "output_merger.h"

#include <algorithm>
#include <cmath>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "xnt/xenos/registers.h"

namespace xnt::cpu {

using xenos::Reg;
namespace edram = gpu::edram;

namespace {

// CompareFunction bits: 1 less, 2 equal, 4 greater (never = 0, always = 7).
template <class T>
bool Compare(uint32_t func, T value, T reference) {
  return ((func & 1u) && value < reference) || ((func & 2u) && value == reference) ||
         ((func & 4u) && value > reference);
}

float Factor(xenos::BlendFactor f, uint32_t c, const ucode::Float4& src, const ucode::Float4& dst,
             const ucode::Float4& constant) {
  using B = xenos::BlendFactor;
  switch (f) {
    case B::kZero: return 0.0f;
    case B::kOne: return 1.0f;
    case B::kSrcColor: return src[c];
    case B::kOneMinusSrcColor: return 1.0f - src[c];
    case B::kSrcAlpha: return src[3];
    case B::kOneMinusSrcAlpha: return 1.0f - src[3];
    case B::kDstColor: return dst[c];
    case B::kOneMinusDstColor: return 1.0f - dst[c];
    case B::kDstAlpha: return dst[3];
    case B::kOneMinusDstAlpha: return 1.0f - dst[3];
    case B::kConstantColor: return constant[c];
    case B::kOneMinusConstantColor: return 1.0f - constant[c];
    case B::kConstantAlpha: return constant[3];
    case B::kOneMinusConstantAlpha: return 1.0f - constant[3];
    case B::kSrcAlphaSaturate: return c == 3 ? 1.0f : std::min(src[3], 1.0f - dst[3]);
  }
  return 0.0f;
}

float Combine(xenos::BlendOp op, float s, float fs, float d, float fd) {
  switch (op) {
    case xenos::BlendOp::kAdd: return s * fs + d * fd;
    case xenos::BlendOp::kSubtract: return s * fs - d * fd;
    case xenos::BlendOp::kMin: return std::min(s, d);
    case xenos::BlendOp::kMax: return std::max(s, d);
    case xenos::BlendOp::kRevSubtract: return d * fd - s * fs;
  }
  return s * fs + d * fd;
}

}  // namespace

OutputMerger::Addresser::Addresser(const edram::Surface& s)
    : surface_(s),
      samples_x_(s.samples_x()),
      samples_y_(s.samples_y()),
      sample_count_(s.sample_count()),
      msaa_(uint32_t(s.msaa)),
      row_(xenos::kEdramTileWidthSamples * s.scale_x),
      tile_width_(s.is_64bpp() ? row_ / 2 : row_),
      tile_height_(xenos::kEdramTileHeightSamples * s.scale_y),
      pitch_tiles_(s.pitch_tiles()),
      limit_x_(s.pitch_pixels * s.scale_x),
      bytes_per_sample_(s.bytes_per_sample()),
      tile_bytes_(edram::kTileBytes * s.scale_x * s.scale_y),
      depth_(s.is_depth) {}

inline uint32_t OutputMerger::Addresser::Offset(uint32_t x, uint32_t y, uint32_t sample) const {
  if (sample >= sample_count_ || x >= limit_x_) [[unlikely]] {
    edram::ThrowBadSample(surface_, x, sample);
  }
  uint32_t sx = x * samples_x_, sy = y * samples_y_;
  if (msaa_ == uint32_t(xenos::MsaaSamples::k2X)) {
    sy += sample;
  } else if (msaa_ == uint32_t(xenos::MsaaSamples::k4X)) {
    sx += sample & 1;
    sy += sample >> 1;
  }
  // 80 or 40 samples across and 16 down at 1x: constant divisors.
  const uint32_t tw = tile_width_, th = tile_height_;
  const uint32_t tile_x = tw == 80 ? sx / 80 : tw == 40 ? sx / 40 : sx / tw;
  const uint32_t tile_y = th == 16 ? sy / 16 : sy / th;
  uint32_t in_x = sx - tile_x * tw;
  const uint32_t in_y = sy - tile_y * th;
  if (depth_) in_x = (in_x + row_ / 2) % row_;
  // Tile indices wrap at 2048 (a power of two).
  static_assert(xenos::kEdramTileCount == 2048);
  const uint32_t tile = uint32_t((uint64_t(surface_.base_tiles) + uint64_t(tile_y) * pitch_tiles_ +
                                  tile_x) & (xenos::kEdramTileCount - 1));
  return tile * tile_bytes_ + (in_y * tw + in_x) * bytes_per_sample_;
}

bool OutputMerger::Addresser::QuadOffsets(const uint32_t* x, const uint32_t* y,
                                          uint32_t out[4]) const {
  static_assert(xenos::kEdramTileWidthSamples % 4 == 0 && xenos::kEdramTileHeightSamples % 2 == 0);
  const uint32_t qx = x[0], qy = y[0];
  if (sample_count_ != 1 || depth_ || ((qx | qy) & 1u) || qx + 1 >= limit_x_ ||
      x[1] != qx + 1 || y[1] != qy || x[2] != qx || y[2] != qy + 1 || x[3] != qx + 1 ||
      y[3] != qy + 1) {
    return false;
  }
  out[0] = Offset(qx, qy, 0);
  out[1] = out[0] + bytes_per_sample_;
  out[2] = out[0] + tile_width_ * bytes_per_sample_;
  out[3] = out[2] + bytes_per_sample_;
  return true;
}

OutputMerger::OutputMerger(gpu::RegisterValues regs, edram::Edram& edram, const bool color_used[4],
                           bool has_pixel_shader, std::map<std::string, uint64_t>& notes)
    : regs_(regs), edram_(edram), notes_(notes) {
  const auto surface = xenos::reg::RB_SURFACE_INFO::Decode(gpu::RegisterValue(regs, Reg::RB_SURFACE_INFO));
  for (uint32_t i = 0; i < 4; ++i) {
    const auto info = xenos::reg::RB_COLOR_INFO::Decode(gpu::RegisterValue(regs, xenos::kColorInfoRegs[i]));
    color_[i].base_tiles = info.color_base;
    color_[i].pitch_pixels = surface.surface_pitch;
    color_[i].msaa = surface.msaa_samples;
    color_[i].format = uint32_t(info.color_format);
    color_[i].scale_x = edram.scale_x();
    color_[i].scale_y = edram.scale_y();
    color_used_[i] = color_used[i];
    color_address_[i] = Addresser(color_[i]);
  }
  // The blend state of every target, decoded once per draw.
  const auto mask = xenos::reg::RB_COLOR_MASK::Decode(gpu::RegisterValue(regs, Reg::RB_COLOR_MASK));
  const ucode::Float4 constant = {gpu::RegisterFloat(regs, xenos::RegIndex(Reg::RB_BLEND_RED)),
                                  gpu::RegisterFloat(regs, xenos::RegIndex(Reg::RB_BLEND_GREEN)),
                                  gpu::RegisterFloat(regs, xenos::RegIndex(Reg::RB_BLEND_BLUE)),
                                  gpu::RegisterFloat(regs, xenos::RegIndex(Reg::RB_BLEND_ALPHA))};
  for (uint32_t i = 0; i < 4; ++i) {
    ColorTarget& t = targets_[i];
    const auto info = xenos::reg::RB_COLOR_INFO::Decode(gpu::RegisterValue(regs, xenos::kColorInfoRegs[i]));
    t.format = info.color_format;
    t.exp_bias = std::ldexp(1.0f, int(info.color_exp_bias));
    t.control = xenos::reg::RB_BLENDCONTROL::Decode(gpu::RegisterValue(regs, xenos::kBlendControlRegs[i]));
    const auto& bc = t.control;
    t.blend = !(bc.color_srcblend == xenos::BlendFactor::kOne &&
                bc.color_destblend == xenos::BlendFactor::kZero &&
                bc.color_comb_fcn == xenos::BlendOp::kAdd &&
                bc.alpha_srcblend == xenos::BlendFactor::kOne &&
                bc.alpha_destblend == xenos::BlendFactor::kZero &&
                bc.alpha_comb_fcn == xenos::BlendOp::kAdd);
    const uint32_t write_mask = mask.rt_mask(i);
    for (uint32_t c = 0; c < 4; ++c) {
      if (!(write_mask & (1u << c))) t.keep |= edram::ColorComponentBits(t.format, c);
    }
    t.unorm = edram::ColorFormatIsUnorm(t.format);
    t.constant = constant;
    if (t.unorm) {
      for (float& c : t.constant) c = std::clamp(c, 0.0f, 1.0f);
    }
  }
  const auto depth_info = xenos::reg::RB_DEPTH_INFO::Decode(gpu::RegisterValue(regs, Reg::RB_DEPTH_INFO));
  depth_.base_tiles = depth_info.depth_base;
  depth_.pitch_pixels = surface.surface_pitch;
  depth_.msaa = surface.msaa_samples;
  depth_.is_depth = true;
  depth_.format = uint32_t(depth_info.depth_format);
  depth_.scale_x = edram.scale_x();
  depth_.scale_y = edram.scale_y();
  samples_ = depth_.sample_count();
  depth_address_ = Addresser(depth_);
  const auto dc = xenos::reg::RB_DEPTHCONTROL::Decode(gpu::RegisterValue(regs, Reg::RB_DEPTHCONTROL));
  depth_test_ = dc.z_enable;
  depth_write_ = dc.z_enable && dc.z_write_enable;
  zfunc_ = uint32_t(dc.zfunc);
  stencil_ = dc.stencil_enable;
  const auto front_mask = xenos::reg::RB_STENCILREFMASK::Decode(gpu::RegisterValue(regs, Reg::RB_STENCILREFMASK));
  const auto back_mask = xenos::reg::RB_STENCILREFMASK::Decode(gpu::RegisterValue(regs, Reg::RB_STENCILREFMASK_BF));
  front_ = {uint32_t(dc.stencilfunc), uint32_t(dc.stencilfail), uint32_t(dc.stencilzfail),
            uint32_t(dc.stencilzpass), front_mask.stencilref, front_mask.stencilmask,
            front_mask.stencilwritemask};
  back_ = dc.backface_enable
              ? StencilFace{uint32_t(dc.stencilfunc_bf), uint32_t(dc.stencilfail_bf),
                            uint32_t(dc.stencilzfail_bf), uint32_t(dc.stencilzpass_bf),
                            back_mask.stencilref, back_mask.stencilmask,
                            back_mask.stencilwritemask}
              : front_;
  const auto cc = xenos::reg::RB_COLORCONTROL::Decode(gpu::RegisterValue(regs, Reg::RB_COLORCONTROL));
  alpha_test_ = has_pixel_shader && cc.alpha_test_enable &&
                cc.alpha_func != xenos::CompareFunction::kAlways;
  alpha_func_ = uint32_t(cc.alpha_func);
  alpha_ref_ = gpu::RegisterFloat(regs, xenos::RegIndex(Reg::RB_ALPHA_REF));
  alpha_to_mask_ = has_pixel_shader && cc.alpha_to_mask_enable;
  for (uint32_t i = 0; i < 4; ++i) alpha_to_mask_offset_[i] = cc.alpha_to_mask_offset[i];
  // The batch path (WriteColorsBatch): one sample, nothing that discards or tests, and a single
  // used target that stores k_8_8_8_8 without blending or a write mask.
  uint32_t used = 0, target = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    if (color_used_[i]) ++used, target = i;
  }
  const ColorTarget& t = targets_[target];
  if (used == 1 && samples_ == 1 && !alpha_test_ && !alpha_to_mask_ && !depth_test_ && !stencil_ &&
      t.format == xenos::ColorRenderTargetFormat::k_8_8_8_8 && t.unorm && !t.blend && t.keep == 0) {
    batch_target_ = int(target);
  }
}

uint32_t OutputMerger::DepthStencilTest(uint32_t x, uint32_t y, uint32_t coverage,
                                        const std::array<float, 4>& depth, bool front_facing) {
  if (!depth_test_ && !stencil_) return coverage;
  const auto format = xenos::DepthRenderTargetFormat(depth_.format);
  const StencilFace& face = front_facing ? front_ : back_;
  auto stencil_op = [&](uint32_t op, uint32_t value) -> uint32_t {
    switch (xenos::StencilOp(op)) {
      case xenos::StencilOp::kKeep: return value;
      case xenos::StencilOp::kZero: return 0;
      case xenos::StencilOp::kReplace: return face.ref;
      case xenos::StencilOp::kIncrementClamp: return std::min(value + 1, 255u);
      case xenos::StencilOp::kDecrementClamp: return value ? value - 1 : 0;
      case xenos::StencilOp::kInvert: return ~value & 0xFFu;
      case xenos::StencilOp::kIncrementWrap: return (value + 1) & 0xFFu;
      case xenos::StencilOp::kDecrementWrap: return (value - 1) & 0xFFu;
    }
    return value;
  };
  uint32_t pass = 0;
  for (uint32_t s = 0; s < samples_; ++s) {
    if (!(coverage & (1u << s))) continue;
    const uint32_t offset = depth_address_.Offset(x, y, s);
    const uint32_t stored = depth_address_.Load32(edram_.bytes().data(), offset);
    const uint32_t stencil = stored & 0xFFu;
    uint32_t stored24 = stored >> 8;
    bool ok = true;
    uint32_t op = 0;
    if (stencil_ && !Compare(face.func, face.ref & face.mask, stencil & face.mask)) {
      ok = false;
      op = face.fail;
    }
    // Compared at the stored precision: both sides as the 24-bit value the buffer holds
    // (unorm24, or 20e4 whose bit patterns order like the non-negative depths stored).
    const uint32_t incoming = edram::PackDepth(format, depth[s], 0) >> 8;
    if (ok && depth_test_ && !Compare(zfunc_, incoming, stored24)) {
      ok = false;
      op = face.zfail;
    }
    if (ok) {
      op = face.pass;
      pass |= 1u << s;
      if (depth_write_) stored24 = incoming;
    }
    uint32_t new_stencil = stencil;
    if (stencil_) {
      new_stencil = (stencil & ~face.write_mask) | (stencil_op(op, stencil) & face.write_mask);
    }
    const uint32_t out = (stored24 << 8) | (new_stencil & 0xFFu);
    if (out != stored) depth_address_.Store(edram_.bytes().data(), offset, out);
  }
  return pass;
}

bool OutputMerger::AlphaTest(const ucode::Float4& color0) const {
  if (!alpha_test_) return true;
  return Compare(alpha_func_, color0[3], alpha_ref_);
}

uint32_t OutputMerger::AlphaToMask(uint32_t x, uint32_t y, float alpha) const {
  if (!alpha_to_mask_) return 0xFu;
  // RB_COLORCONTROL alpha_to_mask_offset0..3 belong to the pixels (0,0), (0,1), (1,0), (1,1) of
  // each 2x2 quad (x the high bit of the index) and lower every sample's threshold by
  // offset / 4 / sample count; with 2,2,2,2 the steps are symmetric, 3,1,0,2 dithers. The
  // thresholds per guest sample (4x: sample 1 first, then 2, 0, 3; 2x: the top sample first;
  // 1x: 1.0) come from tests on the Adreno 200, the Xenos's sibling, as Xenia records them
  // (xenia gpu/registers.h RB_COLORCONTROL, DxbcShaderTranslator::CompletePixelShader_AlphaToMask).
  // alpha >= threshold covers the sample; NaN covers none.
  // At a resolution scale the offsets follow the guest pixel grid: the S x T host pixels of a
  // guest pixel take its offset, so a scaled frame's blocks hold the coverage of the guest
  // pixel they stand for (the dither is the game's, laid out for its own resolution), and a
  // downsampled or decimated scaled frame gives the 1x picture.
  const uint32_t gx = x / color_[0].scale_x, gy = y / color_[0].scale_y;
  const uint32_t offset = alpha_to_mask_offset_[((gx & 1u) << 1) | (gy & 1u)];
  static constexpr float k4[4] = {0.75f, 0.25f, 0.5f, 1.0f};
  static constexpr float k2[2] = {0.5f, 1.0f};
  const float* base = samples_ == 4 ? k4 : samples_ == 2 ? k2 : nullptr;
  const float step = float(offset) / (4.0f * float(samples_));
  uint32_t mask = 0;
  for (uint32_t s = 0; s < samples_; ++s) {
    const float threshold = (base ? base[s] : 1.0f) - step;
    if (alpha >= threshold) mask |= 1u << s;
  }
  return mask;
}

void OutputMerger::WriteColors(uint32_t x, uint32_t y, uint32_t coverage,
                               const std::array<ucode::Float4, 4>& colors) {
  for (uint32_t i = 0; i < 4; ++i) {
    if (!color_used_[i]) continue;
    const ColorTarget& t = targets_[i];
    ucode::Float4 src = colors[i];
    for (float& c : src) c *= t.exp_bias;
    if (t.unorm) {
      for (float& c : src) c = std::isnan(c) ? 0.0f : std::clamp(c, 0.0f, 1.0f);
    }
    const Addresser& address = color_address_[i];
    uint8_t* const bytes = edram_.bytes().data();
    if (!t.blend) {
      // Without blending every sample stores the same bits: packed once per pixel (k_8_8_8_8
      // inline: after the clamp to [0, 1], PackColor's Unorm is v * 255 + 0.5 truncated, 0 and 1
      // included), the stored ones read only under a write mask.
      uint64_t bits;
      if (t.format == xenos::ColorRenderTargetFormat::k_8_8_8_8 && t.unorm) {
        bits = uint32_t(src[0] * 255.0f + 0.5f) | (uint32_t(src[1] * 255.0f + 0.5f) << 8) |
               (uint32_t(src[2] * 255.0f + 0.5f) << 16) | (uint32_t(src[3] * 255.0f + 0.5f) << 24);
      } else {
        bits = edram::PackColor(t.format, src);
      }
      bits &= ~t.keep;
      for (uint32_t s = 0; s < samples_; ++s) {
        if (!(coverage & (1u << s))) continue;
        const uint32_t offset = address.Offset(x, y, s);
        const uint64_t old = t.keep ? address.Load(bytes, offset) & t.keep : 0;
        address.Store(bytes, offset, bits | old);
      }
      continue;
    }
    // Blending reads the stored bits.
    for (uint32_t s = 0; s < samples_; ++s) {
      if (!(coverage & (1u << s))) continue;
      const uint32_t offset = address.Offset(x, y, s);
      const uint64_t old = address.Load(bytes, offset);
      ucode::Float4 out = src;
      const auto& bc = t.control;
      const std::array<float, 4> dst = edram::UnpackColor(t.format, old);
      for (uint32_t c = 0; c < 4; ++c) {
        const bool alpha = c == 3;
        const auto fs = Factor(alpha ? bc.alpha_srcblend : bc.color_srcblend, c, src, dst, t.constant);
        const auto fd = Factor(alpha ? bc.alpha_destblend : bc.color_destblend, c, src, dst, t.constant);
        out[c] = Combine(alpha ? bc.alpha_comb_fcn : bc.color_comb_fcn, src[c], fs, dst[c], fd);
      }
      const uint64_t bits = edram::PackColor(t.format, out);
      address.Store(bytes, offset, (bits & ~t.keep) | (old & t.keep));
    }
  }
}

uint32_t OutputMerger::RoleOffset(uint32_t role, uint32_t x, uint32_t y, uint32_t sample) const {
  return (role == kDepthRole ? depth_address_ : color_address_[role]).Offset(x, y, sample);
}

void OutputMerger::Describe(uint32_t role, bool front_facing, WatchRecord& r) const {
  r.alpha_func = alpha_test_ ? alpha_func_ : 7;
  r.alpha_ref = alpha_ref_;
  r.depth_test = depth_test_;
  r.stencil_test = stencil_;
  r.zfunc = zfunc_;
  const StencilFace& face = front_facing ? front_ : back_;
  r.stencil_func = face.func;
  r.stencil_ref = face.ref;
  if (role == kDepthRole) return;
  const ColorTarget& t = targets_[role];
  r.blend = t.blend;
  r.blend_control = gpu::RegisterValue(regs_, xenos::kBlendControlRegs[role]);
  r.write_mask =
      xenos::reg::RB_COLOR_MASK::Decode(gpu::RegisterValue(regs_, Reg::RB_COLOR_MASK)).rt_mask(role);
  r.exp_bias = t.exp_bias;
  r.unorm = t.unorm;
}

void OutputMerger::WriteColorsBatch(uint32_t n, const uint32_t* x, const uint32_t* y,
                                    const uint8_t* write,
                                    const std::array<ucode::Float4, 4>* colors) {
  const ColorTarget& t = targets_[batch_target_];
  const Addresser& address = color_address_[batch_target_];
  // WriteColors' bias, clamp and k_8_8_8_8 pack for every lane (v in [0, 1]: v * 255 + 0.5 is
  // below 2^31, so the signed conversion truncates as the unsigned one does), then the stores in
  // lane order (a pixel may come twice in a batch; the later fragment wins, as one by one).
  uint32_t bits[kBatchLanes];
#if defined(__SSE2__)
  // One lane's RGBA in one vector: max(v, 0) then min(.., 1) is the clamp with NaN -> 0 (maxps
  // returns its second operand for a NaN first one; -0 becomes +0, which packs the same), the
  // products and sums are the same single-precision operations, cvttps truncates as the
  // conversion does, and 0..255 pass the saturating packs unchanged.
  const __m128 bias = _mm_set1_ps(t.exp_bias), zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
  const __m128 scale = _mm_set1_ps(255.0f), half = _mm_set1_ps(0.5f);
  for (uint32_t l = 0; l < kBatchLanes; ++l) {
    __m128 v = _mm_mul_ps(_mm_loadu_ps(colors[l][uint32_t(batch_target_)].data()), bias);
    v = _mm_min_ps(_mm_max_ps(v, zero), one);
    const __m128i q = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(v, scale), half));
    const __m128i w = _mm_packs_epi32(q, q);
    bits[l] = uint32_t(_mm_cvtsi128_si32(_mm_packus_epi16(w, w)));
  }
#else
  for (uint32_t l = 0; l < kBatchLanes; ++l) {
    uint32_t packed = 0;
    for (uint32_t c = 0; c < 4; ++c) {
      float v = colors[l][uint32_t(batch_target_)][c] * t.exp_bias;
      v = std::isnan(v) ? 0.0f : std::clamp(v, 0.0f, 1.0f);
      packed |= uint32_t(int32_t(v * 255.0f + 0.5f)) << (8 * c);
    }
    bits[l] = packed;
  }
#endif
  uint8_t* const bytes = edram_.bytes().data();
  for (uint32_t l = 0; l < n && l < kBatchLanes;) {
    uint32_t quad[4];
    if (l + 4 <= n && l + 4 <= kBatchLanes && address.QuadOffsets(x + l, y + l, quad)) {
      for (uint32_t j = 0; j < 4; ++j) {
        if (write[l + j]) address.Store(bytes, quad[j], bits[l + j]);
      }
      l += 4;
      continue;
    }
    if (write[l]) address.Store(bytes, address.Offset(x[l], y[l], 0), bits[l]);
    ++l;
  }
}

}  // namespace xnt::cpu
