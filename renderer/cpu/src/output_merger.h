// The render backend of the Xenos (RB) on the EDRAM bytes: depth test and write at the stored
// format's precision, alpha test, blending with every factor and operation, write masks, and
// the store of every colour format's guest bits (gpu::edram::PackColor). A k_8_8_8_8_GAMMA
// target is blended in linear space: the stored PWL value is decoded, blended, then encoded,
// as the hardware does.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "xnt/base/byte_order.h"
#include "xnt/cpu/pixel_watch.h"
#include "xnt/gpu/edram.h"
#include "xnt/gpu/register_values.h"
#include "xnt/xenos/registers.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::cpu {

class OutputMerger {
 public:
  // The draw's state from its registers. `color_used[i]`: target i is written (the pixel shader
  // exports oC<i> and RB_COLOR_MASK lets something through).
  OutputMerger(gpu::RegisterValues regs, gpu::edram::Edram& edram, const bool color_used[4],
               bool has_pixel_shader, std::map<std::string, uint64_t>& notes);

  // Stencil and depth tests of the covered samples (bit s of `coverage`, depth[s]) at (x, y), in
  // the hardware order: stencil test (ref & mask against stored & mask), then depth; the
  // stencil op for the outcome (fail / zfail / pass, the back-face set when
  // RB_DEPTHCONTROL backface_enable and the primitive faces away) through the write mask, and
  // the depth write for passing samples. Returns the samples that pass.
  uint32_t DepthStencilTest(uint32_t x, uint32_t y, uint32_t coverage,
                            const std::array<float, 4>& depth, bool front_facing);
  // Exponent bias, blending and the store of every used colour target's output into the samples
  // of `coverage`.
  void WriteColors(uint32_t x, uint32_t y, uint32_t coverage,
                   const std::array<ucode::Float4, 4>& colors);
  // Alpha test on oC0 (RB_COLORCONTROL); false: the pixel is discarded.
  bool AlphaTest(const ucode::Float4& color0) const;
  bool tests_alpha() const { return alpha_test_; }  // AlphaTest can discard
  // The draw's state lets a batch of shaded pixels go through WriteColorsBatch instead of
  // AlphaTest / DepthStencilTest / WriteColors per pixel with the same EDRAM bytes: one sample
  // per pixel, no alpha test, alpha to mask, depth or stencil, and one used target, k_8_8_8_8
  // without blending or a write mask. -1 when not; else that target.
  int batch_target() const { return batch_target_; }
  static constexpr uint32_t kBatchLanes = 32;
  // Lanes [0, n) (n <= kBatchLanes; colors has kBatchLanes entries) with write[l] set store
  // colors[l][batch_target()] at pixel (x[l], y[l]), in lane order.
  void WriteColorsBatch(uint32_t n, const uint32_t* x, const uint32_t* y, const uint8_t* write,
                        const std::array<ucode::Float4, 4>* colors);
  // Alpha to mask (RB_COLORCONTROL alpha_to_mask_enable): the samples oC0's alpha (before the
  // exponent bias) covers at host pixel (x, y), with the dither offsets of the guest pixel's
  // place in its 2x2 quad; all samples
  // when it is off. Applied after the alpha test, before depth/stencil.
  uint32_t AlphaToMask(uint32_t x, uint32_t y, float alpha) const;
  bool alpha_to_mask() const { return alpha_to_mask_; }
  // DepthStencilTest reads the fragment's depth (a depth or stencil test is on).
  bool reads_depth() const { return depth_test_ || stencil_; }

  // For pixel history (pixel_watch.h), by role: 0-3 colour target, 4 depth/stencil.
  static constexpr uint32_t kDepthRole = 4;
  // The role touches the EDRAM: a used colour target, or depth/stencil when tested.
  bool role_used(uint32_t role) const { return role == kDepthRole ? reads_depth() : color_used_[role]; }
  const gpu::edram::Surface& role_surface(uint32_t role) const {
    return role == kDepthRole ? depth_ : color_[role];
  }
  uint32_t RoleOffset(uint32_t role, uint32_t x, uint32_t y, uint32_t sample) const;
  uint32_t sample_count() const { return samples_; }
  // The draw's alpha, depth/stencil and the role's blend state into `r`.
  void Describe(uint32_t role, bool front_facing, WatchRecord& r) const;

