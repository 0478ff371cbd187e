// EDRAM ownership tracking for every render path (no Vulkan): which render-target key owns each
// tile range (edram_ownership.h), the ownership claims of every draw and resolve, the transfer
// log, and the naive-cache comparison counter. A path moves the data itself: Use() hands each
// transfer to the path's mover before logging it, so the log says whether and how it moved.
//
// A draw's targets come from its registers (EdramTargetsForDraw): colour i when the pixel shader
// writes it and RB_COLOR_MASK lets something through, depth with depth or stencil testing on
// (a binding is not a use: a target bound but never written or tested holds no data of this draw). The extent is the scissor's bottom row.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "xnt/gpu/edram.h"
#include "xnt/gpu/edram_ownership.h"
#include "xnt/gpu/register_values.h"
#include "xnt/gpu/resolve.h"

namespace xnt::gpu {

struct EdramUse {
  edram::Surface surface;
  uint32_t rows = 0;           // pixel rows the event may touch
  bool rows_guessed = false;   // no viewport/scissor bound the extent (conservative)
  bool rows_estimated = false; // rows from the vertex shader run on the CPU (draw_extent.h)
};

// One ownership claim (for the HTML map), or a run of identical claims: the same target over the
// same tiles by every event from `event` to `last_event` of one frame (`count` events). A frame of
// thousands of draws into one target is one run, so a long replay's claims stay a few per frame;
// within a run no other claim overlaps its tiles (one event's targets never overlap, and the run
// ends at the first event that does not claim them), so the map reads the run as its first claim.
struct EdramClaim {
  uint64_t event = 0;
  uint64_t frame = 0;
  uint64_t last_event = 0;
  uint64_t count = 1;
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

// Ownership and the log of one replay.
class EdramTracker {
 public:
  // Moves `transfer`'s data for the path and fills in entry.data_moved / on_gpu / note.
  using Mover = std::function<void(const edram::Transfer& transfer, EdramLogEntry& entry)>;

  // Starts an event (a draw or a resolve): returns its index.
  uint64_t BeginEvent() { return event_++; }
  void set_frame(uint64_t frame) { frame_ = frame; }
  uint64_t frame() const { return frame_; }

  // Claims the tiles of the used targets of one event (clamped to the next used target's base
  // and to the EDRAM), calls `move` for every range that changed owner and logs it. `bound` are
  // all targets bound (used or not), for the naive counter. `trigger`: "draw", "resolve",
  // "resolve clear".
  void Use(uint64_t event, std::vector<EdramUse> uses, const std::vector<EdramUse>& bound,
           const std::string& trigger, const Mover& move);

  // An EDRAM snapshot record replaced the whole EDRAM: every tile is owned by the neutral
  // snapshot owner (OwnerKey::Snapshot), whatever owned it before (its data is overwritten, so
  // nothing moves out), and the next use of a tile moves the snapshot's bits into its layout.
  // Logged as a claim of all 2048 tiles by the next event index (no event is consumed).
  void RestoreSnapshot();

  const std::vector<EdramLogEntry>& log() const { return log_; }
  const std::vector<EdramClaim>& claims() const { return claims_; }
  const edram::NaiveCacheModel& naive() const { return naive_; }
  const edram::OwnershipMap& ownership() const { return map_; }
  uint64_t events() const { return event_; }
  uint64_t guessed_extents() const { return guessed_; }

 private:
  edram::OwnershipMap map_;
  edram::NaiveCacheModel naive_;
  std::vector<EdramLogEntry> log_;
  std::vector<EdramClaim> claims_;
  size_t runs_from_ = 0;  // claims before this index end their runs (see AddClaim)
  void AddClaim(EdramClaim claim);
  uint64_t event_ = 0, frame_ = 0, guessed_ = 0;
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

}  // namespace xnt::gpu
