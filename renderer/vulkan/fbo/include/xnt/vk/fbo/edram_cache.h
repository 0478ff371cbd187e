// The EDRAM render target cache for the fbo path: ownership of EDRAM tile ranges by host render
// targets (edram_ownership.h), the data movement when a *used* range changes owner, the transfer
// log, the naive-cache comparison counter, and Snapshot (the guest EDRAM bits for resolves).
//
// Data movement: transfers run on the GPU (edram_transfer.h: a compute store of the old owner's
// tiles into a GPU copy of the EDRAM, per-sample load draws for the new owner; colour, depth and
// stencil with the host depth kept beside the words, sRGB gamma mode), one submission each. The
// CPU path (the reference, and the only path for the fallback host formats): the previous
// owner's rows covering the transferred tiles are copied to the host, each texel converted to
// its guest bits (render_targets.h HostTexelToGuest) and stored into a CPU EDRAM model in the
// guest layout (gpu::edram::Edram: tile layout, depth half swap, MSAA sample placement, plus a host
// depth array beside it); then the new owner's rows are loaded from it (pixels outside the tiles
// keep their values) and uploaded, synchronously. Both keep the host depth beside the 24-bit
// guest value and reuse it while it still converts to the stored bits
// (gpu::edram::HostDepthStillMatches). MSAA host images (render_targets.h) move every host sample
// through the sample transport on the CPU path, mapped to the guest sample positions
// (HostSampleOfGuest).
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "xnt/vk/command_stream.h"
#include "xnt/vk/draw_state.h"
#include "xnt/gpu/edram.h"
#include "xnt/gpu/edram_snapshot.h"
#include "xnt/gpu/edram_tracker.h"
#include "xnt/vk/fbo/edram_transfer.h"
#include "xnt/gpu/edram_ownership.h"
#include "xnt/vk/fbo/render_targets.h"
#include "xnt/gpu/resolve.h"
#include "xnt/vk/vulkan_context.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk {

class EdramCache {
 public:
  EdramCache(VulkanContext& context, CommandStream& stream, RenderTargetCache& targets,
             std::function<void()> end_rendering);
  ~EdramCache();
  EdramCache(const EdramCache&) = delete;
  EdramCache& operator=(const EdramCache&) = delete;
  // The MSAA sample transport (tests force its stencil bit-plane path).
  SampleTransport& sample_transport() { return Transport(); }
  // Transfers between formats the shaders convert (colour, depth/stencil, sRGB gamma) run on the
  // GPU (edram_transfer.h); off: every transfer goes through the CPU model (the reference the GPU
  // path is tested against).
  void set_gpu_transfers(bool on) { gpu_transfers_ = on; }
  uint64_t gpu_transfer_count() const { return gpu_transfers_done_; }

  // Starts an event (a draw or a resolve): returns its index.
  uint64_t BeginEvent() { return tracker_.BeginEvent(); }
  void set_frame(uint64_t frame) { tracker_.set_frame(frame); }
  uint64_t frame() const { return tracker_.frame(); }

  // Claims the tiles of the used targets of one event (clamped to the next used target's base
  // and to the EDRAM) and moves the data that changed owner. `bound` are all targets bound
  // (used or not), for the naive counter. `trigger`: "draw", "resolve", "resolve clear".
  void Use(uint64_t event, std::vector<gpu::EdramUse> uses,
           const std::vector<gpu::EdramUse>& bound, const std::string& trigger);

  // An EDRAM snapshot record: the CPU model holds the snapshot (gpu/edram_snapshot.h) and every
  // tile belongs to the snapshot owner, so each host target that next uses tiles loads them
  // from the model (through the CPU: a snapshot is rare, at the start of a slice) and the host
  // targets' older contents are never read again.
  void Restore(std::span<const uint8_t> guest) { snapshot_.Restore(guest, edram_, tracker_); }
  // Whether a depth target loaded tiles from a snapshot since the last call (then clears it).
  // Those tiles hold depth another rasterizer computed (a slice's state comes from the cpu path):
  // a host depth test of geometry drawn again against them (a pre-pass's EQUAL pass) compares
  // the host's depth with that rasterizer's, which may differ in the low bits.
  bool TakeSnapshotDepthLoaded() { return std::exchange(snapshot_depth_loaded_, false); }
  // Makes the CPU EDRAM model hold the current guest bits of the tiles covering pixel rows
  // [0, rows) of `surface` (guest rows; wrapping at 2048 tiles), and returns it. At a resolution
  // scale the model is the scaled EDRAM (gpu::edram::Edram(S, T)): read it with a surface whose
  // scale_x/y are the render targets'. Every current owner of those
  // tiles (any format, pitch, sample count, colour or depth) stores its host data there in the
  // guest encoding: colour as gpu::edram::PackColor's bits (64bpp: both dwords), depth as
  // (depth24 << 8) | stencil, every MSAA sample at its EDRAM position (a 1-sample host image
  // writes its value to all samples of the pixel). Tiles that no target has owned keep what the
  // model held (zero at start). Synchronous: it submits and waits. Read the result with
  // gpu::edram::Edram::Load(surface, x, y, sample). Ownership does not change.
  const gpu::edram::Edram& Snapshot(const gpu::edram::Surface& surface, uint32_t rows);
  // Whether the last Snapshot stored every texel exactly (false: some owner's host format is an
  // approximation, e.g. 7e3 in a 16-bit float target).
  bool last_snapshot_exact() const { return snapshot_exact_; }
  // Memory of the EDRAM copies: the CPU model (guest words + host depth, 20 MiB x S x T) and
  // the GPU copy the transfers use (device, 0 until the first GPU transfer).
  uint64_t model_bytes() const { return edram_.bytes().size() + host_depth_count_ * 4; }
  uint64_t gpu_copy_bytes() const { return transport_ ? transport_->edram_buffer_bytes() : 0; }

