// Pixel history on the cpu path: a set of watched EDRAM samples and every event that tested or
// wrote one of them, recorded by the output merger and the resolve as they run. The watch is
// keyed by EDRAM byte offset, not by surface, so a draw whose target aliases the watched pixel
// under another base, pitch or format is recorded too, as the hardware would let it overwrite
// the bits. Off (CpuBackendOptions::watch null) it costs one pointer test per merged fragment
// and per resolve; on, the draw runs on one thread without the batched colour store, so the
// records come in the order the EDRAM sees the fragments.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "xnt/gpu/edram.h"
#include "xnt/gpu/resolve.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::cpu {

// One watched EDRAM sample: sample `sample` of host pixel (host_x, host_y) of `surface`.
struct WatchedSample {
  gpu::edram::Surface surface;
  uint32_t host_x = 0, host_y = 0, sample = 0;
  uint32_t offset = 0;  // surface.SampleOffset(host_x, host_y, sample)
};

enum class WatchEventKind : uint8_t { kDraw, kResolve };

// What one event did to one watched sample. `role`: how the event addressed the sample (0-3
// colour target, 4 depth/stencil); `surface` is that target as the event saw it (the format
// its before/after bits decode with).
struct WatchRecord {
  WatchEventKind kind = WatchEventKind::kDraw;
  uint64_t frame = 0;
  uint32_t event = 0;    // K of F.K (draws and resolves numbered together)
  uint32_t watched = 0;  // index into PixelWatch::samples()
  uint32_t role = 0;
  gpu::edram::Surface surface;
  uint64_t before = 0, after = 0;  // guest bits (64bpp colour: both dwords)

  // A draw's fragment.
  uint32_t host_x = 0, host_y = 0;  // the fragment (its sample hit the watched word)
  bool front_facing = true;
  bool pixel_shader = false;  // false: depth-only draw (no colour outputs)
  bool killed = false;        // kill* in the shader
  uint32_t color_mask = 0;    // oC<i> the shader wrote on this pixel
  ucode::Float4 color{};      // oC<role> (oC0 for the depth role)
  bool depth_exported = false;
  float depth = 0.0f;          // the depth tested: interpolated, or oDepth when exported
  int8_t alpha_test = -1;      // -1 off, 0 failed (discarded), 1 passed
  bool alpha_to_mask_cut = false;  // alpha to mask removed this sample
  int8_t depth_stencil = -1;   // -1 not tested, 0 failed, 1 passed (stencil then depth)
  bool merged = false;         // the sample reached the colour write (every test passed)
  // The draw's state for this role (OutputMerger::Describe).
  uint32_t alpha_func = 7;  // CompareFunction
  float alpha_ref = 0.0f;
  bool depth_test = false, stencil_test = false;
  uint32_t zfunc = 7, stencil_func = 7, stencil_ref = 0;
  bool blend = false;
  uint32_t blend_control = 0;  // RB_BLENDCONTROL<role> as written
  uint32_t write_mask = 0xF;   // RB_COLOR_MASK's 4 bits for the target
  float exp_bias = 1.0f;       // 2^RB_COLOR_INFO color_exp_bias
  bool unorm = false;          // the blender clamps its inputs to 0..1
};

// What a resolve did to a watched sample (WatchEventKind::kResolve).
struct WatchResolve {
  bool copies = false;  // its copy reads the sample (the pixel is in the rectangle)
  bool clears = false;  // its clear writes the sample
  uint32_t seen = 0;    // the resolve: PixelWatch::resolves()[seen], its registers kept once
};

class PixelWatch {
 public:
  // Watches sample `sample` of host pixel (x, y) of `surface` (at the surface's scale); returns
  // its index. Throws xnt::Error for a position outside the surface's pitch or samples.
  uint32_t Add(const gpu::edram::Surface& surface, uint32_t x, uint32_t y, uint32_t sample);
  const std::vector<WatchedSample>& samples() const { return samples_; }
  // The watched samples whose bits start at `offset` (several when watched surfaces alias).
  const std::vector<uint32_t>* At(uint32_t offset) const {
    const auto it = by_offset_.find(offset);
    return it == by_offset_.end() ? nullptr : &it->second;
  }
  bool empty() const { return samples_.empty(); }

  // Records are kept only from frame `first_frame` on (earlier frames still run).
  void set_first_frame(uint64_t frame) { first_frame_ = frame; }
  // The event the backend runs now (set by CpuBackend before each draw and resolve).
  void BeginEvent(uint64_t frame, uint32_t event) { frame_ = frame, event_ = event; }
  bool recording() const { return frame_ >= first_frame_; }
  uint64_t first_frame() const { return first_frame_; }
  uint64_t frame() const { return frame_; }
  uint32_t event() const { return event_; }

  void Record(WatchRecord record) { records_.push_back(std::move(record)); }
  void RecordResolve(WatchRecord record, WatchResolve resolve);
  const std::vector<WatchRecord>& records() const { return records_; }
  // The resolve part of records()[i] when it is a resolve.
  const WatchResolve* ResolveOf(size_t record) const;

  // Every resolve seen from first_frame on, with its event, whether or not it touched a watched
  // sample (a front buffer pixel is traced back to the resolve that wrote it).
  struct SeenResolve {
    uint64_t frame = 0;
    uint32_t event = 0;
    gpu::ResolveInfo info;
  };
  void SeeResolve(const gpu::ResolveInfo& info) {
    if (recording()) resolves_.push_back({frame_, event_, info});
  }
  const std::vector<SeenResolve>& resolves() const { return resolves_; }
  // Every surface a draw used from first_frame on, with the rows its scissor reached.
  struct UsedSurface {
    gpu::edram::Surface surface;
    uint32_t rows = 0;
  };
  void SeeSurface(const gpu::edram::Surface& surface, uint32_t rows);
  const std::vector<UsedSurface>& surfaces() const { return surfaces_; }

 private:
  std::vector<WatchedSample> samples_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> by_offset_;
  uint64_t first_frame_ = 0, frame_ = 0;
  uint32_t event_ = 0;
  std::vector<WatchRecord> records_;
  std::vector<std::pair<size_t, WatchResolve>> resolve_parts_;  // (record index, part)
  std::vector<SeenResolve> resolves_;
  std::vector<UsedSurface> surfaces_;
};

}  // namespace xnt::cpu
