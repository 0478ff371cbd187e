// EDRAM ownership claims and the transfer log (see edram_tracker.h).
#include "xnt/gpu/edram_tracker.h"

#include <algorithm>

#include "xnt/gpu/viewport.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

namespace {
constexpr uint32_t kTiles = xenos::kEdramTileCount;
}  // namespace

EdramEventTargets EdramTargetsForDraw(RegisterValues regs, const bool color_used[4],
                                      bool depth_used, const DrawRowsEstimate& estimate_rows) {
  EdramEventTargets out;
  auto surface_info = xenos::reg::RB_SURFACE_INFO::Decode(RegisterValue(regs, xenos::Reg::RB_SURFACE_INFO));
  if (surface_info.surface_pitch == 0) return out;
  std::optional<std::optional<uint32_t>> estimated;
  auto extent = [&](edram::Surface s) {
    EdramUse use;
    use.surface = s;
    // A scissor may bound the draw anywhere in the whole EDRAM: rows past tile 2047 wrap to tile
    // 0 (Xenia #2031). A draw with nothing bounding it is taken to reach the EDRAM end only.
    const uint32_t wrap_limit = s.RowsInEdram(8192);
    const uint32_t limit = s.RowsToEdramEnd(8192);
    Viewport vp = ComputeViewport(regs, s.pitch_pixels, std::max(wrap_limit, 1u));
    uint32_t bottom = uint32_t(vp.scissor.offset.y) + vp.scissor.extent.height;
    use.rows = std::min(bottom, wrap_limit);
    use.rows_guessed = bottom >= wrap_limit;
    if (use.rows_guessed) use.rows = std::min(bottom, limit);
    // The CPU estimate only for a scissor open to the 8192-row limit (D3D sets the scissor from
    // the viewport, so this is rare), not when the EDRAM size is what cuts the scissor short.
    if (use.rows_guessed && estimate_rows) {
      Viewport open = ComputeViewport(regs, s.pitch_pixels, 8192);
      if (uint32_t(open.scissor.offset.y) + open.scissor.extent.height < 8192) return use;
      if (!estimated) estimated = estimate_rows();  // once per draw
      if (*estimated) {
        use.rows = std::min(**estimated, limit);
        use.rows_guessed = false;
        use.rows_estimated = true;
      }
    }
    return use;
  };
  auto mode = xenos::ModeControl(RegisterValue(regs, xenos::Reg::RB_MODECONTROL) & 7);
  auto color_mask = xenos::reg::RB_COLOR_MASK{RegisterValue(regs, xenos::Reg::RB_COLOR_MASK)};
  for (uint32_t i = 0; i < 4; ++i) {
    auto info = xenos::reg::RB_COLOR_INFO::Decode(RegisterValue(regs, xenos::kColorInfoRegs[i]));
    edram::Surface s;
    s.base_tiles = info.color_base;
    s.pitch_pixels = surface_info.surface_pitch;
    s.msaa = surface_info.msaa_samples;
    s.format = uint32_t(info.color_format);
    EdramUse use = extent(s);
    // Bound = enabled in RB_COLOR_MASK (a slot with a zero mask is not a binding).
    if (mode == xenos::ModeControl::kColorDepth && color_mask.rt_mask(i)) out.bound.push_back(use);
    if (color_used[i]) out.used.push_back(use);
  }
  auto depth = xenos::reg::RB_DEPTH_INFO::Decode(RegisterValue(regs, xenos::Reg::RB_DEPTH_INFO));
  edram::Surface d;
  d.base_tiles = depth.depth_base;
  d.pitch_pixels = surface_info.surface_pitch;
  d.msaa = surface_info.msaa_samples;
  d.is_depth = true;
  d.format = uint32_t(depth.depth_format);
  EdramUse use = extent(d);
  out.bound.push_back(use);
  if (depth_used) out.used.push_back(use);
  return out;
}

