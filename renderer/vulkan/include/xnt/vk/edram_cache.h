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
// guest layout (edram::Edram: tile layout, depth half swap, MSAA sample placement, plus a host
// depth array beside it); then the new owner's rows are loaded from it (pixels outside the tiles
// keep their values) and uploaded, synchronously. Both keep the host depth beside the 24-bit
// guest value and reuse it while it still converts to the stored bits
// (edram::HostDepthStillMatches). MSAA host images (render_targets.h) move every host sample
// through the sample transport on the CPU path, mapped to the guest sample positions
// (HostSampleOfGuest).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "xnt/vk/command_stream.h"
#include "xnt/vk/draw_state.h"
#include "xnt/vk/edram.h"
#include "xnt/vk/edram_transfer.h"
#include "xnt/vk/edram_ownership.h"
#include "xnt/vk/render_targets.h"
#include "xnt/vk/resolve.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

struct EdramUse {
  edram::Surface surface;
  uint32_t rows = 0;           // pixel rows the event may touch
  bool rows_guessed = false;   // no viewport/scissor bound the extent (conservative)
  bool rows_estimated = false; // rows from the vertex shader run on the CPU (replay/draw_extent.h)
};

// One ownership claim (for the HTML map).
struct EdramClaim {
  uint64_t event = 0;
  uint64_t frame = 0;
  uint32_t start_tile = 0, tiles = 0;
  edram::OwnerKey owner;
  bool guessed = false;
  std::string trigger;
};

struct EdramLogEntry {
  edram::Transfer transfer;
  uint64_t frame = 0;
  bool data_moved = false;  // false: logged only (see note)
  bool on_gpu = false;      // moved by the GPU transfer shaders (else through the CPU model)
  std::string note;
};

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
  uint64_t BeginEvent() { return event_++; }
  void set_frame(uint64_t frame) { frame_ = frame; }
  uint64_t frame() const { return frame_; }

  // Claims the tiles of the used targets of one event (clamped to the next used target's base
  // and to the EDRAM) and moves the data that changed owner. `bound` are all targets bound
  // (used or not), for the naive counter. `trigger`: "draw", "resolve", "resolve clear".
  void Use(uint64_t event, std::vector<EdramUse> uses, const std::vector<EdramUse>& bound,
           const std::string& trigger);

  // Makes the CPU EDRAM model hold the current guest bits of the tiles covering pixel rows
  // [0, rows) of `surface` (wrapping at 2048 tiles), and returns it. Every current owner of those
  // tiles (any format, pitch, sample count, colour or depth) stores its host data there in the
  // guest encoding: colour as edram::PackColor's bits (64bpp: both dwords), depth as
  // (depth24 << 8) | stencil, every MSAA sample at its EDRAM position (a 1-sample host image
  // writes its value to all samples of the pixel). Tiles that no target has owned keep what the
  // model held (zero at start). Synchronous: it submits and waits. Read the result with
  // edram::Edram::Load(surface, x, y, sample). Ownership does not change.
  const edram::Edram& Snapshot(const edram::Surface& surface, uint32_t rows);
  // Whether the last Snapshot stored every texel exactly (false: some owner's host format is an
  // approximation, e.g. 7e3 in a 16-bit float target).
  bool last_snapshot_exact() const { return snapshot_exact_; }

  const std::vector<EdramLogEntry>& log() const { return log_; }
  const std::vector<EdramClaim>& claims() const { return claims_; }
  const edram::NaiveCacheModel& naive() const { return naive_; }
  const edram::OwnershipMap& ownership() const { return map_; }
  uint64_t events() const { return event_; }
  uint64_t guessed_extents() const { return guessed_; }

 private:
  void Move(const edram::Transfer& t, EdramLogEntry& entry);
  // Stores `owner`'s host data of tiles [start, end) (within [0, 2048)) into edram_. Returns
  // false when the owner has no host image; *exact is cleared for approximate conversions.
  bool StoreTiles(const edram::OwnerKey& owner, uint32_t start, uint32_t end, bool* exact);
  // Loads `owner`'s host data of tiles [start, end) from edram_ (creating the host image).
  bool LoadTiles(const edram::OwnerKey& owner, uint32_t start, uint32_t end, bool* exact,
                 std::string* note);

  SampleTransport& Transport();  // created on first MSAA transfer
  uint64_t StorageAlignment() const;

  VulkanContext& context_;
  std::unique_ptr<SampleTransport> transport_;
  CommandStream& stream_;
  RenderTargetCache& targets_;
  std::function<void()> end_rendering_;
  edram::OwnershipMap map_;
  edram::NaiveCacheModel naive_;
  edram::Edram edram_;
  // The host depth (float) stored beside each depth word of edram_, one per 32-bit EDRAM word.
  std::vector<float> host_depth_ = std::vector<float>(xenos::kEdramSizeBytes / 4, 0.0f);
  std::vector<EdramLogEntry> log_;
  std::vector<EdramClaim> claims_;
  uint64_t event_ = 0, frame_ = 0, guessed_ = 0;
  bool snapshot_exact_ = true;
  bool gpu_transfers_ = true;
  uint64_t gpu_transfers_done_ = 0;
};

struct EdramEventTargets {
  std::vector<EdramUse> used;   // targets the event really uses
  std::vector<EdramUse> bound;  // every target bound (for the naive counter)
};
// A draw's targets from its registers: colour i when color_used[i] (the pixel shader writes it
// and RB_COLOR_MASK lets something through), depth when depth_used (depth or stencil test on).
// The extent is the scissor's bottom row; without one, `estimate_rows` (when given) is asked once
// for the rows the draw's geometry reaches (replay::EstimateDrawExtent), and when it has no answer
// the extent is the rest of the EDRAM / 8192 rows, flagged as guessed.
using DrawRowsEstimate = std::function<std::optional<uint32_t>()>;
EdramEventTargets EdramTargetsForDraw(RegisterValues regs, const bool color_used[4],
                                      bool depth_used,
                                      const DrawRowsEstimate& estimate_rows = {});
// A resolve's targets: the copied source and the cleared targets, down to the rectangle's bottom.
EdramEventTargets EdramTargetsForResolve(const ResolveInfo& info);

// The host render-target key of an EDRAM surface.
RenderTargetKey HostKeyOf(const edram::OwnerKey& key);

}  // namespace xnt::vk
