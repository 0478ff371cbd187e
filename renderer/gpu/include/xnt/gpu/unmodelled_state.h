// Draw state that the hardware honours and no render path models yet, named so that a replay
// says so at run time (each path notes every string, counted per draw it draws) instead of
// drawing as if it were off. Backend-free: every path asks the same question of the same
// registers.
#pragma once

#include <string>
#include <vector>

#include "xnt/gpu/register_values.h"

namespace xnt::gpu {

// What the draw's registers ask for that is not implemented:
//  - user clip planes: PA_CL_CLIP_CNTL ucp_ena with clipping on (the planes PA_CL_UCP_n_X..W;
//    Xenia clips against them in the host vertex shader, draw_util / the SPIR-V translator's
//    user_clip_planes); primitives are not clipped against them.
std::vector<std::string> UnmodelledStateNotes(RegisterValues regs);

}  // namespace xnt::gpu
