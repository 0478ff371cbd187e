// The pixel history recorder's bookkeeping (see pixel_watch.h).
#include "xnt/cpu/pixel_watch.h"

#include <algorithm>

#include "xnt/base/error.h"

namespace xnt::cpu {

uint32_t PixelWatch::Add(const gpu::edram::Surface& surface, uint32_t x, uint32_t y,
                         uint32_t sample) {
  WatchedSample w;
  w.surface = surface;
  w.host_x = x, w.host_y = y, w.sample = sample;
  w.offset = surface.SampleOffset(x, y, sample);  // throws outside the pitch or the samples
  const uint32_t index = uint32_t(samples_.size());
  samples_.push_back(w);
  by_offset_[w.offset].push_back(index);
  return index;
}

void PixelWatch::RecordResolve(WatchRecord record, WatchResolve resolve) {
  record.kind = WatchEventKind::kResolve;
  resolve_parts_.push_back({records_.size(), std::move(resolve)});
  records_.push_back(std::move(record));
}

const WatchResolve* PixelWatch::ResolveOf(size_t record) const {
  const auto it = std::lower_bound(resolve_parts_.begin(), resolve_parts_.end(), record,
                                   [](const auto& part, size_t r) { return part.first < r; });
  return it != resolve_parts_.end() && it->first == record ? &it->second : nullptr;
}

void PixelWatch::SeeSurface(const gpu::edram::Surface& surface, uint32_t rows) {
  if (!recording()) return;
  for (UsedSurface& u : surfaces_) {
    const gpu::edram::Surface& s = u.surface;
    if (s.base_tiles == surface.base_tiles && s.pitch_pixels == surface.pitch_pixels &&
        s.msaa == surface.msaa && s.is_depth == surface.is_depth && s.format == surface.format) {
      u.rows = std::max(u.rows, rows);
      return;
    }
  }
  surfaces_.push_back({surface, rows});
}

}  // namespace xnt::cpu
