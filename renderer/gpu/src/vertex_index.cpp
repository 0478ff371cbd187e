// The sequencer's vertex index rule (see vertex_index.h).
#include "xnt/gpu/vertex_index.h"

#include <algorithm>

#include "xnt/xenos/registers.h"

namespace xnt::gpu {

uint32_t VertexIndexRule::Apply(uint32_t index) const {
  // Unsigned throughout: a negative offset wraps within the 24 bits, as the VGT's adder does.
  const uint32_t sum = (index + offset) & xenos::kVertexIndexMask;
  return std::min(std::max(sum, min_index), max_index);
}

VertexIndexRule ReadVertexIndexRule(RegisterValues regs) {
  VertexIndexRule rule;
  rule.offset = RegisterValue(regs, xenos::Reg::VGT_INDX_OFFSET);
  const uint32_t min_index = RegisterValue(regs, xenos::Reg::VGT_MIN_VTX_INDX) & xenos::kVertexIndexMask;
  const uint32_t max_index = RegisterValue(regs, xenos::Reg::VGT_MAX_VTX_INDX) & xenos::kVertexIndexMask;
  if (min_index != 0 || max_index != 0) {
    rule.min_index = min_index;
    rule.max_index = max_index;
  }
  return rule;
}

}  // namespace xnt::gpu
