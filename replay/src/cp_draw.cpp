// Draw initiation (the VGT block): DRAW_INDX / DRAW_INDX_2 write VGT_DRAW_INITIATOR (and
// VGT_DMA_BASE / VGT_DMA_SIZE for DMA indices) and start a draw; RB_MODECONTROL decides whether
// the draw renders into EDRAM or is a resolve (edram_mode = copy). Xenia reference:
// command_processor.cc ExecutePacketType3Draw, ExecutePacketType3_DRAW_INDX(_2).
#include "cp_format.h"
#include "xnt/replay/command_processor.h"

namespace xnt::replay {

using xenos::Reg;
using xenos::SourceSelect;

void CommandProcessor::Draw(uint32_t opcode, uint32_t packet_address, uint32_t viz_query,
                            std::span<const uint32_t> p) {
  const char* name = opcode == uint32_t(xenos::Opcode::kDrawIndx) ? "DRAW_INDX" : "DRAW_INDX_2";
  WriteRegister(xenos::RegIndex(Reg::VGT_DRAW_INITIATOR), p[0]);
  const auto initiator = xenos::reg::VGT_DRAW_INITIATOR::Decode(p[0]);
  std::span<const uint32_t> rest = p.subspan(1);

  DrawCall draw;
  draw.frame = frame_;
  draw.offset = offset_;
  draw.packet_address = packet_address;
  draw.opcode = opcode;
  draw.initiator = initiator;
  draw.viz_query_condition = viz_query;
  draw.major_mode_explicit = initiator.major_mode != xenos::MajorMode::kImplicit ||
                             uint32_t(initiator.prim_type) >= 0x10;
  draw.indices.source = initiator.source_select;
  draw.indices.format = initiator.index_size;
  const uint32_t index_bytes = initiator.index_size == xenos::IndexFormat::kInt32 ? 4 : 2;

  switch (initiator.source_select) {
    case SourceSelect::kDma: {
      if (rest.size() < 2) {
        Report(Severity::kError, packet_address,
               Format("%s with DMA indices needs VGT_DMA_BASE and VGT_DMA_SIZE; the packet ends "
                      "early; draw dropped",
                      name));
        return;
      }
      WriteRegister(xenos::RegIndex(Reg::VGT_DMA_BASE), rest[0]);
      WriteRegister(xenos::RegIndex(Reg::VGT_DMA_SIZE), rest[1]);
      const auto dma_size = xenos::reg::VGT_DMA_SIZE::Decode(rest[1]);
      // The base must already be aligned to the index size; align down for safety as Xenia does.
      draw.indices.guest_address = rest[0] & ~(index_bytes - 1);
      draw.indices.size_bytes = dma_size.num_words * index_bytes;
      draw.indices.endian = dma_size.swap_mode;
      if (!GuestMemory::InRange(draw.indices.guest_address, draw.indices.size_bytes)) {
        Report(Severity::kError, draw.indices.guest_address,
               Format("%s index buffer 0x%08X + %u bytes leaves the 512 MiB physical range; draw "
                      "dropped",
                      name, draw.indices.guest_address, draw.indices.size_bytes));
        return;
      }
      if (!memory_.IsRecorded(draw.indices.guest_address, draw.indices.size_bytes)) {
        Report(Severity::kWarning, draw.indices.guest_address,
               Format("%s index buffer 0x%08X + %u bytes was not recorded by the trace", name,
                      draw.indices.guest_address, draw.indices.size_bytes));
      }
      if (uint64_t(initiator.num_indices) * index_bytes > draw.indices.size_bytes) {
        Report(Severity::kWarning, packet_address,
               Format("%s draws %u indices but VGT_DMA_SIZE holds only %u", name,
                      initiator.num_indices, dma_size.num_words));
      }
      break;
    }
    case SourceSelect::kImmediate: {
      draw.indices.immediate = rest;
      const uint64_t needed = (uint64_t(initiator.num_indices) * index_bytes + 3) / 4;
      if (needed > rest.size()) {
        Report(Severity::kWarning, packet_address,
               Format("%s draws %u immediate indices but the packet carries %zu dwords of them",
                      name, initiator.num_indices, rest.size()));
      }
      break;
    }
    case SourceSelect::kAutoIndex:
      break;
    default:
      Report(Severity::kError, packet_address,
             Format("%s with invalid index source select 3; draw dropped", name));
      return;
  }

  // A draw inside a visibility query with kill_pix_post_hi_z only feeds the query; Xenia drops
  // it (and reports every query visible).
  const uint32_t viz = registers_.Get(Reg::PA_SC_VIZ_QUERY);
  if ((viz & 1u) && (viz & 0x80u)) {
    Report(Severity::kInfo, packet_address,
           Format("%s inside a visibility query with kill_pix_post_hi_z: not drawn", name));
    return;
  }

  draw.draw_index = draw_in_frame_++;
  draw.edram_mode = registers_.Decode<xenos::reg::RB_MODECONTROL>().edram_mode;
  draw.registers = &registers_;
  draw.vertex_shader = vertex_shader_.get();
  // In kDepth mode the pixel shader does not run at all (no kill, oDepth, alpha test, colour
  // or memory export): games bind their colour pass's shader, texture fetches and alpha test
  // included, for depth pre-passes in this mode (Xenia xenos.h, the ModeControl::kDepth comment,
  // from 415607E6 and 5454082B; draw_util.cc IsPixelShaderNeededWithRasterization). Every path
  // then draws it as a depth-only draw.
  draw.pixel_shader =
      draw.edram_mode == xenos::ModeControl::kDepth ? nullptr : pixel_shader_.get();
  draw.memory = &memory_;

  if (draw.edram_mode == xenos::ModeControl::kCopy) {
    ResolveCall resolve;
    resolve.draw = draw;
    resolve.copy_control = registers_.Decode<xenos::reg::RB_COPY_CONTROL>();
    resolve.dest_base = registers_.Get(Reg::RB_COPY_DEST_BASE);
    resolve.dest_pitch = registers_.Decode<xenos::reg::RB_COPY_DEST_PITCH>();
    resolve.dest_info = registers_.Decode<xenos::reg::RB_COPY_DEST_INFO>();
    resolve.surface_info = registers_.Decode<xenos::reg::RB_SURFACE_INFO>();
    resolve.depth_clear = registers_.Get(Reg::RB_DEPTH_CLEAR);
    resolve.color_clear = registers_.Get(Reg::RB_COLOR_CLEAR);
    resolve.color_clear_lo = registers_.Get(Reg::RB_COLOR_CLEAR_LO);
    backend_.OnResolve(resolve);
  } else {
    backend_.OnDraw(draw);
    ReportMemExports(draw, draw.vertex_shader);
    ReportMemExports(draw, draw.pixel_shader);
  }
}

void CommandProcessor::ReportMemExports(const DrawCall& draw, const Shader* shader) {
  if (!shader || !shader->uses_memexport) return;
  const std::vector<MemExportCall> calls = FindMemExportStreams(draw, *shader);
  for (const MemExportCall& call : calls) backend_.OnMemExport(call);
  if (calls.empty()) {
    Report(Severity::kWarning, draw.packet_address,
           Format("%s shader 0x%08X exports memory but none of the constants it reads holds a "
                  "memexport stream constant",
                  shader->type == xenos::ShaderType::kPixel ? "pixel" : "vertex",
                  shader->guest_address));
  }
}

}  // namespace xnt::replay
