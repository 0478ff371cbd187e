// Per-draw target snapshots in guest bits (snapshot.h).
#include "xnt/compare/snapshot.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>

#include "xnt/base/error.h"
#include "xnt/gpu/edram_tracker.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/gpu/resolve.h"
#include "xnt/replay/backend.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/xenos/registers.h"

namespace xnt::compare {
namespace {

using xenos::Reg;

// Larger extents are guesses (no scissor, no estimate): the hash still covers them, an image
// this tall would only show stale EDRAM.
constexpr uint32_t kMaxImageRows = 2048;

uint32_t R(gpu::RegisterValues regs, Reg r) {
  const uint32_t i = xenos::RegIndex(r);
  return i < regs.size() ? regs[i] : 0u;
}

std::vector<TargetRegion> FromUses(const std::vector<gpu::EdramUse>& uses) {
  std::vector<TargetRegion> out;
  uint32_t colour = 0;
  for (const gpu::EdramUse& u : uses) {
    TargetRegion t;
    t.surface = u.surface;
    t.rows = u.rows;
    t.name = u.surface.is_depth ? "depth" : "colour" + std::to_string(colour++);
    out.push_back(t);
  }
  return out;
}

}  // namespace

std::string TargetRegion::Describe() const {
  return name + " " + surface.Describe() + ", " + std::to_string(rows) + " rows";
}

std::vector<TargetRegion> EventTargets(const renderer::DrawEvent& event) {
  const replay::DrawCall& call = *event.draw;
  const gpu::RegisterValues regs = call.registers->values();
  if (event.resolve) {
    // ComputeResolveInfo reads guest memory only to describe the destination; the session's
    // memory is the player's, so the const view is enough for that read.
    auto& memory = const_cast<replay::GuestMemory&>(*call.memory);
    const gpu::ResolveInfo info = gpu::ComputeResolveInfo(regs, gpu::GuestAccessOf(memory));
    if (info.empty() || info.surface_pitch == 0) return {};
    return FromUses(gpu::EdramTargetsForResolve(info).used);
  }
  const auto mode = xenos::ModeControl(R(regs, Reg::RB_MODECONTROL) & 7);
  if (mode != xenos::ModeControl::kColorDepth && mode != xenos::ModeControl::kDepth) return {};
  const auto surface = xenos::reg::RB_SURFACE_INFO::Decode(R(regs, Reg::RB_SURFACE_INFO));
  if (surface.surface_pitch == 0) return {};
  bool color_used[4] = {};
  const ucode::DecodedShader* ps =
      call.pixel_shader && call.pixel_shader->decoded && call.pixel_shader->decoded->ok()
          ? call.pixel_shader->decoded.get()
          : nullptr;
  const auto color_mask = xenos::reg::RB_COLOR_MASK::Decode(R(regs, Reg::RB_COLOR_MASK));
  if (mode == xenos::ModeControl::kColorDepth && ps) {
    for (uint32_t i = 0; i < 4; ++i) {
      color_used[i] = (ps->analysis.color_mask & (1u << i)) && color_mask.rt_mask(i);
    }
  }
  const auto depth_control = xenos::reg::RB_DEPTHCONTROL::Decode(R(regs, Reg::RB_DEPTHCONTROL));
  const bool depth_used = depth_control.z_enable || depth_control.stencil_enable;
  // No geometry estimate: the scissor bounds the rows, else the rest of the EDRAM (both paths
  // see the same registers, so they hash the same tiles).
  return FromUses(gpu::EdramTargetsForDraw(regs, color_used, depth_used).used);
}

uint64_t HashTargets(renderer::Session& session, const std::vector<TargetRegion>& regions) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  for (const TargetRegion& t : regions) {
    const gpu::edram::Edram& edram = session.SnapshotEdram(t.surface, t.rows);
    const uint32_t tiles = std::min<uint32_t>(t.surface.TilesForRows(t.rows), xenos::kEdramTileCount);
    const std::vector<uint8_t>& bytes = edram.bytes();
    for (uint32_t i = 0; i < tiles; ++i) {
      const uint32_t tile = (t.surface.base_tiles + i) % xenos::kEdramTileCount;
      XXH3_64bits_update(state, bytes.data() + size_t(tile) * gpu::edram::kTileBytes,
                         gpu::edram::kTileBytes);
    }
  }
  const uint64_t h = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return h;
}

diff::OwnedImage TargetImage(renderer::Session& session, const TargetRegion& t,
                             std::vector<uint64_t>* raw) {
  const gpu::edram::Edram& edram = session.SnapshotEdram(t.surface, t.rows);
  const uint32_t width = std::max<uint32_t>(1, t.surface.pitch_pixels);
  const uint32_t height =
      std::max<uint32_t>(1, std::min(t.surface.RowsInEdram(t.rows), kMaxImageRows));
  diff::OwnedImage image(int(width), int(height), 4, diff::PixelType::kU8);
  if (raw) raw->assign(size_t(width) * height, 0);
  auto to8 = [](float v) {
    if (!(v > 0)) return uint8_t(0);
    if (v >= 1) return uint8_t(255);
    return uint8_t(std::lround(v * 255.0f));
  };
  for (uint32_t y = 0; y < height; ++y) {
    uint8_t* row = image.MutableRow(int(y));
    for (uint32_t x = 0; x < width; ++x) {
      const uint64_t bits = edram.Load(t.surface, x, y, 0);
      if (raw) (*raw)[size_t(y) * width + x] = bits;
      uint8_t* p = row + size_t(x) * 4;
      if (t.surface.is_depth) {
        const float d = gpu::edram::UnpackDepth(xenos::DepthRenderTargetFormat(t.surface.format),
                                                uint32_t(bits));
        p[0] = p[1] = p[2] = to8(d);
        p[3] = 255;
      } else {
        const auto c = gpu::edram::UnpackColor(xenos::ColorRenderTargetFormat(t.surface.format), bits);
        for (int k = 0; k < 4; ++k) p[k] = to8(c[size_t(k)]);
      }
    }
  }
  return image;
}

bool SnapshotSelection::Contains(uint64_t frame, uint32_t draw) const {
  if (all) return true;
  return std::find(draws.begin(), draws.end(), renderer::DrawId{frame, draw}) != draws.end();
}

SnapshotSelection ParseSnapshotSelection(const std::string& text) {
  SnapshotSelection s;
  if (text == "all") {
    s.all = true;
    return s;
  }
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t dot = item.find('.');
    auto digits = [](const std::string& d) {
      return !d.empty() && d.size() <= 9 && d.find_first_not_of("0123456789") == std::string::npos;
    };
    if (dot == std::string::npos || !digits(item.substr(0, dot)) || !digits(item.substr(dot + 1))) {
      throw Error("--snapshots: '" + item + "' is not F.K (frame.draw, as `xenotrace dump` numbers them) or all");
    }
    s.draws.push_back({std::stoull(item.substr(0, dot)), uint32_t(std::stoul(item.substr(dot + 1)))});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return s;
}

}  // namespace xnt::compare
