// A well-formed memexport stream constant, as a title's shader set-up writes it into the float4
// ALU constant that eA is computed from (xenos.h xe_gpu_memexport_stream_t; Xenia's "Implement memexport" discussion for Z). The
// fixed bits (X 31:30 = 0b01, Y = Z 31:20 = W 31:23 = the exponent of 2^23) keep every dword a
// normalised float, so the shader's `mad eA, index, c1, c0` carries the fields through unchanged.
// Used by the memexport samples and the memexport tests to build their streams.
#pragma once

#include <array>
#include <cstdint>

#include "xnt/xenos/enums.h"

namespace xnt::xenos {

// The four dwords of a stream of `count` elements of `format` (a ColorFormat number) at
// `base_bytes` (dword aligned). `start_index` goes into Y's low bits; titles leave it 0, and
// MemExportStreamConstant::LooksValid rejects a stream that sets it (the memexport fuzz makes such
// streams on purpose).
constexpr std::array<uint32_t, 4> MemExportStreamDwords(uint32_t base_bytes, uint32_t format,
                                                        uint32_t count, uint32_t endian,
                                                        uint32_t numeric = 0,
                                                        bool red_blue_swap = false,
                                                        uint32_t start_index = 0) {
  return MemExportStreamConstant{base_bytes >> 2,
                                 1,
                                 0x4B000000u | start_index,
                                 Endian128(endian),
                                 TextureFormat(format),
                                 SurfaceNumberFormat(numeric),
                                 red_blue_swap,
                                 0x4B0,
                                 count,
                                 0x96}
      .Encode();
}

}  // namespace xnt::xenos
