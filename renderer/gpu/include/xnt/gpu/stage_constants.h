// The constant state each shader stage sees, read from the register file the way the Direct3D
// runtime partitions it: the vertex shader's c0-c255 are ALU constants 0-255 and
// the pixel shader's are 256-511; boolean, loop and fetch constants are shared. The cpu path runs
// both stages on them; the draw-extent estimate and the memory-export replay run the vertex shader.
#pragma once

#include "xnt/replay/register_file.h"
#include "xnt/ucode/interpreter.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

inline ucode::InterpreterConstants StageConstants(const replay::RegisterFile& regs, bool pixel) {
  ucode::InterpreterConstants k;
  const uint32_t base = pixel ? 256 : 0;
  for (uint32_t i = 0; i < 256; ++i) {
    for (uint32_t c = 0; c < 4; ++c) k.float_constants[i][c] = regs.AluConstant(base + i, c);
  }
  for (uint32_t i = 0; i < 8; ++i) k.bool_constants[i] = regs[xenos::kBoolConstantBase + i];
  for (uint32_t i = 0; i < 32; ++i) k.loop_constants[i] = regs[xenos::kLoopConstantBase + i];
  for (uint32_t i = 0; i < 192; ++i) k.fetch_constants[i] = regs[xenos::kFetchConstantBase + i];
  return k;
}

}  // namespace xnt::gpu
