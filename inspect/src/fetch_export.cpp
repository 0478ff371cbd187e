// The vertex and index fetch panel. A vertex element is read as the sequencer's vertex fetch
// reads it (ucode/src/interpreter.cpp Machine::VertexFetch): the fetch constant's base plus
// stride x index plus the instruction's offset, in dwords; dwords outside the constant's size read
// as zero; each dword swapped by the constant's endian mode, then decoded in the instruction's
// format (ucode::DecodeVertexElement). The index is the one the shader sees: the guest index
// after VGT_INDX_OFFSET and the min/max clamp (gpu/vertex_index.h), resets dropped.
#include <cstdio>

#include "site_internal.h"
#include "xnt/base/error.h"
#include "xnt/gpu/index_buffer.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/xenos/enums.h"

namespace xnt::inspect {
namespace {

std::string Hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

// The draw's vertex indices in draw order (auto-indexed draws: 0, 1, 2, ... through the rule),
// or an error text for a draw whose indices cannot be read.
std::vector<uint32_t> FirstIndices(const replay::DrawCall& draw, uint32_t rows, std::string& error) {
  std::vector<uint32_t> indices;
  if (!draw.memory || !draw.registers) return indices;
  try {
    std::vector<uint8_t> scratch;
    const gpu::PrimitiveDraw prims = gpu::ReadPrimitiveDraw(draw, scratch);
    if (!gpu::ReadVertexIndices(prims, indices)) error = "the index buffer is shorter than the draw";
  } catch (const Error& e) {
    error = e.what();
  }
  if (indices.size() > rows) indices.resize(rows);
  return indices;
}

Json VertexElement(const replay::DrawCall& draw, const ucode::FetchInstruction& f,
                   uint32_t constant, uint32_t index) {
  const replay::RegisterFile& regs = *draw.registers;
  const xenos::VertexFetchConstant vc = regs.VertexFetch(constant);
  const uint32_t element = vc.address_dwords + f.stride * index + uint32_t(f.offset);
  uint32_t words[4] = {};
  Json raw = Json::array();
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t address = element + i;
    if (address >= vc.address_dwords && address - vc.address_dwords < vc.size_dwords &&
        replay::GuestMemory::InRange(address << 2, 4)) {
      words[i] = ucode::EndianSwap32(draw.memory->LoadLE32(address << 2), uint32_t(vc.endian));
    }
    raw.push_back(Hex(words[i]));
  }
  const ucode::Float4 v = ucode::DecodeVertexElement(words, f.format, f.is_signed, !f.is_integer,
                                                     f.signed_rf_mode, f.exp_adjust);
  return Json::array({index, raw, Json::array({v[0], v[1], v[2], v[3]})});
}

}  // namespace

Json VertexFetchJson(const replay::DrawCall& draw, uint32_t rows) {
  Json out = Json::array();
  const replay::Shader* vs = draw.vertex_shader;
  if (!vs || !vs->decoded || !vs->decoded->decodes() || !draw.registers) return out;
  std::string error;
  const std::vector<uint32_t> indices = FirstIndices(draw, rows, error);
  uint32_t constant = 0, stride = 0;
  for (const ucode::Instruction& ins : vs->decoded->shader.slots) {
    if (ins.kind != ucode::SlotKind::kFetch || !ins.fetch.IsVertex()) continue;
    const ucode::FetchInstruction& f = ins.fetch;
    // A mini fetch reuses the previous full fetch's constant and stride.
    if (!f.is_mini_fetch) constant = f.VertexFetchConstant() % 96, stride = f.stride;
    ucode::FetchInstruction effective = f;
    effective.stride = stride;
    const xenos::VertexFetchConstant vc = draw.registers->VertexFetch(constant);
    Json fetch;
    fetch["slot"] = ins.slot;
    fetch["constant"] = constant;
    fetch["type"] = uint32_t(vc.type);
    fetch["address"] = Hex(vc.address_bytes());
    fetch["size_bytes"] = uint64_t(vc.size_dwords) * 4;
    fetch["endian"] = xenos::EndianName(vc.endian);
    fetch["format"] = f.format;
    fetch["offset_dwords"] = f.offset;
    fetch["stride_dwords"] = stride;
    fetch["signed"] = f.is_signed;
    fetch["normalized"] = !f.is_integer;
    fetch["exp_adjust"] = f.exp_adjust;
    fetch["mini"] = f.is_mini_fetch;
    Json vertices = Json::array();
    for (uint32_t index : indices) vertices.push_back(VertexElement(draw, effective, constant, index));
    fetch["vertices"] = std::move(vertices);
    if (!error.empty()) fetch["error"] = error;
    out.push_back(std::move(fetch));
  }
  return out;
}

Json IndexJson(const replay::DrawCall& draw, uint32_t rows) {
  Json out;
  const replay::IndexBuffer& ib = draw.indices;
  out["source"] = ib.source == xenos::SourceSelect::kDma         ? "dma"
                  : ib.source == xenos::SourceSelect::kImmediate ? "immediate"
                                                                 : "auto";
  out["format"] = ib.format == xenos::IndexFormat::kInt32 ? "32-bit" : "16-bit";
  if (ib.source == xenos::SourceSelect::kDma) {
    out["address"] = Hex(ib.guest_address);
    out["size_bytes"] = ib.size_bytes;
    out["endian"] = xenos::EndianName(ib.endian);
  }
  std::string error;
  out["indices"] = FirstIndices(draw, rows, error);
  if (!error.empty()) out["error"] = error;
  return out;
}

}  // namespace xnt::inspect
