// Draw state no path models yet (see unmodelled_state.h).
#include "xnt/gpu/unmodelled_state.h"

#include <cstdio>

#include "xnt/xenos/registers.h"

namespace xnt::gpu {

using xenos::Reg;

std::vector<std::string> UnmodelledStateNotes(RegisterValues regs) {
  std::vector<std::string> notes;
  const auto clip = xenos::reg::PA_CL_CLIP_CNTL::Decode(RegisterValue(regs, Reg::PA_CL_CLIP_CNTL));
  if (clip.ucp_ena && !clip.clip_disable) {
    char text[160];
    std::snprintf(text, sizeof(text),
                  "user clip planes (PA_CL_CLIP_CNTL ucp_ena 0x%02X) not implemented: primitives "
                  "are not clipped against them",
                  clip.ucp_ena);
    notes.emplace_back(text);
  }
  // 24-bit fields (Xenia VGT_MIN_VTX_INDX / VGT_MAX_VTX_INDX min_indx / max_indx).
  const uint32_t min_index = RegisterValue(regs, Reg::VGT_MIN_VTX_INDX) & 0xFFFFFFu;
  const uint32_t max_index = RegisterValue(regs, Reg::VGT_MAX_VTX_INDX) & 0xFFFFFFu;
  // Both 0 is a trace that never programmed them (the hardware would clamp every index to 0,
  // which no title draws with): not noted.
  if ((min_index != 0 || max_index != 0xFFFFFFu) && (min_index != 0 || max_index != 0)) {
    char text[160];
    std::snprintf(text, sizeof(text),
                  "vertex index clamp (VGT_MIN_VTX_INDX %u, VGT_MAX_VTX_INDX %u) not implemented: "
                  "indices are used unclamped",
                  min_index, max_index);
    notes.emplace_back(text);
  }
  return notes;
}

}  // namespace xnt::gpu
