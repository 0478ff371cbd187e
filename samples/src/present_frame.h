// How the one-frame scenes end, as D3D's Present records it: the render target resolved (copied,
// no clears) to the front buffer over the rectangle its clear covered, the swap of that front
// buffer, then the ring submission and the frame marker go to the trace.
#pragma once

#include <cstdint>

#include "xnt/capture/pm4_builder.h"
#include "xnt/format/writer.h"
#include "xnt/xenos/enums.h"

namespace xnt::samples {

inline void PresentFrame(capture::Pm4Builder& b, format::Writer& writer,
                         const capture::RenderTargetSetup& rt, const capture::ResolveSetup& clear,
                         uint32_t front_address, uint32_t ring_address, uint32_t width,
                         uint32_t height) {
  capture::ResolveSetup present = clear;
  present.dest_address = front_address;
  present.clear_color = false;
  present.clear_depth = false;
  capture::D3dResolve(b, rt, present);
  capture::D3dSwap(b, front_address, width, height);
  writer.Write(format::Submission{format::SubmissionKind::kRingBuffer, ring_address, b.Take()});
  writer.Write(format::FrameMarker{0, front_address, width, height,
                                   uint32_t(xenos::TextureFormat::k_8_8_8_8)});
}

}  // namespace xnt::samples
