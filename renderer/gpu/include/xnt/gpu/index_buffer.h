// A draw's primitive stream as the VGT sees it, read once per draw: the primitive type and count
// from VGT_DRAW_INITIATOR, primitive reset from PA_SU_SC_MODE_CNTL / VGT_MULTI_PRIM_IB_RESET_INDX,
// and the index bytes from guest memory (DMA) or the packet (immediate). Every consumer of the
// draw (a path's primitive processor, the draw-extent estimate) reads the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xnt/gpu/primitive_processor.h"
#include "xnt/replay/backend.h"

namespace xnt::gpu {

// The draw's PrimitiveDraw; its index_bytes point into `scratch`, which must outlive it. DMA
// indices are copied from call.memory (VGT_DMA_BASE, VGT_DMA_SIZE; the command processor has
// checked the range); immediate VGT_IMMED_DATA words arrive in host order with 16-bit indices
// packed low half first, so their little-endian bytes are the stream and no swap applies.
// Throws xnt::Error when a DMA range leaves the 512 MiB physical space or there is no memory.
// Also throws (TessellatedDrawNote) for a tessellated draw.
PrimitiveDraw ReadPrimitiveDraw(const replay::DrawCall& call, std::vector<uint8_t>& scratch);

// The same stream without that check: a tessellated draw's control-point or patch indices, or
// its adaptive edge factors (gpu/tessellated_draw.h).
PrimitiveDraw ReadDrawStream(const replay::DrawCall& call, std::vector<uint8_t>& scratch);

// VGT_OUTPUT_PATH_CNTL path_select is kTessellationEnable in the explicit major mode, which
// primitive types from 0x10 always use (Xenia xenos.h IsMajorModeExplicit; primitive_processor.cc
// reads the path only then, since games leave it set after tessellated draws).
bool IsTessellated(const replay::DrawCall& call);

// What a reader of primitive streams names when handed a tessellated draw (which every path
// draws through gpu/tessellated_draw.h instead): the mode, the patch type and the count; "" when
// the draw is not tessellated. With VGT_HOS_CNTL tess_mode adaptive the "index buffer" holds float32
// per-edge factors (num_indices = patches x edges), which games compute with memexport (Xenia's
// "Implement memexport" discussion).
std::string TessellatedDrawNote(const replay::DrawCall& call);

}  // namespace xnt::gpu
