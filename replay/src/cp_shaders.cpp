// Sequencer state loads: shader microcode (IM_LOAD, IM_LOAD_IMMEDIATE) and constants
// (SET_CONSTANT, LOAD_ALU_CONSTANT). Xenia reference: command_processor.cc
// ExecutePacketType3_{IM_LOAD, IM_LOAD_IMMEDIATE, SET_CONSTANT, LOAD_ALU_CONSTANT} and LoadShader.
#include <xxhash.h>

#include "xnt/base/error.h"

#include "cp_format.h"
#include "xnt/base/byte_order.h"
#include "xnt/replay/command_processor.h"

namespace xnt::replay {


void CommandProcessor::SetConstant(uint32_t packet_address, std::span<const uint32_t> p) {
  // offset_type: index in bits 10:0, type in bits 23:16; the index is relative to the type's base.
  const uint32_t index = p[0] & 0x7FFu;
  const uint32_t type = (p[0] >> 16) & 0xFFu;
  if (type > 4) {
    Report(Severity::kWarning, packet_address,
           Format("SET_CONSTANT with unknown constant type %u; %zu dwords skipped", type,
                  p.size() - 1));
    return;
  }
  WriteRegisters(xenos::ConstantTypeBase(xenos::ConstantType(type)) + index, p.subspan(1),
                 packet_address);
}

void CommandProcessor::LoadAluConstant(uint32_t packet_address, std::span<const uint32_t> p) {
  const uint32_t address = p[0] & 0x3FFFFFFFu;
  const uint32_t index = p[1] & 0x7FFu;
  const uint32_t type = (p[1] >> 16) & 0xFFu;
  const uint32_t size_dwords = p[2] & 0xFFFu;
  if (type > 4) {
    Report(Severity::kWarning, packet_address,
           Format("LOAD_ALU_CONSTANT with unknown constant type %u; ignored", type));
    return;
  }
  const uint32_t physical = PhysicalAddress(address, "LOAD_ALU_CONSTANT");
  std::vector<uint32_t> values(size_dwords);
  if (!ReadGuestArray(physical, values, "LOAD_ALU_CONSTANT")) return;
  WriteRegisters(xenos::ConstantTypeBase(xenos::ConstantType(type)) + index, values,
                 packet_address);
}

void CommandProcessor::ImLoad(std::span<const uint32_t> p) {
  // addr | shader type (bits 1:0), then start << 16 | size in dwords.
  const uint32_t type = p[0] & 3u;
  const uint32_t start = p[1] >> 16;
  const uint32_t size = p[1] & 0xFFFFu;
  if (type > 1) {
    Report(Severity::kWarning, packet_address_,
           Format("IM_LOAD with shader type %u (only 0 vertex, 1 pixel exist); ignored", type));
    return;
  }
  if (start != 0) {
    Report(Severity::kWarning, packet_address_,
           Format("IM_LOAD with start %u; instruction-memory offsets are not modelled, loading "
                  "as if 0",
                  start));
  }
  const uint32_t address = PhysicalAddress(p[0] & ~3u, "IM_LOAD");
  std::vector<uint32_t> dwords(size);
  if (!ReadGuestArray(address, dwords, "IM_LOAD")) return;
  LoadShader(xenos::ShaderType(type), address, false, dwords);
}

void CommandProcessor::ImLoadImmediate(uint32_t payload_address, std::span<const uint32_t> p) {
  const uint32_t type = p[0];
  const uint32_t start = p[1] >> 16;
  const uint32_t size = p[1] & 0xFFFFu;
  if (type > 1) {
    Report(Severity::kWarning, packet_address_,
           Format("IM_LOAD_IMMEDIATE with shader type %u (only 0 vertex, 1 pixel exist); ignored",
                  type));
    return;
  }
  if (size > p.size() - 2) {
    Report(Severity::kError, packet_address_,
           Format("IM_LOAD_IMMEDIATE declares %u microcode dwords but the packet carries %zu; "
                  "ignored",
                  size, p.size() - 2));
    return;
  }
  if (start != 0) {
    Report(Severity::kWarning, packet_address_,
           Format("IM_LOAD_IMMEDIATE with start %u; loading as if 0", start));
  }
  LoadShader(xenos::ShaderType(type), payload_address + 8, true, p.subspan(2, size));
}

// What the draw path needs from the microcode: does it export memory, which constants it reads.
void CommandProcessor::AnalyzeShader(Shader& shader) {
  const auto type = shader.type == xenos::ShaderType::kVertex ? ucode::ShaderType::kVertex
                                                              : ucode::ShaderType::kPixel;
  shader.decoded = decoded_.Get(shader.hash, type, shader.dwords);
  if (!shader.decoded->ok()) {
    shader.analysis_error = shader.decoded->error();
    return;
  }
  const ucode::Analysis& a = shader.decoded->analysis;
  shader.analyzed = true;
  shader.uses_memexport = a.uses_memexport;
  shader.memexport_data_mask = a.memexport_data_mask;
  shader.float_constants_read = a.float_constants;
  if (a.uses_relative_constants) shader.float_constants_read.fill(~uint64_t(0));
}

void CommandProcessor::LoadShader(xenos::ShaderType type, uint32_t address, bool immediate,
                                  std::span<const uint32_t> dwords) {
  // Hash the big-endian bytes, as Xenia does (it hashes guest memory directly), so hashes can be
  // compared with Xenia's shader dumps.
  std::vector<uint32_t> big_endian(dwords.begin(), dwords.end());
  for (uint32_t& d : big_endian) d = ByteSwap32(d);
  const uint64_t hash = XXH3_64bits(big_endian.data(), big_endian.size() * 4);
  const ShaderKey key{hash, address, uint32_t(dwords.size()), uint32_t(type) | (immediate ? 2u : 0u)};
  auto it = shaders_.find(key);
  std::shared_ptr<const Shader> shader;
  if (it != shaders_.end()) {
    shader = it->second;
  } else {
    if (shaders_.size() >= options_.max_cached_shaders) shaders_.clear();  // active ones survive
    auto s = std::make_shared<Shader>();
    s->type = type;
    s->guest_address = address;
    s->immediate = immediate;
    s->hash = hash;
    s->dwords.assign(dwords.begin(), dwords.end());
    AnalyzeShader(*s);
    shader = s;
    shaders_.emplace(key, shader);
  }
  if (type == xenos::ShaderType::kVertex) {
    vertex_shader_ = std::move(shader);
  } else {
    pixel_shader_ = std::move(shader);
  }
}

}  // namespace xnt::replay