  // Ownership, the transfer log, claims and the naive counter (backend-free; the reports read it).
  const gpu::EdramTracker& tracker() const { return tracker_; }
  gpu::EdramTracker& tracker() { return tracker_; }
  const std::vector<gpu::EdramLogEntry>& log() const { return tracker_.log(); }
  const std::vector<gpu::EdramClaim>& claims() const { return tracker_.claims(); }
  const gpu::edram::NaiveCacheModel& naive() const { return tracker_.naive(); }
  const gpu::edram::OwnershipMap& ownership() const { return tracker_.ownership(); }
  uint64_t events() const { return tracker_.events(); }
  uint64_t guessed_extents() const { return tracker_.guessed_extents(); }

 private:
  void Move(const gpu::edram::Transfer& t, gpu::EdramLogEntry& entry);
  // A transfer out of the snapshot owner: the model's tiles (rewritten in the destination's
  // sample layout where needed) loaded into the destination, depth with the host depth of each
  // word taken from its guest value (a snapshot has no host depth).
  void MoveFromSnapshot(const gpu::edram::Transfer& t, gpu::EdramLogEntry& entry);
  // The snapshot's words of `t`'s tiles (in the CPU model) into the GPU EDRAM copy.
  void CopySnapshotToGpuEdram(const gpu::edram::Transfer& t);
  // Marks the transfer's tiles as holding snapshot data (`mark`); returns whether any does.
  bool MarkSnapshotTiles(const gpu::edram::Transfer& t, bool mark);
  // The owner's surface at the cache's resolution scale (the render targets').
  gpu::edram::Surface SurfaceOf(const gpu::edram::OwnerKey& owner) const;
  // Stores `owner`'s host data of tiles [start, end) (within [0, 2048)) into edram_. Returns
  // false when the owner has no host image; *exact is cleared for approximate conversions.
  bool StoreTiles(const gpu::edram::OwnerKey& owner, uint32_t start, uint32_t end, bool* exact);
  // Loads `owner`'s host data of tiles [start, end) from edram_ (creating the host image).
  bool LoadTiles(const gpu::edram::OwnerKey& owner, uint32_t start, uint32_t end, bool* exact,
                 std::string* note);

  SampleTransport& Transport();  // created on first MSAA transfer
  uint64_t StorageAlignment() const;

  VulkanContext& context_;
  std::unique_ptr<SampleTransport> transport_;
  CommandStream& stream_;
  RenderTargetCache& targets_;
  std::function<void()> end_rendering_;
  gpu::EdramTracker tracker_;
  gpu::edram::Edram edram_;
  gpu::edram::SnapshotRestore snapshot_;
  // The host depth (float) stored beside each depth word of edram_, one per 32-bit EDRAM word
  // (S x T times as many at a resolution scale), 0.0f at first. From calloc: a block this large
  // is fresh zero pages, so only the pages depth targets touch cost anything; a vector zeroed all
  // 10 MiB (x S x T) at start-up, about 3 % of a short replay's CPU (docs/speed.md).
  struct FreeDeleter {
    void operator()(float* p) const { std::free(p); }
  };
  std::unique_ptr<float[], FreeDeleter> host_depth_;
  size_t host_depth_count_ = 0;
  bool snapshot_exact_ = true;
  bool snapshot_depth_loaded_ = false;
  // Tiles whose data came out of the last snapshot (set when a target loads them from the
  // snapshot owner; kept when they move on, since moving keeps the snapshot's depth values).
  std::array<bool, xenos::kEdramTileCount> snapshot_tiles_{};
  bool gpu_transfers_ = true;
  uint64_t gpu_transfers_done_ = 0;
};

// The host render-target key of an EDRAM surface.
RenderTargetKey HostKeyOf(const gpu::edram::OwnerKey& key);

}  // namespace xnt::vk
