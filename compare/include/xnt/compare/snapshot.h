// Per-draw snapshots of the targets a draw or resolve writes, read through a session's EDRAM in
// guest bits (renderer::Session::SnapshotEdram), so two paths compare bit for bit whatever host
// formats they use. compare's bisection hashes them; `replay --snapshots` writes them as PNGs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xnt/diff/image.h"
#include "xnt/gpu/edram.h"
#include "xnt/renderer/session.h"

namespace xnt::compare {

struct TargetRegion {
  gpu::edram::Surface surface;
  uint32_t rows = 0;        // pixel rows [0, rows) the event may touch (scissor / estimate)
  std::string Describe() const;  // "colour 0 k_8_8_8_8 base 0 pitch 64 (1 tiles) 1x, 32 rows"
  std::string name;              // "colour0", "depth"
};

// What an event writes, from its registers: a draw's colour targets whose pixel shader writes
// them and RB_COLOR_MASK lets bits through (edram_mode colour+depth), its depth target when the
// depth or stencil test is on; a resolve's source and cleared targets. Empty for an event that
// writes no EDRAM.
std::vector<TargetRegion> EventTargets(const renderer::DrawEvent& event);

// XXH3-64 of the EDRAM bytes of every region's tiles as the session holds them now.
uint64_t HashTargets(renderer::Session& session, const std::vector<TargetRegion>& regions);

// The region as an image: colour through its format's decoding (gpu::edram::UnpackColor, clamped
// to 0..1, 8-bit), depth as grey, sample 0 of MSAA; at most 2048 rows.
// `raw`, when given, receives each pixel's guest bits (sample 0), row-major.
diff::OwnedImage TargetImage(renderer::Session& session, const TargetRegion& region,
                             std::vector<uint64_t>* raw = nullptr);

// "F.K[,F.K...]" or "all" (every draw). Throws xnt::Error.
struct SnapshotSelection {
  bool all = false;
  std::vector<renderer::DrawId> draws;
  bool Contains(uint64_t frame, uint32_t draw) const;
};
SnapshotSelection ParseSnapshotSelection(const std::string& text);

}  // namespace xnt::compare
