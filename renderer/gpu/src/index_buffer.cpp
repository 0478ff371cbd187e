// Reading a draw's indices once (see index_buffer.h).
#include "xnt/gpu/index_buffer.h"

#include "xnt/base/error.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

std::string TessellatedDrawNote(const replay::DrawCall& call) {
  if (!IsTessellated(call)) return "";
  const replay::RegisterFile& regs = *call.registers;
  const uint32_t type = uint32_t(call.initiator.prim_type);
  const auto mode = regs.Decode<xenos::reg::VGT_HOS_CNTL>().tess_mode;
  static const char* const kModes[] = {"discrete", "continuous", "adaptive", "3"};
  static const char* const kPatches[] = {"line_patch", "triangle_patch", "quad_patch"};
  using xenos::PrimitiveType;
  const PrimitiveType t = call.initiator.prim_type;
  const bool control_points =
      t == PrimitiveType::kTriangleList || t == PrimitiveType::kTriangleStrip ||
      t == PrimitiveType::kTriangleFan || t == PrimitiveType::kQuadList ||
      t == PrimitiveType::kQuadStrip;
  const std::string patch =
      type >= 0x10 && type <= 0x12
          ? kPatches[type - 0x10]
          : std::string(xenos::PrimitiveTypeName(type)) +
                (control_points ? " of control points" : " (not a patch type)");
  const uint32_t n = call.initiator.num_indices;
  const std::string count = mode == xenos::TessellationMode::kAdaptive
                                ? " float32 edge factors in the index buffer)"
                            : control_points ? " control points)"
                                             : " patches)";
  return "tessellated draw read as a primitive stream (VGT_OUTPUT_PATH_CNTL tessellation, "
         "VGT_HOS_CNTL tess_mode " + std::string(kModes[uint32_t(mode) & 3]) + ", " + patch +
         ", " + std::to_string(n) + count;
}

PrimitiveDraw ReadPrimitiveDraw(const replay::DrawCall& call, std::vector<uint8_t>& scratch) {
  if (const std::string t = TessellatedDrawNote(call); !t.empty()) throw Error(t);
  return ReadDrawStream(call, scratch);
}

bool IsTessellated(const replay::DrawCall& call) {
  if (!call.registers) return false;
  const auto path = call.registers->Decode<xenos::reg::VGT_OUTPUT_PATH_CNTL>().path_select;
  const bool explicit_major = call.initiator.major_mode != xenos::MajorMode::kImplicit ||
                              uint32_t(call.initiator.prim_type) >= 0x10;
  return path == xenos::VGTOutputPath::kTessellationEnable && explicit_major;
}

PrimitiveDraw ReadDrawStream(const replay::DrawCall& call, std::vector<uint8_t>& scratch) {
  PrimitiveDraw prim;
  prim.type = call.initiator.prim_type;
  prim.vertex_count = call.initiator.num_indices;
  if (call.registers) {
    const replay::RegisterFile& regs = *call.registers;
    prim.reset_enable = regs.Decode<xenos::reg::PA_SU_SC_MODE_CNTL>().multi_prim_ib_ena;
    prim.reset_index = regs.Get(xenos::Reg::VGT_MULTI_PRIM_IB_RESET_INDX);
    prim.vertex_index = ReadVertexIndexRule(regs.values());
  }
  prim.index_format = call.indices.format;
  switch (call.indices.source) {
    case xenos::SourceSelect::kAutoIndex:
      prim.indexed = false;
      break;
    case xenos::SourceSelect::kDma:
      if (!call.memory) throw Error("DMA index buffer without guest memory");
      prim.indexed = true;
      prim.index_endian = call.indices.endian;
      scratch.resize(call.indices.size_bytes);
      call.memory->Read(call.indices.guest_address, scratch);
      prim.index_bytes = scratch;
      break;
    case xenos::SourceSelect::kImmediate:
      prim.indexed = true;
      prim.index_endian = xenos::Endian::kNone;
      scratch.resize(call.indices.immediate.size() * 4);
      for (size_t i = 0; i < call.indices.immediate.size(); ++i) {
        const uint32_t w = call.indices.immediate[i];
        for (int b = 0; b < 4; ++b) scratch[i * 4 + size_t(b)] = uint8_t(w >> (8 * b));
      }
      prim.index_bytes = scratch;
      break;
  }
  return prim;
}

}  // namespace xnt::gpu
