// The memexport stream constants a draw's shader can use (backend.h FindMemExportStreams).
#include <algorithm>

#include "xnt/replay/backend.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/memexport.h"
#include "xnt/xenos/registers.h"

namespace xnt::replay {

uint64_t MemExportCall::ByteSize() const {
  const uint64_t bytes = ucode::memexport::ElementBytes(uint32_t(stream.format));
  const uint64_t base = stream.base_address_bytes();
  return std::min<uint64_t>(uint64_t(stream.index_count) * bytes, (uint64_t(1) << 32) - base);
}

std::vector<MemExportCall> FindMemExportStreams(const DrawCall& draw, const Shader& shader) {
  std::vector<MemExportCall> calls;
  if (!shader.uses_memexport || !draw.registers) return calls;
  const RegisterFile& regs = *draw.registers;
  for (uint32_t c = 0; c < 256; ++c) {
    if (!((shader.float_constants_read[c / 64] >> (c % 64)) & 1u)) continue;
    // The stream constant is addressed in the shader's constant space: a pixel shader's c# is
    // offset by SQ_PS_CONST base, a vertex shader's by SQ_VS_CONST base (in vec4s).
    const auto partition = xenos::reg::SQ_CONST_PARTITION::Decode(regs.Get(
        shader.type == xenos::ShaderType::kPixel ? xenos::Reg::SQ_PS_CONST
                                                 : xenos::Reg::SQ_VS_CONST));
    const uint32_t vec4 = (partition.base + c) & 511;
    const uint32_t* d = &regs.values()[xenos::AluConstantIndex(vec4, 0)];
    const auto stream = xenos::MemExportStreamConstant::Decode(d);
    // The rule the shaders apply to eA (ucode::memexport::AddressValid: the X marker and the
    // 2^23 exponents of Y, Z and W), not MemExportStreamConstant::LooksValid: a stream constant
    // whose Y carries a first index (2^23 + i) exports on both paths, so its range must be
    // mirrored and read back too (the randomized fbo/cpu test found those exports missing).
    if (!ucode::memexport::AddressValid(d)) continue;
    MemExportCall call;
    call.draw = &draw;
    call.shader = &shader;
    call.stream_constant = c;
    call.stream = stream;
    calls.push_back(call);
  }
  return calls;
}

}  // namespace xnt::replay
