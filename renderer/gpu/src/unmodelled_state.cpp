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
  return notes;
}

}  // namespace xnt::gpu
