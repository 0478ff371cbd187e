// The vertex index the sequencer hands the vertex shader (r0.x) from the index the VGT read or
// generated: VGT_INDX_OFFSET added, the sum cut to the VGT's 24 index bits, then clamped to
// [VGT_MIN_VTX_INDX, VGT_MAX_VTX_INDX] (Xenia dxbc_shader_translator.cc
// RemapAndConvertVertexIndices: add, mask, unsigned max with the minimum, unsigned min with the
// maximum; the mask before or after the add gives the same low 24 bits). Primitive reset compares
// the index as read, before any of this (Xenia primitive_processor.cc), and auto-generated
// indices go through the same rule. Applied once, where the primitive processor builds the host
// index list, so every path shades the same guest vertex for the same host index.
#pragma once

#include <cstdint>

#include "xnt/gpu/register_values.h"
#include "xnt/xenos/enums.h"

namespace xnt::gpu {

struct VertexIndexRule {
  uint32_t offset = 0;                        // VGT_INDX_OFFSET (two's complement in 32 bits)
  uint32_t min_index = 0;                     // VGT_MIN_VTX_INDX min_indx (24 bits)
  uint32_t max_index = xenos::kVertexIndexMask;  // VGT_MAX_VTX_INDX max_indx (24 bits)

  uint32_t Apply(uint32_t index) const;
  bool identity() const {
    return offset == 0 && min_index == 0 && max_index == xenos::kVertexIndexMask;
  }
};

// The draw's rule from its registers. VGT_MIN_VTX_INDX and VGT_MAX_VTX_INDX both 0 is a trace
// that never programmed them (Direct3D writes 0 / 0xFFFFFF when it creates the device; a real 0 /
// 0 would collapse every primitive onto vertex 0, which no title draws): that pair does not
// clamp, the offset still applies.
VertexIndexRule ReadVertexIndexRule(RegisterValues regs);

}  // namespace xnt::gpu