EdramEventTargets EdramTargetsForResolve(const ResolveInfo& info) {
  EdramEventTargets out;
  if (info.surface_pitch == 0 || info.empty()) return out;
  auto make = [&](bool depth) {
    EdramUse use;
    use.surface.base_tiles = depth ? info.depth_base : info.color_base;
    use.surface.pitch_pixels = info.surface_pitch;
    use.surface.msaa = xenos::MsaaSamples(std::min(info.msaa_samples, 2u));
    use.surface.is_depth = depth;
    use.surface.format = depth ? info.depth_format : info.color_format;
    use.rows = uint32_t(info.y1);
    return use;
  };
  bool color = (info.copy && info.source_select < 4) || (info.color_clear && info.source_select < 4);
  bool depth = (info.copy && info.source_select == 4) || info.depth_clear;
  if (color) out.used.push_back(make(false));
  if (depth) out.used.push_back(make(true));
  out.bound = out.used;
  return out;
}

void EdramTracker::RestoreSnapshot() {
  const edram::OwnerKey key = edram::OwnerKey::Snapshot();
  map_.Reset();
  map_.ChangeOwnership(key, 0, kTiles);  // from never-owned tiles: nothing to move
  claims_.push_back({event_, frame_, event_, 1, 0, kTiles, key, false, "EDRAM snapshot"});
  runs_from_ = claims_.size();  // it shares its event index with the next use: no run crosses it
}

void EdramTracker::AddClaim(EdramClaim claim) {
  // The claims of the previous event are among the last few (an event claims at most its four
  // colour targets and depth); one of them equal to this one but for the event extends its run.
  // A snapshot claim shares the next event's index, so no run continues across it.
  const size_t scan = std::min<size_t>(claims_.size() - runs_from_, 10);
  for (size_t i = claims_.size() - scan; i < claims_.size(); ++i) {
    EdramClaim& c = claims_[i];
    if (c.last_event + 1 == claim.event && c.frame == claim.frame &&
        c.start_tile == claim.start_tile && c.tiles == claim.tiles && c.owner == claim.owner &&
        c.guessed == claim.guessed && c.trigger == claim.trigger) {
      c.last_event = claim.event;
      ++c.count;
      return;
    }
  }
  claims_.push_back(std::move(claim));
}

void EdramTracker::Use(uint64_t event, std::vector<EdramUse> uses,
                       const std::vector<EdramUse>& bound, const std::string& trigger,
                       const Mover& move) {
  // Extents: rows -> tiles, clamped to the next used target's base (a target cannot extend into
  // the one the game placed after it in the same pass) and to the whole EDRAM.
  std::vector<uint32_t> tiles(uses.size());
  for (size_t i = 0; i < uses.size(); ++i) {
    const edram::Surface& s = uses[i].surface;
    tiles[i] = s.TilesForRows(uses[i].rows);
    for (size_t j = 0; j < uses.size(); ++j) {
      uint32_t a = s.base_tiles % kTiles, b = uses[j].surface.base_tiles % kTiles;
      if (b > a) tiles[i] = std::min(tiles[i], b - a);
    }
  }
  std::vector<std::pair<edram::OwnerKey, uint32_t>> naive;
  for (auto& b : bound) {
    naive.emplace_back(edram::OwnerKey::From(b.surface), b.surface.TilesForRows(b.rows));
  }
  naive_.OnBindings(naive);

  for (size_t i = 0; i < uses.size(); ++i) {
    if (tiles[i] == 0) continue;
    edram::OwnerKey key = edram::OwnerKey::From(uses[i].surface);
    if (uses[i].rows_guessed) ++guessed_;
    AddClaim({event, frame_, event, 1, key.base_tiles, tiles[i], key, uses[i].rows_guessed, trigger});
    auto transfers = map_.ChangeOwnership(key, key.base_tiles, tiles[i]);
    for (auto& t : transfers) {
      t.draw_index = event;
      t.trigger = trigger;
      EdramLogEntry entry;
      entry.transfer = t;
      entry.frame = frame_;
      if (uses[i].rows_guessed) entry.note = "extent guessed (no viewport/scissor bound); ";
      if (uses[i].rows_estimated) entry.note = "extent from the vertex shader run on the CPU; ";
      move(t, entry);
      log_.push_back(std::move(entry));
    }
  }
}

}  // namespace xnt::gpu
