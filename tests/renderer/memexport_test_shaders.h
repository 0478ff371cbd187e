// What the memexport tests (memexport_*_test.cpp) draw with besides their exporting shader: a
// colour target, a position-only vertex shader, a constant-colour pixel shader, and a stream
// constant as the float4 the exporting shader reads from c0.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "xnt/capture/pm4_builder.h"
#include "xnt/xenos/memexport_stream.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk::test {

// The D3D device defaults, then a size x size colour target (the default RenderTargetSetup) in
// colour/depth mode with a viewport over all of it.
inline void SetUpColourTarget(capture::Pm4Builder& b, uint32_t size) {
  capture::D3dDeviceDefaults(b);
  capture::RenderTargetSetup rt;
  rt.surface_pitch = size;
  capture::D3dSetRenderTarget(b, rt);
  b.WriteRegister(xenos::Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
  capture::D3dSetViewport(b, 0, 0, float(size), float(size));
}

// A float2 position per vertex (4 dwords apart, vertex fetch constant 0), colour c4.
inline constexpr const char* kPositionVs = R"(xvs_3_0
    exec
    vfetch_full r1.xy__, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=4
    alloc position
    exec
    mov oPos.xy01, r1.xy
    alloc interpolators
    exece
    mov o0, c4
)";
// Colour c0, for draws whose vertex shader does the exporting.
inline constexpr const char* kColourPs = "xps_3_0\n    alloc colors\n    exece\n    mov oC0, c0\n";

// xenos::MemExportStreamDwords as the floats a SetAluConstants call writes (bits unchanged).
inline std::array<float, 4> StreamConstant(uint32_t base_bytes, uint32_t format, uint32_t count,
                                           uint32_t endian) {
  const auto d = xenos::MemExportStreamDwords(base_bytes, format, count, endian);
  return {std::bit_cast<float>(d[0]), std::bit_cast<float>(d[1]), std::bit_cast<float>(d[2]),
          std::bit_cast<float>(d[3])};
}

}  // namespace xnt::vk::test
