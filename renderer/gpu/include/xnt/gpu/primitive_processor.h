// Primitive processor: turns a guest draw's primitive type and index stream (16/32-bit,
// big-endian with a VGT swap mode, optional primitive reset, or auto-generated) into a host
// index list that Vulkan can draw directly. Runs on the CPU; the output is always 32-bit indices
// of a *list* topology, so strips, fans, loops and resets never reach the host as strips (no
// primitive-restart or fan support is needed from the device, and reset works for every type).
//
// Every index, read or generated, becomes the vertex index the shader sees through the draw's
// VertexIndexRule (vertex_index.h: VGT_INDX_OFFSET, the 24 index bits, the VGT_MIN/MAX_VTX_INDX
// clamp), so the host index list holds final vertex indices and no path adds an offset again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "xnt/gpu/vertex_index.h"
#include "xnt/xenos/enums.h"

namespace xnt::gpu {

enum class HostTopology : uint32_t {
  kPointList,
  kLineList,
  kTriangleList,
  // Triangle list whose triangles are Xenos rectangles (3 corners each); the pipeline adds the
  // geometry shader that emits the fourth corner.
  kRectangleList,
};

struct PrimitiveDraw {
  xenos::PrimitiveType type = xenos::PrimitiveType::kTriangleList;
  // VGT_DRAW_INITIATOR num_indices: guest vertices in the draw (indexed or auto).
  uint32_t vertex_count = 0;
  // Indexed draws: the guest index buffer bytes (exactly as in guest memory). Empty span and
  // indexed = false for auto-indexed draws (VGT_DRAW_INITIATOR source_select = auto).
  bool indexed = false;
  std::span<const uint8_t> index_bytes;
  xenos::IndexFormat index_format = xenos::IndexFormat::kInt16;
  xenos::Endian index_endian = xenos::Endian::kNone;  // VGT_DMA_SIZE swap_mode
  // PA_SU_SC_MODE_CNTL multi_prim_ib_ena and VGT_MULTI_PRIM_IB_RESET_INDX.
  bool reset_enable = false;
  uint32_t reset_index = 0xFFFF;
  // Offset and clamp applied to every index after the reset compare.
  VertexIndexRule vertex_index{};
};

struct HostPrimitives {
  HostTopology topology = HostTopology::kTriangleList;
  std::vector<uint32_t> indices;  // vertex indices after VertexIndexRule, list order
  uint32_t guest_primitive_count = 0;
};

// True when the type is one this processor converts (everything except tessellation patches,
// 2D copy primitives, polygons and triangles-with-W-flags).
bool IsSupportedPrimitiveType(xenos::PrimitiveType type);

// Converts one draw; throws xnt::Error for unsupported types or an index buffer shorter than
// vertex_count indices.
HostPrimitives ProcessPrimitives(const PrimitiveDraw& draw);

// The vertex indices of a draw in draw order, resets dropped and VertexIndexRule applied (what
// the sequencer loads into r0.x, vertex by vertex, for paths that run the vertex shader without
// assembling primitives). False when the index buffer is shorter than the draw.
bool ReadVertexIndices(const PrimitiveDraw& draw, std::vector<uint32_t>& out);

// Reads guest index `i` of a buffer: the VGT fetches whole dwords and applies the swap mode to
// each (Xenia xenos.h GpuSwap), so for 16-bit indices with 8in32 the two halves trade places.
uint32_t ReadGuestIndex(std::span<const uint8_t> bytes, xenos::IndexFormat format,
                        xenos::Endian endian, uint32_t i);

}  // namespace xnt::gpu
