// The counters every render path keeps, whatever it draws with: a path's own stats struct
// extends this one, so sessions, benches and tests read the four the same way on cpu, fbo and fsi.
#pragma once

#include <cstdint>

namespace xnt::gpu {

struct PathStats {
  uint64_t draws = 0;          // drawn (recorded on the device, or rasterized on the CPU)
  uint64_t draws_skipped = 0;  // nothing to draw or not drawable (the reason is in the notes)
  uint64_t resolves = 0;
  uint64_t swaps = 0;
};

}  // namespace xnt::gpu