 private:
  void Note(const std::string& what) { ++notes_[what]; }

  // gpu::edram::Surface::SampleOffset with the surface's constants worked out once per draw (the
  // merger addresses every sample it tests or writes): the same tile arithmetic, the same bounds
  // check, the tile sizes of a 1x scale as constant divisors.
  class Addresser {
   public:
    Addresser() = default;
    explicit Addresser(const gpu::edram::Surface& s);
    [[gnu::always_inline]] inline uint32_t Offset(uint32_t x, uint32_t y, uint32_t sample) const;
    // Offset of the four pixels (x[j], y[j]) when they are a 2x2 quad at even x and y in the
    // rasterizer's order on a 1-sample colour surface, with every pixel inside the pitch: tiles
    // are an even number of samples wide and high, so the quad lies in one tile, its right pixels
    // a sample on and its lower ones a tile row on. False otherwise (Offset per pixel then).
    bool QuadOffsets(const uint32_t* x, const uint32_t* y, uint32_t out[4]) const;
    uint32_t Load32(const uint8_t* edram, uint32_t offset) const {
      return LoadLE32(edram + offset);
    }
    uint64_t Load(const uint8_t* edram, uint32_t offset) const {
      uint64_t v = LoadLE32(edram + offset);
      if (bytes_per_sample_ == 8) v |= uint64_t(LoadLE32(edram + offset + 4)) << 32;
      return v;
    }
    void Store(uint8_t* edram, uint32_t offset, uint64_t bits) const {
      StoreLE32(edram + offset, uint32_t(bits));
      if (bytes_per_sample_ == 8) StoreLE32(edram + offset + 4, uint32_t(bits >> 32));
    }

   private:
    gpu::edram::Surface surface_{};
    uint32_t samples_x_ = 1, samples_y_ = 1, sample_count_ = 1, msaa_ = 0;
    uint32_t row_ = 80, tile_width_ = 80, tile_height_ = 16, pitch_tiles_ = 0, limit_x_ = 0;
    uint32_t bytes_per_sample_ = 4, tile_bytes_ = gpu::edram::kTileBytes;
    bool depth_ = false;
  };

  gpu::RegisterValues regs_;
  gpu::edram::Edram& edram_;
  std::map<std::string, uint64_t>& notes_;
  gpu::edram::Surface color_[4];
  Addresser color_address_[4], depth_address_;
  bool color_used_[4] = {};
  // RB_COLOR_INFO / RB_BLENDCONTROL / RB_COLOR_MASK / RB_BLEND_* of each target, decoded once.
  struct ColorTarget {
    xenos::ColorRenderTargetFormat format{};
    float exp_bias = 1.0f;
    xenos::reg::RB_BLENDCONTROL control{};
    bool blend = false, unorm = false;
    uint64_t keep = 0;  // bits the write mask keeps
    ucode::Float4 constant{};
  };
  ColorTarget targets_[4];
  gpu::edram::Surface depth_;
  bool depth_test_ = false, depth_write_ = false;
  uint32_t zfunc_ = 7;
  struct StencilFace {
    uint32_t func = 7, fail = 0, zfail = 0, pass = 0, ref = 0, mask = 0xFF, write_mask = 0xFF;
  };
  bool stencil_ = false;
  StencilFace front_, back_;
  bool alpha_test_ = false;
  uint32_t alpha_func_ = 7;
  float alpha_ref_ = 0.0f;
  bool alpha_to_mask_ = false;
  uint32_t alpha_to_mask_offset_[4] = {};
  uint32_t samples_ = 1;
  int batch_target_ = -1;
};

}  // namespace xnt::cpu
